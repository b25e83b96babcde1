//! The table as the player's seat sees it, and the news on its way to the felt: the seat view, the queue of beats
//! still to show, who sits where by name, what they say, and the chips moving. The table's host decides (the game's
//! own in `local`, a casino's through `online`); what is here shows what it decided, one beat at a time, so every
//! card and chip move takes visible time. `entities` holds the table's pieces in ECS, `present` moves them.

use crate::engine::{Cents, Event, SeatId, TableState, TableView, Viewer};
use crate::game::model::screen::{RoundSet, Screen};
pub use crate::game::model::settings::Speed;
use crate::host::{Names, News};
use bevy::prelude::*;
use std::collections::VecDeque;

mod entities;
mod present;

pub use entities::*;
pub(crate) use present::present;

/// The table as the player's seat sees it, as far as the table has shown it: what the HUD and the felt draw from.
/// It follows the events `present` shows, one at a time, so it is never ahead of the cards on the felt, and it holds
/// nothing a player could not see (no shoe order, no generator, no face-down card).
#[derive(Resource, Debug, Clone)]
pub struct SeatView(pub TableView);

impl SeatView {
    /// Who the player is at this table: their seat, or a spectator when they have none or an AI plays it.
    pub fn viewer(session: &crate::game::model::session::Session) -> Viewer {
        session.player_seat.map_or(Viewer::Spectator, Viewer::Seat)
    }
}

/// The seat view follows the player when they take another seat or get up.
fn follow_the_player(
    session: Res<crate::game::model::session::Session>,
    seen: Option<ResMut<SeatView>>,
) {
    if let Some(mut seen) = seen
        && session.is_changed()
    {
        let viewer = SeatView::viewer(&session);
        if seen.0.viewer() != viewer {
            seen.0.set_viewer(viewer);
        }
    }
}

/// Events decided but not yet shown, and the time left on the beat being shown.
#[derive(Resource, Default)]
pub struct Beats {
    queue: VecDeque<News>,
    /// The table's events as they are decided, for the recorder: the hand history and the journal keep up with the
    /// table, not with the animation.
    decided: Vec<Event>,
    wait: f32,
    /// The table's pace.
    pub speed: Speed,
}

impl Beats {
    /// An empty queue at this pace.
    pub fn at(speed: Speed) -> Beats {
        Beats {
            speed,
            ..Beats::default()
        }
    }

    /// Queues news to be shown, in order.
    pub fn show(&mut self, news: impl IntoIterator<Item = News>) {
        for news in news {
            if let News::Event(event) = news {
                self.decided.push(event);
            }
            self.queue.push_back(news);
        }
    }

    /// The events decided since this was last asked, in order.
    pub fn take_decided(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.decided)
    }

    /// True when everything decided has been shown and the last beat has run out: the table may act again.
    pub fn settled(&self) -> bool {
        self.queue.is_empty() && self.wait <= 0.0
    }

    /// The table is showing what it decided and needs frames to go on: a beat running out, or (with the clock
    /// stopped, `paused`) news that shows without waiting on it.
    pub fn moving(&self, paused: bool) -> bool {
        if paused {
            self.wait <= 0.0 && !self.queue.is_empty()
        } else {
            !self.settled()
        }
    }
}

/// An event the table has just shown (for the log, sounds and companions' remarks).
#[derive(Message, Clone, Copy, Debug)]
pub struct Shown(pub Event);

/// A pile of chips on the felt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pile {
    /// In front of a seat.
    Bankroll(SeatId),
    /// In a seat's bet circle.
    Circle(SeatId),
    /// On a seat's spot for a side bet.
    Side(SeatId, crate::engine::side::SideBet),
    /// The dealer's tray.
    Tray,
}

/// Chips the table has just moved from one pile to another (the piles' amounts already say so): the view flies
/// them across, the chip sounds play. `after` orders the moves of one payout, in seconds at normal speed.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChipsMoved {
    /// Where they leave.
    pub from: Pile,
    /// Where they land.
    pub to: Pile,
    /// How much.
    pub amount: Cents,
    /// Seconds (at normal speed) after the event that they leave.
    pub after: Delay,
}

/// When a chip move starts within its event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Delay {
    /// At once.
    Now,
    /// After the moves before it in a payout have landed.
    Then,
}

/// Who sits in each seat, by name, as the table has shown it (the host's own account runs a beat ahead).
#[derive(Resource, Default, Clone, Deref, DerefMut)]
pub struct Occupants(pub Names);

impl Occupants {
    /// Nobody sits at `seat`, by the names shown and by the table.
    pub fn is_free(&self, table: &impl TableState, seat: SeatId) -> bool {
        !self.taken(seat)
            && table
                .seats()
                .get(usize::from(seat))
                .is_some_and(|s| !s.occupied)
    }
}

/// A line someone at the table says, as the table shows it (for the log).
#[derive(Message, Clone, Debug)]
pub struct Remark {
    /// Who says it.
    pub seat: SeatId,
    /// What they say.
    pub line: String,
}

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Beats>()
        .init_resource::<Occupants>()
        .add_message::<Shown>()
        .add_message::<Remark>()
        .add_message::<ChipsMoved>()
        .add_systems(Update, present.in_set(RoundSet::Present))
        .add_systems(Update, follow_the_player.before(RoundSet::Present))
        .add_systems(Update, log_round.after(RoundSet::Present))
        .add_systems(OnExit(Screen::Table), |mut commands: Commands| {
            commands.remove_resource::<OnlineTable>();
        });
}

/// The round in words, as the table shows it: the lines of the HUD's round log and of the game's log.
pub fn narrate(event: &Event, occupants: &Occupants) -> Vec<String> {
    // A round opens with its heading alone: the host's own "Round 7." would say it twice.
    if let Event::RoundStarted { round } = event {
        return vec![format!("— Round {round} —")];
    }
    occupants.line(&News::Event(*event)).into_iter().collect()
}

/// The round goes to the game's log too (the terminal, or the browser's console): a hand history to read back.
fn log_round(mut shown: MessageReader<Shown>, occupants: Res<Occupants>) {
    for Shown(event) in shown.read() {
        for line in narrate(event, &occupants) {
            info!(target: "holecard::round", "{line}");
        }
    }
}

/// The table on the felt is a casino's: no host here; the player's intents go over the wire (`online`).
#[derive(Resource, Clone, Debug)]
pub struct OnlineTable {
    /// The table's id at the casino.
    pub id: String,
}

/// The table on the felt was restored from a save: its seats are taken and its cards are out.
#[derive(Resource, Debug)]
pub struct Restored {
    /// Commands the sitting had accepted before this visit (the host's log counts from here).
    pub accepted: u64,
    /// The round under way as it had been recorded.
    pub recorder: Option<crate::host::record::Recorder>,
}

/// Opens the table afresh on entering it: an empty queue of beats, no names, nothing restored. The table's driver
/// (`local` or `online`) then puts its seat view in. Runs first on entering the table, so a second visit starts
/// clean.
pub(crate) fn reset(
    mut commands: Commands,
    mut beats: ResMut<Beats>,
    mut occupants: ResMut<Occupants>,
) {
    *beats = Beats::at(beats.speed);
    *occupants = Occupants::default();
    commands.remove_resource::<Restored>();
}
