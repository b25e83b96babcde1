//! The player's seat at the game's own table: the bet slip dealt, decisions and seat changes given to the host as
//! commands (one asked for while cards are still moving waits, once, for the table to catch up), auto-stand on 21,
//! and the end of a match played until someone is broke.

use crate::engine::{Action, Cents, Phase, SeatId, TableState};
use crate::game::local::table::HostedTable;
use crate::game::model::next_round::{Dealt, NextRound};
use crate::game::model::player::{
    BetSlip, GameOver, Intent, Pending, PlayOptions, deal_refusal, human_seat, slip_change,
    stands_on_21,
};
use crate::game::model::screen::{MatchDecided, RoundSet, Screen};
use crate::game::model::seat::Replay;
use crate::game::model::session::Session;
use crate::game::model::sides::SideValues;
use crate::game::model::table::Beats;
use crate::host::Occupant;
use bevy::prelude::*;

pub(crate) fn plugin(app: &mut App) {
    // A replay plays the seat from its record; the player's buttons stay out of it.
    app.add_systems(
        Update,
        (change_seat, build_bet)
            .chain()
            .in_set(RoundSet::Betting)
            .run_if(resource_exists::<HostedTable>)
            .run_if(not(resource_exists::<Replay>)),
    )
    .add_systems(
        Update,
        (auto_stand, play_hand)
            .chain()
            .in_set(RoundSet::PlayerTurn)
            .run_if(resource_exists::<HostedTable>)
            .run_if(not(resource_exists::<Replay>)),
    )
    .add_systems(
        Update,
        watch_for_the_end
            .in_set(MatchDecided)
            .after(RoundSet::Present)
            .run_if(in_state(Screen::Table))
            .run_if(not(resource_exists::<Replay>)),
    );
}

/// Between rounds, with everything shown, at a table played until someone is broke: is anyone? The answer is
/// [`GameOver`]; what is kept of the sitting follows it (`keep`, in the [`MatchDecided`] set's frame).
fn watch_for_the_end(
    session: Res<Session>,
    engine: Option<Res<HostedTable>>,
    beats: Res<Beats>,
    over: Option<Res<GameOver>>,
    mut commands: Commands,
) {
    // The seat is the player's whoever plays it (the AI too, under `--autoplay`).
    let (Some(engine), Some(seat), None) = (engine, session.player_seat, over) else {
        return;
    };
    if !beats.settled() {
        return;
    }
    if let Some(broke) = session.level.broke(&**engine, seat) {
        info!(target: "holecard::round", "{}", broke.said(engine.seats()[usize::from(seat)].chips(), session.level.buy_in).0);
        commands.insert_resource(GameOver(broke));
    }
}

/// Bet building and the deal. Chips are checked against the limits and the bankroll as they go down; the deal checks
/// the minimum.
#[allow(clippy::too_many_arguments)]
fn build_bet(
    mut intents: MessageReader<Intent>,
    session: Res<Session>,
    mut slip: ResMut<BetSlip>,
    mut engine: ResMut<HostedTable>,
    mut beats: ResMut<Beats>,
    over: Option<Res<GameOver>>,
    (next, values): (Res<NextRound>, Res<SideValues>),
    mut dealt: ResMut<Dealt>,
) {
    let Some(seat) = human_seat(&session) else {
        intents.clear();
        return;
    };
    if over.is_some() {
        // The match is decided: nothing more is bet here.
        intents.clear();
        return;
    }
    for intent in intents.read() {
        if slip.in_play && !matches!(intent, Intent::Deal) {
            // The round is still being shown; the deal says so in words.
            continue;
        }
        let bankroll = engine.seats()[usize::from(seat)].bankroll;
        let rules = engine.rules().clone();
        if slip_change(&mut slip, intent, &rules, bankroll) {
            continue;
        }
        match *intent {
            Intent::Deal => {
                let (bet, sides) = (slip.total(), slip.side_stakes());
                slip.refusal = deal(seat, &mut slip, &mut engine, &mut beats).err();
                if slip.refusal.is_none() {
                    // What the round is expected to bring, as dealt: Statistics tells luck from skill by it.
                    *dealt = Dealt::of(engine.round(), bet, &sides, &next, &values);
                }
            }
            Intent::Rebuy => {
                // Buying in again is for a player who is out of chips. The HUD offers it from the table as shown,
                // which can lag the engine for a beat (a seat just taken), so the engine's books decide here.
                let chips = engine.seats()[usize::from(seat)].chips();
                slip.refusal = if chips >= rules.min_bet {
                    Some("You still have chips to play with.".to_string())
                } else if session.level.until_broke {
                    Some(
                        "No buying in again here: this table is played until one side is broke."
                            .to_string(),
                    )
                } else {
                    let amount = session.level.buy_in;
                    engine
                        .apply(crate::engine::Command::Rebuy { seat, amount }, &mut beats)
                        .err()
                        .map(|e| e.to_string())
                };
            }
            _ => {}
        }
    }
}

/// Puts the slip's bet and side bets down and deals, or says why not.
fn deal(
    seat: SeatId,
    slip: &mut BetSlip,
    engine: &mut HostedTable,
    beats: &mut Beats,
) -> Result<(), String> {
    use crate::engine::Command;
    let busy = slip.in_play || !beats.settled() || engine.phase() != Phase::Betting;
    let total = slip.total();
    if let Some(refusal) = deal_refusal(busy, total, engine.rules()) {
        return Err(refusal);
    }
    let mut put =
        |engine: &mut HostedTable, command| engine.apply(command, beats).map_err(|e| e.to_string());
    if engine.seats()[usize::from(seat)].bet != total {
        put(
            engine,
            Command::Bet {
                seat,
                amount: total,
            },
        )?;
    }
    // Every spot the table offers takes what the slip has on it (nothing, where the slip has none).
    let sides = slip.side_stakes();
    for bet in engine.rules().side_bets.offered() {
        let amount = sides.get(bet);
        if engine.seats()[usize::from(seat)].side.get(bet) != amount {
            put(engine, Command::SideBet { seat, bet, amount })?;
        }
    }
    if let Err(refused) = put(engine, Command::Deal) {
        // Not dealt: the chips go back in front of the player (the slip still has them), so the next try, or new
        // chips, count against the whole bankroll.
        let _ = put(
            engine,
            Command::Bet {
                seat,
                amount: Cents::ZERO,
            },
        );
        for bet in engine.rules().side_bets.offered() {
            let _ = put(
                engine,
                Command::SideBet {
                    seat,
                    bet,
                    amount: Cents::ZERO,
                },
            );
        }
        return Err(refused);
    }
    slip.dealt(total);
    Ok(())
}

/// The player's decisions. One asked for while cards are still moving waits (once) for the table to catch up.
fn play_hand(
    mut intents: MessageReader<Intent>,
    session: Res<Session>,
    mut slip: ResMut<BetSlip>,
    mut pending: ResMut<Pending>,
    mut engine: ResMut<HostedTable>,
    mut beats: ResMut<Beats>,
) {
    let Some(seat) = human_seat(&session) else {
        intents.clear();
        return;
    };
    for intent in intents.read() {
        // The keys and buttons follow the table as shown, which lags the engine while cards are still moving: a move
        // the engine no longer allows (the turn has passed, the hand has moved on) is dropped here, or it would wait
        // and play itself at the player's next turn.
        if let Intent::Play(action) = *intent
            && engine.legal_actions(seat).contains(action)
        {
            pending.0 = Some(action);
        }
    }
    if !beats.settled() {
        return;
    }
    let Some(action) = pending.0.take() else {
        return;
    };
    if engine.seat_to_act() != Some(seat) {
        slip.refusal = Some("It isn't your turn.".to_string());
        return;
    }
    let insurance = engine.max_insurance(seat);
    slip.refusal = engine
        .apply(action.command(seat, insurance), &mut beats)
        .err()
        .map(|e| e.to_string());
}

/// With auto-stand on, a player's hand that reaches 21 stands by itself.
fn auto_stand(
    session: Res<Session>,
    options: Res<PlayOptions>,
    mut pending: ResMut<Pending>,
    engine: Res<HostedTable>,
    beats: Res<Beats>,
) {
    let Some(seat) = human_seat(&session) else {
        return;
    };
    if !options.auto_stand_21 || !beats.settled() || pending.0.is_some() {
        return;
    }
    if stands_on_21(&**engine, seat) {
        pending.0 = Some(Action::Stand);
    }
}

/// Between rounds the player may take an empty seat: moving carries the chips along; a watcher sits down with the
/// table's buy-in.
fn change_seat(
    mut intents: MessageReader<Intent>,
    mut session: ResMut<Session>,
    mut slip: ResMut<BetSlip>,
    mut engine: ResMut<HostedTable>,
    mut beats: ResMut<Beats>,
) {
    for intent in intents.read() {
        let Intent::SitAt(seat) = *intent else {
            continue;
        };
        if !engine.is_free(seat) || !beats.settled() || engine.phase() != Phase::Betting {
            slip.refusal = Some("That seat can't be taken now.".to_string());
            continue;
        }
        let (occupant, chips) = match session.player_seat {
            Some(old) => {
                // Everything the seat cashes out, a bet already in its circle included.
                let chips = engine.seats()[usize::from(old)].chips();
                match engine.leave(old) {
                    Ok((occupant, news)) => {
                        beats.show(news);
                        (occupant, chips)
                    }
                    Err(error) => {
                        slip.refusal = Some(error.to_string());
                        continue;
                    }
                }
            }
            None => (None, Cents::ZERO),
        };
        let buy_in = if chips.is_positive() {
            chips
        } else {
            session.level.buy_in
        };
        let mut occupant =
            occupant.unwrap_or_else(|| Occupant::person(crate::host::narrate::YOU, buy_in));
        occupant.buy_in = buy_in;
        match engine.sit(seat, occupant) {
            Ok(news) => {
                beats.show(news);
                session.player_seat = Some(seat);
                slip.chips.clear();
                slip.sides.clear();
                slip.refusal = None;
            }
            Err(error) => slip.refusal = Some(error.to_string()),
        }
    }
}
