//! The bank test, in the manner of Jepsen's: for a bounded time (`HOLECARD_BANK_SECONDS`, 40 by default), many
//! clients of a few shared accounts race what players do (log in and out, say hello, sit, bet, stand, reset, drop the
//! connection, register look-alike names, come in as guests under names others want) against the two-process
//! cluster on PostgreSQL (`scripts/casino-cluster`, through nginx, each client from an address of its own), while
//! the processes are killed with SIGKILL and started again, their LISTEN connections cut, and every connection to
//! the ledger cut. Each client writes down what it was told and when; afterwards a checker proves, from those notes
//! and the ledger: the ledger balances and holds no dispute; no account played two rounds at two seats at once; no two
//! accounts share a look, and no guest was welcomed under an account's look or another guest's while both were here;
//! no connection acted (sat, bet, reset, was welcomed) after its session had ended; every round told to a player is
//! the round the ledger kept, to the chip; no account was reset twice. It prints how many operations and faults it
//! ran. Needs nginx and PostgreSQL (installed by `.ci/run`; required on CI, skipped elsewhere, saying so).

mod serving;

use holecard::engine::{Cents, Event, SeatId, TableRng, seed_from_number};
use holecard::host::News;
use holecard::server::ledger::look_of;
use holecard::server::protocol::{Listing, Refusal, ServerMessage};
use serving::cluster::Cluster;
use serving::{Backend, Client, Db, NotWelcomed, http_from, json};
use std::collections::BTreeMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The accounts the clients share, all registered before the run.
const ACCOUNTS: [&str; 5] = ["Bank0", "Bank1", "Bank2", "Bank3", "Bank4"];
/// Clients racing, two or three on each account.
const CLIENTS: usize = 12;
const PASSWORD: &str = "correct horse";
/// Names guests take, in families that look alike (the last of some mixes scripts and is refused). Accounts are
/// registered under the first two families' names (one of each look at most can be made) and under names of their
/// own; the last family is the accounts' own names, which no guest may take.
const FAMILIES: [&[&str]; 5] = [
    &["Mallory", "MALLORY", "mallory", "Ｍallory", "Mаllory"],
    &["Quinn", "QUINN", "quinn", "Ｑuinn"],
    &["Rosa", "ROSA", "rosa", "Ｒosa"],
    &["Theo", "THEO", "theo", "Τheo"],
    &["BANK0", "bank1", "Bank2", "ＢＡＮＫ3"],
];
/// How long a connection of an ended session may take to be closed (a server that lost its LISTEN connection
/// listens again within a second or two and asks the ledger).
const ENDING_TAKES: Duration = Duration::from_secs(15);
/// How far apart two clients' clocks of one event may be (the news reaches them one after the other).
const SLACK: Duration = Duration::from_millis(150);

#[test]
fn the_bank_keeps_every_chip_through_races_and_faults() {
    let Some(db) = Db::on(Backend::Postgres) else {
        return;
    };
    let Some(cluster) = Cluster::start(
        &db,
        "bank",
        &[
            "--bet-seconds",
            "1",
            "--turn-seconds",
            "2",
            "--companion-ms",
            "0",
            "--hold-seconds",
            "2",
            "--stake",
            "1000",
            "--logins-per-name",
            "100000",
        ],
    ) else {
        return;
    };
    let addr = cluster.addr;
    let tables = lobby(addr);
    let home = IpAddr::from([127, 0, 2, 1]);
    let log = Mutex::new(Log::default());
    for name in ACCOUNTS {
        let credentials = format!(r#"{{"name":"{name}","password":"{PASSWORD}"}}"#);
        let (status, _, body) = http_from(
            home,
            addr,
            "POST",
            "/api/register",
            Some(&credentials),
            None,
        );
        assert_eq!(status, 200, "{body}");
        note(&log).registered.push(Registered {
            look: look_of(name),
            answered: Instant::now(),
        });
    }
    let seconds: u64 = std::env::var("HOLECARD_BANK_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(40);
    let until = Instant::now() + Duration::from_secs(seconds);
    let running = AtomicBool::new(true);
    let (faults, rounds) = std::thread::scope(|scope| {
        let faults = scope.spawn(|| put_faults(&cluster, &db, &running));
        let watchers: Vec<_> = tables
            .iter()
            .enumerate()
            .map(|(n, table)| {
                let running = &running;
                scope.spawn(move || watch(addr, table, n, running))
            })
            .collect();
        let clients: Vec<_> = (0..CLIENTS)
            .map(|n| {
                let (tables, log) = (&tables, &log);
                scope.spawn(move || {
                    let mut client = Player::new(n, addr, tables, log);
                    while Instant::now() < until {
                        client.step();
                    }
                    client.gone();
                })
            })
            .collect();
        for client in clients {
            client.join().expect("a client ran to the end");
        }
        running.store(false, Ordering::Relaxed);
        let mut rounds = Rounds::new();
        for watcher in watchers {
            rounds.extend(watcher.join().expect("a watcher ran"));
        }
        (faults.join().expect("the faults ran"), rounds)
    });
    // Both processes up again before the cluster stops cleanly.
    cluster.wait_started("a", faults.started("a"));
    cluster.wait_started("b", faults.started("b"));
    drop(cluster);

    let log = log.into_inner().expect("the notes");
    println!(
        "the bank ran {seconds} s: {CLIENTS} clients on {} accounts",
        ACCOUNTS.len()
    );
    for (op, counts) in &log.ops {
        println!("  {op:<10} {counts:?}");
    }
    println!("  faults: {:?}", faults.counts);
    println!("  refused: {:?}", log.refusals);
    println!(
        "  {} rounds told, {} logouts, {} guest stays, {} registrations",
        log.told.len(),
        log.logouts.len(),
        log.guests.len(),
        log.registered.len()
    );
    println!("  {} rounds timed by the watchers", rounds.len());

    let mut wrong = acted_after_ending(&log);
    let report = serving::ledger_report(&db);
    if report["balanced"] != true {
        wrong.push(format!(
            "the ledger does not balance: {:#}",
            report["report"]["problems"]
        ));
    }
    wrong.extend(ledger_disagrees(&db, &log));
    let (twice, timed) = seated_twice(&db, &log.told, &rounds);
    wrong.extend(twice);
    wrong.extend(looks_shared(&db, &log));
    assert!(wrong.is_empty(), "{}\n{report}", wrong.join("\n"));

    // It did what it says it did.
    for (op, least) in [
        ("sit", 10),
        ("bet", 20),
        ("logout", 3),
        ("register", 3),
        ("guest", 3),
        ("hello", 10),
    ] {
        let done = log.ops.get(op).map_or(0, |c| c.done);
        assert!(done >= least, "{op} was done {done} times: {:?}", log.ops);
    }
    assert!(log.told.len() >= 20, "{} rounds told", log.told.len());
    assert!(
        timed >= 20,
        "{timed} rounds of accounts timed by the watchers"
    );
    assert!(
        faults.counts.values().all(|n| *n >= 1),
        "{:?}",
        faults.counts
    );
}

/// What the clients were told, and when.
#[derive(Default)]
struct Log {
    ops: BTreeMap<&'static str, Counts>,
    /// Why operations were refused: by operation and the answer's code.
    refusals: BTreeMap<String, u32>,
    /// Logouts answered 204 (a logout with a session already ended is answered so too, and ends nothing).
    logouts: Vec<Logout>,
    /// What the connections of sessions were granted: welcomed, seated, a bet taken, a reset.
    acts: Vec<Act>,
    /// Connections of sessions, and until when each was open.
    lives: Vec<Life>,
    told: Vec<Told>,
    /// Resets told done, by account.
    resets: BTreeMap<usize, u32>,
    registered: Vec<Registered>,
    guests: Vec<Stay>,
}

#[derive(Clone, Copy, Debug, Default)]
struct Counts {
    tried: u32,
    done: u32,
    refused: u32,
    /// The connection broke, or no answer came (a server killed, the ledger cut).
    lost: u32,
}

/// When a session was made: between its login's asking and its answer.
#[derive(Clone, Copy, Debug)]
struct Made {
    asked: Instant,
    answered: Instant,
}

/// A logout of `account` with the session made at `made`, asked and answered.
#[derive(Clone, Copy, Debug)]
struct Logout {
    account: usize,
    made: Made,
    asked: Instant,
    answered: Instant,
}

/// Something a connection of `account`'s session made at `made` asked at `sent`, and was granted.
#[derive(Clone, Debug)]
struct Act {
    client: usize,
    account: usize,
    made: Made,
    sent: Instant,
    what: &'static str,
}

/// A connection of `account`'s session made at `made`, open until `until` (the client saw it closed, or closed
/// it).
#[derive(Clone, Copy, Debug)]
struct Life {
    client: usize,
    account: usize,
    made: Made,
    until: Instant,
}

/// A round a player was told the end of, with its chips after it.
#[derive(Clone, Debug)]
struct Told {
    account: usize,
    table: String,
    seat: SeatId,
    round: u64,
    chips: Cents,
}

/// An account made.
struct Registered {
    look: String,
    answered: Instant,
}

/// A guest welcomed under `look` from `welcomed` until it closed the connection at `closed` (`clean`), or until its
/// connection broke (then when the server let the name go is not known).
struct Stay {
    look: String,
    welcomed: Instant,
    closed: Instant,
    clean: bool,
}

fn note(log: &Mutex<Log>) -> std::sync::MutexGuard<'_, Log> {
    log.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The lobby through nginx: every table of both processes, with its path.
fn lobby(addr: SocketAddr) -> Vec<Listing> {
    let (status, body) = serving::http(addr, "GET", "/api/tables", None, None);
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

/// One client: an account's player (sharing the account with others), from an address of its own.
struct Player<'a> {
    n: usize,
    from: IpAddr,
    addr: SocketAddr,
    rng: TableRng,
    tables: &'a [Listing],
    log: &'a Mutex<Log>,
    account: usize,
    /// Its session's token, and when it was made.
    token: Option<(String, Made)>,
    conn: Option<Conn>,
    /// Names of its own registered so far.
    fresh: u32,
}

/// A connection of the account's session.
struct Conn {
    client: Client,
    route: String,
    /// When the session it speaks for was made.
    made: Made,
    /// Rounds of `client.played` noted.
    told: usize,
}

/// A refusal's code, or what came instead.
fn code_of(message: &ServerMessage) -> String {
    match message {
        ServerMessage::Refused { code, .. } => format!("{code:?}"),
        _ => "another answer".to_string(),
    }
}

/// What came of waiting for an answer.
enum Answer {
    Got(ServerMessage),
    Lost,
}

impl<'a> Player<'a> {
    fn new(n: usize, addr: SocketAddr, tables: &'a [Listing], log: &'a Mutex<Log>) -> Player<'a> {
        Player {
            n,
            from: IpAddr::from([127, 0, 3, 1 + n as u8]),
            addr,
            rng: TableRng::from_seed(seed_from_number(n as u64)),
            tables,
            log,
            account: n % ACCOUNTS.len(),
            token: None,
            conn: None,
            fresh: 0,
        }
    }

    fn name(&self) -> &'static str {
        ACCOUNTS[self.account]
    }

    /// Counts a refusal of `op`, and why.
    fn refused(&self, op: &'static str, why: impl std::fmt::Debug) {
        self.count(op, |c| c.refused += 1);
        *note(self.log)
            .refusals
            .entry(format!("{op}: {why:?}"))
            .or_default() += 1;
    }

    fn count(&self, op: &'static str, f: impl FnOnce(&mut Counts)) {
        let mut log = note(self.log);
        let counts = log.ops.entry(op).or_default();
        counts.tried += 1;
        f(counts);
    }

    /// Notes what a connection of the session made at `made`, asked at `sent`, was granted.
    fn granted(&self, made: Made, sent: Instant, what: &'static str) {
        note(self.log).acts.push(Act {
            client: self.n,
            account: self.account,
            made,
            sent,
            what,
        });
    }

    /// The connection is gone (closed by the server, or by this client): how long it lived is noted.
    fn gone(&mut self) {
        if let Some(conn) = self.conn.take() {
            note(self.log).lives.push(Life {
                client: self.n,
                account: self.account,
                made: conn.made,
                until: Instant::now(),
            });
        }
    }

    /// One operation, chosen by the player's state and its generator.
    fn step(&mut self) {
        self.keep_up();
        let roll = self.rng.below(100);
        let seated = self.conn.as_ref().and_then(|c| c.client.seat).is_some();
        match (&self.token, &self.conn, seated) {
            (None, _, _) => match roll {
                0..70 => self.login(),
                70..85 => self.guest(),
                _ => self.register(),
            },
            (Some(_), None, _) => match roll {
                0..72 => self.hello(),
                72..75 => self.logout(),
                75..85 => self.guest(),
                85..92 => self.register(),
                _ => self.login(),
            },
            (Some(_), Some(_), false) => match roll {
                0..50 => self.sit(),
                50..62 => self.reset(),
                62..65 => self.logout(),
                65..75 => self.drop_connection(),
                75..85 => self.guest(),
                85..95 => self.register(),
                _ => self.login(),
            },
            (Some(_), Some(_), true) => match roll {
                0..55 => self.bet(),
                55..65 => self.stand(),
                65..74 => self.reset(),
                74..77 => self.logout(),
                77..84 => self.drop_connection(),
                84..90 => self.guest(),
                90..95 => self.register(),
                _ => self.login(),
            },
        }
    }

    /// Reads what the connection was sent, notes the rounds it was told, and lets it go when it has closed.
    fn keep_up(&mut self) {
        let Some(conn) = self.conn.as_mut() else {
            return;
        };
        let alive = conn.client.try_poll().is_ok();
        let account = self.account;
        let told: Vec<Told> = conn.client.played[conn.told..]
            .iter()
            .map(|(table, round, seat, chips)| Told {
                account,
                table: table.clone(),
                seat: *seat,
                round: *round,
                chips: *chips,
            })
            .collect();
        conn.told = conn.client.played.len();
        if !told.is_empty() {
            note(self.log).told.extend(told);
        }
        if !alive {
            self.gone();
        }
    }

    /// Waits (at most `patience`) for a message after the first `from` of the connection's that `wanted` takes,
    /// keeping up with the rest.
    fn answer(
        &mut self,
        from: usize,
        patience: Duration,
        wanted: impl Fn(&ServerMessage) -> bool,
    ) -> Answer {
        let until = Instant::now() + patience;
        while Instant::now() < until {
            let Some(conn) = self.conn.as_ref() else {
                return Answer::Lost;
            };
            if let Some(found) = conn.client.got[from..].iter().find(|m| wanted(m)) {
                return Answer::Got(found.clone());
            }
            self.keep_up();
            std::thread::sleep(Duration::from_millis(5));
        }
        Answer::Lost
    }

    /// Sends `text` on the connection: the index its answer will come after, and when it was sent.
    fn send(&mut self, text: &str) -> Option<(usize, Instant)> {
        let conn = self.conn.as_mut()?;
        let from = conn.client.got.len();
        let sent = Instant::now();
        if conn.client.try_send(text) {
            Some((from, sent))
        } else {
            self.gone();
            None
        }
    }

    fn login(&mut self) {
        let credentials = format!(r#"{{"name":"{}","password":"{PASSWORD}"}}"#, self.name());
        let asked = Instant::now();
        let (status, _, body) = http_from(
            self.from,
            self.addr,
            "POST",
            "/api/login",
            Some(&credentials),
            None,
        );
        match status {
            200 => self.count("login", |c| c.done += 1),
            401 => self.refused("login", status),
            // nginx's limit on password attempts from one address: a client waits, as Retry-After says.
            429 => {
                self.refused("login", status);
                std::thread::sleep(Duration::from_millis(500));
            }
            _ => self.count("login", |c| c.lost += 1),
        }
        if status == 200 {
            let token = json(&body)["token"].as_str().expect("a token").to_string();
            self.token = Some((
                token,
                Made {
                    asked,
                    answered: Instant::now(),
                },
            ));
        }
    }

    fn logout(&mut self) {
        let Some((token, made)) = self.token.take() else {
            return;
        };
        let asked = Instant::now();
        let (status, _, _) = http_from(
            self.from,
            self.addr,
            "POST",
            "/api/logout",
            None,
            Some(&token),
        );
        let ended = Instant::now();
        match status {
            204 => self.count("logout", |c| c.done += 1),
            401 => self.refused("logout", status),
            _ => self.count("logout", |c| c.lost += 1),
        }
        if status != 204 {
            return;
        }
        note(self.log).logouts.push(Logout {
            account: self.account,
            made,
            asked,
            answered: ended,
        });
        // The connection of the ended session tries once more to act, then must be closed.
        if self.conn.as_ref().and_then(|c| c.client.seat).is_some() {
            self.bet();
        } else if self.conn.is_some() {
            self.sit();
        }
        while self.conn.is_some() && ended.elapsed() < ENDING_TAKES + Duration::from_secs(1) {
            self.keep_up();
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    fn hello(&mut self) {
        let Some((token, made)) = self.token.clone() else {
            return;
        };
        let tables = self.tables;
        let table = &tables[self.rng.below(tables.len() as u32) as usize];
        let route = table.ws.clone().unwrap_or_else(|| "/ws".to_string());
        let sent = Instant::now();
        let hello = format!(r#"{{"type":"hello","version":2,"token":"{token}"}}"#);
        match serving::hello_from(self.from, self.addr, &route, &hello) {
            Ok(client) => {
                self.count("hello", |c| c.done += 1);
                self.granted(made, sent, "welcomed");
                self.conn = Some(Conn {
                    client,
                    route,
                    made,
                    told: 0,
                });
            }
            Err(NotWelcomed::Refused(code, _)) => {
                self.refused("hello", code);
                // Its session has ended (or the token is not known: the same, to a client).
                if matches!(code, Refusal::SessionEnded | Refusal::BadName) {
                    self.token = None;
                }
            }
            Err(NotWelcomed::Broken(_)) => self.count("hello", |c| c.lost += 1),
        }
    }

    fn sit(&mut self) {
        let Some(conn) = self.conn.as_ref() else {
            return;
        };
        let here: Vec<&Listing> = self
            .tables
            .iter()
            .filter(|t| t.ws.as_deref() == Some(conn.route.as_str()))
            .collect();
        if here.is_empty() {
            return;
        }
        let (table, made) = (
            here[self.rng.below(here.len() as u32) as usize].id.clone(),
            conn.made,
        );
        // The seats from one at random on, until one is free (or the refusal is for another reason).
        let first = self.rng.below(7);
        let mut answer = Answer::Lost;
        let mut sent = Instant::now();
        for n in 0..7 {
            let seat = (first + n) % 7;
            let Some((from, at)) = self.send(&format!(
                r#"{{"type":"sit","table":"{table}","seat":{seat}}}"#
            )) else {
                break;
            };
            sent = at;
            answer = self.answer(from, Duration::from_secs(10), |m| {
                matches!(
                    m,
                    ServerMessage::Joined { .. } | ServerMessage::Refused { .. }
                )
            });
            let taken = matches!(
                &answer,
                Answer::Got(ServerMessage::Refused {
                    code: Refusal::SeatUnavailable,
                    message,
                }) if message.ends_with("is taken")
            );
            if !taken {
                break;
            }
        }
        match answer {
            Answer::Got(ServerMessage::Joined { seat: Some(_), .. }) => {
                self.count("sit", |c| c.done += 1);
                self.granted(made, sent, "sat down");
            }
            Answer::Got(other) => self.refused("sit", code_of(&other)),
            Answer::Lost => self.count("sit", |c| c.lost += 1),
        }
    }

    fn bet(&mut self) {
        let Some(conn) = self.conn.as_ref() else {
            return;
        };
        let (Some(seat), made) = (conn.client.seat, conn.made) else {
            return;
        };
        let (min, chips) = (conn.client.min_bet(), conn.client.chips());
        if chips < min || min <= Cents::ZERO {
            return self.reset();
        }
        let amount = if self.rng.below(30) == 0 {
            chips
        } else {
            Cents(min.0 * i64::from(1 + self.rng.below(4))).min(chips)
        };
        let Some((from, sent)) = self.send(&format!(r#"{{"type":"bet","amount":{}}}"#, amount.0))
        else {
            return self.count("bet", |c| c.lost += 1);
        };
        let answer = self.answer(from, Duration::from_secs(15), |m| {
            matches!(m, ServerMessage::Refused { .. })
                || matches!(m, ServerMessage::News {
                    news: News::Event(Event::BetSet { seat: s, .. }),
                    ..
                } if *s == seat)
        });
        match answer {
            Answer::Got(ServerMessage::News {
                news:
                    News::Event(Event::BetSet {
                        seat: s, amount: a, ..
                    }),
                ..
            }) if s == seat && a == amount => {
                self.count("bet", |c| c.done += 1);
                self.granted(made, sent, "bet");
                // Play the round out (the client plays the safe choice when its turn comes).
                let _ = self.answer(from, Duration::from_secs(15), |m| {
                    matches!(
                        m,
                        ServerMessage::News {
                            news: News::Event(Event::RoundEnded { .. }),
                            ..
                        }
                    )
                });
            }
            // Refused, or another amount than this bet's.
            Answer::Got(other) => self.refused("bet", code_of(&other)),
            Answer::Lost => self.count("bet", |c| c.lost += 1),
        }
    }

    fn stand(&mut self) {
        let Some(seat) = self.conn.as_ref().and_then(|c| c.client.seat) else {
            return;
        };
        let Some((from, _)) = self.send(r#"{"type":"stand"}"#) else {
            return self.count("stand", |c| c.lost += 1);
        };
        let answer = self.answer(from, Duration::from_secs(15), |m| {
            matches!(m, ServerMessage::Refused { .. })
                || matches!(m, ServerMessage::News {
                    news: News::GotUp { seat: s },
                    ..
                } if *s == seat)
        });
        match answer {
            Answer::Got(ServerMessage::News { .. }) => {
                self.count("stand", |c| c.done += 1);
                if let Some(conn) = self.conn.as_mut() {
                    conn.client.seat = None;
                }
            }
            Answer::Got(other) => self.refused("stand", code_of(&other)),
            Answer::Lost => self.count("stand", |c| c.lost += 1),
        }
    }

    fn reset(&mut self) {
        let Some(conn) = self.conn.as_ref() else {
            return;
        };
        let (seat, made) = (conn.client.seat, conn.made);
        let Some((from, sent)) = self.send(r#"{"type":"reset"}"#) else {
            return self.count("reset", |c| c.lost += 1);
        };
        let answer = self.answer(from, Duration::from_secs(10), |m| {
            matches!(
                m,
                ServerMessage::Balance { .. } | ServerMessage::Refused { .. }
            ) || matches!(m, ServerMessage::News {
                news: News::Event(Event::Rebought { seat: s, .. }),
                ..
            } if Some(*s) == seat)
        });
        match answer {
            Answer::Got(ServerMessage::Refused { code, .. }) => self.refused("reset", code),
            Answer::Got(_) => {
                self.count("reset", |c| c.done += 1);
                *note(self.log).resets.entry(self.account).or_default() += 1;
                self.granted(made, sent, "was reset");
            }
            Answer::Lost => self.count("reset", |c| c.lost += 1),
        }
    }

    fn drop_connection(&mut self) {
        if self.conn.is_some() {
            self.gone();
            self.count("drop", |c| c.done += 1);
        }
    }

    /// A name of one of the first `families` of [`FAMILIES`].
    fn any_name(&mut self, families: usize) -> &'static str {
        let family = FAMILIES[self.rng.below(families as u32) as usize];
        family[self.rng.below(family.len() as u32) as usize]
    }

    fn guest(&mut self) {
        let name = self.any_name(FAMILIES.len());
        let route = ["/ws", "/ws/a", "/ws/b"][self.rng.below(3) as usize];
        let hello = format!(r#"{{"type":"hello","version":2,"name":"{name}"}}"#);
        match serving::hello_from(self.from, self.addr, route, &hello) {
            Ok(mut client) => {
                let welcomed = Instant::now();
                self.count("guest", |c| c.done += 1);
                let stay = Duration::from_millis(200 + u64::from(self.rng.below(1300)));
                let mut clean = true;
                while welcomed.elapsed() < stay {
                    if client.try_poll().is_err() {
                        clean = false;
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(10));
                }
                let closed = Instant::now();
                if clean {
                    let _ = client.ws.close(None);
                    let _ = client.ws.flush();
                }
                note(self.log).guests.push(Stay {
                    look: look_of(name),
                    welcomed,
                    closed,
                    clean,
                });
            }
            Err(NotWelcomed::Refused(code, _)) => self.refused("guest", code),
            Err(NotWelcomed::Broken(_)) => self.count("guest", |c| c.lost += 1),
        }
    }

    fn register(&mut self) {
        self.fresh += 1;
        let name = if self.rng.below(2) == 0 {
            self.any_name(2).to_string()
        } else {
            format!("Newcomer{}x{}", self.n, self.fresh)
        };
        let credentials = format!(r#"{{"name":"{name}","password":"{PASSWORD}"}}"#);
        let (status, _, _) = http_from(
            self.from,
            self.addr,
            "POST",
            "/api/register",
            Some(&credentials),
            None,
        );
        let answered = Instant::now();
        match status {
            200 => self.count("register", |c| c.done += 1),
            400 | 409 | 429 => self.refused("register", status),
            _ => self.count("register", |c| c.lost += 1),
        }
        if status == 200 {
            note(self.log).registered.push(Registered {
                look: look_of(&name),
                answered,
            });
        }
    }
}

/// When each round (by table and number) started and ended, as a watcher of its table heard it.
type Rounds = BTreeMap<(String, u64), (Instant, Instant)>;

/// A guest watching `table` for as long as the clients play, coming back (under a new name) whenever its
/// connection breaks: when each round it saw whole started and ended. It does nothing else, so it hears each
/// within milliseconds.
fn watch(addr: SocketAddr, table: &Listing, n: usize, running: &AtomicBool) -> Rounds {
    let mut rounds = Rounds::new();
    let from = IpAddr::from([127, 0, 4, 1 + n as u8]);
    let route = table.ws.clone().unwrap_or_else(|| "/ws".to_string());
    let mut tries = 0;
    while running.load(Ordering::Relaxed) {
        tries += 1;
        let hello = format!(r#"{{"type":"hello","version":2,"name":"Watcher{n}x{tries}"}}"#);
        let Ok(mut client) = serving::hello_from(from, addr, &route, &hello) else {
            std::thread::sleep(Duration::from_millis(200));
            continue;
        };
        if !client.try_send(&format!(r#"{{"type":"watch","table":"{}"}}"#, table.id)) {
            continue;
        }
        let (mut started, mut read) = (None, 0);
        while running.load(Ordering::Relaxed) && client.try_poll().is_ok() {
            let now = Instant::now();
            for message in &client.got[read..] {
                let ServerMessage::News {
                    news: News::Event(event),
                    ..
                } = message
                else {
                    continue;
                };
                match *event {
                    Event::RoundStarted { round } => started = Some((round, now)),
                    Event::RoundEnded { round } => {
                        if let Some((heard, at)) = started.take()
                            && heard == round
                        {
                            rounds.insert((table.id.clone(), round), (at, now));
                        }
                    }
                    _ => {}
                }
            }
            read = client.got.len();
        }
    }
    rounds
}

/// The faults put in while the clients play, and how many of each.
struct Faults {
    counts: BTreeMap<&'static str, u32>,
}

impl Faults {
    /// How many times the process `name` has started, counting its first.
    fn started(&self, name: &str) -> usize {
        let kill = if name == "a" { "kill a" } else { "kill b" };
        1 + self.counts.get(kill).copied().unwrap_or(0) as usize
    }
}

/// Every two seconds while the clients play, the next fault in turn: process A killed with SIGKILL (the script
/// starts it again), every server's LISTEN connection cut, process B killed, every connection to the ledger cut.
fn put_faults(cluster: &Cluster, db: &Db, running: &AtomicBool) -> Faults {
    let mut faults = Faults {
        counts: BTreeMap::new(),
    };
    let every = Duration::from_secs(2);
    let mut next = Instant::now() + every;
    let mut turn = 0usize;
    while running.load(Ordering::Relaxed) {
        if Instant::now() < next {
            std::thread::sleep(Duration::from_millis(20));
            continue;
        }
        next += every;
        let kind = match turn % 4 {
            0 => {
                let times = faults.started("a");
                cluster.wait_started("a", times);
                assert!(cluster.kill("a"), "A was killed");
                "kill a"
            }
            1 => {
                serving::on_the_ledger(
                    db,
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
                     WHERE datname = current_database() AND query LIKE 'LISTEN%'",
                );
                "cut listen"
            }
            2 => {
                let times = faults.started("b");
                cluster.wait_started("b", times);
                assert!(cluster.kill("b"), "B was killed");
                "kill b"
            }
            _ => {
                serving::on_the_ledger(
                    db,
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
                     WHERE datname = current_database() AND pid <> pg_backend_pid()",
                );
                "cut ledger"
            }
        };
        *faults.counts.entry(kind).or_default() += 1;
        turn += 1;
    }
    faults
}

/// Logouts that surely ended every session of their account made before they were asked: their own session was
/// live when they ran, as no other logout of the account could have ended it first.
fn effective(logouts: &[Logout]) -> impl Iterator<Item = &Logout> {
    logouts.iter().enumerate().filter_map(|(i, l)| {
        let first = logouts.iter().enumerate().any(|(j, other)| {
            j != i
                && other.account == l.account
                && other.asked < l.answered
                && other.answered > l.made.asked
        });
        (!first).then_some(l)
    })
}

/// Connections that acted after a logout had ended their session (asked after the logout was answered, and
/// granted), or stayed open for longer than [`ENDING_TAKES`] after it.
fn acted_after_ending(log: &Log) -> Vec<String> {
    let mut wrong = Vec::new();
    let mut surely = 0;
    for logout in effective(&log.logouts) {
        surely += 1;
        let ended = |made: &Made| made.answered < logout.asked;
        for act in &log.acts {
            if act.account == logout.account && ended(&act.made) && act.sent >= logout.answered {
                wrong.push(format!(
                    "client {}: {} {} {:?} after a logout had ended its session",
                    act.client,
                    ACCOUNTS[act.account],
                    act.what,
                    act.sent - logout.answered
                ));
            }
        }
        for life in &log.lives {
            if life.account == logout.account
                && ended(&life.made)
                && life.until > logout.answered + ENDING_TAKES
            {
                wrong.push(format!(
                    "client {}: a connection of {} was open {:?} after a logout had ended its session",
                    life.client,
                    ACCOUNTS[life.account],
                    life.until - logout.answered
                ));
            }
        }
    }
    println!(
        "  {surely} logouts surely ended their sessions (no other could have ended them first)"
    );
    wrong
}

/// Rows of `sql` on the ledger, each as text.
fn rows(db: &Db, sql: &'static str) -> Vec<Vec<String>> {
    serving::block_on(async {
        use sqlx::Row;
        let pool = serving::pool(db).await;
        let found = sqlx::query(sql)
            .fetch_all(&pool)
            .await
            .expect("the query runs");
        let rows = found
            .iter()
            .map(|row| {
                (0..row.len())
                    .map(|i| {
                        row.try_get::<String, _>(i)
                            .or_else(|_| row.try_get::<i64, _>(i).map(|n| n.to_string()))
                            .unwrap_or_else(|_| "NULL".to_string())
                    })
                    .collect()
            })
            .collect();
        pool.close().await;
        rows
    })
}

/// Where the ledger and what the players were told part: a dispute kept; a round told whose line is not in the
/// ledger, or ends with other chips; an account reset twice, or a reset told that the ledger does not have.
fn ledger_disagrees(db: &Db, log: &Log) -> Vec<String> {
    let mut wrong = Vec::new();
    for dispute in rows(db, "SELECT table_id, round, name_key, net FROM disputes") {
        wrong.push(format!("a dispute in the ledger: {dispute:?}"));
    }
    let kept: BTreeMap<(String, String, String), String> = rows(
        db,
        "SELECT table_id, CAST(round AS TEXT), name_key, CAST(chips_after AS TEXT) FROM ledger WHERE kind = 'round'",
    )
    .into_iter()
    .map(|r| ((r[0].clone(), r[1].clone(), r[2].clone()), r[3].clone()))
    .collect();
    // Whose hands the ledger has at each table, round and seat: said with a line it lacks.
    let played_at: BTreeMap<(String, String, String), String> = rows(
        db,
        "SELECT table_id, CAST(round AS TEXT), CAST(seat AS TEXT), name_key FROM hands",
    )
    .into_iter()
    .map(|r| ((r[0].clone(), r[1].clone(), r[2].clone()), r[3].clone()))
    .collect();
    for told in &log.told {
        let key = (
            told.table.clone(),
            told.round.to_string(),
            ACCOUNTS[told.account].to_lowercase(),
        );
        match kept.get(&key) {
            Some(chips) if *chips == told.chips.0.to_string() => {}
            Some(chips) => wrong.push(format!(
                "{} was told round {} at {} seat {} left {} cents; the ledger kept {chips}",
                ACCOUNTS[told.account], told.round, told.table, told.seat, told.chips.0
            )),
            None => wrong.push(format!(
                "{} was told round {} at {} seat {} ended; the ledger has no line of it (its hands there are {:?})",
                ACCOUNTS[told.account],
                told.round,
                told.table,
                told.seat,
                played_at.get(&(told.table.clone(), told.round.to_string(), told.seat.to_string()))
            )),
        }
    }
    let resets: BTreeMap<String, u32> = rows(
        db,
        "SELECT name_key, CAST(COUNT(*) AS TEXT) FROM ledger WHERE kind = 'reset' GROUP BY name_key",
    )
    .into_iter()
    .map(|r| (r[0].clone(), r[1].parse().unwrap_or(u32::MAX)))
    .collect();
    for (key, n) in &resets {
        if *n > 1 {
            wrong.push(format!("{key} was reset {n} times within the hour"));
        }
    }
    for (account, told) in &log.resets {
        let key = ACCOUNTS[*account].to_lowercase();
        let kept = resets.get(&key).copied().unwrap_or(0);
        if *told > kept {
            wrong.push(format!(
                "{key} was told of {told} resets; the ledger has {kept}"
            ));
        }
    }
    wrong
}

/// Accounts playing two rounds at two seats (or tables) at once, as the watchers timed the rounds: the rounds the
/// ledger has each account's hands in, and the rounds each was told of (a table that seats an account the ledger
/// has elsewhere tells it of rounds the ledger has no hand of). And how many such rounds were timed.
fn seated_twice(db: &Db, told: &[Told], rounds: &Rounds) -> (Vec<String>, usize) {
    /// An account's round at a seat, and when it started and ended.
    #[derive(PartialEq, Eq, PartialOrd, Ord)]
    struct Played {
        key: String,
        table: String,
        round: u64,
        seat: String,
        from: Instant,
        to: Instant,
    }
    let in_ledger = rows(
        db,
        "SELECT DISTINCT name_key, table_id, CAST(round AS TEXT), CAST(seat AS TEXT) FROM hands",
    )
    .into_iter()
    .map(|row| {
        let round: u64 = row[2].parse().expect("a round number");
        (row[0].clone(), row[1].clone(), round, row[3].clone())
    });
    let of_players = told.iter().map(|t| {
        (
            ACCOUNTS[t.account].to_lowercase(),
            t.table.clone(),
            t.round,
            t.seat.to_string(),
        )
    });
    let mut timed: Vec<Played> = in_ledger
        .chain(of_players)
        .filter_map(|(key, table, round, seat)| {
            let (from, to) = *rounds.get(&(table.clone(), round))?;
            Some(Played {
                key,
                table,
                round,
                seat,
                from,
                to,
            })
        })
        .collect();
    timed.sort();
    timed.dedup();
    let mut wrong = Vec::new();
    for (i, a) in timed.iter().enumerate() {
        for b in &timed[i + 1..] {
            let apart = (&a.table, &a.seat) != (&b.table, &b.seat);
            if a.key == b.key && apart && a.from + SLACK < b.to && b.from + SLACK < a.to {
                wrong.push(format!(
                    "{} played round {} at {} seat {} and round {} at {} seat {} at once",
                    a.key, a.round, a.table, a.seat, b.round, b.table, b.seat
                ));
            }
        }
    }
    (wrong, timed.len())
}

/// Two accounts with one look; a guest welcomed under the look of an account made before the guest left; two
/// guests of one look here at once. A guest whose connection broke (a server killed) may have lost its name
/// before it noticed: its stay is counted as its welcome alone.
fn looks_shared(db: &Db, log: &Log) -> Vec<String> {
    let mut wrong: Vec<String> = rows(
        db,
        "SELECT name_look, CAST(COUNT(*) AS TEXT) FROM accounts GROUP BY name_look HAVING COUNT(*) > 1",
    )
    .into_iter()
    .map(|r| format!("{} accounts have the look {:?}", r[1], r[0]))
    .collect();
    for (i, a) in log.registered.iter().enumerate() {
        for b in &log.registered[i + 1..] {
            if a.look == b.look {
                wrong.push(format!("two accounts were made with the look {:?}", a.look));
            }
        }
    }
    let gone = |stay: &Stay| {
        if stay.clean {
            stay.closed
        } else {
            stay.welcomed
        }
    };
    for (i, a) in log.guests.iter().enumerate() {
        for account in &log.registered {
            if account.look == a.look && account.answered < gone(a) {
                wrong.push(format!(
                    "a guest was welcomed under the look {:?} of an account made {:?} before the guest left",
                    a.look,
                    gone(a) - account.answered,
                ));
            }
        }
        for b in &log.guests[i + 1..] {
            if a.look == b.look && a.welcomed <= gone(b) && b.welcomed <= gone(a) {
                wrong.push(format!(
                    "two guests were welcomed under the look {:?} at once",
                    a.look
                ));
            }
        }
    }
    wrong
}
