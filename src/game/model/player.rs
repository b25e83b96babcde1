//! The player's own seat, as intents: what the player asks for (a chip, Rebet, 2×, Undo, Clear, Deal, a decision, a
//! seat), the bet slip it builds (checked against the table's limits and the bankroll as chips go down), and the
//! chips on offer. Intents arrive as messages from whatever input there is (the HUD, the keyboard, a test); the
//! table's driver (`local` or `online`) turns them into commands, and a refusal becomes words on the slip, never a
//! silent change.

use crate::engine::{Action, Cents, Rules, SeatId, TableState};
use crate::game::model::screen::Screen;
pub use crate::game::model::session::human_seat;
pub use crate::game::model::settings::PlayOptions;
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

pub(crate) fn plugin(app: &mut App) {
    app.add_message::<Intent>()
        .init_resource::<BetSlip>()
        .init_resource::<PlayOptions>()
        .init_resource::<Pending>()
        .add_systems(
            OnEnter(Screen::Table),
            |mut slip: ResMut<BetSlip>, mut pending: ResMut<Pending>, mut commands: Commands| {
                *slip = BetSlip::default();
                pending.0 = None;
                commands.remove_resource::<GameOver>();
            },
        )
        .add_systems(
            OnEnter(crate::game::model::screen::RoundPhase::Betting),
            |mut slip: ResMut<BetSlip>| slip.in_play = false,
        );
}

/// A table played until someone is broke has its answer: nothing more is bet, the sitting is not kept (there is
/// nothing to resume), and the HUD says who went broke.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameOver(pub crate::host::level::Broke);

/// Chips in the player's rack.
const RACK: usize = 5;

pub use crate::host::design::CHIP_VALUES;

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
pub(crate) fn bet_refusal(rules: &Rules, total: Cents, bankroll: Cents) -> Option<String> {
    if total > rules.max_bet {
        Some(format!("The table maximum is {}.", rules.max_bet))
    } else if total > bankroll {
        Some(format!("You have {bankroll} in front of you."))
    } else {
        None
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
