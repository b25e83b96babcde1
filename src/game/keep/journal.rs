//! The journal: after every frame in which the table accepted a command, one line appended to `sitting.journal`
//! (the commands, the sitting sealed just after them, the hands that ended meanwhile), then the file and its folder
//! synced, before anything of it is drawn; read back to its last whole entry after a crash.

use super::sitting::Sitting;
use crate::engine::{Command, SeatId, TableState};
use crate::game::store::Store;
use crate::host::Host;
use crate::host::history::PlayedHand;
use bevy::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// How many journal entries are kept before they are folded into `sitting.ron`.
pub const CHECKPOINT_ENTRIES: usize = 64;

/// One line of the journal: the commands the table accepted since the line before, the sitting sealed just after
/// them, and the player's hands that ended meanwhile (so a crash loses no hand the history had not yet written).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// The commands, in order.
    pub commands: Vec<Command>,
    /// The sitting after them.
    pub sitting: Sitting,
    /// Hands that ended with them.
    pub hands: Vec<PlayedHand>,
}

/// The journal's whole entries, in order, and whether its end was cut off (a crash in the middle of a write: that
/// entry was never finished, so nothing of it was shown).
#[derive(Debug, Default)]
pub struct Journal {
    /// The entries.
    pub entries: Vec<Entry>,
    /// Bytes of whole entries; anything after them is a cut-off end.
    pub whole: usize,
    /// The end was cut off.
    pub cut_off: bool,
}

/// The journal name in a store.
pub const JOURNAL: &str = "sitting.journal";

/// Reads the journal in `store` (empty when there is none). An entry that does not read, other than a cut-off
/// last one, is damage: the error says the file, line and what was wrong.
pub fn read_journal(store: &Store) -> Result<Journal, String> {
    let text = store.read(JOURNAL)?.unwrap_or_default();
    parse_journal(&store.place(JOURNAL), &text)
}

/// Reads the journal's text (`place` names it in errors), as [`read_journal`] says.
pub(crate) fn parse_journal(place: &Path, text: &str) -> Result<Journal, String> {
    let mut journal = Journal::default();
    let mut rest = text;
    let mut line = 0;
    while !rest.is_empty() {
        line += 1;
        let Some(end) = rest.find('\n') else {
            journal.cut_off = true;
            break;
        };
        let entry: Entry = serde_json::from_str(&rest[..end])
            .map_err(|e| format!("{}:{line}:{}: {e}", place.display(), e.column()))?;
        entry
            .sitting
            .table
            .check()
            .map_err(|e| format!("{}:{line}: the table is damaged: {e}", place.display()))?;
        journal.entries.push(entry);
        journal.whole += end + 1;
        rest = &rest[end + 1..];
    }
    Ok(journal)
}

/// The journal's progress this visit to the table.
#[derive(Resource, Default, Debug)]
pub struct Journaled {
    /// Commands of the host's log already journaled.
    pub(crate) written: usize,
    /// Entries since the last save.
    pub(crate) entries: usize,
}

/// The table as the journal traces it: `accepted=N round=R mid_round=B chips=C view=HASH`, the hash over the player's seat view
/// (public: the same before a crash and after the restart).
pub fn trace_line(engine: &Host, seat: SeatId, accepted: u64) -> String {
    use std::hash::{Hash, Hasher};
    let view = engine.view(crate::engine::Viewer::Seat(seat));
    let mut hasher = std::hash::DefaultHasher::new();
    serde_json::to_string(&view)
        .unwrap_or_default()
        .hash(&mut hasher);
    format!(
        "accepted={accepted} round={} mid_round={} chips={} view={:016x}",
        engine.round(),
        engine.phase() != crate::engine::Phase::Betting,
        engine.seats()[usize::from(seat)].chips().0,
        hasher.finish()
    )
}

pub(crate) fn start_journal(mut journaled: ResMut<Journaled>) {
    *journaled = Journaled::default();
}
