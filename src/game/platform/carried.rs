//! The game's pictures, sounds and fonts carried inside the executable, so that a `holecard` copied anywhere, or
//! installed with `cargo install`, starts with its table: where no `assets` folder is found (beside the working
//! directory or the executable, or at `BEVY_ASSET_ROOT`), Bevy's default asset source reads these copies instead.
//! The browser build downloads its assets and carries none of them.

use bevy::asset::io::memory::{Dir, MemoryAssetReader};
use bevy::asset::io::{AssetSourceBuilder, AssetSourceId};
use bevy::prelude::*;
use std::path::{Path, PathBuf};

/// Every file under `assets/`, by its path there, with its bytes (a test holds this list to the folder).
pub(crate) const CARRIED: [(&str, &[u8]); 31] = {
    macro_rules! carry {
        ($($path:literal),* $(,)?) => {
            [$(($path, include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/", $path)) as &[u8])),*]
        };
    }
    carry![
        "cards/classic.png",
        "cards/four-colour.png",
        "cards/large-index-four-colour.png",
        "cards/large-index.png",
        "chips.png",
        "fonts/DejaVuSans-Bold.ttf",
        "fonts/DejaVuSans.ttf",
        "fonts/LICENSE-DejaVu.txt",
        "icons/icon-192.png",
        "icons/icon-512.png",
        "sounds/ambience.wav",
        "sounds/blackjack.wav",
        "sounds/button.wav",
        "sounds/card-flip.wav",
        "sounds/card-slide.wav",
        "sounds/chip-stack.wav",
        "sounds/chip.wav",
        "sounds/dealer-bust.wav",
        "sounds/lose.wav",
        "sounds/music.wav",
        "sounds/push.wav",
        "sounds/shuffle.wav",
        "sounds/win.wav",
        "sounds/your-turn.wav",
        "table/banner.png",
        "table/chip-tray.png",
        "table/discard.png",
        "table/felt.png",
        "table/glow.png",
        "table/ring.png",
        "table/shoe.png",
    ]
};

/// Where the assets are read from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum AssetHome {
    /// A folder on disk (absolute, or `assets` where Bevy is to find it by `BEVY_ASSET_ROOT`).
    Folder(String),
    /// The copies the executable carries.
    Carried,
}

/// The `assets` folder the game should read: at `BEVY_ASSET_ROOT` when that is set (Bevy's own rule), else beside the
/// working directory (the source tree, an unpacked release), else beside the executable; none found, the copies
/// carried. A folder counts when it holds the game's fonts, the one thing nothing can be read without.
pub(crate) fn asset_home(working: Option<PathBuf>, executable: Option<PathBuf>) -> AssetHome {
    if std::env::var_os("BEVY_ASSET_ROOT").is_some() {
        return AssetHome::Folder("assets".to_string());
    }
    let beside_executable = executable.and_then(|exe| exe.parent().map(Path::to_path_buf));
    [working, beside_executable]
        .into_iter()
        .flatten()
        .map(|dir| dir.join("assets"))
        .find(|assets| assets.join("fonts").is_dir())
        .and_then(|assets| std::path::absolute(assets).ok())
        .map_or(AssetHome::Carried, |assets| {
            AssetHome::Folder(assets.to_string_lossy().into_owned())
        })
}

/// Makes the carried copies the default asset source of `app` (before Bevy's `AssetPlugin` is added).
pub(crate) fn read_the_carried_copies(app: &mut App) {
    let root = Dir::new(PathBuf::new());
    for (path, bytes) in CARRIED {
        root.insert_asset(Path::new(path), bytes);
    }
    app.register_asset_source(
        AssetSourceId::Default,
        AssetSourceBuilder::new(move || Box::new(MemoryAssetReader { root: root.clone() })),
    )
    // Said once the log is set up (by Bevy's plugins, added after this).
    .add_systems(Startup, || {
        info!("no assets folder here or beside the game: playing with the pictures, sounds and fonts it carries");
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every file of the folder, by its path under it, sorted.
    fn files_under(dir: &Path, base: &Path, into: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).expect("the assets folder") {
            let path = entry.expect("a folder entry").path();
            if path.is_dir() {
                files_under(&path, base, into);
            } else {
                let relative = path.strip_prefix(base).expect("under the folder");
                into.push(relative.to_string_lossy().replace('\\', "/"));
            }
        }
    }

    #[test]
    fn the_executable_carries_every_asset_as_it_is_in_the_folder() {
        let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
        let mut on_disk = Vec::new();
        files_under(&folder, &folder, &mut on_disk);
        on_disk.sort();
        let carried: Vec<String> = CARRIED.iter().map(|(p, _)| p.to_string()).collect();
        assert_eq!(carried, on_disk, "assets/ and the carried list differ");
        for (path, bytes) in CARRIED {
            let file = std::fs::read(folder.join(path)).expect("the file");
            assert!(
                file == bytes,
                "{path}: the carried copy differs from the file"
            );
        }
    }

    #[test]
    fn the_folder_is_found_beside_the_working_directory_or_the_executable_else_the_copies_carried()
    {
        // BEVY_ASSET_ROOT set for this test process would decide alone; cargo does not set it.
        if std::env::var_os("BEVY_ASSET_ROOT").is_some() {
            return;
        }
        let tree = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let nowhere = std::env::temp_dir().join(format!("holecard-nowhere-{}", std::process::id()));
        std::fs::create_dir_all(&nowhere).expect("a folder");
        let folder = AssetHome::Folder(tree.join("assets").to_string_lossy().into_owned());
        assert_eq!(asset_home(Some(tree.clone()), None), folder);
        assert_eq!(
            asset_home(Some(nowhere.clone()), Some(tree.join("holecard"))),
            folder,
            "beside the executable"
        );
        assert_eq!(
            asset_home(Some(nowhere.clone()), Some(nowhere.join("holecard"))),
            AssetHome::Carried
        );
        assert_eq!(asset_home(None, None), AssetHome::Carried);
        let _ = std::fs::remove_dir_all(&nowhere);
    }
}
