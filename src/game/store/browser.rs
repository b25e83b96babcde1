//! The browser's localStorage (wasm32 only), where the [`Store`](super::Store) keeps files in a browser: each file a
//! key under `holecard/`, every refusal an error that names the key.

use web_sys::wasm_bindgen::JsValue;

/// The localStorage key of a stored file.
pub fn storage_key(name: &str) -> String {
    format!("holecard/{name}")
}

fn storage() -> Result<web_sys::Storage, String> {
    web_sys::window()
        .ok_or("no window")?
        .local_storage()
        .map_err(|e| format!("localStorage refused: {}", describe(&e)))?
        .ok_or_else(|| "this browser has no localStorage".to_string())
}

/// Whether localStorage can be read and written here (private windows and blocked storage cannot).
pub fn storage_usable() -> bool {
    let probe = storage_key("probe");
    storage().is_ok_and(|s| s.set_item(&probe, "1").is_ok() && s.remove_item(&probe).is_ok())
}

/// Whether this tab keeps the game's things: the page's loader asked for the Web Lock `holecard-data` before starting
/// the game and set `holecardKeeps` to whether it got it (the lock is held until the tab closes). A page without the
/// loader's word (or a browser without Web Locks, where the loader says yes) keeps.
pub fn this_tab_keeps() -> bool {
    let Some(window) = web_sys::window() else {
        return true;
    };
    web_sys::js_sys::Reflect::get(&window, &JsValue::from_str("holecardKeeps"))
        .ok()
        .and_then(|keeps| keeps.as_bool())
        .unwrap_or(true)
}

/// The text under `name`, None if nothing is kept there.
pub fn storage_get(name: &str) -> Result<Option<String>, String> {
    let key = storage_key(name);
    storage()?
        .get_item(&key)
        .map_err(|e| format!("localStorage:{key}: {}", describe(&e)))
}

/// Keeps `text` under `name`; a full or refusing storage is an error naming the key.
pub fn storage_set(name: &str, text: &str) -> Result<(), String> {
    let key = storage_key(name);
    storage()?
        .set_item(&key, text)
        .map_err(|e| format!("localStorage:{key}: {}", describe(&e)))
}

/// Forgets `name`.
pub fn storage_remove(name: &str) {
    if let Ok(storage) = storage() {
        let _ = storage.remove_item(&storage_key(name));
    }
}

fn describe(error: &JsValue) -> String {
    error
        .as_string()
        .or_else(|| js_sys_message(error))
        .unwrap_or_else(|| format!("{error:?}"))
}

fn js_sys_message(error: &JsValue) -> Option<String> {
    web_sys::js_sys::Reflect::get(error, &JsValue::from_str("message"))
        .ok()
        .and_then(|m| m.as_string())
}
