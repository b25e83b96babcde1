//! The game's own table, one of the two drivers of the model (a casino's, `online`, is the other; the pages name
//! neither): its host (`table`: the engine's table, opened afresh, restored, or opened on a kept round as the pages
//! ask with `model::seat::OpenTable`), the companions' pace (`seats`), the player's intents given to the host as
//! commands (`player`), a kept round given again on the felt (`replay`), and the sitting journaled and saved so that
//! quitting never loses chips (`keeping`, through `keep`'s files). Uses the model, `keep` and the Bevy-free host and
//! engine below it; nothing here draws or names egui.

pub mod keeping;
mod opening;
pub mod player;
pub mod replay;
pub mod seats;
pub mod table;

use crate::game::model::screen::Screen;
use bevy::prelude::*;

/// The game's own table: the player's seat, the companions, replays and the tables the pages ask for (the table
/// itself opens in the `TableOpens` chain the app puts together).
pub fn plugin(app: &mut App) {
    app.add_plugins((player::plugin, seats::plugin, replay::plugin))
        .add_systems(
            Update,
            opening::answer_requests.run_if(in_state(Screen::Title)),
        );
}
