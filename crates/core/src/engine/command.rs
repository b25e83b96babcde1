//! Commands a table accepts, the actions a hand may take, and why a command is refused.

use super::money::Cents;
use super::side::SideBet;
use serde::{Deserialize, Serialize};
use std::fmt;
use thiserror::Error;

/// A seat position, 0 = first base (the dealer's left) … 6 = third base.
pub type SeatId = u8;

/// Everything a player (or the table's operator) can ask of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Command {
    /// Sit down at an empty seat with chips bought from the cage.
    Join { seat: SeatId, buy_in: Cents },
    /// Add chips to a seated player's bankroll (a rebuy) between rounds.
    Rebuy { seat: SeatId, amount: Cents },
    /// Leave between rounds, taking the bankroll and anything in the bet circle.
    Leave { seat: SeatId },
    /// Set the amount in the seat's bet circle (0 clears it and sits the round out).
    Bet { seat: SeatId, amount: Cents },
    /// Set the amount on one of the seat's side-bet spots (0 clears it); it plays beside the seat's next bet.
    SideBet {
        seat: SeatId,
        bet: SideBet,
        amount: Cents,
    },
    /// Start the round with every seat that has a bet.
    Deal,
    /// Take insurance of `amount` (up to half the bet) against the dealer's ace.
    TakeInsurance { seat: SeatId, amount: Cents },
    /// Decline insurance.
    DeclineInsurance { seat: SeatId },
    /// Take even money for a blackjack against the dealer's ace.
    TakeEvenMoney { seat: SeatId },
    /// Keep the blackjack and wait for the dealer.
    DeclineEvenMoney { seat: SeatId },
    /// Keep the hand instead of surrendering early.
    DeclineSurrender { seat: SeatId },
    /// Take a card.
    Hit { seat: SeatId },
    /// Take no more cards.
    Stand { seat: SeatId },
    /// Double the bet and take exactly one card.
    Double { seat: SeatId },
    /// Split a pair into two hands.
    Split { seat: SeatId },
    /// Give up half the bet (early surrender before the peek, or late surrender on the hand in turn).
    Surrender { seat: SeatId },
}

impl Command {
    /// The seat the command is for, if any.
    pub fn seat(self) -> Option<SeatId> {
        match self {
            Command::Deal => None,
            Command::Join { seat, .. }
            | Command::Rebuy { seat, .. }
            | Command::Leave { seat }
            | Command::Bet { seat, .. }
            | Command::SideBet { seat, .. }
            | Command::TakeInsurance { seat, .. }
            | Command::DeclineInsurance { seat }
            | Command::TakeEvenMoney { seat }
            | Command::DeclineEvenMoney { seat }
            | Command::DeclineSurrender { seat }
            | Command::Hit { seat }
            | Command::Stand { seat }
            | Command::Double { seat }
            | Command::Split { seat }
            | Command::Surrender { seat } => Some(seat),
        }
    }

    /// The decision this command makes, for the commands that are hand or offer decisions.
    pub fn action(self) -> Option<Action> {
        Some(match self {
            Command::TakeInsurance { .. } => Action::TakeInsurance,
            Command::DeclineInsurance { .. } => Action::DeclineInsurance,
            Command::TakeEvenMoney { .. } => Action::TakeEvenMoney,
            Command::DeclineEvenMoney { .. } => Action::DeclineEvenMoney,
            Command::DeclineSurrender { .. } => Action::DeclineSurrender,
            Command::Hit { .. } => Action::Hit,
            Command::Stand { .. } => Action::Stand,
            Command::Double { .. } => Action::Double,
            Command::Split { .. } => Action::Split,
            Command::Surrender { .. } => Action::Surrender,
            _ => return None,
        })
    }
}

/// A decision a seat can make during a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[repr(u8)]
pub enum Action {
    Hit,
    Stand,
    Double,
    Split,
    Surrender,
    DeclineSurrender,
    TakeInsurance,
    DeclineInsurance,
    TakeEvenMoney,
    DeclineEvenMoney,
}

impl Action {
    /// Every action.
    pub const ALL: [Action; 10] = [
        Action::Hit,
        Action::Stand,
        Action::Double,
        Action::Split,
        Action::Surrender,
        Action::DeclineSurrender,
        Action::TakeInsurance,
        Action::DeclineInsurance,
        Action::TakeEvenMoney,
        Action::DeclineEvenMoney,
    ];

    /// The command that performs this action for `seat`. Insurance is taken at `insurance`.
    pub fn command(self, seat: SeatId, insurance: Cents) -> Command {
        match self {
            Action::Hit => Command::Hit { seat },
            Action::Stand => Command::Stand { seat },
            Action::Double => Command::Double { seat },
            Action::Split => Command::Split { seat },
            Action::Surrender => Command::Surrender { seat },
            Action::DeclineSurrender => Command::DeclineSurrender { seat },
            Action::TakeInsurance => Command::TakeInsurance {
                seat,
                amount: insurance,
            },
            Action::DeclineInsurance => Command::DeclineInsurance { seat },
            Action::TakeEvenMoney => Command::TakeEvenMoney { seat },
            Action::DeclineEvenMoney => Command::DeclineEvenMoney { seat },
        }
    }

    /// The key that asks for this action, at the terminal table and in the game (the game shows it on the button).
    pub fn key(self) -> &'static str {
        match self {
            Action::Hit => "h",
            Action::Stand => "s",
            Action::Double => "d",
            Action::Split => "p",
            Action::Surrender => "r",
            Action::DeclineSurrender => "k",
            Action::TakeInsurance => "i",
            Action::DeclineInsurance | Action::DeclineEvenMoney => "n",
            Action::TakeEvenMoney => "e",
        }
    }

    /// The action's name on a button or in a prompt.
    pub fn name(self) -> &'static str {
        match self {
            Action::Hit => "hit",
            Action::Stand => "stand",
            Action::Double => "double",
            Action::Split => "split",
            Action::Surrender => "surrender",
            Action::DeclineSurrender => "keep the hand",
            Action::TakeInsurance => "insurance",
            Action::DeclineInsurance => "no insurance",
            Action::TakeEvenMoney => "even money",
            Action::DeclineEvenMoney => "no even money",
        }
    }

    /// The verb for the round log ("hits", "doubles down").
    pub fn verb(self) -> &'static str {
        match self {
            Action::Hit => "hits",
            Action::Stand => "stands",
            Action::Double => "doubles down",
            Action::Split => "splits",
            Action::Surrender => "surrenders",
            Action::DeclineSurrender => "keeps the hand",
            Action::TakeInsurance => "takes insurance",
            Action::DeclineInsurance => "declines insurance",
            Action::TakeEvenMoney => "takes even money",
            Action::DeclineEvenMoney => "declines even money",
        }
    }
}

/// A set of actions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Actions(u16);

impl Actions {
    /// No action.
    pub const NONE: Actions = Actions(0);

    /// What a table does for a seat that does not decide in time: stand, or decline the offer on the table. `None`
    /// when none of these is allowed.
    pub fn when_silent(self) -> Option<Action> {
        [
            Action::Stand,
            Action::DeclineInsurance,
            Action::DeclineEvenMoney,
            Action::DeclineSurrender,
        ]
        .into_iter()
        .find(|&a| self.contains(a))
    }

    /// True when `action` is in the set.
    #[inline]
    pub fn contains(self, action: Action) -> bool {
        self.0 & (1 << action as u16) != 0
    }

    /// Adds `action`.
    #[inline]
    pub fn insert(&mut self, action: Action) {
        self.0 |= 1 << action as u16;
    }

    /// True when empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The actions in the set, in [`Action::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Action> {
        Action::ALL.into_iter().filter(move |&a| self.contains(a))
    }
}

impl FromIterator<Action> for Actions {
    fn from_iter<I: IntoIterator<Item = Action>>(iter: I) -> Actions {
        let mut set = Actions::NONE;
        for action in iter {
            set.insert(action);
        }
        set
    }
}

/// Where the table is in a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Phase {
    /// Between rounds: players join, leave and bet.
    Betting,
    /// Players decide on early surrender before the dealer checks for blackjack.
    EarlySurrender,
    /// Players decide on insurance or even money against the dealer's ace.
    Insurance,
    /// The hand at this index of [`crate::engine::Table::hands`] is to act.
    PlayerTurn { hand: u8 },
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Phase::Betting => "betting",
            Phase::EarlySurrender => "the early surrender offer",
            Phase::Insurance => "the insurance offer",
            Phase::PlayerTurn { .. } => "the players' turns",
        })
    }
}

/// Why a command was refused. The table is unchanged whenever one of these is returned.
#[derive(Clone, Debug, PartialEq, Eq, Error, Serialize, Deserialize)]
pub enum CommandError {
    #[error("there is no seat {0}; seats are 0 (first base) to 6")]
    NoSuchSeat(SeatId),
    #[error("seat {0} is empty")]
    SeatEmpty(SeatId),
    #[error("seat {0} is already taken")]
    SeatTaken(SeatId),
    #[error("that can't be done during {phase}")]
    WrongPhase { phase: Phase },
    #[error("it is not seat {seat}'s turn")]
    NotYourTurn { seat: SeatId },
    #[error("seat {seat} has no decision pending")]
    NothingToDecide { seat: SeatId },
    #[error("seat {seat} cannot {verb}: {reason}")]
    NotAllowed {
        seat: SeatId,
        verb: &'static str,
        reason: &'static str,
    },
    #[error("seat {seat} needs {needed} but has {bankroll}")]
    NotEnoughChips {
        seat: SeatId,
        needed: Cents,
        bankroll: Cents,
    },
    #[error("a bet of {amount} is over the table maximum of {max}")]
    BetOverMaximum { amount: Cents, max: Cents },
    #[error("seat {seat}'s bet of {amount} is under the table minimum of {min}")]
    BetUnderMinimum {
        seat: SeatId,
        amount: Cents,
        min: Cents,
    },
    #[error("this table does not offer {bet}")]
    SideBetNotOffered { bet: SideBet },
    #[error("a side bet of {amount} is over the table's side-bet maximum of {max}")]
    SideBetOverMaximum { amount: Cents, max: Cents },
    #[error("{amount} is not a whole number of {unit} chips")]
    NotWholeChips { amount: Cents, unit: Cents },
    #[error("an amount must be positive, not {0}")]
    NotPositive(Cents),
    #[error("insurance of {amount} is over half the bet ({max})")]
    InsuranceOverHalf { amount: Cents, max: Cents },
    #[error("nobody has a bet down")]
    NoBets,
    #[error("the house has {house} and cannot cover the {needed} these bets could win")]
    HouseCannotCover { needed: Cents, house: Cents },
    #[error("there are not enough cards left in the shoe and the discard tray")]
    NoCardsLeft,
    #[error("{amount} is over the {ceiling} a bankroll may hold")]
    OverChipCeiling { amount: Cents, ceiling: Cents },
    #[error("seat {seat} is in the round; leave after it ends")]
    InPlay { seat: SeatId },
}
