//! Helpers shared by the engine's integration tests.
#![allow(dead_code)]

use holecard::engine::side::{SideBet, SideBets};
use holecard::engine::{
    Action, Cents, Command, DoubleOn, EnhcLoss, Event, HoleCard, Outcome, Payout, Preset, Rank,
    Rules, Soft17, Spot, Surrender, Table, TableState, seed_from_number,
};
use proptest::prelude::*;

/// Plain rules for scenario tests: the Strip preset without a burn card (so stacked cards come out as written),
/// without surrender, with $1 chips and a $1 minimum.
pub fn plain() -> Rules {
    Rules {
        burn_card: false,
        surrender: Surrender::None,
        min_bet: Cents::units(1),
        ..Rules::default()
    }
}

/// A table with a player of $1,000 in each of `seats` and $1,000,000 in the house's tray.
pub fn table(rules: Rules, seats: &[u8]) -> Table {
    let mut table =
        Table::new(rules, seed_from_number(11), Cents::units(1_000_000)).expect("valid rules");
    for &seat in seats {
        table
            .apply(Command::Join {
                seat,
                buy_in: Cents::units(1_000),
            })
            .expect("join");
    }
    table
}

/// Stacks `cards` to come out next, bets `units` for each seat and deals. Cards go: first pass to each seat,
/// dealer upcard, second pass, hole card, then whatever is drawn next.
pub fn deal(table: &mut Table, bets: &[(u8, i64)], cards: &[Rank]) -> Vec<Event> {
    table.queue_next_cards(cards).expect("cards available");
    for &(seat, units) in bets {
        table
            .apply(Command::Bet {
                seat,
                amount: Cents::units(units),
            })
            .expect("bet");
    }
    table.apply(Command::Deal).expect("deal")
}

/// (seat, hand, outcome, net) of every settled hand in `events`.
pub fn settled(events: &[Event]) -> Vec<(u8, u8, Outcome, Cents)> {
    events
        .iter()
        .filter_map(|e| match *e {
            Event::Settled {
                seat,
                hand,
                outcome,
                net,
                ..
            } => Some((seat, hand, outcome, net)),
            _ => None,
        })
        .collect()
}

/// The cards dealt in `events`: where each went and its rank, or `None` for the hole card dealt face down (whose
/// face no event shows until it is turned).
pub fn dealt(events: &[Event]) -> Vec<(Spot, Option<Rank>)> {
    events
        .iter()
        .filter_map(|e| match *e {
            Event::Dealt { to, card } => Some((to, Some(card.rank()))),
            Event::HoleCardDealt => Some((Spot::Dealer, None)),
            _ => None,
        })
        .collect()
}

/// A seat's bankroll.
pub fn bankroll(table: &Table, seat: u8) -> Cents {
    table.seats()[usize::from(seat)].bankroll
}

/// Applies a command that must be accepted.
pub fn ok(table: &mut Table, command: Command) -> Vec<Event> {
    match table.apply(command) {
        Ok(events) => events,
        Err(e) => panic!("{command:?} refused: {e}"),
    }
}

/// Every physical card is in exactly one place, and the shoe's full count is there.
pub fn assert_cards_accounted(table: &Table) {
    let mut seen = vec![0u8; 416];
    let mut count = 0;
    for card in table.all_cards() {
        seen[card.index()] += 1;
        count += 1;
    }
    assert_eq!(count, table.shoe().total_cards(), "card count");
    assert!(seen.iter().all(|&n| n <= 1), "a card is in two places");
}

/// Any valid rule set, with $5–$50 limits.
pub fn any_rules() -> impl Strategy<Value = Rules> {
    (
        prop::sample::select(vec![1u8, 2, 4, 6, 8]),
        any::<bool>(),
        0u8..3,
        prop::sample::select(vec![
            Payout::ThreeToTwo,
            Payout::SixToFive,
            Payout::TwoToOne,
            Payout::OneToOne,
        ]),
        prop::sample::select(vec![
            DoubleOn::AnyTwo,
            DoubleOn::NineToEleven,
            DoubleOn::TenToEleven,
        ]),
        1u8..=4,
        any::<(bool, bool, bool, bool, bool)>(),
        prop::sample::select(vec![Surrender::None, Surrender::Late, Surrender::Early]),
        0.5f64..0.9,
        0u8..16,
    )
        .prop_map(
            |(
                decks,
                h17,
                hole,
                pays,
                double_on,
                split,
                (das, rsa, hsa, tens, auto),
                surrender,
                pen,
                sides,
            )| {
                let splitting = split > 1;
                // Any of the side bets, each with its usual pay table.
                let mut side_bets = SideBets {
                    max_bet: Cents::units(25),
                    ..SideBets::default()
                };
                for (n, bet) in SideBet::ALL.into_iter().enumerate() {
                    if sides & (1 << n) != 0 {
                        side_bets.offer(bet);
                    }
                }
                Rules {
                    decks,
                    soft_17: if h17 { Soft17::Hit } else { Soft17::Stand },
                    hole_card: match hole {
                        0 => HoleCard::Peek,
                        1 => HoleCard::NoHoleCard {
                            blackjack_takes: EnhcLoss::AllBets,
                        },
                        _ => HoleCard::NoHoleCard {
                            blackjack_takes: EnhcLoss::OriginalBetOnly,
                        },
                    },
                    blackjack_pays: pays,
                    double_on,
                    double_after_split: das && splitting,
                    max_split_hands: split,
                    resplit_aces: rsa && split >= 3,
                    hit_split_aces: hsa && splitting,
                    split_unequal_tens: tens && splitting,
                    surrender,
                    auto_stand_on_21: auto,
                    penetration: pen,
                    min_bet: Cents::units(5),
                    max_bet: Cents::units(50),
                    side_bets,
                    ..Preset::LasVegasStrip.rules()
                }
            },
        )
}

/// One companion playing the book in seat 0, nobody else; no burn card so stacked cards come out as written.
pub fn one_seat_level() -> holecard::host::level::Level {
    let mut rules = Preset::LasVegasStrip.rules();
    rules.burn_card = false;
    rules.surrender = holecard::engine::Surrender::None;
    holecard::host::level::Level {
        name: "Test".into(),
        description: String::new(),
        rules: holecard::host::level::RuleSource::Custom(rules),
        buy_in: Cents::units(1_000),
        house_bankroll: Cents::units(1_000_000),
        felt: (0, 90, 40),
        card_back: Default::default(),
        companions: vec![holecard::host::level::Companion {
            name: "Mae".into(),
            personality: holecard::host::level::Personality::ByTheBook,
            bankroll: Cents::units(1_000),
            seat: 0,
        }],
        player_seat: None,
        deck_choices: Vec::new(),
        until_broke: false,
    }
}

/// One test per shipped level, so the test harness runs the levels side by side on every core instead of one
/// after another inside a single test. `per_level_tests! { check; name: "file.ron", ... }` defines each test `name`
/// as `check(path of levels/file.ron)`, and `every_level_is_in_the_list`, which fails when a file in `levels/` has
/// no test or a test names a file that is gone: "every level" stays every level.
#[macro_export]
macro_rules! per_level_tests {
    ($check:ident; $($test:ident: $file:literal,)+) => {
        $(
            #[test]
            fn $test() {
                $check(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("levels").join($file));
            }
        )+

        #[test]
        fn every_level_is_in_the_list() {
            let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("levels");
            let mut shipped: Vec<String> = std::fs::read_dir(&dir)
                .expect("levels/")
                .map(|entry| entry.expect("a levels/ entry").file_name().to_string_lossy().into_owned())
                .filter(|name| name.ends_with(".ron"))
                .collect();
            shipped.sort();
            let mut listed = vec![$($file.to_string()),+];
            listed.sort();
            assert_eq!(shipped, listed, "the per-level tests and the files in levels/ differ");
        }
    };
}

/// One step of a random session: a mostly-sensible move, or an arbitrary (often illegal) command.
#[derive(Clone, Debug)]
pub enum Step {
    /// A legal action for whoever must act, or bets and a deal between rounds; `pick` chooses among options.
    Play { pick: u8 },
    /// Any command at all, legal or not.
    Wild { kind: u8, seat: u8, units: i64 },
}

pub fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        4 => any::<u8>().prop_map(|pick| Step::Play { pick }),
        1 => (0u8..16, 0u8..9, -5i64..80).prop_map(|(kind, seat, units)| Step::Wild { kind, seat, units }),
    ]
}

/// Turns a step into a command for the table as it stands (as the host or any seat sees it: the same command).
pub fn command_for(table: &impl TableState, step: &Step) -> Command {
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
                14 => Command::SideBet {
                    seat,
                    bet: SideBet::ALL[units.rem_euclid(4) as usize],
                    amount,
                },
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
                    } else if let Some(bet) = table
                        .rules()
                        .side_bets
                        .offered()
                        .get(usize::from(pick / 7) % 5)
                        .filter(|&&bet| s.side.get(bet) == Cents::ZERO && pick % 2 == 0)
                    {
                        Command::SideBet {
                            seat,
                            bet: *bet,
                            amount: Cents::units(1 + i64::from(pick % 4)),
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
