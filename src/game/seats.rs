//! The seats at work: companions (and the player's seat on autoplay) bet, think for a moment, and act through the
//! engine; between rounds broke or satisfied companions get up and the level's regulars sit back down.

use super::screen::{RoundSet, Screen};
use super::table::{Beats, Engine, Occupant, Occupants, Shown, Speed};
use crate::engine::ai::{Mind, Personality};
use crate::engine::{Command, Phase, SeatId, seed_from_number};
use crate::level::Level;
use bevy::prelude::*;

/// The level being played and how the player's seat is run.
#[derive(Resource, Clone)]
pub struct Session {
    /// The table.
    pub level: Level,
    /// The number the table was seeded from (companions' hunches follow from it too).
    pub seed: u64,
    /// An AI plays the player's seat.
    pub autoplay: bool,
}

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
        .add_systems(OnEnter(Screen::Table), seat_the_table)
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
fn mind_seed(session: &Session, seat: SeatId) -> crate::engine::Seed {
    seed_from_number(session.seed ^ (0x5EA7_0000 + u64::from(seat)))
}

fn seat_the_table(
    session: Res<Session>,
    mut engine: ResMut<Engine>,
    mut beats: ResMut<Beats>,
    mut occupants: ResMut<Occupants>,
) {
    let level = &session.level;
    let rules = engine.table.rules().clone();
    if let Some(seat) = level.player_seat {
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
                buy_in: level.buy_in,
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

/// Between rounds: companions who are broke or satisfied leave; a regular of the level takes an empty seat.
fn rise_and_sit(
    session: Res<Session>,
    mut engine: ResMut<Engine>,
    mut beats: ResMut<Beats>,
    mut occupants: ResMut<Occupants>,
    mut remarks: MessageWriter<Remark>,
) {
    if !beats.settled() || engine.table.phase() != Phase::Betting || engine.table.round() == 0 {
        return;
    }
    for seat in 0..7u8 {
        let leaving = match &occupants.seats[usize::from(seat)] {
            Some(Occupant {
                mind: Some(mind),
                buy_in,
                ..
            }) if Some(seat) != session.level.player_seat => {
                mind.departure(&engine.table, seat, *buy_in)
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
            occupants.seats[usize::from(seat)] = None;
        }
    }
    // A regular whose seat is free comes back with a fresh bankroll.
    for companion in &session.level.companions {
        if occupants.seats[usize::from(companion.seat)].is_none() {
            seat_regular(&session, companion, &mut engine, &mut beats, &mut occupants);
        }
    }
}

/// AI seats put their bets down and the dealer deals once every seat with a mind has bet.
fn place_bets_and_deal(
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
            let amount = mind.bet(&engine.table, seat);
            if engine.table.seats()[usize::from(seat)].bet != amount {
                // A bet a mind cannot afford is refused by the engine and the seat sits the round out.
                let _ = engine.apply(Command::Bet { seat, amount }, &mut beats);
            }
        }
    }
    if engine.apply(Command::Deal, &mut beats).is_err() {
        // Nobody could bet (everyone broke): wait for seats to change.
    }
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
    let left = thinking.left.get_or_insert(thinking_time(beats.speed));
    *left -= time.delta_secs();
    if *left > 0.0 {
        return;
    }
    thinking.left = None;
    if let Some(choice) = mind.decide(&engine.table, seat) {
        if let Some(line) = choice.remark {
            remarks.write(Remark { seat, line });
        }
        if let Err(error) = engine.apply(choice.command, &mut beats) {
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

/// How long a seat thinks before acting, at this pace.
fn thinking_time(speed: Speed) -> f32 {
    match speed {
        Speed::Normal => 0.8,
        Speed::Fast => 0.25,
        Speed::Instant => 0.0,
    }
}
