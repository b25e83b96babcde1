//! The host: everything between the engine's rules and a front end, Bevy-free and shared by the three front ends
//! (the game, the casino server and the lab's terminal table). It may use the engine and nothing above it.
//!
//! - `table`: the table's host, the one holder of the engine's `Table`: who sits where, companions' minds and seeds,
//!   arrivals and departures, the books and the command log; it hands out only public [`News`] and views.
//! - `level`: the casino tables as `levels/*.ron` describe them (rules, limits, companions, look).
//! - `record`: a round's hand records, heard from the public events; `history`: a player's hands kept, with their
//!   statistics and export; `replay`: a kept round dealt again.
//! - `narrate`: the events in words, for the round log.
//! - `fair`: a shoe anyone can verify: a seed's commitment, and the cards seen checked against the seed's shoe.
//! - `design`: the chips, their colours and the atlases' cells the game and the asset tool share.
//! - `places`: where Holecard keeps its data on this machine.
//!
//! A new rule goes in the engine (`engine::rules`); a new kind of table file or something every front end keeps of
//! a round goes here.

pub mod design;
pub mod fair;
pub mod history;
pub mod level;
pub mod narrate;
pub mod places;
pub mod record;
pub mod replay;
pub mod table;

pub use table::{Host, Names, News, Occupant, Snapshot};
