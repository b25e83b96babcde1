//! The Bevy game: the casino table in ECS, driven by the engine. Built with the default `game` feature.

pub mod address;
pub mod app;
pub mod art;
pub mod asset_tracking;
pub mod audio;
pub mod headless;
pub mod history;
pub mod hud;
pub mod layout;
pub mod lettering;
pub mod motion;
pub mod online;
pub mod player;
pub mod replay;
pub mod save;
pub mod screen;
pub mod seats;
pub mod session;
pub mod settings;
pub mod table;
pub mod view;
#[cfg(target_arch = "wasm32")]
pub mod web;
pub mod window;

pub use app::{AppPlugin, Display};
