//! The account and the connection as the driver keeps them: the kept login, the connection with its back-off, and
//! the requests and messages on their way; what the player asks of the casino, done.

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

/// The connection to a casino and everything of it the pages do not see: the address, the kept session's token, the
/// messages on their way, the HTTP questions under way and the state of reconnecting. What the pages see is the
/// model's [`Casino`], which the systems here fill.
#[derive(Resource)]
pub struct Online {
    /// The casino.
    pub address: Address,
    /// The account's session, when logged in.
    pub login: Option<Login>,
    /// The last news number taken in.
    pub seq: u64,
    /// The guest name to say hello with (none: the account's token).
    pub guest: Option<String>,
    /// Keep every frame received (the tests read them).
    pub record_frames: bool,
    /// Every frame received, when recording.
    pub frames: Vec<String>,
    /// Sit at the first free seat once the table the lobby picked is joined.
    pub sit_on_arrival: bool,
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
    /// A kept round the casino sent back, to open on the felt.
    pub(super) kept_round: Option<Replayed>,
}

impl Online {
    /// Playing at `address`, with the session kept from an earlier visit (when it is this casino's).
    pub fn new(address: Address) -> Online {
        let login = Store::platform()
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

    /// What the casino sends and answers wakes the window through `waker` (it waits for the player between frames).
    pub fn wake_with(&mut self, waker: crate::game::model::frames::Waker) {
        self.requests.wake = waker;
    }

    /// Playing at `address` with nothing read from or kept in the data folder (the tests' clients).
    pub fn apart(address: Address) -> Online {
        Online {
            address,
            login: None,
            seq: 0,
            guest: None,
            record_frames: false,
            frames: Vec::new(),
            sit_on_arrival: false,
            awaiting: false,
            keep_login: false,
            wanted: false,
            outbox: VecDeque::new(),
            inbox: VecDeque::new(),
            requests: Requests::default(),
            seat_token: None,
            was_open: false,
            moving: false,
            kept_round: None,
        }
    }

    /// The casino as the pages first see it: where it is, and the account whose session is kept.
    pub fn casino(&self) -> Casino {
        Casino::at(
            self.address.host(),
            self.login.as_ref().map(|login| login.name.clone()),
        )
    }

    /// Connects (as the logged-in account, or as a guest named `guest`).
    pub fn connect(&mut self, casino: &mut Casino, guest: Option<String>) {
        casino.problem = None;
        casino.unreached = false;
        self.wanted = true;
        self.was_open = false;
        self.seat_token = None;
        self.guest = guest;
        if !matches!(casino.status, Status::Connecting { .. } | Status::Open) {
            casino.status = Status::Offline;
        }
    }

    /// Plays at the casino at `given` from now on (not connected yet), or says why that is no address. A session
    /// kept for another casino is not sent there.
    pub fn move_to(&mut self, casino: &mut Casino, given: &str) {
        match Address::parse(given) {
            Ok(address) => {
                if self
                    .login
                    .as_ref()
                    .is_some_and(|login| login.server != address.ws)
                {
                    self.login = None;
                    casino.account = None;
                }
                casino.host = address.host().to_string();
                casino.problem = None;
                casino.unreached = false;
                self.address = address;
            }
            Err(why) => casino.say(why),
        }
    }

    /// Goes offline (back to the Title).
    pub fn disconnect(&mut self, casino: &mut Casino) {
        self.wanted = false;
        casino.table = None;
        casino.welcomed = None;
        casino.clock = None;
        self.outbox.clear();
        self.inbox.clear();
    }

    /// Goes to the lobby's `table`: watches it, and sits at its first free seat once there when `sit`. A table held
    /// by another of the casino's servers behind one address (its listing's `ws`, as `/ws/b`) is played over a
    /// connection to that server: the connection moves there first, as the same player (an account by its token, a
    /// guest by name; a guest's session is the server's own).
    pub fn go_to_table(&mut self, casino: &mut Casino, table: String, sit: bool) {
        let path = casino
            .lobby
            .iter()
            .find(|listing| listing.id == table)
            .and_then(|listing| listing.ws.clone());
        let url = self.address.at(path.as_deref().unwrap_or("/ws"));
        if url != self.address.ws {
            self.address.ws = url;
            self.moving = true;
            self.seat_token = None;
            casino.table = None;
            self.outbox.clear();
        }
        self.sit_on_arrival = sit;
        casino.problem = None;
        self.send(ClientMessage::Watch { table });
    }

    /// Sends a message once welcomed (in order).
    pub fn send(&mut self, message: ClientMessage) {
        self.outbox.push_back(message);
    }

    /// Logs in (`register`: makes the account first) over the casino's HTTP API; the answer comes in a later frame.
    pub fn log_in(&mut self, casino: &mut Casino, name: &str, password: &str, register: bool) {
        let body = serde_json::json!({ "name": name.trim(), "password": password }).to_string();
        let path = if register {
            "/api/register"
        } else {
            "/api/login"
        };
        casino.problem = None;
        self.ask(casino, Asked::Login, path, Some(body));
    }

    /// Forgets the account's session here (and asks the casino to end it).
    pub fn log_out(&mut self, casino: &mut Casino) {
        if let Some(login) = self.login.take() {
            self.requests.send(
                &self.address,
                Asked::Logout,
                "/api/logout",
                Some(String::new()),
                Some(&login.token),
            );
        }
        casino.account = None;
        self.forget_the_kept_login();
        self.disconnect(casino);
    }

    /// The kept session is gone from the data folder (when it is kept there).
    pub(super) fn forget_the_kept_login(&self) {
        if let Some(store) = Store::platform().filter(|_| self.keep_login) {
            store.remove(LOGIN_FILE);
        }
    }

    /// Asks for the leaderboard.
    pub fn ask_leaderboard(&mut self, casino: &mut Casino) {
        casino.leaderboard = None;
        self.ask(
            casino,
            Asked::Leaderboard,
            "/api/leaderboard?limit=50",
            None,
        );
    }

    /// Asks for a round the casino kept, to watch it again on the felt (it opens when the answer comes).
    pub fn watch_again(&mut self, casino: &mut Casino, table: &str, round: u64) {
        casino.problem = None;
        let path = crate::protocol::Replay::path(table, round);
        self.ask(casino, Asked::Hand, &format!("/api{path}"), None);
    }

    /// Asks for the account's own hands.
    pub fn ask_history(&mut self, casino: &mut Casino) {
        casino.history = None;
        self.ask(casino, Asked::History, "/api/history?limit=100", None);
    }

    pub(super) fn ask(
        &mut self,
        casino: &mut Casino,
        asked: Asked,
        path: &str,
        body: Option<String>,
    ) {
        let token = self.login.as_ref().map(|l| l.token.clone());
        self.requests
            .send(&self.address, asked, path, body, token.as_deref());
        casino.asking.push(asked);
    }

    /// What the player asked of the casino, done.
    pub fn answer(&mut self, casino: &mut Casino, request: CasinoRequest) {
        match request {
            CasinoRequest::Connect { guest } => self.connect(casino, guest),
            CasinoRequest::Disconnect => self.disconnect(casino),
            CasinoRequest::LogIn {
                name,
                password,
                register,
            } => self.log_in(casino, &name, &password, register),
            CasinoRequest::LogOut => self.log_out(casino),
            CasinoRequest::Address(given) => self.move_to(casino, &given),
            CasinoRequest::GoToTable { table, sit } => self.go_to_table(casino, table, sit),
            CasinoRequest::Lobby => self.send(ClientMessage::Lobby {}),
            CasinoRequest::Reset => self.send(ClientMessage::Reset {}),
            CasinoRequest::Leaderboard => self.ask_leaderboard(casino),
            CasinoRequest::Hands => self.ask_history(casino),
            CasinoRequest::WatchAgain { table, round } => self.watch_again(casino, &table, round),
            // A line that starts with `/` is a command (a report, a block, a moderator's action, `/help`).
            CasinoRequest::Chat(text) => match crate::protocol::typed(&text) {
                crate::protocol::Typed::Send(message) => self.send(message),
                crate::protocol::Typed::Show(words) => {
                    casino.hear_chat(crate::game::model::casino::ChatLine {
                        from: None,
                        text: words,
                    });
                }
            },
        }
    }

    /// The connection failed: try again with back-off when it had been playing, else say why and stop.
    pub(super) fn lost(&mut self, casino: &mut Casino, why: String, now: f64) {
        casino.clock = None;
        self.awaiting = false;
        if !self.was_open {
            self.wanted = false;
            casino.status = Status::Offline;
            casino.unreached = true;
            casino.say(format!(
                "Cannot reach the casino at {}: {why}",
                self.address.host()
            ));
            return;
        }
        let attempt = match &casino.status {
            Status::Lost { attempt, .. } => attempt + 1,
            _ => 1,
        };
        let wait = (0.5 * 2f64.powi(attempt.min(8) as i32 - 1)).min(MOST_BACK_OFF);
        warn!("online: the connection dropped ({why}); trying again in {wait:.1} s");
        casino.status = Status::Lost {
            why,
            attempt,
            retry_at: now + wait,
        };
    }
}
