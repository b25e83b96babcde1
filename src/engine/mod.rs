//! The blackjack engine: cards, shoe, rules, the round state machine, basic strategy and the simulator.
//!
//! Plain Rust with no Bevy: it builds and tests with `--no-default-features`.

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
pub mod sim;
pub mod solo;
pub mod strategy;
pub mod table;
pub mod view;

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
pub use shoe::Shoe;
pub use strategy::BasicStrategy;
pub use table::Table;
pub use view::{DealerView, ShoeView, TableView, Viewer};
