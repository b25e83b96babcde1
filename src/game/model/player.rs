//! The player's own seat, as intents: what the player asks for (a chip, Rebet, 2×, Undo, Clear, Deal, a decision, a
//! seat), the bet slip it builds (checked against the table's limits and the bankroll as chips go down), and the
//! chips on offer. Intents arrive as messages from whatever input there is (the HUD, the keyboard, a test); the
//! table's driver (`local` or `online`) turns them into commands, and a refusal becomes words on the slip, never a
//! silent change.

use crate::engine::side::{SideBet, SideStakes};
use crate::engine::{Action, Cents, Rules, SeatId, TableState};
use crate::game::model::screen::Screen;
pub use crate::game::model::session::human_seat;
pub use crate::game::model::settings::PlayOptions;
use bevy::prelude::*;

/// Something the player asked for.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Intent {
    /// Put a chip of this value on the spot chosen (the bet, or a side bet).
    Chip(Cents),
    /// Put the next chips on this spot: the bet (`None`) or one of the table's side bets.
    Spot(Option<SideBet>),
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

/// The bet the player is building (and the side bets beside it), what they bet last, and the last thing the table
/// refused.
#[derive(Resource, Default, Debug)]
pub struct BetSlip {
    /// Chips put in the bet circle this round, in order (Undo takes the last).
    pub chips: Vec<Cents>,
    /// Chips put on side-bet spots this round, in order, each with its spot.
    pub sides: Vec<(SideBet, Cents)>,
    /// Where the next chip goes: the bet (`None`) or a side bet's spot.
    pub spot: Option<SideBet>,
    /// The last bet dealt, for Rebet.
    pub last_bet: Cents,
    /// The side bets dealt with it, for Rebet.
    pub last_sides: SideStakes,
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

    /// The side bets being built, by spot.
    pub fn side_stakes(&self) -> SideStakes {
        stakes_of(&self.sides)
    }

    /// No chip is down anywhere.
    pub fn is_empty(&self) -> bool {
        self.chips.is_empty() && self.sides.is_empty()
    }

    /// Every chip goes back: the bet and its side bets dealt (or given back by the table) leave the slip.
    pub fn dealt(&mut self, total: Cents) {
        self.last_bet = total;
        self.last_sides = self.side_stakes();
        self.chips.clear();
        self.sides.clear();
        self.in_play = true;
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

/// Chips on side-bet spots, added up by spot.
fn stakes_of(chips: &[(SideBet, Cents)]) -> SideStakes {
    let mut stakes = SideStakes::default();
    for &(bet, chip) in chips {
        stakes.set(bet, stakes.get(bet) + chip);
    }
    stakes
}

/// Why a bet of `total` with side bets `sides` can't be dealt at this table with this bankroll, if it can't.
pub(crate) fn bet_refusal(
    rules: &Rules,
    total: Cents,
    sides: &SideStakes,
    bankroll: Cents,
) -> Option<String> {
    let offered = &rules.side_bets;
    if total > rules.max_bet {
        return Some(format!("The table maximum is {}.", rules.max_bet));
    }
    for (bet, amount) in sides.staked() {
        if !offered.offers(bet) {
            return Some(format!("This table has no {} bet.", bet.name()));
        }
        if amount > offered.max_bet {
            return Some(format!(
                "The most on {} is {}.",
                bet.name(),
                offered.max_bet
            ));
        }
    }
    if total + sides.total() > bankroll {
        Some(format!("You have {bankroll} in front of you."))
    } else {
        None
    }
}

/// The bet slip's own intents (a chip, a spot, Rebet, 2×, Undo, Clear), checked against the limits and `bankroll`
/// as they go down, at the player's own table and online alike. False for an intent that is not the slip's.
pub fn slip_change(slip: &mut BetSlip, intent: &Intent, rules: &Rules, bankroll: Cents) -> bool {
    type Chips = (Vec<Cents>, Vec<(SideBet, Cents)>);
    let proposed: Option<Chips> = match *intent {
        Intent::Chip(value) => Some(match slip.spot {
            None => (
                slip.chips.iter().copied().chain([value]).collect(),
                slip.sides.clone(),
            ),
            Some(bet) => (
                slip.chips.clone(),
                slip.sides.iter().copied().chain([(bet, value)]).collect(),
            ),
        }),
        Intent::Spot(spot) => {
            slip.refusal = match spot {
                Some(bet) if !rules.side_bets.offers(bet) => {
                    Some(format!("This table has no {} bet.", bet.name()))
                }
                _ => {
                    slip.spot = spot;
                    None
                }
            };
            None
        }
        Intent::Rebet => Some((
            vec![slip.last_bet],
            slip.last_sides
                .staked()
                .filter(|&(bet, _)| rules.side_bets.offers(bet))
                .collect(),
        ))
        .filter(|_| slip.last_bet.is_positive()),
        Intent::DoubleBet => Some((slip.chips.repeat(2), slip.sides.repeat(2))),
        Intent::Undo => {
            // The last chip on the spot chosen; with none there, the last on the bet.
            match slip
                .spot
                .and_then(|bet| slip.sides.iter().rposition(|&(b, _)| b == bet))
            {
                Some(last) => {
                    slip.sides.remove(last);
                }
                None => {
                    slip.chips.pop();
                }
            }
            slip.refusal = None;
            None
        }
        Intent::Clear => {
            slip.chips.clear();
            slip.sides.clear();
            slip.refusal = None;
            None
        }
        Intent::Deal | Intent::Rebuy | Intent::Play(_) | Intent::SitAt(_) => return false,
    };
    if let Some((chips, sides)) = proposed {
        let total: Cents = chips.iter().copied().sum();
        slip.refusal = bet_refusal(rules, total, &stakes_of(&sides), bankroll);
        if slip.refusal.is_none() {
            slip.chips = chips;
            slip.sides = sides;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Preset;
    use crate::engine::side::PairPays;

    /// The slip's side bets: chips go on the spot chosen, Undo takes the last one there, 2× doubles every spot, the
    /// bankroll covers them all with the bet, and Rebet puts back only what this table offers.
    #[test]
    fn side_bets_are_built_on_the_slip_spot_by_spot() {
        let mut rules = Preset::LasVegasStrip.rules();
        rules.side_bets.perfect_pairs = Some(PairPays::TWENTY_FIVE);
        let pairs = SideBet::PerfectPairs;
        let mut slip = BetSlip::default();
        let bankroll = Cents::units(60);
        let put =
            |slip: &mut BetSlip, intent| assert!(slip_change(slip, &intent, &rules, bankroll));
        put(&mut slip, Intent::Chip(Cents::units(25)));
        put(&mut slip, Intent::Spot(Some(pairs)));
        put(&mut slip, Intent::Chip(Cents::units(5)));
        put(&mut slip, Intent::Chip(Cents::units(1)));
        assert_eq!(slip.total(), Cents::units(25));
        assert_eq!(slip.side_stakes().get(pairs), Cents::units(6));
        put(&mut slip, Intent::Undo);
        assert_eq!(slip.side_stakes().get(pairs), Cents::units(5));
        assert_eq!(
            slip.total(),
            Cents::units(25),
            "Undo takes from the spot chosen"
        );
        put(&mut slip, Intent::DoubleBet);
        assert_eq!(
            (slip.total(), slip.side_stakes().total()),
            (Cents::units(50), Cents::units(10))
        );
        // $60 covers $50 and $10, not a dollar more anywhere.
        put(&mut slip, Intent::Chip(Cents::units(1)));
        assert_eq!(
            slip.refusal.as_deref(),
            Some("You have $60 in front of you.")
        );
        assert_eq!(slip.side_stakes().get(pairs), Cents::units(10));
        put(&mut slip, Intent::Spot(Some(SideBet::Buster)));
        assert_eq!(
            slip.refusal.as_deref(),
            Some("This table has no Buster Blackjack bet.")
        );
        assert_eq!(slip.spot, Some(pairs), "the spot stays where it was");
        slip.dealt(slip.total());
        assert!(slip.is_empty() && slip.in_play);
        assert_eq!(slip.last_sides.get(pairs), Cents::units(10));
        slip.in_play = false;
        put(&mut slip, Intent::Rebet);
        assert_eq!(
            (slip.total(), slip.side_stakes().total()),
            (Cents::units(50), Cents::units(10))
        );
        put(&mut slip, Intent::Clear);
        assert!(slip.is_empty());
        // At a table without Perfect Pairs, Rebet brings back the bet alone.
        let plain = Preset::LasVegasStrip.rules();
        assert!(slip_change(&mut slip, &Intent::Rebet, &plain, bankroll));
        assert_eq!(
            (slip.total(), slip.side_stakes().total()),
            (Cents::units(50), Cents::ZERO)
        );
    }
}
