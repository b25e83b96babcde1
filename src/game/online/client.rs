//! The account and the connection as the game keeps them: the kept login, the connection's status with its
//! back-off, the lobby, the chat, the clock, and the requests and messages on their way.

use super::*;

/// An account's session on a casino: the name and the token `POST /api/login` gave (the token is the account's key:
/// it stays in the player's own data folder and is never shown).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Login {
    /// The casino's WebSocket address it is a session of.
    pub server: String,
    /// The account's name.
    pub name: String,
    /// The session token.
    pub token: String,
}

/// Where the connection is.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    /// Not connected, and not trying.
    Offline,
    /// Opening the connection, or saying hello on it, since this time (real seconds).
    Connecting {
        /// When it started.
        since: f64,
    },
    /// Welcomed: playing.
    Open,
    /// The connection dropped while playing; the next try is at `retry_at`.
    Lost {
        /// Why, in words.
        why: String,
        /// Tries so far.
        attempt: u32,
        /// When the next try goes (real seconds).
        retry_at: f64,
    },
}

/// A line of the table's chat panel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatLine {
    /// Who said it; none for the table's notices (someone sat down, left, lost the connection…).
    pub from: Option<String>,
    /// What, as text.
    pub text: String,
}

/// The turn clock the server started: whose, and when it runs out (real seconds).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    /// The seat it waits for, or none for everyone's bets.
    pub seat: Option<SeatId>,
    /// When it runs out.
    pub ends_at: f64,
}

/// The table the player is at online.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AtTable {
    /// The table's id.
    pub id: String,
    /// The player's seat, or none when watching.
    pub seat: Option<SeatId>,
}

/// Everything of playing online that the game keeps between frames.
#[derive(Resource)]
pub struct Online {
    /// The casino.
    pub address: Address,
    /// The account's session, when logged in.
    pub login: Option<Login>,
    /// The connection.
    pub status: Status,
    /// The name the casino welcomed the player under, and whether it is an account's.
    pub welcomed: Option<(String, bool)>,
    /// The tables, as the lobby last said.
    pub lobby: Vec<Listing>,
    /// The table the player is at.
    pub table: Option<AtTable>,
    /// The last news number taken in.
    pub seq: u64,
    /// The chat panel's lines, newest last.
    pub chat: VecDeque<ChatLine>,
    /// Chat lines not seen yet (the panel is closed).
    pub unread: usize,
    /// The clock the table is running.
    pub clock: Option<Clock>,
    /// What went wrong, in words, for the page the player is on.
    pub problem: Option<String>,
    /// The leaderboard, once asked for.
    pub leaderboard: Option<Result<Vec<Standing>, String>>,
    /// The player's own hands from the server, once asked for.
    pub history: Option<Result<Vec<PlayedHand>, String>>,
    /// An account's chips and highscore after a reset away from the tables.
    pub balance: Option<(Cents, Cents)>,
    /// An HTTP request under way for these.
    pub asking: Vec<Asked>,
    /// The guest name to say hello with (none: the account's token).
    pub guest: Option<String>,
    /// Keep every frame received (the tests read them).
    pub record_frames: bool,
    /// Every frame received, when recording.
    pub frames: Vec<String>,
    /// Sit at the first free seat once the table the lobby picked is joined.
    pub sit_on_arrival: bool,
    /// The player just left a casino's table: the Title opens on the lobby.
    pub back_to_lobby: bool,
    /// A play was sent and the table has not answered with news yet: another would be a second decision.
    pub awaiting: bool,
    /// Kept in the data folder (none in tests).
    pub keep_login: bool,
    pub(super) wanted: bool,
    pub(super) outbox: VecDeque<ClientMessage>,
    pub(super) inbox: VecDeque<ServerMessage>,
    pub(super) requests: Requests,
    /// The token the last `welcome` gave: a guest's key to its seat after a dropped connection.
    pub(super) seat_token: Option<String>,
    /// Welcomed at least once since connecting: a later drop reconnects rather than giving up.
    pub(super) was_open: bool,
    /// The connection is to move to `address` (a table held by another of the casino's servers).
    pub(super) moving: bool,
}

impl Online {
    /// Playing at `address`, with the session kept from an earlier visit (when it is this casino's).
    pub fn new(address: Address) -> Online {
        let login = crate::game::keep::store::Store::platform()
            .and_then(|store| match store.read(LOGIN_FILE) {
                Ok(text) => text,
                Err(e) => {
                    warn!("online: the kept session is not read: {e}");
                    None
                }
            })
            .and_then(|text| match serde_json::from_str::<Login>(&text) {
                Ok(login) => Some(login),
                Err(e) => {
                    warn!(
                        "online: {LOGIN_FILE}: {e} (line {}, column {}); log in again",
                        e.line(),
                        e.column()
                    );
                    None
                }
            })
            .filter(|login| login.server == address.ws);
        Online {
            login,
            keep_login: true,
            ..Online::apart(address)
        }
    }

    /// Playing at `address` with nothing read from or kept in the data folder (the tests' clients).
    pub fn apart(address: Address) -> Online {
        Online {
            address,
            login: None,
            status: Status::Offline,
            welcomed: None,
            lobby: Vec::new(),
            table: None,
            seq: 0,
            chat: VecDeque::new(),
            unread: 0,
            clock: None,
            problem: None,
            leaderboard: None,
            history: None,
            balance: None,
            asking: Vec::new(),
            guest: None,
            record_frames: false,
            frames: Vec::new(),
            sit_on_arrival: false,
            back_to_lobby: false,
            awaiting: false,
            keep_login: false,
            wanted: false,
            outbox: VecDeque::new(),
            inbox: VecDeque::new(),
            requests: Requests::default(),
            seat_token: None,
            was_open: false,
            moving: false,
        }
    }

    /// Connects (as the logged-in account, or as a guest named `guest`).
    pub fn connect(&mut self, guest: Option<String>) {
        self.problem = None;
        self.wanted = true;
        self.was_open = false;
        self.seat_token = None;
        self.guest = guest;
        if !matches!(self.status, Status::Connecting { .. } | Status::Open) {
            self.status = Status::Offline;
        }
    }

    /// Goes offline (back to the Title).
    pub fn disconnect(&mut self) {
        self.wanted = false;
        self.table = None;
        self.welcomed = None;
        self.clock = None;
        self.outbox.clear();
        self.inbox.clear();
    }

    /// Goes to the lobby's `table`: watches it, and sits at its first free seat once there when `sit`. A table held
    /// by another of the casino's servers behind one address (its listing's `ws`, as `/ws/b`) is played over a
    /// connection to that server: the connection moves there first, as the same player (an account by its token, a
    /// guest by name; a guest's session is the server's own).
    pub fn go_to_table(&mut self, table: String, sit: bool) {
        let path = self
            .lobby
            .iter()
            .find(|listing| listing.id == table)
            .and_then(|listing| listing.ws.clone());
        let url = self.address.at(path.as_deref().unwrap_or("/ws"));
        if url != self.address.ws {
            self.address.ws = url;
            self.moving = true;
            self.seat_token = None;
            self.table = None;
            self.outbox.clear();
        }
        self.sit_on_arrival = sit;
        self.problem = None;
        self.send(ClientMessage::Watch { table });
    }

    /// Sends a message once welcomed (in order).
    pub fn send(&mut self, message: ClientMessage) {
        self.outbox.push_back(message);
    }

    /// Logs in (`register`: makes the account first) over the casino's HTTP API; the answer comes in a later frame.
    pub fn log_in(&mut self, name: &str, password: &str, register: bool) {
        let body = serde_json::json!({ "name": name.trim(), "password": password }).to_string();
        let path = if register {
            "/api/register"
        } else {
            "/api/login"
        };
        self.problem = None;
        self.ask(Asked::Login, path, Some(body));
    }

    /// Forgets the account's session here (and asks the casino to end it).
    pub fn log_out(&mut self) {
        if let Some(login) = self.login.take() {
            self.requests.send(
                &self.address,
                Asked::Logout,
                "/api/logout",
                Some(String::new()),
                Some(&login.token),
            );
        }
        if let Some(store) = crate::game::keep::store::Store::platform().filter(|_| self.keep_login)
        {
            store.remove(LOGIN_FILE);
        }
        self.disconnect();
    }

    /// Asks for the leaderboard.
    pub fn ask_leaderboard(&mut self) {
        self.leaderboard = None;
        self.ask(Asked::Leaderboard, "/api/leaderboard?limit=50", None);
    }

    /// Asks for the account's own hands.
    pub fn ask_history(&mut self) {
        self.history = None;
        self.ask(Asked::History, "/api/history?limit=100", None);
    }

    pub(super) fn ask(&mut self, asked: Asked, path: &str, body: Option<String>) {
        let token = self.login.as_ref().map(|l| l.token.clone());
        self.requests
            .send(&self.address, asked, path, body, token.as_deref());
        self.asking.push(asked);
    }

    /// The connection is up and welcomed.
    pub fn is_open(&self) -> bool {
        self.status == Status::Open
    }

    /// Says what went wrong, for the page.
    pub(super) fn say(&mut self, problem: impl Into<String>) {
        let problem = problem.into();
        warn!("online: {problem}");
        self.problem = Some(problem);
    }

    pub(super) fn hear_chat(&mut self, line: ChatLine) {
        if self.chat.len() == CHAT_LINES {
            self.chat.pop_front();
        }
        self.chat.push_back(line);
        self.unread += 1;
    }

    /// The connection failed: try again with back-off when it had been playing, else say why and stop.
    pub(super) fn lost(&mut self, why: String, now: f64) {
        self.clock = None;
        self.awaiting = false;
        if !self.was_open {
            self.wanted = false;
            self.status = Status::Offline;
            self.say(format!(
                "Cannot reach the casino at {}: {why}",
                self.address.host()
            ));
            return;
        }
        let attempt = match &self.status {
            Status::Lost { attempt, .. } => attempt + 1,
            _ => 1,
        };
        let wait = (0.5 * 2f64.powi(attempt.min(8) as i32 - 1)).min(MOST_BACK_OFF);
        warn!("online: the connection dropped ({why}); trying again in {wait:.1} s");
        self.status = Status::Lost {
            why,
            attempt,
            retry_at: now + wait,
        };
    }
}
