//! The Bevy game: the casino table in ECS, driven by the engine. Built with the default `game` feature.

pub mod headless;
pub mod screen;
pub mod seats;
pub mod table;

use crate::engine::{RuleError, Table, seed_from_number};
use crate::level::Level;
use bevy::prelude::*;

/// The game's logic, which runs the same with a window or without one: screens and round phases, the table's
/// entities, and the seats.
pub fn logic_plugin(app: &mut App) {
    app.add_plugins((screen::plugin, table::plugin, seats::plugin));
}

/// Opens `level` on a table seeded from `seed`, at `speed`, with an AI in the player's seat if `autoplay`.
pub fn open_table(
    app: &mut App,
    level: Level,
    seed: u64,
    speed: table::Speed,
    autoplay: bool,
) -> Result<(), RuleError> {
    let table = Table::new(
        level.rules.rules(),
        seed_from_number(seed),
        level.house_bankroll,
    )?;
    app.insert_resource(table::Engine::new(table))
        .insert_resource(table::Beats::at(speed))
        .insert_resource(seats::Session {
            level,
            seed,
            autoplay,
        });
    Ok(())
}
