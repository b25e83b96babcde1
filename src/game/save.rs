//! Quitting never loses chips, and a crash never rewinds: the player's sitting — the level, the table sealed (as
//! everyone at it saw it: the cards to come and a face-down card are nowhere in the file), who sits where, the round
//! being recorded — is journaled after every frame in which the table accepted a command (one line appended to
//! `sitting.journal`, then the file and its folder synced), before anything of it is drawn. The journal is folded
//! into `sitting.ron` when the player leaves the table, when the game quits, and every
//! [`CHECKPOINT_ENTRIES`] entries. The Title offers to resume the newest of the two, mid-round if that is where it
//! stopped: the same cards on the felt, the same bets, the same decision pending (the cards still to come were
//! never known to anyone, and stay unknown; the hole card, unseen, is drawn again with the odds it had).

use super::session::Session;
use super::table::{Engine, Restore};
use crate::engine::ai::{Mind, Personality};
use crate::engine::{Cents, Command, SeatId, TableState};
use crate::history::PlayedHand;
use crate::host::{Host, Occupant, Snapshot};
use crate::record::Recorder;
use bevy::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

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
        engine: &Engine,
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

/// Where saves and settings are kept: files in the platform's data folder, or the browser's localStorage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Store {
    /// A folder on disk.
    Folder(PathBuf),
    /// The page's `localStorage`, each file under the key `holecard/NAME`.
    #[cfg(target_arch = "wasm32")]
    Browser,
}

impl Store {
    /// The platform's place for a game's data (`crate::places::data_dir`); in the browser, localStorage when the
    /// page may use it.
    /// None when there is nowhere to keep anything: the game plays on and says progress won't be kept.
    pub fn platform() -> Option<Store> {
        #[cfg(target_arch = "wasm32")]
        {
            super::web::storage_usable().then_some(Store::Browser)
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            let dir = crate::places::data_dir()?;
            Some(Store::Folder(dir))
        }
    }

    /// Where `name` lives, for messages: a file's path, or `localStorage:holecard/NAME`.
    pub fn place(&self, name: &str) -> PathBuf {
        match self {
            Store::Folder(dir) => dir.join(name),
            #[cfg(target_arch = "wasm32")]
            Store::Browser => {
                PathBuf::from(format!("localStorage:{}", super::web::storage_key(name)))
            }
        }
    }

    /// The text kept under `name`, None if nothing is.
    pub fn read(&self, name: &str) -> Result<Option<String>, String> {
        match self {
            Store::Folder(_) => {
                let path = self.place(name);
                match std::fs::read_to_string(&path) {
                    Ok(text) => Ok(Some(text)),
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                    Err(e) => Err(format!("{}: {e}", path.display())),
                }
            }
            #[cfg(target_arch = "wasm32")]
            Store::Browser => super::web::storage_get(name),
        }
    }

    /// Keeps `text` under `name`. On disk it goes to a temporary file first, then is renamed over the old one, so a
    /// crash mid-write leaves the previous file whole; localStorage replaces an item in one step.
    pub fn write(&self, name: &str, text: &str) -> Result<(), String> {
        match self {
            Store::Folder(dir) => {
                std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
                let path = self.place(name);
                let temporary = self.place(&format!("{name}.tmp"));
                let written = std::fs::File::create(&temporary).and_then(|mut file| {
                    std::io::Write::write_all(&mut file, text.as_bytes())?;
                    file.sync_all()
                });
                written.map_err(|e| format!("{}: {e}", temporary.display()))?;
                std::fs::rename(&temporary, &path)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                sync_folder(dir)
            }
            #[cfg(target_arch = "wasm32")]
            Store::Browser => super::web::storage_set(name, text),
        }
    }

    /// Adds `text` at the end of what is under `name`. On disk the file is opened for appending, written and synced
    /// (and its folder synced when the file is new), so once this returns the text outlasts a crash; a crash during
    /// the write can leave only a cut-off end, which [`read_journal`] knows.
    pub fn append(&self, name: &str, text: &str) -> Result<(), String> {
        match self {
            Store::Folder(dir) => {
                std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
                let path = self.place(name);
                let new = !path.exists();
                let written = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(&path)
                    .and_then(|mut file| {
                        std::io::Write::write_all(&mut file, text.as_bytes())?;
                        file.sync_data()
                    });
                written.map_err(|e| format!("{}: {e}", path.display()))?;
                if new { sync_folder(dir) } else { Ok(()) }
            }
            #[cfg(target_arch = "wasm32")]
            Store::Browser => {
                let mut all = super::web::storage_get(name)?.unwrap_or_default();
                all.push_str(text);
                super::web::storage_set(name, &all)
            }
        }
    }

    /// Sets a damaged `name` aside as `NAME.damaged` (never deleting it): `message` with where it was kept, or, when it
    /// could not be moved, the error with why (it is then still in the way: nothing may be written over it).
    pub fn set_aside(&self, name: &str, message: &str) -> Result<String, String> {
        let aside = format!("{name}.damaged");
        match self.rename(name, &aside) {
            Ok(()) => Ok(format!(
                "{message} (kept as {})",
                self.place(&aside).display()
            )),
            Err(why) => Err(format!("{message} (could not move it aside: {why})")),
        }
    }

    /// Moves what is under `name` to `to`, replacing whatever was there.
    pub fn rename(&self, name: &str, to: &str) -> Result<(), String> {
        match self {
            Store::Folder(_) => {
                let from = self.place(name);
                std::fs::rename(&from, self.place(to))
                    .map_err(|e| format!("{}: {e}", from.display()))
            }
            #[cfg(target_arch = "wasm32")]
            Store::Browser => {
                let text = super::web::storage_get(name)?.unwrap_or_default();
                super::web::storage_set(to, &text)?;
                super::web::storage_remove(name);
                Ok(())
            }
        }
    }

    /// Forgets `name`; nothing happens if it is not there.
    pub fn remove(&self, name: &str) {
        match self {
            Store::Folder(dir) => {
                if std::fs::remove_file(self.place(name)).is_ok()
                    && let Err(problem) = sync_folder(dir)
                {
                    error!("{problem}");
                }
            }
            #[cfg(target_arch = "wasm32")]
            Store::Browser => super::web::storage_remove(name),
        }
    }
}

/// Makes a folder's entries (a file made, renamed or removed in it) outlast a crash. Only where folders can be
/// opened and synced (Unix); elsewhere the file's own sync is what there is.
fn sync_folder(dir: &Path) -> Result<(), String> {
    #[cfg(unix)]
    {
        std::fs::File::open(dir)
            .and_then(|folder| folder.sync_all())
            .map_err(|e| format!("{}: {e}", dir.display()))
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}

/// A save that could not be read.
#[derive(Debug)]
pub struct Unreadable {
    /// What went wrong, and where.
    pub message: String,
    /// The unreadable save is still where new saves would go: the game must not write over it.
    pub still_there: bool,
}

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
fn parse_journal(place: &Path, text: &str) -> Result<Journal, String> {
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
        Store::platform().map(|store| SaveSlot { store })
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

/// Reads RON text; a mistake is reported as `file:line:column: what`.
fn read_ron<T: serde::de::DeserializeOwned>(path: &Path, text: &str) -> Result<T, String> {
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

/// Settings remembered between launches, beside the save.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Preferences {
    /// The table's pace.
    pub speed: super::settings::Speed,
    /// Stand by itself on 21.
    pub auto_stand_21: bool,
    /// Keep every seat's hands in the history.
    pub keep_every_seat: bool,
    /// How cards are printed, and reduced motion.
    #[serde(default)]
    pub look: super::settings::Look,
    /// Volumes of music, ambience and effects.
    #[serde(default)]
    pub mix: super::settings::Mix,
}

impl Default for Preferences {
    fn default() -> Preferences {
        Preferences {
            speed: super::settings::Speed::Normal,
            auto_stand_21: super::settings::PlayOptions::default().auto_stand_21,
            keep_every_seat: false,
            look: super::settings::Look::default(),
            mix: super::settings::Mix::default(),
        }
    }
}

impl Preferences {
    const NAME: &str = "settings.ron";

    /// The remembered settings; defaults when there are none. Unreadable settings are reported and left in place
    /// for the player to look at; the defaults are used meanwhile.
    pub fn load() -> Preferences {
        let Some(store) = Store::platform() else {
            return Preferences::default();
        };
        match store.read(Preferences::NAME) {
            Ok(Some(text)) => Preferences::parse(&store.place(Preferences::NAME), &text)
                .unwrap_or_else(|message| {
                    error!("{message}; using the default settings");
                    Preferences::default()
                }),
            Ok(None) => Preferences::default(),
            Err(message) => {
                error!("{message}; using the default settings");
                Preferences::default()
            }
        }
    }

    /// Reads settings text, naming the file, line and column of a mistake.
    pub fn parse(path: &Path, text: &str) -> Result<Preferences, String> {
        read_ron(path, text)
    }

    fn write(&self, store: &Store) -> Result<(), String> {
        let text = ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default())
            .map_err(|e| format!("cannot write the settings: {e}"))?;
        store.write(Preferences::NAME, &text)
    }
}

/// Writes the settings whenever the player changes them.
fn remember_preferences(
    beats: Res<super::table::Beats>,
    options: Res<super::settings::PlayOptions>,
    look: Res<super::settings::Look>,
    mix: Option<Res<super::settings::Mix>>,
    mut last: Local<Option<Preferences>>,
    mut store: Local<Option<Option<Store>>>,
) {
    let now = Preferences {
        speed: beats.speed,
        auto_stand_21: options.auto_stand_21,
        keep_every_seat: options.keep_every_seat,
        look: *look,
        mix: mix.map_or_else(super::settings::Mix::default, |m| *m),
    };
    match *last {
        None => *last = Some(now),
        Some(before) if before != now => {
            *last = Some(now);
            // Where settings go is worked out once, at the first change (in the browser that is a test write).
            if let Some(store) = store.get_or_insert_with(Store::platform)
                && let Err(message) = now.write(store)
            {
                error!("{message}");
            }
        }
        Some(_) => {}
    }
}

/// The save as the Title sees it.
#[derive(Resource, Default)]
pub struct Saved {
    /// The sitting to resume, if there is one.
    pub sitting: Option<Sitting>,
    /// What went wrong reading or writing it, for the Title.
    pub problem: Option<String>,
}

/// Saving for the windowed game: the save read at start, then kept as [`keeping`] says.
pub(super) fn plugin(app: &mut App) {
    let mut slot = SaveSlot::platform();
    let saved = match slot.as_ref().map(SaveSlot::read) {
        Some(Ok(found)) => {
            if let Some(problem) = &found.problem {
                error!("{problem}");
            }
            Saved {
                sitting: found.sitting,
                problem: found.problem,
            }
        }
        Some(Err(unreadable)) => {
            let mut problem = unreadable.message;
            if unreadable.still_there {
                // Never write over a save that could not be read or moved aside.
                slot = None;
                problem.push_str("; this session will not be saved");
            }
            error!("{problem}");
            Saved {
                sitting: None,
                problem: Some(problem),
            }
        }
        None => {
            let problem =
                "Nowhere to keep a save here (no data folder, or the browser's storage is off): \
                           progress and settings won't be kept."
                    .to_string();
            warn!("{problem}");
            Saved {
                sitting: None,
                problem: Some(problem),
            }
        }
    };
    if let Some(slot) = slot {
        app.insert_resource(slot);
    }
    app.insert_resource(saved)
        .add_systems(Update, remember_preferences);
    keeping(app);
}

/// Keeps the sitting in the [`SaveSlot`] resource (when there is one): a journal entry after every frame in which the
/// table accepted a command, written before the frame is drawn; the save itself every [`CHECKPOINT_ENTRIES`]
/// entries (between rounds), on leaving the table and on quitting.
pub fn keeping(app: &mut App) {
    app.init_resource::<Saved>()
        .init_resource::<Journaled>()
        .add_systems(OnEnter(super::screen::Screen::Table), start_journal)
        .add_systems(OnExit(super::screen::Screen::Table), save_now)
        .add_systems(
            Last,
            (journal_frame, save_on_quit.after(bevy::window::ExitSystems))
                .chain()
                .after(super::history::Recording)
                .run_if(in_state(super::screen::Screen::Table)),
        );
}

/// The journal's progress this visit to the table.
#[derive(Resource, Default, Debug)]
pub struct Journaled {
    /// Commands of the host's log already journaled.
    written: usize,
    /// Entries since the last save.
    entries: usize,
}

/// Keep the seat the AI plays under `--autoplay` like a person's (the headless sitting run), and with `trace` say
/// on stdout each journal entry as it is written and synced, and where a restart resumed (for the kill test).
#[derive(Resource, Clone, Copy, Debug)]
pub struct KeepAutoplay {
    /// Say each entry on stdout.
    pub trace: bool,
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

fn start_journal(mut journaled: ResMut<Journaled>) {
    *journaled = Journaled::default();
}

/// The world's sitting, as it stands.
#[derive(bevy::ecs::system::SystemParam)]
pub(super) struct Keep<'w> {
    slot: Option<Res<'w, SaveSlot>>,
    saved: ResMut<'w, Saved>,
    session: Res<'w, Session>,
    engine: Option<Res<'w, Engine>>,
    restored: Option<Res<'w, super::table::Restored>>,
    journaled: ResMut<'w, Journaled>,
    kept: ResMut<'w, super::history::Kept>,
    autoplay: Option<Res<'w, KeepAutoplay>>,
    over: Option<Res<'w, super::player::GameOver>>,
    replaying: Option<Res<'w, super::replay::Replaying>>,
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
            super::player::human_seat(&self.session)
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

    /// Writes the save (the history first, so every hand the journal held is in it) and forgets the journal.
    fn write(&mut self) {
        let Some((slot, sitting, log)) = self.capture() else {
            return;
        };
        self.kept.write();
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
        let written = self.journaled.written;
        let pending = self
            .engine
            .as_deref()
            .is_some_and(|engine| engine.commands().len() > written)
            || !self.kept.fresh().is_empty();
        if !pending {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> Store {
        let dir =
            std::env::temp_dir().join(format!("holecard-store-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        Store::Folder(dir)
    }

    #[test]
    fn a_folder_store_keeps_replaces_moves_and_forgets() {
        let store = scratch("folder");
        assert_eq!(store.read("settings.ron"), Ok(None));
        store.write("settings.ron", "(speed: Fast)").expect("write");
        store
            .write("settings.ron", "(speed: Normal)")
            .expect("replace");
        assert_eq!(
            store.read("settings.ron"),
            Ok(Some("(speed: Normal)".to_string()))
        );
        assert!(
            !store.place("settings.ron.tmp").exists(),
            "no temporary left behind"
        );
        store.rename("settings.ron", "old.ron").expect("move");
        assert_eq!(store.read("settings.ron"), Ok(None));
        assert_eq!(
            store.read("old.ron"),
            Ok(Some("(speed: Normal)".to_string()))
        );
        store.remove("old.ron");
        assert_eq!(store.read("old.ron"), Ok(None));
        let Store::Folder(dir) = store;
        let _ = std::fs::remove_dir_all(dir);
    }

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
    fn sitting_down() -> (Session, Engine, SeatId) {
        let level = crate::level::Level::load_or_default(None).expect("the default level");
        let seat = level.player_seat.expect("a seat for the player");
        let session = Session::new(level, 7, false);
        let table = session.new_table().expect("the table");
        let mut host = Host::new(table, session.level.companions.clone(), 7, 0);
        host.sit(seat, Occupant::person("You", session.level.buy_in))
            .expect("sits");
        host.seat_regulars();
        (session, Engine::new(host), seat)
    }

    fn entry(session: &Session, engine: &Engine, accepted: u64) -> Entry {
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
