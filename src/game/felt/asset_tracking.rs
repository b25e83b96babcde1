//! Assets the game waits for behind the Loading screen, and a count of where a set of assets' loading stands (for
//! the loading bar, the late sounds' failure report and the asset test).

use bevy::prelude::*;

/// Assets the game needs before the title: loaded on the Loading screen. Each module that loads assets lists them
/// here at startup.
#[derive(Resource, Default)]
pub struct Preload {
    handles: Vec<(String, UntypedHandle)>,
}

impl Preload {
    /// Waits for `handle` (loaded from `path`) before leaving the Loading screen.
    pub fn add(&mut self, path: &str, handle: UntypedHandle) {
        self.handles.push((path.to_string(), handle));
    }

    /// Every asset listed, with where it comes from.
    pub fn handles(&self) -> impl Iterator<Item = (&str, &UntypedHandle)> {
        self.handles
            .iter()
            .map(|(path, handle)| (path.as_str(), handle))
    }
}

/// Where the loading of some assets stands.
#[derive(Debug, Default)]
pub struct Tally {
    /// Loaded or failed.
    pub done: usize,
    /// Still on their way.
    pub pending: usize,
    /// Each failed asset's path and why it failed.
    pub failures: Vec<String>,
}

impl Tally {
    /// Counts `assets`, each with the path it is loaded from, by where its loading stands.
    pub fn of<P: std::fmt::Display>(
        server: &AssetServer,
        assets: impl IntoIterator<Item = (P, bevy::asset::UntypedAssetId)>,
    ) -> Tally {
        let mut tally = Tally::default();
        for (path, id) in assets {
            let state = server.load_state(id);
            if let bevy::asset::LoadState::Failed(error) = &state {
                tally.failures.push(format!("{path}: {error}"));
            }
            if over(&state) {
                tally.done += 1;
            } else {
                tally.pending += 1;
            }
        }
        tally
    }
}

/// The asset `id` is not loaded yet and has not failed: asked for, or not even that.
pub fn on_its_way(server: &AssetServer, id: impl Into<bevy::asset::UntypedAssetId>) -> bool {
    !over(&server.load_state(id.into()))
}

/// Loading is over: loaded, or failed.
fn over(state: &bevy::asset::LoadState) -> bool {
    matches!(
        state,
        bevy::asset::LoadState::Loaded | bevy::asset::LoadState::Failed(_)
    )
}
