//! The exact value of every play, on the cards left in the shoe: a composition-dependent combinatorial analyzer.
//!
//! Input: the table's rules, the cards the seat has not seen (a count per rank, tens together), the player's cards
//! and the dealer's up card, and whether the dealer has peeked. Output: what standing, hitting (and playing on
//! optimally), doubling, surrendering, splitting and insurance are worth, as a fraction of the initial bet.
//!
//! The values are defined as Eric Farmer's open analyzer defines them, and checked against it
//! (`tests/exact_vs_farmer.rs`): a hand is valued on the shoe less its own cards and the up card; the player's later
//! decisions are composition-dependent on the cards of the hand; after a peek every value is conditioned on the dealer
//! not holding a blackjack. A split is valued by Farmer's algorithm (each split hand sees the pair cards removed, the
//! other hands' cards are not tracked), under three post-split strategies: CDZ- (a split hand is played as the same
//! cards would be played unsplit), CDP1 (played best for a shoe less one more pair card, for every number of hands),
//! and CDP (played best for each number of pair cards removed).
//!
//! Beyond that analyzer: hitting split aces, early surrender, no-hole-card tables (a dealer blackjack taking every
//! bet or only the original one) and insurance; checked by Monte Carlo and by their relations to the peek values.

mod advice;
pub mod chart;
mod compositions;
pub mod dealer;
pub mod indices;
mod play;
pub mod side;

pub use advice::{
    Advice, Decision, Priced, Tray, advise, decision, decision_for, unseen_by, unseen_cards_cost,
    unseen_cards_insurance_cost,
};
pub use compositions::threads;
pub use dealer::DealerOdds;
pub use play::{
    Best, Deal, Prepared, Question, Reached, RoundSteps, SplitValues, Table, Values, evaluate,
    prepare, reached, table, table_cdz, table_on, table_with,
};

use super::card::Rank;
use super::rules::{DoubleOn, EnhcLoss, HoleCard, Rules, Soft17, Surrender};
use thiserror::Error;

/// Ranks by points: index 0 is the ace, 9 every ten-card.
pub const RANKS: usize = 10;

/// A count per rank (ace first, tens together).
pub type Ranks = [u8; RANKS];

/// A full shoe of `decks` decks as counts per rank.
pub fn full_shoe(decks: u8) -> Ranks {
    let mut shoe = [4 * decks; RANKS];
    shoe[9] = 16 * decks;
    shoe
}

/// How split hands are played after the split (Farmer's names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PostSplit {
    /// CDZ-: each split hand played as the same cards would be unsplit.
    Cdz,
    /// CDP1: played best for the shoe less one more pair card, whatever the number of hands.
    Cdp1,
    /// CDP: played best for each number of pair cards removed.
    Cdp,
}

impl PostSplit {
    /// All three, in the order of `index`.
    pub const ALL: [PostSplit; 3] = [PostSplit::Cdz, PostSplit::Cdp1, PostSplit::Cdp];

    /// Where this strategy's value sits in arrays of three.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Farmer's name for it.
    pub fn name(self) -> &'static str {
        match self {
            PostSplit::Cdz => "CDZ-",
            PostSplit::Cdp1 => "CDP1",
            PostSplit::Cdp => "CDP",
        }
    }
}

/// The rules that change a hand's value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExactRules {
    /// The dealer hits soft 17.
    pub hits_soft_17: bool,
    /// Which two-card hands may double.
    pub double_on: DoubleOn,
    /// Doubling after a split.
    pub double_after_split: bool,
    /// The most hands a pair other than aces may become (1 = no splitting).
    pub max_split_hands: u8,
    /// Aces may be split again (up to `max_split_hands`); otherwise they make two hands at most.
    pub resplit_aces: bool,
    /// Split aces may take more than one card.
    pub hit_split_aces: bool,
    /// Surrender: none, late or early.
    pub surrender: Surrender,
    /// Peek, or no hole card and what a dealer blackjack takes.
    pub hole_card: HoleCard,
    /// What a blackjack pays, per unit bet.
    pub blackjack_pays: f64,
}

impl ExactRules {
    /// The rules of a table.
    ///
    /// Every field of [`Rules`] is named here, so a new rule does not compile until it is decided what the exact
    /// engine does with it.
    pub fn of(rules: &Rules) -> ExactRules {
        let Rules {
            soft_17,
            hole_card,
            blackjack_pays,
            double_on,
            double_after_split,
            max_split_hands,
            resplit_aces,
            hit_split_aces,
            surrender,
            // The shoe's size and what is left of it come with the question, as the cards unseen.
            decks: _,
            // Whether a king and a queen may split is legality, which the seat's view answers: the engine values the
            // plays it is asked about, and a ten-pair's split (never the best play) only where it is legal.
            split_unequal_tens: _,
            // Insurance and even money are priced on their own (`unseen_cards_insurance_cost`): a side bet on the
            // hole card, not a play of the hand.
            insurance: _,
            even_money: _,
            // Standing on 21 is always a hand's best play: taking it for the player changes no value.
            auto_stand_on_21: _,
            // A burned card is a card nobody saw: it stays among the unseen.
            burn_card: _,
            // Values are per unit of the bet; limits and chip sizes only scale them.
            min_bet: _,
            max_bet: _,
            bet_unit: _,
            // Where the cut card lies decides when the shoe ends, not what is left in it now.
            penetration: _,
            // Side bets are bets of their own, settled apart from the hand and priced by `side`.
            side_bets: _,
        } = rules;
        let (num, den) = blackjack_pays.odds();
        ExactRules {
            hits_soft_17: *soft_17 == Soft17::Hit,
            double_on: *double_on,
            double_after_split: *double_after_split,
            max_split_hands: (*max_split_hands).clamp(1, 4),
            resplit_aces: *resplit_aces,
            hit_split_aces: *hit_split_aces,
            surrender: *surrender,
            hole_card: *hole_card,
            blackjack_pays: num as f64 / den as f64,
        }
    }

    /// The most hands a pair of this rank (0 = aces) may become.
    fn split_hands(&self, pair: usize) -> u8 {
        if self.max_split_hands < 2 {
            1
        } else if pair == 0 && !self.resplit_aces {
            2
        } else {
            self.max_split_hands
        }
    }

    /// A dealer blackjack takes only the original bet from a hand that doubled or split (a peek game, or a
    /// no-hole-card table that returns the rest).
    fn blackjack_takes_original_only(&self) -> bool {
        !matches!(
            self.hole_card,
            HoleCard::NoHoleCard {
                blackjack_takes: EnhcLoss::AllBets
            }
        )
    }
}

/// A table's house edge, exactly: the full shoe, every hand played by the table's basic-strategy chart (what a chart
/// player faces, and what the simulator measures dealing from fresh shoes), in percent of the initial bet (positive:
/// the house's). About 50 ms on two threads for six decks.
pub fn house_edge(rules: &Rules) -> f64 {
    house_edge_on(rules, threads())
}

/// [`house_edge`] on `threads` threads (a server gives it one, leaving its other cores to its tables).
pub fn house_edge_on(rules: &Rules, threads: usize) -> f64 {
    let chart = crate::engine::strategy::BasicStrategy::for_rules(rules);
    let shoe = full_shoe(rules.decks);
    let table = table_with(ExactRules::of(rules), shoe, Some(&chart), threads.max(1));
    -100.0 * table.value(PostSplit::Cdz)
}

/// Why a question cannot be answered.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum ExactError {
    /// The hand has fewer than two cards.
    #[error("a hand has at least two cards; this one has {0}")]
    TooFewCards(usize),
    /// The hand is over 21.
    #[error("the hand is over 21 ({0}): there is nothing left to decide")]
    Busted(u8),
    /// A rank outside 1–10.
    #[error("a card's points are 1 (ace) to 10 (any ten-card), not {0}")]
    NoSuchRank(u8),
    /// More of a rank than a shoe of eight decks could hold.
    #[error("{count} cards of {rank} points is more than eight decks hold")]
    TooMany {
        /// The rank's points.
        rank: u8,
        /// How many were given.
        count: u32,
    },
    /// A card that is not one.
    #[error("`{0}` is not a card: use A, 2–9, T, J, Q or K (10 for a ten)")]
    NotACard(String),
    /// More of a rank seen than the shoe holds.
    #[error("the shoe holds {held} cards of {rank} points, and {seen} were seen")]
    NoneLeft {
        /// The rank's points.
        rank: u8,
        /// How many the full shoe holds.
        held: u8,
        /// How many were seen.
        seen: u32,
    },
    /// A card written without its suit where the suit matters.
    #[error("`{0}` needs its suit after the rank: c, d, h or s (♣ ♦ ♥ ♠), as in Qh or 10s")]
    NoSuit(String),
    /// A shoe of a number of decks no table deals.
    #[error("a shoe holds 1 to 8 decks, not {0}")]
    Decks(u8),
    /// A card seen more often than the shoe holds it.
    #[error("the shoe holds {held} of the {card}, and more were seen")]
    CardNotLeft {
        /// The card, rank and suit.
        card: String,
        /// How many the full shoe holds.
        held: u8,
    },
    /// The shoe is empty, or too short to finish the round.
    #[error("the shoe has {0} cards left: too few to play a hand out")]
    ShoeTooShort(u32),
}

/// A card's name by points, as `points_of` reads it back: A, 2–9, T (anything else, `?`).
pub fn name_of(points: u8) -> &'static str {
    const NAMES: [&str; 11] = ["?", "A", "2", "3", "4", "5", "6", "7", "8", "9", "T"];
    NAMES.get(usize::from(points)).copied().unwrap_or("?")
}

/// Cards by points from text: `A,7`, `A 7`, `a7`, `10 K`, `TT` (A, 2–9, T or 10, J, Q, K; any separators).
pub fn points_of(text: &str) -> Result<Vec<u8>, ExactError> {
    let mut points = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if matches!(c, ',' | ' ' | '-' | '+' | '/') {
            continue;
        }
        points.push(rank_of(c, &mut chars)?.points());
    }
    Ok(points)
}

/// The rank a card's text starts with at `c` (A, 2–9, T or 10, J, Q, K, either case), the `0` of a 10 taken from
/// `rest`.
pub(super) fn rank_of(
    c: char,
    rest: &mut std::iter::Peekable<std::str::Chars<'_>>,
) -> Result<Rank, ExactError> {
    Ok(match c.to_ascii_uppercase() {
        'A' => Rank::Ace,
        'T' => Rank::Ten,
        'J' => Rank::Jack,
        'Q' => Rank::Queen,
        'K' => Rank::King,
        '1' if rest.peek() == Some(&'0') => {
            rest.next();
            Rank::Ten
        }
        d @ '2'..='9' => Rank::ALL[usize::from(d as u8 - b'1')],
        _ => return Err(ExactError::NotACard(c.to_string())),
    })
}

/// What is left of `shoe` after `seen` (by points).
pub fn unseen(shoe: Ranks, seen: &[u8]) -> Result<Ranks, ExactError> {
    let mut counts = [0u32; RANKS];
    for &card in seen {
        if !(1..=10).contains(&card) {
            return Err(ExactError::NoSuchRank(card));
        }
        counts[usize::from(card - 1)] += 1;
    }
    let mut left = shoe;
    for rank in 0..RANKS {
        if counts[rank] > u32::from(shoe[rank]) {
            return Err(ExactError::NoneLeft {
                rank: rank as u8 + 1,
                held: shoe[rank],
                seen: counts[rank],
            });
        }
        left[rank] -= counts[rank] as u8;
    }
    Ok(left)
}
