//! The blackjack engine: the rules of the rule book as plain Rust, and everything worked out from them. Plain Rust
//! with no Bevy: it builds and tests with `--no-default-features`, and uses nothing above it.
//!
//! The map, bottom up:
//! - What a table is made of: `money` (integer cents, the one rounding, how money is written), `card` (ranks, suits,
//!   each physical card), `hand` (totals, hard and soft), `rng` (the one seeded generator and the shuffle), `shoe` (the
//!   undealt cards, the cut card, the tray), `rules` (every option of the rule book, the named tables), `side` (the
//!   side bets a table may offer: their pay tables and which hands win them).
//! - One round: `command` (what a table accepts, the actions, why a command is refused), `event` (what a command did),
//!   `seat` (a seat and its hands), `play` (what a hand may do and how it settles), `checks` (what the rules allow,
//!   from what anyone can see), `table/` (the round's state machine, its cards, saves and sealing), `view` (the table
//!   from one seat: nothing a player could not see).
//! - Playing well: `strategy` (the published basic-strategy charts), `ev` (an infinite deck's values, for pricing a
//!   decision quickly), `exact/` (every play's exact value on the cards left: the dealer's odds, the player's values,
//!   the advisor's question, the chart and index plays worked out, each side bet's value), `count` (counting systems as
//!   data, the running and true count), `counter` (a counter's bet ramp and index plays), `drill` (practice drills'
//!   cards and answers), `ai` (companions' minds).
//! - Many rounds: `solo` (one seat against the dealer, the fast path), `sim` (the simulator over many threads).
//!
//! A new rule is a field of `Rules` (`rules`), settled in `play` or `table/`, allowed in `checks`, and decided for the
//! exact engine in `exact::ExactRules::of`, which will not compile until it is.

pub mod ai;
pub mod card;
pub mod checks;
pub mod command;
pub mod count;
pub mod counter;
pub mod drill;
pub mod ev;
pub mod event;
pub mod exact;
pub mod hand;
pub mod money;
pub mod play;
pub mod rng;
pub mod rules;
pub mod seat;
pub mod shoe;
pub mod side;
pub mod sim;
pub mod solo;
pub mod strategy;
pub mod table;
pub mod view;
pub mod words;

pub use card::{Card, Rank, Suit};
pub use checks::TableState;
pub use command::{Action, Actions, Command, CommandError, Phase, SeatId};
pub use event::{Event, EventSink, Ignore, Outcome, Spot};
pub use hand::{Cards, Total};
pub use money::Cents;
pub use rng::{Seed, TableRng, os_seed, os_seed_number, seed_from_number};
pub use rules::{
    DoubleOn, EnhcLoss, HoleCard, Payout, Preset, RuleError, Rules, Soft17, Surrender,
};
pub use seat::{Hand, HandState, MAX_SEATS, Seat};
pub use shoe::{Shoe, shoe_from_seed};
pub use strategy::BasicStrategy;
pub use table::Table;
pub use view::{DealerView, ShoeView, TableView, Viewer};
