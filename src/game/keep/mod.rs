//! What the game keeps, natively in its data folder and in the browser's localStorage, through one [`Store`]: the
//! player's sitting (`sitting`), journaled after every accepted command and saved (`journal`, `slot`, and the systems that keep it, `keeping`), the hand
//! history (`history`), the settings remembered between launches (`preferences`) and the practice record (`practice`). Uses the model and the local
//! table (to capture and restore the sitting); nothing here draws.

#[cfg(target_arch = "wasm32")]
mod browser;
pub mod history;
pub mod journal;
pub mod keeping;
pub mod practice;
pub mod preferences;
pub mod sitting;
pub mod slot;
pub mod store;

pub use store::Store;

use crate::game::model::player::GameOver;
use crate::game::model::screen::MatchDecided;
use bevy::prelude::*;

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
    slot: Option<Res<slot::SaveSlot>>,
    saved: Option<ResMut<keeping::Saved>>,
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
