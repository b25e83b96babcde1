//! AI companions: how each personality bets, plays, and what it says at the moments that matter.
//!
//! Bevy-free like the rest of the engine. Each mind watches the table's events (the counter keeps a Hi-Lo count
//! from them) and draws any randomness from its own seeded generator, so a seeded table replays its companions too.
//! A mind sees the table only as its seat does, through a [`TableView`]: it cannot know the shoe or the hole card.

use super::checks::TableState;
use super::command::{Action, Command, Phase, SeatId};
use super::count::{Count, hi_lo};
use super::event::{Event, Outcome};
use super::money::Cents;
use super::rng::{Seed, TableRng};
use super::rules::Rules;
use super::side::SideBet;
use super::strategy::BasicStrategy;
use super::view::TableView;
use serde::{Deserialize, Serialize};

/// How a companion plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Personality {
    /// Perfect basic strategy, flat bets.
    ByTheBook,
    /// Mostly basic strategy, but now and then plays a hunch — and says so.
    HunchPlayer,
    /// Keeps a Hi-Lo count and bets up when the true count is high.
    CardCounter,
    /// Bets big and always insures.
    HighRoller,
}

impl Personality {
    /// A few words about the style, for the Tables screen.
    pub fn describe(self) -> &'static str {
        match self {
            Personality::ByTheBook => "plays perfect basic strategy",
            Personality::HunchPlayer => "plays hunches now and then",
            Personality::CardCounter => "counts cards and bets with the count",
            Personality::HighRoller => "bets big and always insures",
        }
    }
}

/// One hunch in this many decisions.
const HUNCH_ODDS: u32 = 8;
/// A high roller's bet, in table minimums.
const HIGH_ROLLER_UNITS: i64 = 10;
/// The counter's largest bet, in table minimums.
const COUNTER_MAX_UNITS: i64 = 8;
/// A win worth remarking on, in table minimums.
const BIG_WIN_UNITS: i64 = 20;

/// A decision, and what the companion says about it if anything.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    /// The command to give the table.
    pub command: Command,
    /// A line for the round log.
    pub remark: Option<String>,
}

/// Why a companion gets up between rounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Departure {
    /// Can no longer cover the minimum bet.
    Broke,
    /// Doubled the buy-in and is happy to go.
    Satisfied,
}

/// A companion's mind: personality, the book, a running count and a seeded generator for hunches.
#[derive(Clone, Debug)]
pub struct Mind {
    personality: Personality,
    book: BasicStrategy,
    min_bet: Cents,
    count: Count,
    rng: TableRng,
}

impl Mind {
    /// A mind for `rules`; `seed` fixes its hunches.
    pub fn new(personality: Personality, rules: &Rules, seed: Seed) -> Mind {
        Mind {
            personality,
            book: BasicStrategy::for_rules(rules),
            min_bet: rules.min_bet,
            count: Count::new(hi_lo(), rules.decks),
            rng: TableRng::from_seed(seed),
        }
    }

    /// The personality.
    pub fn personality(&self) -> Personality {
        self.personality
    }

    /// The Hi-Lo running count of the cards seen since the shuffle.
    pub fn running_count(&self) -> i32 {
        self.count.running_units()
    }

    /// The running count per deck still in the shoe (rounded toward zero).
    pub fn true_count(&self, table: &TableView) -> i32 {
        let decks_left = (table.shoe().remaining as i32 * 2 / 52).max(1);
        self.running_count() * 2 / decks_left
    }

    /// Watches an event: the counter counts every card it sees and starts again at a shuffle.
    pub fn observe(&mut self, event: &Event) {
        match *event {
            Event::Shuffled { .. } => self.count.shuffle(),
            Event::Dealt { card, .. } | Event::HoleCardRevealed { card } => self.count.see(card),
            _ => {}
        }
    }

    /// What the companion puts in the circle for the next round (zero to sit out).
    pub fn bet(&self, table: &TableView, seat: SeatId) -> Cents {
        let rules = table.rules();
        let Some(s) = table.seats().get(usize::from(seat)) else {
            return Cents::ZERO;
        };
        let units = match self.personality {
            Personality::ByTheBook | Personality::HunchPlayer => 1,
            Personality::HighRoller => HIGH_ROLLER_UNITS,
            Personality::CardCounter => {
                i64::from(self.true_count(table) - 1).clamp(1, COUNTER_MAX_UNITS)
            }
        };
        let wanted = Cents(rules.min_bet.0.saturating_mul(units)).min(rules.max_bet);
        // Whole chips out of what is in front of the companion (a bet already in the circle counts).
        let chips = s.chips();
        let affordable = Cents(chips.0 - chips.0 % rules.bet_unit.0);
        let bet = wanted.min(affordable);
        if bet < rules.min_bet {
            Cents::ZERO
        } else {
            bet
        }
    }

    /// What the companion puts on the table's side-bet spots for the next round, beside `bet` in the circle: the
    /// hunch player likes 21+3 and Lucky Ladies, the high roller Perfect Pairs and Buster; the book and the counter
    /// leave bets that favour the house alone. Nothing beside no bet, and nothing it cannot afford after the bet.
    pub fn side_bets(&self, table: &TableView, seat: SeatId, bet: Cents) -> Vec<(SideBet, Cents)> {
        let rules = table.rules();
        let Some(s) = table.seats().get(usize::from(seat)) else {
            return Vec::new();
        };
        let (liked, stake): (&[SideBet], Cents) = match self.personality {
            Personality::HunchPlayer => (
                &[SideBet::TwentyOnePlusThree, SideBet::LuckyLadies],
                rules.min_bet.half(),
            ),
            Personality::HighRoller => (&[SideBet::PerfectPairs, SideBet::Buster], rules.min_bet),
            Personality::ByTheBook | Personality::CardCounter => (&[], Cents::ZERO),
        };
        let unit = rules.bet_unit.0.max(1);
        let stake = Cents((stake.0 - stake.0 % unit).max(unit)).min(rules.side_bets.max_bet);
        let mut left = s.chips() - bet;
        SideBet::ALL
            .into_iter()
            .map(|side| {
                let wanted = bet.is_positive()
                    && liked.contains(&side)
                    && rules.side_bets.offers(side)
                    && stake <= left;
                if wanted {
                    left -= stake;
                    (side, stake)
                } else {
                    (side, Cents::ZERO)
                }
            })
            .collect()
    }

    /// The companion's move when it has a decision, or `None`.
    pub fn decide(&mut self, table: &TableView, seat: SeatId) -> Option<Move> {
        let book = self.book.decide(table, seat)?;
        let quiet = |command| {
            Some(Move {
                command,
                remark: None,
            })
        };
        match (self.personality, table.phase()) {
            (Personality::HighRoller, Phase::Insurance) => {
                let legal = table.legal_actions(seat);
                if legal.contains(Action::TakeEvenMoney) {
                    return Some(Move {
                        command: Command::TakeEvenMoney { seat },
                        remark: Some("Even money? I'll take it.".to_string()),
                    });
                }
                if legal.contains(Action::TakeInsurance) {
                    let bankroll = table.seats()[usize::from(seat)].bankroll;
                    let amount = table.max_insurance(seat).min(bankroll);
                    return Some(Move {
                        command: Command::TakeInsurance { seat, amount },
                        remark: Some("Always insure the big ones.".to_string()),
                    });
                }
                quiet(book)
            }
            (Personality::HunchPlayer, Phase::PlayerTurn { .. })
                if self.rng.below(HUNCH_ODDS) == 0 =>
            {
                let hunch = match book {
                    Command::Hit { .. } => Command::Stand { seat },
                    Command::Stand { .. } if table.legal_actions(seat).contains(Action::Hit) => {
                        Command::Hit { seat }
                    }
                    _ => return quiet(book),
                };
                let remark = match hunch {
                    Command::Hit { .. } => "I've got a feeling about the next card.",
                    _ => "Something tells me to stop here.",
                };
                Some(Move {
                    command: hunch,
                    remark: Some(remark.to_string()),
                })
            }
            _ => quiet(book),
        }
    }

    /// What the companion says when something that matters happens to it, if anything.
    pub fn react(&self, event: &Event, seat: SeatId) -> Option<&'static str> {
        let mine = |s: SeatId| s == seat;
        Some(match *event {
            Event::Blackjack { seat: s, .. } if mine(s) => match self.personality {
                Personality::HighRoller => "Blackjack! Keep 'em coming.",
                Personality::CardCounter => "Blackjack. The shoe is running warm.",
                Personality::HunchPlayer => "I knew it! Blackjack!",
                Personality::ByTheBook => "Blackjack. Nice.",
            },
            Event::Busted { seat: s, .. } if mine(s) => match self.personality {
                Personality::HunchPlayer => "So much for that feeling.",
                Personality::HighRoller => "Easy come, easy go.",
                _ => "Bust. It happens.",
            },
            Event::Settled {
                seat: s,
                outcome: Outcome::Win | Outcome::Blackjack,
                net,
                ..
            } if mine(s) && net.0 >= self.min_bet.0.saturating_mul(BIG_WIN_UNITS) => {
                "Now that's a payday!"
            }
            _ => return None,
        })
    }

    /// Whether the companion gets up between rounds.
    pub fn departure(&self, table: &TableView, seat: SeatId, buy_in: Cents) -> Option<Departure> {
        let s = table.seats().get(usize::from(seat))?;
        let chips = s.chips();
        if chips < table.rules().min_bet {
            Some(Departure::Broke)
        } else if chips.0 >= buy_in.0.saturating_mul(2) {
            Some(Departure::Satisfied)
        } else {
            None
        }
    }
}
