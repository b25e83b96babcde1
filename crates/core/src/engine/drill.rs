//! Practice drills, Bevy-free: basic-strategy flash cards from a table's chart, dealt more often where a mistake
//! costs more (the value it loses × how often the hand comes up) and where the player has been wrong; counting down
//! a deck; turning a running count into a true count; index plays. Each question carries its answer and what a
//! wrong one costs, and a [`Record`] keeps the player's answers per chart cell (the heat map over the chart).

use super::card::Card;
use super::command::Action;
use super::count::{Count, System, decks_left_estimate};
use super::exact::Table as ExactTable;
use super::exact::chart::{RowOf, row_of};
use super::exact::indices::{Choice, Index};
use super::hand::Cards;
use super::rng::TableRng;
use super::rules::{Rules, Surrender};
use super::shoe::Shoe;
use super::strategy::BasicStrategy;
use serde::{Deserialize, Serialize};

/// A flash card: two cards against an up card, the chart's play, and what every play it may make is worth.
#[derive(Clone, Debug, PartialEq)]
pub struct Flash {
    /// The player's cards by points, lower first.
    pub cards: [u8; 2],
    /// The dealer's up card by points (1 = ace).
    pub up: u8,
    /// The chart's play.
    pub answer: Action,
    /// Every play the hand may make, with its exact value on the full shoe per unit bet (after the peek).
    pub values: Vec<(Action, f64)>,
    /// How often the hand comes up: the up card's chance, then the two cards'.
    pub frequency: f64,
}

impl Flash {
    /// The chart cell it drills.
    pub fn row(&self) -> RowOf {
        row_of(self.cards).unwrap_or(RowOf::Hard(self.cards[0] + self.cards[1]))
    }

    /// What playing `action` instead of the chart's play loses, per unit bet (none for the chart's play, nor where
    /// the play happens to be worth as much on these two cards; a play the hand may not make loses the most).
    pub fn cost(&self, action: Action) -> f64 {
        let value = |a: Action| self.values.iter().find(|(p, _)| *p == a).map(|(_, v)| *v);
        let chart = value(self.answer).unwrap_or(0.0);
        match value(action) {
            Some(v) => (chart - v).max(0.0),
            None => self.worst_cost(),
        }
    }

    /// The most a wrong answer loses.
    fn worst_cost(&self) -> f64 {
        let chart = self
            .values
            .iter()
            .find(|(p, _)| *p == self.answer)
            .map_or(0.0, |(_, v)| *v);
        self.values
            .iter()
            .map(|(_, v)| (chart - v).max(0.0))
            .fold(0.0, f64::max)
    }

    /// What a wrong answer loses on average, over the plays the hand may make.
    pub fn mistake_cost(&self) -> f64 {
        let wrong: Vec<f64> = self
            .values
            .iter()
            .filter(|(p, _)| *p != self.answer)
            .map(|(p, _)| self.cost(*p))
            .collect();
        if wrong.is_empty() {
            0.0
        } else {
            wrong.iter().sum::<f64>() / wrong.len() as f64
        }
    }

    /// The plays offered, in the order buttons show them.
    pub fn offered(&self) -> impl Iterator<Item = Action> + '_ {
        self.values.iter().map(|(p, _)| *p)
    }
}

/// Every flash card of a table: each two-card hand (not a blackjack) against each up card.
#[derive(Clone, Debug, PartialEq)]
pub struct FlashDeck {
    flashes: Vec<Flash>,
}

impl FlashDeck {
    /// The deck for `rules`, from the exact engine's values of the full shoe (`table`, worked out for these rules)
    /// and the table's chart.
    pub fn new(rules: &Rules, table: &ExactTable) -> FlashDeck {
        let chart = BasicStrategy::for_rules(rules);
        let shoe = super::exact::full_shoe(rules.decks);
        let total: f64 = shoe.iter().map(|&n| f64::from(n)).sum();
        let mut flashes = Vec::new();
        for deal in &table.deals {
            let [a, b] = deal.cards;
            if (a == 1 && b == 10) || (a == 10 && b == 1) {
                continue;
            }
            let v = &deal.values;
            let mut values = vec![(Action::Hit, v.hit), (Action::Stand, v.stand)];
            if let Some(d) = v.double {
                values.push((Action::Double, d));
            }
            if let Some(split) = v.split {
                values.push((Action::Split, split.cdz));
            }
            if let (Some(r), Surrender::Late) = (v.surrender, rules.surrender) {
                values.push((Action::Surrender, r));
            }
            let mut cards = Cards::default();
            cards.push(Card::of_points(a));
            cards.push(Card::of_points(b));
            let offered = |action: Action| values.iter().any(|(p, _)| *p == action);
            let answer = chart.play(&cards, Card::of_points(deal.up), offered);
            let up_chance = f64::from(shoe[usize::from(deal.up - 1)]) / total;
            flashes.push(Flash {
                cards: deal.cards,
                up: deal.up,
                answer,
                values,
                frequency: up_chance * deal.chance,
            });
        }
        FlashDeck { flashes }
    }

    /// The cards.
    pub fn flashes(&self) -> &[Flash] {
        &self.flashes
    }

    /// How much `flash` is dealt: how often it comes up × what a mistake costs (a little at least, so every card
    /// comes) × how much the player's record doubts it.
    pub fn weight(&self, flash: &Flash, record: &Record) -> f64 {
        flash.frequency * (flash.mistake_cost() + 0.02) * record.doubt(flash.row(), flash.up)
    }

    /// The next card, drawn by weight with the table's generator.
    pub fn deal(&self, rng: &mut TableRng, record: &Record) -> Option<&Flash> {
        let weights: Vec<f64> = self
            .flashes
            .iter()
            .map(|f| self.weight(f, record))
            .collect();
        let total: f64 = weights.iter().sum();
        if total <= 0.0 {
            return None;
        }
        // A million steps: far finer than any card's share.
        const STEPS: u32 = 1 << 20;
        let point = f64::from(rng.below(STEPS)) / f64::from(STEPS) * total;
        let mut sum = 0.0;
        for (flash, weight) in self.flashes.iter().zip(&weights) {
            sum += weight;
            if point < sum {
                return Some(flash);
            }
        }
        self.flashes.last()
    }
}

/// The player's answers in one chart cell.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CellScore {
    /// The row: `H16`, `S18`, `P8` (hard, soft, pair).
    pub row: String,
    /// The up card by points (1 = ace).
    pub up: u8,
    /// Answered as the chart plays.
    pub right: u32,
    /// Answered otherwise.
    pub wrong: u32,
    /// What the wrong answers lost, in hundredths of a bet.
    pub lost_hundredths: u64,
}

/// A row's short name, as a record keeps it.
pub fn row_name(row: RowOf) -> String {
    match row {
        RowOf::Hard(total) => format!("H{total}"),
        RowOf::Soft(total) => format!("S{total}"),
        RowOf::Pair(points) => format!("P{points}"),
    }
}

/// What the player has answered, cell by cell, and each drill's scores over time.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Record {
    /// Flash-card answers by chart cell.
    pub cells: Vec<CellScore>,
    /// Each finished session of a drill: which drill, its score out of its questions, and the cost of the
    /// mistakes per 100 hands where it has one.
    pub sessions: Vec<Session>,
    /// The chart was read (the trainer's first step).
    pub read_the_chart: bool,
    /// The fastest decks counted right at the player's own pace, by counting system and cards.
    pub best_times: Vec<BestTime>,
}

/// The fastest a count of `cards` cards with a system came out right, at the player's own pace.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BestTime {
    /// The counting system's name.
    pub system: String,
    /// Cards counted.
    pub cards: u32,
    /// Seconds from the first card shown to the last card put away.
    pub seconds: f64,
}

/// One finished session of a drill.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Session {
    /// The drill's name.
    pub drill: String,
    /// Questions answered right.
    pub right: u32,
    /// Questions asked.
    pub asked: u32,
    /// For flash cards: what the mistakes would cost per 100 hands played, in bets.
    pub cost_per_100: Option<f64>,
}

/// A flash card answered.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Answer {
    /// As the chart plays.
    pub right: bool,
    /// What the answer loses against the chart's play, per unit bet.
    pub cost: f64,
}

impl Record {
    /// Answers right in every session of the drill named `drill`.
    pub fn right_in(&self, drill: &str) -> u32 {
        self.sessions
            .iter()
            .filter(|s| s.drill == drill)
            .map(|s| s.right)
            .sum()
    }

    /// The best time for `cards` cards counted with `system`.
    pub fn best_time(&self, system: &str, cards: u32) -> Option<f64> {
        self.best_times
            .iter()
            .find(|b| b.system == system && b.cards == cards)
            .map(|b| b.seconds)
    }

    /// A count of `cards` cards with `system` came out right in `seconds`: kept if it is the best. Returns true when
    /// it is (the first time is a best).
    pub fn time(&mut self, system: &str, cards: u32, seconds: f64) -> bool {
        match self
            .best_times
            .iter_mut()
            .find(|b| b.system == system && b.cards == cards)
        {
            Some(best) if best.seconds <= seconds => false,
            Some(best) => {
                best.seconds = seconds;
                true
            }
            None => {
                self.best_times.push(BestTime {
                    system: system.to_string(),
                    cards,
                    seconds,
                });
                true
            }
        }
    }

    /// The score of one cell.
    pub fn cell(&self, row: RowOf, up: u8) -> Option<&CellScore> {
        let name = row_name(row);
        self.cells.iter().find(|c| c.row == name && c.up == up)
    }

    /// How much to doubt the player on a cell: 1 unseen; more the more often wrong, less once right often.
    pub fn doubt(&self, row: RowOf, up: u8) -> f64 {
        match self.cell(row, up) {
            None => 1.0,
            Some(c) => 2.0 * f64::from(c.wrong + 1) / f64::from(c.right + c.wrong + 2),
        }
    }

    /// Takes the player's answer to a card.
    pub fn answer(&mut self, flash: &Flash, action: Action) -> Answer {
        let right = action == flash.answer;
        let cost = if right { 0.0 } else { flash.cost(action) };
        let name = row_name(flash.row());
        let at = match self
            .cells
            .iter()
            .position(|c| c.row == name && c.up == flash.up)
        {
            Some(at) => at,
            None => {
                self.cells.push(CellScore {
                    row: name,
                    up: flash.up,
                    ..CellScore::default()
                });
                self.cells.len() - 1
            }
        };
        let cell = &mut self.cells[at];
        if right {
            cell.right += 1;
        } else {
            cell.wrong += 1;
            cell.lost_hundredths += (cost * 100.0).round() as u64;
        }
        Answer { right, cost }
    }
}

/// What a player's answers to flash cards would cost per 100 hands played: each answer's cost weighted by how often
/// its hand comes up, over the cards asked.
pub fn cost_per_100(answers: &[(f64, f64)]) -> f64 {
    let often: f64 = answers.iter().map(|(frequency, _)| frequency).sum();
    if often <= 0.0 {
        return 0.0;
    }
    100.0 * answers.iter().map(|(f, cost)| f * cost).sum::<f64>() / often
}

/// Counting down a deck: the cards in the order they are shown, and the running count they end on.
#[derive(Clone, Debug, PartialEq)]
pub struct CountDown {
    /// The cards.
    pub cards: Vec<Card>,
    /// The count after each card.
    pub counts: Vec<f64>,
}

impl CountDown {
    /// `cards` cards of a shuffled deck (52 for the whole one), counted with `system`.
    pub fn new(system: &'static System, cards: usize, rng: &mut TableRng) -> CountDown {
        let mut shoe = Shoe::new(1, 1.0);
        shoe.shuffle();
        let mut count = Count::new(system, 1);
        let mut shown = Vec::new();
        let mut counts = Vec::new();
        while shown.len() < cards.min(52) {
            let Some((card, _)) = shoe.draw(rng) else {
                break;
            };
            count.see(card);
            shown.push(card);
            counts.push(count.running());
        }
        CountDown {
            cards: shown,
            counts,
        }
    }

    /// The running count at the end.
    pub fn answer(&self) -> f64 {
        self.counts.last().copied().unwrap_or(0.0)
    }
}

/// Counting a card or two at a glance: the cards and what they add to the count.
#[derive(Clone, Debug, PartialEq)]
pub struct Tagging {
    /// The cards shown together.
    pub cards: Vec<Card>,
    /// Their tags added up, as said (halves for Wong Halves).
    pub answer: f64,
}

impl Tagging {
    /// `cards` cards (one or two) from a shuffled deck, counted with `system`.
    pub fn new(system: &'static System, cards: usize, rng: &mut TableRng) -> Tagging {
        let down = CountDown::new(system, cards.clamp(1, 52), rng);
        let units: i32 = down.cards.iter().map(|&card| system.tag(card)).sum();
        Tagging {
            cards: down.cards,
            answer: f64::from(units) / f64::from(system.scale.max(1)),
        }
    }

    /// Every answer `cards` cards can add up to with `system`, smallest first: the buttons a player taps.
    pub fn choices(system: &System, cards: usize) -> Vec<f64> {
        let mut sums = vec![0i32];
        for _ in 0..cards.clamp(1, 4) {
            let mut next: Vec<i32> = sums
                .iter()
                .flat_map(|sum| system.tags.iter().map(move |&tag| sum + i32::from(tag)))
                .collect();
            next.sort_unstable();
            next.dedup();
            sums = next;
        }
        let scale = f64::from(system.scale.max(1));
        sums.into_iter()
            .map(|units| f64::from(units) / scale)
            .collect()
    }
}

/// A true-count question: a running count and the discard tray of a shoe of `decks` decks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Conversion {
    /// Decks in the shoe.
    pub decks: u8,
    /// The running count.
    pub running: i32,
    /// Cards in the discard tray.
    pub tray_cards: u32,
}

impl Conversion {
    /// A question for a `decks`-deck shoe: up to three quarters of it in the tray, a running count within ±15.
    pub fn new(decks: u8, rng: &mut TableRng) -> Conversion {
        let cards = u32::from(decks) * 52;
        Conversion {
            decks,
            running: rng.below(31) as i32 - 15,
            tray_cards: rng.below(cards * 3 / 4 + 1),
        }
    }

    /// Decks left, judged from the tray to the half deck.
    pub fn decks_left(&self) -> f64 {
        decks_left_estimate(self.decks, self.tray_cards)
    }

    /// The true count rounded down, as bets and index plays use it.
    pub fn answer(&self) -> i32 {
        (f64::from(self.running) / self.decks_left()).floor() as i32
    }
}

/// How finely the decks left are judged from the discard tray.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Fineness {
    /// To the half deck, as most counters judge them.
    #[default]
    HalfDeck,
    /// To the quarter deck.
    QuarterDeck,
}

impl Fineness {
    /// Its step, in decks.
    pub fn step(self) -> f64 {
        match self {
            Fineness::HalfDeck => 0.5,
            Fineness::QuarterDeck => 0.25,
        }
    }
}

/// A discard-tray question: a picture of the tray of a `decks`-deck shoe holding `tray_cards` cards; how many decks
/// are left in the shoe, to the `fineness`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrayQuestion {
    /// Decks in the shoe.
    pub decks: u8,
    /// Cards in the discard tray.
    pub tray_cards: u32,
    /// How finely the answer is judged.
    pub fineness: Fineness,
}

impl TrayQuestion {
    /// A question at a random depth of a `decks`-deck shoe: from an empty tray to half a deck left in the shoe.
    pub fn new(decks: u8, fineness: Fineness, rng: &mut TableRng) -> TrayQuestion {
        let cards = u32::from(decks) * 52;
        TrayQuestion {
            decks,
            tray_cards: rng.below(cards - 26 + 1),
            fineness,
        }
    }

    /// The decks left in the shoe, exactly.
    pub fn decks_left(&self) -> f64 {
        f64::from(u32::from(self.decks) * 52 - self.tray_cards) / 52.0
    }

    /// The decks left to the nearest step.
    pub fn answer(&self) -> f64 {
        let step = self.fineness.step();
        (self.decks_left() / step).round() * step
    }

    /// `said` is within half a step of the decks left (where they lie halfway between two steps, either is right).
    pub fn is_right(&self, said: f64) -> bool {
        (said - self.decks_left()).abs() <= self.fineness.step() / 2.0 + 1e-9
    }
}

/// An index-play question: one of the table's computed index plays at a true count, and the play to make.
#[derive(Clone, Debug, PartialEq)]
pub struct IndexQuestion {
    /// The index play.
    pub index: Index,
    /// The true count.
    pub true_count: i32,
}

impl IndexQuestion {
    /// A question from `indices` (those with an index), the true count within three of the index.
    pub fn new(indices: &[Index], rng: &mut TableRng) -> Option<IndexQuestion> {
        let with: Vec<&Index> = indices.iter().filter(|i| i.index.is_some()).collect();
        if with.is_empty() {
            return None;
        }
        let index = with[rng.below(with.len() as u32) as usize].clone();
        let at = index.index.unwrap_or(0);
        Some(IndexQuestion {
            true_count: at + rng.below(7) as i32 - 3,
            index,
        })
    }

    /// The play to make at this true count.
    pub fn answer(&self) -> Choice {
        match self.index.index {
            Some(at) if self.true_count >= at => self.index.play.high,
            _ => self.index.play.low,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::count::{hi_lo, systems};
    use crate::engine::exact::{ExactRules, full_shoe, table_on};
    use crate::engine::rng::seed_from_number;

    /// A card or two at a glance: the answer is the system's tags added, it is always among the buttons, and the
    /// buttons are every sum the cards can make.
    #[test]
    fn a_card_or_a_pair_is_counted_by_the_systems_tags() {
        let hi_lo = hi_lo();
        assert_eq!(Tagging::choices(hi_lo, 1), vec![-1.0, 0.0, 1.0]);
        assert_eq!(Tagging::choices(hi_lo, 2), vec![-2.0, -1.0, 0.0, 1.0, 2.0]);
        let mut rng = TableRng::from_seed(seed_from_number(5));
        for system in systems() {
            for cards in [1, 2] {
                let choices = Tagging::choices(system, cards);
                let mut seen = std::collections::BTreeSet::new();
                for _ in 0..400 {
                    let q = Tagging::new(system, cards, &mut rng);
                    assert_eq!(q.cards.len(), cards);
                    let by_hand: i32 = q
                        .cards
                        .iter()
                        .map(|c| i32::from(system.tags[usize::from(c.points()) - 1]))
                        .sum();
                    assert_eq!(q.answer * f64::from(system.scale), f64::from(by_hand));
                    assert!(choices.contains(&q.answer), "{} {q:?}", system.name);
                    seen.insert((q.answer * 2.0) as i32);
                }
                // One card shows every tag the system has: every button comes up.
                if cards == 1 {
                    assert_eq!(seen.len(), choices.len(), "{}", system.name);
                }
            }
        }
    }

    /// A best time is kept per system and length, and only beaten by a faster one; right answers add up by drill.
    #[test]
    fn the_record_keeps_best_times_and_right_answers_by_drill() {
        let mut record = Record::default();
        assert_eq!(record.best_time("Hi-Lo", 52), None);
        assert!(record.time("Hi-Lo", 52, 61.5));
        assert!(!record.time("Hi-Lo", 52, 70.0));
        assert!(record.time("Hi-Lo", 52, 48.25));
        assert!(record.time("KO", 52, 90.0));
        assert!(record.time("Hi-Lo", 26, 20.0));
        assert_eq!(record.best_time("Hi-Lo", 52), Some(48.25));
        assert_eq!(record.best_time("KO", 52), Some(90.0));
        assert_eq!(record.best_time("Hi-Lo", 26), Some(20.0));
        for (drill, right) in [("Card values", 18), ("Pairs", 4), ("Card values", 2)] {
            record.sessions.push(Session {
                drill: drill.to_string(),
                right,
                asked: 20,
                cost_per_100: None,
            });
        }
        assert_eq!(record.right_in("Card values"), 20);
        assert_eq!(record.right_in("Pairs"), 4);
        assert_eq!(record.right_in("Tray"), 0);
        // A record kept before these fields reads as one with none.
        let old: Record = ron::from_str("(cells: [], sessions: [])").expect("an old record reads");
        assert!(old.best_times.is_empty() && !old.read_the_chart);
    }

    #[test]
    fn the_tray_is_judged_to_the_half_deck_or_the_quarter_deck() {
        let question = |tray_cards, fineness| TrayQuestion {
            decks: 6,
            tray_cards,
            fineness,
        };
        // 2 decks and 10 cards in the tray: 3.81 decks left.
        let q = question(114, Fineness::HalfDeck);
        assert!((q.decks_left() - 3.8077).abs() < 1e-3);
        assert_eq!(q.answer(), 4.0);
        assert!(q.is_right(4.0) && !q.is_right(3.5) && !q.is_right(4.5));
        let q = question(114, Fineness::QuarterDeck);
        assert_eq!(q.answer(), 3.75);
        assert!(q.is_right(3.75) && !q.is_right(4.0) && !q.is_right(3.5));
        // Exactly halfway between two steps (3.75 decks left, to the half deck): either is right.
        let q = question(117, Fineness::HalfDeck);
        assert!(q.is_right(3.5) && q.is_right(4.0) && !q.is_right(3.0));
        let mut rng = TableRng::from_seed(seed_from_number(11));
        for decks in [1, 2, 6, 8] {
            for fineness in [Fineness::HalfDeck, Fineness::QuarterDeck] {
                for _ in 0..500 {
                    let q = TrayQuestion::new(decks, fineness, &mut rng);
                    assert!(q.tray_cards <= u32::from(decks) * 52 - 26, "{q:?}");
                    assert!(q.answer() >= fineness.step(), "{q:?}");
                    assert!(q.is_right(q.answer()), "{q:?}");
                    assert!(!q.is_right(q.answer() + fineness.step() * 1.01), "{q:?}");
                }
            }
        }
    }

    fn deck(rules: &Rules) -> FlashDeck {
        let table = table_on(ExactRules::of(rules), full_shoe(rules.decks), 2);
        FlashDeck::new(rules, &table)
    }

    fn find(deck: &FlashDeck, cards: [u8; 2], up: u8) -> &Flash {
        deck.flashes()
            .iter()
            .find(|f| f.cards == cards && f.up == up)
            .expect("every two-card hand is in the deck")
    }

    #[test]
    fn the_deck_holds_every_hand_with_the_charts_play_and_what_mistakes_cost() {
        let rules = Rules::default();
        let deck = deck(&rules);
        // 55 two-card hands less the blackjack, against ten up cards.
        assert_eq!(deck.flashes().len(), 54 * 10);
        let often: f64 = deck.flashes().iter().map(|f| f.frequency).sum();
        assert!(
            often > 0.94 && often < 1.0,
            "every deal but blackjacks: {often}"
        );
        let sixteen = find(&deck, [6, 10], 10);
        assert_eq!(sixteen.answer, Action::Surrender);
        assert!(sixteen.cost(Action::Stand) > 0.0);
        let eleven = find(&deck, [5, 6], 6);
        assert_eq!(eleven.answer, Action::Double);
        // Standing on 11 against a 6 throws away far more than hitting it.
        assert!(eleven.cost(Action::Stand) > eleven.cost(Action::Hit) + 0.2);
        assert_eq!(eleven.cost(Action::Double), 0.0);
        assert!(
            eleven.cost(Action::Split) >= eleven.cost(Action::Stand),
            "not offered: the worst"
        );
        // Without surrender the chart hits 16 against a ten, and nobody is offered a surrender.
        let plain = self::tests::deck(&Rules {
            surrender: Surrender::None,
            ..Rules::default()
        });
        assert_eq!(find(&plain, [6, 10], 10).answer, Action::Hit);
        assert!(
            plain
                .flashes()
                .iter()
                .all(|f| f.offered().all(|a| a != Action::Surrender))
        );
    }

    #[test]
    fn cards_come_by_how_often_they_are_dealt_and_what_a_mistake_costs() {
        let rules = Rules::default();
        let deck = deck(&rules);
        let record = Record::default();
        let mut rng = TableRng::from_seed(seed_from_number(5));
        let costly = find(&deck, [5, 6], 6).clone();
        let cheap = find(&deck, [10, 10], 6).clone();
        let (mut costly_n, mut cheap_n) = (0u32, 0u32);
        for _ in 0..40_000 {
            let flash = deck.deal(&mut rng, &record).expect("a card");
            costly_n += u32::from(flash == &costly);
            cheap_n += u32::from(flash == &cheap);
        }
        let expected = deck.weight(&costly, &record) / deck.weight(&cheap, &record);
        let seen = f64::from(costly_n) / f64::from(cheap_n.max(1));
        assert!(
            (seen / expected - 1.0).abs() < 0.25,
            "dealt {costly_n} : {cheap_n}, weights {expected:.2}"
        );
    }

    #[test]
    fn a_wrong_answer_is_kept_and_its_cell_comes_back_more_often() {
        let rules = Rules::default();
        let deck = deck(&rules);
        let mut record = Record::default();
        let twelve = find(&deck, [2, 10], 3).clone();
        let before = deck.weight(&twelve, &record);
        let answer = record.answer(&twelve, Action::Stand);
        assert!(!answer.right && answer.cost > 0.0);
        assert!(deck.weight(&twelve, &record) > before);
        let cell = record.cell(RowOf::Hard(12), 3).expect("kept");
        assert_eq!((cell.right, cell.wrong), (0, 1));
        for _ in 0..5 {
            assert!(record.answer(&twelve, Action::Hit).right);
        }
        assert!(
            deck.weight(&twelve, &record) < before,
            "right often: asked less"
        );
        // Kept as text and read back.
        let text = ron::to_string(&record).expect("a record writes");
        assert_eq!(ron::from_str::<Record>(&text).expect("and reads"), record);
        assert_eq!(cost_per_100(&[(0.01, 0.5), (0.03, 0.0)]), 12.5);
    }

    #[test]
    fn counting_down_a_deck_ends_where_the_count_does() {
        let mut rng = TableRng::from_seed(seed_from_number(9));
        for system in systems() {
            let whole = CountDown::new(system, 52, &mut rng);
            assert_eq!(whole.cards.len(), 52);
            let expected = if system.is_balanced() {
                0.0
            } else {
                f64::from(system.per_deck())
            };
            assert_eq!(whole.answer(), expected, "{}", system.name);
        }
        let part = CountDown::new(hi_lo(), 20, &mut rng);
        let mut count = Count::new(hi_lo(), 1);
        for card in &part.cards {
            count.see(*card);
        }
        assert_eq!(part.answer(), count.running());
    }

    #[test]
    fn true_count_questions_answer_as_a_player_divides() {
        let mut rng = TableRng::from_seed(seed_from_number(3));
        for _ in 0..200 {
            let q = Conversion::new(6, &mut rng);
            assert!((-15..=15).contains(&q.running));
            assert!(q.tray_cards <= 234);
            let mut count = Count::new(hi_lo(), 6);
            for _ in 0..q.running.unsigned_abs() {
                count.see_points(if q.running > 0 { 5 } else { 10 });
            }
            assert_eq!(q.answer(), count.true_count_floor(q.decks_left()));
        }
        let q = Conversion {
            decks: 6,
            running: 7,
            tray_cards: 104,
        };
        assert_eq!((q.decks_left(), q.answer()), (4.0, 1));
    }

    #[test]
    fn index_questions_ask_near_the_index_and_answer_by_it() {
        use crate::engine::exact::indices::PLAYS;
        let indices: Vec<Index> = PLAYS
            .iter()
            .map(|play| Index {
                play: *play,
                crossing: Some(1.0),
                index: Some(1),
                always: false,
            })
            .collect();
        let mut rng = TableRng::from_seed(seed_from_number(4));
        for _ in 0..100 {
            let q = IndexQuestion::new(&indices, &mut rng).expect("a question");
            assert!((-2..=4).contains(&q.true_count));
            let expected = if q.true_count >= 1 {
                q.index.play.high
            } else {
                q.index.play.low
            };
            assert_eq!(q.answer(), expected);
        }
        assert!(IndexQuestion::new(&[], &mut rng).is_none());
    }
}
