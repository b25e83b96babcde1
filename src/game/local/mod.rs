//! The game's own table, one of the two drivers of the model: its host (`table`: the engine's table, opened afresh
//! or restored), the companions' pace (`seats`), the player's intents given to the host as commands (`player`), and a
//! kept round given again on the felt (`replay`). Uses the model and the Bevy-free host and engine below it; nothing
//! here draws, names egui or touches the disk.

pub mod player;
pub mod replay;
pub mod seats;
pub mod table;

use bevy::prelude::*;

/// The game's own table: the player's seat, the companions and replays (the table itself opens in the
/// `TableOpens` chain the app puts together).
pub fn plugin(app: &mut App) {
    app.add_plugins((player::plugin, seats::plugin, replay::plugin));
}
