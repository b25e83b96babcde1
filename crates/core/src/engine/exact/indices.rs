//! Index plays, computed for a table's rules: the true count at which the better of two plays changes, for the
//! Illustrious 18, the Fab 4 surrenders and insurance.
//!
//! How (exact, at representative shoes): for each true count from −12 to +12, a shoe half dealt (the whole shoe under
//! four decks) whose cards lean toward the count's side in proportion to each rank's tag, rounded to whole cards;
//! the exact engine values every two-card hand on it; a play's gain is the two plays' values averaged over the
//! two-card hands of its total. The index is where the gain crosses zero, between the two shoes around it, on the
//! true counts those shoes really have.

use super::chart::{RowOf, averaged};
use super::{ExactRules, PostSplit, RANKS, Ranks, Reached, full_shoe, reached, table_on};
use crate::engine::count::System;
use crate::engine::rules::Rules;
use crate::engine::strategy::BasicStrategy;

/// The true counts tried.
pub const COUNTS: std::ops::RangeInclusive<i32> = -12..=12;

/// One of the plays in an index play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Choice {
    /// Stand.
    Stand,
    /// Hit.
    Hit,
    /// Double.
    Double,
    /// Split.
    Split,
    /// Surrender.
    Surrender,
    /// Take insurance.
    Insure,
    /// Decline insurance.
    Decline,
}

impl Choice {
    /// The word for it.
    pub fn word(self) -> &'static str {
        match self {
            Choice::Stand => "stand",
            Choice::Hit => "hit",
            Choice::Double => "double",
            Choice::Split => "split",
            Choice::Surrender => "surrender",
            Choice::Insure => "insure",
            Choice::Decline => "no insurance",
        }
    }
}

/// The hand of an index play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IndexHand {
    /// A hard total of two different cards.
    Hard(u8),
    /// A pair, by its points.
    Pair(u8),
    /// Insurance, whatever the hand.
    Insurance,
}

/// Which published set a play belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Set {
    /// Don Schlesinger's Illustrious 18 (insurance among them).
    Illustrious18,
    /// Schlesinger's Fab 4 late surrenders.
    Fab4,
}

/// A play whose better choice changes with the count: `low` below the index, `high` at it and above.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IndexPlay {
    /// The hand.
    pub hand: IndexHand,
    /// The dealer's up card by points (1 = ace).
    pub up: u8,
    /// The play at low counts.
    pub low: Choice,
    /// The play at the index and above.
    pub high: Choice,
    /// Its set.
    pub set: Set,
}

impl IndexPlay {
    /// Its name as players say it: `16 v T`, `T,T v 5`, `insurance`.
    pub fn name(&self) -> String {
        let up = super::name_of(self.up);
        match self.hand {
            IndexHand::Hard(total) => format!("{total} v {up}"),
            IndexHand::Pair(points) => {
                let card = super::name_of(points);
                format!("{card},{card} v {up}")
            }
            IndexHand::Insurance => "insurance".to_string(),
        }
    }
}

const fn play(hand: IndexHand, up: u8, low: Choice, high: Choice, set: Set) -> IndexPlay {
    IndexPlay {
        hand,
        up,
        low,
        high,
        set,
    }
}

/// The Illustrious 18 and the Fab 4, in Schlesinger's order (by what each is worth to a counter).
pub const PLAYS: [IndexPlay; 22] = {
    use Choice::*;
    use IndexHand::{Hard, Insurance as Ins, Pair};
    use Set::*;
    [
        play(Ins, 1, Decline, Insure, Illustrious18),
        play(Hard(16), 10, Hit, Stand, Illustrious18),
        play(Hard(15), 10, Hit, Stand, Illustrious18),
        play(Pair(10), 5, Stand, Split, Illustrious18),
        play(Pair(10), 6, Stand, Split, Illustrious18),
        play(Hard(10), 10, Hit, Double, Illustrious18),
        play(Hard(12), 3, Hit, Stand, Illustrious18),
        play(Hard(12), 2, Hit, Stand, Illustrious18),
        play(Hard(11), 1, Hit, Double, Illustrious18),
        play(Hard(9), 2, Hit, Double, Illustrious18),
        play(Hard(10), 1, Hit, Double, Illustrious18),
        play(Hard(9), 7, Hit, Double, Illustrious18),
        play(Hard(16), 9, Hit, Stand, Illustrious18),
        play(Hard(13), 2, Hit, Stand, Illustrious18),
        play(Hard(12), 4, Hit, Stand, Illustrious18),
        play(Hard(12), 5, Hit, Stand, Illustrious18),
        play(Hard(12), 6, Hit, Stand, Illustrious18),
        play(Hard(13), 3, Hit, Stand, Illustrious18),
        play(Hard(14), 10, Hit, Surrender, Fab4),
        play(Hard(15), 10, Hit, Surrender, Fab4),
        play(Hard(15), 9, Hit, Surrender, Fab4),
        play(Hard(15), 1, Hit, Surrender, Fab4),
    ]
};

/// Hi-Lo indices for six decks, dealer stands on soft 17, double after split (late surrender for the Fab 4), in
/// `PLAYS`' order: Don Schlesinger, *Blackjack Attack: Playing the Pros' Way*, 3rd edition (RGE Publishing, 2005),
/// "The Illustrious 18" and "The Fab 4" (multi-deck, S17; first published as "Attacking the Shoe", Blackjack Forum,
/// September 1986), as the Wizard of Odds reproduces them (wizardofodds.com/games/blackjack/card-counting/high-low/).
/// The play named `high` in `PLAYS` is made at the index and above, the true count floored. The check for the
/// computed indices (tests/strategy_computed.rs).
pub const PUBLISHED_6D_S17_DAS: [i32; 22] = [
    3,  // insurance
    0,  // 16 v T: stand
    4,  // 15 v T: stand
    5,  // T,T v 5: split
    4,  // T,T v 6: split
    4,  // 10 v T: double
    2,  // 12 v 3: stand
    3,  // 12 v 2: stand
    1,  // 11 v A: double
    1,  // 9 v 2: double
    4,  // 10 v A: double
    3,  // 9 v 7: double
    5,  // 16 v 9: stand
    -1, // 13 v 2: stand
    0,  // 12 v 4: stand
    -2, // 12 v 5: stand
    -1, // 12 v 6: stand
    -2, // 13 v 3: stand
    3,  // 14 v T: surrender
    0,  // 15 v T: surrender
    2,  // 15 v 9: surrender
    1,  // 15 v A: surrender
];

/// The published Hi-Lo index of `play` ([`PUBLISHED_6D_S17_DAS`]), where it is one of [`PLAYS`].
pub fn published(play: &IndexPlay) -> Option<i32> {
    PLAYS
        .iter()
        .position(|p| p == play)
        .map(|i| PUBLISHED_6D_S17_DAS[i])
}

/// An index play's computed index.
#[derive(Clone, Debug, PartialEq)]
pub struct Index {
    /// The play.
    pub play: IndexPlay,
    /// Where the gain of `high` over `low` crosses zero, in true counts; `None` where it does not within
    /// [`COUNTS`] (then `always` says which side it stays on).
    pub crossing: Option<f64>,
    /// The index as a counter uses it: the crossing rounded to the nearest true count.
    pub index: Option<i32>,
    /// When there is no crossing: `high` is better at every count tried (true) or at none (false).
    pub always: bool,
}

impl Index {
    /// The published indices ([`PUBLISHED_6D_S17_DAS`]) as indices a counter plays by.
    pub fn published_6d_s17_das() -> Vec<Index> {
        PLAYS
            .iter()
            .zip(PUBLISHED_6D_S17_DAS)
            .map(|(play, at)| Index {
                play: *play,
                crossing: Some(f64::from(at)),
                index: Some(at),
                always: false,
            })
            .collect()
    }
}

/// Why indices cannot be computed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IndexError {
    /// An unbalanced count has no true count to index by.
    #[error("{0} is unbalanced: its plays change by the running count, not by a true count")]
    Unbalanced(String),
}

/// A shoe whose true count by `system` is about `true_count`, and the true count it really has: `cards` cards
/// left of `decks` decks, each rank's share moved against its tag in proportion to it, rounded to whole cards.
pub fn shoe_at(system: &System, decks: u8, cards: u32, true_count: f64) -> (Ranks, f64) {
    let full = full_shoe(decks);
    let total = f64::from(decks) * 52.0;
    let base: Vec<f64> = full
        .iter()
        .map(|&n| f64::from(n) * f64::from(cards) / total)
        .collect();
    let tag = |rank: usize| f64::from(system.tags[rank]);
    let spread: f64 = (0..RANKS).map(|r| base[r] * tag(r) * tag(r)).sum();
    let scale = f64::from(system.scale.max(1));
    let decks_left = f64::from(cards) / 52.0;
    // −Σ nᵣ·tagᵣ / scale / decks left = true count, with nᵣ = baseᵣ·(1 − λ·tagᵣ) and Σ baseᵣ·tagᵣ = 0.
    let lambda = true_count * decks_left * scale / spread.max(f64::MIN_POSITIVE);
    let wanted: Vec<f64> = (0..RANKS)
        .map(|r| (base[r] * (1.0 - lambda * tag(r))).clamp(0.0, f64::from(full[r])))
        .collect();
    let mut shoe = [0u8; RANKS];
    for r in 0..RANKS {
        shoe[r] = wanted[r].floor() as u8;
    }
    // Whole cards by the largest remainders, up to the cards wanted.
    let mut order: Vec<usize> = (0..RANKS).collect();
    order.sort_by(|&a, &b| {
        let fraction = |r: usize| wanted[r] - wanted[r].floor();
        fraction(b).total_cmp(&fraction(a))
    });
    let mut short = cards.saturating_sub(shoe.iter().map(|&n| u32::from(n)).sum());
    for r in order {
        if short == 0 {
            break;
        }
        if shoe[r] < full[r] {
            shoe[r] += 1;
            short -= 1;
        }
    }
    // Rounding can lose the count (a level-2 tag is two thirds of a true count in three decks): move single cards
    // between ranks while that brings the shoe's tags nearer the count asked for, the least moved card first.
    let target = -true_count * decks_left * scale;
    for _ in 0..RANKS * 4 {
        let sum: f64 = (0..RANKS).map(|r| f64::from(shoe[r]) * tag(r)).sum();
        let mut best: Option<(f64, f64, usize, usize)> = None;
        for from in (0..RANKS).filter(|&r| shoe[r] > 0) {
            for to in (0..RANKS).filter(|&r| r != from && shoe[r] < full[r]) {
                let off = (sum - tag(from) + tag(to) - target).abs();
                let strain = (f64::from(shoe[from]) - 1.0 - wanted[from]).abs()
                    + (f64::from(shoe[to]) + 1.0 - wanted[to]).abs();
                if best
                    .is_none_or(|(o, st, _, _)| off < o - 1e-9 || (off < o + 1e-9 && strain < st))
                {
                    best = Some((off, strain, from, to));
                }
            }
        }
        match best {
            Some((off, _, from, to)) if off < (sum - target).abs() - 1e-9 => {
                shoe[from] -= 1;
                shoe[to] += 1;
            }
            _ => break,
        }
    }
    let left: f64 = shoe.iter().map(|&n| f64::from(n)).sum();
    let running: f64 = -(0..RANKS).map(|r| f64::from(shoe[r]) * tag(r)).sum::<f64>() / scale;
    (shoe, running / (left / 52.0))
}

/// The cards left in the representative shoes of a table of `decks` decks: half the shoe from four decks up, the
/// whole shoe below (fewer cards would round every rank's share too coarsely).
pub fn representative_cards(decks: u8) -> u32 {
    let cards = u32::from(decks) * 52;
    if decks >= 4 { cards / 2 } else { cards }
}

/// Whether an index play is a choice between hitting and standing, which a player makes on hands of any size.
fn hit_or_stand(play: &IndexPlay) -> bool {
    matches!(play.hand, IndexHand::Hard(_))
        && matches!(
            (play.low, play.high),
            (Choice::Hit, Choice::Stand) | (Choice::Stand, Choice::Hit)
        )
}

/// The gain of `high` over `low` for `play` on one worked-out shoe (`None` where one of them is not offered). A
/// choice between hitting and standing is weighed over every hand of the total a chart player decides on (three
/// cards and more as well as two: the published indices are for all of them, and a 16 of three cards stands at a
/// lower count than a 16 of two); the rest over the two-card hands, the only ones that may double, split or
/// surrender.
fn gain(
    play: &IndexPlay,
    shoe: &Ranks,
    table: &super::play::Table,
    reached: &[(u8, Vec<Reached>)],
) -> Option<f64> {
    if let (true, IndexHand::Hard(total)) = (hit_or_stand(play), play.hand) {
        let hands = &reached.iter().find(|(up, _)| *up == play.up)?.1;
        let (mut weight, mut stand_over_hit) = (0.0, 0.0);
        for hand in hands.iter().filter(|h| h.hard == total && !h.soft) {
            weight += hand.chance;
            stand_over_hit += hand.chance * (hand.stand - hand.hit);
        }
        if weight <= 0.0 {
            return None;
        }
        let gain = stand_over_hit / weight;
        return Some(if play.high == Choice::Stand {
            gain
        } else {
            -gain
        });
    }
    let value = |choice: Choice, v: &super::chart::Averaged| match choice {
        Choice::Stand => Some(v.stand),
        Choice::Hit => Some(v.hit),
        Choice::Double => v.double,
        Choice::Split => v.split,
        Choice::Surrender => v.surrender,
        Choice::Insure | Choice::Decline => None,
    };
    match play.hand {
        IndexHand::Insurance => {
            // Half the bet at 2 to 1 on a ten in the hole, per unit of the initial bet; the up ace is out.
            let left: f64 = shoe.iter().map(|&n| f64::from(n)).sum::<f64>() - 1.0;
            let ten = f64::from(shoe[9]) / left;
            Some(0.5 * (3.0 * ten - 1.0))
        }
        IndexHand::Hard(total) => {
            let v = averaged(table, RowOf::Hard(total), play.up, PostSplit::Cdz)?;
            Some(value(play.high, &v)? - value(play.low, &v)?)
        }
        IndexHand::Pair(points) => {
            let v = averaged(table, RowOf::Pair(points), play.up, PostSplit::Cdz)?;
            Some(value(play.high, &v)? - value(play.low, &v)?)
        }
    }
}

/// Each of `plays`' index for a table with `rules`, counting with `system`, worked out by the exact engine on
/// `threads` threads. Plays the rules do not offer (a surrender where there is none) are left out. A few seconds
/// for six decks.
pub fn indices_on(
    rules: &Rules,
    system: &System,
    plays: &[IndexPlay],
    threads: usize,
) -> Result<Vec<Index>, IndexError> {
    let mut search = Search::new(rules, system, plays)?;
    while !search.step(threads) {}
    Ok(search.indices())
}

/// [`indices_on`] a shoe at a time, for a thread that must draw between steps (the browser's).
pub struct Search {
    rules: ExactRules,
    decks: u8,
    system: System,
    /// The chart a player follows on the way to a hand.
    chart: BasicStrategy,
    plays: Vec<IndexPlay>,
    /// The next true count to try.
    next: i32,
    /// For each play, (true count, gain) on every shoe tried so far.
    gains: Vec<Vec<(f64, f64)>>,
}

impl Search {
    /// A search for `plays`' indices at a table with `rules`, counting with `system`.
    pub fn new(rules: &Rules, system: &System, plays: &[IndexPlay]) -> Result<Search, IndexError> {
        if !system.is_balanced() {
            return Err(IndexError::Unbalanced(system.name.clone()));
        }
        Ok(Search {
            rules: ExactRules::of(rules),
            decks: rules.decks,
            system: system.clone(),
            chart: BasicStrategy::for_rules(rules),
            plays: plays.to_vec(),
            next: *COUNTS.start(),
            gains: vec![Vec::new(); plays.len()],
        })
    }

    /// Works out one more shoe; true once every true count is done.
    pub fn step(&mut self, threads: usize) -> bool {
        if self.next > *COUNTS.end() {
            return true;
        }
        let cards = representative_cards(self.decks);
        let (shoe, real) = shoe_at(&self.system, self.decks, cards, f64::from(self.next));
        let table = table_on(self.rules, shoe, threads);
        let mut ups: Vec<u8> = self
            .plays
            .iter()
            .filter(|p| hit_or_stand(p))
            .map(|p| p.up)
            .collect();
        ups.sort_unstable();
        ups.dedup();
        let reached: Vec<(u8, Vec<Reached>)> = ups
            .into_iter()
            .map(|up| (up, reached(self.rules, shoe, up, &self.chart)))
            .collect();
        for (play, points) in self.plays.iter().zip(self.gains.iter_mut()) {
            if let Some(gain) = gain(play, &shoe, &table, &reached) {
                points.push((real, gain));
            }
        }
        self.next += 1;
        self.next > *COUNTS.end()
    }

    /// How far it has got, 0 to 1.
    pub fn progress(&self) -> f32 {
        let done = self.next - COUNTS.start();
        done as f32 / COUNTS.count() as f32
    }

    /// The indices (complete once `step` has said it is done).
    pub fn indices(&self) -> Vec<Index> {
        self.plays
            .iter()
            .zip(&self.gains)
            .filter(|(_, points)| points.len() == COUNTS.count())
            .map(|(play, points)| {
                let crossing = points.windows(2).find_map(|pair| {
                    let [(t0, g0), (t1, g1)] = [pair[0], pair[1]];
                    (g0 < 0.0 && g1 >= 0.0).then(|| t0 + (t1 - t0) * (-g0) / (g1 - g0))
                });
                Index {
                    play: *play,
                    crossing,
                    index: crossing.map(|c| c.round() as i32),
                    always: crossing.is_none() && points.iter().all(|&(_, g)| g >= 0.0),
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::count::{hi_lo, system};

    #[test]
    fn each_play_finds_its_own_published_index_and_another_play_none() {
        let sixteen = PLAYS
            .iter()
            .find(|p| p.hand == IndexHand::Hard(16) && p.up == 10)
            .expect("16 v T");
        assert_eq!(published(sixteen), Some(0));
        let insurance = PLAYS
            .iter()
            .find(|p| p.hand == IndexHand::Insurance)
            .expect("insurance");
        assert_eq!(published(insurance), Some(3));
        for (play, at) in PLAYS.iter().zip(PUBLISHED_6D_S17_DAS) {
            assert_eq!(published(play), Some(at), "{}", play.name());
        }
        let other = IndexPlay { up: 4, ..*sixteen };
        assert_eq!(published(&other), None);
    }

    #[test]
    fn representative_shoes_have_the_count_asked_for() {
        for system in crate::engine::count::systems()
            .iter()
            .filter(|s| s.is_balanced())
        {
            for count in [-6.0, -1.0, 0.0, 2.0, 5.0] {
                let (shoe, real) = shoe_at(system, 6, 156, count);
                assert_eq!(shoe.iter().map(|&n| u32::from(n)).sum::<u32>(), 156);
                // Within half a card's step: a level-2 tag moves three decks' true count by two thirds.
                assert!(
                    (real - count).abs() <= f64::from(system.level()) / 3.0 / 2.0 + 1e-9,
                    "{} at {count}: {real}",
                    system.name
                );
            }
        }
        let (neutral, real) = shoe_at(hi_lo(), 6, 156, 0.0);
        assert_eq!(neutral, [12, 12, 12, 12, 12, 12, 12, 12, 12, 48]);
        assert_eq!(real, 0.0);
        let (rich, _) = shoe_at(hi_lo(), 6, 156, 4.0);
        assert!(rich[9] > 48 && rich[4] < 12 && rich[7] == 12, "{rich:?}");
    }

    #[test]
    fn an_unbalanced_count_has_no_true_count_indices() {
        let ko = system("KO").expect("KO is listed");
        let rules = Rules::default();
        assert!(matches!(
            indices_on(&rules, ko, &PLAYS, 1),
            Err(IndexError::Unbalanced(_))
        ));
    }

    #[test]
    fn plays_have_their_players_names() {
        let names: Vec<String> = PLAYS.iter().take(4).map(IndexPlay::name).collect();
        assert_eq!(names, ["insurance", "16 v T", "15 v T", "T,T v 5"]);
    }
}
