//! The player's settings remembered between launches (`settings.ron` beside the save), written whenever they change.

use super::sitting::read_ron;
use crate::game::store::Store;
use bevy::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Settings remembered between launches, beside the save.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Preferences {
    /// The table's pace.
    pub speed: crate::game::model::settings::Speed,
    /// Stand by itself on 21.
    pub auto_stand_21: bool,
    /// Keep every seat's hands in the history.
    pub keep_every_seat: bool,
    /// Show the advisor at the table.
    #[serde(default)]
    pub advisor: bool,
    /// Show the count beside the shoe.
    #[serde(default)]
    pub show_count: bool,
    /// The counting system, by its place in the list (0 = Hi-Lo).
    #[serde(default)]
    pub count_system: u8,
    /// The coach at the table.
    #[serde(default)]
    pub coach: bool,
    /// The table asks for the count at the shuffle.
    #[serde(default)]
    pub count_quiz: bool,
    /// The share of Kelly's bet suggested, in percent.
    #[serde(default = "half_kelly")]
    pub kelly_percent: u8,
    /// Work out each round's expected result, for luck and skill (on unless turned off).
    #[serde(default = "on")]
    pub luck: bool,
    /// How cards are printed, and reduced motion.
    #[serde(default)]
    pub look: crate::game::model::settings::Look,
    /// Volumes of music, ambience and effects.
    #[serde(default)]
    pub mix: crate::game::model::settings::Mix,
    /// How to play has been offered on the Title (the first start's offer is made once).
    #[serde(default)]
    pub welcomed: bool,
}

impl Default for Preferences {
    fn default() -> Preferences {
        Preferences {
            speed: crate::game::model::settings::Speed::Normal,
            auto_stand_21: crate::game::model::settings::PlayOptions::default().auto_stand_21,
            keep_every_seat: false,
            advisor: false,
            show_count: false,
            count_system: 0,
            coach: false,
            count_quiz: false,
            kelly_percent: half_kelly(),
            luck: true,
            look: crate::game::model::settings::Look::default(),
            mix: crate::game::model::settings::Mix::default(),
            welcomed: false,
        }
    }
}

fn on() -> bool {
    true
}

fn half_kelly() -> u8 {
    crate::game::model::settings::PlayOptions::default().kelly_percent
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
pub(crate) fn remember_preferences(
    beats: Res<crate::game::model::table::Beats>,
    options: Res<crate::game::model::settings::PlayOptions>,
    look: Res<crate::game::model::settings::Look>,
    mix: Option<Res<crate::game::model::settings::Mix>>,
    welcomed: Option<Res<crate::game::model::settings::Welcomed>>,
    mut last: Local<Option<Preferences>>,
    mut store: Local<Option<Option<Store>>>,
) {
    let now = Preferences {
        speed: beats.speed,
        auto_stand_21: options.auto_stand_21,
        keep_every_seat: options.keep_every_seat,
        advisor: options.advisor,
        show_count: options.show_count,
        count_system: options.count_system,
        coach: options.coach,
        count_quiz: options.count_quiz,
        kelly_percent: options.kelly_percent,
        luck: options.luck,
        look: *look,
        mix: mix.map_or_else(crate::game::model::settings::Mix::default, |m| *m),
        welcomed: welcomed.is_some_and(|w| w.0),
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
