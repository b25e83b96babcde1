//! The player's own seat: building a bet from chips (with Rebet, 2×, Undo, Clear), dealing, and playing hands from
//! buttons or keys. Intents arrive as messages from whatever input there is (the HUD, the keyboard, a test); the engine
//! decides, and a refusal becomes a message on screen, never a silent change.

use super::screen::{RoundSet, Screen};
use super::session::Session;
pub use super::session::human_seat;
pub use super::settings::PlayOptions;
use super::table::{Beats, Engine};
use crate::engine::{Action, Cents, Phase, Rules, SeatId, TableState};
use crate::host::Occupant;
use bevy::prelude::*;

/// Something the player asked for.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Intent {
    /// Put a chip of this value on the bet.
    Chip(Cents),
    /// Bet what was bet last round.
    Rebet,
    /// Double the bet being built.
    DoubleBet,
    /// Take the last chip back.
    Undo,
    /// Take every chip back.
    Clear,
    /// Bet what is in the circle and deal.
    Deal,
    /// A decision for the hand in turn (or the insurance / even-money / surrender offer).
    Play(Action),
    /// Out of chips: buy in again for the table's buy-in.
    Rebuy,
    /// Between rounds, move to this empty seat (or sit down in it, when watching).
    SitAt(SeatId),
}

/// The bet the player is building, what they bet last, and the last thing the table refused.
#[derive(Resource, Default, Debug)]
pub struct BetSlip {
    /// Chips put down this round, in order (Undo takes the last).
    pub chips: Vec<Cents>,
    /// The last bet dealt, for Rebet.
    pub last_bet: Cents,
    /// Why the last request was refused, for the screen.
    pub refusal: Option<String>,
    /// The bet went down and the dealer dealt: until the table has shown the round to its end, the slip is closed
    /// (the felt still shows bets going down for a beat or two, and a chip then would land on the next round).
    pub in_play: bool,
}

impl BetSlip {
    /// The bet being built.
    pub fn total(&self) -> Cents {
        self.chips.iter().copied().sum()
    }
}

/// A decision asked for while cards were still moving: applied once the table has caught up, exactly once.
#[derive(Resource, Default, Debug)]
pub struct Pending(pub Option<Action>);

pub(super) fn plugin(app: &mut App) {
    app.add_message::<Intent>()
        .init_resource::<BetSlip>()
        .init_resource::<PlayOptions>()
        .init_resource::<Pending>()
        .add_systems(
            OnEnter(Screen::Table),
            |mut slip: ResMut<BetSlip>, mut pending: ResMut<Pending>| {
                *slip = BetSlip::default();
                pending.0 = None;
            },
        )
        .add_systems(
            OnEnter(super::screen::RoundPhase::Betting),
            |mut slip: ResMut<BetSlip>| slip.in_play = false,
        )
        // A replay plays the seat from its record; the player's buttons stay out of it.
        .add_systems(
            Update,
            (change_seat, build_bet)
                .chain()
                .in_set(RoundSet::Betting)
                .run_if(resource_exists::<Engine>)
                .run_if(not(resource_exists::<super::replay::Replaying>)),
        )
        .add_systems(
            Update,
            (auto_stand, play_hand)
                .chain()
                .in_set(RoundSet::PlayerTurn)
                .run_if(resource_exists::<Engine>)
                .run_if(not(resource_exists::<super::replay::Replaying>)),
        )
        .add_systems(OnEnter(Screen::Table), |mut commands: Commands| {
            commands.remove_resource::<GameOver>();
        })
        .add_systems(
            Update,
            watch_for_the_end
                .after(RoundSet::Present)
                .run_if(in_state(Screen::Table))
                .run_if(not(resource_exists::<super::replay::Replaying>)),
        );
}

/// A table played until someone is broke has its answer: nothing more is bet, the sitting is not kept (there is
/// nothing to resume), and the HUD says who went broke.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameOver(pub crate::level::Broke);

/// Between rounds, with everything shown, at a table played until someone is broke: is anyone?
#[allow(clippy::too_many_arguments)] // Bevy systems take their world as parameters.
fn watch_for_the_end(
    session: Res<Session>,
    engine: Option<Res<Engine>>,
    beats: Res<Beats>,
    over: Option<Res<GameOver>>,
    slot: Option<Res<super::save::SaveSlot>>,
    saved: Option<ResMut<super::save::Saved>>,
    mut kept: ResMut<super::history::Kept>,
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
        // The history first: the journal about to go held its newest hands.
        kept.write();
        if let Some(slot) = slot {
            slot.clear();
        }
        if let Some(mut saved) = saved {
            saved.sitting = None;
        }
        commands.insert_resource(GameOver(broke));
    }
}

/// Chips in the player's rack.
const RACK: usize = 5;

pub use crate::design::CHIP_VALUES;

/// The chip values offered at a table: the usual casino denominations from the smallest bet unit up to the table
/// maximum, five of them.
pub fn denominations(rules: &Rules) -> Vec<Cents> {
    let mut chips: Vec<Cents> = CHIP_VALUES
        .into_iter()
        .filter(|&c| c >= rules.bet_unit && c <= rules.max_bet && c.0 % rules.bet_unit.0 == 0)
        .take(RACK)
        .collect();
    if chips.is_empty() {
        chips.push(rules.bet_unit);
    }
    chips
}

/// Why a bet of `total` can't be dealt at this table with this bankroll, if it can't.
fn bet_refusal(rules: &Rules, total: Cents, bankroll: Cents) -> Option<String> {
    if total > rules.max_bet {
        Some(format!("The table maximum is {}.", rules.max_bet))
    } else if total > bankroll {
        Some(format!("You have {bankroll} in front of you."))
    } else {
        None
    }
}

/// Bet building and the deal. Chips are checked against the limits and the bankroll as they go down; the deal checks
/// the minimum.
fn build_bet(
    mut intents: MessageReader<Intent>,
    session: Res<Session>,
    mut slip: ResMut<BetSlip>,
    mut engine: ResMut<Engine>,
    mut beats: ResMut<Beats>,
    over: Option<Res<GameOver>>,
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
                slip.refusal = deal(seat, &mut slip, &mut engine, &mut beats).err();
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

/// The bet slip's own intents (a chip, Rebet, 2×, Undo, Clear), checked against the limits and `bankroll` as they
/// go down, at the player's own table and online alike. False for an intent that is not the slip's.
pub fn slip_change(slip: &mut BetSlip, intent: &Intent, rules: &Rules, bankroll: Cents) -> bool {
    let proposed: Option<Vec<Cents>> = match *intent {
        Intent::Chip(value) => Some(slip.chips.iter().copied().chain([value]).collect()),
        Intent::Rebet => Some(vec![slip.last_bet]).filter(|_| slip.last_bet.is_positive()),
        Intent::DoubleBet => Some(slip.chips.repeat(2)),
        Intent::Undo => {
            slip.chips.pop();
            slip.refusal = None;
            None
        }
        Intent::Clear => {
            slip.chips.clear();
            slip.refusal = None;
            None
        }
        Intent::Deal | Intent::Rebuy | Intent::Play(_) | Intent::SitAt(_) => return false,
    };
    if let Some(chips) = proposed {
        let total: Cents = chips.iter().copied().sum();
        slip.refusal = bet_refusal(rules, total, bankroll);
        if slip.refusal.is_none() {
            slip.chips = chips;
        }
    }
    true
}

/// Why a bet of `total` cannot go down now (the dealer `busy`, or under the table minimum), at the player's own
/// table and online alike.
pub fn deal_refusal(busy: bool, total: Cents, rules: &Rules) -> Option<String> {
    if busy {
        Some("The dealer is still busy.".to_string())
    } else if total < rules.min_bet {
        Some(format!(
            "Put at least the table minimum of {} in your circle.",
            rules.min_bet
        ))
    } else {
        None
    }
}

/// Puts the slip's bet down and deals, or says why not.
fn deal(
    seat: SeatId,
    slip: &mut BetSlip,
    engine: &mut Engine,
    beats: &mut Beats,
) -> Result<(), String> {
    let busy = slip.in_play || !beats.settled() || engine.phase() != Phase::Betting;
    let total = slip.total();
    if let Some(refusal) = deal_refusal(busy, total, engine.rules()) {
        return Err(refusal);
    }
    if engine.seats()[usize::from(seat)].bet != total {
        engine
            .apply(
                crate::engine::Command::Bet {
                    seat,
                    amount: total,
                },
                beats,
            )
            .map_err(|e| e.to_string())?;
    }
    engine
        .apply(crate::engine::Command::Deal, beats)
        .map_err(|e| e.to_string())?;
    slip.last_bet = total;
    slip.chips.clear();
    slip.in_play = true;
    Ok(())
}

/// The player's decisions. One asked for while cards are still moving waits (once) for the table to catch up.
fn play_hand(
    mut intents: MessageReader<Intent>,
    session: Res<Session>,
    mut slip: ResMut<BetSlip>,
    mut pending: ResMut<Pending>,
    mut engine: ResMut<Engine>,
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
    engine: Res<Engine>,
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

/// It is `seat`'s turn on a hand of 21 that may stand.
pub fn stands_on_21(table: &impl TableState, seat: SeatId) -> bool {
    table.hand_in_turn().is_some_and(|(turn_seat, hand)| {
        turn_seat == seat
            && table.allows(seat, Action::Stand)
            && table
                .hand_index(seat, hand)
                .is_some_and(|index| table.hands()[index].total().value() == 21)
    })
}

/// Between rounds the player may take an empty seat: moving carries the chips along; a watcher sits down with the
/// table's buy-in.
fn change_seat(
    mut intents: MessageReader<Intent>,
    mut session: ResMut<Session>,
    mut slip: ResMut<BetSlip>,
    mut engine: ResMut<Engine>,
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
        let mut occupant = occupant.unwrap_or_else(|| Occupant::person("You", buy_in));
        occupant.buy_in = buy_in;
        match engine.sit(seat, occupant) {
            Ok(news) => {
                beats.show(news);
                session.player_seat = Some(seat);
                slip.chips.clear();
                slip.refusal = None;
            }
            Err(error) => slip.refusal = Some(error.to_string()),
        }
    }
}
