//! The hand history prices the player's decisions off the chart exactly, on the cards the seat had not seen: a
//! decision that beat the chart on a rich shoe shows as such (a negative cost), where the infinite deck would have
//! charged it.

mod common;

use holecard::engine::Rank::{Ace, Five, Four, Nine, Six, Ten, Three, Two};
use holecard::engine::{Action, Cents, Command, Event, Rules, Table, TableState, Viewer};
use holecard::host::record::{Recorder, RoundRecord, decisions_text};

/// Applies `command`, hearing its events with both recorders; returns the finished rounds.
fn apply(table: &mut Table, recorders: &mut [&mut Recorder], command: Command) -> Vec<RoundRecord> {
    let events: Vec<Event> = table.apply(command).expect("a legal command");
    let mut done = Vec::new();
    for recorder in recorders.iter_mut() {
        for event in &events {
            done.extend(recorder.hear(event));
        }
    }
    done
}

/// Stacks `cards`, bets $10 in seat 0 and deals, the recorders hearing it all.
fn deal(table: &mut Table, recorders: &mut [&mut Recorder], cards: &[holecard::engine::Rank]) {
    table.queue_next_cards(cards).expect("cards available");
    let bet = Command::Bet {
        seat: 0,
        amount: Cents::units(10),
    };
    assert!(apply(table, recorders, bet).is_empty());
    assert!(apply(table, recorders, Command::Deal).is_empty());
}

#[test]
fn insurance_taken_on_a_shoe_rich_in_tens_beat_the_chart_and_a_bad_hit_costs_about_what_the_deck_says()
 {
    let rules = Rules {
        decks: 1,
        ..common::plain()
    };
    let mut table = common::table(rules, &[0]);
    let mut exact = Recorder::following(table.view(Viewer::Seat(0))).pricing_exactly(0);
    let mut deck = Recorder::following(table.view(Viewer::Seat(0)));
    // A history that keeps every seat's hands prices every seat exactly, the player's as above.
    let mut every = Recorder::following(table.view(Viewer::Spectator)).pricing_every_seat_exactly();
    // Round 1: eight small cards go by. The player's 2, 3 stand; the dealer's 4 (5 below) draws 2, 2, 3, 4 to 20.
    let mut recorders = [&mut exact, &mut deck, &mut every];
    deal(
        &mut table,
        &mut recorders,
        &[Two, Four, Three, Five, Two, Two, Three, Four],
    );
    let round = apply(&mut table, &mut recorders, Command::Stand { seat: 0 });
    assert_eq!(round.len(), 3, "every recorder kept round 1");
    // Round 2: the player's 10, 9 against an ace, a 6 below. Fifteen tens among the 41 cards unseen: insurance
    // is worth taking (15/41 > 1/3), though the chart never takes it. Then the player hits 19 (a 2: 21).
    deal(&mut table, &mut recorders, &[Ten, Ace, Nine, Six, Two, Ten]);
    apply(
        &mut table,
        &mut recorders,
        Command::TakeInsurance {
            seat: 0,
            amount: Cents::units(5),
        },
    );
    let mut rounds = apply(&mut table, &mut recorders, Command::Hit { seat: 0 });
    for _ in 0..4 {
        if table.phase() == holecard::engine::Phase::Betting {
            break;
        }
        rounds.extend(apply(
            &mut table,
            &mut recorders,
            Command::Stand { seat: 0 },
        ));
    }
    assert_eq!(rounds.len(), 3, "every recorder kept round 2");
    let decisions = |round: &RoundRecord| round.seats[0].hands[0].decisions.clone();
    let (exactly, by_deck) = (decisions(&rounds[0]), decisions(&rounds[1]));
    assert_eq!(
        decisions(&rounds[2]),
        exactly,
        "every seat priced exactly, seat 0 as above"
    );
    assert_eq!(exactly[0].action, Action::TakeInsurance);
    assert_eq!(exactly[0].book, Some(Action::DeclineInsurance));
    // $5 of insurance: $5 × (1 − 3 × 15/41) = −$0.49 exactly; the infinite deck charges $5/13 = $0.38.
    assert_eq!(exactly[0].cost, Some(Cents(-49)), "{exactly:?}");
    assert_eq!(by_deck[0].cost, Some(Cents(38)), "{by_deck:?}");
    assert!(
        decisions_text(&exactly).contains("better on this shoe by $0.49"),
        "{}",
        decisions_text(&exactly)
    );
    // Hitting 19 against an ace: off the chart either way, and dear either way.
    assert_eq!(exactly[1].action, Action::Hit);
    assert_eq!(exactly[1].book, Some(Action::Stand));
    let (exact_cost, deck_cost) = (
        exactly[1].cost.expect("priced"),
        by_deck[1].cost.expect("priced"),
    );
    assert!(
        exact_cost > Cents::units(4) && exact_cost < Cents::units(12),
        "{exact_cost}"
    );
    assert!(
        (exact_cost - deck_cost).0.abs() < 300,
        "exact {exact_cost}, infinite deck {deck_cost}"
    );
    // A kept recorder keeps pricing exactly, with the cards it watched.
    let kept = serde_json::to_string(&exact).expect("a recorder serializes");
    let back: Recorder = serde_json::from_str(&kept).expect("and reads back");
    assert_eq!(serde_json::to_string(&back).expect("again"), kept);
}
