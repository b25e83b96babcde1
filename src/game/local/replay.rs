//! A kept round replayed on the felt: the table opens with the seat as it sat then, and the round's own commands are
//! given again one beat at a time, so every card slides out, the hole card turns and the chips move as they did, at
//! the table's pace (the Settings' speed). Nothing of a replay is kept: no save, no journal, no history, and the
//! player's own buttons stay out of it.

use crate::engine::{Command, Phase, TableState};
use crate::game::local::table::{Engine, Restore};
use crate::game::model::screen::Screen;
use crate::game::model::session::Session;
use crate::game::model::table::Beats;
use crate::history::PlayedHand;
use crate::host::{Host, Occupant};
use crate::level::Level;
use bevy::prelude::*;
use std::collections::VecDeque;

/// The replay under way.
#[derive(Resource, Clone, Debug)]
pub struct Replaying {
    /// The round as kept (to replay again; never empty).
    pub round: Vec<PlayedHand>,
    /// The commands still to give.
    pub commands: VecDeque<Command>,
}

impl Replaying {
    /// What the banner says: `Replay · round 12 at Las Vegas Strip`.
    pub fn label(&self) -> String {
        self.round.first().map_or_else(String::new, |first| {
            format!("Replay · round {} at {}", first.round, first.table)
        })
    }

    /// Every command has been given and shown: the round is over on the felt.
    pub fn done(&self, engine: &Engine, beats: &Beats) -> bool {
        self.commands.is_empty() && beats.settled() && engine.phase() == Phase::Betting
    }
}

/// The level a kept round was played at, by its name among the tables here, with the shoe it had (the rules'
/// shorthand starts with its decks: `4D S17 …`).
pub fn level_of(hand: &PlayedHand) -> Result<Level, String> {
    let level = crate::level::catalogue(std::path::Path::new("levels"))
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

/// Opens the table on `round` (one seat's hands of one kept round) to replay it. An error says why it cannot be.
pub fn start(
    round: &[PlayedHand],
    session: &Session,
    commands: &mut Commands,
    next: &mut NextState<Screen>,
) -> Result<(), String> {
    let first = round.first().ok_or("there is no hand to replay")?;
    let level = level_of(first)?;
    let rules = crate::game::model::session::table_rules(&level);
    let replay = crate::replay::replay(&rules, level.house_bankroll, round)?;
    let seat = replay.seat;
    let buy_in = replay.table.seats()[usize::from(seat)].bankroll;
    let mut host = Host::new(replay.table, Vec::new(), session.seed, 0);
    host.resume_seat(seat, Occupant::person("You", buy_in), None);
    let mut replayed = Session::new(level, session.seed, false);
    replayed.player_seat = Some(seat);
    commands.insert_resource(Restore {
        session: replayed,
        host,
        accepted: 0,
        recorder: None,
    });
    commands.insert_resource(Replaying {
        round: round.to_vec(),
        commands: replay.commands.into(),
    });
    next.set(Screen::Table);
    Ok(())
}

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        give_the_next_command
            .after(crate::game::model::screen::RoundSet::Present)
            .run_if(in_state(Screen::Table))
            .run_if(resource_exists::<Replaying>),
    )
    .add_systems(OnExit(Screen::Table), |mut commands: Commands| {
        commands.remove_resource::<Replaying>();
    });
}

/// When the table has shown everything so far, the round's next command.
fn give_the_next_command(
    mut replaying: ResMut<Replaying>,
    engine: Option<ResMut<Engine>>,
    mut beats: ResMut<Beats>,
) {
    let Some(mut engine) = engine else {
        return;
    };
    if !beats.settled() {
        return;
    }
    if let Some(command) = replaying.commands.pop_front()
        && let Err(refused) = engine.apply(command, &mut beats)
    {
        // Checked before it started, so this is a bug; say it and stop rather than play something else.
        error!("the replay's {command:?} was refused: {refused}");
        replaying.commands.clear();
    }
}
