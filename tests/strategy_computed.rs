//! The trainer's numbers, computed by Holecard's own engine, against the published ones: basic-strategy charts
//! worked out for a rule set equal the printed charts for it (crates/core/src/engine/strategy.rs holds them, with their
//! sources), and the Hi-Lo indices of the Illustrious 18 and the Fab 4 for six decks, S17, DAS come within one true
//! count of Schlesinger's.

use holecard::engine::count::hi_lo;
use holecard::engine::exact::chart::chart_on;
use holecard::engine::exact::indices::{IndexHand, PLAYS, PUBLISHED_6D_S17_DAS, indices_on};
use holecard::engine::exact::{PostSplit, threads};
use holecard::engine::rules::{Rules, Soft17, Surrender};
use holecard::engine::strategy::{BasicStrategy, Grid, Play, UP_CARDS, column_of_points};

fn rules(decks: u8, h17: bool, das: bool, surrender: Surrender) -> Rules {
    Rules {
        decks,
        soft_17: if h17 { Soft17::Hit } else { Soft17::Stand },
        double_after_split: das,
        surrender,
        ..Rules::default()
    }
}

/// Every cell where the worked-out chart and the printed one disagree, as `row v up: computed / printed`.
fn differences(computed: &Grid, printed: &Grid, surrender: bool) -> Vec<String> {
    let shown = |play: Play| {
        if surrender {
            play
        } else {
            play.without_surrender()
        }
    };
    let mut out = Vec::new();
    for up in UP_CARDS {
        let col = column_of_points(up);
        let name = holecard::engine::exact::name_of(up);
        let totals = [
            ("hard", &computed.hard, &printed.hard, 5..=17),
            ("soft", &computed.soft, &printed.soft, 13..=20),
        ];
        for (kind, computed, printed, rows) in totals {
            for total in rows {
                let (c, p) = (shown(computed[total][col]), shown(printed[total][col]));
                if c != p {
                    out.push(format!(
                        "{kind} {total} v {name}: {} / {}",
                        c.code(),
                        p.code()
                    ));
                }
            }
        }
        for points in 1..=10 {
            let (c, p) = (computed.pair[points][col], printed.pair[points][col]);
            if c.splits() != p.splits()
                || (surrender && (c == Play::SurrenderOrSplit) != (p == Play::SurrenderOrSplit))
            {
                out.push(format!(
                    "pair {points} v {name}: {} / {}",
                    c.code(),
                    p.code()
                ));
            }
        }
    }
    out
}

#[test]
fn computed_charts_equal_the_published_charts_for_their_rules() {
    let sets = [
        (
            "6 decks, H17, DAS, late surrender",
            rules(6, true, true, Surrender::Late),
        ),
        (
            "6 decks, S17, DAS, late surrender",
            rules(6, false, true, Surrender::Late),
        ),
        (
            "6 decks, S17, no DAS",
            rules(6, false, false, Surrender::None),
        ),
        (
            "8 decks, S17, DAS, late surrender",
            rules(8, false, true, Surrender::Late),
        ),
        (
            "2 decks, H17, DAS, late surrender",
            rules(2, true, true, Surrender::Late),
        ),
        ("2 decks, S17, DAS", rules(2, false, true, Surrender::None)),
        (
            "1 deck, H17, DAS, late surrender",
            rules(1, true, true, Surrender::Late),
        ),
        (
            "1 deck, H17, no DAS",
            rules(1, true, false, Surrender::None),
        ),
        ("1 deck, S17, DAS", rules(1, false, true, Surrender::None)),
    ];
    let mut failures = Vec::new();
    for (name, rules) in &sets {
        let computed = chart_on(rules, PostSplit::Cdz, threads());
        let printed = BasicStrategy::for_rules(rules).grid();
        let differ = differences(&computed, &printed, rules.surrender != Surrender::None);
        if !differ.is_empty() {
            failures.push(format!(
                "{name} (computed / printed):\n  {}",
                differ.join("\n  ")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn computed_hi_lo_indices_for_six_decks_s17_das_are_within_one_of_the_published() {
    let rules = rules(6, false, true, Surrender::Late);
    let computed = indices_on(&rules, hi_lo(), &PLAYS, threads()).expect("Hi-Lo is balanced");
    assert_eq!(computed.len(), PLAYS.len(), "every play is offered");
    let mut report = Vec::new();
    let mut far = 0;
    for (index, published) in computed.iter().zip(PUBLISHED_6D_S17_DAS) {
        let line = format!(
            "{:<10} computed {:>5} ({:?}), published {published:+}",
            index.play.name(),
            index.index.map_or("none".to_string(), |i| format!("{i:+}")),
            index.crossing,
        );
        if index.index.is_none_or(|i| (i - published).abs() > 1) {
            far += 1;
            report.push(format!("{line}  <- more than one away"));
        } else {
            report.push(line);
        }
    }
    println!("{}", report.join("\n"));
    assert_eq!(far, 0, "\n{}", report.join("\n"));
}

#[test]
fn other_rules_move_the_indices_where_they_should() {
    let s17 = indices_on(
        &rules(6, false, true, Surrender::Late),
        hi_lo(),
        &PLAYS,
        threads(),
    )
    .expect("Hi-Lo is balanced");
    let h17 = indices_on(
        &rules(6, true, true, Surrender::Late),
        hi_lo(),
        &PLAYS,
        threads(),
    )
    .expect("Hi-Lo is balanced");
    let of = |list: &[holecard::engine::exact::indices::Index], hand: IndexHand, up: u8| {
        list.iter()
            .find(|i| i.play.hand == hand && i.play.up == up)
            .and_then(|i| i.crossing)
            .expect("the play has an index")
    };
    // A dealer hitting soft 17 busts more against an ace and makes more of its 17s into better hands: doubling 11
    // and surrendering 15 against an ace pay at lower counts (Schlesinger's H17 indices are lower for both).
    assert!(of(&h17, IndexHand::Hard(11), 1) < of(&s17, IndexHand::Hard(11), 1));
    assert!(of(&h17, IndexHand::Hard(15), 1) < of(&s17, IndexHand::Hard(15), 1));
    // Insurance does not depend on what the dealer does after.
    assert!((of(&h17, IndexHand::Insurance, 1) - of(&s17, IndexHand::Insurance, 1)).abs() < 1e-9);
    // Without surrender the Fab 4 are not offered.
    let none = indices_on(
        &rules(6, false, true, Surrender::None),
        hi_lo(),
        &PLAYS,
        threads(),
    )
    .expect("Hi-Lo is balanced");
    assert_eq!(none.len(), 18);
}
