//! AI companions: each personality bets and plays as described, only ever legally, and a full table of them plays
//! thousands of rounds with chips and cards accounted for.

mod common;

use common::*;
use holecard::engine::Rank::*;
use holecard::engine::ai::{Departure, Mind, Personality};
use holecard::engine::side::SideBet;
use holecard::engine::{
    Cents, Command, Event, Phase, SeatId, Table, TableState, Viewer, seed_from_number,
};

fn mind(personality: Personality) -> Mind {
    Mind::new(personality, &plain(), seed_from_number(5))
}

#[test]
fn the_counter_keeps_a_hi_lo_count_and_bets_with_it() {
    let mut t = table(plain(), &[0]);
    let mut counter = mind(Personality::CardCounter);
    assert_eq!(
        counter.bet(&t.view(Viewer::Seat(0)), 0),
        plain().min_bet,
        "a fresh shoe is neutral: one unit"
    );
    // Player 2 and 4, dealer 3 up and 5 in the hole; standing on 6, the dealer draws a 6 and a ten and busts.
    let events = deal(&mut t, &[(0, 10)], &[Two, Three, Four, Five, Six, Ten]);
    for event in &events {
        counter.observe(event);
    }
    // Seen so far: 2, 3, 4 (+3); the hole card is face down.
    assert_eq!(counter.running_count(), 3);
    for event in ok(&mut t, Command::Stand { seat: 0 }) {
        counter.observe(&event);
    }
    // The hole 5 (+1), then 6 (+1) and ten (−1).
    assert_eq!(counter.running_count(), 4);
    counter.observe(&Event::Shuffled { cards: 312 });
    assert_eq!(counter.running_count(), 0);
}

#[test]
fn the_counter_bets_up_when_the_true_count_is_high() {
    let t = table(plain(), &[0]);
    let mut counter = mind(Personality::CardCounter);
    let low = holecard::engine::Card::new(0, holecard::engine::Suit::Clubs, Five);
    for _ in 0..60 {
        counter.observe(&Event::Dealt {
            to: holecard::engine::Spot::Dealer,
            card: low,
        });
    }
    // +60 over six decks is a true count of 10: the top of the spread.
    assert_eq!(
        counter.bet(&t.view(Viewer::Seat(0)), 0),
        Cents(plain().min_bet.0 * 8)
    );
    assert_eq!(
        mind(Personality::ByTheBook).bet(&t.view(Viewer::Seat(0)), 0),
        plain().min_bet
    );
}

#[test]
fn the_high_roller_bets_big_and_always_insures() {
    let mut t = table(plain(), &[0, 1]);
    let mut roller = mind(Personality::HighRoller);
    assert_eq!(
        roller.bet(&t.view(Viewer::Seat(0)), 0),
        Cents(plain().min_bet.0 * 10)
    );
    deal(
        &mut t,
        &[(0, 10), (1, 10)],
        &[Ace, Nine, Ace, King, Seven, Six],
    );
    let insure = roller
        .decide(&t.view(Viewer::Seat(1)), 1)
        .expect("a decision");
    assert_eq!(
        insure.command,
        Command::TakeInsurance {
            seat: 1,
            amount: Cents::units(5)
        }
    );
    assert!(insure.remark.is_some());
    let even_money = roller
        .decide(&t.view(Viewer::Seat(0)), 0)
        .expect("a decision");
    assert_eq!(even_money.command, Command::TakeEvenMoney { seat: 0 });
}

#[test]
fn the_hunch_player_sometimes_plays_a_hunch_and_says_so() {
    let mut hunches = 0;
    let mut plays = 0;
    for seed in 0..200 {
        let mut t = table(plain(), &[0]);
        let mut hunch = Mind::new(Personality::HunchPlayer, &plain(), seed_from_number(seed));
        let book = holecard::engine::BasicStrategy::for_rules(&plain());
        deal(&mut t, &[(0, 10)], &[Ten, Nine, Six, Seven]);
        let choice = hunch
            .decide(&t.view(Viewer::Seat(0)), 0)
            .expect("a decision");
        assert!(
            t.check(choice.command).is_ok(),
            "{:?} is legal",
            choice.command
        );
        plays += 1;
        if Some(choice.command) != book.decide(&t.view(Viewer::Seat(0)), 0) {
            hunches += 1;
            assert!(choice.remark.is_some(), "a hunch is announced");
        }
    }
    // One in eight, give or take: the hunch is real but rare.
    assert!(
        (10..=45).contains(&hunches),
        "{hunches} hunches in {plays} decisions"
    );
}

#[test]
fn companions_leave_broke_or_satisfied() {
    let mut t = table(plain(), &[]);
    ok(
        &mut t,
        Command::Join {
            seat: 0,
            buy_in: Cents::units(100),
        },
    );
    let book = mind(Personality::ByTheBook);
    assert_eq!(
        book.departure(&t.view(Viewer::Seat(0)), 0, Cents::units(100)),
        None
    );
    assert_eq!(
        book.departure(&t.view(Viewer::Seat(0)), 0, Cents::units(50)),
        Some(Departure::Satisfied)
    );
    ok(
        &mut t,
        Command::Join {
            seat: 1,
            buy_in: Cents(50),
        },
    );
    assert_eq!(
        book.departure(&t.view(Viewer::Seat(1)), 1, Cents::units(100)),
        Some(Departure::Broke)
    );
}

#[test]
fn a_full_table_of_companions_plays_thousands_of_rounds() {
    let personalities = [
        Personality::ByTheBook,
        Personality::HunchPlayer,
        Personality::CardCounter,
        Personality::HighRoller,
        Personality::ByTheBook,
        Personality::HunchPlayer,
        Personality::CardCounter,
    ];
    let mut every_side_bet = plain();
    for bet in SideBet::ALL {
        every_side_bet.side_bets.offer(bet);
    }
    let mut enhc_side_bets = holecard::engine::Preset::EuropeanNoHoleCard.rules();
    enhc_side_bets.side_bets = every_side_bet.side_bets;
    for rules in [
        plain(),
        holecard::engine::Preset::EuropeanNoHoleCard.rules(),
        holecard::engine::Preset::Carnival.rules(),
        every_side_bet,
        enhc_side_bets,
    ] {
        let mut side_bets = [[0usize; 4]; 7];
        let buy_in = Cents::units(300);
        let mut t = Table::new(
            rules.clone(),
            seed_from_number(77),
            Cents::units(10_000_000),
        )
        .expect("rules");
        let mut minds: Vec<Mind> = personalities
            .iter()
            .enumerate()
            .map(|(seat, &p)| Mind::new(p, &rules, seed_from_number(1_000 + seat as u64)))
            .collect();
        let mut chips = t.chips_total();
        let mut remarks = 0;
        let mut departures = 0;
        for _ in 0..2_000 {
            for seat in 0..7u8 {
                let s = &t.seats()[usize::from(seat)];
                if !s.occupied {
                    chips += buy_in;
                    ok(&mut t, Command::Join { seat, buy_in });
                }
                let bet = minds[usize::from(seat)].bet(&t.view(Viewer::Seat(seat)), seat);
                let sides =
                    minds[usize::from(seat)].side_bets(&t.view(Viewer::Seat(seat)), seat, bet);
                ok(&mut t, Command::Bet { seat, amount: bet });
                for (bet, amount) in sides {
                    if rules.side_bets.offers(bet) {
                        ok(&mut t, Command::SideBet { seat, bet, amount });
                    } else {
                        assert_eq!(amount, Cents::ZERO, "{bet} is not offered");
                    }
                }
            }
            let mut events = ok(&mut t, Command::Deal);
            while t.phase() != Phase::Betting {
                let actor: SeatId = t.seat_to_act().expect("someone decides");
                let choice = minds[usize::from(actor)]
                    .decide(&t.view(Viewer::Seat(actor)), actor)
                    .expect("a move");
                remarks += usize::from(choice.remark.is_some());
                events.extend(ok(&mut t, choice.command));
            }
            for event in &events {
                if let Event::SideBetSettled { seat, bet, .. } = *event {
                    side_bets[usize::from(seat)][bet as usize] += 1;
                }
                for (seat, mind) in minds.iter_mut().enumerate() {
                    mind.observe(event);
                    remarks += usize::from(mind.react(event, seat as SeatId).is_some());
                }
            }
            for seat in 0..7u8 {
                if minds[usize::from(seat)]
                    .departure(&t.view(Viewer::Seat(seat)), seat, buy_in)
                    .is_some()
                {
                    let left = ok(&mut t, Command::Leave { seat });
                    if let [Event::Left { cash_out, .. }] = left[..] {
                        chips -= cash_out;
                    }
                    departures += 1;
                }
            }
            assert_eq!(t.chips_total(), chips, "chips conserved");
            assert_cards_accounted(&t);
        }
        assert!(remarks > 100, "companions speak up ({remarks})");
        assert!(departures > 0, "someone went broke or home happy");
        // Who likes which side bet: the hunch player 21+3 and Lucky Ladies, the high roller Perfect Pairs and
        // Buster; the book and the counter none.
        for (seat, &personality) in personalities.iter().enumerate() {
            let liked: &[SideBet] = match personality {
                Personality::HunchPlayer => &[SideBet::TwentyOnePlusThree, SideBet::LuckyLadies],
                Personality::HighRoller => &[SideBet::PerfectPairs, SideBet::Buster],
                _ => &[],
            };
            for bet in SideBet::ALL {
                let made = side_bets[seat][bet as usize];
                let expected = rules.side_bets.offers(bet) && liked.contains(&bet);
                assert_eq!(
                    made > 100,
                    expected,
                    "{personality:?} made {made} {bet} bets"
                );
                if !expected {
                    assert_eq!(made, 0, "{personality:?} and {bet}");
                }
            }
        }
    }
}
