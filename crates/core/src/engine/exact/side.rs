//! What a side bet is worth, exactly, on the cards a seat has not seen: the chance of each paying hand and the
//! bet's value per unit staked. The cards a side bet reads (the first two, the dealer's up card and hole card, the
//! dealer's whole hand) are as random as any others of the unseen cards, whoever else is dealt between them, so the
//! chances are those of drawing them straight from what is unseen. 21+3, Perfect Pairs and Lucky Ladies read suits:
//! their shoe is counted by rank and suit ([`Suited`]); Buster reads only points and the dealer's rule.

use super::dealer::{BUST_CARDS, busts_by_cards};
use super::{ExactError, RANKS, Ranks, rank_of};
use crate::engine::card::{Card, MAX_DECKS, Rank, Suit};
use crate::engine::rules::{Rules, Soft17};
use crate::engine::side::{self, SideBet, SideBets, SideWin};

/// A count of each of the 52 cards (rank and suit) among the unseen: `[suit × 13 + rank − 1]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Suited(pub [u16; 52]);

impl Suited {
    /// A full shoe of `decks` decks.
    pub fn full(decks: u8) -> Suited {
        Suited([u16::from(decks); 52])
    }

    /// A full shoe of `decks` decks less the cards `seen`.
    pub fn unseen(decks: u8, seen: &[Card]) -> Result<Suited, ExactError> {
        if !(1..=MAX_DECKS).contains(&decks) {
            return Err(ExactError::Decks(decks));
        }
        let mut shoe = Suited::full(decks);
        for &card in seen {
            let left = &mut shoe.0[slot(card)];
            if *left == 0 {
                return Err(ExactError::CardNotLeft {
                    card: card.to_string(),
                    held: decks,
                });
            }
            *left -= 1;
        }
        Ok(shoe)
    }

    /// How many cards are left.
    pub fn len(&self) -> u32 {
        self.0.iter().map(|&n| u32::from(n)).sum()
    }

    /// True when no card is left.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The same cards counted by points (ace first, tens together), as the rest of the exact engine counts them.
    pub fn points(&self) -> Ranks {
        let mut ranks = [0u8; RANKS];
        for (i, &n) in self.0.iter().enumerate() {
            let points = (i % 13 + 1).min(10);
            ranks[points - 1] = ranks[points - 1].saturating_add(n.min(255) as u8);
        }
        ranks
    }
}

/// Cards with their suits, as a person writes them: "Qh Qh 10s", "A♠ 9♠", "TD" (rank, then suit: c, d, h, s or
/// ♣ ♦ ♥ ♠; spaces and commas between).
pub fn cards_of(text: &str) -> Result<Vec<Card>, ExactError> {
    let mut cards = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if matches!(c, ',' | ' ') {
            continue;
        }
        let rank = rank_of(c, &mut chars)?;
        let suit = match chars.next() {
            Some('c' | 'C' | '♣') => Suit::Clubs,
            Some('d' | 'D' | '♦') => Suit::Diamonds,
            Some('h' | 'H' | '♥') => Suit::Hearts,
            Some('s' | 'S' | '♠') => Suit::Spades,
            other => {
                return Err(ExactError::NoSuit(format!(
                    "{}{}",
                    rank.symbol(),
                    other.map(String::from).unwrap_or_default()
                )));
            }
        };
        cards.push(Card::new(0, suit, rank));
    }
    Ok(cards)
}

/// The slot of `card` in a [`Suited`] count: its place in one deck.
fn slot(card: Card) -> usize {
    card.index() % 52
}

/// The card in `slot` of a [`Suited`] count.
fn card_of(slot: usize) -> Card {
    let rank = Rank::ALL[slot % 13];
    Card::new(0, Suit::ALL[slot / 13], rank)
}

/// A side bet priced on a shoe: the chance of each hand the table pays and what the bet is worth.
#[derive(Clone, Debug, PartialEq)]
pub struct SidePrice {
    /// The bet.
    pub bet: SideBet,
    /// Each paying hand (best first) with what it pays, to one, and its chance.
    pub chances: Vec<(SideWin, u32, f64)>,
}

impl SidePrice {
    /// The bet's value per unit staked: positive favours the player; the house edge is its negative.
    pub fn value(&self) -> f64 {
        self.paid()
            .map(|(pays, p)| p * (f64::from(pays) + 1.0))
            .sum::<f64>()
            - 1.0
    }

    /// The variance of one bet's result per unit staked (for a simulation's standard error).
    pub fn variance(&self) -> f64 {
        let win: f64 = self.paid().map(|(_, p)| p).sum();
        let square: f64 = self
            .paid()
            .map(|(pays, p)| p * f64::from(pays).powi(2))
            .sum::<f64>()
            + (1.0 - win);
        square - self.value().powi(2)
    }

    /// The chance that the bet wins anything.
    pub fn wins(&self) -> f64 {
        self.paid().map(|(_, p)| p).sum()
    }

    fn paid(&self) -> impl Iterator<Item = (u32, f64)> + '_ {
        self.chances
            .iter()
            .filter(|(_, pays, _)| *pays > 0)
            .map(|&(_, pays, p)| (pays, p))
    }
}

/// `bet` priced at this table on `shoe`, the cards the seat has not seen; `None` when the table does not offer it or
/// the shoe is too short to deal it.
pub fn price(bet: SideBet, rules: &Rules, shoe: &Suited) -> Option<SidePrice> {
    let bets = &rules.side_bets;
    if !bets.offers(bet) || shoe.len() < 12 {
        return None;
    }
    let chances = match bet {
        SideBet::TwentyOnePlusThree => three_card_chances(shoe),
        SideBet::PerfectPairs => two_card_chances(shoe, side::pair),
        SideBet::LuckyLadies => lucky_ladies_chances(shoe),
        SideBet::Buster => buster_chances(rules.soft_17 == Soft17::Hit, &shoe.points()),
    };
    Some(priced(bet, bets, chances))
}

/// The chances in the order the bet lists its hands, with the table's pays.
fn priced(bet: SideBet, bets: &SideBets, found: Vec<(SideWin, f64)>) -> SidePrice {
    let chances = SideWin::of(bet)
        .into_iter()
        .map(|win| {
            let p = found
                .iter()
                .filter(|(w, _)| *w == win)
                .map(|(_, p)| p)
                .sum();
            (win, bets.pays(win).unwrap_or(0), p)
        })
        .collect();
    SidePrice { bet, chances }
}

/// Adds `p` to `win`'s chance.
fn add(found: &mut Vec<(SideWin, f64)>, win: SideWin, p: f64) {
    match found.iter_mut().find(|(w, _)| *w == win) {
        Some((_, q)) => *q += p,
        None => found.push((win, p)),
    }
}

/// 21+3: every set of three cards, counted as unordered draws of the 52 kinds with their multiplicities.
fn three_card_chances(shoe: &Suited) -> Vec<(SideWin, f64)> {
    let n = shoe.0.map(f64::from);
    let total = f64::from(shoe.len());
    let sets = total * (total - 1.0) * (total - 2.0) / 6.0;
    let mut found = Vec::new();
    for i in 0..52 {
        for j in i..52 {
            for k in j..52 {
                let ways = match (i == j, j == k) {
                    (true, true) => n[i] * (n[i] - 1.0) * (n[i] - 2.0) / 6.0,
                    (true, false) => n[i] * (n[i] - 1.0) / 2.0 * n[k],
                    (false, true) => n[i] * n[j] * (n[j] - 1.0) / 2.0,
                    (false, false) => n[i] * n[j] * n[k],
                };
                if ways <= 0.0 {
                    continue;
                }
                if let Some(win) = side::three_card([card_of(i), card_of(j), card_of(k)]) {
                    add(&mut found, win, ways / sets);
                }
            }
        }
    }
    found
}

/// A bet on the first two cards: every unordered pair of the 52 kinds; `read` names what the pair wins.
fn two_card_chances(
    shoe: &Suited,
    read: impl Fn([Card; 2]) -> Option<SideWin>,
) -> Vec<(SideWin, f64)> {
    let n = shoe.0.map(f64::from);
    let total = f64::from(shoe.len());
    let pairs = total * (total - 1.0) / 2.0;
    let mut found = Vec::new();
    for i in 0..52 {
        for j in i..52 {
            let ways = if i == j {
                n[i] * (n[i] - 1.0) / 2.0
            } else {
                n[i] * n[j]
            };
            if ways > 0.0
                && let Some(win) = read([card_of(i), card_of(j)])
            {
                add(&mut found, win, ways / pairs);
            }
        }
    }
    found
}

/// Lucky Ladies: the first two cards' 20s; two queens of hearts split by whether the dealer's two cards, from what
/// is left, are a blackjack.
fn lucky_ladies_chances(shoe: &Suited) -> Vec<(SideWin, f64)> {
    let mut found = two_card_chances(shoe, |cards| side::twenty(cards, false));
    let queens = found
        .iter()
        .position(|(win, _)| *win == SideWin::QueensOfHearts);
    if let Some(at) = queens {
        let p = found[at].1;
        let mut left = shoe.points();
        left[9] -= 2;
        let cards = f64::from(shoe.len()) - 2.0;
        let blackjack = 2.0 * f64::from(left[0]) * f64::from(left[9]) / (cards * (cards - 1.0));
        found[at].1 = p * (1.0 - blackjack);
        found.push((SideWin::QueensOfHeartsAndDealerBlackjack, p * blackjack));
    }
    found
}

/// Buster: the dealer's busts by the number of cards.
fn buster_chances(h17: bool, shoe: &Ranks) -> Vec<(SideWin, f64)> {
    busts_by_cards(h17, shoe)
        .iter()
        .enumerate()
        .skip(3)
        .map(|(cards, &p)| (SideWin::DealerBust(cards.min(BUST_CARDS) as u8), p))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards_are_read_with_their_suits_and_a_missing_suit_is_named() {
        let cards = cards_of("Qh, 10s T♦ a♣ 9S").expect("five cards");
        let written: Vec<String> = cards.iter().map(Card::to_string).collect();
        assert_eq!(written, ["Q♥", "10♠", "10♦", "A♣", "9♠"]);
        let error = cards_of("Qh 7").expect_err("no suit");
        assert!(error.to_string().contains("`7` needs its suit"), "{error}");
        assert!(cards_of("Xh").is_err());
        let shoe = Suited::unseen(1, &cards).expect("one deck");
        assert_eq!(shoe.len(), 47);
        assert_eq!(shoe.points()[9], 13, "three tens seen of sixteen");
    }
}
