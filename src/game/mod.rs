//! The Bevy game: the casino table in ECS, driven by the engine. Built with the default `game` feature.
//!
//! Rooms, bottom up; an arrow only points down (or sideways to a lower room):
//! - `model`: the table as a seat sees it, headless-safe (screens, session, settings, the table's entities, the
//!   player's intents and bet slip).
//! - `local`: the game's own host driving the model (the table, companions' pace, the player's seat, replays).
//! - `keep`: what is kept on disk or in localStorage (the sitting, its journal, the hand history, preferences).
//! - `online`: the casino client driving the same model (the connection, the wire, a seat at a casino's table).
//! - `felt`: what the table looks and sounds like (layout, art, fonts, lettering, motion, view, audio).
//! - `pages`: every egui page and the table's HUD.
//! - `platform`: the app, the window, the headless run, the browser glue.

pub mod felt;
pub mod keep;
pub mod local;
pub mod model;
pub mod online;
pub mod pages;
pub mod platform;

pub use platform::app::{AppPlugin, Display};
