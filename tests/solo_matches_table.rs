//! The simulator's single-seat fast path deals the same cards and reaches the same results as the table's state
//! machine driven by the same basic strategy, round by round, under any rules.

mod common;

use common::any_rules;
use holecard::engine::solo::Solo;
use holecard::engine::{
    BasicStrategy, Cents, Command, Phase, Rules, Table, TableState, seed_from_number,
};
use proptest::prelude::*;

fn compare(rules: &Rules, seed: u64, rounds: usize) -> Result<(), TestCaseError> {
    let bank = Cents::MAX_CHIPS;
    let bet = rules.min_bet;
    let mut table = Table::new(rules.clone(), seed_from_number(seed), bank).expect("valid rules");
    table
        .apply(Command::Join {
            seat: 0,
            buy_in: bank,
        })
        .expect("join");
    let strategy = BasicStrategy::for_rules(rules);
    let mut solo = Solo::new(rules.clone(), seed_from_number(seed)).expect("valid rules");
    for round in 0..rounds {
        let before = table.seats()[0].bankroll;
        table
            .apply(Command::Bet {
                seat: 0,
                amount: bet,
            })
            .expect("bet");
        table.apply(Command::Deal).expect("deal");
        while table.phase() != Phase::Betting {
            let command = strategy
                .decide(&table, 0)
                .expect("basic strategy always has a move");
            table
                .apply(command)
                .expect("basic strategy only makes legal moves");
        }
        let table_net = table.seats()[0].bankroll - before;
        let solo_net = solo.play_round();
        prop_assert_eq!(table_net, solo_net, "round {}: net", round);
        prop_assert_eq!(table.hands(), solo.hands(), "round {}: hands", round);
        prop_assert_eq!(table.dealer(), solo.dealer(), "round {}: dealer", round);
        prop_assert_eq!(table.shoe(), solo.shoe(), "round {}: shoe", round);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn the_fast_path_plays_exactly_like_the_table(rules in any_rules(), seed in any::<u64>()) {
        compare(&rules, seed, 400)?;
    }
}

#[test]
fn every_preset_agrees_over_many_shoes() {
    for preset in holecard::engine::Preset::ALL {
        compare(&preset.rules(), 7, 20_000).expect("agreement");
    }
}
