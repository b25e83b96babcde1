//! Quitting never loses chips: the player's sitting — the level, the engine's whole table (shoe and generator
//! included), who sits where — is written when a round ends, when the player leaves the table and when the game
//! quits, and the Title offers to resume it, mid-round if that is where it stopped.

use super::seats::Session;
use super::table::{Engine, Occupant, Occupants};
use crate::engine::ai::{Mind, Personality};
use crate::engine::{Cents, SeatId, Table};
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
    /// The engine's table, exactly.
    pub table: Table,
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
    /// The sitting as the world has it now.
    pub fn capture(session: &Session, engine: &Engine, occupants: &Occupants) -> Sitting {
        Sitting {
            session: session.clone(),
            occupants: occupants
                .seats
                .iter()
                .enumerate()
                .filter_map(|(seat, o)| {
                    o.as_ref().map(|o| SavedOccupant {
                        seat: seat as SeatId,
                        name: o.name.clone(),
                        personality: o.mind.as_ref().map(Mind::personality),
                        buy_in: o.buy_in,
                    })
                })
                .collect(),
            table: engine.table.clone(),
        }
    }

    /// The player's chips in this sitting: in front of them and on the felt.
    pub fn player_chips(&self) -> Cents {
        self.session.player_seat.map_or(Cents::ZERO, |seat| {
            self.table.seats()[usize::from(seat)].bankroll + self.table.seat_on_felt(seat)
        })
    }

    /// Occupants with fresh minds (a counter starts counting again).
    pub fn occupants(&self) -> Occupants {
        let mut occupants = Occupants::default();
        for saved in &self.occupants {
            let mind = saved.personality.map(|p| {
                Mind::new(
                    p,
                    self.table.rules(),
                    super::seats::mind_seed(&self.session, saved.seat),
                )
            });
            if let Some(slot) = occupants.seats.get_mut(usize::from(saved.seat)) {
                *slot = Some(Occupant {
                    name: saved.name.clone(),
                    mind,
                    buy_in: saved.buy_in,
                });
            }
        }
        occupants
    }
}

/// A sitting to restore on entering the table, instead of opening a fresh one.
#[derive(Resource)]
pub struct Restore(pub Sitting);

/// Where saves go (none in the browser until the web build keeps them).
#[derive(Resource, Clone, Debug)]
pub struct SaveSlot {
    /// The save file.
    pub path: PathBuf,
}

impl SaveSlot {
    /// The platform's place for a game's data: `$HOLECARD_DATA_DIR`, else the XDG data directory on Linux,
    /// Application Support on macOS, `%APPDATA%` on Windows.
    pub fn platform() -> Option<SaveSlot> {
        let dir = if let Some(dir) = std::env::var_os("HOLECARD_DATA_DIR") {
            PathBuf::from(dir)
        } else if cfg!(windows) {
            PathBuf::from(std::env::var_os("APPDATA")?).join("Holecard")
        } else if cfg!(target_os = "macos") {
            PathBuf::from(std::env::var_os("HOME")?).join("Library/Application Support/Holecard")
        } else if let Some(xdg) = std::env::var_os("XDG_DATA_HOME") {
            PathBuf::from(xdg).join("holecard")
        } else {
            PathBuf::from(std::env::var_os("HOME")?).join(".local/share/holecard")
        };
        Some(SaveSlot {
            path: dir.join("sitting.ron"),
        })
    }

    /// Writes the sitting: to a temporary file first, then renamed over the old save, so a crash mid-write
    /// leaves the previous save whole.
    pub fn write(&self, sitting: &Sitting) -> Result<(), String> {
        let text = ron::ser::to_string_pretty(sitting, ron::ser::PrettyConfig::default())
            .map_err(|e| format!("cannot write the save: {e}"))?;
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        let temporary = self.path.with_extension("ron.new");
        std::fs::write(&temporary, text).map_err(|e| format!("{}: {e}", temporary.display()))?;
        std::fs::rename(&temporary, &self.path).map_err(|e| format!("{}: {e}", self.path.display()))
    }

    /// Reads the save. A damaged save is moved aside (never deleted) and reported with its file, line and column.
    pub fn read(&self) -> Result<Option<Sitting>, String> {
        let text = match std::fs::read_to_string(&self.path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("{}: {e}", self.path.display())),
        };
        match parse(&self.path, &text) {
            Ok(sitting) => Ok(Some(sitting)),
            Err(message) => {
                let aside = self.path.with_extension("ron.damaged");
                let moved = std::fs::rename(&self.path, &aside)
                    .map(|()| format!(" (kept as {})", aside.display()))
                    .unwrap_or_default();
                Err(format!("{message}{moved}"))
            }
        }
    }

    /// Forgets the save (after the player has cashed out of it).
    pub fn clear(&self) {
        let _ = std::fs::remove_file(&self.path);
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
        .check_consistency()
        .map_err(|e| format!("{}: the saved table is damaged: {e}", path.display()))?;
    Ok(sitting)
}

/// Settings remembered between launches, beside the save.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Preferences {
    /// The table's pace.
    pub speed: super::table::Speed,
    /// Stand by itself on 21.
    pub auto_stand_21: bool,
    /// How cards are printed, and reduced motion.
    #[serde(default)]
    pub look: super::art::Look,
    /// Volumes of music, ambience and effects.
    #[serde(default)]
    pub mix: super::audio::Mix,
}

impl Default for Preferences {
    fn default() -> Preferences {
        Preferences {
            speed: super::table::Speed::Normal,
            auto_stand_21: super::player::PlayOptions::default().auto_stand_21,
            look: super::art::Look::default(),
            mix: super::audio::Mix::default(),
        }
    }
}

impl Preferences {
    fn path() -> Option<PathBuf> {
        SaveSlot::platform().map(|slot| slot.path.with_file_name("settings.ron"))
    }

    /// The remembered settings; defaults when there are none. Unreadable settings are reported and left in place
    /// for the player to look at; the defaults are used meanwhile.
    pub fn load() -> Preferences {
        let Some(path) = Preferences::path() else {
            return Preferences::default();
        };
        match std::fs::read_to_string(&path) {
            Ok(text) => Preferences::parse(&path, &text).unwrap_or_else(|message| {
                error!("{message}; using the default settings");
                Preferences::default()
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Preferences::default(),
            Err(e) => {
                error!("{}: {e}; using the default settings", path.display());
                Preferences::default()
            }
        }
    }

    /// Reads settings text, naming the file, line and column of a mistake.
    pub fn parse(path: &Path, text: &str) -> Result<Preferences, String> {
        read_ron(path, text)
    }

    fn write(&self) -> Result<(), String> {
        let Some(path) = Preferences::path() else {
            return Ok(());
        };
        let text = ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default())
            .map_err(|e| format!("cannot write the settings: {e}"))?;
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// Writes the settings whenever the player changes them.
fn remember_preferences(
    beats: Res<super::table::Beats>,
    options: Res<super::player::PlayOptions>,
    look: Res<super::art::Look>,
    mix: Option<Res<super::audio::Mix>>,
    mut last: Local<Option<Preferences>>,
) {
    let now = Preferences {
        speed: beats.speed,
        auto_stand_21: options.auto_stand_21,
        look: *look,
        mix: mix.map_or_else(super::audio::Mix::default, |m| *m),
    };
    match *last {
        None => *last = Some(now),
        Some(before) if before != now => {
            *last = Some(now);
            if let Err(message) = now.write() {
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
    let slot = SaveSlot::platform();
    let saved = match slot.as_ref().map(SaveSlot::read) {
        Some(Ok(sitting)) => Saved {
            sitting,
            problem: None,
        },
        Some(Err(problem)) => {
            error!("{problem}");
            Saved {
                sitting: None,
                problem: Some(problem),
            }
        }
        None => Saved {
            sitting: None,
            problem: Some("no place to keep a save here: progress won't be kept".to_string()),
        },
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
    occupants: Res<'w, Occupants>,
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
        let sitting = Sitting::capture(&self.session, engine, &self.occupants);
        match slot.write(&sitting) {
            Ok(()) => {
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
