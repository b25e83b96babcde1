//! Quitting never loses chips, and a crash never rewinds: the player's sitting — the level, the table sealed (as
//! everyone at it saw it: the cards to come and a face-down card are nowhere in the file), who sits where, the round
//! being recorded — is journaled after every frame in which the table accepted a command (one line appended to
//! `sitting.journal`, then the file and its folder synced), before anything of it is drawn. The journal is folded
//! into `sitting.ron` when the player leaves the table, when the game quits, and every
//! [`CHECKPOINT_ENTRIES`] entries. The Title offers to resume the newest of the two, mid-round if that is where it
//! stopped: the same cards on the felt, the same bets, the same decision pending (the cards still to come were
//! never known to anyone, and stay unknown; the hole card, unseen, is drawn again with the odds it had).
//!
//! The game's own table keeps itself here, through `keep`'s sitting, journal and save slot; a casino's table keeps
//! nothing on the player's machine (the casino's ledger does).

use crate::engine::{SeatId, TableState};
use crate::game::keep::history::{Kept, Recording};
use crate::game::keep::journal::{CHECKPOINT_ENTRIES, Entry, Journaled, start_journal, trace_line};
use crate::game::keep::sitting::Sitting;
use crate::game::keep::slot::{SaveSlot, Saved};
use crate::game::local::table::HostedTable;
use crate::game::model::player::GameOver;
use crate::game::model::screen::Screen;
use crate::game::model::seat::Replay;
use crate::game::model::session::Session;
use crate::game::model::table::Restored;
use bevy::prelude::*;

/// Keeps the sitting in the [`SaveSlot`] resource (when there is one): a journal entry after every frame in which the
/// table accepted a command, written before the frame is drawn; the save itself every [`CHECKPOINT_ENTRIES`]
/// entries (between rounds), on leaving the table and on quitting.
pub fn plugin(app: &mut App) {
    app.init_resource::<Saved>()
        .init_resource::<Journaled>()
        .add_systems(OnEnter(Screen::Table), start_journal)
        .add_systems(OnExit(Screen::Table), save_now)
        .add_systems(
            Last,
            (journal_frame, save_on_quit.after(bevy::window::ExitSystems))
                .chain()
                .after(Recording)
                .run_if(in_state(Screen::Table)),
        );
}

/// Keep the seat the AI plays under `--autoplay` like a person's (the headless sitting run), and with `trace` say
/// on stdout each journal entry as it is written and synced, and where a restart resumed (for the kill test).
#[derive(Resource, Clone, Copy, Debug)]
pub struct KeepAutoplay {
    /// Say each entry on stdout.
    pub trace: bool,
}

/// The world's sitting, as it stands.
#[derive(bevy::ecs::system::SystemParam)]
pub(crate) struct Keep<'w> {
    slot: Option<Res<'w, SaveSlot>>,
    saved: ResMut<'w, Saved>,
    session: Res<'w, Session>,
    engine: Option<Res<'w, HostedTable>>,
    restored: Option<Res<'w, Restored>>,
    journaled: ResMut<'w, Journaled>,
    kept: ResMut<'w, Kept>,
    autoplay: Option<Res<'w, KeepAutoplay>>,
    over: Option<Res<'w, GameOver>>,
    replaying: Option<Res<'w, Replay>>,
    time: Res<'w, Time<Real>>,
}

impl Keep<'_> {
    /// The seat whose chips are kept: the player's (the AI's under `--autoplay` only in the headless sitting run).
    /// Watching, or letting the AI play in a window, leaves the save alone.
    fn seat(&self) -> Option<SeatId> {
        // A match that is over has nothing to resume; a replay is not the player's sitting.
        if self.over.is_some() || self.replaying.is_some() {
            None
        } else if self.autoplay.is_some() {
            self.session.player_seat
        } else {
            crate::game::model::player::human_seat(&self.session)
        }
    }

    /// The sitting as it stands, the slot it goes to, and how much of the host's log it holds; none when nothing is
    /// kept here (no slot, no table, no seat to keep).
    fn capture(&self) -> Option<(SaveSlot, Result<Sitting, String>, usize)> {
        let (slot, engine) = (self.slot.as_deref()?, self.engine.as_deref()?);
        self.seat()?;
        let log = engine.commands().len();
        let accepted = self.restored.as_ref().map_or(0, |r| r.accepted) + log as u64;
        let sitting = Sitting::capture(&self.session, engine, accepted, self.kept.recorder());
        Some((slot.clone(), sitting, log))
    }

    /// Writes the save (the history first, so every hand the journal held is in it) and forgets the journal. Where
    /// no sitting is kept, the history alone.
    fn write(&mut self) {
        self.kept.write();
        let Some((slot, sitting, log)) = self.capture() else {
            return;
        };
        let written = sitting.and_then(|sitting| slot.checkpoint(&sitting).map(|()| sitting));
        *self.journaled = Journaled {
            written: log,
            entries: 0,
        };
        self.kept.journaled();
        said(&mut self.saved, written);
    }

    /// Journals the commands accepted since the last entry, with the sitting after them and the hands they ended.
    fn journal(&mut self) {
        if self.seat().is_none() {
            // No sitting is kept (the AI plays the seat in a window, a match is over): no journal holds the hands
            // the history heard, so it writes them by itself, as where there is no save slot.
            self.kept.journaled();
            self.kept.write_due(self.time.elapsed_secs_f64());
            return;
        }
        let written = self.journaled.written;
        let pending = self
            .engine
            .as_deref()
            .is_some_and(|engine| engine.commands().len() > written)
            || !self.kept.fresh().is_empty();
        if !pending {
            // Every hand is journaled: the history may be written, when it is due (two seconds after the last write).
            let now = self.time.elapsed_secs_f64();
            self.kept.write_due(now);
            return;
        }
        let (Some((slot, sitting, log)), Some(engine), Some(seat)) =
            (self.capture(), self.engine.as_deref(), self.seat())
        else {
            return;
        };
        let line = self
            .autoplay
            .as_ref()
            .filter(|keep| keep.trace)
            .zip(sitting.as_ref().ok())
            .map(|(_, sitting)| trace_line(engine, seat, sitting.accepted));
        let commands = engine
            .commands()
            .get(written..)
            .unwrap_or_default()
            .to_vec();
        let between_rounds = engine.phase() == crate::engine::Phase::Betting;
        let result = sitting.and_then(|sitting| {
            let entry = Entry {
                commands,
                sitting,
                hands: self.kept.fresh().to_vec(),
            };
            if let Some(line) = &line {
                println!("journal {line}");
            }
            slot.journal(&entry).map(|()| entry.sitting)
        });
        if result.is_ok() {
            self.journaled.written = log;
            self.journaled.entries += 1;
            self.kept.journaled();
            if let Some(line) = &line {
                println!("synced {line}");
            }
            // Only now may the history file hold the entry's hands.
            let now = self.time.elapsed_secs_f64();
            self.kept.write_due(now);
        }
        said(&mut self.saved, result);
        if self.journaled.entries >= CHECKPOINT_ENTRIES && between_rounds {
            self.write();
        }
    }
}

/// Keeps what was written (or what went wrong) for the Title.
fn said(saved: &mut Saved, result: Result<Sitting, String>) {
    match result {
        Ok(sitting) => {
            saved.sitting = Some(sitting);
            saved.problem = None;
        }
        Err(problem) => {
            error!("{problem}");
            saved.problem = Some(problem);
        }
    }
}

fn save_now(mut keep: Keep) {
    keep.write();
}

fn journal_frame(mut keep: Keep) {
    keep.journal();
}

fn save_on_quit(mut exits: MessageReader<AppExit>, mut keep: Keep) {
    if exits.read().next().is_some() {
        keep.write();
    }
}
