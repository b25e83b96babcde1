//! Holecard: a casino blackjack table on Bevy, over an exact, fast, Bevy-free blackjack engine.
//!
//! The house, bottom up; an arrow only points down:
//! - `engine`, `host` and `protocol`: the rules and the exact analyzer, the table's host, the wire. They are the
//!   `holecard-core` crate (crates/core), re-exported here under their own names.
//! - Front ends: `game` (Bevy, the `game` feature), `server` (the casino, the `server` feature, no Bevy) and the
//!   lab's command line with its terminal table (`src/bin/holecard-lab/`).

pub use holecard_core::{engine, host, protocol};

#[cfg(feature = "server")]
pub mod server;

#[cfg(feature = "game")]
pub mod game;
