//! What the game keeps of the player's, natively in its data folder and in the browser's localStorage, through the
//! one [`Store`]: the player's sitting as a save holds it (`sitting`), the journal of it (`journal`) and where both
//! are kept (`slot`), the hand history recorded from the table as shown (`history`), the settings remembered between
//! launches (`preferences`) and the practice record (`practice`). Uses the model, the store and the host; it names
//! neither table's driver (the game's own table keeps its sitting through these: `local::keeping`), and nothing here
//! draws.

pub mod history;
pub mod journal;
pub mod practice;
pub mod preferences;
pub mod sitting;
pub mod slot;

use crate::game::model::player::GameOver;
use crate::game::model::screen::MatchDecided;
use crate::game::store::{NOWHERE, Store};
use bevy::prelude::*;
use preferences::remember_preferences;
use slot::{SaveSlot, Saved};

/// What is kept in every run of the game, windowed or headless: the hand history, and a decided match forgotten.
pub fn plugin(app: &mut App) {
    app.add_plugins(history::plugin).add_systems(
        Update,
        forget_a_decided_match
            .after(MatchDecided)
            .run_if(resource_added::<GameOver>),
    );
}

/// A match played until someone is broke, once decided, has nothing to resume: the history is written first (the
/// journal about to go held its newest hands), then the save and the journal are cleared.
fn forget_a_decided_match(
    slot: Option<Res<SaveSlot>>,
    saved: Option<ResMut<Saved>>,
    kept: Option<ResMut<history::Kept>>,
) {
    if let Some(mut kept) = kept {
        kept.write();
    }
    if let Some(slot) = slot {
        slot.clear();
    }
    if let Some(mut saved) = saved {
        saved.sitting = None;
    }
}

/// What the windowed game keeps on disk (or in localStorage): the save read at start (the game's own table keeps it
/// from then on: `local::keeping`), the settings remembered and the practice record.
pub fn on_disk(app: &mut App) {
    let store = Store::platform_or_why();
    let mut slot = store
        .as_ref()
        .ok()
        .map(|store| SaveSlot::new(store.clone()));
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
            let problem = store.err().unwrap_or_else(|| NOWHERE.to_string());
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
    let (record, keep) = practice::load();
    app.insert_resource(crate::game::model::practice::Practice::with_record(
        record, keep,
    ))
    .add_systems(Update, practice::remember_practice);
}
