//! Property tests over random command sequences: many seats, many rounds, legal and illegal commands.

mod common;

use common::{Step, any_rules, assert_cards_accounted, command_for, step};
use holecard::engine::{Cents, Event, Rules, Table, TableState, Viewer, seed_from_number};
use proptest::prelude::*;

/// Chips brought to (+) or taken from (−) the table by these events.
fn chips_in_and_out(events: &[Event]) -> Cents {
    events
        .iter()
        .map(|e| match *e {
            Event::Joined { buy_in, .. } => buy_in,
            Event::Rebought { amount, .. } => amount,
            Event::Left { cash_out, .. } => -cash_out,
            _ => Cents::ZERO,
        })
        .sum()
}

/// Runs a session, checking every invariant after every command; returns every command's result.
fn run(
    rules: &Rules,
    seed: u64,
    steps: &[Step],
) -> (
    Table,
    Vec<Result<Vec<Event>, holecard::engine::CommandError>>,
) {
    let mut table = Table::new(
        rules.clone(),
        seed_from_number(seed),
        Cents::units(10_000_000),
    )
    .expect("valid");
    let mut expected_chips = table.chips_total();
    let mut results = Vec::with_capacity(steps.len());
    // Views kept from events alone: a seat's and a spectator's from the start, and one taken up half-way (a player
    // who sits down, or a client that reconnects, mid-session).
    let mut views = vec![table.view(Viewer::Seat(3)), table.view(Viewer::Spectator)];
    for (at, step) in steps.iter().enumerate() {
        if at == steps.len() / 2 {
            views.push(table.view(Viewer::Seat(at as u8 % 7)));
        }
        let command = command_for(&table, step);
        let before = table.clone();
        let result = table.apply(command);
        for view in &mut views {
            for event in result.as_deref().unwrap_or_default() {
                if let Err(e) = view.apply(event) {
                    panic!("{event:?} after {command:?} did not fit the view: {e}");
                }
            }
            assert_eq!(
                *view,
                table.view(view.viewer()),
                "the view kept from events differs from the table's after {command:?}"
            );
            for seat in 0..8 {
                assert_eq!(view.legal_actions(seat), table.legal_actions(seat));
            }
        }
        match &result {
            Err(_) => assert_eq!(table, before, "refused {command:?} changed the table"),
            Ok(events) => {
                expected_chips += chips_in_and_out(events);
                assert_eq!(
                    table.legal_actions(7),
                    Default::default(),
                    "seat 7 does not exist"
                );
            }
        }
        assert_eq!(
            table.chips_total(),
            expected_chips,
            "chips not conserved after {command:?}"
        );
        assert!(
            table.seats().iter().all(|s| s.bankroll >= Cents::ZERO),
            "negative bankroll after {command:?}"
        );
        assert_cards_accounted(&table);
        results.push(result);
    }
    (table, results)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn invariants_hold_and_replays_are_identical(
        rules in any_rules(),
        seed in any::<u64>(),
        steps in prop::collection::vec(step(), 1..400),
    ) {
        let (table, results) = run(&rules, seed, &steps);
        let (replayed, replayed_results) = run(&rules, seed, &steps);
        prop_assert_eq!(&results, &replayed_results);
        prop_assert_eq!(&table, &replayed);
        // A saved table resumes exactly where it was.
        let saved = ron::to_string(&table).expect("serialize");
        let restored: Table = ron::from_str(&saved).expect("deserialize");
        prop_assert_eq!(&restored, &table);
    }

    #[test]
    fn a_resumed_table_continues_exactly_like_the_original(
        rules in any_rules(),
        seed in any::<u64>(),
        steps in prop::collection::vec(step(), 2..200),
        cut in any::<prop::sample::Index>(),
    ) {
        let at = cut.index(steps.len());
        let (mut original, _) = run(&rules, seed, &steps[..at]);
        let json = serde_json::to_string(&original).expect("serialize");
        let mut resumed: Table = serde_json::from_str(&json).expect("deserialize");
        for step in &steps[at..] {
            let command = command_for(&original, step);
            prop_assert_eq!(original.apply(command), resumed.apply(command));
        }
        prop_assert_eq!(&original, &resumed);
    }
}

#[test]
fn long_sessions_at_full_tables_play_many_rounds() {
    // A deterministic long run: seven seats, one deck, thousands of commands, mostly legal play.
    let rules = Rules {
        decks: 1,
        max_split_hands: 4,
        resplit_aces: true,
        min_bet: Cents::units(5),
        ..Rules::default()
    };
    let steps: Vec<Step> = (0..20_000u32)
        .map(|i| Step::Play {
            pick: (i.wrapping_mul(2_654_435_761) >> 24) as u8,
        })
        .collect();
    let (table, _) = run(&rules, 99, &steps);
    assert!(table.round() > 300, "only {} rounds", table.round());
}
