//! The table as a seat sees it, headless-safe: the screens and round phases with the order of the round's system
//! sets (`screen`), the sitting's session, the player's settings as plain data, the table's entities built from the
//! seat's news one beat at a time (`table`), the player's intents and bet slip (`player`), and the advisor's exact
//! values from what the seat has seen (`advisor`), each table's exact house edge (`edges`), its chart and index plays (`strategy`), and the drills of Practice (`practice`). It runs the same with a window, without one and in the browser. It
//! uses the engine and the host's public news only; nothing here names egui, a window, the disk or the network, and
//! nothing here holds the engine's table (the drivers, `local` and `online`, feed it).

pub mod advisor;
pub mod coach;
pub mod edges;
pub mod player;
pub mod practice;
pub mod screen;
pub mod session;
pub mod settings;
pub mod strategy;
pub mod table;

use bevy::prelude::*;

/// The model's plugins: screens and round phases, the table's entities and news, the player's intents.
pub fn plugin(app: &mut App) {
    app.add_plugins((
        screen::plugin,
        table::plugin,
        player::plugin,
        advisor::plugin,
        coach::plugin,
        edges::plugin,
        strategy::plugin,
        practice::plugin,
    ));
}
