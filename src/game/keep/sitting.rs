//! The player's sitting as a save holds it: the level, the table sealed (as everyone at it saw it: the cards to
//! come and a face-down card are nowhere in it), who sits where with their minds, and the round being recorded;
//! captured from the game's own table's host and restored to one, read from RON with the place of any mistake.

use crate::engine::ai::{Mind, Personality};
use crate::engine::{Cents, SeatId, TableState};
use crate::game::model::session::Session;
use crate::host::record::Recorder;
use crate::host::{Host, Occupant, Snapshot};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Everything needed to sit back down where the player got up.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sitting {
    /// The level, seed, visits and the player's seat, as the session had them.
    pub session: Session,
    /// Who sits where.
    pub occupants: Vec<SavedOccupant>,
    /// The engine's table, exactly (opaque outside the host).
    pub table: Snapshot,
    /// Commands the table had accepted in this sitting, counted across restarts: which of the save and the journal
    /// is newer.
    #[serde(default)]
    pub accepted: u64,
    /// The player's round under way as recorded so far (none between rounds, or for a save from before the journal).
    #[serde(default)]
    pub recorder: Option<Recorder>,
}

/// One occupied seat in a save.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedOccupant {
    /// The seat.
    pub seat: SeatId,
    /// Their name.
    pub name: String,
    /// How they play, for an AI seat.
    pub personality: Option<Personality>,
    /// What they sat down with.
    pub buy_in: Cents,
}

impl Sitting {
    /// The sitting as the world has it now, its table sealed (nothing in the file tells what nobody at the table has
    /// seen), `accepted` commands into the sitting, with the round under way as `recorder` has it. Fails only when
    /// the system has no entropy to seal with.
    pub fn capture(
        session: &Session,
        engine: &Host,
        accepted: u64,
        recorder: Option<&Recorder>,
    ) -> Result<Sitting, String> {
        let entropy = crate::engine::os_seed().map_err(|e| e.to_string())?;
        Ok(Sitting {
            accepted,
            recorder: recorder.cloned(),
            session: session.clone(),
            occupants: engine
                .occupants()
                .map(|(seat, o)| SavedOccupant {
                    seat,
                    name: o.name.clone(),
                    personality: o.mind.as_ref().map(Mind::personality),
                    buy_in: o.buy_in,
                })
                .collect(),
            table: engine.snapshot(entropy),
        })
    }

    /// The player's chips in this sitting: in front of them and on the felt.
    pub fn player_chips(&self) -> Cents {
        let table = self.table.state();
        self.session.player_seat.map_or(Cents::ZERO, |seat| {
            table.seats()[usize::from(seat)].bankroll + table.seat_on_felt(seat)
        })
    }

    /// The sitting, to resume on entering the table: its table hosted again with a fresh generator, everyone back in
    /// their seat with a fresh mind (a counter starts counting again). Fails only when the system has no entropy.
    pub fn restore(&self) -> Result<Restore, String> {
        let session = &self.session;
        let reseed = crate::engine::os_seed().map_err(|e| e.to_string())?;
        let mut host = Host::restore(
            self.table.clone(),
            reseed,
            session.level.companions.clone(),
            session.seed,
            session.visits,
        );
        for saved in &self.occupants {
            let occupant = Occupant {
                name: saved.name.clone(),
                buy_in: saved.buy_in,
                person: session.player_seat == Some(saved.seat),
                mind: None,
            };
            host.resume_seat(saved.seat, occupant, saved.personality);
        }
        Ok(Restore {
            session: session.clone(),
            host,
            accepted: self.accepted,
            recorder: self.recorder.clone(),
        })
    }
}

/// A sitting to resume on entering the table, instead of opening a fresh one: its session, and its table hosted
/// again with who sits where (their minds included). Made from a saved sitting ([`Sitting::restore`]), or from a kept
/// round to replay.
#[derive(bevy::prelude::Resource)]
pub struct Restore {
    /// The session as it was.
    pub session: Session,
    /// The table as it was, with its occupants.
    pub host: Host,
    /// Commands the sitting had accepted (its place in the journal).
    pub accepted: u64,
    /// The round under way as recorded so far.
    pub recorder: Option<Recorder>,
}

/// Reads RON text; a mistake is reported as `file:line:column: what`.
pub(crate) fn read_ron<T: serde::de::DeserializeOwned>(
    path: &Path,
    text: &str,
) -> Result<T, String> {
    ron::Options::default().from_str(text).map_err(|e| {
        format!(
            "{}:{}:{}: {}",
            path.display(),
            e.span.start.line,
            e.span.start.col,
            e.code
        )
    })
}

/// Reads a save's text, checking the table inside is whole.
pub fn parse(path: &Path, text: &str) -> Result<Sitting, String> {
    let sitting: Sitting = read_ron(path, text)?;
    sitting
        .table
        .check()
        .map_err(|e| format!("{}: the saved table is damaged: {e}", path.display()))?;
    Ok(sitting)
}
