//! Where the sitting is kept: `sitting.ron`, the save, and `sitting.journal`, the entries since it, in one [`Store`].
//! Reading finds the newest of the two (a damaged file is set aside and said, never written over); a checkpoint
//! folds the journal into the save.

use super::journal::{Entry, JOURNAL, Journal, parse_journal};
use super::sitting::{Sitting, parse};
use crate::game::store::{Store, Unreadable};
use bevy::prelude::*;

/// The save as the Title sees it.
#[derive(Resource, Default)]
pub struct Saved {
    /// The sitting to resume, if there is one.
    pub sitting: Option<Sitting>,
    /// What went wrong reading or writing it, for the Title.
    pub problem: Option<String>,
}

/// Where the sitting is saved.
#[derive(Resource, Clone, Debug)]
pub struct SaveSlot {
    /// The store holding the save.
    pub store: Store,
}

impl SaveSlot {
    const NAME: &str = "sitting.ron";

    /// The save in the platform's store, if it has one.
    pub fn platform() -> Option<SaveSlot> {
        Store::platform().map(SaveSlot::new)
    }

    /// The save in `store`.
    pub fn new(store: Store) -> SaveSlot {
        SaveSlot { store }
    }

    /// Writes the sitting, never leaving a half-written save behind.
    pub fn write(&self, sitting: &Sitting) -> Result<(), String> {
        let text = ron::ser::to_string_pretty(sitting, ron::ser::PrettyConfig::default())
            .map_err(|e| format!("cannot write the save: {e}"))?;
        self.store.write(SaveSlot::NAME, &text)
    }

    /// Reads the sitting to resume: the newest of the save and the journal's last entry. A damaged save or journal
    /// is moved aside (never deleted) and reported with its file, line and column, and the other is used; a journal
    /// whose last entry was cut off by a crash loses that entry (it was never shown) and is written back whole.
    pub fn read(&self) -> Result<Found, Unreadable> {
        let (saved, mut problem) = match self.read_save() {
            Ok(saved) => (saved, None),
            Err(unreadable) if unreadable.still_there => return Err(unreadable),
            Err(unreadable) => (None, Some(unreadable.message)),
        };
        let text = self.store.read(JOURNAL).map_err(|message| Unreadable {
            message,
            still_there: true,
        })?;
        let text = text.unwrap_or_default();
        let journal = match parse_journal(&self.store.place(JOURNAL), &text) {
            Ok(journal) => journal,
            Err(message) => {
                let said =
                    self.store
                        .set_aside(JOURNAL, &message)
                        .map_err(|message| Unreadable {
                            message,
                            still_there: true,
                        })?;
                problem = Some(match problem {
                    Some(before) => format!("{before}; {said}"),
                    None => said,
                });
                Journal::default()
            }
        };
        if journal.cut_off {
            let place = self.store.place(JOURNAL);
            warn!(
                "{}: its last entry was cut off by a crash and is dropped (nothing of it had been shown)",
                place.display()
            );
            let whole = text.get(..journal.whole).unwrap_or_default();
            if let Err(why) = self.store.write(JOURNAL, whole) {
                return Err(Unreadable {
                    message: format!("{}: cannot drop its cut-off end: {why}", place.display()),
                    still_there: true,
                });
            }
        }
        let newest = journal
            .entries
            .into_iter()
            .map(|entry| entry.sitting)
            .next_back()
            .filter(|last| saved.as_ref().is_none_or(|s| last.accepted > s.accepted));
        Ok(Found {
            sitting: newest.or(saved),
            problem,
        })
    }

    /// Reads `sitting.ron`. A damaged save is moved aside (never deleted) and reported with its file, line and column.
    fn read_save(&self) -> Result<Option<Sitting>, Unreadable> {
        let text = self
            .store
            .read(SaveSlot::NAME)
            .map_err(|message| Unreadable {
                message,
                still_there: true,
            })?;
        let Some(text) = text else {
            return Ok(None);
        };
        match parse(&self.store.place(SaveSlot::NAME), &text) {
            Ok(sitting) => Ok(Some(sitting)),
            Err(message) => Err(match self.store.set_aside(SaveSlot::NAME, &message) {
                Ok(message) => Unreadable {
                    message,
                    still_there: false,
                },
                Err(message) => Unreadable {
                    message,
                    still_there: true,
                },
            }),
        }
    }

    /// Forgets the save and its journal (after the player has cashed out of it).
    pub fn clear(&self) {
        self.store.remove(JOURNAL);
        self.store.remove(SaveSlot::NAME);
    }

    /// Adds an entry to the journal (see [`Store::append`]).
    pub fn journal(&self, entry: &Entry) -> Result<(), String> {
        let mut line =
            serde_json::to_string(entry).map_err(|e| format!("cannot journal the sitting: {e}"))?;
        line.push('\n');
        self.store.append(JOURNAL, &line)
    }

    /// Writes the sitting as the save and then forgets the journal it makes old (a crash between the two leaves a
    /// journal whose entries are no newer than the save, which reading passes over).
    pub fn checkpoint(&self, sitting: &Sitting) -> Result<(), String> {
        self.write(sitting)?;
        self.store.remove(JOURNAL);
        Ok(())
    }
}

/// What reading the save found.
#[derive(Debug, Default)]
pub struct Found {
    /// The sitting to resume, if there is one.
    pub sitting: Option<Sitting>,
    /// What was damaged and set aside, said in words.
    pub problem: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::engine::{Command, SeatId};
    use crate::game::model::session::Session;
    use crate::game::store::scratch;
    use crate::host::{Host, Occupant};

    #[test]
    fn a_damaged_save_is_moved_aside_and_new_saves_may_go_in_its_place() {
        let slot = SaveSlot {
            store: scratch("damaged"),
        };
        slot.store
            .write(SaveSlot::NAME, "(session: oops")
            .expect("write");
        let found = slot.read().expect("moved aside, not in the way");
        assert!(found.sitting.is_none());
        let problem = found.problem.expect("said");
        assert!(problem.contains("sitting.ron:1:"), "{problem}");
        assert!(problem.contains("kept as"), "{problem}");
        assert_eq!(
            slot.store.read("sitting.ron.damaged"),
            Ok(Some("(session: oops".to_string()))
        );
        let again = slot.read().expect("reads");
        assert!(again.sitting.is_none() && again.problem.is_none());
        let Store::Folder(dir) = slot.store;
        let _ = std::fs::remove_dir_all(dir);
    }

    /// A table at the default level with the player seated, and the session it belongs to.
    fn sitting_down() -> (Session, Host, SeatId) {
        let level = crate::host::level::Level::load_or_default(None).expect("the default level");
        let seat = level.player_seat.expect("a seat for the player");
        let session = Session::new(level, 7, false);
        let table = session.new_table().expect("the table");
        let mut host = Host::new(table, session.level.companions.clone(), 7, 0);
        host.sit(
            seat,
            Occupant::person(crate::host::narrate::YOU, session.level.buy_in),
        )
        .expect("sits");
        host.seat_regulars();
        (session, host, seat)
    }

    fn entry(session: &Session, engine: &Host, accepted: u64) -> Entry {
        Entry {
            commands: engine.commands().to_vec(),
            sitting: Sitting::capture(session, engine, accepted, None).expect("captured"),
            hands: Vec::new(),
        }
    }

    #[test]
    fn the_journal_resumes_at_its_last_whole_entry_and_drops_a_cut_off_end() {
        let slot = SaveSlot {
            store: scratch("journal"),
        };
        let (session, mut engine, seat) = sitting_down();
        slot.checkpoint(&Sitting::capture(&session, &engine, 2, None).expect("captured"))
            .expect("saved");
        let before_bet = entry(&session, &engine, 2);
        let bet = Command::Bet {
            seat,
            amount: session.level.rules.rules().min_bet,
        };
        Host::apply(&mut engine, bet).expect("bets");
        let bet = entry(&session, &engine, 3);
        Host::apply(&mut engine, Command::Deal).expect("deals");
        let dealt = entry(&session, &engine, 4);
        // The entry as old as the save is passed over; the newest wins.
        slot.journal(&before_bet).expect("journaled");
        assert_eq!(
            slot.read().expect("reads").sitting.map(|s| s.accepted),
            Some(2)
        );
        slot.journal(&bet).expect("journaled");
        slot.journal(&dealt).expect("journaled");
        let found = slot.read().expect("reads").sitting.expect("a sitting");
        assert_eq!(found.accepted, 4);
        assert_eq!(found.player_chips(), session.level.buy_in);
        // Resumed: the same view from the player's seat (the hole card, unseen, may be another).
        let restored = found.restore().expect("restores");
        let viewer = crate::engine::Viewer::Seat(seat);
        assert_eq!(restored.host.view(viewer), engine.view(viewer));
        assert_eq!(restored.accepted, 4);
        // Nothing secret in the journal: the generator is blank, the undealt cards in card order, nothing queued.
        let text = slot.store.read(JOURNAL).expect("reads").expect("there");
        let blank =
            serde_json::to_value(crate::engine::TableRng::from_seed([0; 32])).expect("json");
        for line in text.lines() {
            let entry: serde_json::Value = serde_json::from_str(line).expect("an entry");
            let table = &entry["sitting"]["table"];
            assert_eq!(table["rng"], blank, "the generator is blank");
            let undealt: Vec<u64> = table["shoe"]["cards"]
                .as_array()
                .expect("undealt cards")
                .iter()
                .map(|c| c.as_u64().expect("a card"))
                .collect();
            assert!(undealt.len() > 300 && undealt.is_sorted(), "in card order");
            assert_eq!(table["shoe"]["queued"], serde_json::json!([]));
        }

        // A crash cut the last entry off: it is dropped, and the journal is whole again for the entries to come.
        let last = text.lines().last().expect("entries");
        slot.store
            .append(JOURNAL, &last[..last.len() / 2])
            .expect("appended");
        let found = slot.read().expect("reads");
        assert_eq!(found.sitting.map(|s| s.accepted), Some(4));
        assert_eq!(slot.store.read(JOURNAL), Ok(Some(text.clone())));

        // Damage in a whole entry: the journal is set aside and said, and the save is used.
        slot.store
            .write(JOURNAL, &text.replacen("\"commands\"", "\"commandz\"", 1))
            .expect("write");
        let found = slot.read().expect("reads");
        let problem = found.problem.expect("said");
        assert!(problem.contains("sitting.journal:1:"), "{problem}");
        assert!(problem.contains("kept as"), "{problem}");
        assert_eq!(found.sitting.map(|s| s.accepted), Some(2));
        assert_eq!(slot.store.read(JOURNAL), Ok(None));

        // The save folds the journal in; clearing forgets both.
        slot.journal(&dealt).expect("journaled");
        slot.checkpoint(&dealt.sitting).expect("saved");
        assert_eq!(slot.store.read(JOURNAL), Ok(None));
        assert_eq!(
            slot.read().expect("reads").sitting.map(|s| s.accepted),
            Some(4)
        );
        slot.journal(&dealt).expect("journaled");
        slot.clear();
        assert!(slot.read().expect("reads").sitting.is_none());
        let Store::Folder(dir) = slot.store;
        let _ = std::fs::remove_dir_all(dir);
    }
}
