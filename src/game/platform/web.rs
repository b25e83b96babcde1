//! The browser's side of the game (wasm32 only): the page's address as the command line, the game stopped with
//! its reason shown on the page, and the marks the page's loading screen waits for.

use web_sys::wasm_bindgen::JsValue;

/// The page's query string as command-line words: `?seed=7&speed=fast&autoplay` becomes
/// `holecard --seed 7 --speed fast --autoplay`. Only the options a player may choose in a browser pass; anything
/// else is reported in the console and left out.
pub fn arguments() -> Vec<String> {
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    let (words, refused) = crate::game::platform::address::address_arguments(&search);
    for word in refused {
        warn(&format!(
            "the address option `{word}` is not one the browser game takes (seed, level, speed, start, \
             autoplay); it is left out"
        ));
    }
    words
}

/// The folder the page serves this build's assets from: `scripts/build-web` names it by a hash of their contents
/// (`assets/3f9c0a1b2c4d`) and writes it into the page as `<html data-assets="…">`, so a browser may keep the files
/// for good and a new build's assets are never taken for the old ones. A page without it (a hand-made one) gives
/// `assets`.
pub fn asset_folder() -> String {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
        .and_then(|html| html.get_attribute("data-assets"))
        .filter(|folder| crate::game::platform::address::is_asset_folder(folder))
        .unwrap_or_else(|| "assets".to_string())
}

/// A warning in the browser's console: something was ignored and the game goes on.
pub fn warn(message: &str) {
    web_sys::console::warn_1(&JsValue::from_str(&format!("holecard: {message}")));
}

/// The game cannot start: the error goes to the console and to the page, which shows it in place of the loading
/// bar (a `holecard-failed` event whose detail is the message).
pub fn fail(message: &str) {
    web_sys::console::error_1(&JsValue::from_str(&format!("holecard: {message}")));
    let Some(window) = web_sys::window() else {
        return;
    };
    let init = web_sys::CustomEventInit::new();
    init.set_detail(&JsValue::from_str(message));
    if let Ok(event) = web_sys::CustomEvent::new_with_event_init_dict("holecard-failed", &init) {
        let _ = window.dispatch_event(&event);
    }
}

/// Tells the page that a moment has come: a `performance.mark(name)` (so the page can time it from navigation) and
/// a `name` event on the window (the page's loading screen steps aside on `holecard-ready`).
pub fn announce(name: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    if let Some(performance) = window.performance() {
        let _ = performance.mark(name);
    }
    if let Ok(event) = web_sys::CustomEvent::new(name) {
        let _ = window.dispatch_event(&event);
    }
}

/// The page's hidden input that bevy_egui focuses for a phone's keyboard (`egui_text_agent`) asks for the number pad
/// while the field with the keyboard takes a number (`pages::theme::takes_a_number`), and the letters otherwise.
pub(crate) fn number_pad(
    mut contexts: bevy_egui::EguiContexts,
    mut numeric: bevy::prelude::Local<bool>,
) {
    let Ok(ctx) = contexts.ctx_mut() else {
        return;
    };
    let wanted = crate::game::pages::theme::takes_a_number(ctx);
    if wanted == *numeric {
        return;
    }
    let agent = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("egui_text_agent"));
    if let Some(agent) = agent {
        let mode = if wanted { "decimal" } else { "text" };
        if agent.set_attribute("inputmode", mode).is_ok() {
            *numeric = wanted;
        }
    }
}
