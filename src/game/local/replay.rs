//! A kept round replayed on the felt: the table opens with the seat as it sat then, and the round's own commands are
//! given again one beat at a time, so every card slides out, the hole card turns and the chips move as they did, at
//! the table's pace (the Settings' speed). Nothing of a replay is kept: no save, no journal, no history, and the
//! player's own buttons stay out of it.

use crate::engine::{Command, TableState};
use crate::game::keep::sitting::Restore;
use crate::game::local::table::HostedTable;
use crate::game::model::screen::Screen;
use crate::game::model::seat::{Replay, Replayed};
use crate::game::model::session::Session;
use crate::game::model::table::Beats;
use crate::host::history::PlayedHand;
use crate::host::level::Level;
use crate::host::{Host, Occupant};
use bevy::prelude::*;
use std::collections::VecDeque;

/// The replay's commands still to give, one a beat (the model's [`Replay`] says which round it is).
#[derive(Resource, Clone, Debug, Default)]
pub struct ReplayScript(VecDeque<Command>);

/// The level a kept round was played at, by its name among the tables here, with the shoe it had (the rules'
/// shorthand starts with its decks: `4D S17 …`).
pub fn level_of(hand: &PlayedHand) -> Result<Level, String> {
    let level = crate::host::level::catalogue(std::path::Path::new("levels"))
        .into_iter()
        .filter_map(|listing| listing.level.ok())
        .find(|level| level.name == hand.table)
        .ok_or_else(|| format!("the table \"{}\" is not among the tables here", hand.table))?;
    let decks = hand
        .rules
        .split_once('D')
        .and_then(|(decks, _)| decks.parse::<u8>().ok());
    Ok(match decks {
        Some(decks) if decks != level.rules.rules().decks => level.with_decks(decks),
        _ => level,
    })
}

/// The table opened on `round` (one seat's hands of one kept round) to replay it, and the replay: what goes in the
/// world for the table to open on. An error says why it cannot be.
pub fn prepare(
    round: &[PlayedHand],
    session: &Session,
) -> Result<(Restore, Replay, ReplayScript), String> {
    let first = round.first().ok_or("there is no hand to replay")?;
    let level = level_of(first)?;
    let rules = crate::game::model::session::table_rules(&level);
    let replay = crate::host::replay::replay(&rules, level.house_bankroll, round)?;
    let seat = replay.seat;
    let buy_in = replay.table.seats()[usize::from(seat)].bankroll;
    let mut host = Host::new(replay.table, Vec::new(), session.seed, 0);
    host.resume_seat(
        seat,
        Occupant::person(crate::host::narrate::YOU, buy_in),
        None,
    );
    let mut replayed = Session::new(level, session.seed, false);
    replayed.player_seat = Some(seat);
    let restore = Restore {
        session: replayed,
        host,
        accepted: 0,
        recorder: None,
    };
    let shown = Replay {
        round: Replayed::Own(round.to_vec()),
        dealt: replay.commands.is_empty(),
    };
    Ok((restore, shown, ReplayScript(replay.commands.into())))
}

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        give_the_next_command
            .after(crate::game::model::screen::RoundSet::Present)
            .run_if(in_state(Screen::Table))
            .run_if(resource_exists::<ReplayScript>),
    )
    .add_systems(OnExit(Screen::Table), |mut commands: Commands| {
        commands.remove_resource::<Replay>();
        commands.remove_resource::<ReplayScript>();
    });
}

/// When the table has shown everything so far, the round's next command.
fn give_the_next_command(
    mut script: ResMut<ReplayScript>,
    replay: Option<ResMut<Replay>>,
    engine: Option<ResMut<HostedTable>>,
    mut beats: ResMut<Beats>,
) {
    let (Some(mut engine), Some(mut replay)) = (engine, replay) else {
        return;
    };
    if !beats.settled() {
        return;
    }
    if let Some(command) = script.0.pop_front()
        && let Err(refused) = engine.apply(command, &mut beats)
    {
        // Checked before it started, so this is a bug; say it and stop rather than play something else.
        error!("the replay's {command:?} was refused: {refused}");
        script.0.clear();
    }
    if script.0.is_empty() && !replay.dealt {
        replay.dealt = true;
    }
}
