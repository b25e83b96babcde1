//! Every committed picture and sound is exactly what `holecard-assets` makes from its sources, and the check notices
//! a file that is not. Built with the asset tool (`--features assets-tool`, as `scripts/test` runs it): as a test
//! it runs the binary the test build already made, where `cargo run --bin holecard-assets` would build the tool's
//! dependencies a second time with the features the tests do not unify.
#![cfg(feature = "assets-tool")]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn check(assets: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_holecard-assets"))
        .arg("--check")
        .arg("--out")
        .arg(assets)
        .output()
        .expect("holecard-assets runs")
}

fn committed() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets")
}

fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("make the copy's folder");
    for entry in std::fs::read_dir(from).expect("list the assets") {
        let entry = entry.expect("an assets entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("its type").is_dir() {
            copy_folder(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy an asset");
        }
    }
}

#[test]
fn every_committed_asset_is_what_its_sources_make() {
    let output = check(&committed());
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "holecard-assets --check: {}\n{stdout}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("files match their sources"), "{stdout}");
}

#[test]
fn a_changed_or_missing_file_fails_the_check_by_name() {
    let copy = std::env::temp_dir().join(format!("holecard-assets-check-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&copy);
    copy_folder(&committed(), &copy);
    let chips = copy.join("chips.png");
    let mut bytes = std::fs::read(&chips).expect("read chips.png");
    let last = bytes.len() - 1;
    bytes[last] ^= 0xff;
    std::fs::write(&chips, bytes).expect("change chips.png");
    std::fs::remove_file(copy.join("sounds/shuffle.wav")).expect("remove shuffle.wav");

    let output = check(&copy);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    std::fs::remove_dir_all(&copy).expect("remove the copy");
    assert!(
        !output.status.success(),
        "the check passed a changed folder"
    );
    assert!(stderr.contains("chips.png differs"), "{stderr}");
    assert!(stderr.contains("shuffle.wav"), "{stderr}");
}
