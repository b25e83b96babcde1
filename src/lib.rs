//! Holecard: a casino blackjack table on Bevy, over an exact, fast, Bevy-free blackjack engine.
//!
//! The house, bottom up; an arrow only points down:
//! - `engine`: the rules of blackjack, the shoe, the round, the seat's view, strategy, the exact analyzer, counts
//!   and the simulator. Plain Rust; knows nothing above it.
//! - `host`: the table's host (who sits where, companions), the levels, hand records and history, replays, the
//!   round in words, the shared design and where data is kept. Bevy-free; the front ends below share it.
//! - `protocol`: the wire between the casino server and the game's online client: every message, its limits and
//!   its checks. A new message on the wire goes here first.
//! - Front ends: `game` (Bevy, the `game` feature), `server` (the casino, the `server` feature, no Bevy) and the
//!   lab's command line with its terminal table (`src/bin/holecard-lab/`).

pub mod engine;
pub mod host;
pub mod protocol;

#[cfg(feature = "server")]
pub mod server;

#[cfg(feature = "game")]
pub mod game;
