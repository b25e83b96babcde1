//! Basic strategy worked out for a table's rules, as printed charts are made: each cell is the play worth most on
//! the full shoe for the two-card hands of that total against that up card, weighted by how often each comes;
//! a pair's cell says whether splitting beats playing the pair by its total.

use super::play::{Table, Values};
use super::{ExactRules, PostSplit, RANKS, full_shoe, table_on};
use crate::engine::rules::Rules;
use crate::engine::strategy::{Grid, Play, Row, column_of_points};

/// A hand as a chart row names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RowOf {
    /// Two cards of different points making a hard total.
    Hard(u8),
    /// An ace and another card (not an ace, not a ten): soft 13–20.
    Soft(u8),
    /// A pair, by its points (1 = aces).
    Pair(u8),
}

/// The row a two-card hand belongs to (a blackjack belongs to none).
pub fn row_of(cards: [u8; 2]) -> Option<RowOf> {
    let [a, b] = cards;
    if a == b {
        Some(RowOf::Pair(a))
    } else if a == 1 || b == 1 {
        let other = a.max(b);
        (other < 10).then_some(RowOf::Soft(11 + other))
    } else {
        Some(RowOf::Hard(a + b))
    }
}

/// Every play's value averaged over the two-card hands of one row against one up card, each weighted by its
/// chance; a play one of the hands may not make is left out (`None`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Averaged {
    /// Standing.
    pub stand: f64,
    /// Hitting and playing on as well as can be.
    pub hit: f64,
    /// Doubling.
    pub double: Option<f64>,
    /// Surrendering.
    pub surrender: Option<f64>,
    /// Splitting (pairs only), by the post-split strategy asked for.
    pub split: Option<f64>,
    /// The chance of the row's hands, given the up card.
    pub chance: f64,
}

/// [`Averaged`] values of `row` against `up` on a worked-out table, or `None` when no two-card hand makes it.
pub fn averaged(table: &Table, row: RowOf, up: u8, mode: PostSplit) -> Option<Averaged> {
    let mut sum: Option<Averaged> = None;
    for deal in table
        .deals
        .iter()
        .filter(|d| d.up == up && row_of(d.cards) == Some(row))
    {
        let v: &Values = &deal.values;
        let w = deal.chance;
        let split = v.split.map(|s| match mode {
            PostSplit::Cdz => s.cdz,
            PostSplit::Cdp1 => s.cdp1,
            PostSplit::Cdp => s.cdp,
        });
        let add = |total: Option<f64>, value: Option<f64>| match (total, value) {
            (Some(total), Some(value)) => Some(total + w * value),
            _ => None,
        };
        sum = Some(match sum {
            None => Averaged {
                stand: w * v.stand,
                hit: w * v.hit,
                double: v.double.map(|d| w * d),
                surrender: v.surrender.map(|r| w * r),
                split: split.map(|p| w * p),
                chance: w,
            },
            Some(s) => Averaged {
                stand: s.stand + w * v.stand,
                hit: s.hit + w * v.hit,
                double: add(s.double, v.double),
                surrender: add(s.surrender, v.surrender),
                split: add(s.split, split),
                chance: s.chance + w,
            },
        });
    }
    let s = sum.filter(|s| s.chance > 0.0)?;
    let per = |x: f64| x / s.chance;
    Some(Averaged {
        stand: per(s.stand),
        hit: per(s.hit),
        double: s.double.map(per),
        surrender: s.surrender.map(per),
        split: s.split.map(per),
        chance: s.chance,
    })
}

/// The cell for a total: the best play, written with what to do where it is not allowed.
fn total_cell(v: &Averaged) -> Play {
    let hit_over_stand = v.hit >= v.stand;
    let plain = v.stand.max(v.hit);
    let double = v.double.unwrap_or(f64::NEG_INFINITY);
    let surrender = v.surrender.unwrap_or(f64::NEG_INFINITY);
    if surrender > plain.max(double) {
        if hit_over_stand {
            Play::SurrenderOrHit
        } else {
            Play::SurrenderOrStand
        }
    } else if double > plain {
        if hit_over_stand {
            Play::DoubleOrHit
        } else {
            Play::DoubleOrStand
        }
    } else if hit_over_stand {
        Play::Hit
    } else {
        Play::Stand
    }
}

/// The cell for a pair: split, surrender or split, or play it by its total.
fn pair_cell(v: &Averaged) -> Play {
    let Some(split) = v.split else {
        return Play::ByTotal;
    };
    let rest = v
        .stand
        .max(v.hit)
        .max(v.double.unwrap_or(f64::NEG_INFINITY));
    let surrender = v.surrender.unwrap_or(f64::NEG_INFINITY);
    if split > rest && split >= surrender {
        Play::Split
    } else if split > rest && surrender > split {
        Play::SurrenderOrSplit
    } else {
        Play::ByTotal
    }
}

/// The basic-strategy chart for `rules`, worked out on the full shoe (splits valued by `mode`), on `threads`
/// threads. About as long as [`super::house_edge`].
pub fn chart_on(rules: &Rules, mode: PostSplit, threads: usize) -> Grid {
    let table = table_on(ExactRules::of(rules), full_shoe(rules.decks), threads);
    chart_of(&table, mode)
}

/// The chart read off a worked-out table.
pub fn chart_of(table: &Table, mode: PostSplit) -> Grid {
    let filled = |play: Play| -> Row { [play; 10] };
    let mut grid = Grid {
        hard: [filled(Play::Hit); 22],
        soft: [filled(Play::Stand); 22],
        pair: [filled(Play::ByTotal); 11],
    };
    for total in 17..22 {
        grid.hard[total] = filled(Play::Stand);
    }
    for total in 12..19 {
        grid.soft[total] = filled(Play::Hit);
    }
    for up in 1..=10u8 {
        let col = column_of_points(up);
        for total in 5..=19u8 {
            if let Some(v) = averaged(table, RowOf::Hard(total), up, mode) {
                grid.hard[usize::from(total)][col] = total_cell(&v);
            }
        }
        for total in 13..=20u8 {
            if let Some(v) = averaged(table, RowOf::Soft(total), up, mode) {
                grid.soft[usize::from(total)][col] = total_cell(&v);
            }
        }
        for points in 1..=RANKS as u8 {
            if let Some(v) = averaged(table, RowOf::Pair(points), up, mode) {
                grid.pair[usize::from(points)][col] = pair_cell(&v);
            }
        }
    }
    grid
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hands_fall_in_their_rows() {
        assert_eq!(row_of([10, 6]), Some(RowOf::Hard(16)));
        assert_eq!(row_of([1, 7]), Some(RowOf::Soft(18)));
        assert_eq!(row_of([8, 8]), Some(RowOf::Pair(8)));
        assert_eq!(row_of([1, 1]), Some(RowOf::Pair(1)));
        assert_eq!(row_of([1, 10]), None);
    }

    #[test]
    fn cells_say_what_to_do_where_a_play_is_not_allowed() {
        let v = |stand, hit, double, surrender| Averaged {
            stand,
            hit,
            double,
            surrender,
            split: None,
            chance: 1.0,
        };
        assert_eq!(total_cell(&v(-0.5, -0.4, None, None)), Play::Hit);
        assert_eq!(
            total_cell(&v(0.1, 0.05, Some(0.2), None)),
            Play::DoubleOrStand
        );
        assert_eq!(
            total_cell(&v(-0.54, -0.53, None, Some(-0.5))),
            Play::SurrenderOrHit
        );
        assert_eq!(
            total_cell(&v(-0.52, -0.53, None, Some(-0.5))),
            Play::SurrenderOrStand
        );
        let pair = |split| Averaged {
            split,
            ..v(-0.2, -0.1, Some(-0.3), Some(-0.5))
        };
        assert_eq!(pair_cell(&pair(Some(0.0))), Play::Split);
        assert_eq!(pair_cell(&pair(Some(-0.15))), Play::ByTotal);
        assert_eq!(pair_cell(&pair(None)), Play::ByTotal);
    }
}
