//! What the table looks like: the felt with its rules printed on the curve, the shoe, the discard holder, the
//! dealer's tray, cards, chips, labels and banners, drawn from the logic's entities with the art `holecard-assets`
//! made. Nothing here decides anything; it follows `CardView`, `HandView`, `BetCircle`, `Bankroll` and
//! `DealerTray` as `present` changes them, glides cards from the shoe and flies chips between piles.

use crate::engine::{Card, Cents, Event, Outcome, Spot, TableState, Total};
use crate::game::felt::art::{Art, Look};
use crate::game::felt::fonts::{FontFile, GameFonts, TextWidths};
use crate::game::felt::layout::{
    CARD_SIZE, COUNT_WORDS, Covered, Framing, HAND_WORDS, HOLDER_PICTURE, HOLDER_TURN, LABEL_TOP,
    SEAT_WORDS, SHOE_PICTURE, SHOE_TURN, SIDE_SPOT, TRAY_WORDS, TableLayout, words_box, written,
};
use crate::game::felt::lettering::{Ink, Lettering};
use crate::game::felt::motion::{Animate, Banner, Fade, Flight, Glide};
use crate::game::model::frames::{DrawWhile, Redraw};
use crate::game::model::screen::Screen;
use crate::game::model::session::Session;
use crate::game::model::table::{
    Bankroll, Beats, BetCircle, CardView, ChipsMoved, DealerTray, Delay, DiscardTray, HandView,
    Occupants, Pile, SeatView, Settlement, ShoeStack, Shown, SideSpot,
};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy::sprite::Anchor;
use bevy::sprite_render::AlphaMode2d;

mod camera;
mod cards;
mod chips;
mod fixtures;
mod labels;

use camera::*;
use cards::*;
use chips::*;
use fixtures::*;
use labels::*;

/// A chip on the felt, in table units (the edge band is the offset between chips in a stack).
const CHIP_SIZE: Vec2 = Vec2::new(32.0, 28.0);
/// Height of one chip in a stack.
const CHIP_STEP: f32 = 4.0;
/// Seconds a card takes from the shoe to its place, at normal speed.
const DEAL_SECONDS: f32 = 0.38;
/// Seconds chips take between piles.
const FLIGHT_SECONDS: f32 = 0.42;

/// A card's face as drawn (it lags the logic while the card turns over).
#[derive(Component, Debug)]
struct Drawn {
    face_up: bool,
    /// Seconds into a flip, if turning.
    flipping: Option<f32>,
}

/// The face of a card.
#[derive(Component)]
struct FaceSide;

/// The back of a card (and the one showing at the shoe's mouth).
#[derive(Component)]
struct BackSide;

/// The text over a hand: its total, then its outcome.
#[derive(Component)]
struct HandLabel;

/// The glow behind the hand in turn.
#[derive(Component)]
struct TurnGlow;

/// The dealer's total.
#[derive(Component)]
struct DealerLabel;

/// The name and bankroll under a seat.
#[derive(Component)]
struct SeatLabel(u8);

/// The amount next to a pile of chips.
#[derive(Component)]
struct PileLabel;

/// The chips drawn in a pile (children of the pile).
#[derive(Component)]
struct ChipSprite;

/// What a pile shows: its amount less chips still flying in, plus chips waiting to fly out.
#[derive(Component, Default)]
struct ShownAmount(Option<Cents>);

/// The shoe's or discard holder's count.
#[derive(Component)]
struct CountLabel;

/// The cards lying in the discard holder.
#[derive(Component)]
struct DiscardPile;

/// A fixed piece of the table, placed by the layout.
#[derive(Component, Clone, Copy)]
enum Fixture {
    Rail,
    Felt,
    Shoe,
    Discards,
    DealerTray,
    /// The dealer's total (a child of the tray).
    DealerLabel,
    /// A seat's name and chips.
    Seat(u8),
    /// A seat's bet circle.
    Circle(u8),
    /// A seat's spot for the side bet in this place among those the table offers.
    Side(u8, usize),
}

/// One line of the rules printed along the felt's curve (the first line biggest, nearest the edge).
#[derive(Component)]
struct Printed {
    line: usize,
}

pub(crate) fn plugin(app: &mut App) {
    #[cfg(target_arch = "wasm32")]
    rest_under_cover(app);
    app.init_resource::<TableLayout>()
        .init_resource::<Covered>()
        .init_resource::<crate::game::felt::layout::SitOffered>()
        .init_resource::<Framing>()
        .add_systems(Startup, spawn_camera)
        .add_systems(OnEnter(Screen::Loading), warm_up)
        .add_systems(
            OnEnter(Screen::Table),
            (forget_framing, dress_table, place_fixtures)
                .chain()
                .after(crate::game::model::screen::TableOpens),
        )
        .add_systems(
            Update,
            (
                fit_layout,
                place_fixtures.run_if(resource_changed::<TableLayout>.or_eager(words_resized)),
                dress_cards,
                dress_hands,
                dress_piles,
                restyle_cards,
                place_cards,
                launch_chips,
                raise_banners,
                flip,
                label_hands,
                label_dealer,
                label_seats,
                redraw_piles,
                redraw_side_spots,
                fit_backings,
                count_cards,
                glow_turn,
            )
                .chain()
                .after(crate::game::model::screen::RoundSet::Present)
                .before(Animate)
                .run_if(in_state(Screen::Table)),
        )
        .add_systems(
            PostUpdate,
            frame_table
                .after(bevy_egui::EguiPostUpdateSet::EndPass)
                .before(bevy::transform::TransformSystems::Propagate)
                .before(bevy::camera::CameraUpdateSystems)
                .run_if(in_state(Screen::Table)),
        )
        // A card turning over, and the camera gliding to a new framing (or the HUD or the layout just changed, which
        // the next frame frames and places).
        .draw_while(
            Redraw::EveryFrame,
            in_state(Screen::Table).and_then(
                turning
                    .or_eager(resource_changed::<Framing>)
                    .or_eager(resource_changed::<Covered>)
                    .or_eager(resource_changed::<TableLayout>),
            ),
        );
}

/// A card is turning over, or about to (the clock stopped stops it).
fn turning(time: Res<Time<Virtual>>, cards: Query<(&CardView, &Drawn)>) -> bool {
    !time.is_paused()
        && cards
            .iter()
            .any(|(view, drawn)| drawn.flipping.is_some() || drawn.face_up != view.face_up())
}

fn text(bold: bool, size: f32, colour: Color, words: impl Into<String>) -> (Lettering, Ink) {
    (Lettering::new(words, size, bold), Ink(colour))
}

fn anchored((lettering, ink): (Lettering, Ink), anchor: Anchor) -> (Lettering, Ink) {
    (lettering.anchored(anchor), ink)
}

/// A picture drawn at `size` table units.
fn picture(image: &Handle<Image>, size: Vec2) -> Sprite {
    Sprite {
        image: image.clone(),
        custom_size: Some(size),
        ..default()
    }
}

fn visible(on: bool) -> Visibility {
    if on {
        Visibility::Inherited
    } else {
        Visibility::Hidden
    }
}

/// How many hands a card's seat has on the felt (its hands spread out when it splits).
fn hands_in_seat(spot: Spot, hands: &Query<&HandView>) -> u8 {
    match spot {
        Spot::Player { seat, .. } => hands.iter().filter(|h| h.seat == seat).count() as u8,
        Spot::Dealer => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names are cut by how wide they are written, not by how many letters they have: ten W's do not fit where
    /// fourteen i's do; a cut name ends in "…" and fits; a name that fits is kept whole.
    #[test]
    fn a_seats_name_is_cut_to_the_width_its_label_has() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/fonts/DejaVuSans.ttf");
        let regular = std::fs::read(path).expect("the regular font");
        let widths = TextWidths::of(&regular).expect("a font");
        let width = |text: &str| widths.ems(text);
        let upright = TableLayout::portrait().name_ems();
        let wide = TableLayout::landscape().name_ems();
        for (name, ems, written) in [
            ("Lucky Lou", upright, "Lucky Lou"),
            ("iiiiiiiiiiiiii", upright, "iiiiiiiiiiiiii"),
            ("WWWWWWWWWW", upright, "WWWWW…"),
            ("Maximilian Montgomery", upright, "Maximilia…"),
            ("Maximilian Montgomery", wide, "Maximilian…"),
            ("WWWWWWWWWW", wide, "WWWWWW…"),
        ] {
            let cut = labels::name_to_fit(name, ems, width);
            assert_eq!(cut, written, "{name} in {ems} ems");
            assert!(width(&cut) <= ems, "{cut}: {} ems", width(&cut));
        }
    }

    #[test]
    fn under_the_cover_the_camera_rests_after_the_warm_up_and_wakes_for_the_table() {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, bevy::state::app::StatesPlugin))
            .init_state::<Screen>();
        rest_under_cover(&mut app);
        let camera = app.world_mut().spawn(Camera2d).id();
        let active = |app: &App| app.world().get::<Camera>(camera).map(|c| c.is_active);
        for frame in 1..WARM_UP_FRAMES {
            app.update();
            assert_eq!(active(&app), Some(true), "frame {frame} of the warm-up");
        }
        // However long the loading takes after that, nothing is drawn under the cover.
        for frame in WARM_UP_FRAMES..WARM_UP_FRAMES + 20 {
            app.update();
            assert_eq!(active(&app), Some(false), "frame {frame} of the loading");
        }
        app.world_mut()
            .resource_mut::<NextState<Screen>>()
            .set(Screen::Table);
        app.update();
        assert_eq!(active(&app), Some(true), "the table's first frame");
    }

    #[test]
    fn chips_make_up_the_amount_largest_first() {
        let values = crate::game::model::player::CHIP_VALUES;
        let chips = chips_for(Cents::units(131), &values);
        assert_eq!(
            chips,
            vec![
                Cents::units(100),
                Cents::units(25),
                Cents::units(5),
                Cents::units(1)
            ]
        );
        assert_eq!(chips.iter().copied().sum::<Cents>(), Cents::units(131));
        assert!(chips_for(Cents::ZERO, &values).is_empty());
        // The most chips a table could hold is still a short list: at most 24 of each value.
        let most = chips_for(Cents::MAX_CHIPS, &values);
        assert!(most.len() <= 24 * values.len(), "{}", most.len());
        assert!(most.windows(2).all(|w| w[0] >= w[1]), "largest first");
    }
}
