//! The Bevy game: the casino table in ECS, driven by the engine. Built with the default `game` feature.
//!
//! Rooms, bottom up; an arrow only points down:
//! - `model`: the table as a seat sees it, headless-safe: screens, session, settings, the table's entities, the
//!   player's intents and choices, the seam the pages and the drivers meet at (`seat`, `casino`), what the seat has
//!   seen and the advisor.
//! - `store`: where the game keeps things (files in the data folder, or localStorage), one copy at a time.
//! - `keep`: the player's things kept through the store: the sitting's save and journal, the hand history, the
//!   preferences, the practice record.
//! - `local` and `online`: the two drivers of the model, side by side: the game's own host (its table, companions'
//!   pace, the player's seat, replays, the sitting kept), and a casino's client (the connection, the wire, a seat at a
//!   casino's table). Neither names the other.
//! - `felt`: what the table looks and sounds like (layout, art, fonts, lettering, motion, view, audio).
//! - `pages`: every egui page and the table's HUD; they name neither driver.
//! - `platform`: the app, the window, the headless run, the browser glue; the only room that names them all.
//!
//! Where a new thing goes: a page in `pages/` (its state and requests in `model/`), a panel of the felt in `felt/`,
//! a message on the wire in `crate::protocol` (then `online/wire.rs` and the server), a new kind of table driver
//! beside `local/` and `online/`, filling the model's `seat` seam.

pub mod felt;
pub mod keep;
pub mod local;
pub mod model;
pub mod online;
pub mod pages;
pub mod platform;
pub mod store;

pub use platform::app::{AppPlugin, Display};
