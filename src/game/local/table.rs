//! The game's own table: its host (the one place in the game that holds the engine's table), opened afresh on
//! entering the table, restored from a saved sitting, or opened on a kept round to replay it (what the pages ask for
//! with the model's `OpenTable`).

use crate::engine::{Command, CommandError};
use crate::game::keep::sitting::Restore;
use crate::game::model::screen::Screen;
use crate::game::model::session::Session;
use crate::game::model::table::{Beats, Occupants, OnlineTable, Restored, SeatView};
use crate::host::Host;
use bevy::prelude::*;

/// The table's host: the one place in the game that holds the engine's table (inside the host, where nothing else
/// can reach it). The model asks it for moves and feeds what it reports to [`Beats`]; everything it hands out is
/// public.
#[derive(Resource, Deref, DerefMut)]
pub struct HostedTable(Host);

impl HostedTable {
    /// Hosts a table in the game.
    pub fn new(host: Host) -> HostedTable {
        HostedTable(host)
    }

    /// Applies a command, queueing its news to be shown.
    pub fn apply(&mut self, command: Command, beats: &mut Beats) -> Result<(), CommandError> {
        beats.show(self.0.apply(command)?);
        Ok(())
    }
}

/// Opens the game's own table on entering it: the saved sitting's table hosted again when there is one to resume,
/// else a new table for the session. At a casino's table (`online` put it on the felt first) there is no host here.
pub(crate) fn open(
    mut session: ResMut<Session>,
    restore: Option<Res<Restore>>,
    online: Option<Res<OnlineTable>>,
    mut commands: Commands,
    mut occupants: ResMut<Occupants>,
    mut screen: ResMut<NextState<Screen>>,
) {
    if online.is_some() {
        commands.remove_resource::<HostedTable>();
        return;
    }
    if let Some(restore) = restore {
        *session = restore.session.clone();
        occupants.0 = restore.host.names();
        commands.insert_resource(SeatView(
            restore.host.view(SeatView::viewer(&restore.session)),
        ));
        commands.insert_resource(HostedTable::new(restore.host.clone()));
        commands.insert_resource(Restored {
            accepted: restore.accepted,
            recorder: restore.recorder.clone(),
        });
        commands.remove_resource::<Restore>();
        return;
    }
    match session.new_table() {
        Ok(table) => {
            let host = Host::new(
                table,
                session.level.companions.clone(),
                session.seed,
                session.visits,
            );
            commands.insert_resource(SeatView(host.view(SeatView::viewer(&session))));
            commands.insert_resource(HostedTable::new(host));
        }
        Err(error) => {
            // Levels are checked when loaded, so this is a bug; say so and go back rather than sit at no table.
            error!("cannot open {}: {error}", session.level.name);
            screen.set(Screen::Title);
        }
    }
}
