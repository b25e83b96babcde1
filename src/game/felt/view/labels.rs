//! Words on the felt: hand totals and outcomes, the dealer's total, the seats' names and chips, and the banners.

use super::*;

/// "Blackjack!", "Bust" and "Push" over the hand, and "Dealer busts" over the dealer's cards, as the table shows
/// them; the player's own hands get the bigger banner.
#[allow(clippy::too_many_arguments)]
pub(super) fn raise_banners(
    mut commands: Commands,
    mut shown: MessageReader<Shown>,
    beats: Res<Beats>,
    look: Res<Look>,
    art: Res<Art>,
    (layout, framing): (Res<TableLayout>, Res<Framing>),
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
        // Its words no smaller than the felt's least, shown at the banner's scale; the ribbon grows with them.
        let size = written(19.0, framing.least_words / scale);
        commands.spawn((
            Name::new(format!("Banner {words}")),
            Banner::new(scale, beats.speed, look.reduced_motion),
            picture(&art.banner, Vec2::new(168.0, 37.0) * size / 19.0),
            Transform::from_translation(at.extend(80.0)).with_scale(Vec3::splat(scale)),
            DespawnOnExit(Screen::Table),
            children![(
                text(true, size, colour, words),
                Transform::from_xyz(0.0, 0.0, 0.1),
            )],
        ));
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
    match (settlement.outcome, signed(settlement.net)) {
        (Outcome::Push, _) => "Push".to_string(),
        (outcome, Some(amount)) => format!("{} {amount}", outcome.label()),
        (outcome, None) => outcome.label().to_string(),
    }
}

/// An outcome in few words, for the upright table (the colour says won or lost): "+$20", "−$10", "Push".
pub fn short_outcome_words(settlement: &Settlement) -> String {
    signed(settlement.net).unwrap_or_else(|| settlement.outcome.label().to_string())
}

/// A non-zero amount with its sign: "+$20", "−$10".
fn signed(amount: Cents) -> Option<String> {
    (amount.0 != 0).then(|| amount.signed().to_string())
}

/// A name as a seat's label writes it: whole when it is at most `ems` wide (`width` measures a text in ems), else cut
/// with "…" where it fits.
pub fn name_to_fit(name: &str, ems: f32, width: impl Fn(&str) -> f32) -> String {
    if width(name) <= ems {
        return name.to_string();
    }
    let mut kept: Vec<char> = name.chars().collect();
    loop {
        kept.pop();
        let cut = format!("{}…", kept.iter().collect::<String>().trim_end());
        if kept.is_empty() || width(&cut) <= ems {
            return cut;
        }
    }
}

pub(super) fn label_hands(
    (layout, framing): (Res<TableLayout>, Res<Framing>),
    cards: Query<&CardView>,
    hands: Query<(&HandView, Option<&Settlement>, &Children)>,
    mut labels: Query<(&mut Lettering, &mut Transform, &mut Ink), With<HandLabel>>,
) {
    // Each seat's hands, and the most cards one of them holds (split hands side by side write their totals over
    // the tallest of them, every other one a line higher), counted once a frame.
    let mut seats = [(0u8, 0usize); 7];
    for (hand, ..) in &hands {
        let (count, tallest) = &mut seats[usize::from(hand.seat.min(6))];
        *count += 1;
        *tallest = (*tallest).max(cards.iter().filter(|c| c.spot == hand.spot()).count());
    }
    let line = written(HAND_WORDS, framing.least_words) * 1.2;
    for (hand, settlement, children) in &hands {
        let mut shown: Vec<&CardView> = cards.iter().filter(|c| c.spot == hand.spot()).collect();
        shown.sort_by_key(|c| c.order);
        let (seat_hands, tallest) = seats[usize::from(hand.seat.min(6))];
        let faces: Vec<Card> = shown.iter().filter_map(|c| c.card).collect();
        let from_split = seat_hands > 1;
        let mut words = if faces.is_empty() {
            String::new()
        } else {
            total_words(&faces, from_split)
        };
        // Once settled, the outcome takes the total's place, on one line (a second would reach the next seat's
        // hand); the upright table's hands stand closest, and the colour says won or lost.
        if let Some(settlement) = settlement {
            words = if layout.portrait {
                short_outcome_words(settlement)
            } else {
                outcome_words(settlement)
            };
        }
        let top = layout.hand_top(
            hand.seat,
            hand.hand,
            seat_hands,
            (faces.len(), tallest),
            line,
        );
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
pub(super) fn label_dealer(
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

#[allow(clippy::too_many_arguments)]
pub(super) fn label_seats(
    layout: Res<TableLayout>,
    occupants: Res<Occupants>,
    session: Res<Session>,
    offered: Res<crate::game::felt::layout::SitOffered>,
    fonts: Option<Res<GameFonts>>,
    files: Res<Assets<FontFile>>,
    bankrolls: Query<&Bankroll>,
    mut labels: Query<(&SeatLabel, &mut Lettering, &mut Ink)>,
) {
    // Names are measured in the labels' font, read once a frame; before it is in (never on the table), about 0.6
    // em a letter.
    let font = fonts.and_then(|f| files.get(&f.regular));
    let widths = font.and_then(|f| TextWidths::of(&f.0));
    let width = |text: &str| {
        widths
            .as_ref()
            .map_or(text.chars().count() as f32 * 0.6, |w| w.ems(text))
    };
    for (label, mut text, mut colour) in &mut labels {
        let seat = label.0;
        let mine = session.player_seat == Some(seat);
        let words = match &occupants.seats[usize::from(seat)] {
            // The upright table: names only (the player's chips are in the header).
            Some(name) if layout.names_only => name_to_fit(name, layout.name_ems(), width),
            Some(name) => {
                let name = name_to_fit(name, layout.name_ems(), width);
                let chips = bankrolls
                    .iter()
                    .find(|b| b.seat == seat)
                    .map_or(Cents::ZERO, |b| b.amount);
                format!("{name}\n{chips}")
            }
            // A seat offering its "Sit" button says nothing under it: the button stands there.
            None if offered.at(seat) => String::new(),
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
