//! The advisor: every legal play's exact value for the decision the player's seat faces, worked out off the frame
//! from what the seat has seen (`engine::exact::decision`): the rules, the cards face up and the earlier rounds' cards
//! it watched go to the tray ([`Seen`]). Never from a table's host, so it is the same at the game's own tables and at a casino's.
//! Natively the question runs on Bevy's async compute pool (another thread). In the browser, with one thread, it is cut
//! in three slices a frame apart: the dealer's endings listed (the first question of a run only), the dealer's odds
//! (`exact::prepare`), then the player's values (`Prepared::finish`), each a few milliseconds (the whole question's
//! worst was 8 ms in V8, docs/engineering.md, "The exact engine"). The HUD shows "thinking…" until the answer is in.

use crate::engine::exact::{self, Advice, Decision, Prepared};
use crate::game::model::screen::{RoundSet, Screen};
use crate::game::model::seen::Seen;
use crate::game::model::settings::PlayOptions;
use crate::game::model::table::SeatView;
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use std::time::Duration;

/// The advisor's state at the player's table.
#[derive(Resource)]
pub struct Advisor {
    /// The decision last put to the engine.
    asked: Option<Decision>,
    /// Its question, being worked out on another thread, and how long the engine took.
    task: Option<Task<(Result<Advice, String>, Duration)>>,
    /// Answer in slices a frame apart on this thread (the browser's way), instead of on another thread.
    pub sliced: bool,
    /// The sliced question between its slices: the dealer's odds once worked out, and how long each slice took.
    slice: Option<Prepared>,
    slices: Vec<Duration>,
    /// The answer to `asked`, once in.
    answer: Option<Result<Advice, String>>,
}

/// The build has one thread to work on: the browser's.
pub(crate) fn one_thread() -> bool {
    cfg!(target_arch = "wasm32")
}

impl Default for Advisor {
    fn default() -> Advisor {
        Advisor {
            asked: None,
            task: None,
            sliced: one_thread(),
            slice: None,
            slices: Vec::new(),
            answer: None,
        }
    }
}

/// What the HUD shows.
#[derive(Debug, PartialEq)]
pub enum Counsel<'a> {
    /// Off, or nothing for the player to decide.
    Quiet,
    /// The question is being worked out.
    Thinking,
    /// Each legal play's value.
    Ready(&'a Decision, &'a Advice),
    /// The engine could not answer (a view it cannot make sense of), in words.
    Failed(&'a str),
}

impl Advisor {
    /// What to show for the decision on the felt now.
    pub fn counsel(&self) -> Counsel<'_> {
        match (&self.asked, &self.answer) {
            (None, _) => Counsel::Quiet,
            (Some(_), None) => Counsel::Thinking,
            (Some(decision), Some(Ok(advice))) => Counsel::Ready(decision, advice),
            (Some(_), Some(Err(message))) => Counsel::Failed(message),
        }
    }
}

/// The advice in words, for the game's log: the hand, the up card, each play's value on the bet, the best, and how long
/// the engine took (the browser test reads this line).
fn said(decision: &Decision, advice: &Advice, took: Duration, slice: Option<Duration>) -> String {
    let name = exact::name_of;
    let hand: Vec<&str> = decision.question.hand.iter().map(|&p| name(p)).collect();
    let plays: Vec<String> = advice
        .plays
        .iter()
        .map(|play| format!("{} {}", play.action.name(), play.amount))
        .collect();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    format!(
        "advisor: {} against {}: {}; best {}; worked out in {:.1} ms{}",
        hand.join(","),
        name(decision.question.up),
        plays.join(", "),
        advice.best.name(),
        ms(took),
        slice.map_or_else(String::new, |s| format!(
            " (three slices, a frame each, the largest {:.1} ms)",
            ms(s)
        ))
    )
}

/// Puts a new decision to the engine off the frame (for the advisor, or the coach) (or, sliced, starts it), and takes the answer in when it is ready.
fn ask(
    options: Res<PlayOptions>,
    view: Option<Res<SeatView>>,
    seen: Res<Seen>,
    mut advisor: ResMut<Advisor>,
) {
    // The decision is asked again only when something it is made of may have changed: the view, the setting, or what
    // the seat has seen (not every frame: making it builds the chart and the question).
    let looked_again =
        seen.is_changed() || options.is_changed() || view.as_ref().is_none_or(|v| v.is_changed());
    let decision = looked_again.then(|| {
        // The coach prices a stopped play with the advisor's values, so it asks too.
        view.filter(|_| options.advisor || options.coach)
            .and_then(|view| exact::decision(&view.0, seen.tray()))
    });
    if let Some(decision) = decision
        && decision != advisor.asked
    {
        advisor.answer = None;
        advisor.task = None;
        advisor.slice = None;
        advisor.slices.clear();
        if !advisor.sliced {
            advisor.task = decision.clone().map(|decision| {
                AsyncComputeTaskPool::get().spawn(async move {
                    let started = bevy::platform::time::Instant::now();
                    let answer = exact::evaluate(&decision.question)
                        .map(|values| exact::advise(&decision, &values))
                        .map_err(|e| e.to_string());
                    (answer, started.elapsed())
                })
            });
        }
        advisor.asked = decision;
        if advisor.sliced {
            // The first slice next frame.
            return;
        }
    }
    let advisor = &mut *advisor;
    let Some(decision) = &advisor.asked else {
        return;
    };
    if advisor.answer.is_some() {
        return;
    }
    if advisor.sliced {
        // Three slices, a frame each: the dealer's endings from this up card listed (once a run: later it is
        // nothing), the dealer's odds, the player's values.
        let started = bevy::platform::time::Instant::now();
        match (advisor.slice.take(), advisor.slices.len()) {
            (None, 0) => exact::dealer::list_endings_now(
                decision.question.rules.hits_soft_17,
                decision.question.up,
            ),
            (None, _) => match exact::prepare(&decision.question) {
                Ok(prepared) => advisor.slice = Some(prepared),
                Err(e) => advisor.answer = Some(Err(e.to_string())),
            },
            (Some(prepared), _) => {
                let answer = prepared
                    .finish()
                    .map(|values| exact::advise(decision, &values))
                    .map_err(|e| e.to_string());
                advisor.slices.push(started.elapsed());
                if let Ok(advice) = &answer {
                    let total = advisor.slices.iter().sum();
                    let largest = advisor.slices.iter().max().copied();
                    info!(target: "holecard::advisor", "{}", said(decision, advice, total, largest));
                }
                advisor.answer = Some(answer);
                return;
            }
        }
        advisor.slices.push(started.elapsed());
        return;
    }
    if let Some(task) = advisor.task.as_mut()
        && let Some((answer, took)) = check_ready(task)
    {
        if let Ok(advice) = &answer {
            info!(target: "holecard::advisor", "{}", said(decision, advice, took, None));
        }
        advisor.answer = Some(answer);
        advisor.task = None;
    }
}

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Advisor>()
        .add_systems(OnEnter(Screen::Table), |mut advisor: ResMut<Advisor>| {
            // A fresh table: nothing watched, nothing asked (the way of answering stays).
            *advisor = Advisor {
                sliced: advisor.sliced,
                ..Advisor::default()
            };
        })
        .add_systems(
            Update,
            ask.after(RoundSet::Present).run_if(in_state(Screen::Table)),
        );
}
