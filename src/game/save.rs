//! Quitting never loses chips: the player's sitting — the level, the table sealed (as everyone at it saw it: the cards
//! to come and a face-down card are nowhere in the file), who sits where — is written when a round ends, when the
//! player leaves the table and when the game quits, and the Title offers to resume it, mid-round if that is where it
//! stopped.

use super::session::Session;
use super::table::{Engine, Restore};
use crate::engine::ai::{Mind, Personality};
use crate::engine::{Cents, SeatId, TableState};
use crate::host::{Host, Occupant, Snapshot};
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
    /// seen). Fails only when the system has no entropy to seal with.
    pub fn capture(session: &Session, engine: &Engine) -> Result<Sitting, String> {
        let entropy = crate::engine::os_seed().map_err(|e| e.to_string())?;
        Ok(Sitting {
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
                std::fs::rename(&temporary, &path).map_err(|e| format!("{}: {e}", path.display()))
            }
            #[cfg(target_arch = "wasm32")]
            Store::Browser => super::web::storage_set(name, text),
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
            Store::Folder(_) => {
                let _ = std::fs::remove_file(self.place(name));
            }
            #[cfg(target_arch = "wasm32")]
            Store::Browser => super::web::storage_remove(name),
        }
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

    /// Reads the save. A damaged save is moved aside (never deleted) and reported with its file, line and column.
    pub fn read(&self) -> Result<Option<Sitting>, Unreadable> {
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
            Err(message) => {
                let aside = "sitting.ron.damaged";
                Err(match self.store.rename(SaveSlot::NAME, aside) {
                    Ok(()) => Unreadable {
                        message: format!(
                            "{message} (kept as {})",
                            self.store.place(aside).display()
                        ),
                        still_there: false,
                    },
                    Err(why) => Unreadable {
                        message: format!("{message} (could not move it aside: {why})"),
                        still_there: true,
                    },
                })
            }
        }
    }

    /// Forgets the save (after the player has cashed out of it).
    pub fn clear(&self) {
        self.store.remove(SaveSlot::NAME);
    }
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

/// Saving for the windowed game: read at start, written at each round's end, on leaving the table and on quitting.
pub(super) fn plugin(app: &mut App) {
    let mut slot = SaveSlot::platform();
    let saved = match slot.as_ref().map(SaveSlot::read) {
        Some(Ok(sitting)) => Saved {
            sitting,
            problem: None,
        },
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
        .add_systems(Update, remember_preferences)
        .add_systems(OnExit(super::screen::Screen::Table), save_now)
        .add_systems(
            Update,
            save_after_round
                .after(super::screen::RoundSet::Present)
                .run_if(in_state(super::screen::Screen::Table)),
        )
        .add_systems(
            Last,
            save_on_quit
                .after(bevy::window::ExitSystems)
                .run_if(in_state(super::screen::Screen::Table)),
        );
}

/// The world's sitting, as it stands.
#[derive(bevy::ecs::system::SystemParam)]
pub(super) struct Keep<'w> {
    slot: Option<Res<'w, SaveSlot>>,
    saved: ResMut<'w, Saved>,
    session: Res<'w, Session>,
    engine: Option<Res<'w, Engine>>,
}

impl Keep<'_> {
    fn write(&mut self) {
        let (Some(slot), Some(engine)) = (self.slot.as_ref(), self.engine.as_ref()) else {
            return;
        };
        // Only the player's own chips are kept: watching, or letting the AI play, leaves the save alone.
        if super::player::human_seat(&self.session).is_none() {
            return;
        }
        let written = Sitting::capture(&self.session, engine)
            .and_then(|sitting| slot.write(&sitting).map(|()| sitting));
        match written {
            Ok(sitting) => {
                self.saved.sitting = Some(sitting);
                self.saved.problem = None;
            }
            Err(problem) => {
                error!("{problem}");
                self.saved.problem = Some(problem);
            }
        }
    }
}

fn save_now(mut keep: Keep) {
    keep.write();
}

fn save_after_round(mut shown: MessageReader<super::table::Shown>, mut keep: Keep) {
    if shown
        .read()
        .any(|s| matches!(s.0, crate::engine::Event::RoundEnded { .. }))
    {
        keep.write();
    }
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
        let problem = slot.read().expect_err("damaged");
        assert!(!problem.still_there, "{}", problem.message);
        assert!(
            problem.message.contains("sitting.ron:1:"),
            "{}",
            problem.message
        );
        assert!(problem.message.contains("kept as"), "{}", problem.message);
        assert_eq!(
            slot.store.read("sitting.ron.damaged"),
            Ok(Some("(session: oops".to_string()))
        );
        assert_eq!(slot.read().map(|s| s.is_none()).ok(), Some(true));
        let Store::Folder(dir) = slot.store;
        let _ = std::fs::remove_dir_all(dir);
    }
}
