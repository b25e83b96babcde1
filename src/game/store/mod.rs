//! Where the game keeps things: files in the platform's data folder (written whole through a temporary file and
//! synced, the folder too), or the browser's localStorage (`browser`). A file that cannot be read is set aside, never
//! written over. One copy of the game at a time keeps its things in a data folder (the lock on `holecard.lock`).
//!
//! The room under everything the game keeps: the player's things (`keep`) and both tables' drivers (`local`'s
//! sitting, `online`'s kept login) write through one [`Store`]. It uses nothing of the game above it.

#[cfg(target_arch = "wasm32")]
mod browser;

use bevy::log::error;
use std::path::{Path, PathBuf};

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
    /// The platform's place for a game's data (`crate::host::places::data_dir`); in the browser, localStorage when the
    /// page may use it.
    /// None when there is nowhere to keep anything, or another copy of the game keeps its things there: the game
    /// plays on and says progress won't be kept ([`Store::platform_or_why`] says which).
    pub fn platform() -> Option<Store> {
        Store::platform_or_why().ok()
    }

    /// The platform's store, or why this copy of the game has none. One copy of the game at a time keeps its things in
    /// a data folder (two writing one journal and history would keep rounds twice, with different cards): natively
    /// the copy that holds the lock on `holecard.lock` there (the operating system lets it go when the copy ends,
    /// however it ends); in the browser, the tab that holds the page's Web Lock (`web/loader.js`). Another copy plays
    /// without the folder — it neither reads nor writes it, so nothing it shows is someone else's and nothing it
    /// does is kept — and says so.
    pub fn platform_or_why() -> Result<Store, String> {
        #[cfg(target_arch = "wasm32")]
        {
            if !browser::storage_usable() {
                return Err(NOWHERE.to_string());
            }
            if !browser::this_tab_keeps() {
                return Err("Holecard is open in another tab or window of this browser, which keeps the \
                            progress: this one plays but keeps nothing (no save, history, settings or practice). \
                            Close the other and reload this one to keep your progress here."
                    .to_string());
            }
            Ok(Store::Browser)
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            let dir = crate::host::places::data_dir().ok_or(NOWHERE)?;
            claim(&dir)?;
            Ok(Store::Folder(dir))
        }
    }

    /// Where `name` lives, for messages: a file's path, or `localStorage:holecard/NAME`.
    pub fn place(&self, name: &str) -> PathBuf {
        match self {
            Store::Folder(dir) => dir.join(name),
            #[cfg(target_arch = "wasm32")]
            Store::Browser => PathBuf::from(format!("localStorage:{}", browser::storage_key(name))),
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
            Store::Browser => browser::storage_get(name),
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
            Store::Browser => browser::storage_set(name, text),
        }
    }

    /// Adds `text` at the end of what is under `name`. On disk the file is opened for appending, written and synced
    /// (and its folder synced when the file is new), so once this returns the text outlasts a crash; a crash during
    /// the write can leave only a cut-off end, which the journal's reader (`keep::journal`) knows.
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
                let mut all = browser::storage_get(name)?.unwrap_or_default();
                all.push_str(text);
                browser::storage_set(name, &all)
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
                let text = browser::storage_get(name)?.unwrap_or_default();
                browser::storage_set(to, &text)?;
                browser::storage_remove(name);
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
            Store::Browser => browser::storage_remove(name),
        }
    }
}

/// Why there is no store: nowhere to keep anything.
pub const NOWHERE: &str = "Nowhere to keep a save here (no data folder, or the browser's storage is off): \
                           progress and settings won't be kept.";

/// The data folders this copy of the game keeps its things in, each with its lock file held open (and locked) for
/// as long as the copy runs; or why it may not.
#[cfg(not(target_arch = "wasm32"))]
static CLAIMS: std::sync::Mutex<Vec<(PathBuf, Result<std::fs::File, String>)>> =
    std::sync::Mutex::new(Vec::new());

/// The lock file in a data folder: whoever holds its lock keeps things in the folder.
#[cfg(not(target_arch = "wasm32"))]
pub const LOCK_FILE: &str = "holecard.lock";

/// Takes the data folder `dir` for this copy of the game, once (asking again gives the same answer), or says why not:
/// another copy holds it, or the folder cannot be made or locked.
#[cfg(not(target_arch = "wasm32"))]
pub fn claim(dir: &Path) -> Result<(), String> {
    let mut claims = CLAIMS
        .lock()
        .map_err(|_| "the data folder's claim was poisoned".to_string())?;
    if let Some((_, claim)) = claims.iter().find(|(d, _)| d == dir) {
        return claim.as_ref().map(|_| ()).map_err(Clone::clone);
    }
    let claim = lock(dir);
    let answer = claim.as_ref().map(|_| ()).map_err(Clone::clone);
    claims.push((dir.to_path_buf(), claim));
    answer
}

#[cfg(not(target_arch = "wasm32"))]
fn lock(dir: &Path) -> Result<std::fs::File, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join(LOCK_FILE);
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(format!(
            "Another copy of Holecard is open and keeps its progress in {}: this one plays but keeps nothing (no \
             save, history, settings or practice). Close the other and start this one again to keep your progress.",
            dir.display()
        )),
        Err(std::fs::TryLockError::Error(e)) => {
            Err(format!("{}: cannot lock it: {e}", path.display()))
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

#[cfg(test)]
pub(crate) fn scratch(name: &str) -> Store {
    let dir = std::env::temp_dir().join(format!("holecard-store-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    Store::Folder(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A data folder another copy of the game holds is not this copy's: it is told why, every time it asks, and
    /// takes it once the other copy lets go.
    #[test]
    fn one_copy_of_the_game_keeps_its_things_in_a_data_folder() {
        let Store::Folder(dir) = scratch("claim");
        std::fs::create_dir_all(&dir).expect("a folder");
        // Another copy: the lock file opened and locked on its own (the lock is the open file's, not the process's).
        let other = std::fs::File::create(dir.join(LOCK_FILE)).expect("the lock file");
        other.try_lock().expect("the other copy locks it");
        for _ in 0..2 {
            let why = claim(&dir).expect_err("another copy holds the folder");
            assert!(why.contains("Another copy of Holecard"), "{why}");
            assert!(why.contains(&dir.display().to_string()), "{why}");
        }
        drop(other);
        let Store::Folder(next) = scratch("claim-next");
        claim(&next).expect("a folder nobody holds");
        claim(&next).expect("asked again");
        // This copy's lock is a real one: another opening of the file cannot take it.
        let probe = std::fs::File::open(next.join(LOCK_FILE)).expect("the lock file");
        assert!(matches!(
            probe.try_lock(),
            Err(std::fs::TryLockError::WouldBlock)
        ));
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
}
