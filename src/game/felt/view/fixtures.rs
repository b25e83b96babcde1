//! The table's fixed pieces: the rail, the felt with its printed rules, the shoe, the discard holder, the dealer's
//! tray and the seats, placed by the layout, and the shoe's and tray's counts.

use super::*;

/// The table's fixed pieces, as the logic spawned them.
#[derive(SystemParam)]
pub(super) struct Pieces<'w, 's> {
    spots: Query<'w, 's, (Entity, &'static crate::game::model::table::SeatSpot)>,
    circles: Query<'w, 's, (Entity, &'static BetCircle)>,
    sides: Query<'w, 's, (Entity, &'static SideSpot)>,
    shoes: Query<'w, 's, Entity, With<ShoeStack>>,
    trays: Query<'w, 's, Entity, With<DiscardTray>>,
    house: Query<'w, 's, Entity, With<DealerTray>>,
}

/// Gives the table's fixed pieces their pictures: the felt tinted for the level, the rules to print, the shoe with
/// the level's card back at its mouth, the discard holder, the dealer's tray, a ring and a label at every seat.
#[allow(clippy::too_many_arguments)]
pub(super) fn dress_table(
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
            picture(&art.shoe, SHOE_PICTURE),
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
            picture(&art.discard, HOLDER_PICTURE),
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
                (PileLabel, text(false, TRAY_WORDS, ink, "")),
                (
                    DealerLabel,
                    Fixture::DealerLabel,
                    anchored(text(true, 18.0, Color::WHITE, ""), Anchor::TOP_CENTER),
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
                anchored(
                    text(false, SEAT_WORDS, Color::WHITE, ""),
                    Anchor::TOP_CENTER
                ),
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
    // Each side bet's spot a small ring filled with its own colour, the colour of its button in the betting bar.
    let disc = meshes.add(Circle::new(SIDE_SPOT / 2.0 - 1.0).mesh().resolution(32));
    for (entity, spot) in &pieces.sides {
        let [r, g, b] = crate::host::design::side_colour(spot.bet);
        let fill = materials.add(Color::srgba_u8(r, g, b, 110));
        commands.entity(entity).insert((
            Fixture::Side(spot.seat, spot.slot),
            picture(&art.ring, Vec2::splat(SIDE_SPOT)),
            ShownAmount::default(),
            children![(
                Mesh2d(disc.clone()),
                MeshMaterial2d(fill),
                Transform::from_xyz(0.0, 0.0, -0.05),
            )],
        ));
    }
}

/// What carries the words the layout places: the dealer's tray, the bet circles, the shoe and the discard holder.
#[derive(SystemParam)]
pub(super) struct Holders<'w, 's> {
    trays: Query<'w, 's, (), With<DealerTray>>,
    circles: Query<'w, 's, (), With<BetCircle>>,
    shoes: Query<'w, 's, (), With<ShoeStack>>,
    holders: Query<'w, 's, (), With<DiscardTray>>,
}

/// Puts the fixed pieces where the layout says, and the amounts of the bets and the tray where it writes them: on
/// entering the table and whenever the window changes shape or the felt's words their size.
#[allow(clippy::type_complexity)]
pub(super) fn place_fixtures(
    (layout, framing): (Res<TableLayout>, Res<Framing>),
    mut fixtures: Query<(&Fixture, &mut Transform), Without<Printed>>,
    mut printed: Query<(&Printed, &mut Transform, &mut Lettering)>,
    mut amounts: Query<
        (&ChildOf, &mut Transform, &mut Lettering),
        (
            Or<(With<PileLabel>, With<CountLabel>)>,
            Without<Fixture>,
            Without<Printed>,
        ),
    >,
    holders: Holders,
) {
    for (parent, mut transform, mut lettering) in &mut amounts {
        let parent = parent.parent();
        // The shoe's and the holder's counts are written upright where the layout says, though their fixtures
        // are turned: placed in the turned fixture's frame, and turned back.
        let (written, turn) = if holders.trays.contains(parent) {
            (layout.tray_words, 0.0)
        } else if holders.circles.contains(parent) {
            (layout.bet_words, 0.0)
        } else if holders.shoes.contains(parent) {
            (layout.shoe_count, SHOE_TURN)
        } else if holders.holders.contains(parent) {
            (layout.holder_count, HOLDER_TURN)
        } else {
            continue;
        };
        let at = Vec2::from_angle(-turn).rotate(written.at);
        transform.translation = at.extend(transform.translation.z);
        transform.rotation = Quat::from_rotation_z(-turn);
        if lettering.anchor != written.anchor {
            lettering.anchor = written.anchor;
        }
    }
    for (fixture, mut transform) in &mut fixtures {
        *transform = match *fixture {
            Fixture::Rail => Transform::from_translation(layout.centre.extend(0.0)).with_scale(
                Vec3::new(layout.felt_radius + 30.0, layout.felt_radius + 30.0, 1.0),
            ),
            Fixture::Felt => Transform::from_translation(layout.centre.extend(0.1))
                .with_scale(Vec3::new(layout.felt_radius, layout.felt_radius, 1.0)),
            Fixture::Shoe => Transform::from_translation(layout.shoe_at().extend(2.0))
                .with_rotation(Quat::from_rotation_z(SHOE_TURN)),
            Fixture::Discards => Transform::from_translation(layout.discards.extend(2.0))
                .with_rotation(Quat::from_rotation_z(HOLDER_TURN)),
            Fixture::DealerTray => Transform::from_translation(layout.dealer_tray.extend(2.0)),
            Fixture::DealerLabel => {
                Transform::from_translation((layout.dealer_label - layout.dealer_tray).extend(30.0))
            }
            Fixture::Seat(seat) => {
                let at = layout.seat_point(seat);
                Transform::from_xyz(at.x, at.y - LABEL_TOP, 3.0)
            }
            Fixture::Circle(seat) => {
                Transform::from_translation(layout.seat_point(seat).extend(3.0))
            }
            Fixture::Side(seat, slot) => {
                Transform::from_translation(layout.side_point(seat, slot).extend(3.0))
            }
        };
    }
    // The rules follow the felt's edge, each line a little further in than the one before, and clear of the
    // dealer's total above them however large it is written.
    let below_the_total = DEALER_WORDS * (written(18.0, framing.least_words) / 18.0 - 1.0);
    for (line, mut transform, mut lettering) in &mut printed {
        *transform = Transform::from_translation(layout.print_centre.extend(1.0));
        let radius = Some(layout.print_radius + below_the_total + 28.0 * line.line as f32);
        if lettering.arc != radius {
            lettering.arc = radius;
        }
    }
}

/// The felt's least word size changed since the last look ([`Framing::least_words`]): the fixtures' words move
/// then, not at every step of a glide.
pub(super) fn words_resized(framing: Res<Framing>, mut was: Local<Option<f32>>) -> bool {
    let now = Some(framing.least_words);
    std::mem::replace(&mut *was, now) != now
}

/// The height of a line of the dealer's total (18 units, bold), in table units.
const DEALER_WORDS: f32 = 22.0;

/// The count under the shoe or the discard holder (placed where the layout writes it: `place_fixtures`).
pub(super) fn count_label() -> impl Bundle {
    (
        CountLabel,
        text(false, COUNT_WORDS, Color::WHITE, ""),
        Transform::from_xyz(0.0, 0.0, 0.2),
    )
}

/// The shoe and the discard holder say how many cards they hold; the holder shows its cards once it has any.
#[allow(clippy::type_complexity)]
pub(super) fn count_cards(
    layout: Res<TableLayout>,
    shoes: Query<(Ref<ShoeStack>, &Children)>,
    trays: Query<(&DiscardTray, &Children), Changed<DiscardTray>>,
    mut labels: Query<&mut Lettering, With<CountLabel>>,
    mut piles: Query<&mut Visibility, With<DiscardPile>>,
) {
    // The shoe's words change with its cards, and with the table's layout (a phone turned).
    let counts = shoes
        .iter()
        .filter(|(shoe, _)| shoe.is_changed() || layout.is_changed())
        .map(|(shoe, children)| (layout.shoe_words(shoe.remaining), children))
        .chain(trays.iter().map(|(tray, children)| {
            (
                crate::engine::words::counted(tray.cards, "discard", "discards"),
                children,
            )
        }));
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
