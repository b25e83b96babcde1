//! Where the dealer's hand ends, exactly, for a shoe of known composition: every way the dealer can draw from an up
//! card to a stop is listed once per rule (as a multiset of the cards drawn after the up card, with how many orders of
//! drawing it the dealer would really follow), and a shoe weighs each by the chance of drawing exactly those cards.

use super::{RANKS, Ranks};
use std::collections::HashMap;
use std::sync::OnceLock;

/// One way the dealer's hand can end: the cards drawn after the up card (hole card first), how many orders of them
/// the dealer's rule would draw, and the total it stops on (17–21).
#[derive(Clone, Copy, Debug)]
pub(super) struct Ending {
    pub(super) cards: [u8; RANKS],
    pub(super) drawn: u8,
    pub(super) orders: f64,
    pub(super) total: u8,
}

/// The chances of the dealer's hand ending on 17–21, busting, or being a blackjack (a two-card 21).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DealerOdds {
    /// Ending on 17, 18, 19, 20, 21 without a blackjack.
    pub on: [f64; 5],
    /// Going over 21.
    pub bust: f64,
    /// A blackjack (only with an ace or a ten up).
    pub blackjack: f64,
}

impl DealerOdds {
    /// What standing on `total` (a hand that is not a blackjack) is worth against these odds, a dealer blackjack
    /// taking the bet.
    pub fn stand(&self, total: u8) -> f64 {
        let mut value = self.bust - self.blackjack;
        for (i, p) in self.on.iter().enumerate() {
            let dealer = 17 + i as u8;
            if total > dealer {
                value += p;
            } else if total < dealer {
                value -= p;
            }
        }
        value
    }
}

/// A hand's total as the rules count it: aces as 11 while that does not bust it; with whether it is soft.
pub fn total(cards: &Ranks) -> (u8, bool) {
    let hard: u32 = cards
        .iter()
        .enumerate()
        .map(|(i, &n)| u32::from(n) * (i as u32 + 1))
        .sum();
    if cards[0] > 0 && hard + 10 <= 21 {
        (hard as u8 + 10, true)
    } else {
        (hard.min(255) as u8, false)
    }
}

/// Lists every way the dealer's hand can end from the up card of `up` points (1 = ace … 10) under this soft-17 rule
/// now, if not yet: it is done once, the first time a question with that up card needs it (up to some milliseconds in
/// the browser, most with a 2 up), and a caller that answers in slices gives it one of its own. Other points are left
/// for the question to refuse.
pub fn list_endings_now(h17: bool, up: u8) {
    if (1..=10).contains(&up) {
        endings_from(h17, usize::from(up - 1));
    }
}

/// Every way the dealer's hand can end from `up` (a two-card 21 and busts apart), listed once per rule and up card:
/// a question asks about one up card, and listing all ten takes nearly three times as long as the slowest (a 2).
pub(super) fn endings_from(h17: bool, up: usize) -> &'static [Ending] {
    static S17: [OnceLock<Vec<Ending>>; RANKS] = [const { OnceLock::new() }; RANKS];
    static H17: [OnceLock<Vec<Ending>>; RANKS] = [const { OnceLock::new() }; RANKS];
    let cells = if h17 { &H17 } else { &S17 };
    cells[up].get_or_init(|| list_endings(h17, up))
}

fn list_endings(h17: bool, up: usize) -> Vec<Ending> {
    let mut found: HashMap<[u8; RANKS], Ending> = HashMap::new();
    let mut hand = [0u8; RANKS];
    hand[up] = 1;
    let mut drawn = [0u8; RANKS];
    draw(h17, &mut hand, &mut drawn, 0, &mut found);
    let mut list: Vec<Ending> = found.into_values().collect();
    list.sort_by_key(|ending| ending.cards);
    list
}

/// Draws on in every order the dealer would, counting the orders of each multiset that ends.
fn draw(
    h17: bool,
    hand: &mut Ranks,
    drawn: &mut [u8; RANKS],
    count: u8,
    found: &mut HashMap<[u8; RANKS], Ending>,
) {
    let (value, soft) = total(hand);
    let stops = value > 17 || (value == 17 && !(soft && h17));
    if stops {
        if value > 21 || (count == 1 && value == 21) {
            return; // busts are what is left over; a two-card 21 is the blackjack, counted apart
        }
        found
            .entry(*drawn)
            .or_insert(Ending {
                cards: *drawn,
                drawn: count,
                orders: 0.0,
                total: value,
            })
            .orders += 1.0;
        return;
    }
    for rank in 0..RANKS {
        hand[rank] += 1;
        drawn[rank] += 1;
        draw(h17, hand, drawn, count + 1, found);
        hand[rank] -= 1;
        drawn[rank] -= 1;
    }
}

/// The chance that the hole card makes a blackjack with `up` showing, drawn from `shoe`.
pub fn blackjack_chance(up: usize, shoe: &Ranks) -> f64 {
    let left: u32 = shoe.iter().map(|&n| u32::from(n)).sum();
    let hole = match up {
        0 => 9,
        9 => 0,
        _ => return 0.0,
    };
    if left == 0 {
        0.0
    } else {
        f64::from(shoe[hole]) / f64::from(left)
    }
}

/// The dealer's odds with `up` showing and `shoe` the cards the hole card and the draws come from.
pub fn odds(h17: bool, up: usize, shoe: &Ranks) -> DealerOdds {
    let left: u32 = shoe.iter().map(|&n| u32::from(n)).sum();
    let mut odds = DealerOdds::default();
    if left == 0 {
        return odds;
    }
    // falling[r][k]: the product shoe[r] · (shoe[r] − 1) ⋯ (k factors); below[k]: the same for the whole shoe.
    let mut falling = [[0.0f64; 12]; RANKS];
    for (rank, row) in falling.iter_mut().enumerate() {
        row[0] = 1.0;
        for k in 1..12 {
            let n = f64::from(shoe[rank]) - (k as f64 - 1.0);
            row[k] = if n > 0.0 { row[k - 1] * n } else { 0.0 };
        }
    }
    let mut below = [1.0f64; 13];
    for k in 1..13 {
        let n = f64::from(left) - (k as f64 - 1.0);
        below[k] = if n > 0.0 { below[k - 1] * n } else { 0.0 };
    }
    'ending: for ending in endings_from(h17, up) {
        let mut p = ending.orders;
        for rank in 0..RANKS {
            let k = usize::from(ending.cards[rank]);
            if k > 0 {
                if k > usize::from(shoe[rank]) {
                    continue 'ending;
                }
                p *= falling[rank][k];
            }
        }
        let d = below[usize::from(ending.drawn)];
        if d > 0.0 {
            odds.on[usize::from(ending.total - 17)] += p / d;
        }
    }
    let hole = match up {
        0 => Some(9),
        9 => Some(0),
        _ => None,
    };
    if let Some(hole) = hole {
        odds.blackjack = f64::from(shoe[hole]) / f64::from(left);
    }
    odds.bust = 1.0 - odds.on.iter().sum::<f64>() - odds.blackjack;
    odds
}

/// The most cards Buster Blackjack tells apart: a bust of eight cards or more is one outcome.
pub const BUST_CARDS: usize = 8;

/// One way the dealer's whole hand can bust: every card of it (the up card and the hole card too), how many, and how
/// many orders of them the dealer's rule would draw.
struct Bust {
    cards: [u8; RANKS],
    drawn: u8,
    orders: f64,
}

/// Every way the dealer's hand busts from its first card, listed once per rule, the first time it is asked.
fn busts(h17: bool) -> &'static [Bust] {
    static S17: OnceLock<Vec<Bust>> = OnceLock::new();
    static H17: OnceLock<Vec<Bust>> = OnceLock::new();
    let cell = if h17 { &H17 } else { &S17 };
    cell.get_or_init(|| {
        let mut found: HashMap<[u8; RANKS], Bust> = HashMap::new();
        draw_to_bust(h17, &mut [0; RANKS], 0, &mut found);
        let mut list: Vec<Bust> = found.into_values().collect();
        list.sort_by_key(|bust| bust.cards);
        list
    })
}

fn draw_to_bust(h17: bool, hand: &mut Ranks, count: u8, found: &mut HashMap<[u8; RANKS], Bust>) {
    if count >= 2 {
        let (value, soft) = total(hand);
        if value > 17 || (value == 17 && !(soft && h17)) {
            if value > 21 {
                found
                    .entry(*hand)
                    .or_insert(Bust {
                        cards: *hand,
                        drawn: count,
                        orders: 0.0,
                    })
                    .orders += 1.0;
            }
            return;
        }
    }
    for rank in 0..RANKS {
        hand[rank] += 1;
        draw_to_bust(h17, hand, count + 1, found);
        hand[rank] -= 1;
    }
}

/// The chance that the dealer's hand, every card of it drawn from `shoe`, busts with each number of cards: `[n]` for
/// n cards (3 to 7; `[8]` for eight or more; below 3 always 0). The dealer plays the hand out whatever the players
/// hold, and the cards players take between the dealer's do not change these chances (which cards reach the dealer
/// is as random as the shuffle), so this is Buster Blackjack's outcome on that shoe.
pub fn busts_by_cards(h17: bool, shoe: &Ranks) -> [f64; BUST_CARDS + 1] {
    let left: u32 = shoe.iter().map(|&n| u32::from(n)).sum();
    let mut chances = [0.0; BUST_CARDS + 1];
    'bust: for bust in busts(h17) {
        if u32::from(bust.drawn) > left {
            continue;
        }
        let mut p = bust.orders;
        for (&held, &taken) in shoe.iter().zip(&bust.cards) {
            if taken > held {
                continue 'bust;
            }
            for k in 0..taken {
                p *= f64::from(held - k);
            }
        }
        for k in 0..u32::from(bust.drawn) {
            p /= f64::from(left - k);
        }
        chances[usize::from(bust.drawn).min(BUST_CARDS)] += p;
    }
    chances
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one_deck() -> Ranks {
        [4, 4, 4, 4, 4, 4, 4, 4, 4, 16]
    }

    #[test]
    fn a_dealers_chances_from_any_up_card_add_up_to_one() {
        for h17 in [false, true] {
            for up in 0..RANKS {
                let mut shoe = one_deck();
                shoe[up] -= 1;
                let odds = odds(h17, up, &shoe);
                let sum: f64 = odds.on.iter().sum::<f64>() + odds.bust + odds.blackjack;
                assert!((sum - 1.0).abs() < 1e-12, "up {up}: {sum}");
                assert!(odds.bust > 0.0 && odds.on.iter().all(|&p| p >= 0.0));
            }
        }
    }

    #[test]
    fn a_six_up_busts_more_than_a_ten_up_and_hitting_soft_17_busts_more() {
        let mut six = one_deck();
        six[5] -= 1;
        let mut ten = one_deck();
        ten[9] -= 1;
        assert!(odds(false, 5, &six).bust > odds(false, 9, &ten).bust);
        assert!(odds(true, 5, &six).bust > odds(false, 5, &six).bust);
    }

    #[test]
    fn a_shoe_of_only_tens_under_a_ten_ends_on_20() {
        let odds = odds(false, 9, &[0, 0, 0, 0, 0, 0, 0, 0, 0, 5]);
        assert_eq!(odds.on, [0.0, 0.0, 0.0, 1.0, 0.0]);
        assert_eq!(odds.bust, 0.0);
    }

    #[test]
    fn endings_are_listed_for_the_up_card_asked_and_points_that_are_no_card_are_left_alone() {
        for h17 in [false, true] {
            list_endings_now(h17, 0);
            list_endings_now(h17, 11);
            for points in 1..=10u8 {
                list_endings_now(h17, points);
                let up = usize::from(points - 1);
                // Listed once: asked again, the same list, of hands that stop on 17 to 21.
                let listed = endings_from(h17, up);
                assert!(std::ptr::eq(listed, endings_from(h17, up)));
                assert!(!listed.is_empty());
                assert!(listed.iter().all(|e| e.total >= 17 && e.total <= 21));
            }
            // Each up card's own: a ten up stops sooner than a 2 up, in fewer ways.
            assert!(endings_from(h17, 9).len() < endings_from(h17, 1).len());
        }
    }
}
