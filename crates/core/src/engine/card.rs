//! Playing cards: ranks, suits and the physical card identity used to track every card in the shoe.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A card's rank. Suits never matter to the rules; ranks matter only through [`Rank::points`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[repr(u8)]
pub enum Rank {
    Ace = 1,
    Two,
    Three,
    Four,
    Five,
    Six,
    Seven,
    Eight,
    Nine,
    Ten,
    Jack,
    Queen,
    King,
}

impl Rank {
    /// Every rank, ace first.
    pub const ALL: [Rank; 13] = [
        Rank::Ace,
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
    ];

    /// The rank with this number (1 = ace … 13 = king).
    pub fn from_number(n: u8) -> Option<Rank> {
        Rank::ALL.get(usize::from(n).wrapping_sub(1)).copied()
    }

    /// Points counted by the rules: an ace is 1 here (the hand decides when it is 11), courts are 10.
    pub const fn points(self) -> u8 {
        let n = self as u8;
        if n >= 10 { 10 } else { n }
    }

    /// The index printed in a card's corner.
    pub const fn symbol(self) -> &'static str {
        match self {
            Rank::Ace => "A",
            Rank::Two => "2",
            Rank::Three => "3",
            Rank::Four => "4",
            Rank::Five => "5",
            Rank::Six => "6",
            Rank::Seven => "7",
            Rank::Eight => "8",
            Rank::Nine => "9",
            Rank::Ten => "10",
            Rank::Jack => "J",
            Rank::Queen => "Q",
            Rank::King => "K",
        }
    }

    /// The rank's name in words, for the round log.
    pub const fn name(self) -> &'static str {
        match self {
            Rank::Ace => "ace",
            Rank::Two => "two",
            Rank::Three => "three",
            Rank::Four => "four",
            Rank::Five => "five",
            Rank::Six => "six",
            Rank::Seven => "seven",
            Rank::Eight => "eight",
            Rank::Nine => "nine",
            Rank::Ten => "ten",
            Rank::Jack => "jack",
            Rank::Queen => "queen",
            Rank::King => "king",
        }
    }
}

/// A card's suit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[repr(u8)]
pub enum Suit {
    Clubs,
    Diamonds,
    Hearts,
    Spades,
}

impl Suit {
    /// Every suit in bridge order.
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    /// The suit's symbol.
    pub const fn symbol(self) -> char {
        match self {
            Suit::Clubs => '♣',
            Suit::Diamonds => '♦',
            Suit::Hearts => '♥',
            Suit::Spades => '♠',
        }
    }

    /// The suit's name in words.
    pub const fn name(self) -> &'static str {
        match self {
            Suit::Clubs => "clubs",
            Suit::Diamonds => "diamonds",
            Suit::Hearts => "hearts",
            Suit::Spades => "spades",
        }
    }
}

/// One physical card of the shoe: rank, suit and which deck it came from.
///
/// Packed as `deck << 6 | suit << 4 | rank` so the rank — the only thing the rules read — is one mask away.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u16", into = "u16")]
pub struct Card(u16);

/// The most decks a shoe may hold.
pub const MAX_DECKS: u8 = 8;

impl Card {
    /// The card `rank` of `suit` from deck number `deck` (0-based, below [`MAX_DECKS`]).
    pub const fn new(deck: u8, suit: Suit, rank: Rank) -> Card {
        Card(((deck as u16) << 6) | ((suit as u16) << 4) | rank as u16)
    }

    /// A card worth `points` (1 = ace, 2–9, 10 and over a ten), of one suit and deck: for asking a chart or a count,
    /// which go by points alone.
    pub fn of_points(points: u8) -> Card {
        let rank = if points >= 10 {
            Rank::Ten
        } else {
            Rank::from_number(points).unwrap_or(Rank::Ace)
        };
        Card::new(0, Suit::Spades, rank)
    }

    /// The card's rank.
    pub fn rank(self) -> Rank {
        match Rank::from_number((self.0 & 0x0f) as u8) {
            Some(rank) => rank,
            None => unreachable!("a Card is only built with a valid rank"),
        }
    }

    /// Points of the card with an ace as 1 (see [`Rank::points`]).
    #[inline]
    pub fn points(self) -> u8 {
        let n = (self.0 & 0x0f) as u8;
        if n >= 10 { 10 } else { n }
    }

    /// True for an ace.
    #[inline]
    pub fn is_ace(self) -> bool {
        self.0 & 0x0f == 1
    }

    /// The card's suit.
    pub fn suit(self) -> Suit {
        Suit::ALL[usize::from((self.0 >> 4) & 3)]
    }

    /// Which deck of the shoe the card belongs to.
    pub fn deck(self) -> u8 {
        (self.0 >> 6) as u8
    }

    /// A dense index over every card of an 8-deck shoe (0..416), for bookkeeping.
    pub fn index(self) -> usize {
        usize::from(self.deck()) * 52
            + usize::from((self.0 >> 4) & 3) * 13
            + usize::from(self.0 & 0x0f)
            - 1
    }
}

impl From<Card> for u16 {
    fn from(card: Card) -> u16 {
        card.0
    }
}

impl TryFrom<u16> for Card {
    type Error = String;

    fn try_from(raw: u16) -> Result<Card, String> {
        let rank = raw & 0x0f;
        let deck = raw >> 6;
        if (1..=13).contains(&rank) && deck < u16::from(MAX_DECKS) {
            Ok(Card(raw))
        } else {
            Err(format!("{raw} is not a card (rank {rank}, deck {deck})"))
        }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank().symbol(), self.suit().symbol())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}#{}",
            self.rank().symbol(),
            self.suit().symbol(),
            self.deck()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trips_every_card_of_eight_decks() {
        let mut seen = vec![false; 416];
        for deck in 0..MAX_DECKS {
            for suit in Suit::ALL {
                for rank in Rank::ALL {
                    let card = Card::new(deck, suit, rank);
                    assert_eq!((card.deck(), card.suit(), card.rank()), (deck, suit, rank));
                    assert_eq!(card.points(), rank.points());
                    assert_eq!(Card::try_from(u16::from(card)), Ok(card));
                    assert!(!seen[card.index()], "index collision for {card:?}");
                    seen[card.index()] = true;
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn courts_count_ten_and_ace_counts_one() {
        assert_eq!(Rank::King.points(), 10);
        assert_eq!(Rank::Ten.points(), 10);
        assert_eq!(Rank::Ace.points(), 1);
        assert_eq!(Rank::Seven.points(), 7);
    }

    #[test]
    fn invalid_raw_values_are_refused() {
        assert!(Card::try_from(0).is_err());
        assert!(Card::try_from(14).is_err());
        assert!(Card::try_from(8 << 6 | 1).is_err());
    }
}
