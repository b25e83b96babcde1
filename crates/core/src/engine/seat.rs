//! A seat and its hands: what each place at the table holds in a round.

use super::command::SeatId;
use super::event::Outcome;
use super::hand::{Cards, Total};
use super::money::Cents;
use super::side::SideStakes;
use serde::{Deserialize, Serialize};

/// Seats at a table.
pub const MAX_SEATS: usize = 7;
/// Hands a table can hold at once: every seat split to four.
pub const MAX_HANDS: usize = MAX_SEATS * 4;

/// A seat on the table's arc.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    /// Someone is sitting here.
    pub occupied: bool,
    /// Chips in front of the player.
    pub bankroll: Cents,
    /// Chips in the bet circle for the next round.
    pub bet: Cents,
    /// This round's insurance bet, on the felt until the dealer's blackjack is known.
    pub insurance: Cents,
    /// The seat still owes a decision on the current offer (insurance, even money or early surrender).
    pub deciding: bool,
    /// Chips on the side-bet spots for the next round (they play only beside a bet in the circle).
    #[serde(default)]
    pub side: SideStakes,
    /// This round's side bets, on the felt until each is settled.
    #[serde(default)]
    pub side_in_play: SideStakes,
}

impl Seat {
    /// The seat's own chips between rounds: in front of it, in its bet circle and on its side-bet spots (what it
    /// would cash out).
    pub fn chips(&self) -> Cents {
        self.bankroll + self.bet + self.side.total()
    }

    /// The seat's chips on the felt outside its hands: the bet circle, the side-bet spots (next round's and this
    /// round's) and insurance.
    pub fn on_felt(&self) -> Cents {
        self.bet + self.side.total() + self.side_in_play.total() + self.insurance
    }
}

/// Where a hand is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum HandState {
    /// Still to act (or acting).
    Playing,
    /// Stood (or doubled) and waits for the dealer.
    Stood,
    /// A natural, waiting to be paid once the dealer's blackjack is ruled out.
    Natural,
    /// Surrendered on a no-hole-card table: half comes back unless the dealer has blackjack.
    Surrendered,
    /// Done and paid or taken.
    Settled(Outcome),
}

/// One hand of a seat. A seat holds one hand, or up to four after splits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hand {
    /// The seat that owns the hand.
    pub seat: SeatId,
    /// The cards.
    pub cards: Cards,
    /// Chips bet on the hand, doubles included.
    pub wager: Cents,
    /// Doubled down.
    pub doubled: bool,
    /// Came from a split (so 21 is not blackjack and surrender is gone).
    pub from_split: bool,
    /// Came from splitting aces.
    pub split_aces: bool,
    /// Where the hand is.
    pub state: HandState,
}

impl Hand {
    /// The running total.
    pub fn total(&self) -> Total {
        self.cards.total()
    }

    /// Chips of this hand still on the felt.
    pub fn on_felt(&self) -> Cents {
        match self.state {
            HandState::Settled(_) => Cents::ZERO,
            _ => self.wager,
        }
    }

    /// Settled, with this outcome.
    pub fn outcome(&self) -> Option<Outcome> {
        match self.state {
            HandState::Settled(outcome) => Some(outcome),
            _ => None,
        }
    }

    /// Splits the pair: this hand keeps the first card, the returned hand (same seat and wager) takes the second.
    /// Both are marked as split hands, and as split aces when the pair is aces.
    pub fn split_off(&mut self) -> Hand {
        let aces = self.cards.as_slice().first().is_some_and(|c| c.is_ace());
        let moved = self.cards.pop();
        self.from_split = true;
        self.split_aces = aces;
        let mut cards = Cards::default();
        if let Some(card) = moved {
            cards.push(card);
        }
        Hand {
            cards,
            doubled: false,
            state: HandState::Playing,
            ..self.clone()
        }
    }

    /// A two-card 21 on an unsplit hand.
    pub fn is_blackjack(&self) -> bool {
        !self.from_split && self.cards.is_two_card_21()
    }
}
