//! The table in ECS, headless: no window, no GPU, no audio. Scripted rounds through the real plugins.
#![cfg(feature = "game")]

use bevy::prelude::*;
use holecard::engine::Rank::{self, *};
use holecard::engine::{Cents, Event, Phase, Spot};
use holecard::game::headless;
use holecard::game::screen::{RoundPhase, Screen};
use holecard::game::table::{Beats, BetCircle, CardView, Engine, HandView, Shown, Speed};
use holecard::level::{Companion, Level, Personality, RuleSource};
use std::path::Path;

/// One companion playing the book in seat 0, nobody else; no burn card so stacked cards come out as written.
fn one_seat_level() -> Level {
    let mut rules = holecard::engine::Preset::LasVegasStrip.rules();
    rules.burn_card = false;
    rules.surrender = holecard::engine::Surrender::None;
    Level {
        name: "Test".into(),
        description: String::new(),
        rules: RuleSource::Custom(rules),
        buy_in: Cents::units(1_000),
        house_bankroll: Cents::units(1_000_000),
        felt: (0, 90, 40),
        card_back: Default::default(),
        companions: vec![Companion {
            name: "Mae".into(),
            personality: Personality::ByTheBook,
            bankroll: Cents::units(1_000),
            seat: 0,
        }],
        player_seat: None,
    }
}

fn stacked_app(cards: &[Rank]) -> App {
    let mut app = headless::app(one_seat_level(), 3, Speed::Instant).expect("valid level");
    app.world_mut()
        .resource_mut::<Engine>()
        .table
        .queue_next_cards(cards)
        .expect("cards");
    app
}

/// Runs frames until `done` or a frame limit, collecting what the table showed (each event once).
fn run_until(app: &mut App, mut done: impl FnMut(&App, &[Event]) -> bool) -> Vec<Event> {
    let mut cursor = app.world().resource::<Messages<Shown>>().get_cursor();
    let mut shown = Vec::new();
    for _ in 0..2_000 {
        app.update();
        let messages = app.world().resource::<Messages<Shown>>();
        shown.extend(cursor.read(messages).map(|Shown(e)| *e));
        if done(app, &shown) {
            return shown;
        }
    }
    panic!("the table did not get there in 2,000 frames; shown: {shown:?}");
}

fn cards_on_felt(app: &mut App) -> Vec<CardView> {
    let mut q = app.world_mut().query::<&CardView>();
    let mut cards: Vec<CardView> = q.iter(app.world()).copied().collect();
    cards.sort_by_key(|c| (format!("{:?}", c.spot), c.order));
    cards
}

#[test]
fn cards_come_out_in_casino_order_with_the_hole_card_down() {
    let mut app = stacked_app(&[Ten, Six, Nine, Ten, Seven]);
    run_until(&mut app, |app, _| {
        *app.world().resource::<State<RoundPhase>>().get() == RoundPhase::PlayerTurn
    });
    let cards = cards_on_felt(&mut app);
    let player: Vec<(Rank, bool)> = cards
        .iter()
        .filter(|c| c.spot == Spot::Player { seat: 0, hand: 0 })
        .map(|c| (c.card.rank(), c.face_up))
        .collect();
    let dealer: Vec<(Rank, bool)> = cards
        .iter()
        .filter(|c| c.spot == Spot::Dealer)
        .map(|c| (c.card.rank(), c.face_up))
        .collect();
    assert_eq!(player, [(Ten, true), (Nine, true)]);
    assert_eq!(
        dealer,
        [(Six, true), (Ten, false)],
        "upcard up, hole card down"
    );
    let hands = app
        .world_mut()
        .query::<&HandView>()
        .iter(app.world())
        .count();
    assert_eq!(hands, 1);
}

#[test]
fn the_dealer_plays_only_after_every_hand_is_done_and_settlement_moves_the_chips() {
    let mut app = stacked_app(&[Ten, Six, Nine, Ten, Seven]);
    let shown = run_until(&mut app, |app, shown| {
        headless::between_rounds(app) && shown.iter().any(|e| matches!(e, Event::RoundEnded { .. }))
    });
    let last_player_move = shown
        .iter()
        .rposition(|e| matches!(e, Event::Stood { .. }))
        .expect("Mae stood");
    let hole = shown
        .iter()
        .position(|e| matches!(e, Event::HoleCardRevealed { .. }))
        .expect("hole card");
    assert!(
        hole > last_player_move,
        "the dealer's turn comes after the players'"
    );
    // 19 against 6 + 10 + 7 = 23: the dealer busts and Mae's $10 wins $10.
    assert!(
        shown
            .iter()
            .any(|e| matches!(e, Event::DealerBusted { .. }))
    );
    let engine = app.world().resource::<Engine>();
    assert_eq!(engine.table.seats()[0].bankroll, Cents::units(1_010));
    assert!(engine.chips_conserved());
}

#[test]
fn a_split_creates_a_second_hand_entity() {
    // Eights against a six: the book splits; each eight gets a ten.
    let mut app = stacked_app(&[Eight, Six, Eight, Ten, Ten, Ten, Ten]);
    run_until(&mut app, |app, shown| {
        shown.iter().any(|e| matches!(e, Event::Split { .. }))
            && app.world().resource::<Beats>().settled()
    });
    let mut hands: Vec<HandView> = app
        .world_mut()
        .query::<&HandView>()
        .iter(app.world())
        .copied()
        .collect();
    hands.sort_by_key(|h| h.hand);
    assert_eq!(
        hands,
        [HandView { seat: 0, hand: 0 }, HandView { seat: 0, hand: 1 }]
    );
    let second: Vec<Rank> = cards_on_felt(&mut app)
        .iter()
        .filter(|c| c.spot == Spot::Player { seat: 0, hand: 1 })
        .map(|c| c.card.rank())
        .collect();
    assert_eq!(
        second[0], Eight,
        "the second eight moved over to start the new hand"
    );
}

#[test]
fn insurance_is_offered_when_the_upcard_is_an_ace() {
    let mut app = stacked_app(&[Ten, Ace, Nine, Seven]);
    let declined = Event::Acted {
        seat: 0,
        hand: 0,
        action: holecard::engine::Action::DeclineInsurance,
    };
    let (mut engine_phase_at_offer, mut round_phase_at_answer) = (None, None);
    let shown = run_until(&mut app, |app, shown| {
        if engine_phase_at_offer.is_none() && shown.contains(&Event::InsuranceOffered) {
            engine_phase_at_offer = Some(app.world().resource::<Engine>().table.phase());
        }
        if round_phase_at_answer.is_none() && shown.contains(&declined) {
            round_phase_at_answer = Some(*app.world().resource::<State<RoundPhase>>().get());
        }
        shown
            .iter()
            .any(|e| matches!(e, Event::DealerChecked { .. }))
    });
    let offer = shown
        .iter()
        .position(|e| *e == Event::InsuranceOffered)
        .expect("offered");
    let answer = shown
        .iter()
        .position(|e| *e == declined)
        .expect("the book declines insurance");
    assert!(offer < answer);
    assert_eq!(engine_phase_at_offer, Some(Phase::Insurance));
    assert_eq!(round_phase_at_answer, Some(RoundPhase::PlayerTurn));
}

#[test]
fn bets_show_in_the_circles() {
    let mut app = stacked_app(&[Ten, Six, Nine, Ten, Seven]);
    run_until(&mut app, |_, shown| {
        shown.iter().any(|e| matches!(e, Event::BetSet { .. }))
    });
    let circles: Vec<(u8, Cents)> = app
        .world_mut()
        .query::<&BetCircle>()
        .iter(app.world())
        .map(|c| (c.seat, c.amount))
        .collect();
    assert!(circles.contains(&(0, Cents::units(10))), "{circles:?}");
}

#[test]
fn closing_the_table_despawns_its_entities() {
    let mut app = stacked_app(&[Ten, Six, Nine, Ten, Seven]);
    run_until(&mut app, |app, _| {
        *app.world().resource::<State<RoundPhase>>().get() == RoundPhase::PlayerTurn
    });
    assert!(!cards_on_felt(&mut app).is_empty());
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Title);
    app.update();
    app.update();
    assert!(cards_on_felt(&mut app).is_empty());
    assert_eq!(
        app.world_mut()
            .query::<&BetCircle>()
            .iter(app.world())
            .count(),
        0
    );
    assert_eq!(
        app.world_mut()
            .query::<&HandView>()
            .iter(app.world())
            .count(),
        0
    );
}

#[test]
fn every_level_soaks_with_seven_ai_seats() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels");
    for entry in std::fs::read_dir(dir).expect("levels/") {
        let path = entry.expect("entry").path();
        let mut level = Level::load(&path).expect("level");
        // Fill every seat with an AI: the level's companions plus regulars of each personality.
        level.player_seat = None;
        let personalities = [
            Personality::ByTheBook,
            Personality::HunchPlayer,
            Personality::CardCounter,
        ];
        for seat in 0..7u8 {
            if !level.companions.iter().any(|c| c.seat == seat) {
                level.companions.push(Companion {
                    name: format!("Regular {seat}"),
                    personality: personalities[usize::from(seat) % 3],
                    bankroll: Cents::units(500),
                    seat,
                });
            }
        }
        let report = headless::run(level, 7, 300).expect("runs");
        assert!(report.rounds >= 300, "{}: {report:?}", path.display());
        assert!(report.chips_conserved, "{}: {report:?}", path.display());
        assert!(report.cards_accounted, "{}: {report:?}", path.display());
    }
}

#[test]
fn a_no_hole_card_table_shows_the_dealers_turn() {
    let mut level = one_seat_level();
    let mut rules = holecard::engine::Preset::EuropeanNoHoleCard.rules();
    rules.burn_card = false;
    level.rules = RuleSource::Custom(rules);
    let mut app = headless::app(level, 3, Speed::Instant).expect("valid level");
    // 19 against a six; the dealer's second card (a ten) comes after the player stands, then a seven: bust.
    app.world_mut()
        .resource_mut::<Engine>()
        .table
        .queue_next_cards(&[Ten, Six, Nine, Ten, Seven])
        .expect("cards");
    let mut phases = Vec::new();
    let shown = run_until(&mut app, |app, shown| {
        let phase = *app.world().resource::<State<RoundPhase>>().get();
        if phases.last() != Some(&phase) {
            phases.push(phase);
        }
        shown.iter().any(|e| matches!(e, Event::RoundEnded { .. }))
    });
    assert!(
        shown
            .iter()
            .any(|e| matches!(e, Event::DealerBusted { .. }))
    );
    let dealer_turn = phases
        .iter()
        .position(|p| *p == RoundPhase::DealerTurn)
        .expect("the dealer's turn is shown");
    let player_turn = phases
        .iter()
        .position(|p| *p == RoundPhase::PlayerTurn)
        .expect("the player's turn");
    assert!(player_turn < dealer_turn, "{phases:?}");
}
