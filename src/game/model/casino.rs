//! A casino as the pages see it: where it is, the connection's state, who the player is there, the lobby, the table,
//! the chat, the clock, the leaderboard and the player's hands kept there ([`Casino`]), and what the player asks of
//! it ([`CasinoRequest`]). The casino's driver (`online`, the one that holds the connection) fills the one and
//! answers the other; the pages read and ask, and never name the driver.

use crate::engine::{Cents, SeatId};
use crate::protocol::{Listing, PlayedHand, Standing};
use bevy::prelude::*;
use std::collections::VecDeque;

/// Chat lines kept.
const CHAT_LINES: usize = 200;

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

impl Clock {
    /// The seconds left at `now`, rounded up.
    pub fn seconds_left(&self, now: f64) -> u64 {
        (self.ends_at - now).max(0.0).ceil() as u64
    }
}

/// The table the player is at online.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AtTable {
    /// The table's id.
    pub id: String,
    /// The player's seat, or none when watching.
    pub seat: Option<SeatId>,
}

/// A question to the casino's HTTP API under way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Asked {
    /// `POST /api/login` or `/api/register`.
    Login,
    /// `GET /api/leaderboard`.
    Leaderboard,
    /// `GET /api/history`.
    History,
    /// `POST /api/logout`.
    Logout,
    /// `GET /api/hand/TABLE/ROUND`: a kept round, to watch again.
    Hand,
}

/// A casino as the pages show it.
#[derive(Resource, Clone, Debug)]
pub struct Casino {
    /// Where it is, for people: `host:port`.
    pub host: String,
    /// The account whose session is kept here, by name (the session itself stays with the driver).
    pub account: Option<String>,
    /// The connection.
    pub status: Status,
    /// The name the casino welcomed the player under, and whether it is an account's.
    pub welcomed: Option<(String, bool)>,
    /// The tables, as the lobby last said.
    pub lobby: Vec<Listing>,
    /// The table the player is at.
    pub table: Option<AtTable>,
    /// The chat panel's lines, newest last.
    pub chat: VecDeque<ChatLine>,
    /// Chat lines not seen yet (the panel is closed); the panel sets it back to none.
    pub unread: usize,
    /// The clock the table is running.
    pub clock: Option<Clock>,
    /// What went wrong, in words, for the page the player is on.
    pub problem: Option<String>,
    /// No casino answered at this address the last time one was asked (a first connection, or logging in): the
    /// page says what a casino is, how to start one, and takes another address.
    pub unreached: bool,
    /// The leaderboard, once asked for.
    pub leaderboard: Option<Result<Vec<Standing>, String>>,
    /// The player's own hands from the casino, once asked for.
    pub history: Option<Result<Vec<PlayedHand>, String>>,
    /// An account's chips and highscore after a reset away from the tables.
    pub balance: Option<(Cents, Cents)>,
    /// Questions to the HTTP API under way.
    pub asking: Vec<Asked>,
    /// The player just left a casino's table: the Title opens on the lobby (the page that does so sets it back).
    pub back_to_lobby: bool,
    /// The table's shoes as the player follows them, each checked against its seed when revealed.
    pub shoes: crate::host::fair::ShoeChecks,
    /// The shoes checked at this casino, oldest first, each with its table's id.
    pub checked: Vec<(String, crate::host::fair::Checked)>,
}

impl Casino {
    /// A casino at `host`, not connected, with the kept session of `account` (if any).
    pub fn at(host: impl Into<String>, account: Option<String>) -> Casino {
        Casino {
            host: host.into(),
            account,
            status: Status::Offline,
            welcomed: None,
            lobby: Vec::new(),
            table: None,
            chat: VecDeque::new(),
            unread: 0,
            clock: None,
            problem: None,
            unreached: false,
            leaderboard: None,
            history: None,
            balance: None,
            asking: Vec::new(),
            back_to_lobby: false,
            shoes: crate::host::fair::ShoeChecks::new(),
            checked: Vec::new(),
        }
    }

    /// The connection is up and welcomed.
    pub fn is_open(&self) -> bool {
        self.status == Status::Open
    }

    /// The name the lobby gives the table `id` ("Atlantic City" for `atlantic-city`), or the id itself for a table
    /// the lobby no longer lists.
    pub fn table_name(&self, id: &str) -> String {
        self.lobby
            .iter()
            .find(|listing| listing.id == id)
            .map_or_else(|| id.to_string(), |listing| listing.name.clone())
    }

    /// Says what went wrong, for the page.
    pub fn say(&mut self, problem: impl Into<String>) {
        let problem = problem.into();
        warn!("online: {problem}");
        self.problem = Some(problem);
    }

    /// A line for the chat panel (the oldest goes past [`CHAT_LINES`]).
    pub fn hear_chat(&mut self, line: ChatLine) {
        if self.chat.len() == CHAT_LINES {
            self.chat.pop_front();
        }
        self.chat.push_back(line);
        self.unread += 1;
    }
}

/// What the player asks of the casino, from its pages and panels.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum CasinoRequest {
    /// Connect: as the logged-in account, or as a guest of this name.
    Connect {
        /// The guest's name; none plays as the account.
        guest: Option<String>,
    },
    /// Go offline (back to the Title).
    Disconnect,
    /// Log in, or (`register`) make the account first.
    LogIn {
        /// The account's name.
        name: String,
        /// Its password.
        password: String,
        /// Make the account.
        register: bool,
    },
    /// Forget the account's session here and end it at the casino.
    LogOut,
    /// Play at the casino at this address instead (as typed: `ws://HOST:PORT`, or `HOST:PORT`).
    Address(String),
    /// Go to the lobby's table: watch it, and sit at its first free seat once there when `sit`.
    GoToTable {
        /// The table's id.
        table: String,
        /// Sit down on arrival.
        sit: bool,
    },
    /// The tables again.
    Lobby,
    /// Buy in again at the account's starting chips, as the casino allows.
    Reset,
    /// The leaderboard.
    Leaderboard,
    /// The player's own hands as the casino kept them.
    Hands,
    /// A round the casino kept, watched again on the felt as its table showed it (anyone may: it needs no account).
    WatchAgain {
        /// The table's id.
        table: String,
        /// The round.
        round: u64,
    },
    /// Say a line at the table.
    Chat(String),
}

pub(crate) fn plugin(app: &mut App) {
    app.add_message::<CasinoRequest>();
}
