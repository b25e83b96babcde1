//! The table in ECS, headless: no window, no GPU, no audio. Scripted rounds through the real plugins.
#![cfg(feature = "game")]

mod common;

use common::one_seat_level;

use bevy::prelude::*;
use holecard::engine::Rank::{self, *};
use holecard::engine::{Cents, Event, Phase, Spot, TableState, Viewer};
use holecard::game::keep::preferences::Preferences;
use holecard::game::keep::sitting::{self, Sitting};
use holecard::game::local::table::HostedTable;
use holecard::game::model::frames::{AskForFrames, DrawsAsAsked, Redraw};
use holecard::game::model::player::{BetSlip, Intent, PlayOptions};
use holecard::game::model::screen::{RoundPhase, Screen};
use holecard::game::model::seen::Seen;
use holecard::game::model::session::Session;
use holecard::game::model::table::{
    Bankroll, Beats, BetCircle, CardView, DealerTray, HandView, Occupants, Settlement, Shown, Speed,
};
use holecard::game::platform::headless;
use holecard::host::level::{Companion, Level, Personality, RuleSource};
use std::path::Path;

fn stacked_app(cards: &[Rank]) -> App {
    stacked(one_seat_level(), true, cards)
}

/// `level` seeded with 3, at instant speed, with `cards` on top of the shoe.
fn stacked(level: Level, autoplay: bool, cards: &[Rank]) -> App {
    let mut app = headless::app_with(level, 3, Speed::Instant, autoplay).expect("valid level");
    app.world_mut()
        .resource_mut::<HostedTable>()
        .queue_next_cards(cards)
        .expect("cards");
    app
}

/// Runs frames until `done` or a frame limit, collecting what the table showed (each event once).
fn run_until(app: &mut App, mut done: impl FnMut(&App, &[Event]) -> bool) -> Vec<Event> {
    let mut cursor = app.world().resource::<Messages<Shown>>().get_cursor();
    let mut shown = Vec::new();
    for _ in 0..20_000 {
        app.update();
        let messages = app.world().resource::<Messages<Shown>>();
        shown.extend(cursor.read(messages).map(|Shown(e)| *e));
        if done(app, &shown) {
            return shown;
        }
    }
    panic!("the table did not get there in 20,000 frames; shown: {shown:?}");
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
    let player: Vec<Option<Rank>> = cards
        .iter()
        .filter(|c| c.spot == Spot::Player { seat: 0, hand: 0 })
        .map(|c| c.card.map(|card| card.rank()))
        .collect();
    let dealer: Vec<Option<Rank>> = cards
        .iter()
        .filter(|c| c.spot == Spot::Dealer)
        .map(|c| c.card.map(|card| card.rank()))
        .collect();
    assert_eq!(player, [Some(Ten), Some(Nine)]);
    assert_eq!(
        dealer,
        [Some(Six), None],
        "upcard up, hole card down with no face on the felt"
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
    let engine = app.world().resource::<HostedTable>();
    assert_eq!(engine.seats()[0].bankroll, Cents::units(1_010));
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
        .filter_map(|c| c.card.map(|card| card.rank()))
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
            engine_phase_at_offer = Some(app.world().resource::<HostedTable>().phase());
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

/// 2,000 rounds of a level with an AI in each of the seven seats, at instant speed.
fn soaks_with_seven_ai_seats(path: &Path) {
    let level = Level::load(path).expect("level");
    let filled = headless::seven_ai_seats(level.clone());
    let seated = filled.companions.len() + usize::from(filled.player_seat.is_some());
    assert_eq!(seated, 7, "{}", path.display());
    // `run` seats an AI in every seat.
    let report = headless::run(level, 7, 2_000, false).expect("runs");
    assert!(report.passed(), "{}: {report:?}", path.display());
    assert!(report.rounds >= 2_000, "{}: {report:?}", path.display());
    assert!(report.chips_conserved, "{}: {report:?}", path.display());
    assert!(report.cards_accounted, "{}: {report:?}", path.display());
}

per_level_tests! { soaks_with_seven_ai_seats;
    atlantic_city_soaks_with_seven_ai_seats: "atlantic-city.ron",
    break_the_bank_soaks_with_seven_ai_seats: "break-the-bank.ron",
    carnival_six_five_soaks_with_seven_ai_seats: "carnival-six-five.ron",
    double_deck_custom_soaks_with_seven_ai_seats: "double-deck-custom.ron",
    downtown_single_deck_soaks_with_seven_ai_seats: "downtown-single-deck.ron",
    european_no_hole_card_soaks_with_seven_ai_seats: "european-no-hole-card.ron",
    las_vegas_strip_soaks_with_seven_ai_seats: "las-vegas-strip.ron",
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
        .resource_mut::<HostedTable>()
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

/// The one-seat level with the player sitting in seat 3 and playing by hand.
fn human_app(cards: &[Rank]) -> App {
    let mut level = one_seat_level();
    level.player_seat = Some(3);
    stacked(level, false, cards)
}

fn intend(app: &mut App, intent: Intent) {
    app.world_mut().write_message(intent);
    app.update();
}

/// Lets the table settle, puts a $25 chip down and deals, and lets the deal finish.
fn bet_25_and_deal(app: &mut App) {
    settle(app);
    intend(app, Intent::Chip(Cents::units(25)));
    intend(app, Intent::Deal);
    settle(app);
}

fn refusal(app: &App) -> Option<String> {
    app.world().resource::<BetSlip>().refusal.clone()
}

fn settle(app: &mut App) {
    for _ in 0..200 {
        app.update();
    }
}

#[test]
fn the_deal_waits_for_the_players_bet_and_bets_are_checked_not_clamped() {
    let mut level = one_seat_level();
    level.player_seat = Some(3);
    level.buy_in = Cents::units(8_000);
    let mut app = headless::app_with(level, 3, Speed::Instant, false).expect("valid level");
    settle(&mut app);
    assert_eq!(
        app.world().resource::<HostedTable>().round(),
        0,
        "no deal without the player"
    );
    let chip = |units| Intent::Chip(Cents::units(units));
    let total = |app: &App| app.world().resource::<BetSlip>().total();
    intend(&mut app, chip(25));
    intend(&mut app, chip(5));
    intend(&mut app, chip(5));
    assert_eq!(total(&app), Cents::units(35));
    intend(&mut app, Intent::Undo);
    assert_eq!(total(&app), Cents::units(30));
    intend(&mut app, Intent::Clear);
    // Over the $5,000 table maximum: refused with a message, the bet unchanged.
    intend(&mut app, chip(5_000));
    intend(&mut app, chip(1));
    assert_eq!(total(&app), Cents::units(5_000));
    let message = refusal(&app).expect("over the maximum");
    assert!(message.contains("maximum is $5,000"), "{message}");
    // Beyond the bankroll: 2 × $5,000 is within no limit the player can pay.
    intend(&mut app, Intent::DoubleBet);
    assert_eq!(total(&app), Cents::units(5_000));
    assert!(refusal(&app).is_some());
    intend(&mut app, Intent::Clear);
    assert_eq!(refusal(&app), None);
    intend(&mut app, chip(5));
    intend(&mut app, Intent::Deal);
    let message = refusal(&app).expect("under the minimum");
    assert!(message.contains("minimum of $10"), "{message}");
    assert_eq!(app.world().resource::<HostedTable>().round(), 0);
    intend(&mut app, Intent::DoubleBet);
    intend(&mut app, chip(5));
    assert_eq!(total(&app), Cents::units(15));
    intend(&mut app, Intent::Deal);
    assert_eq!(refusal(&app), None);
    let engine = app.world().resource::<HostedTable>();
    assert_eq!(engine.round(), 1);
    let mine: Vec<Cents> = engine.seat_hands(3).map(|h| h.wager).collect();
    assert_eq!(mine, [Cents::units(15)]);
    // Next round, Rebet puts the same bet back.
    settle(&mut app);
    intend(&mut app, Intent::Play(holecard::engine::Action::Stand));
    run_until(&mut app, |app, _| {
        headless::between_rounds(app) && app.world().resource::<HostedTable>().round() == 1
    });
    intend(&mut app, Intent::Rebet);
    assert_eq!(total(&app), Cents::units(15));
}

#[test]
fn a_move_asked_for_after_the_turn_has_passed_is_dropped_not_played_next_round() {
    // Mae (seat 0) stands on 19; the player (seat 3) has 16 and hits a ten: bust, and the turn is gone. A second
    // Hit sent while that is still being shown (the keys follow the table as shown) must not wait for the next turn.
    let mut app = human_app(&[Ten, Ten, Nine, Nine, Six, Ten, Ten]);
    bet_25_and_deal(&mut app);
    assert_eq!(app.world().resource::<HostedTable>().seat_to_act(), Some(3));
    intend(&mut app, Intent::Play(holecard::engine::Action::Hit));
    assert_ne!(
        app.world().resource::<HostedTable>().seat_to_act(),
        Some(3),
        "the bust ended the player's turn in the engine"
    );
    intend(&mut app, Intent::Play(holecard::engine::Action::Hit));
    run_until(&mut app, |app, _| headless::between_rounds(app));
    // Next round Mae has a blackjack, so the player (12 against a 7) is the first to act; nothing is played for them.
    app.world_mut()
        .resource_mut::<HostedTable>()
        .queue_next_cards(&[Ace, Ten, Seven, Ten, Two, Ten])
        .expect("cards");
    intend(&mut app, Intent::Chip(Cents::units(25)));
    intend(&mut app, Intent::Deal);
    settle(&mut app);
    let engine = app.world().resource::<HostedTable>();
    assert_eq!(engine.round(), 2);
    assert_eq!(engine.seat_to_act(), Some(3));
    let cards: Vec<usize> = engine.seat_hands(3).map(|h| h.cards.len()).collect();
    assert_eq!(cards, [2], "the old Hit was not played at the new turn");
}

#[test]
fn the_player_plays_by_intents_and_the_chips_follow_the_engine() {
    // Mae (seat 0) gets 10, 9; the player (seat 3) gets 10, 6; the dealer shows a 9 over a 10 (19).
    // The player hits a 5: 21, which stands by itself; Mae stands; the player's 21 beats the dealer's 19.
    let mut app = human_app(&[Ten, Ten, Nine, Nine, Six, Ten, Five]);
    bet_25_and_deal(&mut app);
    assert_eq!(
        app.world().resource::<HostedTable>().seat_to_act(),
        Some(3),
        "Mae stood; the player is to act"
    );
    // Asked for twice: applied once.
    app.world_mut()
        .write_message(Intent::Play(holecard::engine::Action::Hit));
    app.world_mut()
        .write_message(Intent::Play(holecard::engine::Action::Hit));
    let shown = run_until(&mut app, |app, shown| {
        headless::between_rounds(app) && shown.iter().any(|e| matches!(e, Event::RoundEnded { .. }))
    });
    let hits = shown
        .iter()
        .filter(|e| {
            matches!(
                e,
                Event::Acted {
                    seat: 3,
                    action: holecard::engine::Action::Hit,
                    ..
                }
            )
        })
        .count();
    assert_eq!(hits, 1, "one hit, though asked twice");
    assert!(
        shown.iter().any(|e| matches!(
            e,
            Event::Acted {
                seat: 3,
                action: holecard::engine::Action::Stand,
                ..
            }
        )),
        "auto-stand on 21"
    );
    let engine = app.world().resource::<HostedTable>();
    assert_eq!(engine.seats()[3].bankroll, Cents::units(1_025), "won $25");
    assert!(headless::chips_shown(&mut app), "piles match the books");
    let settled: Vec<(HandView, Settlement)> = app
        .world_mut()
        .query::<(&HandView, &Settlement)>()
        .iter(app.world())
        .map(|(h, s)| (*h, *s))
        .collect();
    assert!(
        settled.contains(&(
            HandView { seat: 3, hand: 0 },
            Settlement {
                outcome: holecard::engine::Outcome::Win,
                net: Cents::units(25)
            }
        )),
        "{settled:?}"
    );
}

#[test]
fn settlement_moves_the_right_chips_between_circle_bankroll_and_tray() {
    // Mae doubles 11 against a 6 and wins: $20 leaves the tray; the circle shows $20 while the hand is out.
    let mut app = stacked_app(&[Six, Six, Five, Ten, Ten, Ten]);
    let house = app.world().resource::<HostedTable>().house();
    let mut circle_at_double = None;
    let mut outcome = None;
    run_until(&mut app, |app, shown| {
        let world = app.world();
        if circle_at_double.is_none() && shown.iter().any(|e| matches!(e, Event::Doubled { .. })) {
            circle_at_double = world
                .try_query::<&BetCircle>()
                .and_then(|mut q| q.iter(world).find(|c| c.seat == 0).map(|c| c.amount));
        }
        if outcome.is_none() && shown.iter().any(|e| matches!(e, Event::Settled { .. })) {
            outcome = world
                .try_query::<&Settlement>()
                .and_then(|mut q| q.iter(world).next().copied());
        }
        shown.iter().any(|e| matches!(e, Event::RoundEnded { .. }))
    });
    assert_eq!(circle_at_double, Some(Cents::units(20)));
    let settlement = outcome.expect("a settled hand entity");
    assert_eq!(settlement.outcome, holecard::engine::Outcome::Win);
    assert_eq!(settlement.net, Cents::units(20));
    let world = app.world_mut();
    let tray = world
        .query::<&DealerTray>()
        .single(world)
        .expect("one tray")
        .amount;
    assert_eq!(tray, house - Cents::units(20));
    let mae = world
        .query::<&Bankroll>()
        .iter(world)
        .find(|b| b.seat == 0)
        .expect("seat 0")
        .amount;
    assert_eq!(mae, Cents::units(1_020));
}

#[test]
fn a_companion_who_leaves_is_replaced_by_someone_else_in_time() {
    // A high roller with a thin bankroll goes broke quickly; the seat stands empty, then a new face sits down.
    let mut level = one_seat_level();
    level.companions.push(Companion {
        name: "Big Tony".into(),
        personality: Personality::HighRoller,
        bankroll: Cents::units(100),
        seat: 1,
    });
    let mut app = headless::app(level, 11, Speed::Instant).expect("valid level");
    // The round log as the game writes it: each event in words, from the names as the felt shows them.
    #[derive(Resource, Default)]
    struct Told(Vec<String>);
    app.init_resource::<Told>().add_systems(
        Update,
        (|mut shown: MessageReader<Shown>, occupants: Res<Occupants>, mut told: ResMut<Told>| {
            for Shown(event) in shown.read() {
                told.0
                    .extend(holecard::game::model::table::narrate(event, &occupants));
            }
        })
        .after(holecard::game::model::screen::RoundSet::Present),
    );
    let shown = run_until(&mut app, |_, shown| {
        let left = shown
            .iter()
            .position(|e| matches!(e, Event::Left { seat: 1, .. }));
        left.is_some_and(|at| {
            shown[at..]
                .iter()
                .any(|e| matches!(e, Event::Joined { seat: 1, .. }))
        })
    });
    let left = shown
        .iter()
        .position(|e| matches!(e, Event::Left { .. }))
        .expect("left");
    let rounds_between = shown[left..]
        .iter()
        .filter(|e| matches!(e, Event::RoundStarted { .. }))
        .count();
    assert!(
        rounds_between >= 1,
        "the seat stays empty for a round at least"
    );
    let told = &app.world().resource::<Told>().0;
    assert!(
        told.iter()
            .any(|l| l.starts_with("Big Tony leaves the table with")),
        "the log names who left: {:?}",
        told.iter()
            .filter(|l| l.contains("leaves"))
            .collect::<Vec<_>>()
    );
    let newcomer = app.world().resource::<Occupants>().seats[1].clone();
    assert!(
        newcomer
            .as_deref()
            .is_some_and(|n| n != "Big Tony" && n != "Mae"),
        "{newcomer:?}"
    );
}

#[test]
fn leaving_and_coming_back_opens_a_fresh_table() {
    let mut app = stacked_app(&[Ten, Six, Nine, Ten, Seven]);
    run_until(&mut app, |app, _| {
        app.world().resource::<HostedTable>().round() >= 2 && headless::between_rounds(app)
    });
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Title);
    app.update();
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Table);
    app.update();
    let engine = app.world().resource::<HostedTable>();
    assert_eq!(engine.round(), 0);
    assert!(engine.commands().len() <= 2, "only the new sitting's joins");
    let shoe = *engine.view(Viewer::Spectator).shoe();
    assert_eq!(
        (shoe.remaining, shoe.discarded),
        (u32::from(shoe.decks) * 52, 0),
        "a fresh shoe"
    );
    assert_eq!(app.world().resource::<Session>().visits, 2);
    let seated = app
        .world()
        .resource::<Occupants>()
        .seats
        .iter()
        .flatten()
        .count();
    assert_eq!(seated, 1, "Mae, once");
    let circles = app
        .world_mut()
        .query::<&BetCircle>()
        .iter(app.world())
        .count();
    assert_eq!(circles, 7, "one set of table entities");
    run_until(&mut app, |app, _| {
        app.world().resource::<HostedTable>().round() >= 1 && headless::between_rounds(app)
    });
    assert!(headless::chips_shown(&mut app));
}

#[test]
fn the_command_log_replays_the_sitting() {
    let mut level = one_seat_level();
    level.player_seat = Some(3);
    let mut app = headless::app(level, 5, Speed::Instant).expect("valid level");
    run_until(&mut app, |app, _| {
        app.world().resource::<HostedTable>().round() >= 40 && headless::between_rounds(app)
    });
    let engine = app.world().resource::<HostedTable>();
    assert!(engine.commands().len() > 100);
    assert!(engine.replays());
}

#[test]
fn auto_stand_can_be_turned_off() {
    let mut app = human_app(&[Ten, Ten, Nine, Nine, Six, Ten, Five]);
    app.world_mut().resource_mut::<PlayOptions>().auto_stand_21 = false;
    settle(&mut app);
    intend(&mut app, Intent::Chip(Cents::units(25)));
    intend(&mut app, Intent::Deal);
    settle(&mut app);
    intend(&mut app, Intent::Play(holecard::engine::Action::Hit));
    settle(&mut app);
    let engine = app.world().resource::<HostedTable>();
    assert_eq!(engine.seat_to_act(), Some(3), "21 waits for the player");
    assert!(engine.allows(3, holecard::engine::Action::Stand));
}

#[test]
fn a_sitting_saved_mid_round_resumes_where_it_stopped() {
    let mut app = human_app(&[Ten, Ten, Nine, Nine, Six, Ten, Five]);
    settle(&mut app);
    intend(&mut app, Intent::Chip(Cents::units(25)));
    intend(&mut app, Intent::Deal);
    settle(&mut app);
    let world = app.world();
    let sitting = Sitting::capture(
        world.resource::<Session>(),
        world.resource::<HostedTable>(),
        0,
        None,
    )
    .expect("captured");
    assert_eq!(
        sitting.player_chips(),
        Cents::units(1_000),
        "$975 + $25 on the felt"
    );
    // Through the file format, as the game writes it.
    let text = ron::ser::to_string(&sitting).expect("serialises");
    let back = sitting::parse(Path::new("sitting.ron"), &text).expect("reads back");
    let mut resumed = headless::app_restoring(back, Speed::Instant).expect("restores");
    settle(&mut resumed);
    assert!(
        headless::cards_accounted(&mut resumed),
        "the cards on the felt are back"
    );
    assert_eq!(
        *resumed.world().resource::<State<RoundPhase>>().get(),
        RoundPhase::PlayerTurn
    );
    let circle = resumed
        .world_mut()
        .query::<&BetCircle>()
        .iter(resumed.world())
        .find(|c| c.seat == 3)
        .map(|c| c.amount);
    assert_eq!(circle, Some(Cents::units(25)));
    intend(&mut resumed, Intent::Play(holecard::engine::Action::Hit));
    // The card drawn is any unseen one: a hand still short of 21 stands when its turn comes back.
    let mut cursor = resumed.world().resource::<Messages<Shown>>().get_cursor();
    let mut ended = false;
    for _ in 0..20_000 {
        resumed.update();
        let messages = resumed.world().resource::<Messages<Shown>>();
        ended |= cursor
            .read(messages)
            .any(|Shown(e)| matches!(e, Event::RoundEnded { .. }));
        if ended && headless::between_rounds(&resumed) {
            break;
        }
        let waiting = resumed.world().resource::<HostedTable>().seat_to_act() == Some(3);
        if waiting
            && resumed
                .world()
                .resource::<holecard::game::model::table::Beats>()
                .settled()
        {
            resumed
                .world_mut()
                .write_message(Intent::Play(holecard::engine::Action::Stand));
        }
    }
    assert!(ended, "the resumed round ended");
    // The save was sealed and the table resumed with a fresh generator: the hole card and the card the player drew
    // are any unseen cards, so the round ends in a win, a push or a loss of the $25.
    let engine = resumed.world().resource::<HostedTable>();
    let bankroll = engine.seats()[3].bankroll;
    assert!(
        [975, 1_000, 1_025].map(Cents::units).contains(&bankroll),
        "{bankroll}"
    );
    assert!(engine.chips_conserved());
    assert!(headless::chips_shown(&mut resumed));
}

#[test]
fn a_damaged_save_is_refused_with_where_it_went_wrong() {
    let error = sitting::parse(
        Path::new("sitting.ron"),
        "(session: (level: (name: \"X\",\n  rules: Preset(Nope))))",
    )
    .expect_err("damaged");
    assert!(error.starts_with("sitting.ron:2:"), "{error}");
}

#[test]
fn the_player_can_move_to_an_empty_seat_between_rounds() {
    let mut app = human_app(&[Ten, Ten, Nine, Nine, Six, Ten, Five]);
    settle(&mut app);
    intend(&mut app, Intent::SitAt(0));
    assert!(refusal(&app).is_some(), "Mae sits there");
    intend(&mut app, Intent::SitAt(5));
    settle(&mut app);
    assert_eq!(app.world().resource::<Session>().player_seat, Some(5));
    let engine = app.world().resource::<HostedTable>();
    assert!(!engine.seats()[3].occupied);
    assert_eq!(engine.seats()[5].bankroll, Cents::units(1_000));
    assert!(engine.chips_conserved());
    intend(&mut app, Intent::Chip(Cents::units(10)));
    intend(&mut app, Intent::Deal);
    assert_eq!(app.world().resource::<HostedTable>().round(), 1);
    assert_eq!(
        app.world().resource::<HostedTable>().seat_hands(5).count(),
        1
    );
}

#[test]
fn settings_read_back_and_a_mistake_names_its_line() {
    let path = Path::new("settings.ron");
    let prefs = Preferences::parse(path, "(speed: Fast, auto_stand_21: false)").expect("valid");
    assert_eq!(prefs.speed, Speed::Fast);
    assert!(!prefs.auto_stand_21);
    assert_eq!(
        Preferences::parse(path, "()").expect("all defaults"),
        Preferences::default()
    );
    let error = Preferences::parse(path, "(\n  speed: Warp,\n)").expect_err("no such speed");
    assert!(error.starts_with("settings.ron:2:"), "{error}");
}

/// The browser test (web/test/browser.mjs) opens the default table with `?seed=7`, clicks the $25 chip and Deal, and
/// stands whenever it is the player's turn; it then checks the round log the game printed in the console against
/// tests/fixtures/seed-7-first-round.txt. This plays the same intents natively and checks the same file: the same
/// seed and the same clicks give the same cards in both. `HOLECARD_BLESS=1` rewrites the file.
#[test]
fn the_browser_tests_round_is_the_same_hand_history_natively() {
    let level = Level::load_or_default(None).expect("the default level");
    let me = level.player_seat.expect("the player sits");
    let mut app = headless::app_with(level, 7, Speed::Instant, false).expect("valid level");
    let mut cursor = app.world().resource::<Messages<Shown>>().get_cursor();
    let mut lines = Vec::new();
    let mut ended = false;
    let mut record = |app: &App, lines: &mut Vec<String>| {
        let occupants = app.world().resource::<Occupants>();
        let messages = app.world().resource::<Messages<Shown>>();
        for Shown(event) in cursor.read(messages) {
            lines.extend(holecard::game::model::table::narrate(event, occupants));
            ended |= matches!(event, Event::RoundEnded { .. });
        }
        ended
    };
    for _ in 0..50 {
        app.update();
        record(&app, &mut lines);
    }
    intend(&mut app, Intent::Chip(Cents::units(25)));
    intend(&mut app, Intent::Deal);
    record(&app, &mut lines);
    assert_eq!(refusal(&app), None);
    let mut frames = 0;
    while !record(&app, &mut lines) && frames < 20_000 {
        let table = app.world().resource::<HostedTable>();
        if table.round() == 1 && table.seat_to_act() == Some(me) {
            let legal = table.legal_actions(me);
            assert!(
                legal.contains(holecard::engine::Action::Stand),
                "the browser test only stands: {legal:?}"
            );
            app.world_mut()
                .write_message(Intent::Play(holecard::engine::Action::Stand));
        }
        app.update();
        frames += 1;
    }
    let first_round: Vec<&str> = lines
        .iter()
        .map(String::as_str)
        .skip_while(|l| *l != "— Round 1 —")
        .collect();
    assert!(first_round.len() > 10, "round 1 was not played: {lines:?}");
    let text = first_round.join("\n") + "\n";
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/seed-7-first-round.txt");
    if std::env::var_os("HOLECARD_BLESS").is_some() {
        std::fs::create_dir_all(fixture.parent().expect("a folder")).expect("the fixtures folder");
        std::fs::write(&fixture, &text).expect("write the fixture");
    }
    let expected = std::fs::read_to_string(&fixture).expect("the fixture");
    assert_eq!(text, expected, "the hand history of seed 7 changed");
}

#[test]
fn a_chip_put_down_while_the_round_is_still_being_shown_waits_for_the_next_round() {
    let mut app = human_app(&[Ten, Ten, Nine, Nine, Six, Ten, Five]);
    settle(&mut app);
    intend(&mut app, Intent::Chip(Cents::units(25)));
    intend(&mut app, Intent::Deal);
    // The dealer has dealt; the felt is still showing the bets go down, and the round phase is still Betting.
    assert_eq!(
        *app.world().resource::<State<RoundPhase>>().get(),
        RoundPhase::Betting
    );
    intend(&mut app, Intent::Chip(Cents::units(25)));
    let slip = app.world().resource::<BetSlip>();
    assert!(slip.in_play);
    assert!(slip.chips.is_empty(), "the chip is not taken: {slip:?}");
    intend(&mut app, Intent::Deal);
    assert_eq!(refusal(&app).as_deref(), Some("The dealer is still busy."));
    settle(&mut app);
    intend(&mut app, Intent::Play(holecard::engine::Action::Stand));
    run_until(&mut app, |app, shown| {
        headless::between_rounds(app) && shown.iter().any(|e| matches!(e, Event::RoundEnded { .. }))
    });
    app.update();
    intend(&mut app, Intent::Chip(Cents::units(25)));
    let slip = app.world().resource::<BetSlip>();
    assert!(!slip.in_play, "the round has been shown to its end");
    assert_eq!(slip.chips, [Cents::units(25)]);
}

/// `holecard --headless --autoplay --rounds N` twice, then `--export-history`: the second run sits back down where
/// the first stopped, and the export lists every round played, none missing and none twice, with nets that add up to
/// the bankroll's change.
#[test]
fn a_headless_sitting_continues_and_its_history_exports_every_round() {
    let data = std::env::temp_dir().join(format!("holecard-sitting-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_holecard"))
            .args(args)
            .env("HOLECARD_DATA_DIR", &data)
            .output()
            .expect("holecard runs");
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(
            out.status.success(),
            "{args:?}: {text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        text
    };
    let first: serde_json::Value = serde_json::from_str(&run(&[
        "--headless",
        "--autoplay",
        "--rounds",
        "30",
        "--seed",
        "7",
    ]))
    .expect("a JSON line");
    assert_eq!(
        (first["resumed"].as_bool(), first["round"].as_u64()),
        (Some(false), Some(30))
    );
    let second: serde_json::Value = serde_json::from_str(&run(&[
        "--headless",
        "--autoplay",
        "--rounds",
        "25",
        "--seed",
        "7",
    ]))
    .expect("a JSON line");
    assert_eq!(
        (second["resumed"].as_bool(), second["round"].as_u64()),
        (Some(true), Some(55))
    );
    let csv = data.join("hands.csv");
    run(&["--export-history", csv.to_str().expect("a path")]);
    let (rounds, won, last_bankroll) = exported(&csv);
    assert_eq!(
        rounds,
        (1..=55).collect::<Vec<u64>>(),
        "every round once, in order"
    );
    assert_eq!(
        100_000 + won,
        last_bankroll,
        "the nets are the bankroll's change"
    );
    assert_eq!(second["bankroll"].as_i64(), Some(last_bankroll));
    let _ = std::fs::remove_dir_all(&data);
}

/// An exported history (CSV): the rounds in order (each once per run of hands), what the hands won in cents (with
/// insurance), and the bankroll after the last.
fn exported(csv: &Path) -> (Vec<u64>, i64, i64) {
    let text = std::fs::read_to_string(csv).expect("the export");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("a header").split(',').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).expect(name);
    let (round, net, insurance, bankroll) = (
        column("round"),
        column("net"),
        column("insurance"),
        column("bankroll"),
    );
    let cents = |s: &str| (s.parse::<f64>().expect("an amount") * 100.0).round() as i64;
    let mut rounds = Vec::new();
    let mut won = 0;
    let mut last_bankroll = 0;
    let hand = column("hand");
    let mut seen = std::collections::HashSet::new();
    for line in lines {
        // The decisions column is quoted ("hit, stand"): split on commas outside quotes.
        let mut fields = Vec::new();
        let (mut field, mut quoted) = (String::new(), false);
        for c in line.chars() {
            match c {
                '"' => quoted = !quoted,
                ',' if !quoted => fields.push(std::mem::take(&mut field)),
                _ => field.push(c),
            }
        }
        fields.push(field);
        let r: u64 = fields[round].parse().expect("a round");
        assert!(
            seen.insert((r, fields[hand].clone())),
            "round {r} hand {} is in the history twice",
            fields[hand]
        );
        if rounds.last() != Some(&r) {
            rounds.push(r);
        }
        won += cents(&fields[net]) + cents(&fields[insurance]);
        last_bankroll = cents(&fields[bankroll]);
    }
    (rounds, won, last_bankroll)
}

/// The Title asks for the kept sitting as a page does (the model's `OpenTable`), naming no driver; the game's own
/// table answers by opening on it, mid-round where it stopped. With nothing kept, or a round that cannot be dealt
/// again, it says why and the Title stays.
#[test]
fn the_title_opens_the_kept_sitting_or_says_why_not() {
    use holecard::game::keep::slot::Saved;
    use holecard::game::model::seat::{OpenRefused, OpenTable, Replayed};
    use holecard::host::history::PlayedHand;
    let mut app = human_app(&[Ten, Ten, Nine, Nine, Six, Ten, Five]);
    bet_25_and_deal(&mut app);
    let world = app.world();
    let sitting = Sitting::capture(
        world.resource::<Session>(),
        world.resource::<HostedTable>(),
        0,
        None,
    )
    .expect("captured");
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Title);
    settle(&mut app);
    let screen = |app: &App| *app.world().resource::<State<Screen>>().get();
    assert_eq!(screen(&app), Screen::Title);

    // Nothing kept: refused in words, and the Title stays.
    app.world_mut().insert_resource(OpenTable::Resume);
    settle(&mut app);
    assert_eq!(screen(&app), Screen::Title);
    assert_eq!(
        app.world().resource::<OpenRefused>().0.as_deref(),
        Some("Cannot resume: there is no sitting to resume")
    );
    // A round from a table that is not here cannot be dealt again.
    let stranger = PlayedHand {
        table: "Nowhere Casino".into(),
        rules: "6D S17".into(),
        round: 9,
        seat: 3,
        hand: 0,
        split: false,
        cards: Vec::new(),
        decisions: Vec::new(),
        dealer: Vec::new(),
        outcome: holecard::engine::Outcome::Lose,
        wager: Cents::units(25),
        net: Cents::units(-25),
        insurance: Cents::ZERO,
        side_bets: Vec::new(),
        bankroll: Cents::units(975),
        at_ms: 0,
        deal: Vec::new(),
        yours: true,
        expected: None,
    };
    app.world_mut()
        .insert_resource(OpenTable::Replay(Replayed::Own(vec![stranger])));
    settle(&mut app);
    assert_eq!(screen(&app), Screen::Title);
    let refused = app
        .world()
        .resource::<OpenRefused>()
        .0
        .clone()
        .unwrap_or_default();
    assert_eq!(
        refused,
        "Cannot replay round 9: the table \"Nowhere Casino\" is not among the tables here"
    );

    // The kept sitting: the table opens on it, the round where it stopped, the bet on the felt.
    app.world_mut().insert_resource(Saved {
        sitting: Some(sitting),
        problem: None,
    });
    app.world_mut().insert_resource(OpenTable::Resume);
    settle(&mut app);
    assert_eq!(screen(&app), Screen::Table);
    assert!(app.world().resource::<OpenRefused>().0.is_none());
    assert_eq!(
        *app.world().resource::<State<RoundPhase>>().get(),
        RoundPhase::PlayerTurn
    );
    let circle = app
        .world_mut()
        .query::<&BetCircle>()
        .iter(app.world())
        .find(|c| c.seat == 3)
        .map(|c| c.amount);
    assert_eq!(circle, Some(Cents::units(25)));
}

/// The headless sitting run (the player's seat played by its AI and kept like a person's) killed with SIGKILL at 30
/// random moments: each restart resumes at the last command the journal had accepted — the entry synced last, or the
/// one being written when the kill came if it got whole to the disk — with the same chips and the same view from the
/// seat; afterwards the history has every round once and its nets are the bankroll's change.
#[test]
#[cfg(unix)]
fn a_sitting_killed_at_30_random_moments_resumes_at_its_last_accepted_command() {
    use std::io::BufRead;
    let data = std::env::temp_dir().join(format!("holecard-kills-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    std::fs::create_dir_all(&data).expect("a folder");
    // The Strip's table with a bankroll the autoplayed seat cannot lose in these runs: at $1,000 it could go broke
    // after a few thousand rounds (how many the runs play is the machine's speed), then sit out the rounds after, and
    // the history would rightly skip them. Every round is the player's here, so a gap is a lost round.
    let buy_in = 100_000_000;
    let strip = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/las-vegas-strip.ron"),
    )
    .expect("the Strip's level");
    assert!(
        strip.contains("buy_in: 100000,"),
        "the Strip buys in at $1,000"
    );
    let level = data.join("deep-pockets.ron");
    std::fs::write(
        &level,
        strip.replace("buy_in: 100000,", &format!("buy_in: {buy_in},")),
    )
    .expect("the level is written");
    let start = |rounds: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_holecard"))
            .args(["--headless", "--autoplay", "--trace-journal", "--seed", "7"])
            .arg("--level")
            .arg(&level)
            .args(["--rounds", rounds])
            .env("HOLECARD_DATA_DIR", &data)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("holecard runs")
    };
    // Moments from a fixed seed, so a failure can be run again: from before the first entry to well into a run.
    let mut dice = 0x9E37_79B9_7F4A_7C15u64;
    let mut roll = |below: u64| {
        dice ^= dice << 13;
        dice ^= dice >> 7;
        dice ^= dice << 17;
        dice % below
    };
    // Where a restart may resume: the last synced entry, or the last one begun (none before the first entry).
    let mut may_resume: Vec<Option<String>> = vec![None];
    let (mut resumed_mid_round, mut entries) = (0, 0);
    for kill in 0..30 {
        let mut child = start("100000");
        let stdout = child.stdout.take().expect("stdout");
        let reader = std::thread::spawn(move || {
            std::io::BufReader::new(stdout)
                .lines()
                .map_while(Result::ok)
                .collect::<Vec<String>>()
        });
        std::thread::sleep(std::time::Duration::from_millis(150 + roll(1_500)));
        child.kill().expect("killed");
        child.wait().expect("gone");
        let lines = reader.join().expect("read");
        let resumed = lines
            .iter()
            .find_map(|l| l.strip_prefix("resumed ").map(str::to_string));
        assert!(
            may_resume.contains(&resumed),
            "kill {kill}: resumed at {resumed:?}, but the journal had accepted {may_resume:?}"
        );
        resumed_mid_round += usize::from(
            resumed
                .as_ref()
                .is_some_and(|at| at.contains("mid_round=true")),
        );
        let (mut synced, mut begun) = (None, None);
        for line in &lines {
            if let Some(at) = line.strip_prefix("journal ") {
                begun = Some(at.to_string());
                entries += 1;
            } else if let Some(at) = line.strip_prefix("synced ") {
                assert_eq!(
                    Some(at),
                    begun.as_deref(),
                    "kill {kill}: synced what was begun"
                );
                synced = Some(at.to_string());
            }
        }
        may_resume = match begun {
            Some(begun) => vec![synced.or(resumed), Some(begun)],
            None => vec![resumed],
        };
    }
    assert!(entries > 300, "the runs journaled {entries} entries");
    assert!(
        resumed_mid_round >= 5,
        "{resumed_mid_round} of the restarts resumed mid-round"
    );
    // A last run to its end, then the history: every round once, the nets the bankroll's change.
    let finished = start("3").wait_with_output().expect("runs");
    assert!(finished.status.success());
    let text = String::from_utf8_lossy(&finished.stdout).to_string();
    let report: serde_json::Value =
        serde_json::from_str(text.lines().last().expect("a JSON line")).expect("the report");
    let csv = data.join("hands.csv");
    let export = std::process::Command::new(env!("CARGO_BIN_EXE_holecard"))
        .args(["--export-history", csv.to_str().expect("a path")])
        .env("HOLECARD_DATA_DIR", &data)
        .output()
        .expect("exports");
    assert!(export.status.success());
    let (rounds, won, last_bankroll) = exported(&csv);
    let round = report["round"].as_u64().expect("a round");
    assert_eq!(
        rounds,
        (1..=round).collect::<Vec<u64>>(),
        "every round once, in order, through the kills"
    );
    assert_eq!(
        buy_in + won,
        last_bankroll,
        "the nets are the bankroll's change"
    );
    assert_eq!(report["bankroll"].as_i64(), Some(last_bankroll));
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn a_match_played_until_broke_ends_saying_who_went_broke() {
    use holecard::game::model::player::GameOver;
    use holecard::host::level::Broke;
    let level = Level {
        buy_in: Cents::units(1),
        ..Level::built_in(Path::new("break-the-bank"))
            .expect("built in")
            .expect("valid")
    };
    // After the burned card: the player's 10 and 6 against the dealer's 10 and 9. Standing loses the only dollar.
    let mut app = stacked(level, false, &[Two, Ten, Ten, Six, Nine]);
    settle(&mut app);
    intend(&mut app, Intent::Chip(Cents::units(1)));
    intend(&mut app, Intent::Deal);
    settle(&mut app);
    assert!(
        app.world().get_resource::<GameOver>().is_none(),
        "not before the round ends"
    );
    intend(&mut app, Intent::Play(holecard::engine::Action::Stand));
    settle(&mut app);
    assert_eq!(
        app.world().get_resource::<GameOver>().copied(),
        Some(GameOver(Broke::Player))
    );
    // Nothing more is bet or bought: the round count stays, the seat stays empty-handed.
    let round = app.world().resource::<HostedTable>().round();
    intend(&mut app, Intent::Rebuy);
    intend(&mut app, Intent::Chip(Cents::units(1)));
    intend(&mut app, Intent::Deal);
    settle(&mut app);
    let engine = app.world().resource::<HostedTable>();
    assert_eq!(engine.round(), round);
    assert_eq!(engine.seats()[3].chips(), Cents::ZERO);
}

#[test]
fn a_kept_round_replays_on_the_felt_as_it_was_and_keeps_nothing() {
    use holecard::game::keep::history::Kept;
    use holecard::game::model::seat::{OpenTable, Replay, Replayed};
    let level = Level::load_or_default(None).expect("the default level");
    let mut app = headless::app_with(level, 11, Speed::Instant, true).expect("the app");
    // Rounds with the player's seat played by the book, until one with a split or a double is kept.
    let eventful = |app: &App| {
        holecard::host::replay::rounds(&app.world().resource::<Kept>().history.hands).find(
            |round| {
                round.len() > 1
                    || round[0]
                        .decisions
                        .iter()
                        .any(|d| d.action == holecard::engine::Action::Double)
            },
        )
    };
    for _ in 0..20_000 {
        if eventful(&app).is_some() && headless::between_rounds(&app) {
            break;
        }
        app.update();
    }
    let round = eventful(&app).expect("a split or a double within the frames");
    let kept = app.world().resource::<Kept>().history.hands.len();
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Title);
    app.update();
    // Asked for as the hand history's Replay button asks: the game's own table opens on it.
    app.world_mut()
        .insert_resource(OpenTable::Replay(Replayed::Own(round.clone())));
    let shown = run_until(&mut app, |app, _| {
        let world = app.world();
        world.get_resource::<Replay>().is_some_and(|r| {
            r.done(
                world.resource::<holecard::game::model::table::SeatView>(),
                world.resource::<Beats>(),
            )
        })
    });
    // The felt showed the kept round again: the same cards to the seat, the same outcomes and nets.
    let seat = round[0].seat;
    let dealt: Vec<(u8, Rank)> = shown
        .iter()
        .filter_map(|e| match *e {
            Event::Dealt {
                to: Spot::Player { seat: s, hand },
                card,
            } if s == seat => Some((hand, card.rank())),
            _ => None,
        })
        .collect();
    let kept_cards: usize = round.iter().map(|h| h.cards.len()).sum();
    // A split moves a card instead of dealing it: the dealt cards are the hands' cards less one a split.
    assert_eq!(dealt.len(), kept_cards - (round.len() - 1), "{dealt:?}");
    let settled: Vec<(holecard::engine::Outcome, Cents)> = shown
        .iter()
        .filter_map(|e| match *e {
            Event::Settled {
                seat: s,
                outcome,
                net,
                ..
            } if s == seat => Some((outcome, net)),
            _ => None,
        })
        .collect();
    let expected: Vec<(holecard::engine::Outcome, Cents)> =
        round.iter().map(|h| (h.outcome, h.net)).collect();
    assert_eq!(settled, expected);
    // Nothing of the replay is kept: the history is as it was, and the table waits, nobody betting for the seat.
    assert_eq!(app.world().resource::<Kept>().history.hands.len(), kept);
    settle(&mut app);
    assert_eq!(app.world().resource::<HostedTable>().round(), 1);
}

/// The advisor at the table: off by default; on, it answers the player's decision off the frame ("thinking…" first)
/// with each legal play's exact value on the cards the seat has not seen, the same as the engine asked directly from
/// the seat's view; the hand in turn changes, so does the question; off again, it says nothing.
#[test]
fn the_advisor_values_the_players_decision_from_what_the_seat_sees() {
    use holecard::engine::exact;
    use holecard::game::model::advisor::{Advisor, Counsel};
    use holecard::game::model::table::SeatView;
    // Mae (seat 0) gets 10, 9; the player (seat 3) 8, 8; the dealer shows a 6 (a 10 below).
    let mut app = human_app(&[Ten, Eight, Six, Nine, Eight, Ten, Three, Two]);
    assert!(
        !app.world().resource::<PlayOptions>().advisor,
        "off by default"
    );
    bet_25_and_deal(&mut app);
    assert_eq!(app.world().resource::<HostedTable>().seat_to_act(), Some(3));
    assert_eq!(app.world().resource::<Advisor>().counsel(), Counsel::Quiet);
    app.world_mut().resource_mut::<PlayOptions>().advisor = true;
    // The question runs on another thread: frames go on meanwhile (this build leaves the game's own code
    // unoptimised, so it takes a while).
    let started = std::time::Instant::now();
    let mut frames = 0;
    loop {
        app.update();
        frames += 1;
        std::thread::sleep(std::time::Duration::from_millis(2));
        let counsel = app.world().resource::<Advisor>().counsel();
        if let Counsel::Ready(decision, advice) = counsel {
            let view = &app.world().resource::<SeatView>().0;
            let asked = exact::decision(view, app.world().resource::<Seen>().tray())
                .expect("the player's decision");
            assert_eq!(decision, &asked);
            assert_eq!(asked.question.hand, vec![8, 8]);
            assert_eq!(asked.question.up, 6);
            // Mae's 10 and 9, both 8s and the 6 are out of the unseen cards; the hole card is not.
            let full = exact::full_shoe(6);
            assert_eq!(
                asked.question.unseen[9],
                full[9] - 1,
                "Mae's ten is seen, the hole card is not"
            );
            assert_eq!(asked.question.unseen[7], full[7] - 2);
            let values = exact::evaluate(&asked.question).expect("an answer");
            assert_eq!(advice, &exact::advise(&asked, &values));
            assert_eq!(
                advice.best,
                holecard::engine::Action::Split,
                "8,8 against a 6 splits"
            );
            let split = advice
                .plays
                .iter()
                .find(|p| p.action == advice.best)
                .expect("split");
            assert_eq!(
                split.amount,
                Cents((values.split.expect("split").cdp * 2_500.0).round() as i64)
            );
            break;
        }
        assert!(
            started.elapsed().as_secs() < 60,
            "no advice after {frames} frames: {counsel:?}"
        );
    }
    // Split: the first 8 takes a 3, and the question is now that hand's.
    intend(&mut app, Intent::Play(holecard::engine::Action::Split));
    settle(&mut app);
    let started = std::time::Instant::now();
    while matches!(
        app.world().resource::<Advisor>().counsel(),
        Counsel::Thinking
    ) && started.elapsed().as_secs() < 60
    {
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let decision = match app.world().resource::<Advisor>().counsel() {
        Counsel::Ready(decision, _) => decision.clone(),
        other => panic!("no advice on the split hand: {other:?}"),
    };
    assert_eq!(decision.question.hand, vec![8, 3]);
    assert!(decision.question.split_hand);
    app.world_mut().resource_mut::<PlayOptions>().advisor = false;
    app.update();
    assert_eq!(app.world().resource::<Advisor>().counsel(), Counsel::Quiet);
}

/// The browser's way, natively: with one thread the advisor answers in three slices a frame apart (the dealer's
/// endings listed, the dealer's odds, the player's values), thinking in between, and says the same as the engine
/// asked at once.
#[test]
fn the_advisor_answers_in_two_slices_where_there_is_one_thread() {
    use holecard::engine::exact;
    use holecard::game::model::advisor::{Advisor, Counsel};
    use holecard::game::model::table::SeatView;
    let mut app = human_app(&[Ten, Eight, Six, Nine, Eight, Ten, Three, Two]);
    app.world_mut().resource_mut::<Advisor>().sliced = true;
    bet_25_and_deal(&mut app);
    app.world_mut().resource_mut::<PlayOptions>().advisor = true;
    app.update();
    assert_eq!(
        app.world().resource::<Advisor>().counsel(),
        Counsel::Thinking,
        "asked, not yet sliced"
    );
    for slice in 1..=2 {
        app.update();
        assert_eq!(
            app.world().resource::<Advisor>().counsel(),
            Counsel::Thinking,
            "slice {slice} done"
        );
    }
    app.update();
    let advisor = app.world().resource::<Advisor>();
    let Counsel::Ready(decision, advice) = advisor.counsel() else {
        panic!("no answer after the third slice: {:?}", advisor.counsel());
    };
    let asked = exact::decision(
        &app.world().resource::<SeatView>().0,
        app.world().resource::<Seen>().tray(),
    )
    .expect("a decision");
    assert_eq!(decision, &asked);
    let values = exact::evaluate(&asked.question).expect("an answer");
    assert_eq!(advice, &exact::advise(&asked, &values));
}

/// The count Settings can show beside the shoe is read off what the seat has seen (`Seen`): over several
/// rounds of a seven-seat table it equals a Hi-Lo count kept card by card from every card the table showed, and
/// starts again at a shuffle.
#[test]
fn the_count_beside_the_shoe_is_every_card_the_seat_saw_since_the_shuffle() {
    use holecard::engine::count::{Count, hi_lo, reading};
    let level = Level::load_or_default(None).expect("the default level");
    let mut app = headless::app_with(level, 11, Speed::Instant, true).expect("valid level");
    let mut cursor = app.world().resource::<Messages<Shown>>().get_cursor();
    let mut by_card = Count::new(hi_lo(), 6);
    let mut rounds = 0;
    let mut compared = 0;
    for _ in 0..3000 {
        app.update();
        let messages = app.world().resource::<Messages<Shown>>();
        for Shown(event) in cursor.read(messages) {
            match *event {
                Event::Shuffled { .. } => by_card.shuffle(),
                Event::Dealt { card, .. } | Event::HoleCardRevealed { card } => by_card.see(card),
                Event::RoundEnded { .. } => rounds += 1,
                Event::DiscardsShuffledIn { .. } => panic!("a six-deck shoe never runs dry"),
                _ => {}
            }
        }
        let tray = app.world().resource::<Seen>().tray().seen();
        let Some(view) = app
            .world()
            .get_resource::<holecard::game::model::table::SeatView>()
        else {
            continue;
        };
        let shoe = view.0.shoe();
        let shown = reading(hi_lo(), shoe.decks, &tray, shoe.discarded, shoe.remaining);
        assert_eq!(shown.running, by_card.running(), "after {rounds} rounds");
        compared += 1;
        if rounds >= 12 {
            break;
        }
    }
    assert!(rounds >= 12 && compared > 0, "{rounds} rounds");
    assert!(by_card.seen() > 40);
}

/// With the count hidden and the quiz on, the table asks for the count once the cut card is out and the table waits
/// for bets, with the count of every card the seat saw since the shuffle; the shuffle ends the question. With the
/// count shown it never asks.
#[test]
fn the_table_asks_for_the_count_when_the_cut_card_is_out_and_forgets_it_at_the_shuffle() {
    use holecard::engine::count::{Count, hi_lo};
    use holecard::game::model::practice::ShuffleQuiz;
    for shown in [false, true] {
        let level = Level::load_or_default(None).expect("the default level");
        let mut app = headless::app_with(level, 5, Speed::Instant, true).expect("valid level");
        {
            let mut options = app.world_mut().resource_mut::<PlayOptions>();
            options.count_quiz = true;
            options.show_count = shown;
        }
        let mut cursor = app.world().resource::<Messages<Shown>>().get_cursor();
        let mut by_card = Count::new(hi_lo(), 6);
        let (mut asked, mut shuffles, mut forgotten) = (0, 0, 0);
        let mut was_asked = false;
        for _ in 0..40_000 {
            app.update();
            let messages = app.world().resource::<Messages<Shown>>();
            for Shown(event) in cursor.read(messages) {
                match *event {
                    Event::Shuffled { .. } => {
                        by_card.shuffle();
                        shuffles += 1;
                    }
                    Event::Dealt { card, .. } | Event::HoleCardRevealed { card } => {
                        by_card.see(card)
                    }
                    _ => {}
                }
            }
            let quiz = app.world().resource::<ShuffleQuiz>();
            match (was_asked, quiz.asked) {
                (false, Some(count)) => {
                    asked += 1;
                    assert_eq!(
                        count,
                        by_card.running(),
                        "the count asked for is the seat's"
                    );
                    let view = app
                        .world()
                        .resource::<holecard::game::model::table::SeatView>();
                    assert!(
                        view.0.shoe().cut_card_out,
                        "asked before the cut card came out"
                    );
                    assert!(quiz.showing());
                }
                (true, None) => forgotten += 1,
                _ => {}
            }
            was_asked = quiz.asked.is_some();
            if shuffles >= 3 {
                break;
            }
        }
        assert!(shuffles >= 3, "{shuffles} shuffles");
        if shown {
            assert_eq!(asked, 0, "with the count shown the table never asks");
        } else {
            // The first shuffle is the shoe's first; each later one follows a cut card, and the question before
            // it was forgotten at it.
            assert_eq!(
                (asked, forgotten),
                (2, 2),
                "asked at each cut card, forgotten at each shuffle"
            );
        }
    }
}

/// Practice's flash cards for the table: the deck is worked out off the frame, a card is dealt, the chart's play is
/// right and another play is wrong and costs what the exact values say, and the record keeps both in the card's cell
/// and files the sitting's score when the drill is left.
#[test]
fn practice_deals_flash_cards_from_the_tables_chart_and_keeps_the_answers() {
    use holecard::engine::command::Action;
    use holecard::game::model::practice::Practice;
    let level = Level::load_or_default(None).expect("the default level");
    let rules = level.rules.rules();
    let mut app = headless::app_with(level, 3, Speed::Instant, false).expect("valid level");
    app.world_mut().resource_mut::<Practice>().open(&rules, 3);
    for _ in 0..2000 {
        app.update();
        if !app.world().resource::<Practice>().dealing() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let mut practice = app.world_mut().resource_mut::<Practice>();
    assert!(!practice.dealing(), "the deck is worked out");
    let first = practice.flash.question.clone().expect("a card is dealt");
    let answer = practice.answer_flash(first.answer).expect("answered");
    assert!(answer.right && answer.cost == 0.0);
    assert!(
        practice.answer_flash(first.answer).is_none(),
        "a card is answered once"
    );
    practice.next_flash();
    let second = practice.flash.question.clone().expect("another card");
    let wrong = second
        .offered()
        .find(|&a| a != second.answer)
        .unwrap_or(Action::Stand);
    let answer = practice.answer_flash(wrong).expect("answered");
    assert!(!answer.right);
    assert!((answer.cost - second.cost(wrong)).abs() < 1e-12);
    let (right, asked, _) = practice.flash_score();
    assert_eq!((right, asked), (1, 2));
    let cell = practice
        .record
        .cell(second.row(), second.up)
        .expect("the wrong answer's cell is kept");
    assert!(cell.wrong >= 1);
    practice.finish_flash_session();
    let session = practice
        .record
        .sessions
        .last()
        .expect("the sitting is filed");
    assert_eq!((session.right, session.asked), (1, 2));
    assert!(practice.unsaved, "and the record is to be written");
}

/// Waits (frames on, the engine on another thread) until the advisor has answered the decision on the felt.
fn until_advised(app: &mut App) {
    use holecard::game::model::advisor::{Advisor, Counsel};
    let started = std::time::Instant::now();
    while !matches!(
        app.world().resource::<Advisor>().counsel(),
        Counsel::Ready(..)
    ) {
        assert!(
            started.elapsed().as_secs() < 60,
            "no advice: {:?}",
            app.world().resource::<Advisor>().counsel()
        );
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}

/// The player's choice through the coach at `ms` milliseconds of the app's real time, as the keys and the buttons
/// make it.
fn coach_choice(
    app: &mut App,
    action: holecard::engine::Action,
    ms: u64,
) -> Option<holecard::engine::Action> {
    use holecard::game::model::coach::{self, Coach};
    let world = app.world_mut();
    world.resource_scope(|world, mut coach: Mut<Coach>| {
        let view = &world.resource::<holecard::game::model::table::SeatView>().0;
        coach::coached(
            &mut coach,
            world.resource::<PlayOptions>(),
            world.resource::<holecard::game::model::strategy::StrategyBook>(),
            world.resource::<Seen>(),
            view,
            3,
            action,
            std::time::Duration::from_millis(ms),
        )
    })
}

/// The coach: off by default, every choice goes through. On, a play on the chart goes through; one off it is
/// stopped once, with a line naming the chart's play and what the choice costs on this shoe by the advisor's exact
/// values (the advisor works for the coach even when it is not shown); chosen again, it goes to the table.
#[test]
fn the_coach_stops_a_play_off_the_chart_once_and_prices_it() {
    use holecard::engine::Action::{Split, Stand};
    use holecard::game::model::advisor::{Advisor, Counsel};
    use holecard::game::model::coach::{self, Book, Coach, Source};
    // Mae (seat 0) gets 10, 9; the player (seat 3) 8, 8; the dealer shows a 6 (a 10 below).
    let mut app = human_app(&[Ten, Eight, Six, Nine, Eight, Ten, Three, Two, Ten, Ten]);
    assert!(
        !app.world().resource::<PlayOptions>().coach,
        "off by default"
    );
    bet_25_and_deal(&mut app);
    assert_eq!(
        coach_choice(&mut app, Stand, 0),
        Some(Stand),
        "the coach is off"
    );
    app.world_mut().resource_mut::<PlayOptions>().coach = true;
    assert_eq!(
        coach_choice(&mut app, Split, 0),
        Some(Split),
        "on the chart"
    );
    assert_eq!(
        coach_choice(&mut app, Stand, 1000),
        None,
        "off the chart: stopped"
    );
    // Two quick taps: the second, and a tap on the stop's own buttons in its first moment, do not pass it.
    assert_eq!(
        coach_choice(&mut app, Stand, 1100),
        None,
        "a second tap at once"
    );
    app.world_mut()
        .resource_mut::<Coach>()
        .choose_again(std::time::Duration::from_millis(1200));
    assert_eq!(app.world().resource::<Coach>().kept, 0);
    assert_eq!(app.world().resource::<Coach>().changed, 0);
    // Seen: drawn over three frames from 1.3 s on, it answers from 1.9 s.
    for ms in [1300, 1316, 1332] {
        app.world_mut()
            .resource_mut::<Coach>()
            .shown(std::time::Duration::from_millis(ms));
    }
    assert_eq!(
        coach_choice(&mut app, Stand, 1800),
        None,
        "read for less than 0.6 s"
    );
    let stop = app.world().resource::<Coach>().stop.expect("a stop");
    assert_eq!(stop.chosen, Stand);
    assert_eq!(
        stop.book,
        Book {
            play: Split,
            source: Source::Chart
        }
    );
    until_advised(&mut app);
    assert!(
        !app.world().resource::<PlayOptions>().advisor,
        "the advisor works for the coach without being shown"
    );
    let advisor = app.world().resource::<Advisor>();
    let Counsel::Ready(_, advice) = advisor.counsel() else {
        unreachable!()
    };
    let amount = |action| {
        advice
            .plays
            .iter()
            .find(|p| p.action == action)
            .map(|p| p.amount)
            .expect("priced")
    };
    let cost = Cents(amount(Split).0 - amount(Stand).0);
    assert!(cost > Cents::ZERO, "standing on 8,8 against a 6 costs");
    let view = &app
        .world()
        .resource::<holecard::game::model::table::SeatView>()
        .0;
    let hand = coach::hand_words(view, 3).expect("the player's hand");
    assert_eq!(hand, "8,8 against a 6");
    assert_eq!(
        coach::line(&stop, advisor, &hand),
        format!("The chart plays split on 8,8 against a 6; stand costs {cost} on this shoe.")
    );
    // Kept: the same play again goes through, once stopped is enough.
    assert_eq!(coach_choice(&mut app, Stand, 1950), Some(Stand));
    assert_eq!(app.world().resource::<Coach>().kept, 1);
    assert_eq!(
        coach_choice(&mut app, Stand, 2000),
        Some(Stand),
        "stopped once only"
    );
    intend(&mut app, Intent::Play(Stand));
    settle(&mut app);
    assert_eq!(app.world().resource::<Coach>().stop, None);
}

/// With the count, the coach's book is the counter's: 12 against a 3 hits by the chart and stands from a true count
/// of +2 (Schlesinger's 6-deck S17 index, as in tests/strategy_computed.rs), and the stop says it is the index play.
#[test]
fn with_the_count_the_coach_holds_the_player_to_the_index_play() {
    use holecard::engine::Action::{Hit, Stand};
    use holecard::engine::counter::Deviations;
    use holecard::engine::exact::indices::Index;
    use holecard::game::model::coach::{self, Book, Coach, Source};
    // The player gets 10, 2 against a 3.
    let mut app = human_app(&[Ten, Ten, Three, Nine, Two, Ten, Five, Five, Five, Five]);
    bet_25_and_deal(&mut app);
    let deviations = Deviations::of(&Index::published_6d_s17_das());
    let view = &app
        .world()
        .resource::<holecard::game::model::table::SeatView>()
        .0;
    assert_eq!(
        coach::book_play(view, 3, Some((&deviations, 1))),
        Some(Book {
            play: Hit,
            source: Source::Chart
        })
    );
    let book = coach::book_play(view, 3, Some((&deviations, 2)));
    assert_eq!(
        book,
        Some(Book {
            play: Stand,
            source: Source::Index(2)
        })
    );
    let mut coach = Coach::default();
    let at = std::time::Duration::from_secs;
    assert_eq!(coach.choose(Stand, view, 3, book, at(1)), Some(Stand));
    assert_eq!(coach.choose(Hit, view, 3, book, at(1)), None);
    let stop = coach.stop.expect("stopped");
    assert!(
        coach::line(&stop, &Default::default(), "hard 12 against a 3")
            .starts_with("At true count +2, the index play is stand on hard 12 against a 3")
    );
    // Choose again: whatever comes next goes through.
    for _ in 0..3 {
        coach.shown(at(1));
    }
    coach.choose_again(at(2));
    assert_eq!(coach.choose(Hit, view, 3, book, at(2)), Some(Hit));
    assert_eq!(coach.changed, 1);
}

/// The coach with the count on asks the Strategy book for this table's index plays (and not its chart, which the
/// coach does not use: the table plays by the printed one); with either off, nothing is asked.
#[test]
fn the_coach_with_the_count_asks_for_the_tables_index_plays_alone() {
    use holecard::game::model::strategy::{Indices, StrategyBook};
    let mut app = human_app(&[Ten, Ten, Three, Nine, Two, Ten, Five, Five, Five, Five]);
    settle(&mut app);
    app.world_mut().resource_mut::<PlayOptions>().coach = true;
    app.update();
    assert!(matches!(
        app.world().resource::<StrategyBook>().indices(),
        Indices::Unasked
    ));
    app.world_mut().resource_mut::<PlayOptions>().show_count = true;
    app.update();
    let book = app.world().resource::<StrategyBook>();
    assert!(matches!(
        book.indices(),
        Indices::Working(_) | Indices::Done(_)
    ));
    assert!(book.chart().is_none() && !book.working_on_chart());
}

/// One copy of the game keeps its things in a data folder: a second copy started on it while the first plays keeps
/// nothing — its headless sitting run, whose whole point is keeping, stops at once and says why, before any of its
/// rounds could go into the first copy's journal — and a copy started after the first is gone (killed, so nothing
/// of its own let go of the lock) takes the folder again.
#[test]
fn a_second_copy_on_a_data_folder_keeps_nothing_while_the_first_plays() {
    use std::io::BufRead;
    let data = std::env::temp_dir().join(format!("holecard-two-copies-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    std::fs::create_dir_all(&data).expect("a folder");
    let run = |rounds: &str| {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_holecard"));
        command
            .args(["--headless", "--autoplay", "--trace-journal", "--seed", "7"])
            .args(["--rounds", rounds])
            .env("HOLECARD_DATA_DIR", &data)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        command
    };
    let mut first = run("1000000").spawn().expect("holecard runs");
    let mut lines = std::io::BufReader::new(first.stdout.take().expect("stdout")).lines();
    // Bounded: the first copy journals within its first rounds.
    let journaling = lines
        .by_ref()
        .take(10_000)
        .map_while(Result::ok)
        .any(|line| line.starts_with("synced "));
    assert!(journaling, "the first copy journals");
    let second = run("3").output().expect("the second copy runs");
    let said = String::from_utf8_lossy(&second.stderr);
    assert!(!second.status.success(), "the second copy stops: {said}");
    assert!(said.contains("Another copy of Holecard"), "{said}");
    assert!(said.contains(&data.display().to_string()), "{said}");
    assert!(
        !String::from_utf8_lossy(&second.stdout).contains("journal "),
        "the second copy journaled nothing"
    );
    first.kill().expect("killed");
    first.wait().expect("gone");
    drop(lines);
    let third = run("2").output().expect("the third copy runs");
    assert!(
        third.status.success(),
        "{}",
        String::from_utf8_lossy(&third.stderr)
    );
    let _ = std::fs::remove_dir_all(&data);
}

/// What each frame asked of the window (model::frames), in order, from now on.
#[derive(Resource, Default)]
struct Asked(Vec<Redraw>);

fn record_what_frames_ask(app: &mut App) {
    // As a window does: the frames' conditions run only where something reads them.
    app.init_resource::<DrawsAsAsked>();
    app.init_resource::<Asked>().add_systems(
        Last,
        (|mut redraw: ResMut<Redraw>, mut asked: ResMut<Asked>| {
            asked.0.push(std::mem::take(&mut *redraw));
        })
        .after(AskForFrames),
    );
}

fn asked_since(app: &mut App, from: usize) -> Vec<Redraw> {
    app.world().resource::<Asked>().0[from..].to_vec()
}

fn all_asked(asked: &[Redraw], redraw: Redraw, what: &str) {
    assert!(
        !asked.is_empty() && asked.iter().all(|&r| r == redraw),
        "{what}: {asked:?}"
    );
}

/// The table asks for frames while it shows what it decided or plays on its own, and for none while it waits for the
/// player: a phone's window then draws nothing until the player does something.
#[test]
fn the_table_asks_for_frames_only_while_something_happens() {
    let mut app = human_app(&[Ten, Six, Nine, Ten, Seven]);
    record_what_frames_ask(&mut app);
    settle(&mut app);
    all_asked(
        &asked_since(&mut app, 150),
        Redraw::WhenTouched,
        "waiting for the bet",
    );
    let from = app.world().resource::<Asked>().0.len();
    intend(&mut app, Intent::Chip(Cents::units(25)));
    intend(&mut app, Intent::Deal);
    settle(&mut app);
    assert_eq!(
        *app.world().resource::<State<RoundPhase>>().get(),
        RoundPhase::PlayerTurn
    );
    let dealt = asked_since(&mut app, from);
    let moving = dealt
        .iter()
        .take_while(|&&r| r == Redraw::EveryFrame)
        .count();
    // The chip, the deal (five cards, one event a frame at least) and the turn to act.
    assert!(moving >= 6, "the deal asked for {moving} frames: {dealt:?}");
    all_asked(&dealt[moving..], Redraw::WhenTouched, "the player's turn");

    // The player's seat on autoplay: the table plays on its own, and asks for every frame.
    let mut app = stacked_app(&[Ten, Six, Nine, Ten, Seven]);
    record_what_frames_ask(&mut app);
    settle(&mut app);
    all_asked(
        &asked_since(&mut app, 0),
        Redraw::EveryFrame,
        "an autoplayed table",
    );
}

/// The next round's value worked out in pieces (the browser's way) asks for every frame until it is in — a window
/// waiting for the player draws a frame only every few seconds, and the pieces would take minutes — and then for
/// none.
#[test]
fn the_next_round_in_pieces_asks_for_every_frame_until_it_is_in() {
    use holecard::game::model::next_round::NextRound;
    let mut app = human_app(&[Ten, Six, Nine, Ten, Seven]);
    app.world_mut().resource_mut::<NextRound>().sliced = true;
    app.world_mut().resource_mut::<PlayOptions>().advisor = true;
    record_what_frames_ask(&mut app);
    let mut frames = 0;
    while app.world().resource::<NextRound>().value().is_none() {
        assert!(frames < 20_000, "no value in {frames} frames");
        app.update();
        frames += 1;
    }
    // Up to the frame that took the value in (which, done, asks for none).
    let asked = asked_since(&mut app, 0);
    let working = asked.len().min(40);
    all_asked(
        &asked[asked.len() - working..asked.len() - 1],
        Redraw::EveryFrame,
        "working the next round out",
    );
    let from = asked.len();
    for _ in 0..5 {
        app.update();
    }
    all_asked(
        &asked_since(&mut app, from)[2..],
        Redraw::WhenTouched,
        "the next round's value in, waiting for the bet",
    );
}

/// With the table's clock stopped (the pause menu), messages still go after two frames: a message that stayed would
/// ask for a frame after every frame, and the paused window would draw at full speed.
#[test]
fn a_paused_table_lets_its_messages_go_and_waits() {
    let mut app = human_app(&[Ten, Six, Nine, Ten, Seven]);
    record_what_frames_ask(&mut app);
    settle(&mut app);
    app.world_mut().resource_mut::<Time<Virtual>>().pause();
    // A chip put down while paused (the HUD's buttons stay live under the menu).
    app.world_mut().write_message(Intent::Chip(Cents::units(5)));
    let from = app.world().resource::<Asked>().0.len();
    for _ in 0..5 {
        app.update();
    }
    assert!(app.world().resource::<Messages<Intent>>().is_empty());
    let asked = asked_since(&mut app, from);
    all_asked(&asked[3..], Redraw::WhenTouched, "paused, nothing moving");
}

/// With the AI in the player's seat (`--autoplay` in a window, `?autoplay` in the browser), no sitting is kept — it
/// is not the player's — but every hand the AI played goes into the history, as in the headless run; the hands are
/// on disk once the table is left.
#[test]
fn an_autoplayed_window_keeps_its_hands_in_the_history_and_no_sitting() {
    use holecard::game::keep::history::Kept;
    use holecard::game::keep::slot::SaveSlot;
    use holecard::game::store::Store;
    let data = std::env::temp_dir().join(format!("holecard-autoplay-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    std::fs::create_dir_all(&data).expect("a data folder");
    let store = Store::Folder(data.clone());
    let level = holecard::host::level::Level::load_or_default(None).expect("the built-in table");
    let mut app = holecard::game::platform::headless::app_with_slot(
        level,
        7,
        holecard::game::model::settings::Speed::Instant,
        true,
        SaveSlot::new(store.clone()),
    )
    .expect("the app");
    let rounds = |app: &App| {
        let hands = &app.world().resource::<Kept>().history.hands;
        hands.back().map_or(0, |h| h.round)
    };
    for _ in 0..20_000 {
        if rounds(&app) >= 12 {
            break;
        }
        app.update();
    }
    assert!(rounds(&app) >= 12, "12 rounds played and recorded");
    let heard = app.world().resource::<Kept>().history.hands.clone();
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Title);
    app.update();
    app.update();
    let on_disk = Kept::load(store.clone()).history.hands;
    assert!(
        on_disk.len() >= heard.len(),
        "{} of {}",
        on_disk.len(),
        heard.len()
    );
    assert_eq!(
        on_disk
            .iter()
            .take(heard.len())
            .cloned()
            .collect::<Vec<_>>(),
        heard.into_iter().collect::<Vec<_>>(),
        "every hand heard is on disk, in order"
    );
    let found = SaveSlot::new(store).read().expect("the slot reads");
    assert!(
        found.sitting.is_none(),
        "the AI's seat is not kept as a sitting"
    );
    let _ = std::fs::remove_dir_all(&data);
}

/// A table offering Perfect Pairs and 21+3: the player puts $5 on Perfect Pairs from its spot, $25 on the bet, and
/// deals. The side bet goes down with the bet, is paid as soon as the two tens show (before the player's decision),
/// and the felt's spot, bankroll and tray follow the engine chip for chip; Rebet puts both back. With the advisor on,
/// each side bet's value is worked out while betting on the cards the seat has not seen: a full shoe's first, then the
/// shoe less the round's cards.
#[test]
fn a_side_bet_is_placed_from_its_spot_paid_on_the_felt_and_valued_on_the_seats_shoe() {
    use holecard::engine::exact::side::{Suited, price};
    use holecard::engine::side::{PairPays, SideBet, ThreeCardPays};
    use holecard::game::model::sides::SideValues;
    let mut level = one_seat_level();
    level.player_seat = Some(3);
    let RuleSource::Custom(rules) = &mut level.rules else {
        panic!("a custom table");
    };
    rules.side_bets.perfect_pairs = Some(PairPays::TWENTY_FIVE);
    rules.side_bets.twenty_one_plus_three = Some(ThreeCardPays::FLAT_NINE);
    let rules = rules.clone();
    // Mae 9 and 7, you two tens, the dealer 6 and 7 under, then tens.
    let mut app = stacked(
        level,
        false,
        &[Nine, Ten, Six, Seven, Ten, Seven, Ten, Ten, Ten],
    );
    app.world_mut().resource_mut::<PlayOptions>().advisor = true;
    settle(&mut app);
    let values = |app: &App, bet| app.world().resource::<SideValues>().of(bet);
    let full = Suited::full(rules.decks);
    for bet in [SideBet::PerfectPairs, SideBet::TwentyOnePlusThree] {
        let exact = price(bet, &rules, &full).expect("offered").value();
        assert_eq!(values(&app, bet), Some(exact), "{bet} on a full shoe");
    }
    assert_eq!(values(&app, SideBet::Buster), None, "not offered");
    // A spot the table does not offer is refused in words.
    intend(&mut app, Intent::Spot(Some(SideBet::Buster)));
    assert_eq!(
        refusal(&app).as_deref(),
        Some("This table has no Buster Blackjack bet.")
    );
    intend(&mut app, Intent::Spot(Some(SideBet::PerfectPairs)));
    intend(&mut app, Intent::Chip(Cents::units(5)));
    // Over the side bet's most ($100) is refused, and the spot keeps its $5.
    intend(&mut app, Intent::Chip(Cents::units(100)));
    assert_eq!(
        refusal(&app).as_deref(),
        Some("The most on Perfect Pairs is $100.")
    );
    intend(&mut app, Intent::Spot(None));
    intend(&mut app, Intent::Chip(Cents::units(25)));
    let slip = app.world().resource::<BetSlip>();
    assert_eq!(slip.total(), Cents::units(25));
    assert_eq!(
        slip.side_stakes().get(SideBet::PerfectPairs),
        Cents::units(5)
    );
    let house = app.world().resource::<HostedTable>().house();
    intend(&mut app, Intent::Deal);
    let shown = run_until(&mut app, |_, shown| {
        shown.iter().any(|e| matches!(e, Event::Turn { .. }))
    });
    let paid = shown.iter().find_map(|e| match *e {
        Event::SideBetSettled {
            seat: 3,
            bet: SideBet::PerfectPairs,
            stake,
            win,
            net,
        } => Some((stake, win, net)),
        _ => None,
    });
    let (stake, win, net) = paid.expect("Perfect Pairs settled before the turn");
    let win = win.expect("two tens are a pair");
    let pays = rules.side_bets.pays(win).expect("a paying hand");
    assert_eq!(stake, Cents::units(5));
    assert_eq!(net, Cents::units(5 * i64::from(pays)), "{win:?}");
    settle(&mut app);
    intend(&mut app, Intent::Play(holecard::engine::Action::Stand));
    run_until(&mut app, |app, shown| {
        headless::between_rounds(app) && shown.iter().any(|e| matches!(e, Event::RoundEnded { .. }))
    });
    settle(&mut app);
    assert!(
        headless::chips_shown(&mut app),
        "the felt's piles follow the engine"
    );
    // You won the hand ($25) and the pair; the house paid both (and Mae's hand).
    let engine = app.world().resource::<HostedTable>();
    let you = engine.seats()[3].bankroll;
    assert_eq!(you, Cents::units(1_000 + 25) + net);
    assert!(engine.house() < house);
    // The values now count the round's cards out of the shoe.
    let seen = app.world().resource::<Seen>().tray().cards().to_vec();
    // Six dealt, and the ten the dealer's 13 drew.
    assert_eq!(seen.len(), 7, "{seen:?}");
    let left = Suited::unseen(rules.decks, &seen).expect("cards of the shoe");
    let exact = price(SideBet::PerfectPairs, &rules, &left)
        .expect("offered")
        .value();
    assert_eq!(values(&app, SideBet::PerfectPairs), Some(exact));
    // Rebet puts the bet and the side bet back.
    intend(&mut app, Intent::Rebet);
    let slip = app.world().resource::<BetSlip>();
    assert_eq!(slip.total(), Cents::units(25));
    assert_eq!(
        slip.side_stakes().get(SideBet::PerfectPairs),
        Cents::units(5)
    );
}

/// With the advisor on, between rounds, the next round's exact value on the cards the seat has not seen: worked out
/// in pieces, as many a frame as fit (the browser's way), at the opening shoe, and on another thread after a round, each equal to the
/// exact engine's table on the same shoe, to the last bit.
#[test]
fn the_next_rounds_value_is_the_exact_table_on_the_seats_shoe_sliced_or_not() {
    use holecard::engine::exact::{self, ExactRules, PostSplit};
    use holecard::game::model::next_round::{NextRound, unseen_shoe};
    let mut app = human_app(&[Nine, Ten, Six, Seven, Ten, Seven, Ten, Ten, Ten]);
    app.world_mut().resource_mut::<NextRound>().sliced = true;
    app.world_mut().resource_mut::<PlayOptions>().advisor = true;
    let rules = app.world().resource::<HostedTable>().rules().clone();
    let expected = |app: &App| {
        let seen = app.world().resource::<Seen>().tray().seen();
        let shoe = unseen_shoe(rules.decks, &seen).expect("a shoe");
        exact::table_on(ExactRules::of(&rules), shoe, 1).value(PostSplit::Cdz)
    };
    // Some frames of pieces, or another thread's time: a minute at most (it is a few seconds in a debug build).
    let answered = |app: &mut App| {
        let until = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while std::time::Instant::now() < until {
            app.update();
            if let Some(value) = app.world().resource::<NextRound>().value() {
                return value;
            }
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        panic!("no value in a minute");
    };
    settle(&mut app);
    let opening = answered(&mut app);
    assert_eq!(opening, expected(&app), "in pieces");
    app.world_mut().resource_mut::<NextRound>().sliced = false;
    bet_25_and_deal(&mut app);
    intend(&mut app, Intent::Play(holecard::engine::Action::Stand));
    run_until(&mut app, |app, shown| {
        headless::between_rounds(app) && shown.iter().any(|e| matches!(e, Event::RoundEnded { .. }))
    });
    settle(&mut app);
    let after = answered(&mut app);
    assert_eq!(after, expected(&app), "on another thread");
    assert_ne!(after, opening, "the round's cards changed the shoe");
}

/// Luck told from skill: with it on (and the advisor off), the next round's value is worked out between rounds and,
/// for a round dealt before it was in, on after the deal for the shoe it was dealt from; the round is kept with its
/// expected result — the bet at that value — so the totals split its net into what the bet was worth, what the plays
/// added and what the cards gave.
#[test]
fn a_round_is_kept_with_its_expected_result_and_the_totals_tell_luck_from_skill() {
    use holecard::game::keep::history::Kept;
    use holecard::game::model::next_round::{Dealt, NextRound};
    let mut app = human_app(&[Nine, Ten, Six, Seven, Ten, Seven, Ten, Ten, Ten]);
    app.world_mut().resource_mut::<PlayOptions>().luck = true;
    // Dealt at once, before the value is in: it goes on being worked out for the shoe the round was dealt from.
    bet_25_and_deal(&mut app);
    let until = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while app.world().resource::<Dealt>().expected.is_none() {
        app.update();
        assert!(
            std::time::Instant::now() < until,
            "no value in a minute: {:?} {:?} {}",
            app.world().resource::<Dealt>(),
            app.world().resource::<NextRound>().value(),
            app.world().resource::<NextRound>().thinking()
        );
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let value = app
        .world()
        .resource::<NextRound>()
        .value()
        .expect("the dealt shoe's");
    intend(&mut app, Intent::Play(holecard::engine::Action::Stand));
    run_until(&mut app, |app, shown| {
        headless::between_rounds(app) && shown.iter().any(|e| matches!(e, Event::RoundEnded { .. }))
    });
    settle(&mut app);
    let history = &app.world().resource::<Kept>().history;
    let hand = history.hands.back().expect("the round kept");
    let expected = Cents((2_500.0 * value).round() as i64);
    assert_eq!(hand.expected, Some(expected), "value {value}");
    let priced = history.totals().priced;
    assert_eq!(priced.rounds, 1);
    assert_eq!(priced.net, hand.total_net());
    assert_eq!(priced.expected, expected);
    // Standing on 20 is the chart's play: the plays added nothing, and the cards gave the rest.
    assert_eq!(priced.decisions, Cents::ZERO);
    assert_eq!(priced.luck(), hand.total_net() - expected);
}
