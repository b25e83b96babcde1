//! The table as a seat sees it, headless-safe: the floor every other room of the game stands on. It runs the same
//! with a window, without one and in the browser; it uses the engine, the host's public news and the protocol's
//! records only; nothing here names egui, a window, the disk or the network, and nothing here holds the engine's table
//! (the drivers, `local` and `online`, feed it).
//!
//! - `screen`: the screens and round phases, and the order of the round's system sets.
//! - `session`: the sitting's session (the level, the seed, the player's seat); `settings`: the player's settings as
//!   plain data.
//! - `table`: the table's entities built from the seat's news one beat at a time.
//! - `seat`: the seam between the pages and the two drivers (the table the player sits at: what opens, a replay);
//!   `casino`: a casino as the pages see it and what they ask of it.
//! - `player`: the player's intents and bet slip; `coach`: the player's choices judged before they become intents.
//! - `seen`: the cards the seat has seen; `advisor`: every play's exact value from them.
//! - `edges`, `strategy`, `practice`: each table's house edge, its chart and index plays, and the drills.
//! - `frames`: when the window draws (while something moves or waits on the clock), as each room asks.
//!
//! A new page's state or request goes here first (as a resource or a message), so that the pages and the drivers
//! meet in the model and never name each other.

pub mod advisor;
pub mod casino;
pub mod coach;
pub mod edges;
pub mod frames;
pub mod next_round;
pub mod player;
pub mod practice;
pub mod screen;
pub mod seat;
pub mod seen;
pub mod session;
pub mod settings;
pub mod sides;
pub mod strategy;
pub mod table;

use bevy::prelude::*;

/// The model's plugins: screens and round phases, the table's entities and news, the player's intents.
pub fn plugin(app: &mut App) {
    app.add_plugins((
        screen::plugin,
        table::plugin,
        seen::plugin,
        seat::plugin,
        player::plugin,
        advisor::plugin,
        sides::plugin,
        next_round::plugin,
        casino::plugin,
        coach::plugin,
        edges::plugin,
        strategy::plugin,
        practice::plugin,
        frames::plugin,
    ));
}
