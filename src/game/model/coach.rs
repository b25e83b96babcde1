//! The coach (Settings → Coach, off by default): a play off the book is stopped once, before it reaches the table,
//! with one line saying what the book plays and what the choice costs on this shoe (the advisor's exact values), and
//! the player keeps it or chooses again. The book is the table's basic-strategy chart (`BasicStrategy::for_rules`,
//! the chart the advisor and the companions play); with the count shown, the chart changed by the index plays worked
//! out for this table and count (`StrategyBook`) at the floored true count the player reads beside the shoe.
//!
//! The pages write what the player chose as a [`Choice`], from a button or a key alike; the coach judges it here,
//! in the model, and either sends it to the table as an [`Intent`] or stops it.

use crate::engine::checks::TableState;
use crate::engine::count;
use crate::engine::counter::Deviations;
use crate::engine::exact::indices::Index;
use crate::engine::strategy::BasicStrategy;
use crate::engine::view::TableView;
use crate::engine::{Action, Cents, Phase, SeatId};
use crate::game::model::advisor::{Advisor, Counsel};
use crate::game::model::player::Intent;
use crate::game::model::screen::{RoundSet, Screen};
use crate::game::model::seen::Seen;
use crate::game::model::session::{Session, human_seat};
use crate::game::model::settings::PlayOptions;
use crate::game::model::strategy::StrategyBook;
use crate::game::model::table::SeatView;
use bevy::prelude::*;
use std::time::Duration;

/// Where the book's play comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The basic-strategy chart.
    Chart,
    /// An index play at this (floored) true count.
    Index(i32),
}

/// The book's play for a decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Book {
    pub play: Action,
    pub source: Source,
}

/// One decision: the round, the hand in turn (0 on an offer) and how many cards it holds, and whether it is an offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecisionKey {
    round: u64,
    offer: bool,
    hand: u8,
    cards: usize,
}

impl DecisionKey {
    /// The decision `seat` faces in `view`, if it faces one.
    pub fn of(view: &TableView, seat: SeatId) -> Option<DecisionKey> {
        let (hand, deciding) = view.deciding_hand(seat)?;
        Some(DecisionKey {
            round: view.round(),
            offer: !matches!(view.phase(), Phase::PlayerTurn { .. }),
            hand,
            cards: deciding.cards.len(),
        })
    }
}

/// The book's play for the decision `seat` faces: the chart's, or with `counting` (the index plays and the floored
/// true count) the counter's. None where the seat decides nothing.
pub fn book_play(
    view: &TableView,
    seat: SeatId,
    counting: Option<(&Deviations, i32)>,
) -> Option<Book> {
    let up = view.upcard()?;
    let rules = view.rules();
    let legal = view.legal_actions(seat);
    let chart = |play| Book {
        play,
        source: Source::Chart,
    };
    match view.phase() {
        Phase::PlayerTurn { .. } => {
            let cards = &view.deciding_hand(seat)?.1.cards;
            let strategy = BasicStrategy::for_rules(rules);
            let allowed = |action| legal.contains(action);
            let basic = strategy.play(cards, up, allowed);
            let Some((deviations, true_count)) = counting else {
                return Some(chart(basic));
            };
            let play = deviations.play(
                basic,
                cards,
                up,
                || true_count,
                allowed,
                || strategy.play(cards, up, |a| a != Action::Surrender && allowed(a)),
            );
            Some(if play == basic {
                chart(basic)
            } else {
                Book {
                    play,
                    source: Source::Index(true_count),
                }
            })
        }
        Phase::Insurance => {
            let even_money = legal.contains(Action::DeclineEvenMoney);
            let insures = counting.is_some_and(|(d, tc)| d.insures(tc));
            let play = match (even_money, insures) {
                (true, true) => Action::TakeEvenMoney,
                (true, false) => Action::DeclineEvenMoney,
                (false, true) => Action::TakeInsurance,
                (false, false) => Action::DeclineInsurance,
            };
            Some(match counting {
                Some((_, tc)) if insures => Book {
                    play,
                    source: Source::Index(tc),
                },
                _ => chart(play),
            })
        }
        Phase::EarlySurrender => {
            let cards = &view.deciding_hand(seat)?.1.cards;
            let strategy = BasicStrategy::for_rules(rules);
            Some(chart(
                if strategy.surrenders_early(cards, up) && legal.contains(Action::Surrender) {
                    Action::Surrender
                } else {
                    Action::DeclineSurrender
                },
            ))
        }
        Phase::Betting => None,
    }
}

/// A play the coach stopped, waiting for the player to keep it or choose again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stop {
    pub decision: DecisionKey,
    /// What the player chose.
    pub chosen: Action,
    /// What the book plays.
    pub book: Book,
    /// When it was stopped (the app's real time).
    pub at: Duration,
    /// When the stop was first on screen, and in how many frames it has been drawn: a tap is an answer to the stop
    /// only once it has been seen, for [`Stop::GUARD`] and over [`Stop::FRAMES`] frames.
    pub shown_at: Option<Duration>,
    pub shown_frames: u32,
}

impl Stop {
    /// How long a stop holds against every answer once it appears: a second tap meant for the button that was there
    /// (two quick taps on Surrender) lands on the stop's own buttons, or repeats the play; neither may pass it before
    /// the player can have read it.
    pub const GUARD: Duration = Duration::from_millis(600);
    /// The frames a stop must have been drawn in before a tap answers it: where frames are slow (a phone's browser
    /// drawing in software), two quick taps reach the game in the frames right after the stop first appears, however
    /// much time those frames took.
    pub const FRAMES: u32 = 3;

    /// An answer at `now` counts: the stop has been on screen long enough to be read.
    pub fn answerable(&self, now: Duration) -> bool {
        self.shown_frames >= Self::FRAMES
            && self
                .shown_at
                .is_some_and(|shown| now >= shown + Self::GUARD)
    }
}

/// The coach at the player's table.
#[derive(Resource, Default, Debug)]
pub struct Coach {
    /// The play stopped now, if one is.
    pub stop: Option<Stop>,
    /// The decision last stopped: it is stopped once, and whatever is chosen after goes to the table.
    stopped: Option<DecisionKey>,
    /// Plays stopped and kept, and stopped and changed, at this table.
    pub kept: u32,
    pub changed: u32,
}

impl Coach {
    /// The player chose `action` at `now` for the decision `seat` faces: the play to send to the table, or None when
    /// the coach stops it, or holds it while its stop is still new (`book` is the book's play for that decision).
    pub fn choose(
        &mut self,
        action: Action,
        view: &TableView,
        seat: SeatId,
        book: Option<Book>,
        now: Duration,
    ) -> Option<Action> {
        let Some(decision) = DecisionKey::of(view, seat) else {
            return Some(action);
        };
        if let Some(stop) = self.stop.take() {
            if stop.decision == decision && !stop.answerable(now) {
                self.stop = Some(stop);
                return None;
            }
            // A second choice of the same decision goes through, kept or changed.
            if stop.decision == decision {
                if action == stop.chosen {
                    self.kept += 1;
                } else {
                    self.changed += 1;
                }
                return Some(action);
            }
        }
        match book {
            Some(book) if book.play != action && self.stopped != Some(decision) => {
                self.stopped = Some(decision);
                self.stop = Some(Stop {
                    decision,
                    chosen: action,
                    book,
                    at: now,
                    shown_at: None,
                    shown_frames: 0,
                });
                None
            }
            _ => Some(action),
        }
    }

    /// "Choose again" at `now`: the stop is lifted (once its guard is over); the next choice of this decision goes
    /// to the table as it is.
    pub fn choose_again(&mut self, now: Duration) {
        if self.stop.is_some_and(|stop| stop.answerable(now)) {
            self.stop = None;
            self.changed += 1;
        }
    }

    /// The stop was drawn on screen in this frame, at `now` (the app's real time).
    pub fn shown(&mut self, now: Duration) {
        if let Some(stop) = &mut self.stop {
            stop.shown_at.get_or_insert(now);
            stop.shown_frames += 1;
        }
    }

    /// The stop, while its decision is still the one on the felt (a stop the table moved past is dropped).
    pub fn current(&mut self, view: &TableView, seat: Option<SeatId>) -> Option<Stop> {
        let now = seat.and_then(|seat| DecisionKey::of(view, seat));
        if self.stop.is_some_and(|stop| Some(stop.decision) != now) {
            self.stop = None;
        }
        self.stop
    }
}

/// The index plays to coach by: with the count shown and a balanced count, those worked out for this table, once
/// they are; the floored true count from what the seat has seen.
pub fn counting(
    view: &TableView,
    system: &'static count::System,
    indices: Option<&[Index]>,
    seen: &Seen,
) -> Option<(Deviations, i32)> {
    let indices = indices?;
    let reading = seen.reading(view, system);
    Some((Deviations::of(indices), reading.true_count.floor() as i32))
}

/// The coach's line for a stopped play: the book's play and where it comes from, and what the choice costs on this
/// shoe from the advisor's values (or that they are being worked out).
pub fn line(stop: &Stop, advisor: &Advisor, hand: &str) -> String {
    let book = match stop.book.source {
        Source::Chart => format!("The chart plays {} on {hand}", stop.book.play.name()),
        Source::Index(tc) => format!(
            "At true count {tc:+}, the index play is {} on {hand}",
            stop.book.play.name()
        ),
    };
    let cost = match advisor.counsel() {
        Counsel::Ready(_, advice) => {
            let value = |action: Action| advice.priced(action).map(|p| p.amount);
            match (value(stop.book.play), value(stop.chosen)) {
                (Some(book), Some(chosen)) if book > chosen => format!(
                    "; {} costs {} on this shoe.",
                    stop.chosen.name(),
                    Cents(book.0 - chosen.0)
                ),
                (Some(book), Some(chosen)) if chosen > book => format!(
                    "; on this shoe {} is {} better.",
                    stop.chosen.name(),
                    Cents(chosen.0 - book.0)
                ),
                (Some(_), Some(_)) => {
                    format!("; on this shoe {} is worth the same.", stop.chosen.name())
                }
                _ => ".".to_string(),
            }
        }
        Counsel::Thinking => "; working out what it costs on this shoe…".to_string(),
        Counsel::Quiet | Counsel::Failed(_) => ".".to_string(),
    };
    format!("{book}{cost}")
}

/// The hand the player decides in words: `hard 16 against a ten`, `8,8 against an ace`.
pub fn hand_words(view: &TableView, seat: SeatId) -> Option<String> {
    let up = view.upcard()?;
    let cards = &view.deciding_hand(seat)?.1.cards;
    let name = |points: u8| crate::engine::exact::name_of(points);
    let hand = match cards.as_slice() {
        [a, b] if a.points() == b.points() => format!("{},{}", name(a.points()), name(b.points())),
        _ => {
            let total = cards.total();
            let kind = if total.is_soft() { "soft" } else { "hard" };
            format!("{kind} {}", total.value())
        }
    };
    let against = match up.points() {
        1 => "an ace".to_string(),
        10 => "a ten".to_string(),
        8 => "an 8".to_string(),
        points => format!("a {points}"),
    };
    Some(format!("{hand} against {against}"))
}

/// What the player chose at the table, before the coach has looked at it. The pages write it, from a button or a key
/// alike; [`judge`] sends a play on to the table as an [`Intent`], or stops it.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// A play for the decision in turn: a new one, or the stopped one again ("Keep").
    Play(Action),
    /// "Choose again": the stop is lifted, and the next choice goes to the table as it is.
    Again,
}

/// The set in which the player's choices become intents: whatever writes a [`Choice`] runs before it, the table's
/// drivers (which read intents) after it.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct Judging;

/// The play to send to the table for the player's choice of `action` at `now` (the app's real time): as chosen with
/// the coach off; otherwise judged by the book, and None while the coach stops it.
#[allow(clippy::too_many_arguments)]
pub fn coached(
    coach: &mut Coach,
    options: &PlayOptions,
    book: &StrategyBook,
    seen: &Seen,
    view: &TableView,
    seat: SeatId,
    action: Action,
    now: Duration,
) -> Option<Action> {
    if !options.coach {
        return Some(action);
    }
    let indices = options.show_count.then(|| book.done_indices()).flatten();
    let counting = counting(view, options.count_system(), indices, seen);
    let book = book_play(view, seat, counting.as_ref().map(|(d, tc)| (d, *tc)));
    coach.choose(action, view, seat, book, now)
}

/// The player's choices, judged: a play goes to the table as an intent unless the coach stops it.
#[allow(clippy::too_many_arguments)] // Bevy systems take their world as parameters.
fn judge(
    mut choices: MessageReader<Choice>,
    mut coach: ResMut<Coach>,
    options: Res<PlayOptions>,
    book: Res<StrategyBook>,
    seen: Res<Seen>,
    view: Option<Res<SeatView>>,
    (session, time): (Res<Session>, Res<Time<Real>>),
    mut intents: MessageWriter<Intent>,
) {
    let (Some(view), Some(seat)) = (view, human_seat(&session)) else {
        choices.clear();
        return;
    };
    let now = time.elapsed();
    for choice in choices.read() {
        match *choice {
            Choice::Play(action) => {
                if let Some(action) = coached(
                    &mut coach, &options, &book, &seen, &view.0, seat, action, now,
                ) {
                    intents.write(Intent::Play(action));
                }
            }
            Choice::Again => coach.choose_again(now),
        }
    }
}

/// With the coach and the count on, the index plays for this table and count are worked out for it (off the frame
/// natively; in the browser a shoe a frame, as on the Strategy page).
fn ask_for_indices(
    options: Res<PlayOptions>,
    seen: Option<Res<SeatView>>,
    mut book: ResMut<StrategyBook>,
) {
    if options.coach
        && options.show_count
        && let Some(seen) = seen
    {
        book.ask_indices(seen.0.rules(), options.count_system());
    }
}

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Coach>()
        .add_message::<Choice>()
        .configure_sets(Update, Judging.before(RoundSet::Betting))
        .add_systems(OnEnter(Screen::Table), |mut coach: ResMut<Coach>| {
            *coach = Coach::default();
        })
        .add_systems(
            Update,
            (
                ask_for_indices.run_if(in_state(Screen::Table)),
                // Most frames bring no choice: the judge (and its eight parameters) waits for one.
                judge
                    .in_set(Judging)
                    .run_if(in_state(Screen::Table))
                    .run_if(on_message::<Choice>),
            ),
        );
}
