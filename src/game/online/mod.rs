//! Playing online: the same table, driven by a casino server instead of the game's own host. The server's seat view
//! becomes the [`SeatView`] and its news goes into the same [`Beats`] the local table fills, so the felt, the HUD,
//! the sounds and the round log work unchanged; the player's intents become protocol messages. This module keeps the
//! connection (reconnecting with back-off and taking the seat back), the lobby, the chat, the turn clock and the
//! account's session; `hud::online` draws its pages.

pub mod link;

use super::player::{
    BetSlip, Intent, Pending, PlayOptions, deal_refusal, slip_change, stands_on_21,
};
use super::screen::{RoundSet, Screen};
use super::session::{HomeSession, Session};
use super::table::{Arrival, Beats, Occupants, OnlineTable, SeatView};
use crate::engine::{Cents, Phase, SeatId, TableState, TableView};
use crate::protocol::{
    ClientMessage, Listing, PlayedHand, Refusal, ServerMessage, Standing, Timer, VERSION,
};
use bevy::prelude::*;
use link::{Address, Asked, Connection, Heard, Requests};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// The casino Play online goes to when none is named: `holecard-server`'s default on this machine.
pub const DEFAULT_SERVER: &str = "ws://127.0.0.1:8080";

/// Seconds a connection may take to open and be welcomed before it counts as failed.
const CONNECT_SECONDS: f64 = 10.0;

/// The longest wait between two tries to reconnect, in seconds.
const MOST_BACK_OFF: f64 = 8.0;

/// Chat lines kept.
const CHAT_LINES: usize = 200;

/// The file (in the data folder, or localStorage) that keeps the account's session between visits.
const LOGIN_FILE: &str = "online.json";

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
    wanted: bool,
    outbox: VecDeque<ClientMessage>,
    inbox: VecDeque<ServerMessage>,
    requests: Requests,
    /// The token the last `welcome` gave: a guest's key to its seat after a dropped connection.
    seat_token: Option<String>,
    /// Welcomed at least once since connecting: a later drop reconnects rather than giving up.
    was_open: bool,
}

impl Online {
    /// Playing at `address`, with the session kept from an earlier visit (when it is this casino's).
    pub fn new(address: Address) -> Online {
        let login = super::save::Store::platform()
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
        if let Some(store) = super::save::Store::platform().filter(|_| self.keep_login) {
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

    fn ask(&mut self, asked: Asked, path: &str, body: Option<String>) {
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
    fn say(&mut self, problem: impl Into<String>) {
        let problem = problem.into();
        warn!("online: {problem}");
        self.problem = Some(problem);
    }

    fn hear_chat(&mut self, line: ChatLine) {
        if self.chat.len() == CHAT_LINES {
            self.chat.pop_front();
        }
        self.chat.push_back(line);
        self.unread += 1;
    }

    /// The connection failed: try again with back-off when it had been playing, else say why and stop.
    fn lost(&mut self, why: String, now: f64) {
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

/// The connection itself. Not a `Resource`: in the browser it holds the page's WebSocket, which stays on the page's
/// thread.
#[derive(Default)]
pub struct Link(Option<Connection>);

/// The online systems run before the round's sets: messages in, then the player's intents out.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct Wire;

pub(super) fn plugin(app: &mut App) {
    app.init_non_send::<Link>()
        // The wire runs from the start (a kept session connects while the game loads); what the server says is taken
        // in once loading is done, so a table it seats the player at is opened after the Title, not overridden by it.
        .add_systems(
            Update,
            (pump, take_messages.run_if(not(in_state(Screen::Loading))))
                .chain()
                .in_set(Wire)
                .before(RoundSet::Betting)
                .run_if(resource_exists::<Online>),
        )
        .add_systems(
            Update,
            (sit_on_arrival, bet_online)
                .chain()
                .in_set(RoundSet::Betting)
                .run_if(resource_exists::<OnlineTable>),
        )
        .add_systems(
            Update,
            (stand_on_21, play_online)
                .chain()
                .in_set(RoundSet::PlayerTurn)
                .run_if(resource_exists::<OnlineTable>),
        )
        .add_systems(
            Update,
            seat_change_online
                .in_set(RoundSet::Betting)
                .run_if(resource_exists::<OnlineTable>),
        )
        .add_systems(OnEnter(Screen::Title), go_home);
}

/// Back at the Title: the player's own table and seat again. Leaving a casino's table gets the player up (at the end
/// of the round, if one is under way) and opens the lobby.
pub fn go_home(
    home: Option<Res<HomeSession>>,
    online: Option<ResMut<Online>>,
    mut session: ResMut<Session>,
    mut commands: Commands,
) {
    if let Some(home) = home {
        *session = home.0.clone();
        commands.remove_resource::<HomeSession>();
    }
    if let Some(mut online) = online
        && online.table.take().is_some()
    {
        online.clock = None;
        online.sit_on_arrival = false;
        if online.wanted {
            online.send(ClientMessage::Stand {});
            online.back_to_lobby = true;
        }
    }
}

/// The wire: connects when wanted (again after a drop, with back-off), says hello, sends what is queued once
/// welcomed, and takes in what the server and the HTTP API said.
fn pump(
    mut link: NonSendMut<Link>,
    mut online: ResMut<Online>,
    screen: Res<State<Screen>>,
    time: Res<Time<Real>>,
) {
    let now = time.elapsed_secs_f64();
    let online = &mut *online;
    for (asked, answer) in online.requests.take() {
        online.asking.retain(|a| *a != asked);
        answered(online, asked, answer);
    }
    if !online.wanted {
        if let Some(connection) = link.0.take() {
            connection.close();
        }
        if online.status != Status::Offline {
            online.status = Status::Offline;
        }
        return;
    }
    let due = match &online.status {
        Status::Offline => true,
        Status::Lost { retry_at, .. } => now >= *retry_at,
        Status::Connecting { .. } | Status::Open => false,
    };
    // Not while the game loads: its frames can be seconds apart there (a browser compiling shaders in software),
    // and a connection would wait on them.
    if link.0.is_none() && due && *screen.get() != Screen::Loading {
        match Connection::open(&online.address.ws, online.record_frames) {
            Ok(connection) => {
                link.0 = Some(connection);
                if !matches!(online.status, Status::Lost { .. }) {
                    online.status = Status::Connecting { since: now };
                }
            }
            Err(why) => online.lost(why, now),
        }
    }
    let Some(connection) = link.0.as_mut() else {
        return;
    };
    let mut dropped = None;
    let mut refused = false;
    for heard in connection.poll() {
        match heard {
            Heard::Opened => {
                // The hello gets its own time to be answered.
                if let Status::Connecting { since } = &mut online.status {
                    *since = now;
                }
                let (name, token) = match (&online.guest, &online.login) {
                    _ if online.seat_token.is_some() => (String::new(), online.seat_token.clone()),
                    (Some(name), _) => (name.clone(), None),
                    (None, Some(login)) => (String::new(), Some(login.token.clone())),
                    (None, None) => (String::new(), None),
                };
                let since = online.table.as_ref().map(|_| online.seq);
                connection.send(&ClientMessage::Hello {
                    version: VERSION,
                    name,
                    token,
                    since,
                });
            }
            Heard::Message(message) => {
                // Welcomed is open at once, even while the game is still loading (the rest of the welcome, and
                // everything after it, is taken in once it has loaded).
                if let ServerMessage::Welcome { token, .. } = &message {
                    if matches!(online.status, Status::Lost { .. }) {
                        online.hear_chat(ChatLine {
                            from: None,
                            text: "Connected again.".into(),
                        });
                    }
                    online.status = Status::Open;
                    online.was_open = true;
                    online.seat_token = Some(token.clone());
                }
                if let ServerMessage::Refused { code, message } = &message
                    && online.status != Status::Open
                {
                    refused_at_hello(online, *code, message);
                    refused = true;
                    break;
                }
                online.inbox.push_back(message);
            }
            Heard::Garbled(why) => online.say(why),
            Heard::Closed(why) => dropped = Some(why),
        }
    }
    if let Some(frames) = connection.frames.as_mut() {
        online.frames.append(frames);
    }
    if dropped.is_none()
        && let Status::Connecting { since }
        | Status::Lost {
            retry_at: since, ..
        } = online.status
        && now - since > CONNECT_SECONDS
    {
        dropped = Some(format!(
            "no answer in {CONNECT_SECONDS:.0} seconds (is the server running, and is the address right?)"
        ));
    }
    if refused || dropped.is_some() {
        if let Some(connection) = link.0.take() {
            connection.close();
        }
        // Refused at hello, the player has been told; a drop is retried (or said, the first time).
        if let Some(why) = dropped.filter(|_| !refused) {
            online.lost(why, now);
        }
        return;
    }
    if online.status == Status::Open {
        while let Some(message) = online.outbox.pop_front() {
            connection.send(&message);
        }
    }
}

/// An HTTP answer: a session, the leaderboard, the player's hands.
fn answered(online: &mut Online, asked: Asked, answer: link::Answer) {
    #[derive(Deserialize)]
    struct Session {
        name: String,
        token: String,
    }
    match (asked, answer) {
        (Asked::Login, Ok(text)) => match serde_json::from_str::<Session>(&text) {
            Ok(session) => {
                let login = Login {
                    server: online.address.ws.clone(),
                    name: session.name,
                    token: session.token,
                };
                if online.keep_login
                    && let Some(store) = super::save::Store::platform()
                    && let Ok(text) = serde_json::to_string(&login)
                    && let Err(e) = store.write(LOGIN_FILE, &text)
                {
                    warn!("online: the session is not kept for next time: {e}");
                }
                online.login = Some(login);
                online.connect(None);
            }
            Err(e) => online.say(format!("the casino's answer to logging in: {e}")),
        },
        (Asked::Leaderboard, answer) => {
            online.leaderboard = Some(answer.and_then(|text| {
                serde_json::from_str(&text).map_err(|e| format!("the leaderboard: {e}"))
            }));
        }
        (Asked::History, answer) => {
            online.history = Some(answer.and_then(|text| {
                serde_json::from_str(&text).map_err(|e| format!("your hands: {e}"))
            }));
        }
        (Asked::Login, Err(why)) => online.say(why),
        (Asked::Logout, _) => {}
    }
}

/// What the server said, taken in: the lobby, the table (its view opens the felt; its news goes to the beats), the
/// clock, the chat, refusals in words.
#[allow(clippy::too_many_arguments)] // Bevy systems take their world as parameters.
fn take_messages(
    mut online: ResMut<Online>,
    mut beats: ResMut<Beats>,
    mut slip: ResMut<BetSlip>,
    screen: Res<State<Screen>>,
    arrival: Option<Res<Arrival>>,
    occupants: Res<Occupants>,
    mut next: ResMut<NextState<Screen>>,
    mut commands: Commands,
    time: Res<Time<Real>>,
) {
    let now = time.elapsed_secs_f64();
    // A table being opened takes the news after its view once it is open (the next frame).
    if arrival.is_some() {
        return;
    }
    while let Some(message) = online.inbox.pop_front() {
        match message {
            ServerMessage::Welcome { name, account, .. } => {
                let kind = if account { "an account" } else { "a guest" };
                info!(target: "holecard::online", "welcomed as {name}, {kind}");
                online.welcomed = Some((name, account));
                online.problem = None;
                online.outbox.push_front(ClientMessage::Lobby {});
            }
            ServerMessage::Balance { chips, highscore } => {
                online.balance = Some((chips, highscore));
            }
            ServerMessage::Lobby { tables } => {
                info!(target: "holecard::online", "the lobby lists {} tables", tables.len());
                online.lobby = tables;
            }
            ServerMessage::Joined {
                table,
                seat,
                seq,
                view,
                names,
            } => {
                let chips =
                    seat.map(|s| (view.seats()[usize::from(s)].bankroll, view.seat_on_felt(s)));
                match (seat, chips) {
                    (Some(seat), Some((bankroll, felt))) => {
                        info!(
                            target: "holecard::online",
                            "at {table} in seat {} with {bankroll} and {felt} on the felt",
                            seat + 1
                        )
                    }
                    _ => info!(target: "holecard::online", "at {table}, watching"),
                }
                online.seq = seq;
                online.awaiting = false;
                online.table = Some(AtTable {
                    id: table.clone(),
                    seat,
                });
                let name = online
                    .lobby
                    .iter()
                    .find(|t| t.id == table)
                    .map(|t| t.name.clone());
                let level = match level_for(&table, name.as_deref(), &view) {
                    Ok(level) => level,
                    Err(e) => {
                        online.say(format!("the table's look: {e}"));
                        continue;
                    }
                };
                commands.insert_resource(Arrival {
                    table,
                    level,
                    seat,
                    view: *view,
                    names,
                });
                // Re-entering the table if it is up: a fresh view makes a fresh felt.
                next.set(Screen::Table);
                return;
            }
            ServerMessage::News { seq, news } => {
                if online.table.is_none() || *screen.get() != Screen::Table || seq <= online.seq {
                    continue;
                }
                online.seq = seq;
                online.awaiting = false;
                if let crate::host::News::Said { seat, line } = &news {
                    let from = occupants.name(*seat);
                    online.hear_chat(ChatLine {
                        from: Some(from),
                        text: line.clone(),
                    });
                }
                if let crate::host::News::Event(crate::engine::Event::RoundEnded { .. }) = news {
                    online.clock = None;
                }
                beats.show([news]);
            }
            ServerMessage::Missed { .. } => {}
            ServerMessage::Clock(Timer { seat, ms }) => {
                online.clock = Some(Clock {
                    seat,
                    ends_at: now + ms as f64 / 1000.0,
                });
            }
            ServerMessage::Chat { from, text } => {
                info!(target: "holecard::chat", "{from}: {text}");
                online.hear_chat(ChatLine {
                    from: Some(from),
                    text,
                });
            }
            ServerMessage::Notice { text } => {
                info!(target: "holecard::online", "the table says: {text}");
                online.hear_chat(ChatLine { from: None, text });
            }
            ServerMessage::Refused { code, message } => {
                refused(&mut online, &mut slip, *screen.get(), code, message);
            }
        }
    }
}

/// A refusal of a command, said where the player looks: on the table's bar, or on the page. (A refused hello is
/// taken as it arrives, by `pump`; one taken here may have been sent before a drop, and must not stop the reconnect.)
fn refused(
    online: &mut Online,
    slip: &mut BetSlip,
    screen: Screen,
    code: Refusal,
    message: String,
) {
    online.awaiting = false;
    info!(target: "holecard::online", "refused: {message} ({code:?})");
    if screen == Screen::Table && online.table.is_some() {
        if slip.in_play {
            // The bet did not go down: it is back on the slip.
            slip.in_play = false;
            slip.chips = vec![slip.last_bet];
        }
        slip.refusal = Some(crate::narrate::capitalise(&message));
    } else {
        online.say(crate::narrate::capitalise(&message));
    }
}

/// Refused at hello (a name taken, a session no longer known): say so and stop; a session the casino no longer
/// knows is forgotten here too.
fn refused_at_hello(online: &mut Online, code: Refusal, message: &str) {
    if code == Refusal::BadName && online.login.is_some() && online.seat_token.is_none() {
        online.login = None;
        if let Some(store) = super::save::Store::platform().filter(|_| online.keep_login) {
            store.remove(LOGIN_FILE);
        }
    }
    online.wanted = false;
    online.status = Status::Offline;
    online.say(crate::narrate::capitalise(message));
}

/// The level to show a server's table as: the game's own level of that name (its felt, card backs and words), else
/// one made from the table's rules; named as the lobby names it (`name`), else as the game's level is, else by its id.
pub fn level_for(
    id: &str,
    name: Option<&str>,
    view: &TableView,
) -> Result<crate::level::Level, crate::level::LevelError> {
    let listed = crate::level::catalogue(std::path::Path::new("levels"))
        .into_iter()
        .filter_map(|listing| {
            let stem = listing.path.file_stem()?.to_string_lossy().to_string();
            let level = listing.level.ok()?;
            (id == stem
                || id
                    .strip_prefix(&stem)
                    .is_some_and(|rest| rest.starts_with('-')))
            .then_some(level)
        })
        .next();
    // The built-in level's felt and words stand in for a table the game has no level of.
    let own_name = listed.as_ref().map(|level| level.name.clone());
    let mut level = match listed {
        Some(level) => level,
        None => crate::level::Level::load_or_default(None)?,
    };
    level.name = name
        .map(str::to_string)
        .or(own_name)
        .unwrap_or_else(|| id.to_string());
    level.rules = crate::level::RuleSource::Custom(view.rules().clone());
    level.companions.clear();
    level.deck_choices.clear();
    level.until_broke = false;
    Ok(level)
}

/// Sitting down from the lobby: once the table is joined as a watcher, take its first free seat.
fn sit_on_arrival(
    mut online: ResMut<Online>,
    seen: Res<SeatView>,
    occupants: Res<Occupants>,
    beats: Res<Beats>,
) {
    if !online.sit_on_arrival || !beats.settled() {
        return;
    }
    online.sit_on_arrival = false;
    let Some(table) = online.table.clone() else {
        return;
    };
    if table.seat.is_some() {
        return;
    }
    match (0..7u8).find(|&seat| occupants.is_free(&seen.0, seat)) {
        Some(seat) => online.send(ClientMessage::Sit {
            table: table.id,
            seat,
        }),
        None => online.hear_chat(ChatLine {
            from: None,
            text: "Every seat is taken: you are watching.".into(),
        }),
    }
}

/// Building a bet works as at the player's own table; the deal puts it in the circle on the server, which deals when
/// everyone seated has bet (or the betting clock runs out). Out of chips, the player may reset as the server allows.
fn bet_online(
    mut intents: MessageReader<Intent>,
    mut online: ResMut<Online>,
    mut slip: ResMut<BetSlip>,
    seen: Res<SeatView>,
    session: Res<Session>,
) {
    let Some(seat) = session.player_seat else {
        intents.clear();
        return;
    };
    let table = &seen.0;
    for intent in intents.read() {
        if slip.in_play {
            continue;
        }
        let bankroll = table.seats()[usize::from(seat)].bankroll;
        if slip_change(&mut slip, intent, table.rules(), bankroll) {
            continue;
        }
        match intent {
            Intent::Deal => {
                let total = slip.total();
                let busy = table.phase() != Phase::Betting;
                slip.refusal = deal_refusal(busy, total, table.rules());
                if slip.refusal.is_none() {
                    online.send(ClientMessage::Bet { amount: total });
                    slip.last_bet = total;
                    slip.chips.clear();
                    slip.in_play = true;
                }
            }
            Intent::Rebuy => {
                slip.refusal = None;
                online.send(ClientMessage::Reset {});
            }
            _ => {}
        }
    }
}

/// Between rounds the player may take an empty seat (the server moves them, or sits them down from watching).
fn seat_change_online(
    mut intents: MessageReader<Intent>,
    mut online: ResMut<Online>,
    table: Res<OnlineTable>,
) {
    for intent in intents.read() {
        if let Intent::SitAt(seat) = *intent {
            online.send(ClientMessage::Sit {
                table: table.id.clone(),
                seat,
            });
        }
    }
}

/// With auto-stand on, a hand of 21 stands by itself online too.
fn stand_on_21(
    session: Res<Session>,
    options: Res<PlayOptions>,
    mut pending: ResMut<Pending>,
    seen: Res<SeatView>,
    beats: Res<Beats>,
    online: Res<Online>,
) {
    if let Some(seat) = session.player_seat
        && options.auto_stand_21
        && beats.settled()
        && pending.0.is_none()
        && !online.awaiting
        && stands_on_21(&seen.0, seat)
    {
        pending.0 = Some(crate::engine::Action::Stand);
    }
}

/// The player's decisions go to the server once the felt shows their turn; one at a time (the next waits for the
/// table's answer).
fn play_online(
    mut intents: MessageReader<Intent>,
    mut online: ResMut<Online>,
    mut pending: ResMut<Pending>,
    seen: Res<SeatView>,
    session: Res<Session>,
    beats: Res<Beats>,
) {
    let Some(seat) = session.player_seat else {
        intents.clear();
        return;
    };
    let table = &seen.0;
    for intent in intents.read() {
        if let Intent::Play(action) = *intent
            && table.legal_actions(seat).contains(action)
            && !online.awaiting
        {
            pending.0 = Some(action);
        }
    }
    if !beats.settled() || online.awaiting {
        return;
    }
    let Some(action) = pending.0.take() else {
        return;
    };
    if table.seat_to_act() == Some(seat) && table.legal_actions(seat).contains(action) {
        online.send(ClientMessage::Play { action });
        online.awaiting = true;
    }
}

/// The seconds left on the clock, when one runs.
pub fn seconds_left(clock: &Clock, now: f64) -> u64 {
    (clock.ends_at - now).max(0.0).ceil() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn online() -> Online {
        Online::apart(Address::parse(DEFAULT_SERVER).expect("the default address"))
    }

    #[test]
    fn a_drop_while_playing_retries_with_growing_waits_and_a_first_failure_is_said_and_not_retried()
    {
        let mut first = online();
        first.connect(Some("Ann".into()));
        first.lost("Connection refused".into(), 10.0);
        assert_eq!(first.status, Status::Offline);
        assert!(
            !first.wanted,
            "nothing to come back to: the player is told and tries again"
        );
        let said = first.problem.clone().unwrap_or_default();
        assert_eq!(
            said,
            "Cannot reach the casino at 127.0.0.1:8080: Connection refused"
        );

        let mut playing = online();
        playing.connect(None);
        playing.was_open = true;
        playing.status = Status::Open;
        let mut waits = Vec::new();
        for _ in 0..7 {
            playing.lost("reset".into(), 100.0);
            match &playing.status {
                Status::Lost { retry_at, .. } => waits.push(retry_at - 100.0),
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(waits, [0.5, 1.0, 2.0, 4.0, 8.0, 8.0, 8.0]);
        assert!(playing.wanted);
    }

    #[test]
    fn a_refused_hello_stops_and_a_refusal_at_the_table_is_said_on_the_bar_with_the_bet_given_back()
    {
        let mut client = online();
        client.connect(Some("Ann".into()));
        refused_at_hello(
            &mut client,
            Refusal::BadName,
            "someone here already plays as Ann",
        );
        assert!(!client.wanted);
        assert_eq!(client.status, Status::Offline);
        assert_eq!(
            client.problem.as_deref(),
            Some("Someone here already plays as Ann")
        );

        let mut client = online();
        client.connect(None);
        client.status = Status::Open;
        client.table = Some(AtTable {
            id: "las-vegas-strip".into(),
            seat: Some(2),
        });
        let mut slip = BetSlip {
            last_bet: Cents::units(25),
            in_play: true,
            ..BetSlip::default()
        };
        refused(
            &mut client,
            &mut slip,
            Screen::Table,
            Refusal::NotAllowed,
            "the bet is over the table maximum".into(),
        );
        assert_eq!(
            slip.refusal.as_deref(),
            Some("The bet is over the table maximum")
        );
        assert!(!slip.in_play);
        assert_eq!(slip.chips, [Cents::units(25)]);
        assert!(client.problem.is_none());

        // A command's refusal taken in after the connection dropped is said, and the reconnect goes on.
        client.was_open = true;
        client.lost("reset".into(), 100.0);
        let mut slip = BetSlip::default();
        refused(
            &mut client,
            &mut slip,
            Screen::Table,
            Refusal::TooFast,
            "too many messages".into(),
        );
        assert!(client.wanted);
        assert!(matches!(client.status, Status::Lost { .. }));
        assert_eq!(slip.refusal.as_deref(), Some("Too many messages"));
    }

    #[test]
    fn a_casinos_table_wears_the_games_level_of_its_name_and_plays_the_servers_rules() {
        let rules = crate::engine::Rules {
            decks: 2,
            ..crate::engine::Preset::LasVegasStrip.rules()
        };
        let table = crate::engine::Table::new(
            rules.clone(),
            crate::engine::seed_from_number(1),
            Cents::units(10_000),
        )
        .expect("a table");
        let view = table.view(crate::engine::Viewer::Spectator);
        let level =
            level_for("downtown-single-deck-2", Some("Downtown 2"), &view).expect("a level");
        let downtown =
            crate::level::Level::load(std::path::Path::new("levels/downtown-single-deck.ron"))
                .expect("the level");
        assert_eq!(level.name, "Downtown 2");
        assert_eq!(level.felt, downtown.felt);
        assert_eq!(
            level.rules.rules(),
            rules,
            "the server's rules, not the file's"
        );
        let unknown = level_for("somewhere-else", Some("Elsewhere"), &view).expect("a level");
        assert_eq!(unknown.name, "Elsewhere");
        // Joined before the lobby has said the table's name: the game's level of that id names it, else the id.
        let unlisted = level_for("downtown-single-deck", None, &view).expect("a level");
        assert_eq!(unlisted.name, downtown.name);
        let nameless = level_for("somewhere-else", None, &view).expect("a level");
        assert_eq!(nameless.name, "somewhere-else");
        assert!(unknown.companions.is_empty());
    }
}
