//! The protocol fuzzed against the real server binary. Several clients at once, each from its own seed, send random
//! sequences of every message type with fields wrong, out of range, out of turn and out of order, frames that are not
//! messages at all (binary, oversized, unfinished JSON), hang up and come back, and log out, for a bounded time
//! (`HOLECARD_FUZZ_SECONDS`, 15 by default). Meanwhile every message the server sends must read as the protocol says
//! and every table's news must follow each client's view of it, in order and without a gap. Afterwards: the process
//! is alive and answers at once, a view of each table built from its news alone is exactly the one the server gives
//! a newcomer (no refusal changed anything unseen), every table deals and plays a round to its end, nothing panicked,
//! and the ledger balances.

mod serving;

use holecard::engine::{Event, TableView};
use holecard::host::News;
use holecard::server::protocol::ServerMessage;
use serving::{Client, Db, Read, account, check_ledger, http, launch_with, pump, read_one};
use std::collections::BTreeMap;
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

on_both!(many_clients_sending_anything_change_nothing_unseen_and_every_table_deals);

/// The tables the clients aim at (of `levels/`), besides ones that do not exist.
const TABLES: [&str; 2] = ["las-vegas-strip", "downtown-single-deck"];

/// Clients at once; every other one an account.
const CLIENTS: usize = 8;

fn fuzz_time() -> Duration {
    let seconds = std::env::var("HOLECARD_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(15);
    Duration::from_secs(seconds)
}

/// Xorshift dice: a failure can be run again from its client's seed.
struct Dice(u64);

impl Dice {
    fn roll(&mut self, below: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % below as u64) as usize
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.roll(from.len())]
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.roll(100) < percent
    }
}

/// What a client does next.
enum Step {
    Text(String),
    Binary(Vec<u8>),
    HangUp,
    LogOut,
}

const VERSIONS: &[&str] = &[
    "1",
    "1",
    "1",
    "0",
    "2",
    "-1",
    "\"1\"",
    "null",
    "1.5",
    "18446744073709551616",
];
const NAMES: &[&str] = &[
    "\"\"",
    "\"   \"",
    "\"A\\u0000B\"",
    "\"\\u202eevil\"",
    "123",
    "null",
    "\"Mae\"",
    "\"\\u0410lice\"",
    "\"<script>\"",
];
const TABLE_IDS: &[&str] = &[
    "\"las-vegas-strip\"",
    "\"las-vegas-strip\"",
    "\"downtown-single-deck\"",
    "\"downtown-single-deck\"",
    "\"\"",
    "\"nowhere\"",
    "\"../levels/las-vegas-strip\"",
    "5",
    "null",
];
const SEATS: &[&str] = &[
    "0", "1", "2", "3", "4", "5", "6", "7", "255", "-1", "65536", "1e3", "\"3\"", "null",
];
const AMOUNTS: &[&str] = &[
    "1000",
    "1000",
    "2500",
    "10000",
    "0",
    "-100",
    "1",
    "999",
    "1050",
    "500000",
    "500100",
    "100000000",
    "9223372036854775807",
    "-9223372036854775808",
    "1e30",
    "\"100\"",
    "null",
    "2.5",
];
const ACTIONS: &[&str] = &[
    "\"Hit\"",
    "\"Stand\"",
    "\"Stand\"",
    "\"Double\"",
    "\"Split\"",
    "\"Surrender\"",
    "\"DeclineSurrender\"",
    "\"TakeInsurance\"",
    "\"DeclineInsurance\"",
    "\"TakeEvenMoney\"",
    "\"DeclineEvenMoney\"",
    "\"Fly\"",
    "\"hit\"",
    "3",
    "null",
];
const TEXTS: &[&str] = &[
    "\"hi\"",
    "\"\"",
    "\" \"",
    "\"\\u200b\"",
    "\"\\u202eabc\\u202c\"",
    "\"a\\u2028b\"",
    "\"\\ud83c\\udca1\"",
    "\"\\ud800\"",
    "7",
    "null",
];
const BROKEN: &[&str] = &[
    "",
    "{",
    "null",
    "[]",
    "42",
    "\"hello\"",
    "{\"type\":\"Hello\"}",
    "{\"type\":\"bet\"}",
    "{\"type\":\"sit\",\"table\":\"las-vegas-strip\"}",
    "{\"type\":\"bet\",\"amount\":1000,\"seat\":0}",
    "{\"type\":\"play\",\"action\":\"Hit\",\"seat\":0}",
    "{\"type\":\"lobby\",\"x\":1}",
    "{\"type\":\"stand\",\"table\":\"las-vegas-strip\"}",
    "{\"type\":null}",
    "{\"type\":\"bet\",\"amount\":1000}{\"type\":\"bet\",\"amount\":2000}",
];

/// The next step of a client: mostly the messages that move a table, each with any of its fields wrong.
fn step(dice: &mut Dice, token: Option<&str>) -> Step {
    let text = match dice.roll(100) {
        0..4 => {
            let name = if dice.chance(60) {
                format!("\"Fz{}\"", dice.roll(1000))
            } else {
                dice.pick(NAMES).to_string()
            };
            let since = dice.pick(&["", ",\"since\":3", ",\"since\":-1", ",\"since\":\"x\""]);
            match token {
                Some(token) if dice.chance(50) => {
                    format!(r#"{{"type":"hello","version":2,"token":"{token}"{since}}}"#)
                }
                _ if dice.chance(20) => {
                    r#"{"type":"hello","version":2,"token":"00000000000000000000000000000000"}"#
                        .to_string()
                }
                _ => format!(
                    r#"{{"type":"hello","version":{},"name":{name}{since}}}"#,
                    dice.pick(VERSIONS)
                ),
            }
        }
        4..6 => r#"{"type":"lobby"}"#.to_string(),
        6..16 => format!(
            r#"{{"type":"sit","table":{},"seat":{}}}"#,
            dice.pick(TABLE_IDS),
            dice.pick(SEATS)
        ),
        16..19 => format!(r#"{{"type":"watch","table":{}}}"#, dice.pick(TABLE_IDS)),
        19..40 => format!(r#"{{"type":"bet","amount":{}}}"#, dice.pick(AMOUNTS)),
        40..64 => format!(r#"{{"type":"play","action":{}}}"#, dice.pick(ACTIONS)),
        64..67 => r#"{"type":"stand"}"#.to_string(),
        67..70 => r#"{"type":"reset"}"#.to_string(),
        70..76 => {
            let text = if dice.chance(10) {
                format!("\"{}\"", "x".repeat(200 + dice.roll(600)))
            } else {
                dice.pick(TEXTS).to_string()
            };
            format!(r#"{{"type":"chat","text":{text}}}"#)
        }
        76..88 => dice.pick(BROKEN).to_string(),
        88..90 => "[".repeat(1 + dice.roll(3_000)),
        90..92 => format!(r#"{{"type":"chat","text":"{}"}}"#, "y".repeat(4_100)),
        92..94 => return Step::Binary(vec![0xff; 1 + dice.roll(64)]),
        // Over the WebSocket layer's 64 KiB: the server closes the connection.
        94 => "z".repeat(70_000),
        95..98 => return Step::HangUp,
        _ if token.is_some() && dice.chance(20) => return Step::LogOut,
        _ => r#"{"type":"lobby"}"#.to_string(),
    };
    Step::Text(text)
}

/// One fuzzing client: its connection, what it has seen, and what was wrong.
struct Fuzzer {
    addr: SocketAddr,
    dice: Dice,
    name: String,
    /// An account's password, or none for a guest.
    password: Option<String>,
    token: Option<String>,
    ws: Option<WebSocket<MaybeTlsStream<TcpStream>>>,
    view: Option<TableView>,
    last_seq: u64,
    refused: BTreeMap<String, usize>,
    sent: usize,
    news: usize,
    rounds: usize,
    connections: usize,
    problems: Vec<String>,
}

impl Fuzzer {
    fn new(addr: SocketAddr, i: usize) -> Fuzzer {
        let password = i.is_multiple_of(2).then(|| "correct horse".to_string());
        let name = format!("Fuzz{i}");
        let token = password.as_ref().map(|p| account(addr, &name, p));
        Fuzzer {
            addr,
            dice: Dice(0x9E37_79B9_7F4A_7C15 ^ (i as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03)),
            name,
            password,
            token,
            ws: None,
            view: None,
            last_seq: 0,
            refused: BTreeMap::new(),
            sent: 0,
            news: 0,
            rounds: 0,
            connections: 0,
            problems: Vec::new(),
        }
    }

    fn connect(&mut self) {
        let Ok((ws, _)) = tungstenite::connect(format!("ws://{}/ws", self.addr)) else {
            self.problems.push("a connection was refused".into());
            return;
        };
        if let MaybeTlsStream::Plain(stream) = ws.get_ref() {
            let _ = stream.set_read_timeout(Some(Duration::from_millis(5)));
        }
        self.ws = Some(ws);
        self.view = None;
        self.connections += 1;
        // Mostly a proper hello first; sometimes one with a name that will not do, sometimes whatever comes.
        if self.dice.chance(10) {
            let hello = format!(
                r#"{{"type":"hello","version":2,"name":{}}}"#,
                self.dice.pick(NAMES)
            );
            self.send(Message::text(hello));
        } else if self.dice.chance(88) {
            let hello = match &self.token {
                Some(token) => format!(r#"{{"type":"hello","version":2,"token":"{token}"}}"#),
                None => format!(r#"{{"type":"hello","version":2,"name":"{}"}}"#, self.name),
            };
            self.send(Message::text(hello));
        }
    }

    fn send(&mut self, message: Message) {
        if let Some(ws) = self.ws.as_mut() {
            self.sent += 1;
            if ws.send(message).is_err() {
                self.ws = None;
            }
        }
    }

    /// Takes in what has arrived, checking each message against the protocol and each table's news against the view.
    fn read(&mut self) {
        while let Some(ws) = self.ws.as_mut() {
            match read_one(ws) {
                Read::Message(Ok(message)) => self.take(message),
                Read::Message(Err(e)) => self
                    .problems
                    .push(format!("unreadable from the server: {e}")),
                Read::Nothing => return,
                Read::Closed(_) => self.ws = None,
            }
        }
    }

    fn take(&mut self, message: ServerMessage) {
        match message {
            // A guest's session: coming back with it is part of the fuzz.
            ServerMessage::Welcome {
                token,
                account: false,
                ..
            } => self.token = self.token.clone().or(Some(token)),
            ServerMessage::Joined { seq, view, .. } => {
                self.view = Some(*view);
                self.last_seq = seq;
            }
            ServerMessage::News { seq, news } => {
                let Some(view) = self.view.as_mut() else {
                    self.problems
                        .push(format!("news {seq} before joining a table"));
                    return;
                };
                if seq != self.last_seq + 1 {
                    self.problems
                        .push(format!("news {seq} after {}: a gap", self.last_seq));
                }
                self.last_seq = seq;
                self.news += 1;
                if let News::Event(event) = &news {
                    if matches!(event, Event::RoundStarted { .. }) {
                        self.rounds += 1;
                    }
                    if let Err(e) = view.apply(event) {
                        self.problems.push(format!(
                            "news {seq} does not follow the view: {e}: {event:?}"
                        ));
                    }
                }
            }
            ServerMessage::Refused { code, .. } => {
                *self.refused.entry(format!("{code:?}")).or_default() += 1;
            }
            _ => {}
        }
    }

    fn log_out_and_in(&mut self) {
        let (Some(token), Some(password)) = (self.token.clone(), self.password.clone()) else {
            return;
        };
        let (status, body) = http(self.addr, "POST", "/api/logout", None, Some(&token));
        if status != 204 {
            self.problems
                .push(format!("logout answered {status}: {body}"));
        }
        // Whatever the connection was doing, it ends; a new session starts.
        self.read();
        self.ws = None;
        let credentials = format!(r#"{{"name":"{}","password":"{password}"}}"#, self.name);
        let (status, body) = http(self.addr, "POST", "/api/login", Some(&credentials), None);
        match serde_json::from_str::<serde_json::Value>(&body) {
            Ok(answer) if status == 200 => self.token = answer["token"].as_str().map(String::from),
            // The login limit may stop it: then it plays on as a guest of its own name's look-alike... it just waits.
            _ if status == 429 => self.token = None,
            _ => self
                .problems
                .push(format!("login answered {status}: {body}")),
        }
    }

    fn run(mut self, until: Instant) -> Fuzzer {
        while Instant::now() < until {
            if self.ws.is_none() {
                self.connect();
            }
            match step(&mut self.dice, self.token.as_deref()) {
                Step::Text(text) => self.send(Message::text(text)),
                Step::Binary(bytes) => self.send(Message::binary(bytes)),
                Step::HangUp => {
                    if let Some(mut ws) = self.ws.take() {
                        let _ = ws.close(None);
                    }
                }
                Step::LogOut => self.log_out_and_in(),
            }
            // Faster than the server's allowance now and then (bursts), slower at other times.
            let pause = self.dice.roll(60) as u64;
            let until_read = Instant::now() + Duration::from_millis(pause);
            loop {
                self.read();
                if Instant::now() >= until_read || self.ws.is_none() {
                    break;
                }
            }
        }
        // Done: up from any seat, and gone.
        self.send(Message::text(r#"{"type":"stand"}"#));
        self.read();
        if let Some(mut ws) = self.ws.take() {
            let _ = ws.close(None);
        }
        self
    }
}

fn many_clients_sending_anything_change_nothing_unseen_and_every_table_deals(db: &Db) {
    // Quick tables: bets and turns of a second, companions at once, a dropped seat held two seconds.
    let hold = Duration::from_secs(2);
    let server = launch_with(
        db,
        ("1", "1", "0"),
        &["--per-address", "64", "--hold-seconds", "2"],
    );
    let addr = server.addr;
    let until = Instant::now() + fuzz_time();
    let fuzzers: Vec<Fuzzer> = std::thread::scope(|scope| {
        let running: Vec<_> = (0..CLIENTS)
            .map(|i| {
                let fuzzer = Fuzzer::new(addr, i);
                scope.spawn(move || fuzzer.run(until))
            })
            .collect();
        running
            .into_iter()
            .map(|f| f.join().expect("a fuzzing client panicked"))
            .collect()
    });
    let mut refused: BTreeMap<String, usize> = BTreeMap::new();
    let (mut sent, mut news, mut rounds, mut connections) = (0, 0, 0, 0);
    for fuzzer in &fuzzers {
        assert!(
            fuzzer.problems.is_empty(),
            "{}: {:#?}",
            fuzzer.name,
            fuzzer.problems
        );
        for (code, n) in &fuzzer.refused {
            *refused.entry(code.clone()).or_default() += n;
        }
        sent += fuzzer.sent;
        news += fuzzer.news;
        rounds += fuzzer.rounds;
        connections += fuzzer.connections;
    }
    eprintln!(
        "fuzzed: {sent} messages over {connections} connections; {news} news followed, {rounds} rounds seen dealt; \
         refused {refused:?}"
    );
    // It was a fuzz: plenty sent, refused for many reasons, and the tables played on meanwhile.
    assert!(sent > 500, "only {sent} messages");
    assert!(!refused.contains_key("Unavailable"), "{refused:?}");
    for code in [
        "BadMessage",
        "TooLarge",
        "NotAllowed",
        "NotSeated",
        "BadName",
        "NoSuchTable",
        "BadChat",
    ] {
        assert!(
            refused.contains_key(code),
            "never refused {code}: {refused:?}"
        );
    }
    assert!(rounds > 0, "no round was dealt while the clients fuzzed");

    let checked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        // Seats held for connections that dropped are given up.
        std::thread::sleep(hold + Duration::from_millis(500));
        // The server is alive and answers at once.
        let (status, lobby) = http(addr, "GET", "/api/tables", None, None);
        assert_eq!(status, 200, "{lobby}");
        // Every table deals and plays a round to its end; a view built from its news alone is the server's own.
        for (i, table) in TABLES.into_iter().enumerate() {
            let mut watcher = Client::connect_at(addr, &format!("Watcher{i}"));
            watcher.send(&format!(r#"{{"type":"watch","table":"{table}"}}"#));
            watcher.wait_for(|m| matches!(m, ServerMessage::Joined { .. }));
            let mut player = Client::connect_at(addr, &format!("Closer{i}"));
            let seat = player.sit_anywhere(table);
            let ended = player.rounds_ended();
            player.send(&format!(
                r#"{{"type":"bet","amount":{}}}"#,
                player.min_bet().0
            ));
            pump(&mut [&mut player, &mut watcher], |c| {
                c[0].rounds_ended() > ended
            });
            player.send(r#"{"type":"stand"}"#);
            watcher.wait_for(|m| {
            matches!(m, ServerMessage::News { news: News::GotUp { seat: s }, .. } if *s == seat)
        });
            // With no one seated, the table rests; a newcomer is given the table as the server holds it.
            let mut newcomer = Client::connect_at(addr, &format!("Newcomer{i}"));
            newcomer.send(&format!(r#"{{"type":"watch","table":"{table}"}}"#));
            newcomer.wait_for(|m| matches!(m, ServerMessage::Joined { .. }));
            watcher.poll();
            assert_eq!(
                watcher.view, newcomer.view,
                "{table}: the news and the table differ"
            );
        }
    }));
    let stderr = server.kill();
    // Nothing a client sent was heard as the ledger failing.
    assert!(!stderr.contains("the ledger:"), "{stderr}");
    if let Err(failed) = checked {
        eprintln!("the server's standard error:\n{stderr}");
        std::panic::resume_unwind(failed);
    }
    assert!(!stderr.contains("panicked"), "{stderr}");
    let report = check_ledger(db);
    eprintln!("ledger after the fuzz: {report}");
}
