//! Chips: the piles in bankrolls, bet circles and the dealer's tray, and the chips that fly between them.

use super::*;

/// Bankrolls and bet circles carry their amount in a label beside them.
pub(super) fn dress_piles(
    mut commands: Commands,
    bankrolls: Query<Entity, Added<Bankroll>>,
    circles: Query<Entity, Added<BetCircle>>,
) {
    for entity in bankrolls.iter().chain(&circles) {
        commands.entity(entity).insert(ShownAmount::default());
        // Placed where the layout writes a bet's amount (`place_fixtures`), on a dark backing.
        commands.entity(entity).with_child((
            PileLabel,
            text(true, 13.0, Color::WHITE, ""),
            Transform::from_xyz(0.0, 0.0, 3.0),
            children![(
                Backing,
                Sprite::from_color(Color::srgba(0.0, 0.0, 0.0, 0.55), Vec2::ONE),
                Transform::from_xyz(0.0, 0.0, -0.1),
                Visibility::Hidden,
            )],
        ));
    }
}

/// The dark box behind a bet's amount, so it reads over chips and felt alike.
#[derive(Component)]
pub(super) struct Backing;

/// Each backing fits the words in front of it (as last laid out), a little larger, and shows only behind words.
pub(super) fn fit_backings(
    mut backings: Query<(&ChildOf, &mut Sprite, &mut Transform, &mut Visibility), With<Backing>>,
    words: Query<(&Lettering, &crate::game::felt::lettering::LaidOut)>,
) {
    for (parent, mut sprite, mut transform, mut visibility) in &mut backings {
        let Ok((lettering, laid)) = words.get(parent.parent()) else {
            continue;
        };
        let shown = !lettering.words.is_empty() && laid.size.x > 0.0;
        let size = laid.size + Vec2::new(laid.size.y * 0.5, 2.0);
        let centre = words_box(lettering.anchor, Vec2::ZERO, laid.size).center();
        if sprite.custom_size != Some(size) {
            sprite.custom_size = Some(size);
        }
        if transform.translation.truncate() != centre {
            transform.translation = centre.extend(-0.1);
        }
        visibility.set_if_neq(visible(shown));
    }
}

/// The piles on the felt, found by what the logic calls them.
#[derive(SystemParam)]
pub(super) struct Piles<'w, 's> {
    bankrolls: Query<'w, 's, (Entity, &'static Bankroll)>,
    circles: Query<'w, 's, (Entity, &'static BetCircle)>,
    sides: Query<'w, 's, (Entity, &'static SideSpot)>,
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
            Pile::Side(seat, bet) => self
                .sides
                .iter()
                .find(|(_, s)| s.seat == seat && s.bet == bet)
                .map(|(e, s)| (e, layout.side_point(seat, s.slot).extend(50.0))),
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
pub(super) fn launch_chips(
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
        let mut chips = chips_for(moved.amount, &crate::game::model::player::CHIP_VALUES);
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

/// The chips that make up `amount`, largest first, from the table's denominations: at most
/// [`MOST_OF_A_VALUE`] of each (more than any pile shows), so an amount as big as a house's tray can be stays a short
/// list and the smaller values carry the rest.
pub fn chips_for(amount: Cents, values: &[Cents]) -> Vec<Cents> {
    let mut left = amount.0.max(0);
    let mut chips = Vec::new();
    for value in values.iter().rev().filter(|v| v.0 > 0) {
        let count = (left / value.0).min(MOST_OF_A_VALUE);
        chips.extend(std::iter::repeat_n(*value, count as usize));
        left -= count * value.0;
    }
    chips
}

/// The most chips of one value [`chips_for`] counts out.
pub const MOST_OF_A_VALUE: i64 = 24;

/// What a pile should show now: its amount, with chips still in the air not yet landed and chips waiting to leave
/// still there.
pub(super) fn shown_amount(entity: Entity, amount: Cents, flights: &Query<&Flight>) -> Cents {
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
pub(super) fn redraw_piles(
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
        let pile = chips_for(amount, &crate::game::model::player::CHIP_VALUES);
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

/// A side bet's spot: one short stack of smaller chips (the spot is too small to write its amount on; the HUD's
/// button for it says it).
pub(super) fn redraw_side_spots(
    mut commands: Commands,
    art: Res<Art>,
    flights: Query<&Flight>,
    mut sides: Query<(Entity, &SideSpot, &mut ShownAmount, &Children)>,
    chips: Query<(), With<ChipSprite>>,
) {
    for (entity, spot, mut shown, children) in &mut sides {
        let now = shown_amount(entity, spot.amount, &flights);
        if shown.0 == Some(now) {
            continue;
        }
        shown.0 = Some(now);
        for child in children.iter().filter(|c| chips.contains(*c)) {
            commands.entity(child).despawn();
        }
        let mut pile = chips_for(now, &crate::game::model::player::CHIP_VALUES);
        pile.truncate(6);
        // The biggest chips at the bottom, as in a circle.
        for (height, &chip) in pile.iter().enumerate() {
            let up = height as f32;
            commands.entity(entity).with_child((
                ChipSprite,
                art.chip(chip, CHIP_SIZE * 0.7),
                Transform::from_xyz(0.0, -2.0 + up * CHIP_STEP * 0.7, 1.0 + up * 0.01),
            ));
        }
    }
}
