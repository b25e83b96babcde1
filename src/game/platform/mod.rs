//! Where the game runs: the app put together from the rooms below (`app`), a window or the browser page's canvas
//! (`window`), the headless run for soaks, tests and frame costs (`headless`), the browser's glue (`web`), the
//! page's address read as a command line (`address`) and the assets the native game carries (`carried`). The only
//! room that may use every other.

pub mod address;
pub mod app;
#[cfg(not(target_arch = "wasm32"))]
pub(crate) mod carried;
pub mod headless;
#[cfg(target_arch = "wasm32")]
pub mod web;
pub mod window;
