//! Card counting: the systems as data (`counts.ron`), the running count over the cards seen since the shuffle, the
//! true count, and the decks left as a player reads them off the discard tray (to the half deck).

use super::card::Card;
use serde::Deserialize;
use std::sync::OnceLock;

/// Cards in a deck.
const DECK: f64 = 52.0;

/// A counting system: a tag per rank.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct System {
    /// Its name as players know it.
    pub name: String,
    /// A short name for a crowded line.
    pub short: String,
    /// The tag of each rank by points (ace first, 2–9, then every ten-card), in units of `1 / scale`.
    pub tags: [i8; 10],
    /// The tags' divisor: 2 for Wong Halves, whose tags are halves; 1 for the rest.
    #[serde(default = "one")]
    pub scale: u8,
    /// Who published it.
    pub source: String,
}

fn one() -> u8 {
    1
}

/// Every system Holecard counts with, Hi-Lo first.
pub fn systems() -> &'static [System] {
    static SYSTEMS: OnceLock<Vec<System>> = OnceLock::new();
    SYSTEMS.get_or_init(|| {
        // Compiled in and read by the tests (`every_system_parses`), so a mistake in it never reaches a player.
        ron::from_str(include_str!("counts.ron"))
            .unwrap_or_else(|e| panic!("crates/core/src/engine/counts.ron: {e}"))
    })
}

/// Hi-Lo, the count most players learn first.
pub fn hi_lo() -> &'static System {
    &systems()[0]
}

/// The system whose name or short name is `name` (any case).
pub fn system(name: &str) -> Option<&'static System> {
    systems()
        .iter()
        .find(|s| s.name.eq_ignore_ascii_case(name) || s.short.eq_ignore_ascii_case(name))
}

impl System {
    /// The tag of a card by its points (1 = ace … 10 = ten-card), in units.
    #[inline]
    pub fn tag_of_points(&self, points: u8) -> i32 {
        i32::from(self.tags[usize::from(points.clamp(1, 10)) - 1])
    }

    /// The tag of a card, in units.
    #[inline]
    pub fn tag(&self, card: Card) -> i32 {
        self.tag_of_points(card.points())
    }

    /// The tags of one deck added up, in units: zero for a balanced system.
    pub fn per_deck(&self) -> i32 {
        self.tags
            .iter()
            .enumerate()
            .map(|(rank, &tag)| i32::from(tag) * if rank == 9 { 16 } else { 4 })
            .sum()
    }

    /// The tags add up to zero over a deck.
    pub fn is_balanced(&self) -> bool {
        self.per_deck() == 0
    }

    /// Where the running count starts after a shuffle of `decks` decks, in units: zero for a balanced system; for
    /// an unbalanced one, minus its excess over every deck but one (KO's 4 − 4 × decks).
    pub fn initial_running_count(&self, decks: u8) -> i32 {
        -self.per_deck() * (i32::from(decks) - 1)
    }

    /// A count per tag value's size: how much a level-2 count moves for a card (1 for a level-1 count).
    pub fn level(&self) -> i32 {
        let most = self.tags.iter().map(|t| u32::from(t.unsigned_abs())).max();
        most.unwrap_or(1).div_ceil(u32::from(self.scale.max(1))) as i32
    }
}

/// Decks left as a player judges them from the discard tray: the tray's decks rounded to the half deck, taken
/// from the shoe's; never less than half a deck.
pub fn decks_left_estimate(decks: u8, tray_cards: u32) -> f64 {
    let half_decks_in_tray = (f64::from(tray_cards) / (DECK / 2.0)).round();
    (f64::from(decks) - half_decks_in_tray / 2.0).max(0.5)
}

/// Decks left, exactly: the cards not yet dealt over 52.
pub fn decks_left_exact(cards_left: u32) -> f64 {
    f64::from(cards_left) / DECK
}

/// What a counter at the table reads: the running count, the true count on the decks judged left, and the exact
/// decks left beside the judged ones.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reading {
    /// The running count as said (halves for Wong Halves).
    pub running: f64,
    /// The true count on the judged decks left.
    pub true_count: f64,
    /// Decks left, judged from the tray to the half deck.
    pub decks_judged: f64,
    /// Decks left, exactly.
    pub decks_exact: f64,
}

/// The reading of a seat that saw `seen` (a count per rank, ace first) since the shuffle of a `decks`-deck shoe,
/// with `tray_cards` in the discard tray and `cards_left` in the shoe.
pub fn reading(
    system: &'static System,
    decks: u8,
    seen: &[u8; 10],
    tray_cards: u32,
    cards_left: u32,
) -> Reading {
    let count = Count::of_seen(system, decks, seen);
    let decks_judged = decks_left_estimate(decks, tray_cards);
    Reading {
        running: count.running(),
        true_count: count.true_count(decks_judged),
        decks_judged,
        decks_exact: decks_left_exact(cards_left),
    }
}

/// A number of decks as a player says it: whole and halves (`3½`).
pub fn say_decks(decks: f64) -> String {
    let halves = (decks * 2.0).round() as i64;
    match (halves / 2, halves % 2) {
        (0, _) => "½".to_string(),
        (whole, 0) => whole.to_string(),
        (whole, _) => format!("{whole}½"),
    }
}

/// A running count over the cards seen since the shuffle.
#[derive(Clone, Debug)]
pub struct Count {
    system: &'static System,
    decks: u8,
    /// The running count, in the system's units.
    running: i32,
    /// Cards counted since the shuffle.
    seen: u32,
}

impl Count {
    /// A count for a fresh shoe of `decks` decks.
    pub fn new(system: &'static System, decks: u8) -> Count {
        Count {
            system,
            decks,
            running: system.initial_running_count(decks),
            seen: 0,
        }
    }

    /// The count after seeing `seen` (a count per rank by points, ace first, tens together) since the shuffle.
    pub fn of_seen(system: &'static System, decks: u8, seen: &[u8; 10]) -> Count {
        let mut count = Count::new(system, decks);
        for (rank, &n) in seen.iter().enumerate() {
            count.running += system.tag_of_points(rank as u8 + 1) * i32::from(n);
            count.seen += u32::from(n);
        }
        count
    }

    /// The system counted with.
    pub fn system(&self) -> &'static System {
        self.system
    }

    /// Back to the start, for a new shoe.
    pub fn shuffle(&mut self) {
        *self = Count::new(self.system, self.decks);
    }

    /// Counts a card seen.
    #[inline]
    pub fn see(&mut self, card: Card) {
        self.running += self.system.tag(card);
        self.seen += 1;
    }

    /// Counts a card seen, by its points.
    #[inline]
    pub fn see_points(&mut self, points: u8) {
        self.running += self.system.tag_of_points(points);
        self.seen += 1;
    }

    /// Cards counted since the shuffle.
    pub fn seen(&self) -> u32 {
        self.seen
    }

    /// The running count in the system's units (Wong Halves' doubled).
    pub fn running_units(&self) -> i32 {
        self.running
    }

    /// The running count as a player says it (Wong Halves' in halves).
    pub fn running(&self) -> f64 {
        f64::from(self.running) / f64::from(self.system.scale.max(1))
    }

    /// The true count with `decks_left` decks left: the running count per deck left. For an unbalanced system, its
    /// balanced equivalent: the running count less what it would be, at this depth, with every card dealt so far
    /// an average one, per deck left.
    pub fn true_count(&self, decks_left: f64) -> f64 {
        let expected = if self.system.is_balanced() {
            0.0
        } else {
            f64::from(self.system.initial_running_count(self.decks))
                + f64::from(self.system.per_deck()) * f64::from(self.seen) / DECK
        };
        (f64::from(self.running) - expected)
            / f64::from(self.system.scale.max(1))
            / decks_left.max(0.5)
    }

    /// The true count rounded down, as bets and index plays read it.
    pub fn true_count_floor(&self, decks_left: f64) -> i32 {
        self.true_count(decks_left).floor() as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::{TableRng, seed_from_number};
    use crate::engine::shoe::Shoe;

    #[test]
    fn every_system_parses_and_has_a_tag_for_every_rank() {
        let names: Vec<&str> = systems().iter().map(|s| s.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "Hi-Lo",
                "KO",
                "Hi-Opt II",
                "Omega II",
                "Zen Count",
                "Wong Halves"
            ]
        );
        assert_eq!(system("hl").map(|s| &s.name), Some(&"Hi-Lo".to_string()));
        assert_eq!(system("wong halves").map(|s| s.scale), Some(2));
        assert!(system("Red Seven").is_none());
    }

    #[test]
    fn balanced_systems_count_a_whole_shoe_back_to_zero() {
        for system in systems() {
            for decks in [1, 2, 6, 8] {
                let mut shoe = Shoe::new(decks, 1.0);
                let mut rng = TableRng::from_seed(seed_from_number(u64::from(decks)));
                shoe.shuffle();
                let mut count = Count::new(system, decks);
                while let Some((card, _)) = shoe.draw(&mut rng) {
                    count.see(card);
                }
                assert_eq!(count.seen(), 52 * u32::from(decks));
                if system.is_balanced() {
                    assert_eq!(
                        count.running_units(),
                        0,
                        "{} over {decks} decks",
                        system.name
                    );
                } else {
                    // KO starts at 4 − 4 × decks and ends a whole shoe at its pivot, +4.
                    assert_eq!(
                        count.running_units(),
                        system.per_deck(),
                        "{} over {decks} decks",
                        system.name
                    );
                }
                assert!(
                    count.true_count(0.5).abs() < 1e-9,
                    "{} true count",
                    system.name
                );
            }
        }
        let balanced: Vec<&str> = systems()
            .iter()
            .filter(|s| !s.is_balanced())
            .map(|s| s.name.as_str())
            .collect();
        assert_eq!(balanced, ["KO"], "only KO is unbalanced");
    }

    #[test]
    fn a_count_from_the_cards_seen_equals_one_kept_card_by_card() {
        let seen = [3, 1, 0, 2, 5, 0, 1, 0, 4, 9];
        for system in systems() {
            let mut by_card = Count::new(system, 6);
            for (rank, &n) in seen.iter().enumerate() {
                for _ in 0..n {
                    by_card.see_points(rank as u8 + 1);
                }
            }
            let at_once = Count::of_seen(system, 6, &seen);
            assert_eq!(
                at_once.running_units(),
                by_card.running_units(),
                "{}",
                system.name
            );
            assert_eq!(at_once.seen(), 25);
        }
    }

    #[test]
    fn ko_starts_at_its_published_initial_running_count() {
        let ko = system("KO").expect("KO is listed");
        assert_eq!(ko.per_deck(), 4);
        assert_eq!(ko.initial_running_count(1), 0);
        assert_eq!(ko.initial_running_count(2), -4);
        assert_eq!(ko.initial_running_count(6), -20);
        assert_eq!(ko.initial_running_count(8), -28);
    }

    #[test]
    fn wong_halves_counts_in_halves_and_levels_are_right() {
        let halves = system("WH").expect("Wong Halves is listed");
        let mut count = Count::new(halves, 6);
        count.see_points(5); // +1.5
        count.see_points(2); // +0.5
        count.see_points(9); // −0.5
        assert_eq!(count.running(), 1.5);
        assert_eq!(count.running_units(), 3);
        assert_eq!(halves.level(), 2);
        assert_eq!(hi_lo().level(), 1);
        assert_eq!(system("Omega II").map(System::level), Some(2));
    }

    #[test]
    fn the_true_count_is_the_running_count_per_deck_left() {
        let mut count = Count::new(hi_lo(), 6);
        for points in [2, 3, 4, 5, 6, 2, 3] {
            count.see_points(points);
        }
        assert_eq!(count.running(), 7.0);
        assert_eq!(count.true_count(3.5), 2.0);
        assert_eq!(count.true_count_floor(2.0), 3);
        // Rounded down, not toward zero.
        let mut negative = Count::new(hi_lo(), 6);
        negative.see_points(10);
        assert_eq!(negative.true_count_floor(4.0), -1);
        // An unbalanced count's true count is its excess over an average shoe: KO after one deck dealt evenly.
        let ko = system("KO").expect("KO is listed");
        let mut even = Count::new(ko, 6);
        for points in (1..=10).chain([10, 10, 10]).cycle().take(52) {
            even.see_points(points);
        }
        assert_eq!(even.running_units(), -16);
        assert!(even.true_count(5.0).abs() < 1e-9);
    }

    #[test]
    fn a_reading_gives_both_counts_and_both_decks_left() {
        let mut seen = [0u8; 10];
        seen[4] = 6; // six fives: Hi-Lo +6
        seen[9] = 1; // a ten: −1
        let r = reading(hi_lo(), 6, &seen, 52, 312 - 52 - 7);
        assert_eq!(r.running, 5.0);
        assert_eq!(r.decks_judged, 5.0);
        assert_eq!(r.true_count, 1.0);
        assert!((r.decks_exact - 253.0 / 52.0).abs() < 1e-12);
        assert_eq!(say_decks(3.5), "3½");
        assert_eq!(say_decks(4.0), "4");
        assert_eq!(say_decks(0.5), "½");
    }

    #[test]
    fn decks_left_are_judged_to_the_half_deck() {
        assert_eq!(decks_left_estimate(6, 0), 6.0);
        assert_eq!(decks_left_estimate(6, 12), 6.0);
        assert_eq!(decks_left_estimate(6, 14), 5.5);
        assert_eq!(decks_left_estimate(6, 104), 4.0);
        assert_eq!(decks_left_estimate(6, 110), 4.0);
        assert_eq!(decks_left_estimate(6, 118), 3.5);
        assert_eq!(decks_left_estimate(6, 300), 0.5);
        assert_eq!(decks_left_estimate(1, 52), 0.5);
        assert_eq!(decks_left_exact(130), 2.5);
    }
}
