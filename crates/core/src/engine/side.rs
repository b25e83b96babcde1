//! Side bets: the four a live table offers beside blackjack — 21+3, Perfect Pairs, Lucky Ladies and Buster
//! Blackjack — their pay tables (data, in a level's file) and which hands win. Each is decided by cards alone: 21+3
//! by the player's first two and the dealer's up card, Perfect Pairs by the first two, Lucky Ladies by the first two
//! and whether the dealer has a blackjack, Buster by the dealer's finished hand. What each is worth on a shoe is
//! `exact::side`.

use super::card::{Card, Rank, Suit};
use super::hand::Total;
use super::money::Cents;
use serde::{Deserialize, Serialize};
use std::fmt;

/// One of the side bets a table may offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum SideBet {
    /// 21+3: the first two cards and the dealer's up card as a three-card poker hand.
    TwentyOnePlusThree,
    /// Perfect Pairs: the first two cards a pair.
    PerfectPairs,
    /// Lucky Ladies: the first two cards make 20.
    LuckyLadies,
    /// Buster Blackjack: the dealer busts, paid by the cards it took.
    Buster,
}

impl SideBet {
    /// Every side bet, in the order a table lists them.
    pub const ALL: [SideBet; 4] = [
        SideBet::TwentyOnePlusThree,
        SideBet::PerfectPairs,
        SideBet::LuckyLadies,
        SideBet::Buster,
    ];

    /// Its name at the table.
    pub const fn name(self) -> &'static str {
        match self {
            SideBet::TwentyOnePlusThree => "21+3",
            SideBet::PerfectPairs => "Perfect Pairs",
            SideBet::LuckyLadies => "Lucky Ladies",
            SideBet::Buster => "Buster Blackjack",
        }
    }

    /// What it is, in plain words for someone who has never seen it.
    pub const fn meaning(self) -> &'static str {
        match self {
            SideBet::TwentyOnePlusThree => {
                "Your first two cards and the dealer's face-up card are read as a three-card poker hand: a flush, \
                 a straight, three of a kind or better wins."
            }
            SideBet::PerfectPairs => {
                "Wins when your first two cards are a pair: more for a pair of one colour, most for two identical \
                 cards."
            }
            SideBet::LuckyLadies => {
                "Wins when your first two cards make 20: more when they share a suit or are identical, most for \
                 two queens of hearts, and far more if the dealer then has a blackjack."
            }
            SideBet::Buster => {
                "Wins when the dealer goes over 21, paid by how many cards the dealer's hand took: the more cards, \
                 the more it pays. The dealer plays the hand out even when every player has busted."
            }
        }
    }
}

impl fmt::Display for SideBet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A hand that wins a side bet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum SideWin {
    /// 21+3: three cards of one rank and one suit.
    SuitedTrips,
    /// 21+3: three cards in sequence of one suit.
    StraightFlush,
    /// 21+3: three cards of one rank.
    ThreeOfAKind,
    /// 21+3: three cards in sequence (A-2-3 and Q-K-A both count).
    Straight,
    /// 21+3: three cards of one suit.
    Flush,
    /// Perfect Pairs: two identical cards (rank and suit).
    PerfectPair,
    /// Perfect Pairs: a pair of one colour, two suits.
    ColoredPair,
    /// Perfect Pairs: a pair of a red and a black card.
    MixedPair,
    /// Lucky Ladies: two queens of hearts, and the dealer has a blackjack.
    QueensOfHeartsAndDealerBlackjack,
    /// Lucky Ladies: two queens of hearts.
    QueensOfHearts,
    /// Lucky Ladies: 20 from two identical cards.
    MatchedTwenty,
    /// Lucky Ladies: 20 from two cards of one suit.
    SuitedTwenty,
    /// Lucky Ladies: any other 20.
    AnyTwenty,
    /// Buster: the dealer busted with this many cards (3 to 8; 8 stands for eight or more).
    DealerBust(u8),
}

impl SideWin {
    /// The bet this hand wins.
    pub const fn bet(self) -> SideBet {
        match self {
            SideWin::SuitedTrips
            | SideWin::StraightFlush
            | SideWin::ThreeOfAKind
            | SideWin::Straight
            | SideWin::Flush => SideBet::TwentyOnePlusThree,
            SideWin::PerfectPair | SideWin::ColoredPair | SideWin::MixedPair => {
                SideBet::PerfectPairs
            }
            SideWin::QueensOfHeartsAndDealerBlackjack
            | SideWin::QueensOfHearts
            | SideWin::MatchedTwenty
            | SideWin::SuitedTwenty
            | SideWin::AnyTwenty => SideBet::LuckyLadies,
            SideWin::DealerBust(_) => SideBet::Buster,
        }
    }

    /// The hand's name, as a dealer calls it ("a straight flush", "a dealer bust of 5 cards").
    pub fn name(self) -> String {
        match self {
            SideWin::SuitedTrips => "suited three of a kind".into(),
            SideWin::StraightFlush => "a straight flush".into(),
            SideWin::ThreeOfAKind => "three of a kind".into(),
            SideWin::Straight => "a straight".into(),
            SideWin::Flush => "a flush".into(),
            SideWin::PerfectPair => "a perfect pair".into(),
            SideWin::ColoredPair => "a pair of one colour".into(),
            SideWin::MixedPair => "a mixed pair".into(),
            SideWin::QueensOfHeartsAndDealerBlackjack => {
                "two queens of hearts against the dealer's blackjack".into()
            }
            SideWin::QueensOfHearts => "two queens of hearts".into(),
            SideWin::MatchedTwenty => "a matched 20".into(),
            SideWin::SuitedTwenty => "a suited 20".into(),
            SideWin::AnyTwenty => "a 20".into(),
            SideWin::DealerBust(8) => "a dealer bust of 8 cards or more".into(),
            SideWin::DealerBust(n) => format!("a dealer bust of {n} cards"),
        }
    }

    /// Every winning hand of `bet`, best first.
    pub fn of(bet: SideBet) -> Vec<SideWin> {
        match bet {
            SideBet::TwentyOnePlusThree => vec![
                SideWin::SuitedTrips,
                SideWin::StraightFlush,
                SideWin::ThreeOfAKind,
                SideWin::Straight,
                SideWin::Flush,
            ],
            SideBet::PerfectPairs => vec![
                SideWin::PerfectPair,
                SideWin::ColoredPair,
                SideWin::MixedPair,
            ],
            SideBet::LuckyLadies => vec![
                SideWin::QueensOfHeartsAndDealerBlackjack,
                SideWin::QueensOfHearts,
                SideWin::MatchedTwenty,
                SideWin::SuitedTwenty,
                SideWin::AnyTwenty,
            ],
            SideBet::Buster => (3..=8).rev().map(SideWin::DealerBust).collect(),
        }
    }
}

/// 21+3's pay table: what each hand pays, to one (0: the hand does not pay).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ThreeCardPays {
    pub suited_trips: u32,
    pub straight_flush: u32,
    pub three_of_a_kind: u32,
    pub straight: u32,
    pub flush: u32,
}

impl ThreeCardPays {
    /// The first 21+3: every winning hand 9 to 1.
    pub const FLAT_NINE: ThreeCardPays = ThreeCardPays {
        suited_trips: 9,
        straight_flush: 9,
        three_of_a_kind: 9,
        straight: 9,
        flush: 9,
    };
    /// The table most live-dealer studios deal: suited trips 100, straight flush 40, three of a kind 30, straight
    /// 10, flush 5.
    pub const HUNDRED_TO_FIVE: ThreeCardPays = ThreeCardPays {
        suited_trips: 100,
        straight_flush: 40,
        three_of_a_kind: 30,
        straight: 10,
        flush: 5,
    };
}

/// Perfect Pairs' pay table, to one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairPays {
    pub perfect: u32,
    pub colored: u32,
    pub mixed: u32,
}

impl PairPays {
    /// 25, 12 and 6 to 1: the most common.
    pub const TWENTY_FIVE: PairPays = PairPays {
        perfect: 25,
        colored: 12,
        mixed: 6,
    };
    /// 30, 10 and 5 to 1.
    pub const THIRTY: PairPays = PairPays {
        perfect: 30,
        colored: 10,
        mixed: 5,
    };
}

/// Lucky Ladies' pay table, to one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LadiesPays {
    pub queens_and_dealer_blackjack: u32,
    pub queens_of_hearts: u32,
    pub matched: u32,
    pub suited: u32,
    pub any: u32,
}

impl LadiesPays {
    /// 1000, 125, 19, 9 and 4 to 1: the table of the bet's maker.
    pub const THOUSAND: LadiesPays = LadiesPays {
        queens_and_dealer_blackjack: 1000,
        queens_of_hearts: 125,
        matched: 19,
        suited: 9,
        any: 4,
    };
}

/// Buster Blackjack's pay table by the cards in the dealer's busted hand, to one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BusterPays {
    pub three: u32,
    pub four: u32,
    pub five: u32,
    pub six: u32,
    pub seven: u32,
    pub eight_or_more: u32,
}

impl BusterPays {
    /// 250, 50, 12, 4, 2 and 2 to 1 (eight cards or more down to three).
    pub const TWO_FIFTY: BusterPays = BusterPays {
        three: 2,
        four: 2,
        five: 4,
        six: 12,
        seven: 50,
        eight_or_more: 250,
    };
}

/// A seat's stake on each side bet, in the order of [`SideBet::ALL`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SideStakes(pub [Cents; 4]);

impl SideStakes {
    /// The stake on `bet`.
    pub fn get(&self, bet: SideBet) -> Cents {
        self.0[bet as usize]
    }

    /// Sets the stake on `bet`.
    pub fn set(&mut self, bet: SideBet, amount: Cents) {
        self.0[bet as usize] = amount;
    }

    /// Every stake together.
    pub fn total(&self) -> Cents {
        Cents(self.0.iter().map(|c| c.0).sum())
    }

    /// True when nothing is staked.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|c| c.0 == 0)
    }

    /// The bets with something on them, and how much.
    pub fn staked(&self) -> impl Iterator<Item = (SideBet, Cents)> + '_ {
        SideBet::ALL
            .into_iter()
            .map(|bet| (bet, self.get(bet)))
            .filter(|(_, amount)| amount.0 > 0)
    }
}

/// The most any side bet may pay, to one: a round's worst case stays far inside the chip ceiling.
pub const MAX_PAYS: u32 = 5_000;

/// The side bets a table offers, each with its pay table, and the most a seat may put on each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SideBets {
    pub twenty_one_plus_three: Option<ThreeCardPays>,
    pub perfect_pairs: Option<PairPays>,
    pub lucky_ladies: Option<LadiesPays>,
    pub buster: Option<BusterPays>,
    /// The most on each side bet (the least is one of the table's smallest chips).
    pub max_bet: Cents,
}

impl Default for SideBets {
    fn default() -> SideBets {
        SideBets {
            twenty_one_plus_three: None,
            perfect_pairs: None,
            lucky_ladies: None,
            buster: None,
            max_bet: Cents::units(100),
        }
    }
}

impl SideBets {
    /// The side bets offered, in the order of [`SideBet::ALL`].
    pub fn offered(&self) -> Vec<SideBet> {
        SideBet::ALL
            .into_iter()
            .filter(|&bet| self.offers(bet))
            .collect()
    }

    /// True when the table offers `bet`.
    pub fn offers(&self, bet: SideBet) -> bool {
        match bet {
            SideBet::TwentyOnePlusThree => self.twenty_one_plus_three.is_some(),
            SideBet::PerfectPairs => self.perfect_pairs.is_some(),
            SideBet::LuckyLadies => self.lucky_ladies.is_some(),
            SideBet::Buster => self.buster.is_some(),
        }
    }

    /// What `win` pays at this table, to one; `None` when the table does not offer its bet.
    pub fn pays(&self, win: SideWin) -> Option<u32> {
        Some(match win {
            SideWin::SuitedTrips => self.twenty_one_plus_three?.suited_trips,
            SideWin::StraightFlush => self.twenty_one_plus_three?.straight_flush,
            SideWin::ThreeOfAKind => self.twenty_one_plus_three?.three_of_a_kind,
            SideWin::Straight => self.twenty_one_plus_three?.straight,
            SideWin::Flush => self.twenty_one_plus_three?.flush,
            SideWin::PerfectPair => self.perfect_pairs?.perfect,
            SideWin::ColoredPair => self.perfect_pairs?.colored,
            SideWin::MixedPair => self.perfect_pairs?.mixed,
            SideWin::QueensOfHeartsAndDealerBlackjack => {
                self.lucky_ladies?.queens_and_dealer_blackjack
            }
            SideWin::QueensOfHearts => self.lucky_ladies?.queens_of_hearts,
            SideWin::MatchedTwenty => self.lucky_ladies?.matched,
            SideWin::SuitedTwenty => self.lucky_ladies?.suited,
            SideWin::AnyTwenty => self.lucky_ladies?.any,
            SideWin::DealerBust(n) => {
                let pays = self.buster?;
                match n {
                    0..=3 => pays.three,
                    4 => pays.four,
                    5 => pays.five,
                    6 => pays.six,
                    7 => pays.seven,
                    _ => pays.eight_or_more,
                }
            }
        })
    }

    /// Offers `bet` with its usual pay table (the first named above each table's type).
    pub fn offer(&mut self, bet: SideBet) {
        match bet {
            SideBet::TwentyOnePlusThree => {
                self.twenty_one_plus_three = Some(ThreeCardPays::HUNDRED_TO_FIVE)
            }
            SideBet::PerfectPairs => self.perfect_pairs = Some(PairPays::TWENTY_FIVE),
            SideBet::LuckyLadies => self.lucky_ladies = Some(LadiesPays::THOUSAND),
            SideBet::Buster => self.buster = Some(BusterPays::TWO_FIFTY),
        }
    }

    /// Offers `bet` paying `pays`, to one, for its hands best first (as [`SideWin::of`] lists them).
    pub fn offer_paying(&mut self, bet: SideBet, pays: &[u32]) -> Result<(), String> {
        let wins = SideWin::of(bet);
        let names: Vec<String> = wins.iter().map(|win| win.name()).collect();
        let &[a, b, c, ref rest @ ..] = pays else {
            return Err(format!(
                "{bet} pays {} numbers, one for each of {}",
                wins.len(),
                names.join(", ")
            ));
        };
        match (bet, rest) {
            (SideBet::TwentyOnePlusThree, &[d, e]) => {
                self.twenty_one_plus_three = Some(ThreeCardPays {
                    suited_trips: a,
                    straight_flush: b,
                    three_of_a_kind: c,
                    straight: d,
                    flush: e,
                })
            }
            (SideBet::PerfectPairs, []) => {
                self.perfect_pairs = Some(PairPays {
                    perfect: a,
                    colored: b,
                    mixed: c,
                })
            }
            (SideBet::LuckyLadies, &[d, e]) => {
                self.lucky_ladies = Some(LadiesPays {
                    queens_and_dealer_blackjack: a,
                    queens_of_hearts: b,
                    matched: c,
                    suited: d,
                    any: e,
                })
            }
            (SideBet::Buster, &[d, e, f]) => {
                self.buster = Some(BusterPays {
                    eight_or_more: a,
                    seven: b,
                    six: c,
                    five: d,
                    four: e,
                    three: f,
                })
            }
            _ => {
                return Err(format!(
                    "{bet} pays {} numbers, one for each of {}; {} were given",
                    wins.len(),
                    names.join(", "),
                    pays.len()
                ));
            }
        }
        Ok(())
    }

    /// The most `bet` pays for any hand at this table, to one (0 when it is not offered).
    pub fn most_pays(&self, bet: SideBet) -> u32 {
        SideWin::of(bet)
            .into_iter()
            .filter_map(|win| self.pays(win))
            .max()
            .unwrap_or(0)
    }

    /// Every pay of every table offered, with its field's name, for checking.
    fn every_pay(&self) -> Vec<(&'static str, u32)> {
        let mut pays = Vec::new();
        for win in SideBet::ALL.into_iter().flat_map(SideWin::of) {
            if let Some(pay) = self.pays(win) {
                pays.push((win.bet().name(), pay));
            }
        }
        pays
    }

    /// Checks the pay tables and the limit against the table's smallest chip and largest bet (a table that offers
    /// no side bet has nothing to check); the error is the message for `side_bets`.
    pub fn check(&self, bet_unit: Cents, table_max: Cents) -> Result<(), String> {
        if self.offered().is_empty() {
            return Ok(());
        }
        for (bet, pay) in self.every_pay() {
            if pay > MAX_PAYS {
                return Err(format!(
                    "{bet} pays {pay} to 1 for a hand; the most a side bet may pay is {MAX_PAYS} to 1"
                ));
            }
        }
        for bet in self.offered() {
            let wins = SideWin::of(bet);
            if wins.iter().all(|&win| self.pays(win) == Some(0)) {
                return Err(format!(
                    "{bet}'s pay table pays nothing: give at least one hand a pay"
                ));
            }
        }
        if self.max_bet < bet_unit || self.max_bet.0 % bet_unit.0.max(1) != 0 {
            return Err(format!(
                "`max_bet` {} must be a whole number of the table's smallest chip ({bet_unit})",
                self.max_bet
            ));
        }
        if self.max_bet > table_max {
            return Err(format!(
                "`max_bet` {} is above the table's own maximum bet ({table_max})",
                self.max_bet
            ));
        }
        Ok(())
    }

    /// What a side bet of `stake` on `bet` gives back when the cards made `win` (`None`: they made nothing): the
    /// stake and its winnings when the hand pays, nothing when it lost, paid nothing, or belongs to another bet.
    pub fn returned(&self, bet: SideBet, stake: Cents, win: Option<SideWin>) -> Cents {
        match win
            .filter(|win| win.bet() == bet)
            .and_then(|win| self.pays(win))
        {
            Some(pays) if pays > 0 => Cents(stake.0 * (i64::from(pays) + 1)),
            _ => Cents(0),
        }
    }
}

/// The three-card poker hand 21+3 reads from the first two cards and the dealer's up card, if it wins.
pub fn three_card(cards: [Card; 3]) -> Option<SideWin> {
    let mut ranks = cards.map(|card| card.rank() as u8);
    ranks.sort_unstable();
    let suited = cards[0].suit() == cards[1].suit() && cards[1].suit() == cards[2].suit();
    if ranks[0] == ranks[2] {
        return Some(if suited {
            SideWin::SuitedTrips
        } else {
            SideWin::ThreeOfAKind
        });
    }
    let in_sequence = (ranks[1] == ranks[0] + 1 && ranks[2] == ranks[1] + 1)
        || ranks == [Rank::Ace as u8, Rank::Queen as u8, Rank::King as u8];
    match (in_sequence, suited) {
        (true, true) => Some(SideWin::StraightFlush),
        (true, false) => Some(SideWin::Straight),
        (false, true) => Some(SideWin::Flush),
        (false, false) => None,
    }
}

/// True for hearts and diamonds.
fn red(suit: Suit) -> bool {
    matches!(suit, Suit::Hearts | Suit::Diamonds)
}

/// The pair Perfect Pairs reads from the first two cards, if they are one.
pub fn pair(cards: [Card; 2]) -> Option<SideWin> {
    let [a, b] = cards;
    if a.rank() != b.rank() {
        None
    } else if a.suit() == b.suit() {
        Some(SideWin::PerfectPair)
    } else if red(a.suit()) == red(b.suit()) {
        Some(SideWin::ColoredPair)
    } else {
        Some(SideWin::MixedPair)
    }
}

/// The 20 Lucky Ladies reads from the first two cards (an ace counts 11: ace and nine make 20), if they make one.
pub fn twenty(cards: [Card; 2], dealer_blackjack: bool) -> Option<SideWin> {
    let [a, b] = cards;
    let points = |card: Card| if card.is_ace() { 11 } else { card.points() };
    if points(a) + points(b) != 20 {
        return None;
    }
    let queen_of_hearts = |card: Card| card.rank() == Rank::Queen && card.suit() == Suit::Hearts;
    Some(if queen_of_hearts(a) && queen_of_hearts(b) {
        if dealer_blackjack {
            SideWin::QueensOfHeartsAndDealerBlackjack
        } else {
            SideWin::QueensOfHearts
        }
    } else if a.rank() == b.rank() && a.suit() == b.suit() {
        SideWin::MatchedTwenty
    } else if a.suit() == b.suit() {
        SideWin::SuitedTwenty
    } else {
        SideWin::AnyTwenty
    })
}

/// Buster's win from the dealer's finished hand: a bust, by its number of cards (eight and more as 8).
pub fn buster(dealer: &[Card]) -> Option<SideWin> {
    Total::of(dealer)
        .is_bust()
        .then(|| SideWin::DealerBust(dealer.len().clamp(3, 8) as u8))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(text: &str) -> Card {
        let (rank, suit) = text.split_at(text.len() - 1);
        let rank = match rank {
            "A" => Rank::Ace,
            "J" => Rank::Jack,
            "Q" => Rank::Queen,
            "K" => Rank::King,
            n => Rank::from_number(n.parse().expect("a rank")).expect("a rank"),
        };
        let suit = match suit {
            "c" => Suit::Clubs,
            "d" => Suit::Diamonds,
            "h" => Suit::Hearts,
            _ => Suit::Spades,
        };
        Card::new(0, suit, rank)
    }

    fn three(a: &str, b: &str, c: &str) -> Option<SideWin> {
        three_card([card(a), card(b), card(c)])
    }

    #[test]
    fn twenty_one_plus_three_reads_every_paying_hand_and_ranks_the_best() {
        assert_eq!(three("7h", "7h", "7h"), Some(SideWin::SuitedTrips));
        assert_eq!(three("7h", "7s", "7h"), Some(SideWin::ThreeOfAKind));
        assert_eq!(three("5d", "6d", "7d"), Some(SideWin::StraightFlush));
        assert_eq!(three("Ac", "2c", "3c"), Some(SideWin::StraightFlush));
        assert_eq!(three("Qs", "As", "Ks"), Some(SideWin::StraightFlush));
        assert_eq!(three("9c", "10h", "Js"), Some(SideWin::Straight));
        assert_eq!(three("Ac", "Kh", "Qs"), Some(SideWin::Straight));
        assert_eq!(
            three("Kh", "2c", "Ac"),
            None,
            "K-A-2 does not turn the corner"
        );
        assert_eq!(three("2h", "9h", "Kh"), Some(SideWin::Flush));
        assert_eq!(
            three("9h", "9h", "Kh"),
            Some(SideWin::Flush),
            "a suited pair is a flush"
        );
        assert_eq!(three("9h", "9s", "Kh"), None, "a pair alone does not pay");
        assert_eq!(
            three("10h", "Jh", "Kh"),
            Some(SideWin::Flush),
            "10-J-K is no sequence"
        );
        assert_eq!(three("2c", "7d", "Ks"), None);
    }

    #[test]
    fn perfect_pairs_reads_the_colour_and_the_suit() {
        assert_eq!(pair([card("Qh"), card("Qh")]), Some(SideWin::PerfectPair));
        assert_eq!(pair([card("Qh"), card("Qd")]), Some(SideWin::ColoredPair));
        assert_eq!(pair([card("3c"), card("3s")]), Some(SideWin::ColoredPair));
        assert_eq!(pair([card("3c"), card("3h")]), Some(SideWin::MixedPair));
        assert_eq!(
            pair([card("Kc"), card("Qc")]),
            None,
            "two tens of other ranks are no pair"
        );
    }

    #[test]
    fn lucky_ladies_reads_every_twenty() {
        let qh = card("Qh");
        assert_eq!(
            twenty([qh, qh], true),
            Some(SideWin::QueensOfHeartsAndDealerBlackjack)
        );
        assert_eq!(twenty([qh, qh], false), Some(SideWin::QueensOfHearts));
        assert_eq!(
            twenty([card("Kd"), card("Kd")], true),
            Some(SideWin::MatchedTwenty)
        );
        assert_eq!(
            twenty([card("Ac"), card("9c")], false),
            Some(SideWin::SuitedTwenty)
        );
        assert_eq!(
            twenty([card("Jh"), card("Qh")], false),
            Some(SideWin::SuitedTwenty)
        );
        assert_eq!(twenty([qh, card("Qd")], false), Some(SideWin::AnyTwenty));
        assert_eq!(
            twenty([card("Ac"), card("9d")], false),
            Some(SideWin::AnyTwenty)
        );
        assert_eq!(
            twenty([card("Ac"), card("Ac")], false),
            None,
            "two aces make 12"
        );
        assert_eq!(twenty([card("Kc"), card("9c")], true), None);
    }

    #[test]
    fn buster_pays_by_the_cards_of_a_busted_hand() {
        let hand = |cards: &[&str]| cards.iter().map(|c| card(c)).collect::<Vec<_>>();
        assert_eq!(
            buster(&hand(&["10s", "6h", "Kd"])),
            Some(SideWin::DealerBust(3))
        );
        assert_eq!(
            buster(&hand(&["2s", "3h", "Ad", "4c", "5c", "9d"])),
            Some(SideWin::DealerBust(6))
        );
        let long = hand(&["Ac", "Ad", "Ah", "As", "2c", "2d", "2h", "2s", "3c", "10c"]);
        assert_eq!(buster(&long), Some(SideWin::DealerBust(8)), "eight or more");
        assert_eq!(buster(&hand(&["10s", "7h"])), None);
        assert_eq!(buster(&hand(&["Ac", "6h", "Kd"])), None, "17, not a bust");
    }

    #[test]
    fn a_side_bet_pays_its_table_in_whole_cents_and_only_its_own_hands() {
        let bets = SideBets {
            twenty_one_plus_three: Some(ThreeCardPays::HUNDRED_TO_FIVE),
            perfect_pairs: Some(PairPays::TWENTY_FIVE),
            lucky_ladies: Some(LadiesPays::THOUSAND),
            buster: Some(BusterPays::TWO_FIFTY),
            ..SideBets::default()
        };
        let five = Cents::units(5);
        let cases = [
            (SideWin::SuitedTrips, 100),
            (SideWin::StraightFlush, 40),
            (SideWin::ThreeOfAKind, 30),
            (SideWin::Straight, 10),
            (SideWin::Flush, 5),
            (SideWin::PerfectPair, 25),
            (SideWin::ColoredPair, 12),
            (SideWin::MixedPair, 6),
            (SideWin::QueensOfHeartsAndDealerBlackjack, 1000),
            (SideWin::QueensOfHearts, 125),
            (SideWin::MatchedTwenty, 19),
            (SideWin::SuitedTwenty, 9),
            (SideWin::AnyTwenty, 4),
            (SideWin::DealerBust(8), 250),
            (SideWin::DealerBust(7), 50),
            (SideWin::DealerBust(6), 12),
            (SideWin::DealerBust(5), 4),
            (SideWin::DealerBust(4), 2),
            (SideWin::DealerBust(3), 2),
        ];
        for (win, pays) in cases {
            assert_eq!(
                bets.returned(win.bet(), five, Some(win)),
                Cents(500 * (pays + 1)),
                "{win:?}: the stake back and its winnings"
            );
            for other in SideBet::ALL.into_iter().filter(|&b| b != win.bet()) {
                assert_eq!(bets.returned(other, five, Some(win)), Cents(0));
            }
        }
        assert_eq!(bets.returned(SideBet::Buster, five, None), Cents(0));
        let stingy = SideBets {
            twenty_one_plus_three: Some(ThreeCardPays {
                flush: 0,
                ..ThreeCardPays::HUNDRED_TO_FIVE
            }),
            ..SideBets::default()
        };
        let flush = Some(SideWin::Flush);
        assert_eq!(
            stingy.returned(SideBet::TwentyOnePlusThree, five, flush),
            Cents(0),
            "a hand the table pays nothing for loses"
        );
        let flat = SideBets {
            twenty_one_plus_three: Some(ThreeCardPays::FLAT_NINE),
            ..SideBets::default()
        };
        assert_eq!(flat.pays(SideWin::SuitedTrips), Some(9));
        assert_eq!(flat.pays(SideWin::PerfectPair), None, "not offered");
        assert_eq!(flat.offered(), [SideBet::TwentyOnePlusThree]);
    }

    #[test]
    fn a_pay_table_given_as_numbers_fills_each_hand_best_first_and_a_wrong_count_is_refused() {
        for bet in SideBet::ALL {
            let mut usual = SideBets::default();
            usual.offer(bet);
            let pays: Vec<u32> = SideWin::of(bet)
                .into_iter()
                .filter_map(|win| usual.pays(win))
                .collect();
            let mut given = SideBets::default();
            given.offer_paying(bet, &pays).expect("the usual table");
            assert_eq!(given, usual, "{bet}");
            let mut short = SideBets::default();
            let refused = short.offer_paying(bet, &pays[1..]).expect_err("one short");
            assert!(refused.contains("numbers, one for each of"), "{refused}");
            assert_eq!(short, SideBets::default());
        }
        let mut buster = SideBets::default();
        buster
            .offer_paying(SideBet::Buster, &[200, 100, 30, 6, 3, 1])
            .expect("six numbers");
        assert_eq!(buster.pays(SideWin::DealerBust(8)), Some(200));
        assert_eq!(buster.pays(SideWin::DealerBust(3)), Some(1));
    }

    #[test]
    fn a_pay_table_that_pays_nothing_or_too_much_or_a_limit_off_the_chips_is_refused() {
        let unit = Cents::units(1);
        let max = Cents::units(5_000);
        let nothing = SideBets {
            perfect_pairs: Some(PairPays {
                perfect: 0,
                colored: 0,
                mixed: 0,
            }),
            ..SideBets::default()
        };
        assert!(
            nothing
                .check(unit, max)
                .unwrap_err()
                .contains("pays nothing")
        );
        let lavish = SideBets {
            buster: Some(BusterPays {
                eight_or_more: 1_000_000,
                ..BusterPays::TWO_FIFTY
            }),
            ..SideBets::default()
        };
        assert!(lavish.check(unit, max).unwrap_err().contains("5000 to 1"));
        let mut pairs = SideBets::default();
        pairs.offer(SideBet::PerfectPairs);
        let odd = SideBets {
            max_bet: Cents(150),
            ..pairs
        };
        assert!(odd.check(unit, max).unwrap_err().contains("smallest chip"));
        assert!(pairs.check(unit, Cents::units(50)).is_err());
        assert_eq!(pairs.check(unit, max), Ok(()));
        assert_eq!(
            SideBets::default().check(unit, Cents::units(5)),
            Ok(()),
            "a table without side bets has no side-bet limit to keep"
        );
    }
}
