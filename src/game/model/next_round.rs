//! The next round, between rounds, with the advisor on: its exact value on the cards the seat has not seen, every
//! hand played as well as that shoe allows (`engine::exact::table`), never from a table's host; beside it the count's
//! estimate of the same edge, and the bet both suggest for the player's chips (Kelly, the fraction in Settings, to
//! the table's chips and limits), splits valued under CDZ- alone (the strategy the advisor shows). Natively it is
//! worked out on Bevy's async compute pool (`exact::table_cdz`; another thread, itself on two); in the browser, with
//! one thread, in short pieces (`exact::RoundSteps::cdz`: the plan, the dealer's odds for each
//! up card a few thousand hands at a time, their assembly, each deal against each up card), as many a frame as fit in
//! its share of the frame ([`share`]).

use crate::engine::exact::{self, ExactRules, PostSplit, RANKS, Ranks, RoundSteps};
use crate::engine::{Cents, Phase, Rules, TableState};
use crate::game::model::screen::{RoundPhase, RoundSet, Screen};
use crate::game::model::seen::Seen;
use crate::game::model::settings::PlayOptions;
use crate::game::model::table::SeatView;
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use std::time::Duration;

/// The variance of one round's result per unit bet, squared units (about 1.3 for multi-deck games with doubles and
/// splits): Kelly's bet is the edge over it.
pub const ROUND_VARIANCE: f64 = 1.3;

/// The edge a true count of one adds, per unit bet, for a balanced count like Hi-Lo (half a percent: the counter's
/// rule of thumb the estimate beside the exact value uses).
pub const EDGE_PER_TRUE_COUNT: f64 = 0.005;

/// How long the pieces worked out in one frame may take together at least, in the browser: half a frame at 60 a
/// second, leaving the rest for the frame itself.
pub const FRAME_SHARE: Duration = Duration::from_millis(8);

/// The most the pieces may take in one frame, however slow the frames are: a twentieth of a second.
pub const MOST_SHARE: Duration = Duration::from_millis(50);

/// How long this frame's pieces may take together: half of what the last frame took besides them (`frame`, from
/// the frame before to this one, less `worked`, the pieces' own time in it), so the frame rate falls by a third at
/// most while the value is worked out; never less than [`FRAME_SHARE`] (a fast machine's frames), never more than
/// [`MOST_SHARE`]. A machine that draws slowly — a phone's browser without a graphics card, a page drawn in software
/// — would otherwise spend a hundred frames of its own on the half-second of work, and the value would come
/// seconds later than it needs to.
pub fn share(frame: Duration, worked: Duration) -> Duration {
    (frame.saturating_sub(worked) / 2).clamp(FRAME_SHARE, MOST_SHARE)
}

/// The next round's exact value, as the advisor works it out.
#[derive(Resource)]
pub struct NextRound {
    /// The shoe and rules last asked about.
    asked: Option<(Ranks, ExactRules)>,
    task: Option<Task<(f64, Duration)>>,
    /// Work in pieces on this thread (the browser's way), instead of on another thread.
    pub sliced: bool,
    steps: Option<RoundSteps>,
    /// The time each frame spent on it, its last pieces' (as many as [`RECENT`]) and its longest piece's.
    slices: Vec<Duration>,
    recent: std::collections::VecDeque<Duration>,
    longest_piece: Duration,
    /// The value per unit bet (the player's: negative when the house has the edge), once in.
    answer: Option<f64>,
}

impl Default for NextRound {
    fn default() -> NextRound {
        NextRound {
            asked: None,
            task: None,
            sliced: crate::game::model::advisor::one_thread(),
            steps: None,
            slices: Vec::new(),
            recent: std::collections::VecDeque::new(),
            longest_piece: Duration::ZERO,
            answer: None,
        }
    }
}

impl NextRound {
    /// The next round's value per unit bet, if worked out for the shoe the seat has now.
    pub fn value(&self) -> Option<f64> {
        self.answer
    }

    /// Being worked out.
    pub fn thinking(&self) -> bool {
        self.asked.is_some() && self.answer.is_none()
    }
}

/// The cards of `decks` decks the seat has not seen, by points; none when more of a rank was seen than the shoe
/// holds (a view the seat cannot make sense of).
pub fn unseen_shoe(decks: u8, seen: &Ranks) -> Option<Ranks> {
    let mut shoe = exact::full_shoe(decks);
    for rank in 0..RANKS {
        shoe[rank] = shoe[rank].checked_sub(seen[rank])?;
    }
    Some(shoe)
}

/// The count's estimate of the next round's value per unit bet: the full shoe's value (`full`) and half a percent
/// for each true count (scaled for a count that counts in halves).
pub fn count_estimate(full: f64, true_count: f64) -> f64 {
    full + EDGE_PER_TRUE_COUNT * true_count
}

/// The bet Kelly suggests for `value` per unit bet and `chips`, a `fraction` of the full Kelly bet, rounded down to
/// the table's smallest chip and held to its limits: the table's minimum when the house has the edge.
pub fn kelly_bet(value: f64, chips: Cents, fraction: f64, rules: &Rules) -> Cents {
    let chip = crate::game::model::player::denominations(rules)
        .first()
        .copied()
        .unwrap_or(rules.bet_unit)
        .0
        .max(1);
    // (A millionth of a cent over, so that a bet on the chip is not a cent under it by the rounding of the division.)
    let kelly = (value.max(0.0) / ROUND_VARIANCE * fraction * chips.0 as f64 + 1e-6).floor() as i64;
    let bet = kelly / chip * chip;
    Cents(bet.clamp(rules.min_bet.0, rules.max_bet.0.max(rules.min_bet.0)))
}

/// What the round last dealt at the player's own table was expected to bring, as it was dealt: the bet at the
/// round's exact value on the shoe it was dealt from and each side bet at its own; none until that value is in
/// (it goes on being worked out after the deal), or where a side bet's was not known.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct Dealt {
    /// The table's round.
    pub round: u64,
    /// Its expected result, once known.
    pub expected: Option<Cents>,
    /// The bet, and each side bet at its value (none where not known): what is left to price is the bet.
    bet: Cents,
    sides: Option<Cents>,
    /// The shoe it was dealt from, as the next round's value was asked about it.
    shoe: Option<(Ranks, ExactRules)>,
}

impl Dealt {
    /// The round `round` dealt with `bet` and `sides` from the shoe `next` is working on, the side bets valued by
    /// `values`.
    pub fn of(
        round: u64,
        bet: Cents,
        sides: &crate::engine::side::SideStakes,
        next: &NextRound,
        values: &crate::game::model::sides::SideValues,
    ) -> Dealt {
        let sides = sides.staked().try_fold(Cents::ZERO, |sum, (side, stake)| {
            values.of(side).map(|v| sum + cents(stake, v))
        });
        let mut dealt = Dealt {
            round,
            expected: None,
            bet,
            sides,
            shoe: next.asked,
        };
        dealt.price(next);
        dealt
    }

    /// Takes the round's value in once `next` has it for the shoe this round was dealt from.
    fn price(&mut self, next: &NextRound) {
        if self.expected.is_none()
            && self.shoe.is_some()
            && next.asked == self.shoe
            && let (Some(value), Some(sides)) = (next.value(), self.sides)
        {
            self.expected = Some(cents(self.bet, value) + sides);
        }
    }
}

/// `stake` at `value` per unit, to the nearest cent.
fn cents(stake: Cents, value: f64) -> Cents {
    Cents((stake.0 as f64 * value).round() as i64)
}

/// The dealt round's value, taken in when it comes.
fn price_dealt(next: Res<NextRound>, mut dealt: ResMut<Dealt>) {
    if dealt.expected.is_none() && dealt.shoe.is_some() {
        dealt.price(&next);
    }
}

/// Asks about the seat's shoe between rounds when it changed, and takes the answer in: on another thread, or a
/// few pieces a frame.
fn work_out(
    options: Res<PlayOptions>,
    (view, phase): (Option<Res<SeatView>>, Option<Res<State<RoundPhase>>>),
    seen: Res<Seen>,
    real: Res<Time<Real>>,
    mut next: ResMut<NextRound>,
) {
    let frame = real.delta();
    // Between rounds as the table shows them (the view's phase is still Betting while the first cards go out).
    let between = phase.is_some_and(|p| *p.get() == RoundPhase::Betting);
    // Dealt, the round's value goes on being worked out for the shoe it was dealt from (the round is valued as
    // dealt); the next shoe is asked about between rounds.
    if !between && next.asked.is_some() {
        return step(&mut next, frame);
    }
    let shoe = view
        .filter(|view| {
            (options.advisor || options.luck) && between && view.0.phase() == Phase::Betting
        })
        .and_then(|view| {
            let rules = view.0.rules();
            // With the cut card out the next deal shuffles first: a full shoe.
            let seen = if view.0.shoe().cut_card_out {
                [0; RANKS]
            } else {
                seen.tray().seen()
            };
            let shoe = unseen_shoe(rules.decks, &seen)?;
            // Too few cards to play a round out: the cut card has long come.
            (shoe.iter().map(|&n| u32::from(n)).sum::<u32>() >= 20)
                .then(|| (shoe, ExactRules::of(rules)))
        });
    if shoe != next.asked {
        let sliced = next.sliced;
        *next = NextRound {
            sliced,
            ..NextRound::default()
        };
        if let Some((shoe, rules)) = shoe {
            if sliced {
                next.steps = Some(RoundSteps::cdz(rules, shoe));
            } else {
                next.task = Some(AsyncComputeTaskPool::get().spawn(async move {
                    let started = bevy::platform::time::Instant::now();
                    let table = exact::table_cdz(rules, shoe, exact::threads());
                    (table.value(PostSplit::Cdz), started.elapsed())
                }));
            }
        }
        next.asked = shoe;
        return;
    }
    step(&mut next, frame);
}

/// How many of the last pieces judge the next one's length: the pieces of one kind come together, and a deal with
/// a split (the longest) comes every ten deals or fewer.
const RECENT: usize = 10;

/// The longest of some pieces' times.
fn longest(pieces: &std::collections::VecDeque<Duration>) -> Duration {
    pieces.iter().max().copied().unwrap_or_default()
}

/// This frame's pieces (while they fit in its [`share`], the longest of the last [`RECENT`] taken as the next
/// one's length), or the other thread's answer if it is in. `last_frame`: the time from the frame before to this
/// one.
fn step(next: &mut NextRound, last_frame: Duration) {
    if let Some(steps) = next.steps.as_mut() {
        // The first frame's share is the least: the frame before it may have waited for the player.
        let budget = match next.slices.last() {
            Some(&worked) => share(last_frame, worked),
            None => FRAME_SHARE,
        };
        let frame = bevy::platform::time::Instant::now();
        let mut done = None;
        let mut pieces = 0;
        while done.is_none() && (pieces == 0 || frame.elapsed() + longest(&next.recent) <= budget) {
            let piece = bevy::platform::time::Instant::now();
            done = steps.step().map(|table| table.value(PostSplit::Cdz));
            let took = piece.elapsed();
            next.longest_piece = next.longest_piece.max(took);
            if next.recent.len() == RECENT {
                next.recent.pop_front();
            }
            next.recent.push_back(took);
            pieces += 1;
        }
        next.slices.push(frame.elapsed());
        if let Some(value) = done {
            let total: Duration = next.slices.iter().sum();
            let largest = next.slices.iter().max().copied().unwrap_or_default();
            info!(
                target: "holecard::advisor",
                "next round: {} in {:.1} ms over {} frames (the most in one frame {:.1} ms, the longest piece {:.1} ms)",
                crate::engine::words::signed(value * 100.0, 3) + "%",
                total.as_secs_f64() * 1000.0,
                next.slices.len(),
                largest.as_secs_f64() * 1000.0,
                next.longest_piece.as_secs_f64() * 1000.0
            );
            next.answer = Some(value);
            next.steps = None;
        }
    }
    if let Some(task) = next.task.as_mut()
        && let Some((value, took)) = check_ready(task)
    {
        info!(
            target: "holecard::advisor",
            "next round: {} worked out in {:.1} ms",
            crate::engine::words::signed(value * 100.0, 3) + "%",
            took.as_secs_f64() * 1000.0
        );
        next.answer = Some(value);
        next.task = None;
    }
}

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<NextRound>()
        .init_resource::<Dealt>()
        .add_systems(
            OnEnter(Screen::Table),
            |mut next: ResMut<NextRound>, mut dealt: ResMut<Dealt>| {
                *next = NextRound {
                    sliced: next.sliced,
                    ..NextRound::default()
                };
                *dealt = Dealt::default();
            },
        )
        .add_systems(
            Update,
            (work_out, price_dealt)
                .chain()
                .after(RoundSet::Present)
                .run_if(in_state(Screen::Table)),
        );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Preset;

    /// Kelly's bet: a fraction of the chips times the edge over the variance, down to the smallest chip, within the
    /// table's limits; the minimum when the house has the edge.
    #[test]
    fn the_suggested_bet_is_kelly_to_the_tables_chips_and_limits() {
        let rules = Preset::LasVegasStrip.rules();
        let chips = Cents::units(10_000);
        // +1.3% a round on $10,000: full Kelly $100, half $50.
        assert_eq!(kelly_bet(0.013, chips, 1.0, &rules), Cents::units(100));
        assert_eq!(kelly_bet(0.013, chips, 0.5, &rules), Cents::units(50));
        // Down to whole dollars (the smallest chip here is $1).
        assert_eq!(kelly_bet(0.0131, chips, 0.5, &rules), Cents::units(50));
        // The house's edge, or too small a bankroll: the table minimum.
        assert_eq!(kelly_bet(-0.005, chips, 1.0, &rules), rules.min_bet);
        assert_eq!(
            kelly_bet(0.01, Cents::units(100), 1.0, &rules),
            rules.min_bet
        );
        // Never over the table maximum.
        assert_eq!(
            kelly_bet(0.5, Cents::units(10_000_000), 1.0, &rules),
            rules.max_bet
        );
        // The count's estimate: the full shoe's value and half a percent a true count.
        assert!((count_estimate(-0.004, 2.0) - 0.006).abs() < 1e-12);
        // The unseen shoe: the seen cards out; none where more were seen than the shoe holds.
        let mut seen = [0u8; RANKS];
        seen[9] = 4;
        assert_eq!(unseen_shoe(1, &seen).map(|s| s[9]), Some(12));
        seen[0] = 5;
        assert_eq!(unseen_shoe(1, &seen), None);
    }

    /// The pieces' share of a frame: half of the rest of the frame before, within 8 and 50 ms.
    #[test]
    fn the_pieces_take_half_of_the_rest_of_the_frame() {
        let ms = Duration::from_millis;
        // A fast machine at 60 frames a second: the least share.
        assert_eq!(share(ms(16), ms(8)), FRAME_SHARE);
        assert_eq!(share(ms(16), ms(0)), FRAME_SHARE);
        // A page drawn in software, about a tenth of a second a frame besides the pieces: half of that.
        assert_eq!(share(ms(130), ms(30)), ms(50));
        assert_eq!(share(ms(90), ms(10)), ms(40));
        // A frame that waited a long time, or a clock that jumped: the most.
        assert_eq!(share(ms(5_000), ms(8)), MOST_SHARE);
        // A frame shorter than the pieces measured in it (clocks read at other moments): the least.
        assert_eq!(share(ms(5), ms(8)), FRAME_SHARE);
    }
}
