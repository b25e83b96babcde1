//! The sitting's session: which table is being played, where the player sits and how the player's seat is run. The
//! model's other parts (the table, the seats, the player's intents, saves) and the presentation read it.

use crate::engine::{Cents, SeatId, seed_from_number};
use crate::host::level::Level;
use bevy::prelude::*;

/// The level being played, where the player sits and how the player's seat is run. Saved with the sitting.
#[derive(Resource, Clone, Debug, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Session {
    /// The table.
    pub level: Level,
    /// The number the table was seeded from (companions' hunches and arrivals follow from it too).
    pub seed: u64,
    /// An AI plays the player's seat.
    pub autoplay: bool,
    /// The player's seat, or none to watch an all-AI table (starts as the level's, changes when the player moves).
    pub player_seat: Option<SeatId>,
    /// Times the table has been opened this session: each visit shuffles a new shoe.
    pub visits: u64,
    /// Chips the player brings from an earlier table, instead of the level's buy-in.
    pub player_chips: Option<Cents>,
}

impl Session {
    /// A session at `level` seeded from `seed`.
    pub fn new(level: Level, seed: u64, autoplay: bool) -> Session {
        Session {
            player_seat: level.player_seat,
            level,
            seed,
            autoplay,
            visits: 0,
            player_chips: None,
        }
    }

    /// The engine table for this visit: the first visit is seeded from `seed` itself, so `--seed N` pins the cards.
    pub fn new_table(&self) -> Result<crate::engine::Table, crate::engine::RuleError> {
        let seed = self
            .seed
            .wrapping_add(self.visits.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        crate::engine::Table::new(
            table_rules(&self.level),
            seed_from_number(seed),
            self.level.house_bankroll,
        )
    }
}

/// The player's own session from before sitting at a casino's table, given back on returning to the Title.
#[derive(Resource, Clone, Debug)]
pub struct HomeSession(pub Session);

/// The rules the game's table plays `level` by: the level's, with standing on 21 left to the player's own option
/// (`PlayOptions`; no outcome changes, since a 21 can only stand, but the player may want to press the button).
pub fn table_rules(level: &Level) -> crate::engine::Rules {
    crate::engine::Rules {
        auto_stand_on_21: false,
        ..level.rules.rules()
    }
}

/// The player's seat, when the player sits and plays it by hand.
pub fn human_seat(session: &Session) -> Option<SeatId> {
    session.player_seat.filter(|_| !session.autoplay)
}
