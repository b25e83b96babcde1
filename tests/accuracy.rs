//! At 10⁸ rounds, `holecard-lab simulate` lands within 0.05 percentage points of published house edges.
//!
//! Published values are basic-strategy simulations with a cut card, one player, from Hugues Hoppe's blackjack
//! analysis (github.com/hhoppe/blackjack), which agree with the Wizard of Odds calculator's cut-card column to
//! within 0.002–0.011 points. Penetrations match theirs: 75% of six decks, 338 of 416 cards of eight decks, and the
//! cut at card 26 of a single deck. Slow (600 million rounds): run with `--include-ignored`, as `scripts/test` does.

use serde_json::Value;
use std::process::Command;

const ROUNDS: &str = "1e8";
const TOLERANCE_PCT: f64 = 0.05;

fn house_edge(flags: &[&str]) -> (f64, f64) {
    let output = Command::new(env!("CARGO_BIN_EXE_holecard-lab"))
        .args([
            "simulate",
            "--json",
            "--seed",
            "20261121",
            "--threads",
            "2",
            "--rounds",
            ROUNDS,
        ])
        .args(flags)
        .output()
        .expect("holecard-lab runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: Value = serde_json::from_slice(&output.stdout).expect("one JSON object");
    (
        report["house_edge_pct"].as_f64().expect("edge"),
        report["std_error_pct"].as_f64().expect("s.e."),
    )
}

fn check(name: &str, flags: &[&str], published: f64) {
    let (edge, std_error) = house_edge(flags);
    println!("{name}: {edge:.4}% ± {std_error:.4} (published {published:.3}%)");
    assert!(
        std_error < 0.015,
        "{name}: standard error {std_error} too wide for the check"
    );
    assert!(
        (edge - published).abs() < TOLERANCE_PCT,
        "{name}: simulated {edge:.4}% is more than {TOLERANCE_PCT} points from the published {published}%"
    );
}

#[test]
#[ignore = "plays 10^8 rounds; run with --include-ignored (scripts/test does)"]
fn six_decks_s17_das() {
    check(
        "6D S17 DAS",
        &["--decks", "6", "--s17", "--das", "--penetration", "0.75"],
        0.427,
    );
}

#[test]
#[ignore = "plays 10^8 rounds; run with --include-ignored (scripts/test does)"]
fn six_decks_h17_das() {
    check(
        "6D H17 DAS",
        &["--decks", "6", "--h17", "--das", "--penetration", "0.75"],
        0.641,
    );
}

#[test]
#[ignore = "plays 10^8 rounds; run with --include-ignored (scripts/test does)"]
fn eight_decks_s17_das() {
    check(
        "8D S17 DAS",
        &["--decks", "8", "--s17", "--das", "--penetration", "0.8125"],
        0.448,
    );
}

#[test]
#[ignore = "plays 10^8 rounds; run with --include-ignored (scripts/test does)"]
fn eight_decks_h17_das() {
    check(
        "8D H17 DAS",
        &["--decks", "8", "--h17", "--das", "--penetration", "0.8125"],
        0.663,
    );
}

#[test]
#[ignore = "plays 10^8 rounds; run with --include-ignored (scripts/test does)"]
fn single_deck_h17_das() {
    check(
        "1D H17 DAS",
        &["--decks", "1", "--h17", "--das", "--penetration", "0.5"],
        0.170,
    );
}

#[test]
#[ignore = "plays 10^8 rounds; run with --include-ignored (scripts/test does)"]
fn six_to_five_six_decks_h17_das_late_surrender() {
    check(
        "6D H17 DAS LS 6:5",
        &[
            "--decks",
            "6",
            "--h17",
            "--das",
            "--surrender",
            "late",
            "--bj",
            "6:5",
            "--penetration",
            "0.75",
        ],
        1.914,
    );
}

/// Every casino table's exact house edge for a basic-strategy player (`holecard-lab edge --chart`: the full shoe,
/// every hand played by the chart) against the simulator dealing every round from a fresh shoe (`--fresh-shoe`, no cut
/// card) with the same chart, 10⁸ rounds: within three standard errors. Playing best for the cards (`edge` without
/// `--chart`) is worth a little more, never less.
#[test]
#[ignore = "plays 10^8 rounds at each table; run with --include-ignored (scripts/test does)"]
fn every_tables_exact_house_edge_is_what_the_simulator_finds() {
    let mut levels: Vec<_> = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/levels"))
        .expect("the levels folder")
        .map(|entry| entry.expect("a level").path())
        .filter(|path| path.extension().is_some_and(|e| e == "ron"))
        .collect();
    levels.sort();
    assert!(levels.len() >= 5, "{levels:?}");
    for level in levels {
        let path = level.to_str().expect("a path");
        let edge = |chart: &[&str]| {
            let exact = Command::new(env!("CARGO_BIN_EXE_holecard-lab"))
                .args(["edge", "--json", "--level", path])
                .args(chart)
                .output()
                .expect("holecard-lab runs");
            assert!(
                exact.status.success(),
                "{}",
                String::from_utf8_lossy(&exact.stderr)
            );
            let exact: Value = serde_json::from_slice(&exact.stdout).expect("one JSON object");
            exact["house_edge_pct"].as_f64().expect("edge")
        };
        let (exact, best) = (edge(&["--chart"]), edge(&[]));
        let (simulated, std_error) = house_edge(&["--fresh-shoe", "--level", path]);
        println!(
            "{path}: exact {exact:.4}% by the chart ({best:.4}% playing best), simulated {simulated:.4}% ± {std_error:.4}"
        );
        assert!(
            best <= exact + 1e-9,
            "{path}: playing best {best}% is worse than the chart's {exact}%"
        );
        assert!(
            (simulated - exact).abs() < 3.0 * std_error,
            "{path}: exact {exact:.4}% and simulated {simulated:.4}% ± {std_error:.4} differ by over three errors"
        );
    }
}
