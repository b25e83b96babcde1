//! The practice record (`practice.ron` beside the save): every flash card answered, by chart cell, and each drill's
//! scores over time. Read at start, written whenever an answer changes it. A record that cannot be read is set
//! aside under another name, said in the log, and a new one started: nothing the player had is written over.

use super::sitting::read_ron;
use crate::engine::drill::Record;
use crate::game::model::practice::Practice;
use crate::game::store::Store;
use bevy::prelude::*;

/// The record's file name.
const NAME: &str = "practice.ron";

/// The kept record, or a new one; and whether it may be written (not where an unreadable one could not be moved
/// aside).
pub fn load() -> (Record, bool) {
    let Some(store) = Store::platform() else {
        return (Record::default(), true);
    };
    match store.read(NAME) {
        Ok(Some(text)) => match parse(&store.place(NAME), &text) {
            Ok(record) => (record, true),
            Err(message) => match store.set_aside(NAME, &message) {
                Ok(said) => {
                    error!("{said}; a new practice record is started");
                    (Record::default(), true)
                }
                Err(said) => {
                    error!("{said}; this session's practice will not be kept");
                    (Record::default(), false)
                }
            },
        },
        Ok(None) => (Record::default(), true),
        Err(message) => {
            error!("{message}; this session's practice will not be kept");
            (Record::default(), false)
        }
    }
}

/// Reads a record's text, naming the file, line and column of a mistake.
pub fn parse(path: &std::path::Path, text: &str) -> Result<Record, String> {
    read_ron(path, text)
}

/// Writes the record whenever an answer changed it.
pub(crate) fn remember_practice(
    mut practice: ResMut<Practice>,
    mut store: Local<Option<Option<Store>>>,
) {
    if !practice.unsaved || !practice.keep {
        return;
    }
    practice.unsaved = false;
    let Some(store) = store.get_or_insert_with(Store::platform) else {
        return;
    };
    let written = ron::ser::to_string_pretty(&practice.record, ron::ser::PrettyConfig::default())
        .map_err(|e| format!("cannot write the practice record: {e}"))
        .and_then(|text| store.write(NAME, &text));
    if let Err(message) = written {
        error!("{message}");
    }
}
