//! Property tests over random command sequences: many seats, many rounds, legal and illegal commands.

mod common;

use common::{any_rules, assert_cards_accounted};
use holecard::engine::{Action, Cents, Command, Event, Rules, Table, seed_from_number};
use proptest::prelude::*;

/// One step of a random session: a mostly-sensible move, or an arbitrary (often illegal) command.
#[derive(Clone, Debug)]
enum Step {
    /// A legal action for whoever must act, or bets and a deal between rounds; `pick` chooses among options.
    Play { pick: u8 },
    /// Any command at all, legal or not.
    Wild { kind: u8, seat: u8, units: i64 },
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        4 => any::<u8>().prop_map(|pick| Step::Play { pick }),
        1 => (0u8..15, 0u8..9, -5i64..80).prop_map(|(kind, seat, units)| Step::Wild { kind, seat, units }),
    ]
}

/// Turns a step into a command for the table as it stands.
fn command_for(table: &Table, step: &Step) -> Command {
    match *step {
        Step::Wild { kind, seat, units } => {
            let amount = Cents::units(units);
            match kind {
                0 => Command::Join {
                    seat,
                    buy_in: amount,
                },
                1 => Command::Rebuy { seat, amount },
                2 => Command::Leave { seat },
                3 => Command::Bet { seat, amount },
                4 => Command::Deal,
                5 => Command::TakeInsurance {
                    seat,
                    amount: Cents(units * 50),
                },
                6 => Command::DeclineInsurance { seat },
                7 => Command::TakeEvenMoney { seat },
                8 => Command::DeclineEvenMoney { seat },
                9 => Command::DeclineSurrender { seat },
                10 => Command::Hit { seat },
                11 => Command::Stand { seat },
                12 => Command::Double { seat },
                13 => Command::Split { seat },
                _ => Command::Surrender { seat },
            }
        }
        Step::Play { pick } => {
            match table.seat_to_act() {
                Some(seat) => {
                    let legal: Vec<Action> = table.legal_actions(seat).iter().collect();
                    let action = legal[usize::from(pick) % legal.len()];
                    action.command(seat, table.max_insurance(seat))
                }
                None => {
                    // Between rounds: seat someone, bet, or deal.
                    let seat = pick % 7;
                    let s = &table.seats()[usize::from(seat)];
                    if !s.occupied {
                        Command::Join {
                            seat,
                            buy_in: Cents::units(200),
                        }
                    } else if s.bet == Cents::ZERO && pick % 3 != 0 {
                        Command::Bet {
                            seat,
                            amount: Cents::units(5 + i64::from(pick % 10)),
                        }
                    } else if s.bankroll < Cents::units(20) {
                        Command::Rebuy {
                            seat,
                            amount: Cents::units(100),
                        }
                    } else {
                        Command::Deal
                    }
                }
            }
        }
    }
}

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
    for step in steps {
        let command = command_for(&table, step);
        let before = table.clone();
        let result = table.apply(command);
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
