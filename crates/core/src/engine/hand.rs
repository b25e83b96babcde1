//! Hand totals (hard and soft) and the cards a hand holds.

use super::card::Card;
use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The most cards one hand can hold: hitting stops at 21 and every card counts at least 1.
pub const MAX_HAND_CARDS: usize = 21;

/// A hand's running total: the sum with aces as 1, whether an ace is present, and the best value, worked out once
/// per card (the value is read far more often than cards are added).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Total {
    hard: u8,
    has_ace: bool,
    soft: bool,
    value: u8,
}

impl Total {
    /// The total of these cards.
    pub fn of(cards: &[Card]) -> Total {
        cards
            .iter()
            .fold(Total::default(), |total, &card| total.with(card))
    }

    /// This total after one more card.
    #[inline]
    pub fn with(self, card: Card) -> Total {
        let hard = self.hard.saturating_add(card.points());
        let has_ace = self.has_ace | card.is_ace();
        let soft = has_ace & (hard <= 11);
        Total {
            hard,
            has_ace,
            soft,
            value: hard + 10 * u8::from(soft),
        }
    }

    /// The best value: one ace counts 11 when that does not bust the hand.
    #[inline]
    pub fn value(self) -> u8 {
        self.value
    }

    /// True when an ace is counting 11 ("soft 17" = A+6).
    #[inline]
    pub fn is_soft(self) -> bool {
        self.soft
    }

    /// True over 21.
    #[inline]
    pub fn is_bust(self) -> bool {
        self.hard > 21
    }

    /// The total with every ace counted as 1.
    pub fn hard_sum(self) -> u8 {
        self.hard
    }
}

impl fmt::Display for Total {
    /// "soft 17", "hard 12", "bust 24".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_bust() {
            write!(f, "bust {}", self.hard)
        } else if self.is_soft() {
            write!(f, "soft {}", self.value())
        } else {
            write!(f, "hard {}", self.value())
        }
    }
}

/// Cards in a hand, in the order they were dealt, with the running total.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cards {
    cards: ArrayVec<Card, MAX_HAND_CARDS>,
    total: Total,
}

impl Cards {
    /// Adds a card.
    ///
    /// # Panics
    /// Past [`MAX_HAND_CARDS`] cards, which play cannot reach: hitting stops at 21 and every card counts at least 1.
    #[inline(always)]
    pub fn push(&mut self, card: Card) {
        self.cards.push(card);
        self.total = self.total.with(card);
    }

    /// Removes and returns the last card (a split takes the second card away).
    pub fn pop(&mut self) -> Option<Card> {
        let card = self.cards.pop()?;
        self.total = Total::of(&self.cards);
        Some(card)
    }

    /// The running total.
    #[inline]
    pub fn total(&self) -> Total {
        self.total
    }

    /// Number of cards.
    #[inline]
    pub fn len(&self) -> usize {
        self.cards.len()
    }

    /// True with no cards.
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// The cards in order.
    pub fn as_slice(&self) -> &[Card] {
        &self.cards
    }

    /// Removes every card (after they have gone to the discard tray).
    #[inline]
    pub fn clear(&mut self) {
        self.cards.clear();
        self.total = Total::default();
    }

    /// An ace and a ten-value card as the only two cards.
    #[inline]
    pub fn is_two_card_21(&self) -> bool {
        self.cards.len() == 2 && self.total.value() == 21
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::card::{Rank, Suit};

    fn hand(ranks: &[Rank]) -> Cards {
        let mut cards = Cards::default();
        for (i, &rank) in ranks.iter().enumerate() {
            cards.push(Card::new(0, Suit::ALL[i % 4], rank));
        }
        cards
    }

    #[test]
    fn multi_ace_soft_totals() {
        use Rank::*;
        assert_eq!(hand(&[Ace, Six]).total().to_string(), "soft 17");
        assert_eq!(hand(&[Ace, Ace]).total().to_string(), "soft 12");
        assert_eq!(hand(&[Ace, Ace, Ace, Ace]).total().to_string(), "soft 14");
        assert_eq!(hand(&[Ace, Ace, Nine]).total().to_string(), "soft 21");
        assert_eq!(hand(&[Ace, Ace, Nine, King]).total().to_string(), "hard 21");
        assert_eq!(hand(&[Ace, Six, Nine]).total().to_string(), "hard 16");
        assert_eq!(hand(&[King, Queen]).total().to_string(), "hard 20");
        assert_eq!(hand(&[King, Queen, Two]).total().to_string(), "bust 22");
        assert!(hand(&[Ace, King]).is_two_card_21());
        assert!(!hand(&[Seven, Seven, Seven]).is_two_card_21());
    }

    #[test]
    fn popping_a_card_recomputes_the_total() {
        use Rank::*;
        let mut cards = hand(&[Ace, Ace]);
        assert_eq!(cards.pop().map(|c| c.rank()), Some(Ace));
        assert_eq!(cards.total().to_string(), "soft 11");
    }
}
