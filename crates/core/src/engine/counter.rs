//! A card counter's game: a count, a bet ramp by the true count, and index plays over basic strategy. The simulator
//! plays it (`Solo::with_counter`) to give a counter's edge, swings, N0 and risk of ruin.

use super::card::Card;
use super::command::Action;
use super::count::{Count, System, decks_left_estimate};
use super::exact::indices::{Choice, Index, IndexHand, Set};
use super::hand::Cards;
use super::strategy::column_of_points;

/// Units bet by the true count: `steps` are (true count, units), rising; below the first, one unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ramp {
    steps: Vec<(i32, u32)>,
}

impl Ramp {
    /// A ramp from its steps.
    pub fn new(mut steps: Vec<(i32, u32)>) -> Ramp {
        steps.sort_unstable();
        Ramp { steps }
    }

    /// The usual 1–8 ramp on six decks: one unit to a true count of +1, then 2, 4, 6 and 8 units from +2, +3, +4, +5.
    pub fn one_to_eight() -> Ramp {
        Ramp::new(vec![(2, 2), (3, 4), (4, 6), (5, 8)])
    }

    /// A ramp from text: `2:2,3:4,4:6,5:8` (true count:units, one unit below the first).
    pub fn parse(text: &str) -> Result<Ramp, String> {
        let mut steps = Vec::new();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (count, units) = part.split_once(':').ok_or_else(|| {
                format!("`{part}` is not a step: write true count:units, as in 2:2,3:4")
            })?;
            let count: i32 = count
                .trim()
                .parse()
                .map_err(|_| format!("`{count}` in `{part}` is not a true count"))?;
            let units: u32 = units
                .trim()
                .parse()
                .ok()
                .filter(|u| (1..=1000).contains(u))
                .ok_or_else(|| format!("`{units}` in `{part}` is not 1 to 1000 units"))?;
            steps.push((count, units));
        }
        if steps.is_empty() {
            return Err("a ramp needs at least one step, as in 2:2,3:4,4:6,5:8".to_string());
        }
        Ok(Ramp::new(steps))
    }

    /// Units to bet at `true_count`.
    #[inline]
    pub fn units(&self, true_count: i32) -> u32 {
        self.steps
            .iter()
            .rev()
            .find(|&&(at, _)| true_count >= at)
            .map_or(1, |&(_, units)| units)
    }

    /// The largest bet over the smallest.
    pub fn spread(&self) -> u32 {
        self.steps.iter().map(|&(_, u)| u).max().unwrap_or(1).max(1)
    }
}

impl std::fmt::Display for Ramp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let steps: Vec<String> = self
            .steps
            .iter()
            .map(|(count, units)| format!("{count:+}:{units}"))
            .collect();
        write!(f, "1 unit, {}", steps.join(", "))
    }
}

/// One index play as the counter keeps it: the index, the play below it and the play at it and above.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rule {
    at: i32,
    low: Action,
    high: Action,
}

impl Rule {
    /// The play at `true_count`.
    fn at(self, true_count: i32) -> Action {
        if true_count >= self.at {
            self.high
        } else {
            self.low
        }
    }
}

fn action(choice: Choice) -> Action {
    match choice {
        Choice::Stand | Choice::Decline => Action::Stand,
        Choice::Hit => Action::Hit,
        Choice::Double => Action::Double,
        Choice::Split => Action::Split,
        Choice::Surrender | Choice::Insure => Action::Surrender,
    }
}

/// The index plays a counter makes, looked up by hand and up card (tables, not lists: the simulator asks at every
/// decision).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Deviations {
    /// Hard totals (any number of cards), by total and up card's column.
    hard: [[Option<Rule>; 10]; 22],
    /// Pairs, by points and column.
    pair: [[Option<Rule>; 10]; 11],
    /// Surrenders of hard two-card totals: the index at and above which to surrender.
    surrender: [[Option<i32>; 10]; 22],
    /// Insurance: the index at and above which to take it.
    insurance: Option<i32>,
}

impl Deviations {
    /// The deviations of computed indices (those with an index; a play better at every count is left to the chart).
    pub fn of(indices: &[Index]) -> Deviations {
        let mut deviations = Deviations::default();
        for index in indices {
            let Some(at) = index.index else { continue };
            let play = index.play;
            let col = column_of_points(play.up);
            let rule = Rule {
                at,
                low: action(play.low),
                high: action(play.high),
            };
            match (play.hand, play.set) {
                (IndexHand::Insurance, _) => deviations.insurance = Some(at),
                (IndexHand::Hard(total), Set::Fab4) => {
                    deviations.surrender[usize::from(total.min(21))][col] = Some(at);
                }
                (IndexHand::Hard(total), _) => {
                    deviations.hard[usize::from(total.min(21))][col] = Some(rule);
                }
                (IndexHand::Pair(points), _) => {
                    deviations.pair[usize::from(points.min(10))][col] = Some(rule);
                }
            }
        }
        deviations
    }

    /// How many index plays there are.
    pub fn len(&self) -> usize {
        let some = |rows: &[[Option<Rule>; 10]]| rows.iter().flatten().flatten().count();
        some(&self.hard)
            + some(&self.pair)
            + self.surrender.iter().flatten().flatten().count()
            + usize::from(self.insurance.is_some())
    }

    /// No index plays.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Insurance is worth taking at `true_count`.
    pub fn insures(&self, true_count: i32) -> bool {
        self.insurance.is_some_and(|at| true_count >= at)
    }

    /// The counter's play: `basic` (the chart's, with everything allowed that is), changed where an index play
    /// says so. The true count is asked for only where there is an index play; `without_surrender` gives the
    /// chart's play where surrendering is ruled out.
    pub fn play(
        &self,
        basic: Action,
        cards: &Cards,
        upcard: Card,
        true_count: impl Fn() -> i32,
        allowed: impl Fn(Action) -> bool,
        without_surrender: impl FnOnce() -> Action,
    ) -> Action {
        let total = cards.total();
        if total.is_soft() {
            return basic;
        }
        let col = column_of_points(upcard.points());
        let slice = cards.as_slice();
        if let [a, b] = slice
            && a.points() == b.points()
        {
            if let Some(rule) = self.pair[usize::from(a.points())][col] {
                let want = rule.at(true_count());
                if allowed(want) {
                    return want;
                }
            }
            if basic == Action::Split {
                return basic;
            }
        }
        let value = usize::from(total.value().min(21));
        let mut basic = basic;
        if slice.len() == 2
            && let Some(at) = self.surrender[value][col]
        {
            if true_count() >= at && allowed(Action::Surrender) {
                return Action::Surrender;
            }
            if basic == Action::Surrender {
                basic = without_surrender();
            }
        }
        if basic == Action::Surrender {
            return basic;
        }
        if let Some(rule) = self.hard[value][col] {
            let want = rule.at(true_count());
            return if allowed(want) {
                want
            } else if want == Action::Double && allowed(Action::Hit) {
                Action::Hit
            } else {
                Action::Stand
            };
        }
        basic
    }
}

/// What a counter plays by: the count, the ramp, the index plays.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The count.
    pub system: &'static System,
    /// Units by true count.
    pub ramp: Ramp,
    /// Index plays.
    pub deviations: Deviations,
}

/// A counter at the table: the plan and the count so far.
#[derive(Clone, Debug)]
pub struct Counter {
    plan: Plan,
    count: Count,
    decks: u8,
}

impl Counter {
    /// A counter for a shoe of `decks` decks.
    pub fn new(plan: Plan, decks: u8) -> Counter {
        Counter {
            count: Count::new(plan.system, decks),
            plan,
            decks,
        }
    }

    /// The plan.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// The shoe was shuffled.
    #[inline]
    pub fn shuffle(&mut self) {
        self.count.shuffle();
    }

    /// A card came face up.
    #[inline]
    pub fn see(&mut self, card: Card) {
        self.count.see(card);
    }

    /// The true count, floored, with the decks left judged from `tray_cards` in the discard tray.
    #[inline]
    pub fn true_count(&self, tray_cards: u32) -> i32 {
        self.count
            .true_count_floor(decks_left_estimate(self.decks, tray_cards))
    }

    /// Units to bet at this true count.
    #[inline]
    pub fn units(&self, true_count: i32) -> u32 {
        self.plan.ramp.units(true_count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::card::{Rank, Suit};

    #[test]
    fn ramps_read_and_bet_by_the_true_count() {
        let ramp = Ramp::parse("2:2, 3:4,4:6,5:8").expect("a ramp");
        assert_eq!(ramp, Ramp::one_to_eight());
        assert_eq!(
            [-3, 0, 1, 2, 3, 4, 5, 9].map(|tc| ramp.units(tc)),
            [1, 1, 1, 2, 4, 6, 8, 8]
        );
        assert_eq!(ramp.spread(), 8);
        assert!(Ramp::parse("2").unwrap_err().contains("true count:units"));
        assert!(Ramp::parse("2:0").unwrap_err().contains("1 to 1000"));
        assert!(Ramp::parse("x:2").unwrap_err().contains("not a true count"));
        assert!(Ramp::parse("").is_err());
    }

    fn cards(points: &[u8]) -> Cards {
        let mut cards = Cards::default();
        for &p in points {
            let rank = Rank::from_number(p).unwrap_or(Rank::Ten);
            cards.push(Card::new(0, Suit::Hearts, rank));
        }
        cards
    }

    fn up(points: u8) -> Card {
        Card::new(
            0,
            Suit::Clubs,
            Rank::from_number(points).unwrap_or(Rank::Ten),
        )
    }

    fn published() -> Deviations {
        Deviations::of(&Index::published_6d_s17_das())
    }

    #[test]
    fn index_plays_change_the_chart_at_their_counts() {
        let d = published();
        assert_eq!(d.len(), 22);
        let all = |_: Action| true;
        let no_surrender = || Action::Hit;
        // 16 v T: surrender stays (no Fab 4 entry); without surrender, stand from 0 up.
        let sixteen = cards(&[10, 6]);
        assert_eq!(
            d.play(Action::Surrender, &sixteen, up(10), || 0, all, no_surrender),
            Action::Surrender
        );
        let hit_or_stand = |a: Action| a != Action::Surrender;
        assert_eq!(
            d.play(
                Action::Hit,
                &sixteen,
                up(10),
                || 0,
                hit_or_stand,
                no_surrender
            ),
            Action::Stand
        );
        assert_eq!(
            d.play(
                Action::Hit,
                &sixteen,
                up(10),
                || -1,
                hit_or_stand,
                no_surrender
            ),
            Action::Hit
        );
        // 15 v T: surrender from 0 up (Fab 4), below it hit, and stand only from +4 where surrender is refused.
        let fifteen = cards(&[9, 6]);
        assert_eq!(
            d.play(Action::Surrender, &fifteen, up(10), || 0, all, no_surrender),
            Action::Surrender
        );
        assert_eq!(
            d.play(
                Action::Surrender,
                &fifteen,
                up(10),
                || -1,
                all,
                no_surrender
            ),
            Action::Hit
        );
        assert_eq!(
            d.play(
                Action::Hit,
                &fifteen,
                up(10),
                || 4,
                hit_or_stand,
                no_surrender
            ),
            Action::Stand
        );
        // 12 v 4: hit below 0, with three cards as with two.
        let twelve = cards(&[5, 4, 3]);
        assert_eq!(
            d.play(Action::Stand, &twelve, up(4), || -1, all, no_surrender),
            Action::Hit
        );
        assert_eq!(
            d.play(Action::Stand, &twelve, up(4), || 0, all, no_surrender),
            Action::Stand
        );
        // 10 v T doubles from +4, and hits when a third card rules the double out.
        assert_eq!(
            d.play(
                Action::Hit,
                &cards(&[6, 4]),
                up(10),
                || 4,
                all,
                no_surrender
            ),
            Action::Double
        );
        let no_double = |a: Action| a != Action::Double;
        assert_eq!(
            d.play(
                Action::Hit,
                &cards(&[3, 3, 4]),
                up(10),
                || 6,
                no_double,
                no_surrender
            ),
            Action::Hit
        );
        // T,T v 6 splits from +4; soft hands and 8,8 keep the chart's play.
        assert_eq!(
            d.play(
                Action::Stand,
                &cards(&[10, 10]),
                up(6),
                || 4,
                all,
                no_surrender
            ),
            Action::Split
        );
        assert_eq!(
            d.play(
                Action::Stand,
                &cards(&[10, 10]),
                up(6),
                || 3,
                all,
                no_surrender
            ),
            Action::Stand
        );
        assert_eq!(
            d.play(
                Action::Split,
                &cards(&[8, 8]),
                up(10),
                || 9,
                all,
                no_surrender
            ),
            Action::Split
        );
        assert_eq!(
            d.play(
                Action::Hit,
                &cards(&[1, 5]),
                up(10),
                || 9,
                all,
                no_surrender
            ),
            Action::Hit
        );
        assert!(d.insures(3) && !d.insures(2));
    }
}
