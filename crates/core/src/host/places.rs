//! Where Holecard keeps its data on this machine: the game's saves and settings, the server's database.

use std::path::PathBuf;

/// The platform's place for Holecard's data: `$HOLECARD_DATA_DIR`, else the XDG data directory on Linux,
/// Application Support on macOS, `%APPDATA%` on Windows. None when the environment names no home at all.
pub fn data_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("HOLECARD_DATA_DIR") {
        Some(PathBuf::from(dir))
    } else if cfg!(windows) {
        Some(PathBuf::from(std::env::var_os("APPDATA")?).join("Holecard"))
    } else if cfg!(target_os = "macos") {
        Some(PathBuf::from(std::env::var_os("HOME")?).join("Library/Application Support/Holecard"))
    } else if let Some(xdg) = std::env::var_os("XDG_DATA_HOME") {
        Some(PathBuf::from(xdg).join("holecard"))
    } else {
        Some(PathBuf::from(std::env::var_os("HOME")?).join(".local/share/holecard"))
    }
}
