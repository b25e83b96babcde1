//! The wire to the casino: one WebSocket connection (ewebsock: a thread natively, the page's WebSocket in the
//! browser) and HTTP requests (ehttp) for the accounts API. Everything the rest of the game sees of the network goes
//! through [`Connection`] and [`Requests`], so either client crate can be swapped here alone.

use crate::game::model::casino::Asked;
use crate::game::model::frames::Waker;
use crate::protocol::{ClientMessage, ServerMessage};
use std::sync::{Arc, Mutex};

/// Where the casino is: its WebSocket and its HTTP API.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Address {
    /// `ws://host:port/ws` (or `wss://`).
    pub ws: String,
    /// `http://host:port` (or `https://`), no slash at the end; empty in the browser, where the page's own origin
    /// answers.
    pub http: String,
}

impl Address {
    /// The address a player gave: `ws://host:port`, `wss://host`, `http(s)://…` or a bare `host:port` (plain
    /// `ws://`). A path after the host is dropped: the server answers at `/ws` and `/api`.
    pub fn parse(given: &str) -> Result<Address, String> {
        let given = given.trim();
        let (secure, rest) = if let Some(rest) = given.strip_prefix("wss://") {
            (true, rest)
        } else if let Some(rest) = given.strip_prefix("https://") {
            (true, rest)
        } else if let Some(rest) = given
            .strip_prefix("ws://")
            .or_else(|| given.strip_prefix("http://"))
        {
            (false, rest)
        } else if given.contains("://") {
            return Err(format!(
                "`{given}` is not a casino's address: use ws://HOST:PORT (or wss:// behind TLS)"
            ));
        } else {
            (false, given)
        };
        let host = rest.split('/').next().unwrap_or_default();
        if host.is_empty() || host.contains(char::is_whitespace) {
            return Err(format!(
                "`{given}` has no host: use ws://HOST:PORT, e.g. ws://127.0.0.1:8080"
            ));
        }
        let (ws, http) = if secure {
            ("wss", "https")
        } else {
            ("ws", "http")
        };
        Ok(Address {
            ws: format!("{ws}://{host}/ws"),
            http: format!("{http}://{host}"),
        })
    }

    /// The casino that served this page (the browser build is served by the server).
    #[cfg(target_arch = "wasm32")]
    pub fn of_the_page() -> Result<Address, String> {
        let location = web_sys::window().ok_or("no window")?.location();
        let host = location.host().map_err(|_| "the page has no host")?;
        let secure = location.protocol().is_ok_and(|p| p == "https:");
        Ok(Address {
            ws: format!("{}://{host}/ws", if secure { "wss" } else { "ws" }),
            http: String::new(),
        })
    }

    /// The WebSocket at `path` of this casino (`/ws/b`: another of its servers behind the same address). A path
    /// that is not one (from a listing that does not say one) is the casino's own `/ws`.
    pub fn at(&self, path: &str) -> String {
        let scheme = self.ws.split("://").next().unwrap_or("ws");
        let fine = path.starts_with('/')
            && !path.contains("//")
            && path
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "/-_.".contains(c));
        format!(
            "{scheme}://{}{}",
            self.host(),
            if fine { path } else { "/ws" }
        )
    }

    /// A page of this casino as people open it: `http://host:port/path` (`https://` behind TLS).
    pub fn page(&self, path: &str) -> String {
        let scheme = if self.ws.starts_with("wss://") {
            "https"
        } else {
            "http"
        };
        format!("{scheme}://{}{path}", self.host())
    }

    /// What to show of it: the host.
    pub fn host(&self) -> &str {
        self.ws
            .split("://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or(&self.ws)
    }
}

/// What the connection heard.
#[derive(Debug)]
pub enum Heard {
    /// The connection is open: say hello.
    Opened,
    /// A message from the server.
    Message(ServerMessage),
    /// A frame that is not a message of this protocol (the server's problem, said in words; the connection goes on).
    Garbled(String),
    /// The connection is gone, and why.
    Closed(String),
}

/// One WebSocket connection to the casino.
pub struct Connection {
    sender: ewebsock::WsSender,
    receiver: ewebsock::WsReceiver,
    /// Every text frame received, in order, when asked for (`record`): what the tests read to prove what a client
    /// is and is not sent.
    pub frames: Option<Vec<String>>,
}

/// The most a single frame from the server may be: a `joined` with a full table is a few KiB.
const MAX_FRAME: usize = 1 << 20;

impl Connection {
    /// Starts connecting (it opens in the background: [`Heard::Opened`] says when). Whatever it hears wakes the
    /// window (`wake`), which waits for the player between frames.
    pub fn open(url: &str, record: bool, wake: &Waker) -> Result<Connection, String> {
        let options = ewebsock::Options {
            max_incoming_frame_size: MAX_FRAME,
            ..ewebsock::Options::default()
        };
        let wake = wake.clone();
        let (sender, receiver) = ewebsock::connect_with_wakeup(url, options, move || wake.wake())
            .map_err(|e| format!("{url}: {e}"))?;
        Ok(Connection {
            sender,
            receiver,
            frames: record.then(Vec::new),
        })
    }

    /// Sends a message.
    pub fn send(&mut self, message: &ClientMessage) {
        match serde_json::to_string(message) {
            Ok(text) => self.sender.send(ewebsock::WsMessage::Text(text)),
            // Our own messages always serialize; if one ever does not, say so rather than send half of it.
            Err(e) => bevy::log::error!("cannot write {message:?}: {e}"),
        }
    }

    /// Everything heard since the last call, in order.
    pub fn poll(&mut self) -> Vec<Heard> {
        let mut heard = Vec::new();
        while let Some(event) = self.receiver.try_recv() {
            match event {
                ewebsock::WsEvent::Opened => heard.push(Heard::Opened),
                ewebsock::WsEvent::Message(ewebsock::WsMessage::Text(text)) => {
                    let message = serde_json::from_str::<ServerMessage>(&text).map_err(|e| {
                        format!(
                            "the server sent something this game does not read ({e} at line {}, column {})",
                            e.line(),
                            e.column()
                        )
                    });
                    if let Some(frames) = self.frames.as_mut() {
                        frames.push(text);
                    }
                    heard.push(match message {
                        Ok(message) => Heard::Message(message),
                        Err(why) => Heard::Garbled(why),
                    });
                }
                ewebsock::WsEvent::Message(_) => {}
                ewebsock::WsEvent::Error(why) => heard.push(Heard::Closed(why)),
                ewebsock::WsEvent::Closed => {
                    heard.push(Heard::Closed("the server closed the connection".into()))
                }
            }
        }
        heard
    }

    /// Closes the connection.
    pub fn close(mut self) {
        self.sender.close();
    }
}

/// What an HTTP request came back with: its body, or what went wrong.
pub type Answer = Result<String, Failure>;

/// Why an HTTP request brought no body back.
#[derive(Clone, Debug, PartialEq)]
pub enum Failure {
    /// Nothing answered: no casino at the address, or no network.
    NoAnswer(String),
    /// The casino answered no, in these words.
    Said(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::NoAnswer(why) => write!(f, "no answer from the casino: {why}"),
            Failure::Said(words) => f.write_str(words),
        }
    }
}

/// HTTP requests under way, each answered into a slot the game picks up from; an answer wakes the window.
#[derive(Default, Clone)]
pub struct Requests {
    answers: Arc<Mutex<Vec<(Asked, Answer)>>>,
    pub(super) wake: Waker,
}

impl Requests {
    /// Sends a request: `body` as JSON for a POST, else a GET; `token` as the bearer.
    pub fn send(
        &self,
        address: &Address,
        asked: Asked,
        path: &str,
        body: Option<String>,
        token: Option<&str>,
    ) {
        let url = format!("{}{path}", address.http);
        let mut request = match body {
            Some(body) => ehttp::Request::post(url, body.into_bytes()),
            None => ehttp::Request::get(url),
        };
        request.headers = ehttp::Headers::new(&[
            ("Accept", "application/json"),
            ("Content-Type", "application/json"),
        ]);
        if let Some(token) = token {
            request
                .headers
                .insert("Authorization", format!("Bearer {token}"));
        }
        request.timeout = Some(std::time::Duration::from_secs(15));
        let answers = self.answers.clone();
        let wake = self.wake.clone();
        ehttp::fetch(request, move |response| {
            let answer = match response {
                Ok(response) => {
                    let text = response.text().unwrap_or_default().to_string();
                    if response.ok {
                        Ok(text)
                    } else {
                        // The server's errors are `{"error": "…"}`; anything else is said with its status.
                        let said = serde_json::from_str::<serde_json::Value>(&text)
                            .ok()
                            .and_then(|v| v.get("error")?.as_str().map(str::to_string));
                        Err(Failure::Said(said.unwrap_or_else(|| {
                            format!(
                                "the server answered {} {}",
                                response.status, response.status_text
                            )
                        })))
                    }
                }
                Err(e) => Err(Failure::NoAnswer(e)),
            };
            if let Ok(mut answers) = answers.lock() {
                answers.push((asked, answer));
            }
            wake.wake();
        });
    }

    /// The answers that came back since the last call.
    pub fn take(&self) -> Vec<(Asked, Answer)> {
        self.answers
            .lock()
            .map(|mut a| std::mem::take(&mut *a))
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_is_read_as_players_write_it() {
        let plain = Address::parse("ws://127.0.0.1:8080").expect("an address");
        assert_eq!(plain.ws, "ws://127.0.0.1:8080/ws");
        assert_eq!(plain.at("/ws/b"), "ws://127.0.0.1:8080/ws/b");
        for not_a_path in [
            "ws/b",
            "//evil.example/ws",
            "/ws?x=1",
            "http://evil.example/ws",
            "",
        ] {
            assert_eq!(
                plain.at(not_a_path),
                "ws://127.0.0.1:8080/ws",
                "{not_a_path}"
            );
        }
        assert_eq!(plain.http, "http://127.0.0.1:8080");
        assert_eq!(plain.host(), "127.0.0.1:8080");
        assert_eq!(
            Address::parse("127.0.0.1:9000").map(|a| a.ws).ok(),
            Some("ws://127.0.0.1:9000/ws".into())
        );
        let secure = Address::parse("https://casino.example/play").expect("an address");
        assert_eq!(secure.ws, "wss://casino.example/ws");
        assert_eq!(secure.http, "https://casino.example");
        for wrong in ["", "ftp://x", "ws://", "ws:// spaced"] {
            let error = Address::parse(wrong).expect_err(wrong);
            assert!(error.contains("ws://"), "{wrong}: {error}");
        }
    }
}
