//! A table's rule set: every option of the rule book, the named tables people know, and loading from RON.

use super::card::MAX_DECKS;
use super::money::Cents;
use super::side::SideBets;
use serde::{Deserialize, Serialize};
use std::fmt;
use thiserror::Error;

/// What the dealer does on soft 17.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Soft17 {
    /// S17: the dealer stands on all 17s.
    Stand,
    /// H17: the dealer hits soft 17.
    Hit,
}

/// Whether the dealer takes a hole card and peeks, or plays European no-hole-card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum HoleCard {
    /// US hole card: with an ace or ten-value up, the dealer checks for blackjack before anyone plays.
    Peek,
    /// European no hole card (ENHC): the dealer's second card comes after every player has acted.
    NoHoleCard {
        /// What a dealer blackjack takes from a hand that doubled or split.
        blackjack_takes: EnhcLoss,
    },
}

/// On a no-hole-card table, what a dealer blackjack takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EnhcLoss {
    /// Every bet on the hand, doubles and splits included.
    AllBets,
    /// Only the original bet; doubles and split bets are returned ("OBO").
    OriginalBetOnly,
}

/// What a blackjack pays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Payout {
    /// 3 to 2.
    ThreeToTwo,
    /// 6 to 5.
    SixToFive,
    /// 2 to 1.
    TwoToOne,
    /// 1 to 1 (even money).
    OneToOne,
}

impl Payout {
    /// (numerator, denominator) of the payout odds.
    pub const fn odds(self) -> (i64, i64) {
        match self {
            Payout::ThreeToTwo => (3, 2),
            Payout::SixToFive => (6, 5),
            Payout::TwoToOne => (2, 1),
            Payout::OneToOne => (1, 1),
        }
    }

    /// What a blackjack on `wager` wins, rounded as [`Cents::ratio`] rounds.
    pub const fn winnings(self, wager: Cents) -> Cents {
        let (num, den) = self.odds();
        wager.ratio(num, den)
    }

    /// "3:2", "6:5"…
    pub fn label(self) -> &'static str {
        match self {
            Payout::ThreeToTwo => "3:2",
            Payout::SixToFive => "6:5",
            Payout::TwoToOne => "2:1",
            Payout::OneToOne => "1:1",
        }
    }
}

/// Which first two cards may be doubled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DoubleOn {
    /// Any first two cards.
    AnyTwo,
    /// Totals of 9, 10 or 11.
    NineToEleven,
    /// Totals of 10 or 11.
    TenToEleven,
    /// No doubling.
    Never,
}

impl DoubleOn {
    /// True when a two-card hand of this total may double.
    pub const fn allows(self, total: u8) -> bool {
        match self {
            DoubleOn::AnyTwo => true,
            DoubleOn::NineToEleven => total >= 9 && total <= 11,
            DoubleOn::TenToEleven => total == 10 || total == 11,
            DoubleOn::Never => false,
        }
    }
}

/// Whether and when a player may give up half the bet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Surrender {
    /// No surrender.
    None,
    /// After the dealer's peek.
    Late,
    /// Before the dealer checks for blackjack.
    Early,
}

/// A casino table's rules: every *(option)* of the rule book.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Rules {
    /// Decks in the shoe (1–8).
    pub decks: u8,
    /// Dealer stands or hits on soft 17.
    pub soft_17: Soft17,
    /// US peek or European no hole card.
    pub hole_card: HoleCard,
    /// What a blackjack pays.
    pub blackjack_pays: Payout,
    /// Which two-card hands may double.
    pub double_on: DoubleOn,
    /// Double after split.
    pub double_after_split: bool,
    /// The most hands one seat may hold by splitting (1 = no splitting, up to 4).
    pub max_split_hands: u8,
    /// Split aces may be split again.
    pub resplit_aces: bool,
    /// Split aces may take more than one card.
    pub hit_split_aces: bool,
    /// Any two ten-value cards (K-Q, J-10…) may split, not just equal ranks.
    pub split_unequal_tens: bool,
    /// Surrender: none, late or early.
    pub surrender: Surrender,
    /// Insurance is offered against an ace.
    pub insurance: bool,
    /// Even money is offered to a blackjack against an ace.
    pub even_money: bool,
    /// A hand that reaches 21 stands by itself.
    pub auto_stand_on_21: bool,
    /// One card is burned after each shuffle.
    pub burn_card: bool,
    /// Table minimum bet.
    pub min_bet: Cents,
    /// Table maximum bet.
    pub max_bet: Cents,
    /// Bets are whole multiples of this (the smallest chip).
    pub bet_unit: Cents,
    /// Fraction of the shoe dealt before the cut card comes out.
    pub penetration: f64,
    /// The side bets offered, with their pay tables (none unless a table names them).
    pub side_bets: SideBets,
}

impl Default for Rules {
    fn default() -> Rules {
        Preset::LasVegasStrip.rules()
    }
}

/// The tables people know, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Preset {
    /// Las Vegas Strip: 6 decks, S17, DAS, late surrender, 3:2.
    LasVegasStrip,
    /// Downtown single deck: 1 deck, H17, no DAS, 3:2.
    DowntownSingleDeck,
    /// Atlantic City: 8 decks, S17, DAS, late surrender.
    AtlanticCity,
    /// European no hole card: 6 decks, S17, doubles on 9–11, a dealer blackjack takes everything.
    EuropeanNoHoleCard,
    /// A 6:5 "carnival" table: 6 decks, H17, blackjack pays only 6:5.
    Carnival,
}

impl Preset {
    /// Every preset.
    pub const ALL: [Preset; 5] = [
        Preset::LasVegasStrip,
        Preset::DowntownSingleDeck,
        Preset::AtlanticCity,
        Preset::EuropeanNoHoleCard,
        Preset::Carnival,
    ];

    /// The preset's rules.
    pub fn rules(self) -> Rules {
        let strip = Rules {
            decks: 6,
            soft_17: Soft17::Stand,
            hole_card: HoleCard::Peek,
            blackjack_pays: Payout::ThreeToTwo,
            double_on: DoubleOn::AnyTwo,
            double_after_split: true,
            max_split_hands: 4,
            resplit_aces: false,
            hit_split_aces: false,
            split_unequal_tens: false,
            surrender: Surrender::Late,
            insurance: true,
            even_money: true,
            auto_stand_on_21: true,
            burn_card: true,
            min_bet: Cents::units(10),
            max_bet: Cents::units(5_000),
            bet_unit: Cents::units(1),
            penetration: 0.75,
            side_bets: SideBets::default(),
        };
        match self {
            Preset::LasVegasStrip => strip,
            Preset::DowntownSingleDeck => Rules {
                decks: 1,
                soft_17: Soft17::Hit,
                double_after_split: false,
                surrender: Surrender::None,
                min_bet: Cents::units(5),
                max_bet: Cents::units(500),
                penetration: 0.6,
                ..strip
            },
            Preset::AtlanticCity => Rules {
                decks: 8,
                min_bet: Cents::units(15),
                max_bet: Cents::units(10_000),
                ..strip
            },
            Preset::EuropeanNoHoleCard => Rules {
                hole_card: HoleCard::NoHoleCard {
                    blackjack_takes: EnhcLoss::AllBets,
                },
                double_on: DoubleOn::NineToEleven,
                max_split_hands: 3,
                surrender: Surrender::None,
                min_bet: Cents::units(5),
                max_bet: Cents::units(1_000),
                ..strip
            },
            Preset::Carnival => Rules {
                soft_17: Soft17::Hit,
                blackjack_pays: Payout::SixToFive,
                surrender: Surrender::None,
                min_bet: Cents::units(5),
                max_bet: Cents::units(1_000),
                ..strip
            },
        }
    }

    /// The preset's display name.
    pub fn title(self) -> &'static str {
        match self {
            Preset::LasVegasStrip => "Las Vegas Strip",
            Preset::DowntownSingleDeck => "Downtown Single Deck",
            Preset::AtlanticCity => "Atlantic City",
            Preset::EuropeanNoHoleCard => "European No Hole Card",
            Preset::Carnival => "6:5 Carnival",
        }
    }
}

/// The highest table maximum a rule set may name, in cents ($100 million): a round's worst case for seven seats
/// then stays far inside the chip ceiling.
pub const MAX_BET: Cents = Cents(10_000_000_000);

/// A rule set that contradicts itself or the rule book.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("`{field}`: {message}")]
pub struct RuleError {
    /// The field at fault (the one to change).
    pub field: &'static str,
    /// What is wrong and what would be right.
    pub message: String,
}

impl Rules {
    /// Checks every field against the rule book and against the other fields.
    pub fn validate(&self) -> Result<(), RuleError> {
        let fail = |field, message: &str| {
            Err(RuleError {
                field,
                message: message.to_string(),
            })
        };
        if !(1..=MAX_DECKS).contains(&self.decks) {
            return fail("decks", "a shoe holds 1 to 8 decks");
        }
        if !(1..=4).contains(&self.max_split_hands) {
            return fail("max_split_hands", "must be 1 (no splitting) to 4");
        }
        if self.max_split_hands == 1 {
            for (on, field) in [
                (self.resplit_aces, "resplit_aces"),
                (self.hit_split_aces, "hit_split_aces"),
                (self.double_after_split, "double_after_split"),
                (self.split_unequal_tens, "split_unequal_tens"),
            ] {
                if on {
                    return fail(field, "is on but `max_split_hands: 1` forbids splitting");
                }
            }
        }
        if self.resplit_aces && self.max_split_hands < 3 {
            return fail(
                "resplit_aces",
                "resplitting aces needs `max_split_hands` of at least 3",
            );
        }
        if self.double_after_split && self.double_on == DoubleOn::Never {
            return fail(
                "double_after_split",
                "is on but `double_on: Never` forbids doubling",
            );
        }
        if self.even_money && !self.insurance {
            return fail(
                "even_money",
                "even money is insurance on a blackjack; it needs `insurance: true`",
            );
        }
        if !(0.25..=0.95).contains(&self.penetration) {
            return fail("penetration", "must be between 0.25 and 0.95 of the shoe");
        }
        if self.bet_unit.0 <= 0 {
            return fail("bet_unit", "must be a positive number of cents");
        }
        if self.min_bet.0 <= 0 {
            return fail("min_bet", "must be a positive number of cents");
        }
        if self.max_bet < self.min_bet {
            return fail("max_bet", "must not be below `min_bet`");
        }
        if self.max_bet > MAX_BET {
            return fail(
                "max_bet",
                "must be at most 10,000,000,000 (cents) — $100 million",
            );
        }
        if self.min_bet.0 % self.bet_unit.0 != 0 {
            return fail("min_bet", "must be a whole number of `bet_unit` chips");
        }
        if self.max_bet.0 % self.bet_unit.0 != 0 {
            return fail("max_bet", "must be a whole number of `bet_unit` chips");
        }
        if let Err(message) = self.side_bets.check(self.bet_unit, self.max_bet) {
            return fail("side_bets", &message);
        }
        Ok(())
    }

    /// True on a European no-hole-card table.
    pub fn no_hole_card(&self) -> bool {
        matches!(self.hole_card, HoleCard::NoHoleCard { .. })
    }

    /// The rules printed on the felt's arc, e.g. "BLACKJACK PAYS 3 TO 2 · DEALER MUST STAND ON ALL 17s".
    pub fn felt_lines(&self) -> Vec<String> {
        let (num, den) = self.blackjack_pays.odds();
        let mut lines = vec![format!("BLACKJACK PAYS {num} TO {den}")];
        lines.push(match self.soft_17 {
            Soft17::Stand => "DEALER MUST STAND ON ALL 17s".to_string(),
            Soft17::Hit => "DEALER MUST HIT SOFT 17".to_string(),
        });
        if self.insurance {
            lines.push("INSURANCE PAYS 2 TO 1".to_string());
        }
        lines
    }
}

/// One word of a table's shorthand ("DAS") and what it means, in plain words for someone new to the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleCode {
    /// As the shorthand writes it.
    pub code: String,
    /// What it means at this table.
    pub meaning: String,
}

impl Rules {
    /// The shorthand players use, word by word, each with its meaning at this table: "6D" (six decks), "S17", "DAS",
    /// "SP4", "LS", "3:2", "peek". [`Rules`]' `Display` writes the same words.
    pub fn codes(&self) -> Vec<RuleCode> {
        let mut codes = Vec::with_capacity(9);
        let mut say = |code: String, meaning: String| codes.push(RuleCode { code, meaning });
        say(
            format!("{}D", self.decks),
            match self.decks {
                1 => "One deck of 52 cards, shuffled after a share of it is dealt.".to_string(),
                n => format!("{n} decks of 52 cards shuffled together into the shoe."),
            },
        );
        match self.soft_17 {
            Soft17::Stand => say(
                "S17".into(),
                "The dealer stands on every 17, a soft 17 too (a 17 that counts an ace as 11, like ace and six)."
                    .into(),
            ),
            Soft17::Hit => say(
                "H17".into(),
                "The dealer takes another card on a soft 17 (a 17 that counts an ace as 11, like ace and six); \
                 this costs players a little."
                    .into(),
            ),
        }
        if self.double_after_split {
            say(
                "DAS".into(),
                "You may double down on a hand you made by splitting a pair.".into(),
            );
        } else {
            say(
                "noDAS".into(),
                "You may not double down on a hand you made by splitting a pair.".into(),
            );
        }
        match self.double_on {
            DoubleOn::AnyTwo => {}
            DoubleOn::NineToEleven => say(
                "D9-11".into(),
                "You may double down only when your first two cards make 9, 10 or 11.".into(),
            ),
            DoubleOn::TenToEleven => say(
                "D10-11".into(),
                "You may double down only when your first two cards make 10 or 11.".into(),
            ),
            DoubleOn::Never => say(
                "noDbl".into(),
                "Doubling down is not allowed at this table.".into(),
            ),
        }
        say(
            format!("SP{}", self.max_split_hands),
            match self.max_split_hands {
                2 => "You may split a pair once, into two hands.".to_string(),
                n => format!("You may split pairs, and split again, into as many as {n} hands."),
            },
        );
        if self.resplit_aces {
            say(
                "RSA".into(),
                "A split ace that gets another ace may be split again.".into(),
            );
        }
        if self.hit_split_aces {
            say(
                "HSA".into(),
                "You may draw more than one card to a split ace (most tables give each one card)."
                    .into(),
            );
        }
        match self.surrender {
            Surrender::None => {}
            Surrender::Late => say(
                "LS".into(),
                "Late surrender: once the dealer has checked for blackjack, you may give up your first two cards \
                 and keep half your bet."
                    .into(),
            ),
            Surrender::Early => say(
                "ES".into(),
                "Early surrender: even before the dealer checks for blackjack, you may give up your first two \
                 cards and keep half your bet."
                    .into(),
            ),
        }
        let ten = Cents::units(10);
        let (num, den) = self.blackjack_pays.odds();
        say(
            self.blackjack_pays.label().to_string(),
            format!(
                "A blackjack (an ace and a ten, jack, queen or king as your first two cards) pays {num} to {den}: \
                 {} on a bet of {ten}.",
                self.blackjack_pays.winnings(ten)
            ),
        );
        match self.hole_card {
            HoleCard::Peek => say(
                "peek".into(),
                "With an ace or a ten-card showing, the dealer looks at the card face down for a blackjack before \
                 anyone plays: if it is one, you lose only your first bet."
                    .into(),
            ),
            HoleCard::NoHoleCard {
                blackjack_takes: EnhcLoss::AllBets,
            } => say(
                "ENHC".into(),
                "European no hole card: the dealer takes a second card only after everyone has played, and a \
                 dealer blackjack then takes every bet on your hand, doubles and splits too."
                    .into(),
            ),
            HoleCard::NoHoleCard {
                blackjack_takes: EnhcLoss::OriginalBetOnly,
            } => say(
                "ENHC-OBO".into(),
                "European no hole card: the dealer takes a second card only after everyone has played; a dealer \
                 blackjack then takes only your first bet, and what you added to double or split is given back."
                    .into(),
            ),
        }
        codes
    }
}

impl fmt::Display for Rules {
    /// A one-line summary in the shorthand players use: "6D S17 DAS SP4 LS 3:2 peek" ([`Rules::codes`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let codes = self.codes();
        let words: Vec<&str> = codes.iter().map(|c| c.code.as_str()).collect();
        f.write_str(&words.join(" "))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn every_preset_is_valid() {
        for preset in Preset::ALL {
            assert_eq!(preset.rules().validate(), Ok(()), "{preset:?}");
        }
    }

    #[test]
    fn contradictions_name_the_field() {
        let bad = Rules {
            max_split_hands: 1,
            ..Rules::default()
        };
        assert_eq!(
            bad.validate().map_err(|e| e.field),
            Err("double_after_split")
        );
        let bad = Rules {
            resplit_aces: true,
            max_split_hands: 2,
            ..Rules::default()
        };
        assert_eq!(bad.validate().map_err(|e| e.field), Err("resplit_aces"));
        let bad = Rules {
            insurance: false,
            ..Rules::default()
        };
        assert_eq!(bad.validate().map_err(|e| e.field), Err("even_money"));
        let bad = Rules {
            min_bet: Cents::units(50),
            max_bet: Cents::units(10),
            ..Rules::default()
        };
        assert_eq!(bad.validate().map_err(|e| e.field), Err("max_bet"));
        let bad = Rules {
            decks: 9,
            ..Rules::default()
        };
        assert_eq!(bad.validate().map_err(|e| e.field), Err("decks"));
        let bad = Rules {
            min_bet: Cents(1050),
            ..Rules::default()
        };
        assert_eq!(bad.validate().map_err(|e| e.field), Err("min_bet"));
    }

    #[test]
    fn double_restrictions() {
        assert!(DoubleOn::NineToEleven.allows(9));
        assert!(!DoubleOn::NineToEleven.allows(8));
        assert!(!DoubleOn::TenToEleven.allows(9));
        assert!(DoubleOn::AnyTwo.allows(19));
        assert!(!DoubleOn::Never.allows(11));
    }

    #[test]
    fn felt_reads_the_actual_rules() {
        let lines = Preset::Carnival.rules().felt_lines();
        assert_eq!(
            lines,
            [
                "BLACKJACK PAYS 6 TO 5",
                "DEALER MUST HIT SOFT 17",
                "INSURANCE PAYS 2 TO 1"
            ]
        );
        assert_eq!(
            Preset::LasVegasStrip.rules().to_string(),
            "6D S17 DAS SP4 LS 3:2 peek"
        );
    }

    #[test]
    fn every_word_of_every_tables_shorthand_is_explained_in_plain_words() {
        for preset in Preset::ALL {
            assert_explained(&format!("{preset:?}"), &preset.rules());
        }
        // Every other way a rule can be set, too (the level files are walked in `host::level`).
        let no_hole_card = |blackjack_takes| HoleCard::NoHoleCard { blackjack_takes };
        for (soft_17, double_on, surrender, hole_card) in [
            (
                Soft17::Hit,
                DoubleOn::NineToEleven,
                Surrender::Early,
                no_hole_card(EnhcLoss::OriginalBetOnly),
            ),
            (
                Soft17::Stand,
                DoubleOn::TenToEleven,
                Surrender::None,
                no_hole_card(EnhcLoss::AllBets),
            ),
            (
                Soft17::Hit,
                DoubleOn::Never,
                Surrender::Late,
                HoleCard::Peek,
            ),
        ] {
            let rules = Rules {
                soft_17,
                double_on,
                surrender,
                hole_card,
                double_after_split: false,
                resplit_aces: true,
                hit_split_aces: true,
                decks: 1,
                max_split_hands: 2,
                blackjack_pays: Payout::SixToFive,
                ..Rules::default()
            };
            assert_explained(&rules.to_string(), &rules);
        }
        let written = Preset::LasVegasStrip.rules().codes();
        let blackjack = written
            .iter()
            .find(|c| c.code == "3:2")
            .expect("3:2 explained");
        assert!(
            blackjack
                .meaning
                .contains("pays 3 to 2: $15 on a bet of $10."),
            "{}",
            blackjack.meaning
        );
    }

    /// Each word of the table's shorthand is explained, in a sentence of plain words (no shorthand in it).
    pub(crate) fn assert_explained(name: &str, rules: &Rules) {
        let codes = rules.codes();
        let written = rules.to_string();
        let explained: Vec<&str> = codes.iter().map(|c| c.code.as_str()).collect();
        assert_eq!(written.split(' ').collect::<Vec<_>>(), explained, "{name}");
        for RuleCode { code, meaning } in &codes {
            assert!(
                meaning.ends_with('.') && meaning.split(' ').count() >= 6,
                "{name}: {code}: {meaning}"
            );
            let shorthand = shorthand_in(meaning);
            assert!(
                shorthand.is_empty(),
                "{name}: {code} is explained with {shorthand:?}"
            );
        }
    }

    /// The shorthand's words found in `text`: a run of capitals and digits like "DAS", "S17", "ENHC" or "6D".
    fn shorthand_in(text: &str) -> Vec<String> {
        text.split(|c: char| !c.is_ascii_alphanumeric() && c != '-')
            .filter(|word| {
                word.len() >= 2
                    && word.chars().filter(char::is_ascii_uppercase).count() >= 2
                    && word
                        .chars()
                        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-')
            })
            .map(str::to_string)
            .collect()
    }
}
