//! Practice (Title → Practice): the drills of `engine::drill` for the chosen table, their questions, the player's
//! answers and the record of them (kept between launches by `keep::practice`). The flash-card deck needs the exact
//! engine's values of the full shoe: worked out off the frame the first time the page opens for a table.

use crate::engine::Rules;
use crate::engine::command::Action;
use crate::engine::drill::{
    Answer, Conversion, CountDown, Fineness, Flash, FlashDeck, IndexQuestion, Record, Session,
    TrayQuestion, cost_per_100,
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
    /// A deck shown card by card at a chosen pace; the player types the count.
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
    pub const ALL: [Drill; 6] = [
        Drill::FlashCards,
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
            Drill::CountDown => "Count down",
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

/// The Practice page's state.
#[derive(Resource)]
pub struct Practice {
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
    /// The count-down deck, when shown: its cards, the pace (seconds a card), when it started, and the answer.
    pub count_down: Asked<CountDown, f64>,
    /// Seconds a card is shown for.
    pub pace: f64,
    /// When the deck started showing (the page's clock).
    pub started: Option<f64>,
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
            drill: Drill::default(),
            asked_for: None,
            deck_task: None,
            deck: None,
            rng: TableRng::from_seed(seed_from_number(0)),
            flash: Asked::default(),
            answers: Vec::new(),
            right: 0,
            count_down: Asked::default(),
            pace: 1.0,
            started: None,
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
        self.typed.clear();
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
        let name = drill.name();
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

fn work(mut practice: ResMut<Practice>) {
    if practice.deck_task.is_some() {
        practice.work();
    }
}

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Practice>().add_systems(Update, work);
}
