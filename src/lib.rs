//! Holecard: a casino blackjack table on Bevy, over an exact, fast, Bevy-free blackjack engine.

pub mod design;
pub mod engine;
pub mod history;
pub mod host;
pub mod level;
pub mod narrate;
pub mod places;
pub mod protocol;
pub mod record;
pub mod replay;
pub mod terminal;

#[cfg(feature = "server")]
pub mod server;

#[cfg(feature = "game")]
pub mod game;
