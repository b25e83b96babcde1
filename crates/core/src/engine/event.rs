//! Events: what a command did, in order, for the table's display, sound, log and AI.
//!
//! Events are what everyone at the table sees happen, and nothing more: a card goes out with its face only when it
//! is dealt face up or turned. The hole card is dealt as [`Event::HoleCardDealt`] (no face) and shown by
//! [`Event::HoleCardRevealed`]; a burned card goes to the tray unseen. So the same events serve every seat, a
//! spectator and a remote client, and no event can give away a face-down card (a [`TableView`](super::TableView)
//! is kept up to date from them alone).

use super::card::Card;
use super::command::{Action, SeatId};
use super::hand::Total;
use super::money::Cents;
use super::side::{SideBet, SideWin};
use serde::{Deserialize, Serialize};

/// Where a card lands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Spot {
    /// The dealer's hand.
    Dealer,
    /// Hand number `hand` (0-based, left to right after splits) of a seat.
    Player { seat: SeatId, hand: u8 },
}

/// How a hand ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    /// Beat the dealer: paid 1:1.
    Win,
    /// A natural: paid at the table's blackjack odds.
    Blackjack,
    /// Equal totals, or blackjack against blackjack: the bet comes back.
    Push,
    /// Lost to the dealer's higher total or blackjack.
    Lose,
    /// Went over 21.
    Bust,
    /// Gave up half the bet.
    Surrender,
    /// Took even money for a blackjack.
    EvenMoney,
}

impl Outcome {
    /// Every outcome, in discriminant order.
    pub const ALL: [Outcome; 7] = [
        Outcome::Win,
        Outcome::Blackjack,
        Outcome::Push,
        Outcome::Lose,
        Outcome::Bust,
        Outcome::Surrender,
        Outcome::EvenMoney,
    ];

    /// The word shown on the felt.
    pub fn label(self) -> &'static str {
        match self {
            Outcome::Win => "Win",
            Outcome::Blackjack => "Blackjack!",
            Outcome::Push => "Push",
            Outcome::Lose => "Lose",
            Outcome::Bust => "Bust",
            Outcome::Surrender => "Surrender",
            Outcome::EvenMoney => "Even money",
        }
    }
}

/// Something that happened at the table. Commands return these in the order they happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// A player sat down with `buy_in` in chips.
    Joined { seat: SeatId, buy_in: Cents },
    /// A player added chips.
    Rebought {
        seat: SeatId,
        amount: Cents,
        bankroll: Cents,
    },
    /// A player left with `cash_out`.
    Left { seat: SeatId, cash_out: Cents },
    /// The seat's bet circle now holds `amount`; `bankroll` is what is left in front of the player.
    BetSet {
        seat: SeatId,
        amount: Cents,
        bankroll: Cents,
    },
    /// A seat set the chips on one of its side-bet spots for the next round.
    SideBetSet {
        seat: SeatId,
        bet: SideBet,
        amount: Cents,
        bankroll: Cents,
    },
    /// The last round's cards went to the discard tray.
    TableCleared { cards: u32 },
    /// Every card went back into the shoe and it was shuffled; the cut card is in.
    Shuffled { cards: u32 },
    /// A card was burned: it went from the shoe to the discard tray face down, unseen.
    Burned,
    /// The cut card came out: this is the last round of the shoe.
    CutCardOut,
    /// The shoe ran dry mid-round; the discards were shuffled and dealing goes on from them.
    DiscardsShuffledIn { cards: u32 },
    /// Round number `round` began with these bets on the felt.
    RoundStarted { round: u64 },
    /// A card was dealt face up.
    Dealt { to: Spot, card: Card },
    /// The dealer's second card was dealt face down (on a table with a hole card): its face shows in
    /// [`Event::HoleCardRevealed`].
    HoleCardDealt,
    /// A hand has a natural blackjack.
    Blackjack { seat: SeatId, hand: u8 },
    /// Early surrender is offered before the dealer checks for blackjack.
    EarlySurrenderOffered,
    /// Insurance (and even money for blackjacks) is offered against the dealer's ace.
    InsuranceOffered,
    /// A seat made a decision on the hand in turn or on an offer.
    Acted {
        seat: SeatId,
        hand: u8,
        action: Action,
    },
    /// A seat put up insurance.
    InsuranceTaken { seat: SeatId, amount: Cents },
    /// The dealer looked at the hole card.
    DealerChecked { blackjack: bool },
    /// The hole card was turned face up.
    HoleCardRevealed { card: Card },
    /// The dealer has blackjack.
    DealerBlackjack,
    /// An insurance bet was settled; `net` is what the player gained (negative when lost).
    InsuranceSettled {
        seat: SeatId,
        amount: Cents,
        net: Cents,
    },
    /// It is this hand's turn to act.
    Turn { seat: SeatId, hand: u8 },
    /// A hand was split: a new hand was inserted at `hand + 1` (later hands of the seat move one place right),
    /// with one of the pair and an equal `wager`.
    Split {
        seat: SeatId,
        hand: u8,
        wager: Cents,
    },
    /// A hand doubled down; its wager is now `wager`.
    Doubled {
        seat: SeatId,
        hand: u8,
        wager: Cents,
    },
    /// A hand stopped at `total`.
    Stood {
        seat: SeatId,
        hand: u8,
        total: Total,
    },
    /// A hand went over 21.
    Busted {
        seat: SeatId,
        hand: u8,
        total: Total,
    },
    /// The dealer stopped at `total`.
    DealerStood { total: Total },
    /// The dealer went over 21.
    DealerBusted { total: Total },
    /// A hand was settled. `wager` was on it; `net` is what the player gained (negative when lost).
    Settled {
        seat: SeatId,
        hand: u8,
        outcome: Outcome,
        wager: Cents,
        net: Cents,
    },
    /// A side bet was decided: `win` is the hand it made (`None`: it lost), `net` what moved from the house to the
    /// seat (negative when the stake was lost); the stake leaves the felt.
    SideBetSettled {
        seat: SeatId,
        bet: SideBet,
        stake: Cents,
        win: Option<SideWin>,
        net: Cents,
    },
    /// The round is over; the table takes bets again.
    RoundEnded { round: u64 },
}

/// Where a table writes events. The simulator uses [`Ignore`]; everything else collects them in a `Vec`.
pub trait EventSink {
    /// False for sinks that drop every event, so callers can skip working out what to put in them.
    const RECORDS: bool = true;

    /// Records one event.
    fn emit(&mut self, event: Event);
}

impl EventSink for Vec<Event> {
    #[inline]
    fn emit(&mut self, event: Event) {
        self.push(event);
    }
}

/// A sink that drops every event, for simulations that only need the table's state.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ignore;

impl EventSink for Ignore {
    const RECORDS: bool = false;

    #[inline(always)]
    fn emit(&mut self, _event: Event) {}
}
