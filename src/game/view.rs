//! What the table looks like: the felt with its rules printed on the curve, the shoe, the discard holder, the
//! dealer's tray, cards, chips, labels and banners, drawn from the logic's entities with the art `holecard-assets`
//! made. Nothing here decides anything; it follows `CardView`, `HandView`, `BetCircle`, `Bankroll` and
//! `DealerTray` as `present` changes them, glides cards from the shoe and flies chips between piles.

use super::art::{Art, Look};
use super::layout::{CARD_SIZE, TableLayout};
use super::lettering::{Ink, Lettering};
use super::motion::{Animate, Banner, Fade, Flight, Glide};
use super::screen::Screen;
use super::session::Session;
use super::table::{
    Bankroll, Beats, BetCircle, CardView, ChipsMoved, DealerTray, Delay, DiscardTray, HandView,
    Occupants, Pile, SeatView, Settlement, ShoeStack, Shown,
};
use crate::engine::{Card, Cents, Event, Outcome, Spot, TableState, Total};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy::sprite::Anchor;
use bevy::sprite_render::AlphaMode2d;

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
}

/// One line of the rules printed along the felt's curve (the first line biggest, nearest the edge).
#[derive(Component)]
struct Printed {
    line: usize,
}

pub(super) fn plugin(app: &mut App) {
    #[cfg(target_arch = "wasm32")]
    rest_under_cover(app);
    app.init_resource::<TableLayout>()
        .add_systems(Startup, spawn_camera)
        .add_systems(OnEnter(Screen::Loading), warm_up)
        .add_systems(
            OnEnter(Screen::Table),
            (dress_table, place_fixtures)
                .chain()
                .after(super::TableOpens),
        )
        .add_systems(
            Update,
            (
                fit_layout,
                place_fixtures.run_if(resource_changed::<TableLayout>),
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
                count_cards,
                glow_turn,
            )
                .chain()
                .after(super::screen::RoundSet::Present)
                .before(Animate)
                .run_if(in_state(Screen::Table)),
        );
}

/// The camera. No multisampling: everything on the table is a textured sprite whose edges are already soft in its
/// picture, and four samples a pixel made each frame several times dearer where WebGL runs in software.
fn spawn_camera(mut commands: Commands) {
    commands.spawn((
        Camera2d,
        bevy::render::view::Msaa::Off,
        projection(&TableLayout::default()),
    ));
}

/// While the assets load (under the loading screen), one invisible piece of each kind the table draws — a sprite, a
/// textured mesh, a line of lettering — so the renderer prepares their shaders then rather than on the table's
/// first frame. Where WebGL runs in software each of those costs a noticeable part of a second.
fn warm_up(
    mut commands: Commands,
    letterer: Res<super::lettering::Letterer>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    let unseen = Color::NONE;
    commands.spawn((
        Name::new("Warm-up sprite"),
        Sprite::from_color(unseen, Vec2::ONE),
        DespawnOnExit(Screen::Loading),
    ));
    // Textured meshes are drawn blended (the lettering) and opaque (the felt).
    let circle = meshes.add(Circle::new(1.0).mesh().resolution(8));
    for alpha_mode in [AlphaMode2d::Blend, AlphaMode2d::Opaque] {
        commands.spawn((
            Name::new("Warm-up mesh"),
            Mesh2d(circle.clone()),
            MeshMaterial2d(materials.add(ColorMaterial {
                color: unseen,
                texture: Some(letterer.atlas().clone()),
                alpha_mode,
                ..default()
            })),
            DespawnOnExit(Screen::Loading),
        ));
    }
    commands.spawn((
        Name::new("Warm-up lettering"),
        text(false, 1.0, unseen, "."),
        DespawnOnExit(Screen::Loading),
    ));
}

/// Frames the camera draws under the browser page's cover before it rests: enough for the warm-up pieces to be
/// prepared (a frame for their pictures, one for their shaders) and drawn.
#[cfg(any(target_arch = "wasm32", test))]
const WARM_UP_FRAMES: u32 = 6;

/// In the browser the page hides the canvas under its own loading bar until the game is ready, so the game's loading
/// screen is never seen there. After the warm-up the camera rests until the table: the one thread the page and the
/// game share goes to downloading and decoding, and the renderer (in software on many machines) is not handed frames
/// nobody sees, which it would still be drawing when the table's first frame comes.
#[cfg(any(target_arch = "wasm32", test))]
fn rest_under_cover(app: &mut App) {
    app.add_systems(Update, rest_after_warm_up.run_if(in_state(Screen::Loading)))
        .add_systems(OnExit(Screen::Loading), wake_camera);
}

#[cfg(any(target_arch = "wasm32", test))]
fn rest_after_warm_up(mut frames: Local<u32>, mut cameras: Query<&mut Camera, With<Camera2d>>) {
    *frames += 1;
    if *frames == WARM_UP_FRAMES {
        for mut camera in &mut cameras {
            camera.is_active = false;
        }
    }
}

/// The table is drawn from its first frame.
#[cfg(any(target_arch = "wasm32", test))]
fn wake_camera(mut cameras: Query<&mut Camera, With<Camera2d>>) {
    for mut camera in &mut cameras {
        camera.is_active = true;
    }
}

/// The camera fits the layout's table into the window, whatever its size.
fn projection(layout: &TableLayout) -> Projection {
    Projection::Orthographic(OrthographicProjection {
        scaling_mode: bevy::camera::ScalingMode::AutoMin {
            min_width: layout.size.x,
            min_height: layout.size.y,
        },
        ..OrthographicProjection::default_2d()
    })
}

/// Picks the layout for the window's shape and the card style, and points the camera at it.
fn fit_layout(
    windows: Query<&Window>,
    look: Res<Look>,
    mut layout: ResMut<TableLayout>,
    mut cameras: Query<&mut Projection, With<Camera2d>>,
) {
    let Ok(window) = windows.single() else {
        return;
    };
    let wanted =
        TableLayout::for_window(window.width(), window.height()).with_large_index(look.large_index);
    if *layout != wanted {
        for mut projection in &mut cameras {
            *projection = super::view::projection(&wanted);
        }
        *layout = wanted;
    }
}

/// Chip colours by value: casino convention for the common ones (the chip art uses the same).
pub fn chip_colour(value: Cents) -> Color {
    let [r, g, b] = crate::design::chip_colours(value).body;
    Color::srgb_u8(r, g, b)
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

/// The table's fixed pieces, as the logic spawned them.
#[derive(SystemParam)]
struct Pieces<'w, 's> {
    spots: Query<'w, 's, (Entity, &'static super::table::SeatSpot)>,
    circles: Query<'w, 's, (Entity, &'static BetCircle)>,
    shoes: Query<'w, 's, Entity, With<ShoeStack>>,
    trays: Query<'w, 's, Entity, With<DiscardTray>>,
    house: Query<'w, 's, Entity, With<DealerTray>>,
}

/// Gives the table's fixed pieces their pictures: the felt tinted for the level, the rules to print, the shoe with
/// the level's card back at its mouth, the discard holder, the dealer's tray, a ring and a label at every seat.
#[allow(clippy::too_many_arguments)]
fn dress_table(
    mut commands: Commands,
    session: Res<Session>,
    seen: Option<Res<SeatView>>,
    art: Res<Art>,
    look: Res<Look>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    mut clear: ResMut<ClearColor>,
    pieces: Pieces,
) {
    let (r, g, b) = session.level.felt;
    clear.0 = Color::srgb_u8(0x1a, 0x10, 0x0a);
    let ink = Color::srgba(1.0, 0.96, 0.85, 0.8);
    commands.spawn((
        Name::new("Rail"),
        Fixture::Rail,
        Mesh2d(meshes.add(Circle::new(1.0).mesh().resolution(256))),
        MeshMaterial2d(materials.add(Color::srgb_u8(0x4a, 0x2c, 0x18))),
        Transform::default(),
        DespawnOnExit(Screen::Table),
    ));
    commands.spawn((
        Name::new("Felt"),
        Fixture::Felt,
        Mesh2d(meshes.add(Circle::new(1.0).mesh().resolution(256))),
        MeshMaterial2d(materials.add(ColorMaterial {
            color: Color::srgb_u8(r, g, b),
            texture: Some(art.felt.clone()),
            // The felt is opaque: drawn without blending, and the rail under it is drawn only where it shows.
            alpha_mode: AlphaMode2d::Opaque,
            ..default()
        })),
        Transform::default(),
        DespawnOnExit(Screen::Table),
    ));
    if let Some(seen) = seen {
        for (line, words) in seen.0.rules().felt_lines().iter().enumerate() {
            let size = if line == 0 { 24.0 } else { 15.0 };
            commands.spawn((
                Name::new("Felt print"),
                Printed { line },
                text(line == 0, size, ink, words.as_str()),
                DespawnOnExit(Screen::Table),
            ));
        }
    }
    for entity in &pieces.shoes {
        commands.entity(entity).insert((
            Fixture::Shoe,
            picture(&art.shoe, Vec2::new(92.0, 112.0)),
            children![
                (
                    BackSide,
                    art.back(*look, session.level.card_back, CARD_SIZE * 0.92),
                    Transform::from_xyz(0.0, 7.0, 0.1),
                ),
                count_label(),
            ],
        ));
    }
    for entity in &pieces.trays {
        commands.entity(entity).insert((
            Fixture::Discards,
            picture(&art.discard, Vec2::new(84.0, 104.0)),
            children![
                (
                    DiscardPile,
                    BackSide,
                    art.back(*look, session.level.card_back, CARD_SIZE),
                    Transform::from_xyz(0.0, 0.0, 0.1).with_rotation(Quat::from_rotation_z(0.06)),
                    Visibility::Hidden,
                ),
                count_label(),
            ],
        ));
    }
    for entity in &pieces.house {
        commands.entity(entity).insert((
            Fixture::DealerTray,
            picture(&art.chip_tray, Vec2::new(300.0, 44.0)),
            ShownAmount::default(),
            children![
                (
                    PileLabel,
                    anchored(text(false, 12.0, ink, ""), Anchor::CENTER_LEFT),
                    Transform::from_xyz(158.0, 0.0, 0.2),
                ),
                (
                    DealerLabel,
                    Fixture::DealerLabel,
                    text(true, 18.0, Color::WHITE, ""),
                ),
            ],
        ));
    }
    for (entity, spot) in &pieces.spots {
        commands.entity(entity).insert((
            Fixture::Seat(spot.seat),
            Transform::default(),
            Visibility::default(),
            children![(
                SeatLabel(spot.seat),
                anchored(text(false, 14.0, Color::WHITE, ""), Anchor::TOP_CENTER),
            )],
        ));
    }
    for (entity, circle) in &pieces.circles {
        commands.entity(entity).insert((
            Fixture::Circle(circle.seat),
            picture(&art.ring, Vec2::splat(64.0)),
            ShownAmount::default(),
        ));
    }
}

/// Puts the fixed pieces where the layout says: on entering the table and whenever the window changes shape.
fn place_fixtures(
    layout: Res<TableLayout>,
    mut fixtures: Query<(&Fixture, &mut Transform), Without<Printed>>,
    mut printed: Query<(&Printed, &mut Transform, &mut Lettering)>,
) {
    for (fixture, mut transform) in &mut fixtures {
        *transform = match *fixture {
            Fixture::Rail => Transform::from_translation(layout.centre.extend(0.0)).with_scale(
                Vec3::new(layout.felt_radius + 30.0, layout.felt_radius + 30.0, 1.0),
            ),
            Fixture::Felt => Transform::from_translation(layout.centre.extend(0.1))
                .with_scale(Vec3::new(layout.felt_radius, layout.felt_radius, 1.0)),
            Fixture::Shoe => {
                Transform::from_translation((layout.shoe + Vec2::new(6.0, 0.0)).extend(2.0))
                    .with_rotation(Quat::from_rotation_z(0.25))
            }
            Fixture::Discards => Transform::from_translation(layout.discards.extend(2.0))
                .with_rotation(Quat::from_rotation_z(-0.25)),
            Fixture::DealerTray => Transform::from_translation(layout.dealer_tray.extend(2.0)),
            Fixture::DealerLabel => {
                Transform::from_translation((layout.dealer_label - layout.dealer_tray).extend(30.0))
            }
            Fixture::Seat(seat) => {
                let at = layout.seat_point(seat);
                Transform::from_xyz(at.x, at.y - 44.0, 3.0)
            }
            Fixture::Circle(seat) => {
                Transform::from_translation(layout.seat_point(seat).extend(3.0))
            }
        };
    }
    // The rules follow the felt's edge, each line a little further in than the one before.
    for (line, mut transform, mut lettering) in &mut printed {
        *transform = Transform::from_translation(layout.print_centre.extend(1.0));
        let radius = Some(layout.print_radius + 28.0 * line.line as f32);
        if lettering.arc != radius {
            lettering.arc = radius;
        }
    }
}

/// The count under the shoe or the discard holder.
fn count_label() -> impl Bundle {
    (
        CountLabel,
        text(false, 13.0, Color::WHITE, ""),
        Transform::from_xyz(0.0, -70.0, 0.2),
    )
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

/// Gives each new card its face, back and shadow, and sends it from the shoe to its place (or fades it in place
/// with reduced motion; instant speed puts it there at once).
#[allow(clippy::too_many_arguments)]
fn dress_cards(
    mut commands: Commands,
    session: Res<Session>,
    art: Res<Art>,
    look: Res<Look>,
    beats: Res<Beats>,
    layout: Res<TableLayout>,
    cards: Query<(Entity, &CardView), Added<CardView>>,
    hands: Query<&HandView>,
) {
    let seconds = beats.speed.seconds(DEAL_SECONDS);
    for (entity, view) in &cards {
        let place = layout.card_place(view.spot, view.order, hands_in_seat(view.spot, &hands));
        let mut glide = Glide::at(place);
        let mut start = place;
        if !look.reduced_motion && seconds > 0.0 {
            start = layout.shoe.extend(60.0);
            // Cards leave the shoe turned a little, the way a dealer's flick sends them, and settle square.
            let tilt = if place.x < layout.shoe.x { 0.35 } else { -0.35 };
            glide.retarget(start, place, seconds, tilt);
        }
        let mut card = commands.entity(entity);
        card.insert((
            Transform::from_translation(start),
            Visibility::default(),
            glide,
            Drawn {
                face_up: view.face_up(),
                flipping: None,
            },
            children![
                (
                    // A soft shadow: the card's own shape, dark and a little offset.
                    Sprite {
                        color: Color::srgba(0.0, 0.0, 0.0, 0.3),
                        ..art.back(*look, session.level.card_back, CARD_SIZE + 2.0)
                    },
                    Transform::from_xyz(2.0, -3.0, -0.05),
                ),
                (
                    FaceSide,
                    // A face-down card's face is unknown: its face side is printed when it turns (see `flip`).
                    match view.card {
                        Some(face) => art.face(*look, face, CARD_SIZE),
                        None => art.back(*look, session.level.card_back, CARD_SIZE),
                    },
                    visible(view.face_up()),
                ),
                (
                    BackSide,
                    art.back(*look, session.level.card_back, CARD_SIZE),
                    visible(!view.face_up()),
                ),
            ],
        ));
        if look.reduced_motion && seconds > 0.0 {
            card.insert(Fade::r#in(seconds));
        }
    }
}

/// Reprints every card when the player picks another card style.
/// Both sides of a card (and the back at the shoe's mouth).
type CardSide = Or<(With<FaceSide>, With<BackSide>)>;

fn restyle_cards(look: Res<Look>, art: Res<Art>, mut sides: Query<&mut Sprite, CardSide>) {
    if !look.is_changed() || look.is_added() {
        return;
    }
    let deck = art.deck(*look);
    for mut sprite in &mut sides {
        sprite.image = deck.clone();
    }
}

/// Keeps every card heading for its place: a split sends the second card across to its new hand, and the hands
/// of a seat slide apart to make room.
fn place_cards(
    beats: Res<Beats>,
    look: Res<Look>,
    layout: Res<TableLayout>,
    mut cards: Query<(&CardView, &mut Glide, &Transform)>,
    hands: Query<&HandView>,
) {
    let seconds = if look.reduced_motion {
        0.0
    } else {
        beats.speed.seconds(DEAL_SECONDS * 0.8)
    };
    for (view, mut glide, transform) in &mut cards {
        let place = layout.card_place(view.spot, view.order, hands_in_seat(view.spot, &hands));
        if glide.to != place {
            glide.retarget(transform.translation, place, seconds, 0.0);
        }
    }
}

/// Hands get a place for their label and glow.
fn dress_hands(mut commands: Commands, art: Res<Art>, hands: Query<Entity, Added<HandView>>) {
    for entity in &hands {
        commands.entity(entity).insert((
            Transform::default(),
            Visibility::default(),
            children![
                (
                    HandLabel,
                    anchored(text(true, 16.0, Color::WHITE, ""), Anchor::BOTTOM_CENTER),
                    Transform::from_xyz(0.0, 0.0, 40.0),
                ),
                (
                    TurnGlow,
                    Sprite {
                        color: Color::srgba(1.0, 1.0, 1.0, 0.8),
                        ..Sprite::from_image(art.glow.clone())
                    },
                    Transform::from_xyz(0.0, 0.0, -1.0),
                    Visibility::Hidden,
                ),
            ],
        ));
    }
}

/// Bankrolls and bet circles carry their amount in a label beside them.
fn dress_piles(
    mut commands: Commands,
    bankrolls: Query<Entity, Added<Bankroll>>,
    circles: Query<Entity, Added<BetCircle>>,
) {
    for entity in bankrolls.iter().chain(&circles) {
        commands.entity(entity).insert(ShownAmount::default());
        commands.entity(entity).with_child((
            PileLabel,
            anchored(text(true, 13.0, Color::WHITE, ""), Anchor::CENTER_LEFT),
            Transform::from_xyz(34.0, 0.0, 0.2),
        ));
    }
}

/// The piles on the felt, found by what the logic calls them.
#[derive(SystemParam)]
struct Piles<'w, 's> {
    bankrolls: Query<'w, 's, (Entity, &'static Bankroll)>,
    circles: Query<'w, 's, (Entity, &'static BetCircle)>,
    house: Query<'w, 's, Entity, With<DealerTray>>,
}

impl Piles<'_, '_> {
    /// A pile's entity and where its chips sit.
    fn find(&self, pile: Pile, layout: &TableLayout) -> Option<(Entity, Vec3)> {
        match pile {
            Pile::Bankroll(seat) => self
                .bankrolls
                .iter()
                .find(|(_, b)| b.seat == seat)
                .map(|(e, _)| (e, layout.bankroll_point(seat).extend(50.0))),
            Pile::Circle(seat) => self
                .circles
                .iter()
                .find(|(_, c)| c.seat == seat)
                .map(|(e, _)| (e, layout.seat_point(seat).extend(50.0))),
            Pile::Tray => self
                .house
                .iter()
                .next()
                .map(|e| (e, layout.dealer_tray.extend(50.0))),
        }
    }
}

/// Flies the chips the table moved: from the bankroll to the circle when a bet goes down, from the tray to a
/// winning bet and then to the player, from a losing bet into the tray. Reduced motion fades them in where they
/// land; instant speed only redraws the piles.
#[allow(clippy::too_many_arguments)]
fn launch_chips(
    mut commands: Commands,
    mut moves: MessageReader<ChipsMoved>,
    beats: Res<Beats>,
    look: Res<Look>,
    art: Res<Art>,
    layout: Res<TableLayout>,
    piles: Piles,
) {
    let seconds = beats.speed.seconds(FLIGHT_SECONDS);
    for moved in moves.read() {
        if seconds <= 0.0 {
            continue;
        }
        let (Some((source, from)), Some((destination, to))) = (
            piles.find(moved.from, &layout),
            piles.find(moved.to, &layout),
        ) else {
            continue;
        };
        let delay = match moved.after {
            Delay::Now => 0.0,
            Delay::Then => seconds * 1.2,
        };
        let flight = Flight::new(
            source,
            destination,
            moved.amount,
            from,
            to,
            delay,
            seconds,
            look.reduced_motion,
        );
        let mut chips = chips_for(moved.amount, &super::player::CHIP_VALUES);
        chips.truncate(6);
        commands
            .spawn((
                Name::new("Chips in flight"),
                Transform::from_translation(flight.start()),
                Visibility::Hidden,
                flight,
                DespawnOnExit(Screen::Table),
            ))
            .with_children(|stack| {
                for (height, &chip) in chips.iter().rev().enumerate() {
                    stack.spawn((
                        art.chip(chip, CHIP_SIZE),
                        Transform::from_xyz(0.0, height as f32 * CHIP_STEP, height as f32 * 0.01),
                    ));
                }
            });
    }
}

/// "Blackjack!", "Bust" and "Push" over the hand, and "Dealer busts" over the dealer's cards, as the table shows
/// them; the player's own hands get the bigger banner.
#[allow(clippy::too_many_arguments)]
fn raise_banners(
    mut commands: Commands,
    mut shown: MessageReader<Shown>,
    beats: Res<Beats>,
    look: Res<Look>,
    art: Res<Art>,
    layout: Res<TableLayout>,
    session: Res<Session>,
    cards: Query<&CardView>,
    hands: Query<&HandView>,
) {
    for Shown(event) in shown.read() {
        let (words, colour, seat_hand) = match *event {
            Event::Blackjack { seat, hand } => (
                "Blackjack!",
                Color::srgb_u8(0xff, 0xd8, 0x4a),
                Some((seat, hand)),
            ),
            Event::Busted { seat, hand, .. } => {
                ("Bust", Color::srgb_u8(0xff, 0x9a, 0x8a), Some((seat, hand)))
            }
            Event::Settled {
                seat,
                hand,
                outcome: Outcome::Push,
                ..
            } => ("Push", Color::WHITE, Some((seat, hand))),
            Event::DealerBusted { .. } => ("Dealer busts", Color::srgb_u8(0x9a, 0xf0, 0xa0), None),
            _ => continue,
        };
        let (at, scale) = match seat_hand {
            Some((seat, hand)) => {
                let spot = Spot::Player { seat, hand };
                let count = cards.iter().filter(|c| c.spot == spot).count();
                let seat_hands = hands.iter().filter(|h| h.seat == seat).count() as u8;
                // Across the middle of the hand's cards, over them while it shows.
                let first = layout.hand_base(seat, hand, seat_hands);
                let last = first + layout.fan(seat) * count.saturating_sub(1) as f32;
                let mine = session.player_seat == Some(seat);
                ((first + last) / 2.0, if mine { 1.0 } else { 0.72 })
            }
            None => (layout.dealer + Vec2::new(46.0, 0.0), 1.0),
        };
        commands.spawn((
            Name::new(format!("Banner {words}")),
            Banner::new(scale, beats.speed, look.reduced_motion),
            picture(&art.banner, Vec2::new(168.0, 37.0)),
            Transform::from_translation(at.extend(80.0)).with_scale(Vec3::splat(scale)),
            DespawnOnExit(Screen::Table),
            children![(
                text(true, 19.0, colour, words),
                Transform::from_xyz(0.0, 0.0, 0.1),
            )],
        ));
    }
}

/// The hole card turns over: it narrows to an edge, shows its other side, and widens again. With reduced motion it
/// turns at once and fades in.
#[allow(clippy::type_complexity)]
fn flip(
    mut commands: Commands,
    time: Res<Time>,
    beats: Res<Beats>,
    look: Res<Look>,
    mut cards: Query<(Entity, &CardView, &mut Drawn, &mut Transform, &Children)>,
    mut faces: Query<(&mut Visibility, &mut Sprite), (With<FaceSide>, Without<BackSide>)>,
    mut backs: Query<&mut Visibility, (With<BackSide>, Without<FaceSide>)>,
) {
    const FLIP_SECONDS: f32 = 0.3;
    let length = beats.speed.seconds(FLIP_SECONDS);
    for (entity, view, mut drawn, mut transform, children) in &mut cards {
        if drawn.face_up == view.face_up() && drawn.flipping.is_none() {
            continue;
        }
        let t = drawn.flipping.get_or_insert(0.0);
        *t += time.delta_secs();
        let progress = if length > 0.0 && !look.reduced_motion {
            *t / length
        } else {
            1.0
        };
        if progress >= 0.5 && drawn.face_up != view.face_up() {
            drawn.face_up = view.face_up();
            for child in children {
                if let Ok((mut v, mut sprite)) = faces.get_mut(*child) {
                    *v = visible(view.face_up());
                    // The face arrives as the card turns: print it on the side now showing.
                    if let (Some(card), Some(cell)) = (view.card, sprite.texture_atlas.as_mut()) {
                        cell.index = super::art::face_cell(card);
                    }
                }
                if let Ok(mut v) = backs.get_mut(*child) {
                    *v = visible(!view.face_up());
                }
            }
            if look.reduced_motion && length > 0.0 {
                commands.entity(entity).insert(Fade::r#in(length));
            }
        }
        if progress >= 1.0 {
            drawn.flipping = None;
            transform.scale.x = 1.0;
        } else {
            transform.scale.x = (1.0 - 2.0 * progress).abs().max(0.02);
        }
    }
}

/// "soft 17", "hard 12", "Blackjack!", "Bust" — from the cards as shown, with the outcome once settled.
pub fn total_words(cards: &[Card], from_split: bool) -> String {
    let total = Total::of(cards);
    if cards.len() == 2 && total.value() == 21 && !from_split {
        "Blackjack!".to_string()
    } else if total.is_bust() {
        format!("Bust ({})", total.value())
    } else if total.is_soft() {
        format!("soft {}", total.value())
    } else {
        format!("hard {}", total.value())
    }
}

/// An outcome and its amount: "Win +$20", "Lose −$10", "Push".
pub fn outcome_words(settlement: &Settlement) -> String {
    let amount = settlement.net;
    match settlement.outcome {
        Outcome::Push => "Push".to_string(),
        outcome if amount.0 > 0 => format!("{} +{amount}", outcome.label()),
        outcome if amount.0 < 0 => format!("{} −{}", outcome.label(), -amount),
        outcome => outcome.label().to_string(),
    }
}

fn label_hands(
    layout: Res<TableLayout>,
    cards: Query<&CardView>,
    hands: Query<(&HandView, Option<&Settlement>, &Children)>,
    mut labels: Query<(&mut Lettering, &mut Transform, &mut Ink), With<HandLabel>>,
) {
    for (hand, settlement, children) in &hands {
        let mut shown: Vec<&CardView> = cards.iter().filter(|c| c.spot == hand.spot()).collect();
        shown.sort_by_key(|c| c.order);
        let seat_hands = hands.iter().filter(|(h, ..)| h.seat == hand.seat).count() as u8;
        let faces: Vec<Card> = shown.iter().filter_map(|c| c.card).collect();
        let from_split = seat_hands > 1;
        let mut words = if faces.is_empty() {
            String::new()
        } else {
            total_words(&faces, from_split)
        };
        if let Some(settlement) = settlement {
            words = format!("{words}\n{}", outcome_words(settlement));
        }
        let top = layout.hand_top(hand.seat, hand.hand, seat_hands, faces.len());
        for child in children {
            if let Ok((mut text, mut transform, mut colour)) = labels.get_mut(*child) {
                if text.words != words {
                    text.words.clone_from(&words);
                }
                transform.translation = top.extend(40.0);
                colour.set_if_neq(Ink(match settlement.map(|s| s.outcome) {
                    Some(Outcome::Win | Outcome::Blackjack | Outcome::EvenMoney) => {
                        Color::srgb_u8(0xff, 0xd8, 0x4a)
                    }
                    Some(Outcome::Lose | Outcome::Bust | Outcome::Surrender) => {
                        Color::srgb_u8(0xff, 0x9a, 0x8a)
                    }
                    _ => Color::WHITE,
                }));
            }
        }
    }
}

/// The dealer's total counts only cards turned up as drawn: the upcard's value until the hole card has turned.
fn label_dealer(
    cards: Query<(&CardView, Option<&Drawn>)>,
    mut labels: Query<&mut Lettering, With<DealerLabel>>,
) {
    let dealer = cards
        .iter()
        .filter(|(c, _)| c.spot == Spot::Dealer)
        .map(|(c, drawn)| (c.card, drawn.map_or(c.face_up(), |d| d.face_up)));
    let up: Vec<Card> = dealer
        .clone()
        .filter_map(|(card, up)| card.filter(|_| up))
        .collect();
    let down = dealer.clone().any(|(_, up)| !up);
    let words = if up.is_empty() {
        "Dealer".to_string()
    } else if down || up.len() == 1 {
        format!("Dealer shows {}", Total::of(&up).value())
    } else {
        format!("Dealer: {}", total_words(&up, false))
    };

    for mut label in &mut labels {
        if label.words != words {
            label.words.clone_from(&words);
        }
    }
}

fn label_seats(
    occupants: Res<Occupants>,
    session: Res<Session>,
    bankrolls: Query<&Bankroll>,
    mut labels: Query<(&SeatLabel, &mut Lettering, &mut Ink)>,
) {
    for (label, mut text, mut colour) in &mut labels {
        let seat = label.0;
        let mine = session.player_seat == Some(seat);
        let words = match &occupants.seats[usize::from(seat)] {
            Some(occupant) => {
                let chips = bankrolls
                    .iter()
                    .find(|b| b.seat == seat)
                    .map_or(Cents::ZERO, |b| b.amount);
                format!("{}\n{chips}", occupant.name)
            }
            None => "open seat".to_string(),
        };
        if text.words != words {
            text.words = words;
        }
        colour.set_if_neq(Ink(if mine {
            Color::srgb_u8(0xff, 0xd8, 0x4a)
        } else if occupants.seats[usize::from(seat)].is_some() {
            Color::WHITE
        } else {
            Color::srgba(1.0, 1.0, 1.0, 0.45)
        }));
    }
}

/// The chips that make up `amount`, largest first, from the table's denominations.
pub fn chips_for(amount: Cents, values: &[Cents]) -> Vec<Cents> {
    let mut left = amount.0.max(0);
    let mut chips = Vec::new();
    for value in values.iter().rev() {
        while value.0 > 0 && left >= value.0 {
            chips.push(*value);
            left -= value.0;
        }
    }
    chips
}

/// What a pile should show now: its amount, with chips still in the air not yet landed and chips waiting to leave
/// still there.
fn shown_amount(entity: Entity, amount: Cents, flights: &Query<&Flight>) -> Cents {
    flights.iter().fold(amount, |shown, flight| {
        let mut shown = shown;
        if flight.source == entity && flight.waiting() {
            shown += flight.amount;
        }
        if flight.destination == entity {
            shown -= flight.amount;
        }
        shown
    })
}

/// Chips in bet circles and the dealer's tray are drawn as stacks, each chip a little above the one under it;
/// circles carry their amount in a label. Bankrolls are counted in the seat's label.
#[allow(clippy::type_complexity)]
fn redraw_piles(
    mut commands: Commands,
    art: Res<Art>,
    flights: Query<&Flight>,
    mut circles: Query<(Entity, &BetCircle, &mut ShownAmount, &Children), Without<DealerTray>>,
    mut trays: Query<(Entity, &DealerTray, &mut ShownAmount, &Children), Without<BetCircle>>,
    chips: Query<(), With<ChipSprite>>,
    mut labels: Query<&mut Lettering, With<PileLabel>>,
) {
    let mut stack = |commands: &mut Commands,
                     entity: Entity,
                     children: &Children,
                     amount: Cents,
                     house: bool| {
        for child in children {
            if chips.contains(*child) {
                commands.entity(*child).despawn();
            }
        }
        let pile = chips_for(amount, &super::player::CHIP_VALUES);
        // Circles: up to two stacks of twelve. The tray: a stack of each value in its own groove.
        let columns: Vec<Vec<Cents>> = if house {
            let mut by_value: Vec<Vec<Cents>> = Vec::new();
            for chip in pile {
                match by_value.last_mut() {
                    Some(column) if column[0] == chip => column.push(chip),
                    _ => by_value.push(vec![chip]),
                }
            }
            by_value.truncate(8);
            by_value.iter_mut().for_each(|c| c.truncate(6));
            by_value
        } else {
            pile.chunks(12).take(2).map(<[Cents]>::to_vec).collect()
        };
        let count = columns.len() as f32;
        for (i, column) in columns.iter().enumerate() {
            let x = if house {
                -126.0 + 36.0 * i as f32
            } else {
                (i as f32 - (count - 1.0) / 2.0) * 30.0
            };
            let base = if house { -10.0 } else { -4.0 };
            // The biggest chips at the bottom of the stack.
            for (height, &chip) in column.iter().enumerate() {
                commands.entity(entity).with_child((
                    ChipSprite,
                    art.chip(chip, CHIP_SIZE),
                    Transform::from_xyz(
                        x,
                        base + height as f32 * CHIP_STEP,
                        1.0 + height as f32 * 0.01,
                    ),
                ));
            }
        }
        for child in children {
            if let Ok(mut label) = labels.get_mut(*child) {
                label.words = if amount.is_positive() {
                    amount.to_string()
                } else {
                    String::new()
                };
            }
        }
    };
    for (entity, circle, mut shown, children) in &mut circles {
        let now = shown_amount(entity, circle.amount, &flights);
        if shown.0 != Some(now) {
            shown.0 = Some(now);
            stack(&mut commands, entity, children, now, false);
        }
    }
    for (entity, tray, mut shown, children) in &mut trays {
        let now = shown_amount(entity, tray.amount, &flights);
        if shown.0 != Some(now) {
            shown.0 = Some(now);
            stack(&mut commands, entity, children, now, true);
        }
    }
}

/// The shoe and the discard holder say how many cards they hold; the holder shows its cards once it has any.
#[allow(clippy::type_complexity)]
fn count_cards(
    shoes: Query<(&ShoeStack, &Children), Changed<ShoeStack>>,
    trays: Query<(&DiscardTray, &Children), Changed<DiscardTray>>,
    mut labels: Query<&mut Lettering, With<CountLabel>>,
    mut piles: Query<&mut Visibility, With<DiscardPile>>,
) {
    let counts = shoes
        .iter()
        .map(|(shoe, children)| (format!("{} in the shoe", shoe.remaining), children))
        .chain(
            trays
                .iter()
                .map(|(tray, children)| (format!("{} discards", tray.cards), children)),
        );
    for (words, children) in counts {
        for child in children {
            if let Ok(mut label) = labels.get_mut(*child) {
                label.words.clone_from(&words);
            }
        }
    }
    for (tray, children) in &trays {
        for child in children {
            if let Ok(mut visibility) = piles.get_mut(*child) {
                *visibility = visible(tray.cards > 0);
            }
        }
    }
}

/// The hand in turn glows, once the table has shown everything up to it.
fn glow_turn(
    seen: Option<Res<SeatView>>,
    beats: Res<Beats>,
    layout: Res<TableLayout>,
    cards: Query<&CardView>,
    hands: Query<(&HandView, &Children)>,
    mut glows: Query<(&mut Visibility, &mut Transform, &mut Sprite), With<TurnGlow>>,
) {
    let turn = seen
        .filter(|_| beats.settled())
        .and_then(|s| s.0.hand_in_turn());
    for (hand, children) in &hands {
        let lit = turn == Some((hand.seat, hand.hand));
        let count = cards
            .iter()
            .filter(|c| c.spot == hand.spot())
            .count()
            .max(1);
        let seat_hands = hands.iter().filter(|(h, _)| h.seat == hand.seat).count() as u8;
        let base = layout.hand_base(hand.seat, hand.hand, seat_hands);
        let far = layout.fan(hand.seat) * (count - 1) as f32;
        // The glow picture's soft edge takes up a fifth of it on each side.
        let size = (CARD_SIZE + far.abs() + Vec2::splat(16.0)) * (128.0 / 80.0);
        for child in children {
            if let Ok((mut visibility, mut transform, mut sprite)) = glows.get_mut(*child) {
                *visibility = visible(lit);
                transform.translation = (base + far / 2.0).extend(9.0);
                sprite.custom_size = Some(size);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let values = super::super::player::CHIP_VALUES;
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
    }
}
