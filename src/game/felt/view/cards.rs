//! Cards: dealt from the shoe to their places, restyled with the player's look, turned over, and the glow behind the
//! hand in turn.

use super::*;

/// Gives each new card its face, back and shadow, and sends it from the shoe to its place (or fades it in place
/// with reduced motion; instant speed puts it there at once).
#[allow(clippy::too_many_arguments)]
pub(super) fn dress_cards(
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
pub(super) type CardSide = Or<(With<FaceSide>, With<BackSide>)>;

pub(super) fn restyle_cards(
    look: Res<Look>,
    art: Res<Art>,
    mut sides: Query<&mut Sprite, CardSide>,
) {
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
pub(super) fn place_cards(
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
pub(super) fn dress_hands(
    mut commands: Commands,
    art: Res<Art>,
    hands: Query<Entity, Added<HandView>>,
) {
    for entity in &hands {
        commands.entity(entity).insert((
            Transform::default(),
            Visibility::default(),
            children![
                (
                    HandLabel,
                    anchored(
                        text(true, HAND_WORDS, Color::WHITE, ""),
                        Anchor::BOTTOM_CENTER
                    ),
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

/// The hole card turns over: it narrows to an edge, shows its other side, and widens again. With reduced motion it
/// turns at once and fades in.
#[allow(clippy::type_complexity)]
pub(super) fn flip(
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
                        cell.index = crate::game::felt::art::face_cell(card);
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

/// The hand in turn glows, once the table has shown everything up to it.
pub(super) fn glow_turn(
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
