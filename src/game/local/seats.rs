//! The seats at work, paced for people to watch: the host's companions (and the player's seat on autoplay) bet, think
//! for a moment and act; between rounds broke or satisfied companions get up and someone may sit down. The host
//! decides all of it; this module only says when.

use crate::engine::ai::Personality;
use crate::engine::{Phase, TableState};
use crate::game::local::table::HostedTable;
use crate::game::model::frames::{DrawWhile, Redraw};
use crate::game::model::screen::{RoundSet, Screen};
use crate::game::model::session::Session;
use crate::game::model::table::{Beats, Restored};
use crate::host::Occupant;
use bevy::prelude::*;

/// At a table nobody sits at, this many seconds count as a round for arrivals.
const IDLE_ROUND_SECONDS: f32 = 2.0;

/// How long a seat thinks before acting, at normal speed.
const THINKING_SECONDS: f32 = 0.8;

/// Time left before the seat to act makes its move ("thinking").
#[derive(Resource, Default)]
pub struct Thinking {
    left: Option<f32>,
}

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Thinking>()
        .add_systems(
            Update,
            (rise_and_sit, place_bets_and_deal)
                .chain()
                .in_set(RoundSet::Betting)
                .run_if(resource_exists::<HostedTable>),
        )
        .add_systems(
            Update,
            act_in_turn
                .in_set(RoundSet::PlayerTurn)
                .run_if(resource_exists::<HostedTable>),
        )
        .draw_while(
            Redraw::EveryFrame,
            in_state(Screen::Table)
                .and_then(resource_exists::<HostedTable>.and_then(plays_on_its_own)),
        );
}

/// The table goes on without the player, on its clock: a seat a mind plays thinking, the deal where nobody plays by
/// hand, rounds counted at an empty table. (A table waiting for the player's bet or play waits without frames.)
fn plays_on_its_own(
    engine: Res<HostedTable>,
    beats: Res<Beats>,
    session: Res<Session>,
    time: Res<Time<Virtual>>,
) -> bool {
    !time.is_paused()
        && beats.settled()
        && (engine.mind_to_act().is_some()
            || engine.phase() == Phase::Betting
                && (crate::game::model::session::human_seat(&session).is_none()
                    || engine.occupants().next().is_none()))
}

/// The player and the level's regulars sit down at a freshly opened table (a restored one has its seats taken).
pub(crate) fn seat_the_table(
    mut session: ResMut<Session>,
    engine: Option<ResMut<HostedTable>>,
    mut beats: ResMut<Beats>,
    mut thinking: ResMut<Thinking>,
    restored: Option<Res<Restored>>,
) {
    let Some(mut engine) = engine else {
        return;
    };
    *thinking = Thinking::default();
    if restored.is_some() {
        return;
    }
    session.visits += 1;
    if let Some(seat) = session.player_seat {
        let buy_in = session.player_chips.unwrap_or(session.level.buy_in);
        let mut you = Occupant::person(crate::host::narrate::YOU, buy_in);
        you.mind = session
            .autoplay
            .then(|| engine.mind(Personality::ByTheBook, seat));
        if let Ok(news) = engine.sit(seat, you) {
            beats.show(news);
        }
    }
    let news = engine.seat_regulars();
    beats.show(news);
}

/// Between rounds, once everything is shown: the host sends companions home and seats newcomers. At a table nobody
/// sits at, rounds stop, so every few seconds count as one.
fn rise_and_sit(
    mut engine: ResMut<HostedTable>,
    mut beats: ResMut<Beats>,
    mut idle: Local<f32>,
    time: Res<Time>,
) {
    if !beats.settled() || engine.phase() != Phase::Betting {
        return;
    }
    *idle = if engine.occupants().next().is_none() {
        *idle + time.delta_secs()
    } else {
        0.0
    };
    let again = *idle >= IDLE_ROUND_SECONDS;
    if again {
        *idle = 0.0;
    }
    let news = engine.between_rounds(again);
    beats.show(news);
}

/// AI seats put their bets down. The dealer deals once they have, unless the player sits and plays by hand: then
/// the deal waits for the player's Deal.
fn place_bets_and_deal(
    session: Res<Session>,
    mut engine: ResMut<HostedTable>,
    mut beats: ResMut<Beats>,
    (next, values, mut dealt): (
        Res<crate::game::model::next_round::NextRound>,
        Res<crate::game::model::sides::SideValues>,
        ResMut<crate::game::model::next_round::Dealt>,
    ),
) {
    if !beats.settled() || engine.phase() != Phase::Betting {
        return;
    }
    let news = engine.place_bets();
    beats.show(news);
    if crate::game::model::session::human_seat(&session).is_some() || !beats.settled() {
        return;
    }
    // The player's seat's bets as they go down (the first cards settle some side bets in the deal itself).
    let bets = session.player_seat.map(|seat| {
        let s = &engine.seats()[usize::from(seat)];
        (s.bet, s.side)
    });
    // Refused when nobody could bet (everyone broke): the table waits for seats to change.
    if engine
        .apply(crate::engine::Command::Deal, &mut beats)
        .is_ok()
        && let Some((bet, sides)) = bets.filter(|(bet, _)| bet.is_positive())
    {
        // Under --autoplay the AI plays the player's seat: its round is valued as dealt, as the player's is.
        *dealt =
            crate::game::model::next_round::Dealt::of(engine.round(), bet, &sides, &next, &values);
    }
}

/// The seat to act, when a mind plays it, makes its move after a short, human-paced pause.
fn act_in_turn(
    time: Res<Time>,
    mut engine: ResMut<HostedTable>,
    mut beats: ResMut<Beats>,
    mut thinking: ResMut<Thinking>,
) {
    if !beats.settled() || engine.mind_to_act().is_none() {
        return; // The player's own decision comes from the table's buttons.
    }
    let left = thinking
        .left
        .get_or_insert(beats.speed.seconds(THINKING_SECONDS));
    *left -= time.delta_secs();
    if *left > 0.0 {
        return;
    }
    thinking.left = None;
    match engine.act() {
        Some(Ok(news)) => beats.show(news),
        Some(Err(error)) => error!("a mind's move was refused: {error}"),
        None => {}
    }
}
