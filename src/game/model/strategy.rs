//! The Strategy page's numbers for the chosen table: its basic-strategy chart and its index plays for the chosen
//! count, both worked out by the exact engine (`engine::exact::chart`, `engine::exact::indices`) off the frame.
//! Natively on Bevy's async compute pool. In the browser, with one thread, the chart (one full shoe, as long as a
//! house edge) runs on that pool between frames and the indices a shoe per frame (25 shoes), so the page keeps
//! drawing and shows how far the work has got.

use crate::engine::Rules;
use crate::engine::count::System;
use crate::engine::exact::indices::{Index, PLAYS, Search};
use crate::engine::exact::{ExactRules, PostSplit, chart};
use crate::engine::strategy::Grid;
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};

/// What the book knows of the index plays.
#[derive(Default)]
pub enum Indices {
    /// Nothing asked yet.
    #[default]
    Unasked,
    /// Being worked out: how far, 0 to 1.
    Working(f32),
    /// The count has no true count (KO), in words.
    Unbalanced(String),
    /// Worked out.
    Done(Vec<Index>),
}

/// The indices' work in progress.
enum IndexWork {
    /// On another thread.
    Task(Task<Vec<Index>>),
    /// A shoe per frame on this one.
    Sliced(Box<Search>),
}

/// The chart and the index plays of the table and count last asked about.
#[derive(Resource, Default)]
pub struct StrategyBook {
    /// The rules (what changes a hand's value, and the decks) and count they are for.
    asked: Option<(u8, ExactRules, String)>,
    chart: Option<Grid>,
    chart_task: Option<Task<Grid>>,
    indices: Indices,
    work: Option<IndexWork>,
}

impl StrategyBook {
    /// Sets the book to `rules` and `system` and starts the work on both the chart and the index plays, if not started.
    pub fn ask(&mut self, rules: &Rules, system: &'static System) {
        self.ask_indices(rules, system);
        if self.chart.is_none() && self.chart_task.is_none() {
            let for_chart = rules.clone();
            self.chart_task = Some(AsyncComputeTaskPool::get().spawn(async move {
                chart::chart_on(&for_chart, PostSplit::Cdz, crate::engine::exact::threads())
            }));
        }
    }

    /// Sets the book to `rules` and `system` and starts the work on the index plays alone, if not started (what the
    /// coach needs at the table: the chart is the printed one there). Asking again for the same is nothing, and
    /// allocates nothing, so it may be asked every frame.
    pub fn ask_indices(&mut self, rules: &Rules, system: &'static System) {
        let exact = ExactRules::of(rules);
        if self.asked.as_ref().is_some_and(|(decks, asked, name)| {
            *decks == rules.decks && *asked == exact && *name == system.name
        }) {
            return;
        }
        *self = StrategyBook {
            asked: Some((rules.decks, exact, system.name.clone())),
            ..StrategyBook::default()
        };
        match Search::new(rules, system, &PLAYS) {
            Err(error) => self.indices = Indices::Unbalanced(error.to_string()),
            Ok(search) if cfg!(target_arch = "wasm32") => {
                self.indices = Indices::Working(0.0);
                self.work = Some(IndexWork::Sliced(Box::new(search)));
            }
            Ok(mut search) => {
                self.indices = Indices::Working(0.0);
                self.work = Some(IndexWork::Task(AsyncComputeTaskPool::get().spawn(
                    async move {
                        while !search.step(crate::engine::exact::threads()) {}
                        search.indices()
                    },
                )));
            }
        }
    }

    /// A book with `indices` worked out for `rules` and `system` (the pages' tests, which do not wait for the work).
    #[cfg(test)]
    pub fn worked_out(rules: &Rules, system: &'static System, indices: Vec<Index>) -> StrategyBook {
        StrategyBook {
            asked: Some((rules.decks, ExactRules::of(rules), system.name.clone())),
            indices: Indices::Done(indices),
            ..StrategyBook::default()
        }
    }

    /// The chart is being worked out.
    pub fn working_on_chart(&self) -> bool {
        self.chart_task.is_some()
    }

    /// The chart or the index plays are being worked out (taken in a frame at a time).
    pub fn working(&self) -> bool {
        self.chart_task.is_some() || self.work.is_some()
    }

    /// The chart, once worked out.
    pub fn chart(&self) -> Option<&Grid> {
        self.chart.as_ref()
    }

    /// The index plays, as far as they are known.
    pub fn indices(&self) -> &Indices {
        &self.indices
    }

    /// The index plays, once worked out.
    pub fn done_indices(&self) -> Option<&[Index]> {
        match &self.indices {
            Indices::Done(indices) => Some(indices),
            _ => None,
        }
    }

    /// Takes in finished work and does a slice of the sliced kind; true when something changed.
    pub fn work(&mut self) -> bool {
        let mut changed = false;
        if let Some(task) = self.chart_task.as_mut()
            && let Some(grid) = check_ready(task)
        {
            self.chart = Some(grid);
            self.chart_task = None;
            changed = true;
        }
        match self.work.as_mut() {
            Some(IndexWork::Task(task)) => {
                if let Some(indices) = check_ready(task) {
                    self.indices = Indices::Done(indices);
                    self.work = None;
                    changed = true;
                }
            }
            Some(IndexWork::Sliced(search)) => {
                let done = search.step(1);
                self.indices = if done {
                    Indices::Done(search.indices())
                } else {
                    Indices::Working(search.progress())
                };
                if done {
                    self.work = None;
                }
                changed = true;
            }
            None => {}
        }
        changed
    }
}

fn work(mut book: ResMut<StrategyBook>) {
    if book.chart_task.is_some() || book.work.is_some() {
        book.work();
    }
}

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<StrategyBook>()
        .add_systems(Update, work);
}
