//! Every message on the wire: what a client says ([`ClientMessage`]), what the server says ([`ServerMessage`]), and
//! the records they carry (a table's listing, a leaderboard line, a kept hand, a clock, a refusal's reason).

use crate::engine::{Action, Cents, SeatId, TableView};
use crate::host::News;
use serde::{Deserialize, Serialize};

/// A side bet in a `bet` message: which, and how much on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideStake {
    /// The side bet (`TwentyOnePlusThree`, `PerfectPairs`, `LuckyLadies`, `Buster`).
    pub bet: crate::engine::side::SideBet,
    /// In cents.
    pub amount: Cents,
}

/// What a client says.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    /// The first message: the protocol version, and who: a guest's name, or an account's session token (from
    /// `POST /api/login` or `/api/register`).
    Hello {
        /// [`VERSION`](super::VERSION).
        version: u32,
        /// A guest's name: 1 to [`MAX_NAME_CHARS`](super::MAX_NAME_CHARS) characters: letters, digits, spaces, `-`, `_`, `.`, `'` (not an
        /// account's name). Ignored with a token.
        #[serde(default)]
        name: String,
        /// An account's session token, or a guest coming back with the token the last `welcome` gave. Within
        /// [`HOLD_SECONDS`](super::HOLD_SECONDS) of the connection dropping, the client gets its seat back.
        #[serde(default)]
        token: Option<String>,
        /// Coming back: the last news number received; the news after it is sent again after `joined`.
        #[serde(default)]
        since: Option<u64>,
    },
    /// The tables, for the lobby.
    Lobby {},
    /// Take a free seat at a table, between rounds (leaving any other table).
    Sit {
        /// The table's id.
        table: String,
        /// 0 (first base) to 6.
        seat: SeatId,
    },
    /// Watch a table without a seat (leaving any other table).
    Watch {
        /// The table's id.
        table: String,
    },
    /// Put this bet in the circle (0 takes it back), and these side bets on their spots (a spot the table offers and
    /// the list does not name is emptied); the dealer deals when every person seated has bet, or when the table's
    /// betting time runs out.
    Bet {
        /// In cents.
        amount: Cents,
        /// The side bets beside it, each named once (absent: none).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        side_bets: Vec<SideStake>,
    },
    /// A decision for the own hand in turn (or the insurance, even-money or surrender offer).
    Play {
        /// The decision.
        action: Action,
    },
    /// Get up (at the end of the round, if one is under way) and watch.
    Stand {},
    /// Out of chips: buy in again for the table's buy-in, at most once an hour (between rounds).
    Reset {},
    /// Say something at the table.
    Chat {
        /// 1 to [`MAX_CHAT_CHARS`](super::MAX_CHAT_CHARS) characters, shown as text.
        text: String,
    },
    /// A moderator's (or an admin's) action on a player or guest, named as shown; refused for anyone else.
    Moderate {
        /// What to do.
        action: ModAction,
        /// Whom (any name that looks like it is the same person).
        name: String,
        /// For how long, in seconds; none: the action's usual time (10 minutes; a ban: for good). At most about a
        /// hundred years.
        #[serde(default)]
        seconds: Option<u64>,
        /// Why, as the player and the log are told.
        #[serde(default)]
        reason: String,
        /// A ban: the address the name last played from too.
        #[serde(default)]
        address: bool,
        /// A kick: the table (default: the one the moderator is at).
        #[serde(default)]
        table: Option<String>,
    },
    /// Report a player to the moderators: the report keeps the table's chat and round around it. Only moderators see
    /// reports.
    Report {
        /// Whom.
        name: String,
        /// Why.
        #[serde(default)]
        reason: String,
    },
    /// Hide a player's chat from this player (an account's blocks are kept; a guest's last its session).
    Block {
        /// Whom.
        name: String,
    },
    /// Show a blocked player's chat again.
    Unblock {
        /// Whom.
        name: String,
    },
}

/// What a moderator does to a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ModAction {
    /// No chat, for a while (10 minutes unless said).
    Mute,
    /// No chat and no seat, for a while (10 minutes unless said): up from any seat now.
    Timeout,
    /// Off one table, not to sit or watch there for a while (10 minutes unless said).
    Kick,
    /// Not on the server (for good unless said): every connection closed, every session ended.
    Ban,
    /// Every mute, timeout, kick and ban on the name lifted.
    Pardon,
}

impl ModAction {
    /// Its name on the wire and in the moderation log.
    pub fn name(self) -> &'static str {
        match self {
            ModAction::Mute => "mute",
            ModAction::Timeout => "timeout",
            ModAction::Kick => "kick",
            ModAction::Ban => "ban",
            ModAction::Pardon => "pardon",
        }
    }

    /// Every action.
    pub const ALL: [ModAction; 5] = [
        ModAction::Mute,
        ModAction::Timeout,
        ModAction::Kick,
        ModAction::Ban,
        ModAction::Pardon,
    ];

    /// How long it lasts when no time is said: none for good (a ban), or for a pardon (which has no time).
    pub fn usual_seconds(self) -> Option<u64> {
        match self {
            ModAction::Mute | ModAction::Timeout | ModAction::Kick => Some(600),
            ModAction::Ban | ModAction::Pardon => None,
        }
    }
}

impl ClientMessage {
    /// Its `type` on the wire.
    pub fn kind(&self) -> &'static str {
        match self {
            ClientMessage::Hello { .. } => "hello",
            ClientMessage::Lobby {} => "lobby",
            ClientMessage::Sit { .. } => "sit",
            ClientMessage::Watch { .. } => "watch",
            ClientMessage::Bet { .. } => "bet",
            ClientMessage::Play { .. } => "play",
            ClientMessage::Stand {} => "stand",
            ClientMessage::Reset {} => "reset",
            ClientMessage::Chat { .. } => "chat",
            ClientMessage::Moderate { .. } => "moderate",
            ClientMessage::Report { .. } => "report",
            ClientMessage::Block { .. } => "block",
            ClientMessage::Unblock { .. } => "unblock",
        }
    }
}

/// What the server says.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// The answer to `hello`.
    Welcome {
        /// The server's protocol version.
        version: u32,
        /// The name the client plays under.
        name: String,
        /// Give it back in `hello` to come back after a dropped connection. Keep it to yourself: it is the seat.
        token: String,
        /// Playing with an account (its bankroll is kept), not as a guest.
        #[serde(default)]
        account: bool,
    },
    /// An account's bankroll and highscore, after a reset away from the tables.
    Balance {
        /// The bankroll.
        chips: Cents,
        /// The most chips it ever held.
        highscore: Cents,
    },
    /// The tables.
    Lobby {
        /// One per table.
        tables: Vec<Listing>,
    },
    /// The client is at a table: the table as its seat (or a spectator) sees it, who sits where, and the sequence
    /// number of the last news the view includes. News follows with the numbers after it.
    Joined {
        /// The table's id.
        table: String,
        /// The client's seat, or none when watching.
        seat: Option<SeatId>,
        /// The last news this view includes.
        seq: u64,
        /// The table from the client's seat.
        view: Box<TableView>,
        /// Who sits where, by name.
        names: Vec<Option<String>>,
        /// The commitment to the shoe in play, when the table deals its shoes from seeds of their own.
        #[serde(default)]
        shoe: Option<crate::host::fair::Commitment>,
    },
    /// Something happened at the client's table, numbered from 1 without gaps.
    News {
        /// The number.
        seq: u64,
        /// What happened.
        news: News,
    },
    /// News the client missed while its connection was down, sent again after `joined` (its view already
    /// includes it: this is for showing what happened).
    Missed {
        /// The number it had.
        seq: u64,
        /// What happened.
        news: News,
    },
    /// The table's clock started: for everyone's bets, or for one seat to act.
    Clock(Timer),
    /// A chat line at the client's table (text, never markup).
    Chat {
        /// Who said it.
        from: String,
        /// What they said.
        text: String,
    },
    /// The table says who came, went, dropped or came back (not numbered: it is not the game).
    Notice {
        /// In words.
        text: String,
    },
    /// The client's last message was not done; nothing changed.
    Refused {
        /// Why, for programs.
        code: Refusal,
        /// Why, in words.
        message: String,
    },
}

/// A clock the table started: who it waits for and how long, after which the table goes on without them (no bet
/// sits the round out; no decision stands, or declines the offer).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Timer {
    /// The seat it waits for, or none for everyone's bets.
    pub seat: Option<SeatId>,
    /// Milliseconds.
    pub ms: u64,
}

/// A table in the lobby.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Listing {
    /// Its id (the level file's name).
    pub id: String,
    /// Its name.
    pub name: String,
    /// The rules' shorthand (`6D S17 DAS …`).
    pub rules: String,
    /// The smallest bet.
    pub min_bet: Cents,
    /// The largest bet.
    pub max_bet: Cents,
    /// Seats taken by people.
    pub people: u8,
    /// Seats taken by companions.
    pub companions: u8,
    /// People watching.
    pub spectators: u32,
    /// The house edge, exactly (the full shoe, the chart's plays), in thousandths of a percent (333 is 0.333%;
    /// negative where the player has the edge); absent until the server has worked it out, a moment after it opens.
    #[serde(default)]
    pub house_edge_thousandths: Option<i32>,
    /// Where to play at it, when that is not this server's own `/ws`: the path of the WebSocket of the server (of
    /// several behind one proxy) that holds the table, as `/ws/b`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ws: Option<String>,
}

/// A round a casino kept, as its table showed it (`GET /api/hand/TABLE/ROUND`, opened in the browser build at
/// `/hand/TABLE/ROUND`): the table as a spectator saw it before the round, and every news after that to the round's
/// end — what every spectator was sent, so no face-down card shows before it was turned.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Replay {
    /// The table's id.
    pub table: String,
    /// Its name.
    pub name: String,
    /// The round.
    pub round: u64,
    /// The number of the last news `view` includes.
    pub seq: u64,
    /// The table as a spectator saw it then.
    pub view: Box<TableView>,
    /// Who sat where then, by name.
    pub names: Vec<Option<String>>,
    /// Every news after `seq`, to the round's end, numbered.
    pub news: Vec<(u64, News)>,
}

impl Replay {
    /// Where a kept round is watched again, from the casino's root: `/hand/TABLE/ROUND` (the table's id escaped as
    /// one part of a path; its API is the same under `/api`).
    pub fn path(table: &str, round: u64) -> String {
        let table: String = table
            .bytes()
            .map(|b| {
                if b.is_ascii_alphanumeric() || b"-_.".contains(&b) {
                    char::from(b).to_string()
                } else {
                    format!("%{b:02X}")
                }
            })
            .collect();
        format!("/hand/{table}/{round}")
    }
}

/// One line of the leaderboard (`GET /api/leaderboard`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    /// The player.
    pub name: String,
    /// The most chips they ever held.
    pub highscore: Cents,
    /// What they hold now.
    pub chips: Cents,
}

/// One hand of a player's history as the server kept it (`GET /api/history`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayedHand {
    /// The table.
    pub table: String,
    /// The table's rules in shorthand.
    pub rules: String,
    /// The round (counted over the table's whole life).
    pub round: u64,
    /// The seat, 0 to 6.
    pub seat: u8,
    /// The hand of the seat, 0 for the first (more after splits).
    pub hand: u8,
    /// The cards, `A♠ 10♥`.
    pub cards: String,
    /// The decisions, `hit, stand`.
    pub decisions: String,
    /// The dealer's cards as shown.
    pub dealer: String,
    /// How it ended.
    pub outcome: String,
    /// What was on it.
    pub wager: Cents,
    /// What it won (negative when lost).
    pub net: Cents,
    /// The bankroll after the round.
    pub bankroll: Cents,
    /// When, in milliseconds since 1970.
    pub at_ms: i64,
    /// The seat's side bets of the round, on its first hand (none on the others).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub side_bets: Vec<PlayedSideBet>,
}

/// A side bet in an account's history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayedSideBet {
    /// Its name at the table ("21+3").
    pub bet: String,
    /// What was on it.
    pub stake: Cents,
    /// The hand it paid for ("a flush"), none when it lost.
    pub won: Option<String>,
    /// What it won (negative when lost).
    pub net: Cents,
}

/// Why a message was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Refusal {
    /// Not JSON, or not a message this protocol has.
    BadMessage,
    /// Larger than [`MAX_MESSAGE_BYTES`](super::MAX_MESSAGE_BYTES).
    TooLarge,
    /// A version this server does not speak.
    WrongVersion,
    /// `hello` must come first, once.
    NotIntroduced,
    /// A name that is empty, too long, has other characters or is taken.
    BadName,
    /// No table with that id.
    NoSuchTable,
    /// That seat is taken, or cannot be taken now.
    SeatUnavailable,
    /// The client has no seat (or no table) for that.
    NotSeated,
    /// The table refused the command (out of turn, over the limit, not enough chips…): the message says why.
    NotAllowed,
    /// An empty or too long chat line.
    BadChat,
    /// Too many messages too fast.
    TooFast,
    /// A balance reset: the player still has chips, or had one within the hour.
    NoReset,
    /// The server cannot do it now (its ledger is not answering): try again.
    Unavailable,
    /// The account logged out or changed its password: every session of it has ended, this one too (the connection
    /// closes after this). Log in again.
    SessionEnded,
    /// Another session of the account took its seat at this table (the account came back on another device, or
    /// another tab): this connection closes after this.
    TakenOver,
    /// A moderator has muted this player (or timed them out): no chat until the time the message says.
    Muted,
    /// A moderator has banned this name or address: no play here until the time the message says (the connection
    /// closes after this).
    Banned,
    /// A moderator has timed this player out (no seat anywhere) or kicked them from this table (not here), until the
    /// time the message says.
    SentAway,
}

impl Refusal {
    /// Its `code` on the wire.
    pub fn name(self) -> &'static str {
        match self {
            Refusal::BadMessage => "bad_message",
            Refusal::TooLarge => "too_large",
            Refusal::WrongVersion => "wrong_version",
            Refusal::NotIntroduced => "not_introduced",
            Refusal::BadName => "bad_name",
            Refusal::NoSuchTable => "no_such_table",
            Refusal::SeatUnavailable => "seat_unavailable",
            Refusal::NotSeated => "not_seated",
            Refusal::NotAllowed => "not_allowed",
            Refusal::BadChat => "bad_chat",
            Refusal::TooFast => "too_fast",
            Refusal::NoReset => "no_reset",
            Refusal::Unavailable => "unavailable",
            Refusal::SessionEnded => "session_ended",
            Refusal::TakenOver => "taken_over",
            Refusal::Muted => "muted",
            Refusal::Banned => "banned",
            Refusal::SentAway => "sent_away",
        }
    }
}
