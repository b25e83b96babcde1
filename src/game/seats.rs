//! The seats at work: companions (and the player's seat on autoplay) bet, think for a moment, and act through the
//! engine; between rounds broke or satisfied companions get up and the level's regulars sit back down.

use super::screen::RoundSet;
use super::session::Session;
use super::table::{Beats, Engine, Occupant, Occupants, Shown};
use crate::engine::ai::{Mind, Personality};
use crate::engine::{Cents, Command, Phase, SeatId, TableState, Viewer, seed_from_number};
use bevy::prelude::*;

/// Who may sit down in an empty seat between rounds, and the seeded dice that decide when.
#[derive(Resource)]
pub struct Arrivals {
    rng: crate::engine::TableRng,
    /// Rounds each seat has stood empty.
    empty_for: [u32; 7],
    /// Companions who got up this visit: they have gone home.
    departed: Vec<String>,
    /// The round the seats were last looked at.
    last_round: Option<u64>,
    /// Seconds the table has stood empty since someone last had a chance to sit.
    idle: f32,
}

/// At a table nobody sits at, this many seconds count as a round for arrivals.
const IDLE_ROUND_SECONDS: f32 = 2.0;

/// Guests who drift over from other tables.
const GUESTS: [(&str, Personality); 8] = [
    ("Dolores", Personality::ByTheBook),
    ("Vic", Personality::HunchPlayer),
    ("Priya", Personality::CardCounter),
    ("Big Sal", Personality::HighRoller),
    ("Hank", Personality::HunchPlayer),
    ("Ines", Personality::ByTheBook),
    ("Otto", Personality::CardCounter),
    ("Gloria", Personality::HighRoller),
];

/// One chance in this many each round that someone sits down in a seat that has stood empty a round or more.
const ARRIVAL_ODDS: u32 = 3;

/// Time left before the seat to act makes its move ("thinking").
#[derive(Resource, Default)]
pub struct Thinking {
    left: Option<f32>,
}

/// A line a companion says, for the log.
#[derive(Message, Clone, Debug)]
pub struct Remark {
    /// Who says it.
    pub seat: SeatId,
    /// What they say.
    pub line: String,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Thinking>()
        .add_message::<Remark>()
        .add_systems(
            Update,
            (rise_and_sit, place_bets_and_deal)
                .chain()
                .in_set(RoundSet::Betting),
        )
        .add_systems(Update, act_in_turn.in_set(RoundSet::PlayerTurn))
        .add_systems(
            Update,
            companions_watch
                .in_set(RoundSet::Present)
                .after(super::table::present),
        );
}

/// Seeds for each seat's mind, apart from the table's stream.
pub(super) fn mind_seed(session: &Session, seat: SeatId) -> crate::engine::Seed {
    seed_from_number(session.seed ^ (0x5EA7_0000 + u64::from(seat)))
}

pub(super) fn seat_the_table(
    mut session: ResMut<Session>,
    engine: Option<ResMut<Engine>>,
    mut beats: ResMut<Beats>,
    mut occupants: ResMut<Occupants>,
    mut thinking: ResMut<Thinking>,
    restored: Option<Res<super::table::Restored>>,
    mut commands: Commands,
) {
    let Some(mut engine) = engine else {
        return;
    };
    *thinking = Thinking::default();
    commands.insert_resource(Arrivals {
        rng: crate::engine::TableRng::from_seed(seed_from_number(
            session.seed ^ 0xA11_1FE5 ^ session.visits,
        )),
        empty_for: [0; 7],
        departed: Vec::new(),
        last_round: None,
        idle: 0.0,
    });
    if restored.is_some() {
        // The saved seats are already taken.
        return;
    }
    session.visits += 1;
    let level = &session.level;
    let rules = engine.table.rules().clone();
    if let Some(seat) = session.player_seat {
        let mind = session
            .autoplay
            .then(|| Mind::new(Personality::ByTheBook, &rules, mind_seed(&session, seat)));
        sit(
            &mut engine,
            &mut beats,
            &mut occupants,
            seat,
            Occupant {
                name: "You".into(),
                mind,
                buy_in: session.player_chips.unwrap_or(level.buy_in),
            },
        );
    }
    for companion in &level.companions {
        seat_regular(&session, companion, &mut engine, &mut beats, &mut occupants);
    }
}

/// A level's regular sits down at their seat with their usual bankroll and a fresh mind.
fn seat_regular(
    session: &Session,
    companion: &crate::level::Companion,
    engine: &mut Engine,
    beats: &mut Beats,
    occupants: &mut Occupants,
) {
    let mind = Mind::new(
        companion.personality,
        engine.table.rules(),
        mind_seed(session, companion.seat),
    );
    let occupant = Occupant {
        name: companion.name.clone(),
        mind: Some(mind),
        buy_in: companion.bankroll,
    };
    sit(engine, beats, occupants, companion.seat, occupant);
}

fn sit(
    engine: &mut Engine,
    beats: &mut Beats,
    occupants: &mut Occupants,
    seat: SeatId,
    occupant: Occupant,
) {
    let Some(slot) = occupants.seats.get_mut(usize::from(seat)) else {
        return;
    };
    if engine
        .apply(
            Command::Join {
                seat,
                buy_in: occupant.buy_in,
            },
            beats,
        )
        .is_ok()
    {
        *slot = Some(occupant);
    }
}

/// Between rounds: companions who are broke or satisfied leave; now and then someone new sits down in a seat that
/// has stood empty, never more companions than the level seats.
fn rise_and_sit(
    session: Res<Session>,
    mut engine: ResMut<Engine>,
    mut beats: ResMut<Beats>,
    mut occupants: ResMut<Occupants>,
    mut arrivals: ResMut<Arrivals>,
    mut remarks: MessageWriter<Remark>,
    time: Res<Time>,
) {
    let round = engine.table.round();
    if !beats.settled() || engine.table.phase() != Phase::Betting || round == 0 {
        return;
    }
    // Once per round, however many frames the table waits for bets; at a table nobody sits at, rounds stop, so
    // every few seconds count as one.
    let nobody = occupants.seats.iter().all(Option::is_none);
    arrivals.idle = if nobody {
        arrivals.idle + time.delta_secs()
    } else {
        0.0
    };
    let new_round = arrivals.last_round.replace(round) != Some(round);
    if !new_round && arrivals.idle < IDLE_ROUND_SECONDS {
        return;
    }
    arrivals.idle = 0.0;
    for seat in 0..7u8 {
        let leaving = match &occupants.seats[usize::from(seat)] {
            Some(Occupant {
                mind: Some(mind),
                buy_in,
                ..
            }) if Some(seat) != session.player_seat => {
                mind.departure(&engine.table.view(Viewer::Seat(seat)), seat, *buy_in)
            }
            _ => None,
        };
        if let Some(why) = leaving
            && engine.apply(Command::Leave { seat }, &mut beats).is_ok()
        {
            let line = match why {
                crate::engine::ai::Departure::Broke => "That's me done for tonight.",
                crate::engine::ai::Departure::Satisfied => {
                    "Quit while you're ahead, they say. Good night!"
                }
            };
            remarks.write(Remark {
                seat,
                line: line.to_string(),
            });
            if let Some(gone) = occupants.seats[usize::from(seat)].take() {
                arrivals.departed.push(gone.name);
            }
        }
    }
    let companions = occupants
        .seats
        .iter()
        .enumerate()
        .filter(|(seat, o)| o.is_some() && Some(*seat as SeatId) != session.player_seat)
        .count();
    let mut room = session.level.companions.len().saturating_sub(companions);
    for seat in 0..7u8 {
        let empty =
            occupants.seats[usize::from(seat)].is_none() && Some(seat) != session.player_seat;
        let waited = &mut arrivals.empty_for[usize::from(seat)];
        *waited = if empty { *waited + 1 } else { 0 };
        if !empty || *waited < 2 || room == 0 || arrivals.rng.below(ARRIVAL_ODDS) != 0 {
            continue;
        }
        // Someone not already at the table, picked by the table's seeded dice.
        let seated: Vec<&str> = occupants
            .seats
            .iter()
            .flatten()
            .map(|o| o.name.as_str())
            .collect();
        let free: Vec<(&str, Personality)> = session
            .level
            .companions
            .iter()
            .map(|c| (c.name.as_str(), c.personality))
            .chain(GUESTS)
            .filter(|(name, _)| {
                !seated.contains(name) && !arrivals.departed.iter().any(|d| d == name)
            })
            .collect();
        if free.is_empty() {
            continue;
        }
        let (name, personality) = free[arrivals.rng.below(free.len() as u32) as usize];
        let min_bet = engine.table.rules().min_bet;
        let units = 20 + i64::from(arrivals.rng.below(41));
        let bankroll = Cents(min_bet.0 * units);
        let mind = Mind::new(
            personality,
            engine.table.rules(),
            mind_seed(&session, seat).map(|b| b ^ (round as u8)),
        );
        let occupant = Occupant {
            name: name.to_string(),
            mind: Some(mind),
            buy_in: bankroll,
        };
        sit(&mut engine, &mut beats, &mut occupants, seat, occupant);
        remarks.write(Remark {
            seat,
            line: "Mind if I join you?".to_string(),
        });
        room -= 1;
    }
}

/// AI seats put their bets down. The dealer deals once they have, unless the player sits and plays by hand: then
/// the deal waits for the player's Deal.
fn place_bets_and_deal(
    session: Res<Session>,
    mut engine: ResMut<Engine>,
    mut beats: ResMut<Beats>,
    occupants: Res<Occupants>,
) {
    if !beats.settled() || engine.table.phase() != Phase::Betting {
        return;
    }
    for (seat, occupant) in occupants.seats.iter().enumerate() {
        if let Some(Occupant {
            mind: Some(mind), ..
        }) = occupant
        {
            let seat = seat as SeatId;
            let amount = mind.bet(&engine.table.view(Viewer::Seat(seat)), seat);
            if engine.table.seats()[usize::from(seat)].bet != amount {
                // A bet a mind cannot afford is refused by the engine and the seat sits the round out.
                let _ = engine.apply(Command::Bet { seat, amount }, &mut beats);
            }
        }
    }
    if super::session::human_seat(&session).is_some() || !beats.settled() {
        return;
    }
    // Refused when nobody could bet (everyone broke): the table waits for seats to change.
    let _ = engine.apply(Command::Deal, &mut beats);
}

/// The seat to act makes its move after a short, human-paced pause.
fn act_in_turn(
    time: Res<Time>,
    mut engine: ResMut<Engine>,
    mut beats: ResMut<Beats>,
    mut occupants: ResMut<Occupants>,
    mut thinking: ResMut<Thinking>,
    mut remarks: MessageWriter<Remark>,
) {
    if !beats.settled() {
        return;
    }
    let Some(seat) = engine.table.seat_to_act() else {
        return;
    };
    let Some(Occupant {
        mind: Some(mind), ..
    }) = occupants.seats[usize::from(seat)].as_mut()
    else {
        return; // The player's own decision comes from the table's buttons.
    };
    let left = thinking
        .left
        .get_or_insert(beats.speed.seconds(THINKING_SECONDS));
    *left -= time.delta_secs();
    if *left > 0.0 {
        return;
    }
    thinking.left = None;
    if let Some(choice) = mind.decide(&engine.table.view(Viewer::Seat(seat)), seat) {
        if let Some(line) = choice.remark {
            remarks.write(Remark { seat, line });
        }
        if let Err(error) = engine.apply(choice.command, &mut beats) {
            engine.refused += 1;
            error!("seat {seat}'s {:?} was refused: {error}", choice.command);
        }
    }
}

/// Companions see what the table shows: the counter counts, and everyone reacts to their own big moments.
fn companions_watch(
    mut shown: MessageReader<Shown>,
    mut occupants: ResMut<Occupants>,
    mut remarks: MessageWriter<Remark>,
) {
    for Shown(event) in shown.read() {
        for (seat, occupant) in occupants.seats.iter_mut().enumerate() {
            if let Some(Occupant {
                mind: Some(mind), ..
            }) = occupant
            {
                mind.observe(event);
                if let Some(line) = mind.react(event, seat as SeatId) {
                    remarks.write(Remark {
                        seat: seat as SeatId,
                        line: line.to_string(),
                    });
                }
            }
        }
    }
}

/// How long a seat thinks before acting, at normal speed.
const THINKING_SECONDS: f32 = 0.8;
