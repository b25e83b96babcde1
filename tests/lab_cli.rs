//! `holecard-lab simulate` from the outside: JSON fields, determinism, level files and clear errors.

use serde_json::Value;
use std::io::Write;
use std::process::{Command, Output, Stdio};

fn lab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_holecard-lab"))
        .args(args)
        .output()
        .expect("holecard-lab runs")
}

fn json(args: &[&str]) -> Value {
    let output = lab(args);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("one JSON object on stdout")
}

#[test]
fn json_output_has_the_documented_fields() {
    let report = json(&["simulate", "--rounds", "20000", "--threads", "2", "--json"]);
    for field in [
        "rounds",
        "hands",
        "house_edge_pct",
        "std_error_pct",
        "rounds_per_sec",
        "threads",
        "rules",
    ] {
        assert!(!report[field].is_null(), "missing {field}");
    }
    assert_eq!(report["rounds"], 20000);
    assert_eq!(report["threads"], 2);
    assert!(report["hands"].as_u64().expect("hands") >= 20000);
    assert_eq!(report["rules"]["decks"], 6);
}

#[test]
fn the_same_seed_and_threads_give_the_same_result() {
    let args = [
        "simulate",
        "--rounds",
        "50000",
        "--threads",
        "2",
        "--seed",
        "5",
        "--json",
    ];
    let (a, b) = (json(&args), json(&args));
    assert_eq!(a["house_edge_pct"], b["house_edge_pct"]);
    assert_eq!(a["tally"], b["tally"]);
    let other = json(&[
        "simulate",
        "--rounds",
        "50000",
        "--threads",
        "2",
        "--seed",
        "6",
        "--json",
    ]);
    assert_ne!(a["tally"], other["tally"]);
}

#[test]
fn rule_flags_reach_the_engine() {
    let report = json(&[
        "simulate",
        "--rounds",
        "1000",
        "--json",
        "--decks",
        "2",
        "--h17",
        "--no-das",
        "--double",
        "10-11",
        "--split-hands",
        "3",
        "--rsa",
        "--hsa",
        "--surrender",
        "early",
        "--bj",
        "6:5",
        "--penetration",
        "0.6",
        "--enhc",
    ]);
    let rules = &report["rules"];
    assert_eq!(rules["decks"], 2);
    assert_eq!(rules["soft_17"], "Hit");
    assert_eq!(rules["double_after_split"], false);
    assert_eq!(rules["double_on"], "TenToEleven");
    assert_eq!(rules["max_split_hands"], 3);
    assert_eq!(rules["resplit_aces"], true);
    assert_eq!(rules["hit_split_aces"], true);
    assert_eq!(rules["surrender"], "Early");
    assert_eq!(rules["blackjack_pays"], "SixToFive");
    assert_eq!(rules["penetration"], 0.6);
    assert_eq!(
        rules["hole_card"]["NoHoleCard"]["blackjack_takes"],
        "AllBets"
    );
}

#[test]
fn every_shipped_level_simulates() {
    let levels =
        std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/levels")).expect("levels/");
    let mut count = 0;
    for entry in levels {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "ron") {
            let report = json(&[
                "simulate",
                "--rounds",
                "2000",
                "--json",
                "--level",
                path.to_str().expect("utf-8"),
            ]);
            assert_eq!(report["rounds"], 2000, "{}", path.display());
            count += 1;
        }
    }
    assert!(count >= 4, "at least four tables ship");
}

#[test]
fn a_broken_level_file_is_reported_with_file_line_and_column() {
    let dir = std::env::temp_dir().join(format!("holecard-lab-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("broken.ron");
    std::fs::write(
        &path,
        "(\n  name: \"Broken\",\n  rules: Custom((decks: 3, soft_seventeen: Hit)),\n)\n",
    )
    .expect("write");
    let output = lab(&[
        "simulate",
        "--rounds",
        "10",
        "--level",
        path.to_str().expect("utf-8"),
    ]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(&format!("{}:3:", path.display())),
        "{stderr}"
    );
    assert!(stderr.contains("soft_seventeen"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn contradictory_flags_are_refused_with_a_reason() {
    let output = lab(&["simulate", "--rounds", "10", "--split-hands", "2", "--rsa"]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("resplit_aces"), "{stderr}");
    let output = lab(&["simulate", "--rounds", "ten"]);
    assert!(!output.status.success());
}

#[test]
fn the_summary_is_readable() {
    let output = lab(&["simulate", "--rounds", "10000", "--threads", "1"]);
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("house edge"), "{text}");
    assert!(text.contains("6D S17 DAS SP4 3:2 peek"), "{text}");
    assert!(text.contains("10,000"), "{text}");
}

#[test]
fn play_takes_default_answers_and_cashes_out() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_holecard-lab"))
        .args(["play", "--seed", "7"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("holecard-lab runs");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin
        .write_all(format!("{}q\n", "\n".repeat(40)).as_bytes())
        .expect("write");
    drop(stdin);
    let output = child.wait_with_output().expect("finishes");
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("Las Vegas Strip"), "{text}");
    assert!(text.contains("You leave the table with $"), "{text}");
}

#[test]
fn sidebet_prices_a_pay_table_on_a_full_or_depleted_shoe_and_names_bad_input() {
    // The first 21+3, every hand 9 to 1 on six decks: 3.2386% (the Wizard of Odds; tests/side_bets.rs).
    let flat = json(&[
        "sidebet",
        "21+3",
        "--pays",
        "9,9,9,9,9",
        "--decks",
        "6",
        "--json",
    ]);
    let edge = flat["house_edge_pct"].as_f64().expect("an edge");
    assert!((edge - 3.2386).abs() < 5e-4, "{edge}");
    assert_eq!(flat["hands"].as_array().map(Vec::len), Some(5));
    assert_eq!(flat["cards_left"], 312);
    // Both queens of hearts of a two-deck shoe seen: no pair of them is left to deal.
    let ladies = json(&[
        "sidebet",
        "lucky-ladies",
        "--decks",
        "2",
        "--seen",
        "Qh Q♥",
        "--json",
    ]);
    assert_eq!(ladies["cards_left"], 102);
    assert_eq!(ladies["hands"][0]["chance"], 0.0);
    assert_eq!(ladies["hands"][1]["chance"], 0.0);
    // Buster reads the dealer's rule: hitting soft 17 busts more.
    let buster = |rule: &str| {
        json(&["sidebet", "buster", rule, "--json"])["value"]
            .as_f64()
            .expect("a value")
    };
    assert!(buster("--h17") > buster("--s17"));
    for (args, says) in [
        (
            &["sidebet", "21+3", "--seen", "Qh 7"][..],
            "`7` needs its suit",
        ),
        (
            &["sidebet", "perfect-pairs", "--pays", "30,10"],
            "3 numbers",
        ),
        (
            &["sidebet", "perfect-pairs", "--pays", "30,ten,5"],
            "`ten` is not",
        ),
        (
            &["sidebet", "21+3", "--decks", "1", "--seen", "Ah Ah"],
            "holds 1 of the A♥",
        ),
    ] {
        let output = lab(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let error = String::from_utf8_lossy(&output.stderr);
        assert!(error.contains(says), "{args:?}: {error}");
    }
}

/// `edge --pieces` works the round out a piece at a time (the browser's way) and gives the same value as at once,
/// on a depleted shoe: ten up cards' endings listed, the compositions listed, the way to them, the walks laid out,
/// each up card's walk in a piece or more, the assembly, and each deal against each up card (55 each here).
#[test]
fn edge_in_pieces_is_the_edge_at_once() {
    let seen = "A 5 T T 9 2 K 7 7 3";
    let pieces = json(&["edge", "--seen", seen, "--decks", "2", "--pieces", "--json"]);
    let at_once = json(&[
        "edge",
        "--seen",
        seen,
        "--decks",
        "2",
        "--threads",
        "1",
        "--json",
    ]);
    assert_eq!(pieces["value"], at_once["value"]);
    assert_eq!(pieces["by_up"], at_once["by_up"]);
    let count = pieces["pieces"].as_u64().expect("a count");
    assert!((10 + 3 + 10 + 1 + 550..2_000).contains(&count), "{pieces}");
    assert!(
        pieces["longest_piece_seconds"].as_f64() > Some(0.0),
        "{pieces}"
    );
    assert!(at_once["pieces"].is_null(), "{at_once}");
}

/// `edge --cdz-only` (the game's question between rounds) gives `edge`'s CDZ- value to the last digit on a depleted
/// shoe, at once and a piece at a time, and leaves the other post-split strategies out.
#[test]
fn edge_under_cdz_alone_is_the_edges_cdz() {
    let seen = "A 5 T T 9 2 K 7 7 3 8 8 6";
    let base = ["edge", "--seen", seen, "--decks", "2", "--json"];
    let all = json(&base);
    let alone = json(&[&base[..], &["--cdz-only"]].concat());
    let pieces = json(&[&base[..], &["--cdz-only", "--pieces"]].concat());
    for found in [&alone, &pieces] {
        assert_eq!(found["value"], all["value"], "{found}");
        assert_eq!(found["by_up"], all["by_up"], "{found}");
        assert_eq!(
            found["values_by_split"]["CDZ-"],
            all["values_by_split"]["CDZ-"]
        );
        assert!(found["values_by_split"]["CDP"].is_null(), "{found}");
        assert!(found["values_by_split"]["CDP1"].is_null(), "{found}");
    }
    assert!(all["values_by_split"]["CDP"].as_f64().is_some(), "{all}");
    // CDZ- alone is not another strategy: asking for another with it is refused.
    let output = lab(&["edge", "--cdz-only", "--split", "cdp"]);
    assert_eq!(output.status.code(), Some(2));
}
