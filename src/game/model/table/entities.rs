//! The table's pieces in ECS: the shoe, the discard tray, the dealer, the seats with their bet circles and
//! bankrolls, hands and cards, spawned when the table opens (from the seat view, so a restored or joined table shows
//! its cards and chips) and gone when it closes.

use super::{OnlineTable, Restored, SeatView};
use crate::engine::side::SideBet;
use crate::engine::{Card, Cents, Outcome, Spot, TableState};
use crate::game::model::screen::{RoundPhase, Screen};
use bevy::prelude::*;

/// The shoe: cards still to deal.
#[derive(Component, Debug, Default)]
pub struct ShoeStack {
    /// Cards left (as shown so far).
    pub remaining: u32,
}

/// The discard tray.
#[derive(Component, Debug, Default)]
pub struct DiscardTray {
    /// Cards in it (as shown so far).
    pub cards: u32,
}

/// A card on the felt.
#[derive(Component, Debug, Clone, Copy)]
pub struct CardView {
    /// Which card, once its face shows; `None` while it lies face down (the hole card), whose face nobody at the
    /// table knows until the dealer turns it.
    pub card: Option<Card>,
    /// Whose hand it is in.
    pub spot: Spot,
    /// Its place in that hand, left to right.
    pub order: u8,
}

impl CardView {
    /// The card shows its face.
    pub fn face_up(&self) -> bool {
        self.card.is_some()
    }
}

/// One hand of a seat on the felt (a seat shows two to four after splits, side by side).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct HandView {
    /// The seat.
    pub seat: u8,
    /// Left to right within the seat.
    pub hand: u8,
}

/// A hand's entity on the felt, gone when the table closes.
pub(super) fn hand_entity(view: HandView) -> impl Bundle {
    (
        Name::new(format!("Seat {} hand {}", view.seat, view.hand)),
        view,
        DespawnOnExit(Screen::Table),
    )
}

/// A card's entity on the felt, gone when the table closes.
pub(super) fn card_entity(view: CardView) -> impl Bundle {
    (
        Name::new(match view.card {
            Some(card) => format!("Card {card}"),
            None => "Card face down".to_string(),
        }),
        view,
        DespawnOnExit(Screen::Table),
    )
}

impl HandView {
    /// Where the engine says this hand's cards go.
    pub fn spot(&self) -> Spot {
        Spot::Player {
            seat: self.seat,
            hand: self.hand,
        }
    }
}

/// A seat's bet circle and the chips in it: the bet, then during the round everything the seat has on the felt
/// (doubles, split hands, insurance).
#[derive(Component, Debug)]
pub struct BetCircle {
    /// The seat.
    pub seat: u8,
    /// Chips in the circle (as shown so far).
    pub amount: Cents,
}

/// A seat's spot for one of the table's side bets, and the chips on it (next round's, then this round's until
/// settled).
#[derive(Component, Debug)]
pub struct SideSpot {
    /// The seat.
    pub seat: u8,
    /// The side bet.
    pub bet: SideBet,
    /// Its place among the side bets the table offers (the felt puts each in its own spot).
    pub slot: usize,
    /// Chips on the spot (as shown so far).
    pub amount: Cents,
}

/// The chips in front of a seat.
#[derive(Component, Debug)]
pub struct Bankroll {
    /// The seat.
    pub seat: u8,
    /// Chips in front of the seat (as shown so far).
    pub amount: Cents,
}

/// The dealer's chip tray: the house's money.
#[derive(Component, Debug, Default)]
pub struct DealerTray {
    /// Chips in the tray (as shown so far).
    pub amount: Cents,
}

/// How a hand ended, once it has been paid or taken.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settlement {
    /// Win, lose, push, …
    pub outcome: Outcome,
    /// What the hand won (negative: lost), net of the wager.
    pub net: Cents,
}

/// A seat on the table's arc.
#[derive(Component, Debug)]
pub struct SeatSpot {
    /// 0 = first base.
    pub seat: u8,
}

/// The dealer's place.
#[derive(Component, Debug)]
pub struct DealerSpot;

/// A restored table (or a casino's, joined mid-way) shows what its seat view has: cards on the felt (the hole card face down, with no face), hands,
/// and the round's phase (the chips are counted out by `spawn_table`).
pub(crate) fn show_restored(
    restored: Option<Res<Restored>>,
    online: Option<Res<OnlineTable>>,
    seen: Option<Res<SeatView>>,
    mut commands: Commands,
    mut next_phase: ResMut<NextState<RoundPhase>>,
) {
    let (true, Some(seen)) = (restored.is_some() || online.is_some(), seen) else {
        return;
    };
    let table = &seen.0;
    let mut numbers = [0u8; 7];
    for hand in table.hands() {
        let number = numbers[usize::from(hand.seat)];
        numbers[usize::from(hand.seat)] += 1;
        let view = HandView {
            seat: hand.seat,
            hand: number,
        };
        commands.spawn(hand_entity(view));
        for (order, &card) in hand.cards.as_slice().iter().enumerate() {
            commands.spawn(card_entity(CardView {
                card: Some(card),
                spot: view.spot(),
                order: order as u8,
            }));
        }
    }
    let dealer = table.dealer();
    let mut faces = dealer
        .cards
        .as_slice()
        .iter()
        .copied()
        .map(Some)
        .collect::<Vec<_>>();
    if dealer.hole_down {
        // The hole card lies beside the upcard, face down.
        faces.insert(faces.len().min(1), None);
    }
    for (order, card) in faces.into_iter().enumerate() {
        commands.spawn(card_entity(CardView {
            card,
            spot: Spot::Dealer,
            order: order as u8,
        }));
    }
    let phase = match table.phase() {
        crate::engine::Phase::Betting => RoundPhase::Betting,
        _ => RoundPhase::PlayerTurn,
    };
    NextState::set_if_neq(&mut *next_phase, phase);
}

/// The table's fixed pieces, their counts and chips as the seat view has them: empty at a fresh table, the saved
/// amounts at a restored one.
pub(crate) fn spawn_table(mut commands: Commands, seen: Option<Res<SeatView>>) {
    let Some(seen) = seen else {
        return;
    };
    let table = &seen.0;
    let (house, remaining, discards) = (
        table.house(),
        table.shoe().remaining,
        table.shoe().discarded,
    );
    commands.spawn((
        Name::new("Shoe"),
        ShoeStack { remaining },
        DespawnOnExit(Screen::Table),
    ));
    commands.spawn((
        Name::new("Discard tray"),
        DiscardTray { cards: discards },
        DespawnOnExit(Screen::Table),
    ));
    commands.spawn((
        Name::new("Dealer"),
        DealerSpot,
        DealerTray { amount: house },
        DespawnOnExit(Screen::Table),
    ));
    for seat in 0..7u8 {
        commands.spawn((
            Name::new(format!("Seat {seat}")),
            SeatSpot { seat },
            Bankroll {
                seat,
                amount: table.seats()[usize::from(seat)].bankroll,
            },
            DespawnOnExit(Screen::Table),
        ));
        let s = &table.seats()[usize::from(seat)];
        let side = |bet| s.side.get(bet) + s.side_in_play.get(bet);
        commands.spawn((
            Name::new(format!("Bet circle {seat}")),
            BetCircle {
                seat,
                amount: table.seat_on_felt(seat) - s.side.total() - s.side_in_play.total(),
            },
            DespawnOnExit(Screen::Table),
        ));
        for (slot, bet) in table.rules().side_bets.offered().into_iter().enumerate() {
            commands.spawn((
                Name::new(format!("{} spot {seat}", bet.name())),
                SideSpot {
                    seat,
                    bet,
                    slot,
                    amount: side(bet),
                },
                DespawnOnExit(Screen::Table),
            ));
        }
    }
}
