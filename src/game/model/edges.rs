//! Each table's exact house edge (`engine::exact::house_edge`: the full shoe, the chart's plays), worked out off the
//! frame the first time a page asks for it and remembered for the session. Natively it runs on Bevy's async compute
//! pool; in the browser that pool runs it on the page's one thread between frames (a quarter to a third of a second
//! for a six-deck table, once).

use crate::engine::Rules;
use crate::engine::exact::ExactRules;
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};

/// The house edges known and being worked out, by the rules that set them (the deck count and what changes a hand's
/// value; limits and chips do not).
#[derive(Resource, Default)]
pub struct HouseEdges {
    known: Vec<((u8, ExactRules), f64)>,
    working: Vec<((u8, ExactRules), Task<f64>)>,
}

impl HouseEdges {
    /// Some edge is being worked out (taken in a frame at a time).
    pub fn working(&self) -> bool {
        !self.working.is_empty()
    }

    /// The house edge of `rules` in percent, if known; if not, it is set to be worked out.
    pub fn edge(&mut self, rules: &Rules) -> Option<f64> {
        let key = (rules.decks, ExactRules::of(rules));
        if let Some((_, edge)) = self.known.iter().find(|(k, _)| *k == key) {
            return Some(*edge);
        }
        if !self.working.iter().any(|(k, _)| *k == key) {
            let rules = rules.clone();
            let task = AsyncComputeTaskPool::get()
                .spawn(async move { crate::engine::exact::house_edge(&rules) });
            self.working.push((key, task));
        }
        None
    }
}

/// Takes in the edges worked out.
fn collect(mut edges: ResMut<HouseEdges>) {
    let edges = &mut *edges;
    let mut i = 0;
    while i < edges.working.len() {
        if let Some(edge) = check_ready(&mut edges.working[i].1) {
            let (key, _) = edges.working.swap_remove(i);
            edges.known.push((key, edge));
        } else {
            i += 1;
        }
    }
}

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<HouseEdges>()
        .add_systems(Update, collect);
}
