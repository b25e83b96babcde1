//! The table the player sits at, as one seam between the pages and the two drivers of the model (the game's own
//! table, `local`, and a casino's, `online`), which the pages never name. What a page does with "the table I sit at":
//! - sees the player's seat: [`SeatView`](crate::game::model::table::SeatView), the news in
//!   [`Beats`](crate::game::model::table::Beats), the [`Session`](crate::game::model::session::Session);
//! - sends the player's intents: [`Intent`](crate::game::model::player::Intent) (through the coach, a
//!   [`Choice`](crate::game::model::coach::Choice) for a play);
//! - asks for a table to open on a sitting kept or a round replayed: [`OpenTable`], answered by the driver that can
//!   (the table opens, or [`OpenRefused`] says why not);
//! - watches a replay: [`Replay`], filled by the driver that deals it (the game's own rounds by the game's table, a
//!   casino's by the casino's driver).

use crate::engine::{Phase, TableState};
use crate::game::model::table::{Beats, SeatView};
use crate::host::history::PlayedHand;
use bevy::prelude::*;

/// A table the player asked to open, waiting on the Title for the driver that opens it.
#[derive(Resource, Clone, Debug, PartialEq)]
pub enum OpenTable {
    /// Sit back down at the sitting kept from last time, where the player got up.
    Resume,
    /// Show a kept round again on the felt.
    Replay(Replayed),
}

/// A round kept to be shown again on the felt.
#[derive(Clone, Debug, PartialEq)]
pub enum Replayed {
    /// One seat's hands of a round the game kept (never empty), dealt again by the game's own table.
    Own(Vec<PlayedHand>),
    /// A round a casino kept, as its table showed it, shown by the casino's driver; with its link
    /// (`http://host/hand/TABLE/ROUND`) to give to others.
    Casino {
        /// The round as the casino kept it.
        kept: std::sync::Arc<crate::protocol::Replay>,
        /// Where anyone can watch it again.
        link: String,
    },
}

impl Replayed {
    /// The round's number and the table's name.
    pub fn round_and_table(&self) -> Option<(u64, &str)> {
        match self {
            Replayed::Own(hands) => hands
                .first()
                .map(|first| (first.round, first.table.as_str())),
            Replayed::Casino { kept, .. } => Some((kept.round, kept.name.as_str())),
        }
    }
}

/// Why the last [`OpenTable`] could not be done, in words, for the page that asked.
#[derive(Resource, Default, Debug)]
pub struct OpenRefused(pub Option<String>);

/// A kept round being dealt again on the felt. Nothing of a replay is kept, and the player's own intents stay out of
/// it.
#[derive(Resource, Clone, Debug)]
pub struct Replay {
    /// The round as kept (to replay again).
    pub round: Replayed,
    /// Everything of the round has been given to the table.
    pub dealt: bool,
}

impl Replay {
    /// What the banner says: `Replay · round 12 at Las Vegas Strip`.
    pub fn label(&self) -> String {
        self.round
            .round_and_table()
            .map_or_else(String::new, |(round, table)| {
                format!("Replay · round {round} at {table}")
            })
    }

    /// Which round it is, where the table's name shows already: "Replay · round 199".
    pub fn short_label(&self) -> String {
        self.round
            .round_and_table()
            .map_or_else(String::new, |(round, _)| format!("Replay · round {round}"))
    }

    /// Every command has been given and shown: the round is over on the felt.
    pub fn done(&self, view: &SeatView, beats: &Beats) -> bool {
        self.dealt && beats.settled() && view.0.phase() == Phase::Betting
    }
}

pub(crate) fn plugin(app: &mut App) {
    use crate::game::model::frames::{DrawWhile, Redraw};
    // A table asked for opens on the next frames, whatever woke the window to ask (a tap, or an answer off the frame).
    app.init_resource::<OpenRefused>()
        .draw_while(Redraw::EveryFrame, resource_exists::<OpenTable>);
}
