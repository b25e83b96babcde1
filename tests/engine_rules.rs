//! One test (or more) for every rule of the rule book, on stacked shoes.

mod common;

use common::*;
use holecard::engine::Rank::*;
use holecard::engine::exact::side::cards_of;
use holecard::engine::side::{SideBet, SideBets, SideStakes, SideWin};
use holecard::engine::{
    Action, Cents, Command, CommandError, DoubleOn, EnhcLoss, Event, HoleCard, Outcome, Payout,
    Phase, Rules, Soft17, Spot, Surrender, Table, TableState,
};

#[test]
fn two_passes_from_first_base_with_the_hole_card_down() {
    let mut t = table(plain(), &[0, 3]);
    let events = deal(
        &mut t,
        &[(0, 10), (3, 10)],
        &[Two, Three, Four, Five, Six, Seven],
    );
    let p = |seat| Spot::Player { seat, hand: 0 };
    assert_eq!(
        dealt(&events),
        vec![
            (p(0), Some(Two)),
            (p(3), Some(Three)),
            (Spot::Dealer, Some(Four)),
            (p(0), Some(Five)),
            (p(3), Some(Six)),
            (Spot::Dealer, None),
        ]
    );
    // The hole card's face is the table's alone until it is turned.
    assert_eq!(t.dealer().as_slice()[1].rank(), Seven);
    assert_eq!(t.phase(), Phase::PlayerTurn { hand: 0 });
    assert_eq!(t.hand_in_turn(), Some((0, 0)));
}

#[test]
fn no_hole_card_tables_deal_the_dealer_one_card() {
    let rules = Rules {
        hole_card: HoleCard::NoHoleCard {
            blackjack_takes: EnhcLoss::AllBets,
        },
        ..plain()
    };
    let mut t = table(rules, &[0]);
    let events = deal(&mut t, &[(0, 10)], &[Two, Four, Five]);
    assert_eq!(dealt(&events).len(), 3);
    assert_eq!(t.dealer().len(), 1);
}

#[test]
fn dealer_stands_on_soft_17_under_s17_and_hits_under_h17() {
    for (soft_17, expected_cards) in [(Soft17::Stand, 2), (Soft17::Hit, 3)] {
        let mut t = table(Rules { soft_17, ..plain() }, &[0]);
        // Player 18 against 6 up and an ace in the hole: soft 17.
        deal(&mut t, &[(0, 10)], &[Ten, Six, Eight, Ace, Two]);
        let events = ok(&mut t, Command::Stand { seat: 0 });
        assert_eq!(t.dealer().len(), expected_cards, "{soft_17:?}");
        if soft_17 == Soft17::Stand {
            assert!(
                events
                    .iter()
                    .any(|e| matches!(e, Event::DealerStood { total } if total.value() == 17))
            );
            assert_eq!(
                settled(&events),
                vec![(0, 0, Outcome::Win, Cents::units(10))]
            );
        } else {
            // Soft 17 + 2 = soft 19 beats the player's 18.
            assert_eq!(
                settled(&events),
                vec![(0, 0, Outcome::Lose, Cents::units(-10))]
            );
        }
    }
}

#[test]
fn dealer_hits_multi_ace_hands_correctly() {
    // 2,A then A, A, 2: soft 13, 14, 15, 17 — S17 stands there.
    let mut t = table(plain(), &[0]);
    deal(
        &mut t,
        &[(0, 10)],
        &[Ten, Two, Nine, Ace, Ace, Ace, Two, Nine],
    );
    let events = ok(&mut t, Command::Stand { seat: 0 });
    assert_eq!(t.dealer().total().to_string(), "soft 17");
    assert_eq!(
        settled(&events),
        vec![(0, 0, Outcome::Win, Cents::units(10))]
    );
}

#[test]
fn blackjack_pays_3_to_2_and_beats_a_three_card_21() {
    let mut t = table(plain(), &[0, 1]);
    // Seat 0: A,K. Seat 1: 10,Q. Dealer 6 up, 5 in the hole, then draws a king: a three-card 21.
    let events = deal(
        &mut t,
        &[(0, 10), (1, 10)],
        &[Ace, Ten, Six, King, Queen, Five, King],
    );
    assert!(events.contains(&Event::Blackjack { seat: 0, hand: 0 }));
    // Six up: no peek needed, the blackjack is paid at once.
    assert_eq!(
        settled(&events),
        vec![(0, 0, Outcome::Blackjack, Cents::units(15))]
    );
    let events = ok(&mut t, Command::Stand { seat: 1 });
    assert_eq!(t.dealer().total().value(), 21);
    assert_eq!(
        settled(&events),
        vec![(1, 0, Outcome::Lose, Cents::units(-10))]
    );
    assert_eq!(bankroll(&t, 0), Cents::units(1_015));
}

#[test]
fn a_lone_blackjack_leaves_the_dealer_only_turning_the_hole_card() {
    let mut t = table(plain(), &[0]);
    deal(&mut t, &[(0, 10)], &[Ace, Six, King, Five, Ten]);
    assert_eq!(t.phase(), Phase::Betting);
    assert_eq!(t.dealer().len(), 2);
    assert!(t.hole_revealed());
}

#[test]
fn blackjack_against_blackjack_pushes_and_the_peek_ends_the_round() {
    let mut t = table(plain(), &[0, 1]);
    let events = deal(
        &mut t,
        &[(0, 10), (1, 20)],
        &[Ace, Nine, Ten, King, Nine, Ace],
    );
    assert!(events.contains(&Event::DealerChecked { blackjack: true }));
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::HoleCardRevealed { card } if card.rank() == Ace))
    );
    assert_eq!(
        settled(&events),
        vec![
            (0, 0, Outcome::Push, Cents::ZERO),
            (1, 0, Outcome::Lose, Cents::units(-20))
        ]
    );
    assert_eq!(t.phase(), Phase::Betting);
}

#[test]
fn twenty_one_after_a_split_is_not_blackjack() {
    let mut t = table(plain(), &[0]);
    // Player 10,10 vs 6; split; first hand gets A (21, stands itself), second gets A too.
    deal(&mut t, &[(0, 10)], &[Ten, Six, Ten, Ten, Ace, Ace, Five]);
    let events = ok(&mut t, Command::Split { seat: 0 });
    let outcomes = settled(&events);
    assert!(!events.iter().any(|e| matches!(e, Event::Blackjack { .. })));
    // Dealer 6,10 draws a 5: 21 against two player 21s.
    assert_eq!(t.dealer().total().value(), 21);
    assert_eq!(
        outcomes,
        vec![
            (0, 0, Outcome::Push, Cents::ZERO),
            (0, 1, Outcome::Push, Cents::ZERO)
        ]
    );
}

#[test]
fn split_21s_win_one_to_one() {
    let mut t = table(plain(), &[0]);
    deal(&mut t, &[(0, 10)], &[Ten, Six, Ten, Ten, Ace, Ace, Ten]);
    let events = ok(&mut t, Command::Split { seat: 0 });
    assert_eq!(
        settled(&events),
        vec![
            (0, 0, Outcome::Win, Cents::units(10)),
            (0, 1, Outcome::Win, Cents::units(10))
        ]
    );
    assert_eq!(bankroll(&t, 0), Cents::units(1_020));
}

#[test]
fn split_aces_get_one_card_each() {
    let mut t = table(plain(), &[0]);
    deal(&mut t, &[(0, 10)], &[Ace, Six, Ace, Ten, Five, Four, Nine]);
    let events = ok(&mut t, Command::Split { seat: 0 });
    // Both aces took one card and stood without being asked; the dealer then played 6,10 + 9 = bust.
    let hands: Vec<String> = t.hands().iter().map(|h| h.total().to_string()).collect();
    assert_eq!(hands, ["soft 16", "soft 15"]);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::DealerBusted { .. }))
    );
    assert_eq!(t.phase(), Phase::Betting);
}

#[test]
fn hit_split_aces_when_the_table_allows() {
    let mut t = table(
        Rules {
            hit_split_aces: true,
            ..plain()
        },
        &[0],
    );
    deal(&mut t, &[(0, 10)], &[Ace, Six, Ace, Ten, Five, Four]);
    ok(&mut t, Command::Split { seat: 0 });
    assert!(t.legal_actions(0).contains(Action::Hit));
}

#[test]
fn aces_resplit_only_when_allowed() {
    for resplit_aces in [false, true] {
        let mut t = table(
            Rules {
                resplit_aces,
                ..plain()
            },
            &[0],
        );
        deal(
            &mut t,
            &[(0, 10)],
            &[Ace, Six, Ace, Ten, Ace, Four, Nine, Nine, Nine],
        );
        ok(&mut t, Command::Split { seat: 0 });
        if resplit_aces {
            assert_eq!(
                t.legal_actions(0).iter().collect::<Vec<_>>(),
                [Action::Stand, Action::Split]
            );
            ok(&mut t, Command::Split { seat: 0 });
            assert_eq!(t.hands().len(), 3);
        } else {
            // The first ace caught an ace and had to stand on soft 12.
            assert_eq!(t.hands()[0].total().to_string(), "soft 12");
            assert_eq!(t.phase(), Phase::Betting);
        }
    }
}

#[test]
fn splitting_stops_at_the_table_limit() {
    for max in 1..=4u8 {
        let rules = Rules {
            max_split_hands: max,
            double_after_split: max > 1,
            ..plain()
        };
        let mut t = table(rules, &[0]);
        deal(
            &mut t,
            &[(0, 10)],
            &[
                Eight, Six, Eight, Ten, Eight, Eight, Eight, Eight, Eight, Eight,
            ],
        );
        let mut splits = 0;
        while t.legal_actions(0).contains(Action::Split) {
            ok(&mut t, Command::Split { seat: 0 });
            splits += 1;
        }
        assert_eq!(splits, max - 1, "max {max}");
        let refused = t.apply(Command::Split { seat: 0 });
        assert!(
            matches!(refused, Err(CommandError::NotAllowed { .. })),
            "{refused:?}"
        );
    }
}

#[test]
fn unequal_ten_values_split_only_when_allowed() {
    for split_unequal_tens in [false, true] {
        let mut t = table(
            Rules {
                split_unequal_tens,
                ..plain()
            },
            &[0],
        );
        deal(&mut t, &[(0, 10)], &[King, Six, Queen, Ten]);
        assert_eq!(
            t.legal_actions(0).contains(Action::Split),
            split_unequal_tens
        );
    }
}

#[test]
fn double_restrictions_and_double_after_split() {
    let cases = [
        (DoubleOn::AnyTwo, [Nine, Seven], true),
        (DoubleOn::NineToEleven, [Four, Five], true),
        (DoubleOn::NineToEleven, [Three, Five], false),
        (DoubleOn::TenToEleven, [Four, Five], false),
        (DoubleOn::TenToEleven, [Six, Five], true),
        (DoubleOn::Never, [Six, Five], false),
    ];
    for (double_on, [a, b], allowed) in cases {
        let rules = Rules {
            double_on,
            double_after_split: double_on != DoubleOn::Never,
            ..plain()
        };
        let mut t = table(rules, &[0]);
        deal(&mut t, &[(0, 10)], &[a, Six, b, Ten]);
        assert_eq!(
            t.legal_actions(0).contains(Action::Double),
            allowed,
            "{double_on:?} {a:?}+{b:?}"
        );
    }
    for das in [false, true] {
        let mut t = table(
            Rules {
                double_after_split: das,
                ..plain()
            },
            &[0],
        );
        deal(&mut t, &[(0, 10)], &[Eight, Six, Eight, Ten, Three, Three]);
        ok(&mut t, Command::Split { seat: 0 });
        assert_eq!(
            t.legal_actions(0).contains(Action::Double),
            das,
            "DAS {das}"
        );
    }
}

#[test]
fn doubling_takes_one_card_and_doubles_the_wager() {
    let mut t = table(plain(), &[0]);
    deal(&mut t, &[(0, 10)], &[Six, Six, Five, Ten, Two, Ten]);
    let events = ok(&mut t, Command::Double { seat: 0 });
    assert!(events.contains(&Event::Doubled {
        seat: 0,
        hand: 0,
        wager: Cents::units(20)
    }));
    assert_eq!(t.hands()[0].cards.len(), 3);
    // 13 against the dealer's 6,10,10 = bust: a doubled win.
    assert_eq!(
        settled(&events),
        vec![(0, 0, Outcome::Win, Cents::units(20))]
    );
}

#[test]
fn a_bust_loses_at_once_even_if_the_dealer_busts_later() {
    let mut t = table(plain(), &[0, 1]);
    // Seat 0: 10,6 hits a 10 (bust). Seat 1: 10,8 stands. Dealer 6,10 hits a 10 and busts.
    deal(
        &mut t,
        &[(0, 10), (1, 10)],
        &[Ten, Ten, Six, Six, Eight, Ten, Ten, Ten],
    );
    let hit = ok(&mut t, Command::Hit { seat: 0 });
    assert_eq!(
        settled(&hit),
        vec![(0, 0, Outcome::Bust, Cents::units(-10))]
    );
    assert!(hit.contains(&Event::Turn { seat: 1, hand: 0 }));
    let stand = ok(&mut t, Command::Stand { seat: 1 });
    assert!(
        stand
            .iter()
            .any(|e| matches!(e, Event::DealerBusted { .. }))
    );
    assert_eq!(
        settled(&stand),
        vec![(1, 0, Outcome::Win, Cents::units(10))]
    );
    assert_eq!(bankroll(&t, 0), Cents::units(990));
}

#[test]
fn the_dealer_only_turns_the_hole_card_when_every_hand_is_settled() {
    let mut t = table(plain(), &[0]);
    deal(&mut t, &[(0, 10)], &[Ten, Six, Six, Five, Ten]);
    let events = ok(&mut t, Command::Hit { seat: 0 });
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::HoleCardRevealed { .. }))
    );
    assert_eq!(t.dealer().len(), 2, "no draw to 11");
}

#[test]
fn insurance_pays_two_to_one_against_a_dealer_blackjack() {
    let mut t = table(plain(), &[0]);
    let events = deal(&mut t, &[(0, 10)], &[Ten, Ace, Nine, King]);
    assert!(events.contains(&Event::InsuranceOffered));
    assert_eq!(t.phase(), Phase::Insurance);
    assert_eq!(t.max_insurance(0), Cents::units(5));
    let over = t.apply(Command::TakeInsurance {
        seat: 0,
        amount: Cents::units(6),
    });
    assert!(matches!(over, Err(CommandError::InsuranceOverHalf { .. })));
    let events = ok(
        &mut t,
        Command::TakeInsurance {
            seat: 0,
            amount: Cents::units(5),
        },
    );
    assert!(events.contains(&Event::InsuranceSettled {
        seat: 0,
        amount: Cents::units(5),
        net: Cents::units(10)
    }));
    assert_eq!(
        settled(&events),
        vec![(0, 0, Outcome::Lose, Cents::units(-10))]
    );
    // Lost 10 on the hand, won 10 on insurance.
    assert_eq!(bankroll(&t, 0), Cents::units(1_000));
}

#[test]
fn insurance_is_lost_when_the_dealer_has_no_blackjack_and_play_goes_on() {
    let mut t = table(plain(), &[0]);
    deal(&mut t, &[(0, 10)], &[Ten, Ace, Nine, Seven]);
    let events = ok(
        &mut t,
        Command::TakeInsurance {
            seat: 0,
            amount: Cents::units(5),
        },
    );
    assert!(events.contains(&Event::DealerChecked { blackjack: false }));
    assert!(events.contains(&Event::InsuranceSettled {
        seat: 0,
        amount: Cents::units(5),
        net: Cents::units(-5)
    }));
    assert_eq!(t.phase(), Phase::PlayerTurn { hand: 0 });
}

#[test]
fn even_money_pays_one_to_one_at_once() {
    let mut t = table(plain(), &[0, 1]);
    deal(
        &mut t,
        &[(0, 10), (1, 10)],
        &[Ace, Nine, Ace, King, Nine, Ten],
    );
    assert_eq!(
        t.legal_actions(0).iter().collect::<Vec<_>>(),
        [Action::TakeEvenMoney, Action::DeclineEvenMoney]
    );
    assert!(
        t.apply(Command::TakeInsurance {
            seat: 0,
            amount: Cents::units(5)
        })
        .is_err()
    );
    let events = ok(&mut t, Command::TakeEvenMoney { seat: 0 });
    assert_eq!(
        settled(&events),
        vec![(0, 0, Outcome::EvenMoney, Cents::units(10))]
    );
    assert_eq!(t.phase(), Phase::Insurance, "seat 1 has not answered yet");
    let events = ok(&mut t, Command::DeclineInsurance { seat: 1 });
    assert!(events.contains(&Event::DealerChecked { blackjack: true }));
    assert_eq!(
        settled(&events),
        vec![(1, 0, Outcome::Lose, Cents::units(-10))]
    );
    assert_eq!(bankroll(&t, 0), Cents::units(1_010));
}

#[test]
fn a_declined_blackjack_against_an_ace_is_paid_three_to_two_when_the_dealer_misses() {
    let mut t = table(plain(), &[0]);
    deal(&mut t, &[(0, 10)], &[Ace, Ace, King, Nine]);
    let events = ok(&mut t, Command::DeclineEvenMoney { seat: 0 });
    assert_eq!(
        settled(&events),
        vec![(0, 0, Outcome::Blackjack, Cents::units(15))]
    );
}

#[test]
fn six_to_five_and_three_to_two_on_odd_bets_are_exact() {
    for (payout, bet_units, win_cents) in [
        (Payout::SixToFive, 5, 600),
        (Payout::SixToFive, 1, 120),
        (Payout::SixToFive, 3, 360),
        (Payout::ThreeToTwo, 5, 750),
        (Payout::ThreeToTwo, 1, 150),
        (Payout::TwoToOne, 5, 1_000),
        (Payout::OneToOne, 5, 500),
    ] {
        let mut t = table(
            Rules {
                blackjack_pays: payout,
                ..plain()
            },
            &[0],
        );
        let events = deal(&mut t, &[(0, bet_units)], &[Ace, Six, King, Ten]);
        assert_eq!(
            settled(&events),
            vec![(0, 0, Outcome::Blackjack, Cents(win_cents))],
            "{payout:?} {bet_units}"
        );
    }
    // With one-cent chips, the odd cent of a 6:5 or 3:2 payout is rounded down (house's favour), in one place.
    let rules = Rules {
        blackjack_pays: Payout::SixToFive,
        bet_unit: Cents(1),
        min_bet: Cents(1),
        ..plain()
    };
    let mut t = table(rules, &[0]);
    t.queue_next_cards(&[Ace, Six, King, Ten]).unwrap();
    ok(
        &mut t,
        Command::Bet {
            seat: 0,
            amount: Cents(7),
        },
    );
    let events = ok(&mut t, Command::Deal);
    assert_eq!(settled(&events), vec![(0, 0, Outcome::Blackjack, Cents(8))]);
}

#[test]
fn late_surrender_refunds_half_after_the_peek() {
    let mut t = table(
        Rules {
            surrender: Surrender::Late,
            ..plain()
        },
        &[0],
    );
    deal(&mut t, &[(0, 10)], &[Ten, Ten, Six, Seven]);
    let events = ok(&mut t, Command::Surrender { seat: 0 });
    assert_eq!(
        settled(&events),
        vec![(0, 0, Outcome::Surrender, Cents::units(-5))]
    );
    assert_eq!(bankroll(&t, 0), Cents::units(995));
}

#[test]
fn surrender_is_only_for_the_first_two_cards_of_an_unsplit_hand() {
    let mut t = table(
        Rules {
            surrender: Surrender::Late,
            ..plain()
        },
        &[0],
    );
    deal(&mut t, &[(0, 10)], &[Eight, Ten, Eight, Seven, Two, Two]);
    ok(&mut t, Command::Split { seat: 0 });
    assert!(!t.legal_actions(0).contains(Action::Surrender));
    let mut t = table(
        Rules {
            surrender: Surrender::Late,
            ..plain()
        },
        &[0],
    );
    deal(&mut t, &[(0, 10)], &[Two, Ten, Three, Seven, Two]);
    ok(&mut t, Command::Hit { seat: 0 });
    assert!(!t.legal_actions(0).contains(Action::Surrender));
}

#[test]
fn early_surrender_comes_before_the_peek_and_beats_a_dealer_blackjack() {
    let mut t = table(
        Rules {
            surrender: Surrender::Early,
            ..plain()
        },
        &[0],
    );
    let events = deal(&mut t, &[(0, 10)], &[Ten, Ten, Six, Ace]);
    assert!(events.contains(&Event::EarlySurrenderOffered));
    assert_eq!(t.phase(), Phase::EarlySurrender);
    let events = ok(&mut t, Command::Surrender { seat: 0 });
    assert_eq!(
        settled(&events),
        vec![(0, 0, Outcome::Surrender, Cents::units(-5))]
    );
    assert!(events.contains(&Event::DealerChecked { blackjack: true }));
    assert_eq!(bankroll(&t, 0), Cents::units(995));
}

#[test]
fn a_no_hole_card_blackjack_takes_doubled_bets_unless_the_table_refunds_them() {
    for (takes, expected_net) in [(EnhcLoss::AllBets, -20), (EnhcLoss::OriginalBetOnly, -10)] {
        let rules = Rules {
            hole_card: HoleCard::NoHoleCard {
                blackjack_takes: takes,
            },
            ..plain()
        };
        let mut t = table(rules, &[0]);
        // Player 6,5 doubles against a ten; the dealer's second card is an ace.
        deal(&mut t, &[(0, 10)], &[Six, Ten, Five, Nine, Ace]);
        let events = ok(&mut t, Command::Double { seat: 0 });
        assert!(events.contains(&Event::DealerBlackjack));
        assert_eq!(
            settled(&events),
            vec![(0, 0, Outcome::Lose, Cents::units(expected_net))],
            "{takes:?}"
        );
    }
}

#[test]
fn a_no_hole_card_blackjack_takes_split_bets_unless_the_table_refunds_them() {
    for (takes, nets) in [
        (EnhcLoss::AllBets, [-10, -10]),
        (EnhcLoss::OriginalBetOnly, [-10, 0]),
    ] {
        let rules = Rules {
            hole_card: HoleCard::NoHoleCard {
                blackjack_takes: takes,
            },
            ..plain()
        };
        let mut t = table(rules, &[0]);
        deal(&mut t, &[(0, 10)], &[Eight, Ace, Eight, Ten, Nine, Ten]);
        assert_eq!(t.phase(), Phase::Insurance);
        ok(&mut t, Command::DeclineInsurance { seat: 0 });
        ok(&mut t, Command::Split { seat: 0 });
        ok(&mut t, Command::Stand { seat: 0 });
        let events = ok(&mut t, Command::Stand { seat: 0 });
        let got: Vec<Cents> = settled(&events).iter().map(|s| s.3).collect();
        assert_eq!(got, nets.map(Cents::units), "{takes:?}");
    }
}

#[test]
fn auto_stand_on_21_is_optional() {
    for auto in [true, false] {
        let mut t = table(
            Rules {
                auto_stand_on_21: auto,
                ..plain()
            },
            &[0],
        );
        deal(&mut t, &[(0, 10)], &[Five, Seven, Six, Ten, Ten, Ten]);
        ok(&mut t, Command::Hit { seat: 0 });
        assert_eq!(t.hands()[0].total().value(), 21);
        if auto {
            assert_eq!(t.phase(), Phase::Betting);
        } else {
            assert_eq!(
                t.legal_actions(0).iter().collect::<Vec<_>>(),
                [Action::Stand]
            );
        }
    }
}

#[test]
fn refused_commands_change_nothing() {
    let mut t = table(plain(), &[0, 1]);
    deal(
        &mut t,
        &[(0, 10), (1, 10)],
        &[Ten, Nine, Six, Six, Seven, Ten],
    );
    let before = t.clone();
    for command in [
        Command::Hit { seat: 1 },
        Command::Deal,
        Command::Bet {
            seat: 0,
            amount: Cents::units(5),
        },
        Command::Join {
            seat: 4,
            buy_in: Cents::units(100),
        },
        Command::Leave { seat: 0 },
        Command::Split { seat: 0 },
        Command::Double { seat: 9 },
        Command::TakeInsurance {
            seat: 0,
            amount: Cents::units(1),
        },
    ] {
        assert!(t.apply(command).is_err(), "{command:?}");
        assert_eq!(t, before, "{command:?} changed the table");
    }
}

#[test]
fn bets_outside_the_limits_or_the_bankroll_are_refused_not_clamped() {
    let rules = Rules {
        min_bet: Cents::units(10),
        max_bet: Cents::units(500),
        ..plain()
    };
    let mut t = table(rules, &[0]);
    let max = t.apply(Command::Bet {
        seat: 0,
        amount: Cents::units(501),
    });
    assert_eq!(
        max,
        Err(CommandError::BetOverMaximum {
            amount: Cents::units(501),
            max: Cents::units(500)
        })
    );
    let chips = t.apply(Command::Bet {
        seat: 0,
        amount: Cents(1_050),
    });
    assert!(matches!(chips, Err(CommandError::NotWholeChips { .. })));
    // Under the minimum is refused when bet, not when dealt: a bet the table cannot deal never stands in the circle
    // (at a shared table it would hold up every seat's deal). No bet at all is still a bet of nothing.
    assert_eq!(
        t.apply(Command::Bet {
            seat: 0,
            amount: Cents::units(5),
        }),
        Err(CommandError::BetUnderMinimum {
            seat: 0,
            amount: Cents::units(5),
            min: Cents::units(10)
        })
    );
    assert_eq!(
        t.seats()[0].bet,
        Cents::ZERO,
        "the refused bet changed nothing"
    );
    ok(
        &mut t,
        Command::Bet {
            seat: 0,
            amount: Cents::ZERO,
        },
    );
    assert_eq!(t.apply(Command::Deal), Err(CommandError::NoBets));
    let mut poor = table(plain(), &[]);
    ok(
        &mut poor,
        Command::Join {
            seat: 2,
            buy_in: Cents::units(20),
        },
    );
    let refused = poor.apply(Command::Bet {
        seat: 2,
        amount: Cents::units(30),
    });
    assert!(matches!(refused, Err(CommandError::NotEnoughChips { .. })));
    assert_eq!(poor.apply(Command::Deal), Err(CommandError::NoBets));
}

#[test]
fn doubling_or_splitting_needs_the_chips() {
    let mut t = table(plain(), &[]);
    ok(
        &mut t,
        Command::Join {
            seat: 0,
            buy_in: Cents::units(15),
        },
    );
    deal(&mut t, &[(0, 10)], &[Eight, Six, Eight, Ten]);
    assert!(matches!(
        t.apply(Command::Split { seat: 0 }),
        Err(CommandError::NotEnoughChips { .. })
    ));
    assert!(matches!(
        t.apply(Command::Double { seat: 0 }),
        Err(CommandError::NotEnoughChips { .. })
    ));
}

#[test]
fn the_house_must_cover_the_bets() {
    let mut t = holecard::engine::Table::new(plain(), [0; 32], Cents::units(100)).unwrap();
    ok(
        &mut t,
        Command::Join {
            seat: 0,
            buy_in: Cents::units(1_000),
        },
    );
    ok(
        &mut t,
        Command::Bet {
            seat: 0,
            amount: Cents::units(20),
        },
    );
    assert!(matches!(
        t.apply(Command::Deal),
        Err(CommandError::HouseCannotCover { .. })
    ));
}

#[test]
fn the_cut_card_ends_the_shoe_after_the_round_and_a_burn_card_follows_the_shuffle() {
    let rules = Rules {
        decks: 1,
        penetration: 0.5,
        burn_card: true,
        ..plain()
    };
    let mut t = table(rules, &[0]);
    let mut saw_cut = false;
    for _ in 0..40 {
        ok(
            &mut t,
            Command::Bet {
                seat: 0,
                amount: Cents::units(1),
            },
        );
        let events = ok(&mut t, Command::Deal);
        let shuffled = events
            .iter()
            .position(|e| matches!(e, Event::Shuffled { .. }));
        if t.round() == 1 || saw_cut {
            let at = shuffled.expect("shuffle at the first round and after the cut card");
            assert!(matches!(events[at + 1], Event::Burned));
            saw_cut = false;
        } else {
            assert_eq!(shuffled, None);
        }
        while t.phase() != Phase::Betting {
            let seat = if t.phase() == Phase::Insurance {
                0
            } else {
                t.hand_in_turn().map_or(0, |h| h.0)
            };
            let command = if t.phase() == Phase::Insurance {
                if t.legal_actions(seat).contains(Action::DeclineEvenMoney) {
                    Command::DeclineEvenMoney { seat }
                } else {
                    Command::DeclineInsurance { seat }
                }
            } else {
                Command::Stand { seat }
            };
            let more = ok(&mut t, command);
            saw_cut |= more.contains(&Event::CutCardOut);
        }
        saw_cut |= events.contains(&Event::CutCardOut);
        assert_cards_accounted(&t);
    }
}

#[test]
fn a_dry_shoe_is_refilled_from_the_discards_mid_round() {
    // One deck, seven seats, everyone splitting eights four ways and hitting: the shoe must never run dry.
    let rules = Rules {
        decks: 1,
        penetration: 0.95,
        ..plain()
    };
    let mut t = table(rules, &[0, 1, 2, 3, 4, 5, 6]);
    let mut refilled = false;
    for _ in 0..30 {
        for seat in 0..7 {
            ok(
                &mut t,
                Command::Bet {
                    seat,
                    amount: Cents::units(1),
                },
            );
        }
        ok(&mut t, Command::Deal);
        while t.phase() != Phase::Betting {
            let seat = match t.phase() {
                Phase::PlayerTurn { .. } => t.hand_in_turn().map(|h| h.0).unwrap_or(0),
                _ => (0..7)
                    .find(|&s| t.seats()[usize::from(s)].deciding)
                    .unwrap_or(0),
            };
            let legal = t.legal_actions(seat);
            let action = [
                Action::Split,
                Action::Hit,
                Action::DeclineInsurance,
                Action::DeclineEvenMoney,
            ]
            .into_iter()
            .find(|&a| legal.contains(a))
            .unwrap_or(Action::Stand);
            let events = ok(&mut t, action.command(seat, Cents::ZERO));
            refilled |= events
                .iter()
                .any(|e| matches!(e, Event::DiscardsShuffledIn { .. }));
            assert_cards_accounted(&t);
        }
    }
    assert!(
        refilled,
        "thirty rounds of one deck at seven seats must run the shoe dry at least once"
    );
}

#[test]
fn players_join_rebuy_and_leave_between_rounds_only() {
    let mut t = table(plain(), &[0]);
    assert_eq!(
        t.apply(Command::Join {
            seat: 0,
            buy_in: Cents::units(5)
        }),
        Err(CommandError::SeatTaken(0))
    );
    ok(
        &mut t,
        Command::Rebuy {
            seat: 0,
            amount: Cents::units(50),
        },
    );
    assert_eq!(bankroll(&t, 0), Cents::units(1_050));
    deal(&mut t, &[(0, 10)], &[Ten, Nine, Six, Seven, Five]);
    assert!(matches!(
        t.apply(Command::Leave { seat: 0 }),
        Err(CommandError::WrongPhase { .. })
    ));
    ok(&mut t, Command::Stand { seat: 0 });
    ok(
        &mut t,
        Command::Bet {
            seat: 0,
            amount: Cents::units(10),
        },
    );
    let events = ok(&mut t, Command::Leave { seat: 0 });
    // 1,050 − 10 lost on the 16 + the 10 in the circle comes back with the bankroll.
    assert_eq!(
        events,
        vec![Event::Left {
            seat: 0,
            cash_out: Cents::units(1_040)
        }]
    );
    assert!(!t.seats()[0].occupied);
}

#[test]
fn a_saved_round_resumes_exactly() {
    let mut t = table(
        Rules {
            decks: 2,
            ..plain()
        },
        &[0, 2],
    );
    for seat in [0, 2] {
        ok(
            &mut t,
            Command::Bet {
                seat,
                amount: Cents::units(10),
            },
        );
    }
    ok(&mut t, Command::Deal);
    let saved = ron::to_string(&t).expect("serialize");
    let mut resumed: holecard::engine::Table = ron::from_str(&saved).expect("deserialize");
    assert_eq!(resumed, t);
    for _ in 0..50 {
        if t.phase() == Phase::Betting {
            for seat in [0, 2] {
                let _ = t.apply(Command::Bet {
                    seat,
                    amount: Cents::units(10),
                });
                let _ = resumed.apply(Command::Bet {
                    seat,
                    amount: Cents::units(10),
                });
            }
            assert_eq!(t.apply(Command::Deal), resumed.apply(Command::Deal));
            continue;
        }
        let seat = t.seat_to_act().unwrap_or(0);
        let a = t
            .apply(Command::Hit { seat })
            .or_else(|_| t.apply(Command::DeclineInsurance { seat }));
        let b = resumed
            .apply(Command::Hit { seat })
            .or_else(|_| resumed.apply(Command::DeclineInsurance { seat }));
        assert_eq!(a, b);
    }
    assert_eq!(resumed, t);
}

#[test]
fn a_seed_deals_the_same_cards_everywhere() {
    // Pinned: the same seed and commands must deal these cards on every platform (64-bit native, wasm32). The
    // generator is ChaCha8 and every draw uses 32-bit arithmetic, so nothing here depends on the pointer width.
    let mut t = holecard::engine::Table::new(
        Rules {
            burn_card: true,
            ..plain()
        },
        holecard::engine::seed_from_number(7),
        Cents::units(1_000_000),
    )
    .expect("valid");
    ok(
        &mut t,
        Command::Join {
            seat: 0,
            buy_in: Cents::units(1_000),
        },
    );
    let mut cards = Vec::new();
    while cards.len() < 20 {
        ok(
            &mut t,
            Command::Bet {
                seat: 0,
                amount: Cents::units(10),
            },
        );
        let mut events = ok(&mut t, Command::Deal);
        // The hole card goes out face down with no face in the event; the table knows which it was.
        let hole = t.dealer().as_slice().get(1).copied();
        while t.phase() != Phase::Betting {
            let command = match t.phase() {
                Phase::Insurance if t.legal_actions(0).contains(Action::DeclineEvenMoney) => {
                    Command::DeclineEvenMoney { seat: 0 }
                }
                Phase::Insurance => Command::DeclineInsurance { seat: 0 },
                _ => Command::Stand { seat: 0 },
            };
            events.extend(ok(&mut t, command));
        }
        cards.extend(events.iter().filter_map(|e| match e {
            Event::Dealt { card, .. } => Some(card.to_string()),
            Event::HoleCardDealt => hole.map(|card| card.to_string()),
            _ => None,
        }));
    }
    assert_eq!(cards[..20].join(" "), GOLDEN_SEED_7);
}

const GOLDEN_SEED_7: &str = "8♦ 9♥ 6♥ 3♦ K♠ 5♠ 8♦ 4♠ 6♣ 7♦ 8♦ J♣ A♠ 4♥ K♣ 6♠ 6♥ 7♥ 2♠ K♦";

#[test]
fn a_damaged_save_is_refused_with_the_reason() {
    let mut t = table(plain(), &[0]);
    deal(&mut t, &[(0, 10)], &[Ten, Nine, Six, Seven]);
    let good = serde_json::to_value(&t).expect("serialize");
    let load = |value: &serde_json::Value| {
        serde_json::from_value::<holecard::engine::Table>(value.clone())
    };
    assert_eq!(load(&good).expect("a good save loads"), t);

    let mut negative = good.clone();
    negative["house"] = serde_json::json!(-5);
    let err = load(&negative).expect_err("negative house");
    assert!(err.to_string().contains("out of range"), "{err}");

    let mut decks = good.clone();
    decks["rules"]["decks"] = serde_json::json!(2);
    let err = load(&decks).expect_err("deck count");
    assert!(err.to_string().contains("decks"), "{err}");

    let mut lost_card = good.clone();
    let dealer = lost_card["dealer"]["cards"].as_array_mut().expect("cards");
    dealer.pop();
    let err = load(&lost_card).expect_err("a card went missing");
    assert!(err.to_string().contains("cards are on the table"), "{err}");

    let mut phase = good;
    phase["phase"] = serde_json::json!({ "PlayerTurn": { "hand": 5 } });
    let err = load(&phase).expect_err("turn of a hand that does not exist");
    assert!(err.to_string().contains("cannot be in"), "{err}");
}

#[test]
fn a_save_with_side_bets_that_do_not_fit_the_table_is_refused() {
    let mut t = table(side_bet_rules(plain()), &[0]);
    // Buster waits for the dealer: in play while the player decides.
    deal_with_side_bets(&mut t, &[(SideBet::Buster, 3)], "10c 2h 6d 3s");
    assert_eq!(t.phase(), Phase::PlayerTurn { hand: 0 });
    let good = serde_json::to_value(&t).expect("serialize");
    let load = |value: &serde_json::Value| {
        serde_json::from_value::<holecard::engine::Table>(value.clone())
            .expect_err("refused")
            .to_string()
    };
    assert_eq!(
        serde_json::from_value::<holecard::engine::Table>(good.clone()).expect("a good save"),
        t
    );
    let mut not_offered = good.clone();
    not_offered["rules"]["side_bets"]["buster"] = serde_json::Value::Null;
    let err = load(&not_offered);
    assert!(err.contains("does not offer"), "{err}");
    let mut between_rounds = good.clone();
    between_rounds["phase"] = serde_json::json!("Betting");
    let err = load(&between_rounds);
    assert!(err.contains("in play outside a round"), "{err}");
    let mut empty_seat = good;
    empty_seat["seats"][5]["side"] = serde_json::json!([500, 0, 0, 0]);
    let err = load(&empty_seat);
    assert!(err.contains("empty seat 5"), "{err}");
}

#[test]
fn a_seat_short_of_half_its_bet_may_insure_for_what_it_has() {
    let mut t = table(plain(), &[]);
    ok(
        &mut t,
        Command::Join {
            seat: 0,
            buy_in: Cents::units(13),
        },
    );
    deal(&mut t, &[(0, 10)], &[Ten, Ace, Nine, Seven]);
    assert!(t.legal_actions(0).contains(Action::TakeInsurance));
    assert!(matches!(
        t.apply(Command::TakeInsurance {
            seat: 0,
            amount: Cents::units(5)
        }),
        Err(CommandError::NotEnoughChips { .. })
    ));
    ok(
        &mut t,
        Command::TakeInsurance {
            seat: 0,
            amount: Cents::units(3),
        },
    );
}

#[test]
fn hand_numbers_outside_a_seat_find_nothing() {
    let mut t = table(plain(), &[0, 1]);
    deal(
        &mut t,
        &[(0, 10), (1, 10)],
        &[Ten, Ten, Six, Six, Seven, Ten],
    );
    assert_eq!(t.hand_index(0, 0), Some(0));
    assert_eq!(
        t.hand_index(0, 1),
        None,
        "hand 1 of seat 0 would be seat 1's hand"
    );
    assert_eq!(t.hand_index(5, 0), None);
}

#[test]
fn chips_beyond_the_ceiling_are_refused() {
    let mut t = table(plain(), &[0]);
    let over = Cents(Cents::MAX_CHIPS.0 + 1);
    assert!(matches!(
        t.apply(Command::Join {
            seat: 1,
            buy_in: over
        }),
        Err(CommandError::OverChipCeiling { .. })
    ));
    assert!(matches!(
        t.apply(Command::Rebuy {
            seat: 0,
            amount: Cents::MAX_CHIPS
        }),
        Err(CommandError::OverChipCeiling { .. })
    ));
    let huge_limit = Rules {
        max_bet: Cents(i64::MAX / 2),
        ..plain()
    };
    assert_eq!(huge_limit.validate().map_err(|e| e.field), Err("max_bet"));
}

#[test]
fn without_a_peek_early_surrender_uses_the_early_surrender_chart() {
    use holecard::engine::{BasicStrategy, Table, seed_from_number};
    // Hard 14 against a ten: hit under late surrender, surrender under early surrender.
    let rules = Rules {
        hole_card: HoleCard::NoHoleCard {
            blackjack_takes: EnhcLoss::AllBets,
        },
        surrender: Surrender::Early,
        ..plain()
    };
    let mut t = Table::new(rules.clone(), seed_from_number(1), Cents::units(1_000_000)).unwrap();
    ok(
        &mut t,
        Command::Join {
            seat: 0,
            buy_in: Cents::units(1_000),
        },
    );
    deal(&mut t, &[(0, 10)], &[Ten, King, Four]);
    let book = BasicStrategy::for_rules(&rules);
    assert_eq!(book.decide(&t, 0), Some(Command::Surrender { seat: 0 }));
    assert_eq!(book.decide(&t, 7), None, "no such seat, no move");
}

/// A table offering every side bet with its usual pay table (21+3 100/40/30/10/5, Perfect Pairs 25/12/6, Lucky
/// Ladies 1000/125/19/9/4, Buster 250/50/12/4/2/2), up to $25 each.
fn side_bet_rules(rules: Rules) -> Rules {
    let mut side_bets = SideBets {
        max_bet: Cents::units(25),
        ..SideBets::default()
    };
    for bet in SideBet::ALL {
        side_bets.offer(bet);
    }
    Rules { side_bets, ..rules }
}

/// Stacks these exact cards ("Qh 7s …", dealt as [`deal`] deals), puts `sides` on seat 0's spots beside a $10 bet,
/// and deals.
fn deal_with_side_bets(table: &mut Table, sides: &[(SideBet, i64)], cards: &str) -> Vec<Event> {
    let cards = cards_of(cards).expect("cards");
    table.queue_exact_cards(&cards).expect("cards available");
    for &(bet, units) in sides {
        ok(
            table,
            Command::SideBet {
                seat: 0,
                bet,
                amount: Cents::units(units),
            },
        );
    }
    ok(
        table,
        Command::Bet {
            seat: 0,
            amount: Cents::units(10),
        },
    )
    .into_iter()
    .chain(ok(table, Command::Deal))
    .collect()
}

/// (bet, stake, win, net) of each side bet settled in `events`.
fn side_settled(events: &[Event]) -> Vec<(SideBet, Cents, Option<SideWin>, Cents)> {
    events
        .iter()
        .filter_map(|e| match *e {
            Event::SideBetSettled {
                bet,
                stake,
                win,
                net,
                ..
            } => Some((bet, stake, win, net)),
            _ => None,
        })
        .collect()
}

#[test]
fn side_bets_on_the_first_cards_are_paid_before_anyone_plays() {
    let mut t = table(side_bet_rules(plain()), &[0]);
    // The player's 7♥ 8♥ and the dealer's 9♥ up: a straight flush; 7 and 8 are no pair; 15 is no 20.
    let events = deal_with_side_bets(
        &mut t,
        &[
            (SideBet::TwentyOnePlusThree, 5),
            (SideBet::PerfectPairs, 2),
            (SideBet::LuckyLadies, 1),
        ],
        "7h 9h 8h 10c",
    );
    let five = Cents::units(5);
    assert_eq!(
        side_settled(&events),
        [
            (
                SideBet::TwentyOnePlusThree,
                five,
                Some(SideWin::StraightFlush),
                Cents::units(200)
            ),
            (
                SideBet::PerfectPairs,
                Cents::units(2),
                None,
                Cents::units(-2)
            ),
            (
                SideBet::LuckyLadies,
                Cents::units(1),
                None,
                Cents::units(-1)
            ),
        ]
    );
    let settled_at = events
        .iter()
        .position(|e| matches!(e, Event::SideBetSettled { .. }))
        .expect("settled");
    let turn_at = events
        .iter()
        .position(|e| matches!(e, Event::Turn { .. }))
        .expect("the player's turn");
    assert!(settled_at < turn_at, "paid before the first decision");
    // $1,000 − $10 bet − $8 on the spots + $205 back from 21+3.
    assert_eq!(bankroll(&t, 0), Cents::units(1_000 - 10 - 8 + 205));
    assert_eq!(t.seats()[0].side_in_play, SideStakes::default());
}

#[test]
fn perfect_pairs_and_lucky_ladies_pay_by_colour_suit_and_twenty() {
    for (cards, pair, twenty) in [
        (
            "Qs Ad Qs 5c",
            Some(SideWin::PerfectPair),
            Some(SideWin::MatchedTwenty),
        ),
        (
            "Kd 5c Kh 6c",
            Some(SideWin::ColoredPair),
            Some(SideWin::AnyTwenty),
        ),
        (
            "Kd 5c Kc 6c",
            Some(SideWin::MixedPair),
            Some(SideWin::AnyTwenty),
        ),
        ("Ac 5c 9c 6c", None, Some(SideWin::SuitedTwenty)),
    ] {
        let mut t = table(side_bet_rules(plain()), &[0]);
        let events = deal_with_side_bets(
            &mut t,
            &[(SideBet::PerfectPairs, 1), (SideBet::LuckyLadies, 1)],
            cards,
        );
        let wins: Vec<Option<SideWin>> = side_settled(&events).iter().map(|s| s.2).collect();
        assert_eq!(wins, [pair, twenty], "{cards}");
    }
}

#[test]
fn two_queens_of_hearts_wait_for_the_dealers_blackjack_and_then_pay_a_thousand_to_one() {
    // A peek table: the dealer's ace up and king in the hole, found at the peek.
    let mut t = table(
        side_bet_rules(Rules {
            insurance: false,
            even_money: false,
            ..plain()
        }),
        &[0],
    );
    let events = deal_with_side_bets(&mut t, &[(SideBet::LuckyLadies, 2)], "Qh Ac Qh Kd");
    assert_eq!(
        side_settled(&events),
        [(
            SideBet::LuckyLadies,
            Cents::units(2),
            Some(SideWin::QueensOfHeartsAndDealerBlackjack),
            Cents::units(2_000)
        )]
    );
    let checked = events
        .iter()
        .position(|e| matches!(e, Event::DealerChecked { blackjack: true }))
        .expect("the peek");
    let paid = events
        .iter()
        .position(|e| matches!(e, Event::SideBetSettled { .. }))
        .expect("paid");
    assert!(checked < paid, "the queens wait for the peek");

    // A no-hole-card table: the dealer's second card comes after the player has played, and still decides.
    let enhc = Rules {
        hole_card: HoleCard::NoHoleCard {
            blackjack_takes: EnhcLoss::AllBets,
        },
        insurance: false,
        even_money: false,
        ..plain()
    };
    let mut t = table(side_bet_rules(enhc), &[0]);
    let events = deal_with_side_bets(&mut t, &[(SideBet::LuckyLadies, 2)], "Qh 10c Qh Ah");
    assert!(
        side_settled(&events).is_empty(),
        "waits for the dealer's second card"
    );
    let events = ok(&mut t, Command::Stand { seat: 0 });
    assert_eq!(
        side_settled(&events),
        [(
            SideBet::LuckyLadies,
            Cents::units(2),
            Some(SideWin::QueensOfHeartsAndDealerBlackjack),
            Cents::units(2_000)
        )]
    );
    // Without the blackjack: 125 to 1.
    let mut t = table(side_bet_rules(plain()), &[0]);
    let events = deal_with_side_bets(&mut t, &[(SideBet::LuckyLadies, 1)], "Qh 5c Qh 9d");
    assert_eq!(
        side_settled(&events)[0].2,
        Some(SideWin::QueensOfHearts),
        "paid once no blackjack is possible"
    );
}

#[test]
fn buster_is_paid_by_the_dealers_busted_hand_even_after_every_player_busts() {
    let mut t = table(side_bet_rules(plain()), &[0]);
    // The player's 10 6 hits a king and busts; the dealer's 2 up, 3 in the hole, then 4, 5 (14), king: 5 cards.
    let events = deal_with_side_bets(&mut t, &[(SideBet::Buster, 3)], "10c 2h 6d 3s Kc 4h 5h Kd");
    assert!(
        side_settled(&events).is_empty(),
        "Buster waits for the dealer"
    );
    let events = ok(&mut t, Command::Hit { seat: 0 });
    assert!(matches!(settled(&events)[..], [(0, 0, Outcome::Bust, _)]));
    assert_eq!(
        side_settled(&events),
        [(
            SideBet::Buster,
            Cents::units(3),
            Some(SideWin::DealerBust(5)),
            Cents::units(12)
        )]
    );
    assert_eq!(
        t.dealer().len(),
        5,
        "the dealer played the hand out for the Buster bet"
    );
    assert_eq!(t.phase(), Phase::Betting);

    // A dealer blackjack is no bust: the bet is lost at the peek.
    let mut t = table(
        side_bet_rules(Rules {
            insurance: false,
            even_money: false,
            ..plain()
        }),
        &[0],
    );
    let events = deal_with_side_bets(&mut t, &[(SideBet::Buster, 3)], "10c Kh 6d As");
    assert_eq!(
        side_settled(&events),
        [(SideBet::Buster, Cents::units(3), None, Cents::units(-3))]
    );
}

#[test]
fn a_side_bet_is_refused_where_the_table_does_not_offer_it_or_beyond_its_limit_or_the_chips() {
    let mut plain_table = table(plain(), &[0]);
    let side = |bet, units| Command::SideBet {
        seat: 0,
        bet,
        amount: Cents::units(units),
    };
    assert_eq!(
        plain_table.apply(side(SideBet::Buster, 5)),
        Err(CommandError::SideBetNotOffered {
            bet: SideBet::Buster
        })
    );
    let mut t = table(side_bet_rules(plain()), &[0, 1]);
    assert!(matches!(
        t.apply(side(SideBet::PerfectPairs, 26)),
        Err(CommandError::SideBetOverMaximum { .. })
    ));
    assert!(matches!(
        t.apply(Command::SideBet {
            seat: 0,
            bet: SideBet::PerfectPairs,
            amount: Cents(150),
        }),
        Err(CommandError::NotWholeChips { .. })
    ));
    assert!(matches!(
        t.apply(side(SideBet::PerfectPairs, -1)),
        Err(CommandError::NotPositive(_))
    ));
    assert!(matches!(
        t.apply(Command::SideBet {
            seat: 4,
            bet: SideBet::PerfectPairs,
            amount: Cents::units(1),
        }),
        Err(CommandError::SeatEmpty(4))
    ));
    // A side bet with no bet in the circle does not play: it waits on its spot, and leaves with its player.
    ok(&mut t, side(SideBet::PerfectPairs, 5));
    t.queue_exact_cards(&cards_of("10c 7h 6d 9s").expect("cards"))
        .expect("left");
    ok(
        &mut t,
        Command::Bet {
            seat: 1,
            amount: Cents::units(10),
        },
    );
    let events = ok(&mut t, Command::Deal);
    assert!(side_settled(&events).is_empty());
    assert_eq!(
        t.seats()[0].side.get(SideBet::PerfectPairs),
        Cents::units(5)
    );
    assert!(matches!(
        t.apply(side(SideBet::PerfectPairs, 1)),
        Err(CommandError::WrongPhase { .. })
    ));
}

#[test]
fn the_house_must_cover_what_the_side_bets_could_win() {
    // $25 on Lucky Ladies could win $25,000: a house of $20,000 refuses the deal, not the bet.
    let mut t = Table::new(
        side_bet_rules(plain()),
        holecard::engine::seed_from_number(3),
        Cents::units(20_000),
    )
    .expect("valid");
    ok(
        &mut t,
        Command::Join {
            seat: 0,
            buy_in: Cents::units(500),
        },
    );
    ok(
        &mut t,
        Command::SideBet {
            seat: 0,
            bet: SideBet::LuckyLadies,
            amount: Cents::units(25),
        },
    );
    ok(
        &mut t,
        Command::Bet {
            seat: 0,
            amount: Cents::units(10),
        },
    );
    assert!(matches!(
        t.apply(Command::Deal),
        Err(CommandError::HouseCannotCover { .. })
    ));
    let events = ok(&mut t, Command::Leave { seat: 0 });
    assert_eq!(
        events,
        [Event::Left {
            seat: 0,
            cash_out: Cents::units(500)
        }],
        "the spots' chips go home with the player"
    );
}
