//! Holecard's core: everything under the game, the casino server and the lab that needs neither Bevy nor a network.
//! The `holecard` crate re-exports each module under the same name (`holecard::engine`, `holecard::host`,
//! `holecard::protocol`).
//!
//! The house, bottom up; an arrow only points down:
//! - `engine`: the rules of blackjack, the shoe, the round, the seat's view, strategy, the exact analyzer, counts
//!   and the simulator. Plain Rust; knows nothing above it.
//! - `host`: the table's host (who sits where, companions), the levels, hand records and history, replays, the
//!   round in words, the shared design and where data is kept. Bevy-free; the front ends share it.
//! - `protocol`: the wire between the casino server and the game's online client: every message, its limits and
//!   its checks. A new message on the wire goes here first.

pub mod engine;
pub mod host;
pub mod protocol;
