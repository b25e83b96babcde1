//! The casino's protocol, spoken by the server and by the game's online client: versioned JSON messages over a
//! WebSocket, one message a text frame. `docs/protocol.md` has every message with an example session.

use crate::engine::{Action, Cents, SeatId, TableView};
use crate::host::News;
use serde::{Deserialize, Serialize};

/// The protocol's version; a client says which it speaks in its first message.
pub const VERSION: u32 = 1;

/// The longest message a client may send, in bytes.
pub const MAX_MESSAGE_BYTES: usize = 4 * 1024;

/// The longest chat line, in characters.
pub const MAX_CHAT_CHARS: usize = 300;

/// How long a dropped connection's seat (and name) wait for it to come back, in seconds.
pub const HOLD_SECONDS: u64 = 60;

/// Messages a client may send a second, on average.
pub const MESSAGES_PER_SECOND: f64 = 10.0;

/// Messages a client may send at once.
pub const MESSAGE_BURST: f64 = 30.0;

/// An allowance of messages (a token bucket): `rate` a second on average, `burst` at once. The server keeps one per
/// connection at [`MESSAGES_PER_SECOND`] and [`MESSAGE_BURST`] and refuses past it; a well-behaved client keeps
/// one a little under that and waits.
#[derive(Clone, Copy, Debug)]
pub struct Allowance {
    rate: f64,
    burst: f64,
    tokens: f64,
    refilled: std::time::Instant,
}

impl Allowance {
    /// The server's: what a connection may send.
    pub fn server(now: std::time::Instant) -> Allowance {
        Allowance::new(MESSAGES_PER_SECOND, MESSAGE_BURST, now)
    }

    /// A client's that stays under the server's even when messages bunch up on the way.
    pub fn polite(now: std::time::Instant) -> Allowance {
        Allowance::new(MESSAGES_PER_SECOND * 0.8, MESSAGE_BURST / 2.0, now)
    }

    fn new(rate: f64, burst: f64, now: std::time::Instant) -> Allowance {
        Allowance {
            rate,
            burst,
            tokens: burst,
            refilled: now,
        }
    }

    fn refill(&mut self, now: std::time::Instant) {
        let earned = now.saturating_duration_since(self.refilled).as_secs_f64() * self.rate;
        self.tokens = (self.tokens + earned).min(self.burst);
        self.refilled = now;
    }

    /// Takes one message's worth, if there is one.
    pub fn take(&mut self, now: std::time::Instant) -> bool {
        self.refill(now);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// How long until one message's worth is there.
    pub fn wait(&mut self, now: std::time::Instant) -> std::time::Duration {
        self.refill(now);
        std::time::Duration::from_secs_f64(((1.0 - self.tokens) / self.rate).max(0.0))
    }
}

/// The longest name, in characters.
pub const MAX_NAME_CHARS: usize = 24;

/// What a client says.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    /// The first message: the protocol version, and who: a guest's name, or an account's session token (from
    /// `POST /api/login` or `/api/register`).
    Hello {
        /// [`VERSION`].
        version: u32,
        /// A guest's name: 1 to [`MAX_NAME_CHARS`] characters: letters, digits, spaces, `-`, `_`, `.`, `'` (not an
        /// account's name). Ignored with a token.
        #[serde(default)]
        name: String,
        /// An account's session token, or a guest coming back with the token the last `welcome` gave. Within
        /// [`HOLD_SECONDS`] of the connection dropping, the client gets its seat back.
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
    /// Put this bet in the circle (0 takes it back); the dealer deals when every person seated has bet, or when the
    /// table's betting time runs out.
    Bet {
        /// In cents.
        amount: Cents,
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
        /// 1 to [`MAX_CHAT_CHARS`] characters, shown as text.
        text: String,
    },
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
}

/// Why a message was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Refusal {
    /// Not JSON, or not a message this protocol has.
    BadMessage,
    /// Larger than [`MAX_MESSAGE_BYTES`].
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
}

/// Reads a client's message, or says exactly what is wrong with it.
pub fn parse(text: &str) -> Result<ClientMessage, (Refusal, String)> {
    if text.len() > MAX_MESSAGE_BYTES {
        return Err((
            Refusal::TooLarge,
            format!(
                "the message is {} bytes; at most {MAX_MESSAGE_BYTES} are read",
                text.len()
            ),
        ));
    }
    serde_json::from_str(text).map_err(|e| {
        (
            Refusal::BadMessage,
            format!(
                "not a message of protocol {VERSION}: {e} (line {}, column {})",
                e.line(),
                e.column()
            ),
        )
    })
}

/// A name a person may play under, trimmed, or why not.
pub fn check_name(name: &str) -> Result<String, String> {
    let name = name.trim();
    let chars = name.chars().count();
    if chars == 0 || chars > MAX_NAME_CHARS {
        return Err(format!("a name has 1 to {MAX_NAME_CHARS} characters"));
    }
    if let Some(bad) = name
        .chars()
        .find(|c| !(c.is_alphanumeric() || " -_.'".contains(*c)))
    {
        return Err(format!(
            "a name has letters, digits, spaces and - _ . ' only, not {bad:?}"
        ));
    }
    Ok(name.to_string())
}

/// A chat line as it will be shown, or why not. It keeps no character that is not shown as itself: controls (new
/// lines included), format characters (zero-width spaces and joiners, bidi overrides, embeddings and isolates that
/// would reverse or hide what others read) and line or paragraph separators would let a line pretend to be
/// something else, or several. The length is counted on what is kept.
pub fn check_chat(text: &str) -> Result<String, String> {
    use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};
    let kept: String = text
        .chars()
        .filter(|c| {
            !matches!(
                c.general_category(),
                GeneralCategory::Control
                    | GeneralCategory::Format
                    | GeneralCategory::LineSeparator
                    | GeneralCategory::ParagraphSeparator
            )
        })
        .collect();
    let kept = kept.trim();
    let chars = kept.chars().count();
    if chars == 0 || chars > MAX_CHAT_CHARS {
        return Err(format!(
            "a chat line has 1 to {MAX_CHAT_CHARS} characters that show"
        ));
    }
    Ok(kept.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_allowance_gives_a_burst_then_its_rate_and_a_polite_one_stays_under_the_servers() {
        let start = std::time::Instant::now();
        let mut server = Allowance::server(start);
        assert_eq!((0..40).filter(|_| server.take(start)).count(), 30);
        let later = start + std::time::Duration::from_millis(250);
        assert!(server.wait(later).is_zero(), "2.5 messages earned");
        assert_eq!((0..10).filter(|_| server.take(later)).count(), 2);
        assert!((server.wait(later).as_secs_f64() - 0.05).abs() < 1e-6);
        // A client that sends whenever its polite allowance lets it is never refused by the server's, even when
        // its messages arrive all at once.
        let mut polite = Allowance::polite(start);
        let mut server = Allowance::server(start);
        let mut now = start;
        for _ in 0..1_000 {
            now += polite.wait(now);
            assert!(polite.take(now));
            assert!(server.take(now), "refused at {:?}", now - start);
        }
    }

    #[test]
    fn messages_read_and_mistakes_say_where() {
        assert_eq!(
            parse(r#"{"type":"bet","amount":2500}"#),
            Ok(ClientMessage::Bet {
                amount: Cents(2_500)
            })
        );
        assert_eq!(
            parse(r#"{"type":"play","action":"Hit"}"#),
            Ok(ClientMessage::Play {
                action: Action::Hit
            })
        );
        let (code, message) = parse(r#"{"type":"bet","amount":"lots"}"#).expect_err("refused");
        assert_eq!(code, Refusal::BadMessage);
        assert!(message.contains("column"), "{message}");
        let (code, _) = parse(r#"{"type":"teleport"}"#).expect_err("refused");
        assert_eq!(code, Refusal::BadMessage);
        let (code, _) = parse(r#"{"type":"lobby","extra":1}"#).expect_err("refused");
        assert_eq!(code, Refusal::BadMessage);
        let (code, _) = parse(&"x".repeat(MAX_MESSAGE_BYTES + 1)).expect_err("refused");
        assert_eq!(code, Refusal::TooLarge);
    }

    #[test]
    fn names_and_chat_lines_are_checked_and_shown_as_text() {
        assert_eq!(check_name("  Mae "), Ok("Mae".to_string()));
        assert!(check_name("").is_err());
        assert!(check_name("<script>").is_err());
        assert!(check_name(&"a".repeat(MAX_NAME_CHARS + 1)).is_err());
        assert_eq!(
            check_chat("nice <b>hand</b>\nSYSTEM: you win"),
            Ok("nice <b>hand</b>SYSTEM: you win".to_string())
        );
        assert!(check_chat("   ").is_err());
        assert!(check_chat(&"a".repeat(MAX_CHAT_CHARS + 1)).is_err());
        // Nothing invisible, nothing that turns the text around, no line breaks of Unicode's own.
        assert_eq!(
            check_chat(
                "pay\u{200B}pal \u{202E}evil\u{202C} one\u{2028}two\u{2029}\u{2066}x\u{2069}\u{FEFF}"
            ),
            Ok("paypal evil onetwox".to_string())
        );
        assert!(
            check_chat("\u{200B}\u{202E} \u{2028}").is_err(),
            "nothing that shows"
        );
        // Accents, other scripts and emoji stay.
        assert_eq!(
            check_chat("¡Olé! Привет 👍"),
            Ok("¡Olé! Привет 👍".to_string())
        );
    }
}
