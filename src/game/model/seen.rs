//! The cards the player's seat has seen since the shuffle: every card the table showed, face up, as it was shown
//! (the rounds before this one gone to the tray, and this round's). One resource, read by whoever works from what
//! the seat knows: the advisor's exact values, the count beside the shoe and the coach. It follows the table as
//! shown, never a host, so it is the same at the game's own tables and at a casino's.

use crate::engine::Event;
use crate::engine::count::{Reading, System};
use crate::engine::exact::Tray;
use crate::engine::view::TableView;
use crate::game::model::screen::Screen;
use bevy::prelude::*;

/// What the player's seat has seen since the shuffle. The table's `present` adds each event as it shows it (in
/// `RoundSet::Present`), so its readers run after that set; a `Seen` unchanged since a reader last looked tells it
/// nothing new was shown.
#[derive(Resource, Default, Debug)]
pub struct Seen(Tray);

impl Seen {
    /// The table showed `event` (`table::present` says so as it shows it, so nothing is seen before the felt shows
    /// it).
    pub(crate) fn observe(&mut self, event: &Event) {
        self.0.observe(event);
    }

    /// The cards, as the exact engine takes them.
    pub fn tray(&self) -> &Tray {
        &self.0
    }

    /// What a counter in the seat reads with `system`: every card seen since the shuffle, the decks left judged from
    /// `view`'s discard tray.
    pub fn reading(&self, view: &TableView, system: &'static System) -> Reading {
        let shoe = view.shoe();
        crate::engine::count::reading(
            system,
            shoe.decks,
            &self.0.seen(),
            shoe.discarded,
            shoe.remaining,
        )
    }
}

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Seen>()
        .add_systems(OnEnter(Screen::Table), |mut seen: ResMut<Seen>| {
            *seen = Seen::default();
        });
}
