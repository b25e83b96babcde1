//! What the table looks like: the felt, the shoe and tray, cards, chips and labels, drawn from the logic's entities.
//! Nothing here decides anything; it follows `CardView`, `HandView`, `BetCircle`, `Bankroll` and `DealerTray` as
//! `present` changes them, and moves every card with an eased slide so the eye can follow the deal.

use super::screen::Screen;
use super::seats::Session;
use super::table::{
    Bankroll, Beats, BetCircle, CardView, DealerTray, DiscardTray, Engine, HandView, Occupants,
    Settlement, ShoeStack, Speed,
};
use crate::engine::{Card, Cents, Outcome, Spot, Suit, Total};
use crate::level::CardBack;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy::sprite::Anchor;

/// The table is laid out for this many logical pixels; the camera scales it to the window.
pub const TABLE_SIZE: Vec2 = Vec2::new(1280.0, 720.0);
/// A card on the felt.
pub const CARD_SIZE: Vec2 = Vec2::new(60.0, 84.0);
/// Where cards leave the shoe.
const SHOE_AT: Vec2 = Vec2::new(566.0, 292.0);
/// Where cards go when a round is cleared.
const TRAY_AT: Vec2 = Vec2::new(-566.0, 292.0);
/// The dealer's first card.
const DEALER_AT: Vec2 = Vec2::new(-23.0, 212.0);
/// The dealer's chip tray.
const DEALER_TRAY_AT: Vec2 = Vec2::new(0.0, 300.0);
/// The arc the seats sit on: its centre and radius.
const ARC_CENTRE: Vec2 = Vec2::new(0.0, 620.0);
const ARC_RADIUS: f32 = 800.0;
/// Degrees between neighbouring seats on the arc.
const SEAT_STEP_DEG: f32 = 13.0;
/// Offsets of a hand's cards, each on the one before (a casino fan), leaning towards the middle of the table.
const FAN: Vec2 = Vec2::new(15.0, 22.0);
/// Distance between a seat's split hands.
const SPLIT_GAP: f32 = 68.0;
/// From a seat's bet circle to its first card.
const HAND_ABOVE_CIRCLE: f32 = 82.0;

/// The fonts, loaded on the Loading screen.
#[derive(Resource, Clone)]
pub struct GameFonts {
    /// Body text.
    pub regular: Handle<Font>,
    /// Card indices, totals, banners.
    pub bold: Handle<Font>,
}

/// Meshes and materials shared by every chip and ring.
#[derive(Resource)]
struct Shapes {
    chip: Handle<Mesh>,
    chip_edge: Handle<Mesh>,
    ring: Handle<Mesh>,
    felt: Handle<Mesh>,
    rail: Handle<Mesh>,
    white: Handle<ColorMaterial>,
    ring_colour: Handle<ColorMaterial>,
    chip_colours: Vec<(Cents, Handle<ColorMaterial>)>,
}

/// Where an entity is heading and how it gets there.
#[derive(Component, Debug)]
struct Slide {
    target: Vec3,
}

/// A card's face as drawn (it lags the logic while the card turns over).
#[derive(Component, Debug)]
struct Drawn {
    face_up: bool,
    /// Seconds into a flip, if turning.
    flipping: Option<f32>,
}

/// The face-up parts of a card.
#[derive(Component)]
struct FaceSide;

/// The back of a card.
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

/// The shoe's count.
#[derive(Component)]
struct ShoeLabel;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, (make_shapes, spawn_camera))
        .add_systems(OnEnter(Screen::Table), dress_table.after(super::TableOpens))
        .add_systems(
            Update,
            (
                dress_cards,
                dress_hands,
                dress_piles,
                slide,
                flip,
                label_hands,
                label_dealer,
                label_seats,
                redraw_piles,
                count_shoe,
                glow_turn,
            )
                .chain()
                .after(super::screen::RoundSet::Present)
                .run_if(in_state(Screen::Table)),
        );
}

fn spawn_camera(mut commands: Commands) {
    commands.spawn((
        Camera2d,
        Projection::Orthographic(OrthographicProjection {
            scaling_mode: bevy::camera::ScalingMode::AutoMin {
                min_width: TABLE_SIZE.x,
                min_height: TABLE_SIZE.y,
            },
            ..OrthographicProjection::default_2d()
        }),
    ));
}

/// Chip colours by value: casino convention for the common ones.
pub fn chip_colour(value: Cents) -> Color {
    match value.0 / 100 {
        0..=1 => Color::srgb_u8(0xf2, 0xf0, 0xe6),
        2..=5 => Color::srgb_u8(0xc8, 0x1e, 0x2c),
        6..=25 => Color::srgb_u8(0x1f, 0x8a, 0x3c),
        26..=100 => Color::srgb_u8(0x1c, 0x1c, 0x22),
        101..=500 => Color::srgb_u8(0x6b, 0x2f, 0x9e),
        501..=1_000 => Color::srgb_u8(0xe8, 0xb0, 0x1a),
        1_001..=5_000 => Color::srgb_u8(0x8a, 0x4b, 0x23),
        _ => Color::srgb_u8(0x2f, 0x6f, 0xd0),
    }
}

fn make_shapes(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    commands.insert_resource(Shapes {
        chip: meshes.add(Circle::new(11.0).mesh().resolution(48)),
        chip_edge: meshes.add(Annulus::new(8.0, 11.0).mesh().resolution(48)),
        ring: meshes.add(Annulus::new(27.0, 30.0).mesh().resolution(64)),
        felt: meshes.add(Circle::new(ARC_RADIUS + 130.0).mesh().resolution(512)),
        rail: meshes.add(Circle::new(ARC_RADIUS + 160.0).mesh().resolution(512)),
        white: materials.add(Color::srgba(1.0, 1.0, 1.0, 0.85)),
        ring_colour: materials.add(Color::srgba(1.0, 0.95, 0.8, 0.55)),
        chip_colours: super::player::CHIP_VALUES
            .iter()
            .map(|&v| (v, materials.add(chip_colour(v))))
            .collect(),
    });
}

/// A seat's bet circle on the arc. Seat 0, first base, is on the dealer's left: the right of the screen.
pub fn seat_point(seat: u8) -> Vec2 {
    let angle = ((3.0 - f32::from(seat)) * SEAT_STEP_DEG).to_radians();
    Vec2::new(
        ARC_CENTRE.x + ARC_RADIUS * angle.sin(),
        ARC_CENTRE.y - ARC_RADIUS * angle.cos(),
    )
}

/// How each card of a seat's hand sits on the one before: up, and in towards the middle of the table.
fn fan(seat: u8) -> Vec2 {
    if seat < 3 {
        Vec2::new(-FAN.x, FAN.y)
    } else {
        FAN
    }
}

/// Where a hand's first card lies, given how many hands its seat has.
fn hand_base(seat: u8, hand: u8, hands_in_seat: u8) -> Vec2 {
    let spread = (f32::from(hand) - (f32::from(hands_in_seat.max(1)) - 1.0) / 2.0) * SPLIT_GAP;
    seat_point(seat) + Vec2::new(spread, HAND_ABOVE_CIRCLE)
}

/// Where a card belongs on the felt.
fn card_place(view: &CardView, hands_in_seat: u8) -> Vec3 {
    let order = f32::from(view.order);
    match view.spot {
        Spot::Dealer => (DEALER_AT + Vec2::new(order * 46.0, 0.0)).extend(10.0 + order),
        Spot::Player { seat, hand } => {
            let at = hand_base(seat, hand, hands_in_seat) + fan(seat) * order;
            at.extend(10.0 + order)
        }
    }
}

fn text(
    fonts: &GameFonts,
    bold: bool,
    size: f32,
    colour: Color,
    words: impl Into<String>,
) -> impl Bundle {
    (
        Text2d::new(words),
        TextFont {
            font: if bold {
                fonts.bold.clone()
            } else {
                fonts.regular.clone()
            }
            .into(),
            font_size: FontSize::Px(size),
            ..default()
        },
        TextColor(colour),
    )
}

/// The felt, the printed rules, the shoe, the tray, the dealer's tray, and a ring and label at every seat.
/// The table's fixed pieces, as the logic spawned them.
#[derive(SystemParam)]
struct Pieces<'w, 's> {
    spots: Query<'w, 's, (Entity, &'static super::table::SeatSpot)>,
    circles: Query<'w, 's, (Entity, &'static BetCircle)>,
    shoes: Query<'w, 's, Entity, With<ShoeStack>>,
    trays: Query<'w, 's, Entity, With<DiscardTray>>,
    house: Query<'w, 's, Entity, With<DealerTray>>,
    clear: ResMut<'w, ClearColor>,
}

fn dress_table(
    mut commands: Commands,
    session: Res<Session>,
    engine: Option<Res<Engine>>,
    fonts: Res<GameFonts>,
    shapes: Res<Shapes>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    pieces: Pieces,
) {
    let Pieces {
        spots,
        circles,
        shoes,
        trays,
        house,
        mut clear,
    } = pieces;
    let (r, g, b) = session.level.felt;
    let felt = Color::srgb_u8(r, g, b);
    clear.0 = Color::srgb_u8(0x1a, 0x10, 0x0a);
    let ink = Color::srgba(1.0, 0.96, 0.85, 0.8);
    commands.spawn((
        Name::new("Rail"),
        Mesh2d(shapes.rail.clone()),
        MeshMaterial2d(materials.add(Color::srgb_u8(0x4a, 0x2c, 0x18))),
        Transform::from_xyz(ARC_CENTRE.x, ARC_CENTRE.y, 0.0),
        DespawnOnExit(Screen::Table),
    ));
    commands.spawn((
        Name::new("Felt"),
        Mesh2d(shapes.felt.clone()),
        MeshMaterial2d(materials.add(felt)),
        Transform::from_xyz(ARC_CENTRE.x, ARC_CENTRE.y, 0.1),
        DespawnOnExit(Screen::Table),
    ));
    if let Some(engine) = engine {
        for (i, line) in engine.table.rules().felt_lines().iter().enumerate() {
            commands.spawn((
                Name::new("Felt print"),
                text(
                    &fonts,
                    i == 0,
                    if i == 0 { 22.0 } else { 15.0 },
                    ink,
                    line.clone(),
                ),
                Transform::from_xyz(0.0, 112.0 - 23.0 * i as f32, 1.0),
                DespawnOnExit(Screen::Table),
            ));
        }
    }
    for entity in &shoes {
        commands.entity(entity).insert((
            Sprite::from_color(Color::srgb_u8(0x22, 0x22, 0x26), Vec2::new(92.0, 112.0)),
            Transform::from_xyz(SHOE_AT.x + 6.0, SHOE_AT.y, 2.0)
                .with_rotation(Quat::from_rotation_z(0.25)),
            children![
                (
                    Sprite::from_color(back_colour(session.level.card_back), CARD_SIZE),
                    Transform::from_xyz(-6.0, 0.0, 0.1),
                ),
                count_label(&fonts),
            ],
        ));
    }
    for entity in &trays {
        commands.entity(entity).insert((
            Sprite::from_color(Color::srgb_u8(0x1e, 0x1e, 0x22), Vec2::new(84.0, 104.0)),
            Transform::from_xyz(TRAY_AT.x, TRAY_AT.y, 2.0)
                .with_rotation(Quat::from_rotation_z(-0.25)),
            children![count_label(&fonts)],
        ));
    }
    for entity in &house {
        commands.entity(entity).insert((
            Sprite::from_color(Color::srgb_u8(0x30, 0x22, 0x16), Vec2::new(300.0, 44.0)),
            Transform::from_xyz(DEALER_TRAY_AT.x, DEALER_TRAY_AT.y, 2.0),
            children![
                (
                    PileLabel,
                    text(&fonts, false, 12.0, ink, ""),
                    Anchor::CENTER_LEFT,
                    Transform::from_xyz(158.0, 0.0, 0.2),
                ),
                (
                    DealerLabel,
                    text(&fonts, true, 18.0, Color::WHITE, ""),
                    Transform::from_xyz(0.0, -148.0, 30.0),
                ),
            ],
        ));
    }
    for (entity, spot) in &spots {
        let at = seat_point(spot.seat);
        commands.entity(entity).insert((
            Transform::from_xyz(at.x, at.y - 44.0, 3.0),
            Visibility::default(),
            children![(
                SeatLabel(spot.seat),
                text(&fonts, false, 14.0, Color::WHITE, ""),
                TextLayout::justify(Justify::Center),
                Anchor::TOP_CENTER,
            )],
        ));
    }
    for (entity, circle) in &circles {
        let at = seat_point(circle.seat);
        commands.entity(entity).insert((
            Mesh2d(shapes.ring.clone()),
            MeshMaterial2d(shapes.ring_colour.clone()),
            Transform::from_xyz(at.x, at.y, 3.0),
        ));
    }
}

/// The count under the shoe or the discard tray.
fn count_label(fonts: &GameFonts) -> impl Bundle {
    (
        ShoeLabel,
        text(fonts, false, 13.0, Color::WHITE, ""),
        Transform::from_xyz(0.0, -70.0, 0.2),
    )
}

fn back_colour(back: CardBack) -> Color {
    match back {
        CardBack::Crimson => Color::srgb_u8(0x9e, 0x1b, 0x2a),
        CardBack::Navy => Color::srgb_u8(0x1b, 0x2f, 0x6e),
    }
}

fn suit_colour(suit: Suit) -> Color {
    match suit {
        Suit::Hearts | Suit::Diamonds => Color::srgb_u8(0xc0, 0x10, 0x20),
        Suit::Clubs | Suit::Spades => Color::srgb_u8(0x14, 0x14, 0x18),
    }
}

/// Gives each new card its face and back, and starts it at the shoe.
fn dress_cards(
    mut commands: Commands,
    session: Res<Session>,
    fonts: Res<GameFonts>,
    beats: Res<Beats>,
    cards: Query<(Entity, &CardView), Added<CardView>>,
) {
    for (entity, view) in &cards {
        let card: Card = view.card;
        let ink = suit_colour(card.suit());
        let rank = card.rank().symbol();
        let suit = card.suit().symbol().to_string();
        let start = if beats.speed == Speed::Instant {
            card_place(view, 1)
        } else {
            SHOE_AT.extend(60.0)
        };
        commands.entity(entity).insert((
            Transform::from_translation(start),
            Visibility::default(),
            Slide {
                target: card_place(view, 1),
            },
            Drawn {
                face_up: view.face_up,
                flipping: None,
            },
            children![
                (
                    Sprite::from_color(Color::srgb_u8(0x9a, 0x96, 0x8c), CARD_SIZE + 2.0),
                    Transform::from_xyz(0.0, 0.0, -0.05),
                ),
                (
                    FaceSide,
                    Sprite::from_color(Color::srgb_u8(0xfb, 0xf9, 0xf3), CARD_SIZE),
                    visible(view.face_up),
                    children![
                        (
                            text(&fonts, true, 21.0, ink, rank),
                            Anchor::TOP_LEFT,
                            Transform::from_xyz(-27.0, 40.0, 0.1),
                        ),
                        (
                            text(&fonts, false, 17.0, ink, suit.clone()),
                            Anchor::TOP_LEFT,
                            Transform::from_xyz(-26.0, 17.0, 0.1),
                        ),
                        (
                            text(&fonts, false, 34.0, ink, suit),
                            Transform::from_xyz(6.0, -14.0, 0.1),
                        ),
                    ],
                ),
                (
                    BackSide,
                    Sprite::from_color(back_colour(session.level.card_back), CARD_SIZE),
                    visible(!view.face_up),
                    children![(
                        Sprite::from_color(Color::srgba(1.0, 1.0, 1.0, 0.18), CARD_SIZE - 12.0),
                        Transform::from_xyz(0.0, 0.0, 0.1),
                    )],
                ),
            ],
        ));
    }
}

fn visible(on: bool) -> Visibility {
    if on {
        Visibility::Inherited
    } else {
        Visibility::Hidden
    }
}

/// Hands get a place for their label and glow.
fn dress_hands(
    mut commands: Commands,
    fonts: Res<GameFonts>,
    hands: Query<Entity, Added<HandView>>,
) {
    for entity in &hands {
        commands.entity(entity).insert((
            Transform::default(),
            Visibility::default(),
            children![
                (
                    HandLabel,
                    text(&fonts, true, 16.0, Color::WHITE, ""),
                    TextLayout::justify(Justify::Center),
                    Anchor::BOTTOM_CENTER,
                    Transform::from_xyz(0.0, 0.0, 40.0),
                ),
                (
                    TurnGlow,
                    Sprite::from_color(Color::srgba(1.0, 0.84, 0.3, 0.45), Vec2::ONE),
                    Transform::from_xyz(0.0, 0.0, -1.0),
                    Visibility::Hidden,
                ),
            ],
        ));
    }
}

/// Bankroll piles sit beside the seat's label.
fn dress_piles(
    mut commands: Commands,
    fonts: Res<GameFonts>,
    bankrolls: Query<Entity, Added<Bankroll>>,
    circles: Query<Entity, Added<BetCircle>>,
) {
    for entity in bankrolls.iter().chain(&circles) {
        commands.entity(entity).with_child((
            PileLabel,
            text(&fonts, true, 13.0, Color::WHITE, ""),
            Anchor::CENTER_LEFT,
            Transform::from_xyz(34.0, 0.0, 0.2),
        ));
    }
}

/// Eased motion: each card closes most of the way to its place every few frames and settles, tilting slightly while
/// it travels. Instant speed puts it there at once.
fn slide(
    time: Res<Time>,
    beats: Res<Beats>,
    mut cards: Query<(&CardView, &mut Slide, &mut Transform)>,
    hands: Query<&HandView>,
) {
    // A tenth of a second closes about two thirds of the way; at instant speed the rate is infinite.
    let rate = 1.0 / beats.speed.seconds(0.1);
    let step = 1.0 - (-rate * time.delta_secs()).exp();
    for (view, mut slide, mut transform) in &mut cards {
        let seat_hands = match view.spot {
            Spot::Player { seat, .. } => hands.iter().filter(|h| h.seat == seat).count() as u8,
            Spot::Dealer => 1,
        };
        slide.target = card_place(view, seat_hands);
        let here = transform.translation;
        let next = if step.is_finite() && step < 1.0 {
            here.lerp(slide.target, step)
        } else {
            slide.target
        };
        let travel = (slide.target.truncate() - next.truncate()).length();
        transform.translation = if travel < 0.5 {
            slide.target
        } else {
            next.with_z(slide.target.z + 20.0)
        };
        transform.rotation = Quat::from_rotation_z((travel / 400.0).min(0.35));
    }
}

/// The hole card turns over: it narrows to an edge, shows its other side, and widens again.
fn flip(
    time: Res<Time>,
    beats: Res<Beats>,
    mut cards: Query<(&CardView, &mut Drawn, &mut Transform, &Children)>,
    mut faces: Query<&mut Visibility, (With<FaceSide>, Without<BackSide>)>,
    mut backs: Query<&mut Visibility, (With<BackSide>, Without<FaceSide>)>,
) {
    const FLIP_SECONDS: f32 = 0.3;
    let length = beats.speed.seconds(FLIP_SECONDS);
    for (view, mut drawn, mut transform, children) in &mut cards {
        if drawn.face_up == view.face_up && drawn.flipping.is_none() {
            continue;
        }
        let t = drawn.flipping.get_or_insert(0.0);
        *t += time.delta_secs();
        let progress = if length > 0.0 { *t / length } else { 1.0 };
        if progress >= 0.5 && drawn.face_up != view.face_up {
            drawn.face_up = view.face_up;
            for child in children {
                if let Ok(mut v) = faces.get_mut(*child) {
                    *v = visible(view.face_up);
                }
                if let Ok(mut v) = backs.get_mut(*child) {
                    *v = visible(!view.face_up);
                }
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
    cards: Query<&CardView>,
    hands: Query<(&HandView, Option<&Settlement>, &Children)>,
    mut labels: Query<(&mut Text2d, &mut Transform, &mut TextColor), With<HandLabel>>,
) {
    for (hand, settlement, children) in &hands {
        let mut shown: Vec<&CardView> = cards.iter().filter(|c| c.spot == hand.spot()).collect();
        shown.sort_by_key(|c| c.order);
        let seat_hands = hands.iter().filter(|(h, ..)| h.seat == hand.seat).count() as u8;
        let faces: Vec<Card> = shown.iter().map(|c| c.card).collect();
        let from_split = seat_hands > 1;
        let mut words = if faces.is_empty() {
            String::new()
        } else {
            total_words(&faces, from_split)
        };
        if let Some(settlement) = settlement {
            words = format!("{words}\n{}", outcome_words(settlement));
        }
        let top = hand_base(hand.seat, hand.hand, seat_hands)
            + fan(hand.seat) * faces.len().saturating_sub(1) as f32
            + Vec2::new(0.0, CARD_SIZE.y / 2.0 + 4.0);
        for child in children {
            if let Ok((mut text, mut transform, mut colour)) = labels.get_mut(*child) {
                if text.0 != words {
                    text.0.clone_from(&words);
                }
                transform.translation = top.extend(40.0);
                colour.0 = match settlement.map(|s| s.outcome) {
                    Some(Outcome::Win | Outcome::Blackjack | Outcome::EvenMoney) => {
                        Color::srgb_u8(0xff, 0xd8, 0x4a)
                    }
                    Some(Outcome::Lose | Outcome::Bust | Outcome::Surrender) => {
                        Color::srgb_u8(0xff, 0x9a, 0x8a)
                    }
                    _ => Color::WHITE,
                };
            }
        }
    }
}

/// The dealer's total counts only cards turned up: the upcard's value until the hole card turns.
fn label_dealer(cards: Query<&CardView>, mut labels: Query<&mut Text2d, With<DealerLabel>>) {
    let up: Vec<Card> = cards
        .iter()
        .filter(|c| c.spot == Spot::Dealer && c.face_up)
        .map(|c| c.card)
        .collect();
    let down = cards.iter().any(|c| c.spot == Spot::Dealer && !c.face_up);
    let words = if up.is_empty() {
        "Dealer".to_string()
    } else if down || up.len() == 1 {
        format!("Dealer shows {}", Total::of(&up).value())
    } else {
        format!("Dealer: {}", total_words(&up, false))
    };

    for mut label in &mut labels {
        if label.0 != words {
            label.0.clone_from(&words);
        }
    }
}

fn label_seats(
    occupants: Res<Occupants>,
    session: Res<Session>,
    bankrolls: Query<&Bankroll>,
    mut labels: Query<(&SeatLabel, &mut Text2d, &mut TextColor)>,
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
        if text.0 != words {
            text.0 = words;
        }
        colour.0 = if mine {
            Color::srgb_u8(0xff, 0xd8, 0x4a)
        } else if occupants.seats[usize::from(seat)].is_some() {
            Color::WHITE
        } else {
            Color::srgba(1.0, 1.0, 1.0, 0.45)
        };
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

/// Chips in bet circles and the dealer's tray are drawn as stacks; bankrolls and circles carry their amount.
#[allow(clippy::type_complexity)]
fn redraw_piles(
    mut commands: Commands,
    shapes: Res<Shapes>,
    circles: Query<(Entity, &BetCircle, &Children), Changed<BetCircle>>,
    trays: Query<(Entity, &DealerTray, &Children), Changed<DealerTray>>,
    bankrolls: Query<(&Bankroll, &Children), Changed<Bankroll>>,
    chips: Query<(), With<ChipSprite>>,
    mut labels: Query<&mut Text2d, With<PileLabel>>,
) {
    let values: Vec<Cents> = shapes.chip_colours.iter().map(|(v, _)| *v).collect();
    let mut stack = |commands: &mut Commands,
                     entity: Entity,
                     children: &Children,
                     amount: Cents,
                     columns: usize,
                     base: f32| {
        for child in children {
            if chips.contains(*child) {
                commands.entity(*child).despawn();
            }
        }
        let pile = chips_for(amount, &values);
        // Up to `columns` stacks of up to 12 chips; the label carries the exact amount.
        for (i, chip) in pile.iter().take(columns * 12).enumerate() {
            let (column, height) = (i / 12, i % 12);
            let x =
                (column as f32 - (columns.min(pile.len().div_ceil(12)) as f32 - 1.0) / 2.0) * 25.0;
            let material = shapes
                .chip_colours
                .iter()
                .find(|(v, _)| v == chip)
                .map_or(shapes.white.clone(), |(_, m)| m.clone());
            commands.entity(entity).with_child((
                ChipSprite,
                Mesh2d(shapes.chip.clone()),
                MeshMaterial2d(material),
                Transform::from_xyz(x, base + height as f32 * 3.5, 1.0 + height as f32 * 0.01),
                children![(
                    Mesh2d(shapes.chip_edge.clone()),
                    MeshMaterial2d(shapes.white.clone()),
                    Transform::from_xyz(0.0, 0.0, 0.001),
                )],
            ));
        }
        for child in children {
            if let Ok(mut label) = labels.get_mut(*child) {
                label.0 = if amount.is_positive() {
                    amount.to_string()
                } else {
                    String::new()
                };
            }
        }
    };
    for (entity, circle, children) in &circles {
        stack(&mut commands, entity, children, circle.amount, 2, 0.0);
    }
    for (entity, tray, children) in &trays {
        stack(&mut commands, entity, children, tray.amount, 10, -10.0);
    }
    // The bankroll's amount is in the seat's label; its pile has no stack of its own to keep the arc readable.
    for (_, children) in &bankrolls {
        for child in children {
            if let Ok(mut label) = labels.get_mut(*child) {
                label.0.clear();
            }
        }
    }
}

/// The shoe and the discard tray say how many cards they hold.
fn count_shoe(
    shoes: Query<(&ShoeStack, &Children), Changed<ShoeStack>>,
    trays: Query<(&DiscardTray, &Children), Changed<DiscardTray>>,
    mut labels: Query<&mut Text2d, With<ShoeLabel>>,
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
                label.0.clone_from(&words);
            }
        }
    }
}

/// The hand in turn glows, once the table has shown everything up to it.
fn glow_turn(
    engine: Option<Res<Engine>>,
    beats: Res<Beats>,
    cards: Query<&CardView>,
    hands: Query<(&HandView, &Children)>,
    mut glows: Query<(&mut Visibility, &mut Transform), With<TurnGlow>>,
) {
    let turn = engine
        .filter(|_| beats.settled())
        .and_then(|e| e.table.hand_in_turn());
    for (hand, children) in &hands {
        let lit = turn == Some((hand.seat, hand.hand));
        let count = cards
            .iter()
            .filter(|c| c.spot == hand.spot())
            .count()
            .max(1);
        let seat_hands = hands.iter().filter(|(h, _)| h.seat == hand.seat).count() as u8;
        let base = hand_base(hand.seat, hand.hand, seat_hands);
        let far = fan(hand.seat) * (count - 1) as f32;
        let size = CARD_SIZE + far + Vec2::splat(12.0);
        for child in children {
            if let Ok((mut visibility, mut transform)) = glows.get_mut(*child) {
                *visibility = visible(lit);
                transform.translation = (base + far / 2.0).extend(9.0);
                transform.scale = size.extend(1.0);
            }
        }
    }
}
