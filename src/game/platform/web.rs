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
    document()
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

/// The page's document.
fn document() -> Option<web_sys::Document> {
    web_sys::window().and_then(|w| w.document())
}

/// The id bevy_egui gives its hidden input: on a phone's browser the page's focus goes to it while a text field is
/// being typed in, so the phone's keyboard opens, and what is typed there reaches egui.
const AGENT: &str = "egui_text_agent";

/// A phone's browser, as bevy_egui tells one (by its user agent): only there does its hidden input take the typing.
fn phone() -> bool {
    const PHONES: [&str; 6] = ["Android", "iPhone", "iPad", "iPod", "webOS", "BlackBerry"];
    web_sys::window()
        .and_then(|w| w.navigator().user_agent().ok())
        .is_some_and(|agent| PHONES.iter().any(|name| agent.contains(name)))
}

/// The hidden input, if the page has it.
fn agent() -> Option<web_sys::Element> {
    document().and_then(|d| d.get_element_by_id(AGENT))
}

/// Whether the hidden input has the page's focus (the phone's keyboard types into it).
pub(crate) fn agent_focused() -> bool {
    document()
        .and_then(|d| d.active_element())
        .is_some_and(|e| e.id() == AGENT)
}

thread_local! {
    /// Enter keys pressed on a phone's keyboard since the last frame. They go to the hidden input, whose listeners
    /// (bevy_egui's) pass on the letters typed and Backspace but not Enter, so a field answered with Enter (a
    /// drill's answer, the chat) never heard it.
    static ENTERS: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Listens to the hidden input (on a phone's browser; elsewhere the canvas has the focus and its keys reach egui
/// through winit, which wakes the window): Enter is kept for egui, and every key and every letter typed there wakes
/// the window, which otherwise waits for the player while the phone's keyboard is open (bevy_egui's own listeners
/// hand the letters to a frame that would not come).
pub(crate) fn listen_to_the_agent(
    waker: Option<bevy::prelude::Res<crate::game::model::frames::Waker>>,
) {
    use web_sys::wasm_bindgen::{JsCast, closure::Closure};
    if !phone() {
        return;
    }
    let Some(document) = document() else {
        return;
    };
    let waker = waker.map(|waker| (*waker).clone()).unwrap_or_default();
    let on_agent = |event: &web_sys::Event| {
        event
            .target()
            .and_then(|target| target.dyn_into::<web_sys::Element>().ok())
            .is_some_and(|element| element.id() == AGENT)
    };
    let keys = {
        let waker = waker.clone();
        Closure::<dyn FnMut(web_sys::KeyboardEvent)>::new(move |event: web_sys::KeyboardEvent| {
            if !on_agent(&event) {
                return;
            }
            if event.key() == "Enter" && !event.is_composing() {
                ENTERS.with(|enters| enters.set(enters.get() + 1));
            }
            waker.wake();
        })
    };
    // What the keyboard types arrives as input events (a phone's keyboard sends few key events: a word chosen from
    // its suggestions is one input), and a word being composed ends with compositionend.
    let typed = Closure::<dyn FnMut(web_sys::Event)>::new(move |event: web_sys::Event| {
        if on_agent(&event) {
            waker.wake();
        }
    });
    let mut listening = document
        .add_event_listener_with_callback("keydown", keys.as_ref().unchecked_ref())
        .is_ok();
    for kind in ["input", "compositionend"] {
        listening &= document
            .add_event_listener_with_callback(kind, typed.as_ref().unchecked_ref())
            .is_ok();
    }
    if !listening {
        warn(
            "the phone's keyboard could not be listened to: what is typed shows at the next touch, and the \
             fields' buttons still answer",
        );
    }
    // The listeners live as long as the page.
    keys.forget();
    typed.forget();
}

/// Gives egui the Enter keys pressed on a phone's keyboard (a press and a release each).
pub(crate) fn pass_on_enter(
    mut writer: bevy::prelude::MessageWriter<bevy_egui::input::EguiInputEvent>,
    primary: bevy::prelude::Query<
        bevy::prelude::Entity,
        bevy::prelude::With<bevy_egui::PrimaryEguiContext>,
    >,
) {
    let enters = ENTERS.with(|enters| enters.replace(0));
    let Ok(context) = primary.single() else {
        return;
    };
    for _ in 0..enters {
        for pressed in [true, false] {
            writer.write(bevy_egui::input::EguiInputEvent {
                context,
                event: bevy_egui::egui::Event::Key {
                    key: bevy_egui::egui::Key::Enter,
                    physical_key: Some(bevy_egui::egui::Key::Enter),
                    pressed,
                    repeat: false,
                    modifiers: bevy_egui::egui::Modifiers::NONE,
                },
            });
        }
    }
}

/// The page has the focus while its hidden input has it: the browser takes the canvas for unfocused then (the
/// window's `focused` is false), and egui would not show the field being typed in as focused, nor draw its cursor,
/// nor say it has the focus (`Response::has_focus`).
pub(crate) fn agent_is_the_page(
    mut inputs: bevy::prelude::Query<
        &mut bevy_egui::EguiInput,
        bevy::prelude::With<bevy_egui::PrimaryEguiContext>,
    >,
) {
    if agent_focused() {
        for mut input in &mut inputs {
            input.0.focused = true;
        }
    }
}

/// On a phone, the hidden input has the page's focus exactly while a text field has egui's, so the keyboard is open
/// while a field is typed in and shut when none is. bevy_egui opens it when a tap ends only if the frame before had
/// the field focused or under the finger, which a quick tap (down and up within one frame) misses, leaving the focus
/// on the canvas and the keyboard shut. Runs after egui's pass, on what it settled.
pub(crate) fn keyboard_follows_the_field(
    mut contexts: bevy_egui::EguiContexts,
    mut phone_browser: bevy::prelude::Local<Option<bool>>,
) {
    if !*phone_browser.get_or_insert_with(phone) {
        return;
    }
    let Ok(ctx) = contexts.ctx_mut() else {
        return;
    };
    let typing = ctx.text_edit_focused();
    if typing != agent_focused() {
        bevy_egui::text_agent::update_text_agent(typing);
    }
}

/// The page's hidden input asks for the number pad while the field with the keyboard takes a number
/// (`pages::theme::takes_a_number`), and the letters otherwise.
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
    if let Some(agent) = agent() {
        let mode = if wanted { "decimal" } else { "text" };
        if agent.set_attribute("inputmode", mode).is_ok() {
            *numeric = wanted;
        }
    }
}
