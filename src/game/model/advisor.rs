//! The advisor: every legal play's exact value for the decision the player's seat faces, worked out off the frame
//! from what the seat has seen (`engine::exact::decision`): the rules, the cards face up and the earlier rounds' cards
//! it watched go to the tray. Never from a table's host, so it is the same at the game's own tables and at a casino's.
//! Natively the question runs on Bevy's async compute pool (another thread); in the browser that pool runs it on the
//! page's one thread between frames (the worst question measured 8 ms in V8, README "The exact engine"). The HUD shows
//! "thinking…" until the answer is in.

use crate::engine::exact::{self, Advice, Decision, Tray};
use crate::game::model::screen::{RoundSet, Screen};
use crate::game::model::settings::PlayOptions;
use crate::game::model::table::{SeatView, Shown};
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};

/// The advisor's state at the player's table.
#[derive(Resource, Default)]
pub struct Advisor {
    /// What the seat watched go by since the shuffle.
    tray: Tray,
    /// The decision last put to the engine.
    asked: Option<Decision>,
    /// Its question, being worked out, and how long the engine took.
    task: Option<Task<(Result<Advice, String>, std::time::Duration)>>,
    /// The answer to `asked`, once in.
    answer: Option<Result<Advice, String>>,
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

    /// The cards the seat has watched go to the tray (for tests).
    pub fn tray(&self) -> &Tray {
        &self.tray
    }
}

/// Every card the table shows goes into what the seat has seen.
fn watch(mut shown: MessageReader<Shown>, mut advisor: ResMut<Advisor>) {
    for Shown(event) in shown.read() {
        advisor.tray.observe(event);
    }
}

/// The advice in words, for the game's log: the hand, the up card, each play's value on the bet, the best, and how long
/// the engine took (the browser test reads this line).
fn said(decision: &Decision, advice: &Advice, took: std::time::Duration) -> String {
    let name = |points: u8| match points {
        1 => "A".to_string(),
        10 => "T".to_string(),
        n => n.to_string(),
    };
    let hand: Vec<String> = decision.question.hand.iter().map(|&p| name(p)).collect();
    let plays: Vec<String> = advice
        .plays
        .iter()
        .map(|play| format!("{} {}", play.action.name(), play.amount))
        .collect();
    format!(
        "advisor: {} against {}: {}; best {}; worked out in {:.1} ms",
        hand.join(","),
        name(decision.question.up),
        plays.join(", "),
        advice.best.name(),
        took.as_secs_f64() * 1000.0
    )
}

/// Puts a new decision to the engine off the frame, and takes the answer in when it is ready.
fn ask(options: Res<PlayOptions>, seen: Option<Res<SeatView>>, mut advisor: ResMut<Advisor>) {
    let decision = seen
        .filter(|_| options.advisor)
        .and_then(|seen| exact::decision(&seen.0, &advisor.tray));
    if decision != advisor.asked {
        advisor.answer = None;
        advisor.task = decision.clone().map(|decision| {
            AsyncComputeTaskPool::get().spawn(async move {
                let started = bevy::platform::time::Instant::now();
                let answer = exact::evaluate(&decision.question)
                    .map(|values| exact::advise(&decision, &values))
                    .map_err(|e| e.to_string());
                (answer, started.elapsed())
            })
        });
        advisor.asked = decision;
    }
    if let Some(task) = advisor.task.as_mut()
        && let Some((answer, took)) = check_ready(task)
    {
        if let (Some(decision), Ok(advice)) = (&advisor.asked, &answer) {
            info!(target: "holecard::advisor", "{}", said(decision, advice, took));
        }
        advisor.answer = Some(answer);
        advisor.task = None;
    }
}

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Advisor>()
        .add_systems(OnEnter(Screen::Table), |mut commands: Commands| {
            commands.insert_resource(Advisor::default());
        })
        .add_systems(
            Update,
            (watch, ask)
                .chain()
                .after(RoundSet::Present)
                .run_if(in_state(Screen::Table)),
        );
}
