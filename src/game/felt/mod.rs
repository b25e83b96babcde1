//! The felt as a player sees and hears it: where everything sits (`layout`), the art `holecard-assets` drew (`art`)
//! and the assets waited for behind the Loading screen (`asset_tracking`), the fonts, the words printed on the table
//! (`lettering`), eased motion (`motion`), the table drawn from the model's entities (`view`) and the sound (`audio`).
//! It reads the model and decides nothing; it never names the game's own host, the network or the disk.

pub mod art;
pub mod asset_tracking;
pub mod audio;
pub mod fonts;
pub mod layout;
pub mod lettering;
pub mod motion;
pub mod view;

use bevy::prelude::*;

/// The table's look and sound in a window: art, sound, fonts, lettering, motion and the view.
pub fn plugin(app: &mut App) {
    app.add_plugins((
        art::plugin,
        audio::plugin,
        fonts::fonts_plugin,
        lettering::plugin,
        motion::plugin,
        view::plugin,
    ));
}
