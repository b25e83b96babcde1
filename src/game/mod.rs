//! The Bevy game: the casino table in ECS, driven by the engine. Built with the default `game` feature.

pub mod address;
pub mod art;
pub mod asset_tracking;
pub mod audio;
pub mod headless;
pub mod hud;
pub mod layout;
pub mod lettering;
pub mod motion;
pub mod player;
pub mod save;
pub mod screen;
pub mod seats;
pub mod session;
pub mod settings;
pub mod table;
pub mod view;
#[cfg(target_arch = "wasm32")]
pub mod web;
pub mod window;

use crate::engine::RuleError;
use crate::level::Level;
use bevy::prelude::*;
use screen::Screen;

/// The game's logic, which runs the same with a window or without one: screens and round phases, the table's
/// entities, the seats and the player's intents.
pub fn logic_plugin(app: &mut App) {
    app.add_plugins((screen::plugin, table::plugin, seats::plugin, player::plugin))
        .add_systems(
            OnEnter(Screen::Table),
            (
                table::open,
                table::spawn_table,
                table::show_restored,
                seats::seat_the_table,
            )
                .chain()
                .in_set(TableOpens),
        );
}

/// Runs every schedule of the app's main world on one thread. The table's ECS is a few dozen small systems: waking
/// worker threads for them costs more than the systems themselves (on two cores, a multi-threaded frame spent most
/// of its 1.3 ms in thread hand-offs). Call after every plugin has added its schedules.
pub fn single_threaded(app: &mut App) {
    let mut schedules = app.world_mut().resource_mut::<Schedules>();
    for (_, schedule) in schedules.iter_mut() {
        schedule.set_executor(bevy::ecs::schedule::SingleThreadedExecutor::new());
    }
}

/// The systems that open the table on entering [`Screen::Table`]; anything dressing the table's entities runs after.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct TableOpens;

/// Opens `level` on a table seeded from `seed`, at `speed`, with an AI in the player's seat if `autoplay`. The
/// table itself opens on entering [`Screen::Table`].
pub fn open_table(
    app: &mut App,
    level: Level,
    seed: u64,
    speed: table::Speed,
    autoplay: bool,
) -> Result<(), RuleError> {
    let session = session::Session::new(level, seed, autoplay);
    // Refuse a table the engine would refuse now, not when the player sits down.
    session.new_table()?;
    app.insert_resource(table::Beats::at(speed))
        .insert_resource(session);
    Ok(())
}
