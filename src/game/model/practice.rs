//! The trainer (Title → Trainer): a path of steps from the chart to counting at the table ([`Step`]), the drills of
//! `engine::drill` for the chosen table, their questions, the player's answers and the record of them (kept between
//! launches by `keep::practice`), and the table's question at the shuffle ([`ShuffleQuiz`]). The flash-card deck
//! needs the exact engine's values of the full shoe: worked out off the frame the first time the page opens for a
//! table.

use crate::engine::Rules;
use crate::engine::command::Action;
use crate::engine::drill::{
    Answer, Conversion, CountDown, Fineness, Flash, FlashDeck, IndexQuestion, Record, Session,
    Tagging, TrayQuestion, cost_per_100,
};
use crate::engine::exact::indices::{Choice, Index};
use crate::engine::exact::{ExactRules, full_shoe, table_on, threads};
use crate::engine::rng::{TableRng, seed_from_number};
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};

/// Which drill the page shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Drill {
    /// Basic strategy, a hand at a time.
    #[default]
    FlashCards,
    /// The counting system's card values, then one card at a time; the player taps its value.
    CardValues,
    /// Two cards at a time; the player taps what they add to the count.
    Pairs,
    /// A deck shown card by card, at a chosen pace or the player's own against the clock; the player types the count.
    CountDown,
    /// A picture of the discard tray; the player judges the decks left in the shoe.
    Tray,
    /// A running count and a picture of the tray; the player types the true count.
    TrueCount,
    /// An index play at a true count; the player picks the play.
    IndexPlays,
    /// The record: the heat map over the chart, the scores over time.
    Progress,
}

impl Drill {
    /// Every drill, in the page's order.
    pub const ALL: [Drill; 8] = [
        Drill::FlashCards,
        Drill::CardValues,
        Drill::Pairs,
        Drill::CountDown,
        Drill::Tray,
        Drill::TrueCount,
        Drill::IndexPlays,
        Drill::Progress,
    ];

    /// Its name on the page and in the record.
    pub fn name(self) -> &'static str {
        match self {
            Drill::FlashCards => "Flash cards",
            Drill::CardValues => "Card values",
            Drill::Pairs => "Pairs",
            Drill::CountDown => "Count a deck",
            Drill::Tray => "Discard tray",
            Drill::TrueCount => "True count",
            Drill::IndexPlays => "Index plays",
            Drill::Progress => "Progress",
        }
    }
}

/// A question asked and, once answered, how it went.
#[derive(Clone, Debug)]
pub struct Asked<Q, A> {
    /// The question.
    pub question: Option<Q>,
    /// The player's answer and whether it was right, once given.
    pub answer: Option<(A, bool)>,
}

impl<Q, A> Default for Asked<Q, A> {
    fn default() -> Self {
        Asked {
            question: None,
            answer: None,
        }
    }
}

/// What the Trainer page shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Shown {
    /// The next step on the path (the record once the path is done).
    #[default]
    Next,
    /// A step the player chose.
    Step(Step),
    /// The record: the heat map over the chart, the scores over time.
    Record,
}

/// The Trainer page's state.
#[derive(Resource)]
pub struct Practice {
    /// What the page shows.
    pub shown: Shown,
    /// The drill shown.
    pub drill: Drill,
    /// The table the deck is for.
    asked_for: Option<(u8, ExactRules)>,
    deck_task: Option<Task<FlashDeck>>,
    deck: Option<FlashDeck>,
    rng: TableRng,
    /// The flash card on the table and the answer to it.
    pub flash: Asked<Flash, (Action, Answer)>,
    /// This sitting's flash-card answers: how often each hand comes up and what the answer cost.
    answers: Vec<(f64, f64)>,
    /// This sitting's flash cards answered right.
    right: u32,
    /// A card or two to count at a glance, and the answer to it.
    pub tagging: Asked<Tagging, f64>,
    /// The count-down deck, when shown: its cards, the pace (seconds a card), when it started, and the answer.
    pub count_down: Asked<CountDown, f64>,
    /// Seconds a card is shown for; [`OWN_PACE`] for the player's own, a card a tap, against the clock.
    pub pace: f64,
    /// When the deck started showing (the page's clock).
    pub started: Option<f64>,
    /// At the player's own pace: the cards put away so far, and when the last one was (the clock stops).
    pub turned: usize,
    /// When the last card was put away, at the player's own pace.
    pub finished: Option<f64>,
    /// The discard-tray question and the answer to it.
    pub tray: Asked<TrayQuestion, f64>,
    /// How finely the tray is judged.
    pub fineness: Fineness,
    /// The true-count question and the answer to it.
    pub conversion: Asked<Conversion, i32>,
    /// The index-play question and the answer to it.
    pub index: Asked<IndexQuestion, Choice>,
    /// What the player typed into the page's box.
    pub typed: String,
    /// Everything answered, kept between launches.
    pub record: Record,
    /// The record changed since it was last kept.
    pub unsaved: bool,
    /// The record may be written (not where an unreadable one is still in its place).
    pub keep: bool,
}

impl Default for Practice {
    fn default() -> Practice {
        Practice {
            shown: Shown::default(),
            drill: Drill::default(),
            asked_for: None,
            deck_task: None,
            deck: None,
            rng: TableRng::from_seed(seed_from_number(0)),
            flash: Asked::default(),
            answers: Vec::new(),
            right: 0,
            tagging: Asked::default(),
            count_down: Asked::default(),
            pace: OWN_PACE,
            started: None,
            turned: 0,
            finished: None,
            tray: Asked::default(),
            fineness: Fineness::default(),
            conversion: Asked::default(),
            index: Asked::default(),
            typed: String::new(),
            record: Record::default(),
            unsaved: false,
            keep: true,
        }
    }
}

impl Practice {
    /// Practice with a kept record; `keep` says whether it may be written.
    pub fn with_record(record: Record, keep: bool) -> Practice {
        Practice {
            record,
            keep,
            ..Practice::default()
        }
    }

    /// Practice for a table with `rules`, questions drawn from `seed`; the deck is worked out if the table changed.
    pub fn open(&mut self, rules: &Rules, seed: u64) {
        let key = (rules.decks, ExactRules::of(rules));
        if self.asked_for == Some(key) {
            return;
        }
        self.asked_for = Some(key);
        self.rng = TableRng::from_seed(seed_from_number(seed ^ 0x5052_4143_5449_4345));
        self.deck = None;
        self.flash = Asked::default();
        let rules = rules.clone();
        self.deck_task = Some(AsyncComputeTaskPool::get().spawn(async move {
            let table = table_on(ExactRules::of(&rules), full_shoe(rules.decks), threads());
            FlashDeck::new(&rules, &table)
        }));
    }

    /// Shows `shown`: a step or the record. Leaving the flash cards files their sitting in the record.
    pub fn show(&mut self, shown: Shown) {
        let drill = match shown {
            Shown::Step(step) => step.drill(),
            Shown::Record => Some(Drill::Progress),
            Shown::Next => None,
        };
        if self.drill == Drill::FlashCards && drill != Some(Drill::FlashCards) {
            self.finish_flash_session();
        }
        if let Some(drill) = drill {
            self.drill = drill;
        }
        self.shown = shown;
    }

    /// The step the page shows, counting with `system`: the one chosen, else the next on the path; None for the
    /// record (chosen, or the path done).
    pub fn shown_step(&self, system: &crate::engine::count::System) -> Option<Step> {
        match self.shown {
            Shown::Step(step) => Some(step),
            Shown::Next => self.next_step(system),
            Shown::Record => None,
        }
    }

    /// The deck is still being worked out.
    pub fn dealing(&self) -> bool {
        self.deck.is_none()
    }

    /// The deck is being worked out now (taken in a frame at a time).
    pub fn working(&self) -> bool {
        self.deck_task.is_some()
    }

    /// Takes in the deck once worked out and puts a card on the table.
    pub fn work(&mut self) {
        if let Some(task) = self.deck_task.as_mut()
            && let Some(deck) = check_ready(task)
        {
            self.deck = Some(deck);
            self.deck_task = None;
            self.next_flash();
        }
    }

    /// The next flash card.
    pub fn next_flash(&mut self) {
        let Some(deck) = &self.deck else { return };
        self.flash = Asked {
            question: deck.deal(&mut self.rng, &self.record).cloned(),
            answer: None,
        };
    }

    /// The player plays `action` on the flash card.
    pub fn answer_flash(&mut self, action: Action) -> Option<Answer> {
        let flash = self.flash.question.as_ref()?;
        if self.flash.answer.is_some() {
            return None;
        }
        let answer = self.record.answer(flash, action);
        self.answers.push((flash.frequency, answer.cost));
        self.right += u32::from(answer.right);
        self.flash.answer = Some(((action, answer), answer.right));
        self.unsaved = true;
        Some(answer)
    }

    /// This sitting's flash cards: right, asked, and what the mistakes would cost per 100 hands.
    pub fn flash_score(&self) -> (u32, u32, f64) {
        (
            self.right,
            self.answers.len() as u32,
            cost_per_100(&self.answers),
        )
    }

    /// Files this sitting's flash-card score in the record (when leaving the page), and starts a new one.
    pub fn finish_flash_session(&mut self) {
        if self.answers.is_empty() {
            return;
        }
        let (right, asked, cost) = self.flash_score();
        self.record.sessions.push(Session {
            drill: Drill::FlashCards.name().to_string(),
            right,
            asked,
            cost_per_100: Some(cost),
        });
        self.answers.clear();
        self.right = 0;
        self.unsaved = true;
    }

    /// A new deck to count down, `cards` long, for `system`.
    pub fn new_count_down(
        &mut self,
        system: &'static crate::engine::count::System,
        cards: usize,
        now: f64,
    ) {
        self.count_down = Asked {
            question: Some(CountDown::new(system, cards, &mut self.rng)),
            answer: None,
        };
        self.started = Some(now);
        self.turned = 0;
        self.finished = None;
        self.typed.clear();
    }

    /// The card of the count-down deck on show at `now`, or None once the deck is through (at a set pace, by the
    /// clock; at the player's own, a card a tap).
    pub fn card_shown(&self, now: f64) -> Option<usize> {
        let deck = self.count_down.question.as_ref()?;
        let shown = if self.pace == OWN_PACE {
            self.turned
        } else {
            self.started.map_or(deck.cards.len(), |start| {
                ((now - start) / self.pace).floor().max(0.0) as usize
            })
        };
        (shown < deck.cards.len()).then_some(shown)
    }

    /// At the player's own pace, the card on show is put away at `now`; after the last one the clock stops.
    pub fn turn(&mut self, now: f64) {
        let Some(deck) = &self.count_down.question else {
            return;
        };
        if self.turned < deck.cards.len() {
            self.turned += 1;
            if self.turned == deck.cards.len() {
                self.finished = Some(now);
            }
        }
    }

    /// The count-down deck answered with `said` (counted with `system`): whether it is right, and, at the player's
    /// own pace, the seconds it took and whether that is their best for this system and length.
    pub fn answer_count_down(
        &mut self,
        said: f64,
        system: &crate::engine::count::System,
    ) -> Option<(bool, Option<(f64, bool)>)> {
        let deck = self.count_down.question.as_ref()?;
        if self.count_down.answer.is_some() {
            return None;
        }
        let right = (said - deck.answer()).abs() < 1e-9;
        let cards = deck.cards.len() as u32;
        self.count_down.answer = Some((said, right));
        let timed = match (self.pace == OWN_PACE, self.started, self.finished) {
            (true, Some(start), Some(end)) => Some(end - start),
            _ => None,
        };
        let best = timed
            .filter(|_| right)
            .map(|seconds| (seconds, self.record.time(&system.name, cards, seconds)));
        self.score(Drill::CountDown, right);
        Some((right, best))
    }

    /// A new card (or two) to count at a glance, for `system`.
    pub fn new_tagging(&mut self, system: &'static crate::engine::count::System, cards: usize) {
        self.tagging = Asked {
            question: Some(Tagging::new(system, cards, &mut self.rng)),
            answer: None,
        };
    }

    /// The card or two answered with `said`: whether it is right.
    pub fn answer_tagging(&mut self, said: f64) -> Option<bool> {
        let q = self.tagging.question.as_ref()?;
        if self.tagging.answer.is_some() {
            return None;
        }
        let right = (said - q.answer).abs() < 1e-9;
        let drill = if q.cards.len() == 1 {
            Drill::CardValues
        } else {
            Drill::Pairs
        };
        self.tagging.answer = Some((said, right));
        self.score(drill, right);
        Some(right)
    }

    /// A new discard-tray question for a `decks`-deck shoe, at the fineness chosen.
    pub fn new_tray(&mut self, decks: u8) {
        self.tray = Asked {
            question: Some(TrayQuestion::new(decks, self.fineness, &mut self.rng)),
            answer: None,
        };
        self.typed.clear();
    }

    /// A new true-count question for a `decks`-deck shoe.
    pub fn new_conversion(&mut self, decks: u8) {
        self.conversion = Asked {
            question: Some(Conversion::new(decks, &mut self.rng)),
            answer: None,
        };
        self.typed.clear();
    }

    /// A new index-play question from `indices`.
    pub fn new_index(&mut self, indices: &[Index]) {
        self.index = Asked {
            question: IndexQuestion::new(indices, &mut self.rng),
            answer: None,
        };
    }

    /// Keeps a drill's one-question result in the record.
    pub fn score(&mut self, drill: Drill, right: bool) {
        self.score_named(drill.name(), right);
    }

    /// Keeps a one-question result in the record under `name` (a drill's, or a step's off the page).
    pub fn score_named(&mut self, name: &str, right: bool) {
        match self.record.sessions.last_mut() {
            Some(last) if last.drill == name && last.asked < 20 => {
                last.asked += 1;
                last.right += u32::from(right);
            }
            _ => self.record.sessions.push(Session {
                drill: name.to_string(),
                right: u32::from(right),
                asked: 1,
                cost_per_100: None,
            }),
        }
        self.unsaved = true;
    }
}

/// The count-down's pace when the player turns each card: the deck against the clock.
pub const OWN_PACE: f64 = 0.0;

/// The trainer's path, in the order a beginner takes it: basic strategy (the chart, then flash cards), counting (the
/// card values, pairs, a deck), the decks left from the tray, the true count, the index plays, and the table with the
/// count hidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Read the chart (the Strategy page).
    Chart,
    /// Flash cards.
    FlashCards,
    /// The counting system's card values, a card at a time.
    CardValues,
    /// Two cards at a glance.
    Pairs,
    /// A whole deck against the clock.
    Deck,
    /// The decks left, from the discard tray.
    Tray,
    /// The true count.
    TrueCount,
    /// The index plays.
    IndexPlays,
    /// At the table with the count hidden, asked for it at the shuffle.
    AtTheTable,
}

/// Right answers at the table's shuffle, in the record.
pub const AT_THE_TABLE: &str = "At the table";

impl Step {
    /// The path in order.
    pub const ALL: [Step; 9] = [
        Step::Chart,
        Step::FlashCards,
        Step::CardValues,
        Step::Pairs,
        Step::Deck,
        Step::Tray,
        Step::TrueCount,
        Step::IndexPlays,
        Step::AtTheTable,
    ];

    /// The step's name on the path.
    pub fn name(self) -> &'static str {
        match self {
            Step::Chart => "Read the chart",
            Step::FlashCards => "Flash cards",
            Step::CardValues => "Card values",
            Step::Pairs => "Pairs of cards",
            Step::Deck => "A deck against the clock",
            Step::Tray => "Decks left, from the tray",
            Step::TrueCount => "The true count",
            Step::IndexPlays => "Index plays",
            Step::AtTheTable => "At the table, count hidden",
        }
    }

    /// Its name on a button of the path (a phone fits three to a row).
    pub fn short(self) -> &'static str {
        match self {
            Step::Chart => "Chart",
            Step::FlashCards => "Flash cards",
            Step::CardValues => "Card values",
            Step::Pairs => "Pairs",
            Step::Deck => "A deck",
            Step::Tray => "Tray",
            Step::TrueCount => "True count",
            Step::IndexPlays => "Index plays",
            Step::AtTheTable => "At the table",
        }
    }

    /// What the step teaches, in a line.
    pub fn about(self) -> &'static str {
        match self {
            Step::Chart => "The best play for every hand against every dealer card.",
            Step::FlashCards => "A hand and a dealer card: play it as the chart does.",
            Step::CardValues => "What each card adds to the count, one card at a time.",
            Step::Pairs => "Two cards at a glance: what they add together.",
            Step::Deck => "Count a whole deck as fast as you can, then say the count.",
            Step::Tray => "Judge the decks left in the shoe from the discard tray.",
            Step::TrueCount => "The running count divided by the decks left.",
            Step::IndexPlays => "Where the count changes the chart's play.",
            Step::AtTheTable => "Play with the count hidden; at each shuffle, say your count.",
        }
    }

    /// The drill that practises it on the page (the chart and the table are elsewhere).
    pub fn drill(self) -> Option<Drill> {
        match self {
            Step::Chart | Step::AtTheTable => None,
            Step::FlashCards => Some(Drill::FlashCards),
            Step::CardValues => Some(Drill::CardValues),
            Step::Pairs => Some(Drill::Pairs),
            Step::Deck => Some(Drill::CountDown),
            Step::Tray => Some(Drill::Tray),
            Step::TrueCount => Some(Drill::TrueCount),
            Step::IndexPlays => Some(Drill::IndexPlays),
        }
    }

    /// Right answers that complete the step (for the deck: one deck of 52 counted right at the player's own pace;
    /// for the chart: read once).
    pub fn goal(self) -> u32 {
        match self {
            Step::Chart | Step::Deck => 1,
            Step::FlashCards => 50,
            Step::CardValues | Step::Pairs => 20,
            Step::Tray | Step::TrueCount | Step::IndexPlays => 10,
            Step::AtTheTable => 3,
        }
    }
}

/// How far the player is along one step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// Right answers so far (for the chart, 1 once read; for the deck, 1 once a deck came out right).
    pub done: u32,
    /// Right answers that complete it.
    pub goal: u32,
    /// For the deck: the best time for 52 cards with the system chosen, in seconds.
    pub best: Option<f64>,
}

impl Progress {
    /// The step is complete.
    pub fn complete(&self) -> bool {
        self.done >= self.goal
    }
}

impl Practice {
    /// How far the player is along `step`, counting with `system` (this sitting's flash cards included).
    pub fn progress(&self, step: Step, system: &crate::engine::count::System) -> Progress {
        let record = &self.record;
        let best = record.best_time(&system.name, 52);
        let done = match step {
            Step::Chart => u32::from(record.read_the_chart),
            Step::FlashCards => record.right_in(Drill::FlashCards.name()) + self.right,
            Step::Deck => u32::from(best.is_some()),
            Step::AtTheTable => record.right_in(AT_THE_TABLE),
            step => step
                .drill()
                .map_or(0, |drill| record.right_in(drill.name())),
        };
        Progress {
            done,
            goal: step.goal(),
            best: best.filter(|_| step == Step::Deck),
        }
    }

    /// The first step not yet complete: what to do next (None once the whole path is done).
    pub fn next_step(&self, system: &crate::engine::count::System) -> Option<Step> {
        Step::ALL
            .into_iter()
            .find(|&step| !self.progress(step, system).complete())
    }
}

/// At the table with the count hidden and the quiz on (Settings, or the trainer's last step): when the cut card has
/// come out and the table waits for the next bets, it asks the player's running count, once a shoe.
#[derive(Resource, Default, Debug)]
pub struct ShuffleQuiz {
    /// The count the player's seat would read (with the system chosen), once asked, until the shuffle.
    pub asked: Option<f64>,
    /// Cards seen when it was asked: fewer seen later means the shoe was shuffled.
    seen_then: u32,
    /// What the player typed.
    pub typed: String,
    /// The player's answer and whether it was right.
    pub answer: Option<(f64, bool)>,
    /// Put away for this shoe (answered and dismissed, or passed over).
    pub closed: bool,
}

impl ShuffleQuiz {
    /// The question is on the screen.
    pub fn showing(&self) -> bool {
        self.asked.is_some() && !self.closed
    }

    /// The player says `said`: whether it is the count. Answered once.
    pub fn answer(&mut self, said: f64) -> Option<bool> {
        let count = self.asked?;
        if self.answer.is_some() {
            return None;
        }
        let right = (said - count).abs() < 1e-9;
        self.answer = Some((said, right));
        Some(right)
    }
}

/// Asks for the count when the cut card is out between rounds, and forgets the question at the shuffle.
fn ask_at_the_cut(
    options: Res<crate::game::model::player::PlayOptions>,
    session: Res<crate::game::model::session::Session>,
    view: Option<Res<crate::game::model::table::SeatView>>,
    seen: Res<crate::game::model::seen::Seen>,
    phase: Res<State<crate::game::model::screen::RoundPhase>>,
    mut quiz: ResMut<ShuffleQuiz>,
) {
    let cards: u32 = seen.tray().seen().iter().map(|&n| u32::from(n)).sum();
    if quiz.asked.is_some() && cards < quiz.seen_then {
        *quiz = ShuffleQuiz::default();
    }
    let Some(view) = view else { return };
    if quiz.asked.is_none()
        && options.count_quiz
        && !options.show_count
        && session.player_seat.is_some()
        && *phase.get() == crate::game::model::screen::RoundPhase::Betting
        && view.0.shoe().cut_card_out
        && cards > 0
    {
        quiz.asked = Some(seen.reading(&view.0, options.count_system()).running);
        quiz.seen_then = cards;
        info!(target: "holecard::practice", "the table asks for the count at the shuffle");
    }
}

fn work(mut practice: ResMut<Practice>) {
    if practice.deck_task.is_some() {
        practice.work();
    }
}

pub(crate) fn plugin(app: &mut App) {
    use crate::game::model::screen::Screen;
    app.init_resource::<Practice>()
        .init_resource::<ShuffleQuiz>()
        .add_systems(Update, work)
        .add_systems(
            Update,
            ask_at_the_cut
                .run_if(in_state(Screen::Table))
                .after(crate::game::model::screen::RoundSet::Present),
        )
        .add_systems(OnEnter(Screen::Table), |mut quiz: ResMut<ShuffleQuiz>| {
            *quiz = ShuffleQuiz::default();
        });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::count::hi_lo;

    /// The path starts at the chart; each step is complete at its goal and the next one is the first not complete;
    /// the page shows the next step until the player picks one.
    #[test]
    fn the_path_goes_on_to_the_first_step_not_done() {
        let system = hi_lo();
        let mut practice = Practice::default();
        assert_eq!(practice.next_step(system), Some(Step::Chart));
        assert_eq!(practice.shown_step(system), Some(Step::Chart));
        practice.record.read_the_chart = true;
        assert_eq!(practice.next_step(system), Some(Step::FlashCards));
        for _ in 0..49 {
            practice.score(Drill::FlashCards, true);
        }
        practice.score(Drill::FlashCards, false);
        let flash = practice.progress(Step::FlashCards, system);
        assert_eq!((flash.done, flash.goal, flash.complete()), (49, 50, false));
        practice.score(Drill::FlashCards, true);
        assert_eq!(practice.next_step(system), Some(Step::CardValues));
        assert_eq!(practice.shown_step(system), Some(Step::CardValues));
        // A step chosen stays shown whatever comes next.
        practice.show(Shown::Step(Step::Tray));
        assert_eq!(practice.shown_step(system), Some(Step::Tray));
        assert_eq!(practice.drill, Drill::Tray);
        for _ in 0..20 {
            practice.score(Drill::CardValues, true);
            practice.score(Drill::Pairs, true);
        }
        assert_eq!(practice.next_step(system), Some(Step::Deck));
        // The deck is done by a best time with the system counted, not by answers.
        assert!(practice.record.time("KO", 52, 40.0));
        assert_eq!(practice.next_step(system), Some(Step::Deck));
        assert!(practice.record.time(&system.name, 52, 55.0));
        let deck = practice.progress(Step::Deck, system);
        assert_eq!((deck.done, deck.best), (1, Some(55.0)));
        for drill in [Drill::Tray, Drill::TrueCount, Drill::IndexPlays] {
            for _ in 0..10 {
                practice.score(drill, true);
            }
        }
        assert_eq!(practice.next_step(system), Some(Step::AtTheTable));
        for _ in 0..3 {
            practice.score_named(AT_THE_TABLE, true);
        }
        assert_eq!(practice.next_step(system), None);
        practice.show(Shown::Next);
        assert_eq!(
            practice.shown_step(system),
            None,
            "the path done, the record"
        );
    }

    /// A deck at the player's own pace: a card a turn, the clock stopped at the last; a right count keeps its time
    /// as the best only when it beats the last best; a wrong one keeps none.
    #[test]
    fn a_deck_against_the_clock_keeps_the_best_right_time() {
        let system = hi_lo();
        let mut practice = Practice {
            pace: OWN_PACE,
            ..Practice::default()
        };
        let run = |practice: &mut Practice, seconds: f64, right: bool| {
            practice.new_count_down(system, 52, 100.0);
            assert_eq!(
                practice.card_shown(1.0e9),
                Some(0),
                "the clock turns no card"
            );
            for turn in 0..52 {
                assert_eq!(practice.card_shown(100.0), Some(turn));
                practice.turn(100.0 + seconds * (turn + 1) as f64 / 52.0);
            }
            assert_eq!(practice.card_shown(100.0), None, "the deck is through");
            let answer = practice.count_down.question.as_ref().map(CountDown::answer);
            let said = answer.expect("a deck") + if right { 0.0 } else { 1.0 };
            let (was_right, timed) = practice
                .answer_count_down(said, system)
                .expect("answered once");
            assert!(practice.answer_count_down(said, system).is_none());
            assert_eq!(was_right, right);
            timed
        };
        let first = run(&mut practice, 60.0, true).expect("a right count is timed");
        assert!((first.0 - 60.0).abs() < 1e-9 && first.1, "{first:?}");
        assert_eq!(
            run(&mut practice, 30.0, false),
            None,
            "a wrong count keeps no time"
        );
        let slower = run(&mut practice, 75.0, true).expect("timed");
        assert!(!slower.1, "slower is no best");
        let faster = run(&mut practice, 45.5, true).expect("timed");
        assert!(faster.1);
        assert_eq!(practice.record.best_time(&system.name, 52), Some(45.5));
        assert_eq!(practice.record.right_in(Drill::CountDown.name()), 3);
        // At a set pace the clock shows the cards, and no time is kept.
        practice.pace = 0.5;
        practice.new_count_down(system, 10, 0.0);
        assert_eq!(practice.card_shown(0.0), Some(0));
        assert_eq!(practice.card_shown(2.6), Some(5));
        assert_eq!(practice.card_shown(5.0), None);
        let said = practice
            .count_down
            .question
            .as_ref()
            .map_or(0.0, CountDown::answer);
        assert_eq!(practice.answer_count_down(said, system), Some((true, None)));
    }

    /// A card or a pair is answered once, scored under its own drill.
    #[test]
    fn a_card_and_a_pair_are_scored_apart() {
        let system = hi_lo();
        let mut practice = Practice::default();
        practice.new_tagging(system, 1);
        let one = practice.tagging.question.clone().expect("a card");
        assert_eq!(practice.answer_tagging(one.answer), Some(true));
        assert_eq!(practice.answer_tagging(one.answer), None);
        practice.new_tagging(system, 2);
        let two = practice.tagging.question.clone().expect("two cards");
        assert_eq!(two.cards.len(), 2);
        assert_eq!(practice.answer_tagging(two.answer + 1.0), Some(false));
        assert_eq!(practice.record.right_in(Drill::CardValues.name()), 1);
        assert_eq!(practice.record.right_in(Drill::Pairs.name()), 0);
        let pairs = practice.record.sessions.last().expect("scored");
        assert_eq!((pairs.drill.as_str(), pairs.asked), ("Pairs", 1));
    }

    /// The table's question at the shuffle is answered once, right only with the count.
    #[test]
    fn the_shuffle_quiz_is_answered_once() {
        let mut quiz = ShuffleQuiz::default();
        assert!(!quiz.showing());
        assert_eq!(quiz.answer(3.0), None, "nothing asked");
        quiz.asked = Some(-4.0);
        assert!(quiz.showing());
        assert_eq!(quiz.answer(-3.0), Some(false));
        assert_eq!(quiz.answer(-4.0), None);
        quiz.closed = true;
        assert!(!quiz.showing());
    }
}
