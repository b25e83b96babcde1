//! Basic strategy: the published total-dependent charts, chosen for the table's rules.
//!
//! Sources (see docs/engineering.md): one deck and two decks from the Wizard of Odds charts as computed and checked by
//! Hugues Hoppe's blackjack analysis; four to eight decks from the same (they agree with BlackjackInfo and
//! Wikipedia); surrender cells from Wizard of Odds appendix 6; the early-surrender chart from Wizard of Odds.

use super::card::Card;
use super::checks::TableState;
use super::command::{Action, Command, Phase, SeatId};
use super::hand::Cards;
use super::money::Cents;
use super::rules::{EnhcLoss, HoleCard, Rules, Soft17, Surrender};

/// What a chart cell says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Play {
    /// Hit.
    Hit,
    /// Stand.
    Stand,
    /// Double, or hit when doubling is not allowed.
    DoubleOrHit,
    /// Double, or stand when doubling is not allowed.
    DoubleOrStand,
    /// Split.
    Split,
    /// Surrender, or hit when surrender is not allowed.
    SurrenderOrHit,
    /// Surrender, or stand.
    SurrenderOrStand,
    /// Surrender, or split.
    SurrenderOrSplit,
    /// (Pair rows only) play the hand by its total.
    ByTotal,
}

/// A chart row: one cell per up card, 2 to 9, ten, ace.
pub type Row = [Play; 10];

impl Play {
    /// The cell as printed charts write it: H, S, D, Ds, P, Rh, Rs, Rp, and `-` for a pair played by its total.
    pub fn code(self) -> &'static str {
        match self {
            Play::Hit => "H",
            Play::Stand => "S",
            Play::DoubleOrHit => "D",
            Play::DoubleOrStand => "Ds",
            Play::Split => "P",
            Play::SurrenderOrHit => "Rh",
            Play::SurrenderOrStand => "Rs",
            Play::SurrenderOrSplit => "Rp",
            Play::ByTotal => "-",
        }
    }

    /// The cell where surrender is not offered: what the chart falls back to.
    pub fn without_surrender(self) -> Play {
        match self {
            Play::SurrenderOrHit => Play::Hit,
            Play::SurrenderOrStand => Play::Stand,
            Play::SurrenderOrSplit => Play::Split,
            other => other,
        }
    }

    /// For a pair's row: whether the cell splits (surrender aside).
    pub fn splits(self) -> bool {
        matches!(self, Play::Split | Play::SurrenderOrSplit)
    }
}

/// A chart's cells: hard totals and soft totals by total (0–21), pairs by the pair's points (1 = aces … 10).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    /// Hard totals.
    pub hard: [Row; 22],
    /// Soft totals.
    pub soft: [Row; 22],
    /// Pairs: what to do before playing the hand by its total (`ByTotal` where it is not split).
    pub pair: [Row; 11],
}

/// The up cards in a row's order, by points: 2–9, ten, ace.
pub const UP_CARDS: [u8; 10] = [2, 3, 4, 5, 6, 7, 8, 9, 10, 1];

/// The column of an up card by its points (1 = ace).
pub fn column_of_points(up: u8) -> usize {
    if up == 1 {
        9
    } else {
        usize::from(up.clamp(2, 10)) - 2
    }
}

/// A basic-strategy chart for one rule set: hard totals, soft totals and pairs against each upcard.
#[derive(Clone, Debug)]
pub struct BasicStrategy {
    hard: [Row; 22],
    soft: [Row; 22],
    /// Indexed by the pair's points (1 = aces … 10 = ten-values).
    pair: [Row; 11],
    early_surrender: bool,
    /// Early surrender without a peek: a surrender during the turn keeps half whatever the dealer turns up, so
    /// the early-surrender chart applies at the first decision.
    early_surrender_in_turn: bool,
    h17: bool,
}

/// Column of an upcard: 2…9, ten-value, ace.
#[inline]
fn column(upcard: Card) -> usize {
    if upcard.is_ace() {
        9
    } else {
        usize::from(upcard.points()) - 2
    }
}

fn row(text: &str) -> Row {
    let mut row = [Play::Hit; 10];
    let cells: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(cells.len(), 10, "a chart row has ten cells: {text}");
    for (cell, play) in cells.iter().zip(row.iter_mut()) {
        *play = match *cell {
            "H" => Play::Hit,
            "S" => Play::Stand,
            "D" => Play::DoubleOrHit,
            "Ds" => Play::DoubleOrStand,
            "P" => Play::Split,
            "Rh" => Play::SurrenderOrHit,
            "Rs" => Play::SurrenderOrStand,
            "Rp" => Play::SurrenderOrSplit,
            "-" => Play::ByTotal,
            other => panic!("unknown chart cell {other}"),
        };
    }
    row
}

/// Chart rows, upcards 2 3 4 5 6 7 8 9 T A.
struct Chart {
    hard: [(u8, &'static str); 9],
    soft: [(u8, &'static str); 9],
    pairs: [(u8, &'static str); 8],
}

/// Four to eight decks, dealer hits soft 17, double after split, late surrender cells marked.
const SHOE_H17: Chart = Chart {
    hard: [
        (8, "H H H H H H H H H H"),
        (9, "H D D D D H H H H H"),
        (10, "D D D D D D D D H H"),
        (11, "D D D D D D D D D D"),
        (12, "H H S S S H H H H H"),
        (13, "S S S S S H H H H H"),
        (14, "S S S S S H H H H H"),
        (15, "S S S S S H H H Rh Rh"),
        (16, "S S S S S H H Rh Rh Rh"),
    ],
    soft: [
        (12, "H H H H H H H H H H"),
        (13, "H H H D D H H H H H"),
        (14, "H H H D D H H H H H"),
        (15, "H H D D D H H H H H"),
        (16, "H H D D D H H H H H"),
        (17, "H D D D D H H H H H"),
        (18, "Ds Ds Ds Ds Ds S S H H H"),
        (19, "S S S S Ds S S S S S"),
        (20, "S S S S S S S S S S"),
    ],
    pairs: [
        (2, "P P P P P P H H H H"),
        (3, "P P P P P P H H H H"),
        (4, "H H H P P H H H H H"),
        (6, "P P P P P H H H H H"),
        (7, "P P P P P P H H H H"),
        (8, "P P P P P P P P P Rp"),
        (9, "P P P P P S P P S S"),
        (1, "P P P P P P P P P P"),
    ],
};

/// Two decks, H17, DAS.
const DOUBLE_DECK_H17: Chart = Chart {
    hard: [
        (8, "H H H H H H H H H H"),
        (9, "D D D D D H H H H H"),
        (10, "D D D D D D D D H H"),
        (11, "D D D D D D D D D D"),
        (12, "H H S S S H H H H H"),
        (13, "S S S S S H H H H H"),
        (14, "S S S S S H H H H H"),
        (15, "S S S S S H H H Rh Rh"),
        (16, "S S S S S H H H Rh Rh"),
    ],
    soft: [
        (12, "H H H H H H H H H H"),
        (13, "H H H D D H H H H H"),
        (14, "H H D D D H H H H H"),
        (15, "H H D D D H H H H H"),
        (16, "H H D D D H H H H H"),
        (17, "H D D D D H H H H H"),
        (18, "Ds Ds Ds Ds Ds S S H H H"),
        (19, "S S S S Ds S S S S S"),
        (20, "S S S S S S S S S S"),
    ],
    pairs: [
        (2, "P P P P P P H H H H"),
        (3, "P P P P P P H H H H"),
        (4, "H H H P P H H H H H"),
        (6, "P P P P P P H H H H"),
        (7, "P P P P P P P H H H"),
        (8, "P P P P P P P P P P"),
        (9, "P P P P P S P P S S"),
        (1, "P P P P P P P P P P"),
    ],
};

/// One deck, H17, DAS.
const SINGLE_DECK_H17: Chart = Chart {
    hard: [
        (8, "H H H D D H H H H H"),
        (9, "D D D D D H H H H H"),
        (10, "D D D D D D D D H H"),
        (11, "D D D D D D D D D D"),
        (12, "H H S S S H H H H H"),
        (13, "S S S S S H H H H H"),
        (14, "S S S S S H H H H H"),
        (15, "S S S S S H H H H Rh"),
        (16, "S S S S S H H H Rh Rh"),
    ],
    soft: [
        (12, "H H H H H H H H H H"),
        (13, "H H D D D H H H H H"),
        (14, "H H D D D H H H H H"),
        (15, "H H D D D H H H H H"),
        (16, "H H D D D H H H H H"),
        (17, "D D D D D H H H H H"),
        (18, "S Ds Ds Ds Ds S S H H H"),
        (19, "S S S S Ds S S S S S"),
        (20, "S S S S S S S S S S"),
    ],
    pairs: [
        (2, "P P P P P P H H H H"),
        (3, "P P P P P P P H H H"),
        (4, "H H P P P H H H H H"),
        (6, "P P P P P P H H H H"),
        (7, "P P P P P P P H Rs Rh"),
        (8, "P P P P P P P P P P"),
        (9, "P P P P P S P P S P"),
        (1, "P P P P P P P P P P"),
    ],
};

impl BasicStrategy {
    /// The chart's cells.
    pub fn grid(&self) -> Grid {
        Grid {
            hard: self.hard,
            soft: self.soft,
            pair: self.pair,
        }
    }

    /// A chart with these cells for a table with `rules` (early surrender as the published chart has it).
    pub fn from_grid(grid: &Grid, rules: &Rules) -> BasicStrategy {
        BasicStrategy {
            hard: grid.hard,
            soft: grid.soft,
            pair: grid.pair,
            early_surrender: rules.surrender == Surrender::Early,
            early_surrender_in_turn: rules.surrender == Surrender::Early && rules.no_hole_card(),
            h17: rules.soft_17 == Soft17::Hit,
        }
    }

    /// The chart for `rules`: deck count, soft 17, double after split, surrender and hole-card rules.
    pub fn for_rules(rules: &Rules) -> BasicStrategy {
        let h17 = rules.soft_17 == Soft17::Hit;
        let chart = match rules.decks {
            1 => &SINGLE_DECK_H17,
            2 | 3 => &DOUBLE_DECK_H17,
            _ => &SHOE_H17,
        };
        let mut strategy = BasicStrategy {
            hard: [row("H H H H H H H H H H"); 22],
            soft: [row("S S S S S S S S S S"); 22],
            pair: [row("- - - - - - - - - -"); 11],
            early_surrender: rules.surrender == Surrender::Early,
            early_surrender_in_turn: rules.surrender == Surrender::Early && rules.no_hole_card(),
            h17,
        };
        for total in 17..22 {
            strategy.hard[total] = row("S S S S S S S S S S");
        }
        for (total, text) in chart.hard {
            strategy.hard[usize::from(total)] = row(text);
        }
        strategy.hard[17] = row("S S S S S S S S S Rs");
        for (total, text) in chart.soft {
            strategy.soft[usize::from(total)] = row(text);
        }
        for (points, text) in chart.pairs {
            strategy.pair[usize::from(points)] = row(text);
        }
        strategy.adjust(rules);
        strategy
    }

    /// The differences from the H17 + DAS charts that the rules call for.
    fn adjust(&mut self, rules: &Rules) {
        let h17 = self.h17;
        let (two, four, six, ten, ace) = (0, 2, 4, 8, 9);
        match rules.decks {
            1 => {
                if !h17 {
                    self.hard[15][ace] = Play::Hit;
                    self.hard[17][ace] = Play::Stand;
                    self.soft[18][ace] = Play::Stand;
                    self.pair[9][ace] = Play::Stand;
                    self.pair[7][ace] = Play::Hit;
                }
                if !rules.double_after_split {
                    self.pair[2] = row("H P P P P P H H H H");
                    self.pair[3] = row("H H P P P P H H H H");
                    self.pair[4] = row("- - - - - - - - - -");
                    self.pair[6] = row("P P P P P H H H H H");
                    self.pair[7][6] = Play::ByTotal;
                    // Without a double after splitting, 9,9 against an ace stands (−0.1861 a unit against
                    // −0.1912 for the split; `holecard-lab ev 9,9 A --decks 1 --h17 --no-das`).
                    self.pair[9][ace] = Play::ByTotal;
                }
            }
            2 | 3 => {
                if !h17 {
                    // A,3 against a 4 hits when the dealer stands on soft 17 (+0.0852 against +0.0839 for the
                    // double; `holecard-lab ev A,3 4 --decks 2 --s17`).
                    self.soft[14][four] = Play::Hit;
                    self.soft[18][two] = Play::Stand;
                    self.soft[19][six] = Play::Stand;
                    self.hard[15][ace] = Play::Hit;
                    self.hard[17][ace] = Play::Stand;
                }
                if !rules.double_after_split {
                    self.pair[2] = row("H H P P P P H H H H");
                    self.pair[3] = row("H H P P P P H H H H");
                    self.pair[4] = row("- - - - - - - - - -");
                    self.pair[6] = row("P P P P P H H H H H");
                    self.pair[7] = row("P P P P P P H H H H");
                    if h17 {
                        self.pair[8][ace] = Play::SurrenderOrSplit;
                    }
                }
            }
            _ => {
                if !h17 {
                    self.hard[11][ace] = Play::Hit;
                    self.hard[15][ace] = Play::Hit;
                    self.hard[17][ace] = Play::Stand;
                    self.soft[18][two] = Play::Stand;
                    self.soft[19][six] = Play::Stand;
                    self.pair[8][ace] = Play::Split;
                }
                if !rules.double_after_split {
                    self.pair[2] = row("H H P P P P H H H H");
                    self.pair[3] = row("H H P P P P H H H H");
                    self.pair[4] = row("- - - - - - - - - -");
                    self.pair[6] = row("H P P P P H H H H H");
                }
            }
        }
        if rules.hole_card
            == (HoleCard::NoHoleCard {
                blackjack_takes: EnhcLoss::AllBets,
            })
        {
            // Without a peek, money put out against a ten or an ace is lost to a dealer blackjack too.
            self.hard[11][ten] = Play::Hit;
            self.hard[11][ace] = Play::Hit;
            self.pair[1][ace] = Play::ByTotal;
            self.pair[8][ten] = Play::SurrenderOrHit;
            self.pair[8][ace] = Play::SurrenderOrHit;
        }
    }

    /// The chart's play for these cards against `upcard`; `allowed` says whether the hand may take an action.
    #[inline]
    pub fn play(&self, cards: &Cards, upcard: Card, allowed: impl Fn(Action) -> bool) -> Action {
        if self.early_surrender_in_turn
            && cards.len() == 2
            && self.surrenders_early(cards, upcard)
            && allowed(Action::Surrender)
        {
            return Action::Surrender;
        }
        let col = column(upcard);
        let total = cards.total();
        let mut play = Play::ByTotal;
        if let [a, b] = cards.as_slice()
            && a.points() == b.points()
            && allowed(Action::Split)
        {
            play = self.pair[usize::from(a.points())][col];
        }
        if play == Play::ByTotal {
            let value = usize::from(total.value().min(21));
            play = if total.is_soft() {
                self.soft[value][col]
            } else {
                self.hard[value][col]
            };
        }
        resolve(play, allowed)
    }

    /// Early surrender against an ace or ten, from the published early-surrender chart: against an ace give up
    /// hard 5–7 and 12–17 (and 2,2 when the dealer hits soft 17); against a ten, hard 14–16.
    pub fn surrenders_early(&self, cards: &Cards, upcard: Card) -> bool {
        let total = cards.total();
        if total.is_soft() {
            return false;
        }
        let value = total.value();
        if upcard.is_ace() {
            matches!(value, 5..=7 | 12..=17) || (self.h17 && value == 4)
        } else if upcard.points() == 10 {
            matches!(value, 14..=16)
        } else {
            false
        }
    }

    /// The command a basic-strategy player in `seat` gives now, or `None` when the seat has nothing to decide.
    pub fn decide(&self, table: &impl TableState, seat: SeatId) -> Option<Command> {
        let upcard = table.upcard()?;
        let command = match table.phase() {
            Phase::PlayerTurn { hand } => {
                let hand = &table.hands()[usize::from(hand)];
                if hand.seat != seat {
                    return None;
                }
                self.play(&hand.cards, upcard, |action| table.allows(seat, action))
                    .command(seat, Cents::ZERO)
            }
            Phase::EarlySurrender | Phase::Insurance
                if !table.seats().get(usize::from(seat))?.deciding =>
            {
                return None;
            }
            Phase::EarlySurrender => {
                let hand = table.seat_hands(seat).next()?;
                if self.early_surrender && self.surrenders_early(&hand.cards, upcard) {
                    Command::Surrender { seat }
                } else {
                    Command::DeclineSurrender { seat }
                }
            }
            Phase::Insurance if table.legal_actions(seat).contains(Action::DeclineEvenMoney) => {
                Command::DeclineEvenMoney { seat }
            }
            Phase::Insurance => Command::DeclineInsurance { seat },
            Phase::Betting => return None,
        };
        Some(command)
    }
}

/// Turns a chart cell into an action the hand may take.
#[inline]
fn resolve(play: Play, allowed: impl Fn(Action) -> bool) -> Action {
    let fallback =
        |first: Action, otherwise: Action| if allowed(first) { first } else { otherwise };
    let hit_or_stand = || fallback(Action::Hit, Action::Stand);
    match play {
        Play::Hit | Play::ByTotal => hit_or_stand(),
        Play::Stand => Action::Stand,
        Play::DoubleOrHit => {
            if allowed(Action::Double) {
                Action::Double
            } else {
                hit_or_stand()
            }
        }
        Play::DoubleOrStand => fallback(Action::Double, Action::Stand),
        Play::Split => {
            if allowed(Action::Split) {
                Action::Split
            } else {
                hit_or_stand()
            }
        }
        Play::SurrenderOrHit => {
            if allowed(Action::Surrender) {
                Action::Surrender
            } else {
                hit_or_stand()
            }
        }
        Play::SurrenderOrStand => fallback(Action::Surrender, Action::Stand),
        Play::SurrenderOrSplit => {
            if allowed(Action::Surrender) {
                Action::Surrender
            } else {
                fallback(Action::Split, Action::Hit)
            }
        }
    }
}
