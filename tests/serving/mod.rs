//! Helpers shared by the server's tests: databases to test against (a SQLite file, and a fresh PostgreSQL database
//! when `HOLECARD_TEST_POSTGRES` names a server), a server started on 127.0.0.1, a WebSocket client that keeps the
//! table's view from the news, and plain HTTP requests. Every loop is bounded.
#![allow(dead_code)]

pub mod cluster;

use holecard::engine::{Cents, Event, SeatId, TableState, TableView};
use holecard::host::News;
use holecard::host::level::Level;
use holecard::server::protocol::{Refusal, ServerMessage};
use holecard::server::table::Pace;
use holecard::server::{self, Config, Running};
use std::io::{BufRead, BufReader};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// Which database a test runs against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// A database of its own for one test, gone when dropped (drop the server first).
pub struct Db {
    pub url: String,
    backend: Backend,
    /// The SQLite file's folder, or the PostgreSQL database's name.
    place: String,
}

static NEXT: AtomicU32 = AtomicU32::new(0);

/// The PostgreSQL server to test against: `HOLECARD_TEST_POSTGRES`, an address of a role that may create
/// databases (`.ci/run` starts one). Without it, PostgreSQL tests fail on CI and are skipped, saying so, elsewhere.
fn postgres_admin() -> Option<String> {
    match std::env::var("HOLECARD_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => Some(url),
        _ if std::env::var_os("CI").is_some() => {
            panic!("on CI, HOLECARD_TEST_POSTGRES must name the PostgreSQL server .ci/run starts")
        }
        _ => {
            eprintln!("HOLECARD_TEST_POSTGRES is not set: this PostgreSQL test is skipped here");
            None
        }
    }
}

fn on_postgres(admin: &str, sql: String) {
    use sqlx::{Connection, Executor};
    block_on(async {
        let mut conn = sqlx::PgConnection::connect(admin)
            .await
            .unwrap_or_else(|e| panic!("connecting to {admin}: {e}"));
        conn.execute(sqlx::AssertSqlSafe(sql))
            .await
            .expect("the statement runs");
        let _ = conn.close().await;
    });
}

impl Db {
    /// Which database it is.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// A database on `backend`, or none when PostgreSQL is not given here.
    pub fn on(backend: Backend) -> Option<Db> {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let id = format!("holecard_test_{}_{n}", std::process::id());
        match backend {
            Backend::Sqlite => {
                let dir = std::env::temp_dir().join(&id);
                let _ = std::fs::remove_dir_all(&dir);
                std::fs::create_dir_all(&dir).expect("a folder for the database");
                Some(Db {
                    url: format!("sqlite://{}", dir.join("ledger.sqlite").display()),
                    backend,
                    place: dir.display().to_string(),
                })
            }
            Backend::Postgres => {
                let admin = postgres_admin()?;
                on_postgres(&admin, format!("DROP DATABASE IF EXISTS {id}"));
                on_postgres(&admin, format!("CREATE DATABASE {id}"));
                let base = admin
                    .rsplit_once('/')
                    .map_or(admin.as_str(), |(base, _)| base);
                Some(Db {
                    url: format!("{base}/{id}"),
                    backend,
                    place: id,
                })
            }
        }
    }
}

impl Drop for Db {
    fn drop(&mut self) {
        match self.backend {
            Backend::Sqlite => {
                let _ = std::fs::remove_dir_all(&self.place);
            }
            Backend::Postgres => {
                if let Ok(admin) = std::env::var("HOLECARD_TEST_POSTGRES") {
                    let sql = format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.place);
                    let _ = std::panic::catch_unwind(|| on_postgres(&admin, sql));
                }
            }
        }
    }
}

/// Turns a PostgreSQL test database away (it takes no connection, and those open are ended: the ledger is down to
/// every server on it), or lets it take connections again.
pub fn refuse_connections(db: &Db, refuse: bool) {
    assert_eq!(
        db.backend,
        Backend::Postgres,
        "only PostgreSQL turns connections away"
    );
    let admin = postgres_admin().expect("the PostgreSQL server the database is on");
    let allow = if refuse { "false" } else { "true" };
    on_postgres(
        &admin,
        format!("ALTER DATABASE {} WITH ALLOW_CONNECTIONS {allow}", db.place),
    );
    if refuse {
        on_postgres(
            &admin,
            format!(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{}'",
                db.place
            ),
        );
    }
}

/// Runs a test against SQLite and against PostgreSQL: `on_both!(name)` makes `sqlite::name` and `postgres::name`
/// from `fn name(db: &Db)`.
#[macro_export]
macro_rules! on_both {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(#[test]
            fn $name() {
                let db = $crate::serving::Db::on($crate::serving::Backend::Sqlite).expect("SQLite is built in");
                super::$name(&db);
            })*
        }
        mod postgres {
            $(#[test]
            fn $name() {
                if let Some(db) = $crate::serving::Db::on($crate::serving::Backend::Postgres) {
                    super::$name(&db);
                }
            })*
        }
    };
}

/// The default table (three companions at seats 0, 2 and 5) as `strip`, at `pace`.
pub fn start(db: &Db, pace: Pace) -> Running {
    start_with(db, pace, |_| {})
}

/// The same, with the level and the config changed first.
pub fn start_with(db: &Db, pace: Pace, change: impl FnOnce(&mut Config)) -> Running {
    server::spawn(
        "127.0.0.1:0".parse().expect("an address"),
        config(db, pace, change),
    )
    .expect("the server starts")
}

/// The tests' server: the default table as `strip`, at `pace`, on `db`, changed by `change`.
pub fn config(db: &Db, pace: Pace, change: impl FnOnce(&mut Config)) -> Config {
    let level = Level::load_or_default(None).expect("the default level");
    let mut config = Config {
        tables: vec![("strip".to_string(), level)],
        seed: 7,
        pace,
        per_address: 16,
        request_time: holecard::server::listen::REQUEST_TIME,
        web: None,
        database: db.url.clone(),
        stake: Cents::units(1_000),
        // Every test client registers from 127.0.0.1: the tests of the registration limit set their own.
        logins: holecard::server::api::LoginLimits {
            registrations_per_address: std::num::NonZeroU32::new(100_000).expect("not zero"),
            ..Default::default()
        },
        route: None,
        metrics: true,
        fresh_shoes: false,
        keep_chat: Duration::from_secs(holecard::server::KEEP_CHAT_DAYS * 86_400),
        keep_replays: Duration::from_secs(holecard::server::KEEP_REPLAYS_DAYS * 86_400),
    };
    change(&mut config);
    config
}

pub fn patient() -> Pace {
    Pace {
        bet: Duration::from_secs(10),
        turn: Duration::from_secs(10),
        companion: Duration::ZERO,
        ..Pace::default()
    }
}

/// A client as a bot in any language would be: it keeps the table's view from the news it is sent.
pub struct Client {
    pub ws: WebSocket<MaybeTlsStream<TcpStream>>,
    pub got: Vec<ServerMessage>,
    pub seat: Option<SeatId>,
    pub view: Option<TableView>,
    /// Sequence numbers of the news received, in order.
    pub seqs: Vec<u64>,
    /// Play the safe choice whenever the table's clock waits for this client's seat.
    pub autoplay: bool,
    /// The session's token, from `welcome`.
    pub token: String,
    /// The table joined last.
    pub table: Option<String>,
    /// Each round this client's seat played, as the round ended: the table, the round, the seat and the chips in
    /// front of it then.
    pub played: Vec<(String, u64, SeatId, Cents)>,
    /// Whether a hand of this client's seat was settled in the round under way.
    settled_here: bool,
}

impl Client {
    pub fn connect(running: &Running, name: &str) -> Client {
        Client::hello(
            running,
            &format!(r#"{{"type":"hello","version":2,"name":"{name}"}}"#),
        )
    }

    /// Connects to the server at `addr` as the guest `name`.
    pub fn connect_at(addr: std::net::SocketAddr, name: &str) -> Client {
        Client::hello_at(
            addr,
            &format!(r#"{{"type":"hello","version":2,"name":"{name}"}}"#),
        )
    }

    /// Connects and says this hello.
    pub fn hello(running: &Running, hello: &str) -> Client {
        Client::hello_at(running.addr, hello)
    }

    /// Connects to the server at `addr` and says this hello.
    pub fn hello_at(addr: std::net::SocketAddr, hello: &str) -> Client {
        Client::hello_url(&format!("ws://{addr}/ws"), hello)
    }

    /// Connects to the WebSocket at `url` and says this hello.
    pub fn hello_url(url: &str, hello: &str) -> Client {
        let mut client = Client::open(url);
        client.send(hello);
        if let ServerMessage::Welcome { token, .. } =
            client.wait_for(|m| matches!(m, ServerMessage::Welcome { .. }))
        {
            client.token = token;
        }
        client
    }

    /// A connection to the WebSocket at `url`, nothing said yet.
    pub fn open(url: &str) -> Client {
        let (ws, _) = tungstenite::connect(url).expect("connects");
        if let MaybeTlsStream::Plain(stream) = ws.get_ref() {
            stream
                .set_read_timeout(Some(Duration::from_millis(20)))
                .expect("a read timeout");
        }
        Client::of(ws)
    }

    /// A client on the WebSocket `ws`, nothing said yet.
    fn of(ws: WebSocket<MaybeTlsStream<TcpStream>>) -> Client {
        Client {
            ws,
            got: Vec::new(),
            seat: None,
            view: None,
            seqs: Vec::new(),
            autoplay: true,
            token: String::new(),
            table: None,
            played: Vec::new(),
            settled_here: false,
        }
    }

    pub fn send(&mut self, text: &str) {
        self.ws.send(Message::text(text)).expect("sends");
    }

    /// Reads what has arrived; keeps the view; plays when the clock waits for this seat.
    pub fn poll(&mut self) {
        if let Err(e) = self.try_poll() {
            panic!("{e}");
        }
    }

    /// The same, saying when the connection has closed or broken instead of failing (for tests where that is
    /// expected: a server killed, a session ended).
    pub fn try_poll(&mut self) -> Result<(), String> {
        loop {
            match read_one(&mut self.ws) {
                Read::Message(Ok(message)) => {
                    self.take(&message);
                    self.got.push(message);
                }
                Read::Message(Err(e)) => panic!("the server's messages read: {e}"),
                Read::Nothing => return Ok(()),
                Read::Closed(e) => return Err(format!("the connection broke: {e}")),
            }
        }
    }

    /// Sends `text`: false when the connection is gone.
    pub fn try_send(&mut self, text: &str) -> bool {
        self.ws.send(Message::text(text)).is_ok()
    }

    /// Notes the rounds this client's seat plays, with its chips at each one's end.
    fn follow(&mut self, event: &Event) {
        match *event {
            Event::RoundStarted { .. } => self.settled_here = false,
            Event::Settled { seat, .. } if Some(seat) == self.seat => self.settled_here = true,
            Event::RoundEnded { round } => {
                if let (true, Some(seat), Some(table)) =
                    (self.settled_here, self.seat, self.table.clone())
                {
                    self.played.push((table, round, seat, self.chips()));
                }
                self.settled_here = false;
            }
            _ => {}
        }
    }

    fn take(&mut self, message: &ServerMessage) {
        match message {
            ServerMessage::Joined {
                seat, view, table, ..
            } => {
                self.seat = *seat;
                self.view = Some((**view).clone());
                self.table = Some(table.clone());
                self.settled_here = false;
            }
            ServerMessage::Missed { seq, .. } => self.seqs.push(*seq),
            ServerMessage::News { seq, news } => {
                self.seqs.push(*seq);
                if let (News::Event(event), Some(view)) = (news, self.view.as_mut()) {
                    view.apply(event).expect("the news follows the view");
                    self.follow(event);
                }
                // However it got up (a stand answered late, a logout elsewhere, the ledger's word), the seat is no
                // longer this client's once the table says so: what is dealt there next is another's.
                if let News::GotUp { seat } = news
                    && Some(*seat) == self.seat
                {
                    self.seat = None;
                    self.settled_here = false;
                }
            }
            ServerMessage::Clock(timer)
                if self.autoplay && timer.seat.is_some() && timer.seat == self.seat =>
            {
                let (Some(seat), Some(view)) = (self.seat, self.view.as_ref()) else {
                    return;
                };
                let safe = view
                    .legal_actions(seat)
                    .when_silent()
                    .expect("a seat in turn can always stand or decline");
                // A connection gone shows at the next read.
                self.try_send(&format!(r#"{{"type":"play","action":"{safe:?}"}}"#));
            }
            _ => {}
        }
    }

    /// Reads until a message matches (at most 10 seconds).
    pub fn wait_for(&mut self, wanted: impl Fn(&ServerMessage) -> bool) -> ServerMessage {
        let from = self.got.len();
        let until = Instant::now() + Duration::from_secs(10);
        while Instant::now() < until {
            self.poll();
            if let Some(found) = self.got[from..].iter().find(|m| wanted(m)) {
                return found.clone();
            }
        }
        panic!(
            "nothing wanted arrived in 10 s; got {:?}",
            &self.got[from..]
        );
    }

    /// Reads until the server closes the connection (at most 10 seconds): what came before the close.
    pub fn until_closed(&mut self) -> Vec<ServerMessage> {
        let from = self.got.len();
        let until = Instant::now() + Duration::from_secs(10);
        while Instant::now() < until {
            match read_one(&mut self.ws) {
                Read::Message(message) => self
                    .got
                    .push(message.unwrap_or_else(|e| panic!("the server's messages read: {e}"))),
                Read::Nothing => {}
                Read::Closed(_) => return self.got[from..].to_vec(),
            }
        }
        panic!(
            "the connection was still open after 10 s; got {:?}",
            &self.got[from..]
        );
    }

    /// Reads until the server closes the connection, which it must do saying the session has ended (a logout or a
    /// new password, here or on another server).
    pub fn until_the_session_ends(&mut self) {
        self.until_closed_saying(Refusal::SessionEnded);
    }

    /// Reads until the server closes the connection, which it must do with a refusal of `code`.
    pub fn until_closed_saying(&mut self, code: Refusal) {
        let last = self.until_closed();
        assert!(
            last.iter()
                .any(|m| matches!(m, ServerMessage::Refused { code: c, .. } if *c == code)),
            "{last:?}"
        );
    }

    /// The first message so far that matches, or the next one to arrive (at most 10 seconds).
    pub fn find_or_wait(&mut self, wanted: impl Fn(&ServerMessage) -> bool) -> ServerMessage {
        match self.got.iter().find(|m| wanted(m)) {
            Some(found) => found.clone(),
            None => self.wait_for(wanted),
        }
    }

    pub fn refusal(&mut self) -> (Refusal, String) {
        match self.wait_for(|m| matches!(m, ServerMessage::Refused { .. })) {
            ServerMessage::Refused { code, message } => (code, message),
            _ => unreachable!("waited for a refusal"),
        }
    }

    pub fn news(&self) -> Vec<(u64, News)> {
        self.got
            .iter()
            .filter_map(|m| match m {
                ServerMessage::News { seq, news } => Some((*seq, news.clone())),
                _ => None,
            })
            .collect()
    }

    /// The number of the last round the client was told had started.
    pub fn last_round_started(&self) -> Option<u64> {
        self.news().iter().rev().find_map(|(_, news)| match news {
            News::Event(Event::RoundStarted { round }) => Some(*round),
            _ => None,
        })
    }

    pub fn rounds_ended(&self) -> usize {
        self.news()
            .iter()
            .filter(|(_, n)| matches!(n, News::Event(Event::RoundEnded { .. })))
            .count()
    }
}

/// Polls every client until `done` (at most 20 seconds).
pub fn pump(clients: &mut [&mut Client], done: impl Fn(&[&mut Client]) -> bool) {
    let until = Instant::now() + Duration::from_secs(20);
    while Instant::now() < until {
        for client in clients.iter_mut() {
            client.poll();
        }
        if done(clients) {
            return;
        }
    }
    panic!("the table did not get there in 20 s");
}

/// One plain HTTP/1.1 request to `addr`: the status and the body. `token` goes in `Authorization: Bearer`.
pub fn http(
    addr: std::net::SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
    token: Option<&str>,
) -> (u16, String) {
    let (status, _, body) = http_with_head(addr, method, path, body, token);
    (status, body)
}

/// The same, with the answer's head (its status line and headers) as well.
pub fn http_with_head(
    addr: std::net::SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
    token: Option<&str>,
) -> (u16, String, String) {
    ask(
        TcpStream::connect(addr).expect("connects"),
        method,
        path,
        body,
        token,
    )
}

/// One request on `stream`, closed after the answer: the status, the head and the body.
fn ask(
    mut stream: TcpStream,
    method: &str,
    path: &str,
    body: Option<&str>,
    token: Option<&str>,
) -> (u16, String, String) {
    use std::io::{Read, Write};
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .expect("a read timeout");
    let mut request =
        format!("{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n");
    if let Some(token) = token {
        request += &format!("Authorization: Bearer {token}\r\n");
    }
    if let Some(body) = body {
        request += &format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            body.len()
        );
    }
    request += "\r\n";
    request += body.unwrap_or_default();
    stream.write_all(request.as_bytes()).expect("asks");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("an answer");
    let status = answer
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("not an HTTP answer: {answer}"));
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    (status, head.to_string(), body.to_string())
}

/// Registers (or, if the name is taken, logs in) and returns the session token.
pub fn account(addr: std::net::SocketAddr, name: &str, password: &str) -> String {
    let credentials = format!(r#"{{"name":"{name}","password":"{password}"}}"#);
    let (mut status, mut body) = http(addr, "POST", "/api/register", Some(&credentials), None);
    if status == 409 {
        (status, body) = http(addr, "POST", "/api/login", Some(&credentials), None);
    }
    assert_eq!(status, 200, "{body}");
    let answer: serde_json::Value = serde_json::from_str(&body).expect("JSON");
    answer["token"].as_str().expect("a token").to_string()
}

/// What one read of a client's WebSocket gives.
pub enum Read {
    /// A text frame: the server's message, or why it does not read as one.
    Message(Result<ServerMessage, String>),
    /// Nothing has arrived (the read timed out).
    Nothing,
    /// The connection is closed or broken: why.
    Closed(String),
}

/// Reads the next message from `ws` (frames other than text are passed over), or says there is none yet, or that the
/// connection is gone.
pub fn read_one(ws: &mut WebSocket<MaybeTlsStream<TcpStream>>) -> Read {
    loop {
        match ws.read() {
            Ok(Message::Text(text)) => {
                return Read::Message(
                    serde_json::from_str(text.as_str()).map_err(|e| format!("{e}: {text}")),
                );
            }
            Ok(_) => {}
            Err(tungstenite::Error::Io(e))
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return Read::Nothing;
            }
            Err(e) => return Read::Closed(e.to_string()),
        }
    }
}

/// Says this hello on a new connection and expects it refused: the refusal.
pub fn hello_refused(addr: std::net::SocketAddr, hello: &str) -> (Refusal, String) {
    let (mut ws, _) = tungstenite::connect(format!("ws://{addr}/ws")).expect("connects");
    ws.send(Message::text(hello)).expect("sends");
    loop {
        match ws.read().expect("an answer to hello") {
            Message::Text(text) => match serde_json::from_str(text.as_str()) {
                Ok(ServerMessage::Refused { code, message }) => return (code, message),
                other => panic!("hello was not refused: {other:?}"),
            },
            _ => continue,
        }
    }
}

/// Ann sitting at seat 3 (4th) of `strip` and Bob watching it, both guests: the clients, each joined.
pub fn ann_sits_and_bob_watches(running: &Running) -> (Client, Client) {
    let mut ann = Client::connect(running, "Ann");
    let mut bob = Client::connect(running, "Bob");
    ann.send(r#"{"type":"sit","table":"strip","seat":3}"#);
    ann.wait_for(|m| matches!(m, ServerMessage::Joined { .. }));
    bob.send(r#"{"type":"watch","table":"strip"}"#);
    bob.wait_for(|m| matches!(m, ServerMessage::Joined { .. }));
    (ann, bob)
}

impl Client {
    /// Connects with an account's session token.
    pub fn with_token(addr: std::net::SocketAddr, token: &str) -> Client {
        Client::hello_at(
            addr,
            &format!(r#"{{"type":"hello","version":2,"token":"{token}"}}"#),
        )
    }

    /// Sits at the first free seat of `table`: which.
    pub fn sit_anywhere(&mut self, table: &str) -> SeatId {
        for seat in 0..7 {
            self.send(&format!(
                r#"{{"type":"sit","table":"{table}","seat":{seat}}}"#
            ));
            match self.wait_for(|m| {
                matches!(
                    m,
                    ServerMessage::Joined { .. } | ServerMessage::Refused { .. }
                )
            }) {
                ServerMessage::Joined { seat: Some(s), .. } => return s,
                ServerMessage::Refused {
                    code: Refusal::SeatUnavailable,
                    ..
                } => continue,
                other => panic!("sitting at {table}: {other:?}"),
            }
        }
        panic!("no free seat at {table}");
    }

    /// Bets everything each round until no chip is left (within 20 s; a loss comes within a few rounds).
    pub fn go_broke(&mut self) {
        let until = Instant::now() + Duration::from_secs(20);
        while self.chips() > Cents::ZERO && Instant::now() < until {
            let ended = self.rounds_ended();
            let stake = self.chips().0.min(500_000);
            self.send(&format!(r#"{{"type":"bet","amount":{stake}}}"#));
            pump(&mut [&mut *self], |c| c[0].rounds_ended() > ended);
        }
        assert_eq!(self.chips(), Cents::ZERO, "out of chips in time");
    }

    /// Gets up from `seat` between rounds and waits until the table shows it empty.
    pub fn get_up(&mut self, seat: SeatId) {
        self.send(r#"{"type":"stand"}"#);
        self.until_empty(seat);
    }

    /// Waits until the client's view of its table shows `seat` empty.
    pub fn until_empty(&mut self, seat: SeatId) {
        pump(&mut [&mut *self], |c| {
            c[0].view
                .as_ref()
                .is_some_and(|v| !v.seats()[usize::from(seat)].occupied)
        });
    }

    /// The chips in front of the client's seat, as its view has them.
    /// The smallest bet at the client's table.
    pub fn min_bet(&self) -> Cents {
        self.view
            .as_ref()
            .map_or(Cents::ZERO, |v| v.rules().min_bet)
    }

    pub fn chips(&self) -> Cents {
        match (self.seat, self.view.as_ref()) {
            (Some(seat), Some(view)) => view.seats()[usize::from(seat)].chips(),
            _ => Cents::ZERO,
        }
    }
}

/// Runs `f` on the ledger of `db` (its own runtime, its own pool).
/// The ledger, to write when no server keeps it (a SQLite ledger is one server's at a time), else to read.
pub fn with_store<T>(db: &Db, f: impl AsyncFnOnce(&holecard::server::ledger::Store) -> T) -> T {
    use holecard::server::ledger::{LedgerError, Store};
    block_on(async {
        let store = match Store::open(&db.url).await {
            Err(LedgerError::Held(_)) => Store::open_reader(&db.url).await,
            opened => opened,
        }
        .expect("the ledger opens");
        f(&store).await
    })
}

/// Runs one statement on the ledger of `db` behind the server's back (a fault a test puts in).
pub fn on_the_ledger(db: &Db, sql: &'static str) {
    tamper(db, sql);
}

/// A pool of connections to the ledger of `db`, for a test's own statements.
pub async fn pool(db: &Db) -> sqlx::AnyPool {
    sqlx::any::install_default_drivers();
    sqlx::AnyPool::connect(&db.url)
        .await
        .expect("the ledger opens")
}

/// Changes the ledger behind the server's back (to show the check finds it).
pub fn tamper(db: &Db, sql: &'static str) {
    block_on(async {
        let pool = pool(db).await;
        sqlx::query(sql)
            .execute(&pool)
            .await
            .expect("the change is made");
        pool.close().await;
    });
}

/// The table the ledger has the account `key` seated at, if any.
pub fn seated_at(db: &Db, key: &str) -> Option<String> {
    block_on(async {
        use sqlx::Row;
        let pool = pool(db).await;
        let row = sqlx::query("SELECT seated_at FROM accounts WHERE name_key = $1")
            .bind(key.to_string())
            .fetch_one(&pool)
            .await
            .expect("the account");
        let at: Option<String> = row.get(0);
        pool.close().await;
        at
    })
}

/// How many `stake` and `reset` entries an account's ledger has.
pub fn entries(db: &Db, key: &str) -> (i64, i64) {
    block_on(async {
        use sqlx::Row;
        let pool = pool(db).await;
        let count = |kind: &'static str| {
            sqlx::query("SELECT COUNT(*) FROM ledger WHERE name_key = $1 AND kind = $2")
                .bind(key.to_string())
                .bind(kind)
                .fetch_one(&pool)
        };
        let stake: i64 = count("stake").await.expect("a count").get(0);
        let reset: i64 = count("reset").await.expect("a count").get(0);
        pool.close().await;
        (stake, reset)
    })
}

/// Runs a future to its end on a runtime of its own (the tests' code is not async).
pub fn block_on<F: Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
        .block_on(future)
}

/// `holecard-server` as its own process on a free port of 127.0.0.1, with every table of `levels/`.
pub struct Process {
    pub child: Child,
    pub addr: SocketAddr,
    /// What it wrote to standard error, read after it stops.
    stderr: Option<std::thread::JoinHandle<String>>,
}

impl Drop for Process {
    /// A test that fails before it kills its server still leaves no server running.
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// `pace`: seconds for bets, seconds for a turn, milliseconds before a companion acts.
pub fn launch(db: &Db, pace: (&str, &str, &str)) -> Process {
    launch_with(db, pace, &[])
}

/// A server's every table of `levels/`, seeded, with no browser build.
pub const TABLES_OF_LEVELS: [&str; 6] =
    ["--levels", "levels", "--seed", "7", "--web", "no-web-here"];

/// The same, with more arguments.
pub fn launch_with(db: &Db, pace: (&str, &str, &str), more: &[&str]) -> Process {
    launched(
        Command::new(env!("CARGO_BIN_EXE_holecard-server")),
        db,
        pace,
        more,
    )
}

/// The same, with the process allowed `files` open files at most (soft and hard limit, through `prlimit`).
pub fn launch_under_file_limit(
    db: &Db,
    pace: (&str, &str, &str),
    files: (usize, usize),
) -> Process {
    let (soft, hard) = files;
    let mut command = Command::new("prlimit");
    command.args([
        format!("--nofile={soft}:{hard}"),
        "--".to_string(),
        env!("CARGO_BIN_EXE_holecard-server").to_string(),
    ]);
    launched(command, db, pace, &[])
}

/// `command` (the server, or something that becomes it) given the tests' arguments, started, and its address read.
fn launched(mut command: Command, db: &Db, pace: (&str, &str, &str), more: &[&str]) -> Process {
    let mut child = command
        .args(["--listen", "127.0.0.1:0"])
        .args(TABLES_OF_LEVELS)
        .args([
            "--bet-seconds",
            pace.0,
            "--turn-seconds",
            pace.1,
            "--companion-ms",
            pace.2,
        ])
        .args(["--database", &db.url])
        .args(more)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let stdout = child.stdout.take().expect("its output");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    let stderr = child.stderr.take().expect("its errors");
    let stderr = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut BufReader::new(stderr), &mut text);
        text
    });
    let line = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("the server says where it listens");
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("no address in {line:?}"));
    Process {
        child,
        addr,
        stderr: Some(stderr),
    }
}

impl Process {
    /// SIGKILL: no clean shutdown, nothing flushed. What it had written to standard error.
    pub fn kill(mut self) -> String {
        self.child.kill().expect("killed");
        let _ = self.child.wait();
        self.stderr
            .take()
            .and_then(|read| read.join().ok())
            .unwrap_or_default()
    }
}

/// `holecard-server --check-ledger` on `db`: its report, after asserting it balances.
pub fn check_ledger(db: &Db) -> serde_json::Value {
    let report = ledger_report(db);
    assert_eq!(report["balanced"], true, "{report:#}");
    report
}

/// `holecard-server --check-ledger` on `db`: its report, balanced or not.
pub fn ledger_report(db: &Db) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_holecard-server"))
        .args(["--check-ledger", "--database", &db.url])
        .output()
        .expect("the check runs");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let report: serde_json::Value = serde_json::from_str(&text).unwrap_or_else(|e| {
        panic!(
            "the check said no report ({e}): {text}{}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    // It exits 0 when, and only when, the ledger balances.
    assert_eq!(out.status.success(), report["balanced"] == true, "{text}");
    report
}

/// JSON text read, or a failure that shows it.
pub fn json(body: &str) -> serde_json::Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

/// Says this hello on a new connection: the client, welcomed, or the refusal (neither panics, for tests that race a
/// hello against something else and accept either).
pub fn try_hello(addr: std::net::SocketAddr, hello: &str) -> Result<Client, (Refusal, String)> {
    match welcome(Client::open(&format!("ws://{addr}/ws")), hello) {
        Ok(client) => Ok(client),
        Err(NotWelcomed::Refused(code, message)) => Err((code, message)),
        Err(NotWelcomed::Broken(e)) => panic!("{e}"),
    }
}

/// What a hello came to when it was not welcomed.
#[derive(Debug)]
pub enum NotWelcomed {
    Refused(Refusal, String),
    /// The connection could not be made, or broke before the answer.
    Broken(String),
}

/// Says this hello on a new WebSocket to `path` at `addr`, from the local address `from`: the client, welcomed, or
/// what it came to (never panics: for tests where servers are killed under the clients).
pub fn hello_from(
    from: std::net::IpAddr,
    addr: std::net::SocketAddr,
    path: &str,
    hello: &str,
) -> Result<Client, NotWelcomed> {
    let stream = try_connect_from(from, addr).map_err(NotWelcomed::Broken)?;
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .map_err(|e| NotWelcomed::Broken(e.to_string()))?;
    let (ws, _) =
        tungstenite::client::client(format!("ws://{addr}{path}"), MaybeTlsStream::Plain(stream))
            .map_err(|e| NotWelcomed::Broken(format!("the WebSocket of {path}: {e}")))?;
    if let MaybeTlsStream::Plain(stream) = ws.get_ref() {
        stream
            .set_read_timeout(Some(Duration::from_millis(20)))
            .map_err(|e| NotWelcomed::Broken(e.to_string()))?;
    }
    welcome(Client::of(ws), hello)
}

/// Says `hello` on `client`'s new connection and reads up to the answer.
fn welcome(mut client: Client, hello: &str) -> Result<Client, NotWelcomed> {
    if !client.try_send(hello) {
        return Err(NotWelcomed::Broken("closed before hello".to_string()));
    }
    // Read one message at a time, up to the answer: a session that is ended just after its welcome may close the
    // connection right behind it, and what follows the welcome is the test's to read.
    let until = Instant::now() + Duration::from_secs(10);
    while Instant::now() < until {
        match read_one(&mut client.ws) {
            Read::Message(Ok(ServerMessage::Welcome { token, .. })) => {
                client.token = token;
                return Ok(client);
            }
            Read::Message(Ok(ServerMessage::Refused { code, message })) => {
                return Err(NotWelcomed::Refused(code, message));
            }
            Read::Message(Ok(other)) => client.got.push(other),
            Read::Message(Err(e)) => panic!("the server's messages read: {e}"),
            Read::Nothing => {}
            Read::Closed(e) => {
                return Err(NotWelcomed::Broken(format!(
                    "closed before answering hello: {e}"
                )));
            }
        }
    }
    Err(NotWelcomed::Broken(
        "no answer to hello in 10 s".to_string(),
    ))
}

/// One plain HTTP/1.1 request to `addr` from the local address `from` (127.0.0.2 and the like, all this machine):
/// the status, the head and the body.
pub fn http_from(
    from: std::net::IpAddr,
    addr: std::net::SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
    token: Option<&str>,
) -> (u16, String, String) {
    ask(connect_from(from, addr), method, path, body, token)
}

/// A TCP connection to `addr` from the local address `from`.
pub fn connect_from(from: std::net::IpAddr, addr: std::net::SocketAddr) -> TcpStream {
    try_connect_from(from, addr).unwrap_or_else(|e| panic!("{e}"))
}

/// The same, or why not.
fn try_connect_from(
    from: std::net::IpAddr,
    addr: std::net::SocketAddr,
) -> Result<TcpStream, String> {
    let stream = block_on(async {
        let socket = match from {
            std::net::IpAddr::V4(_) => tokio::net::TcpSocket::new_v4(),
            std::net::IpAddr::V6(_) => tokio::net::TcpSocket::new_v6(),
        }
        .map_err(|e| format!("a socket: {e}"))?;
        socket
            .bind(SocketAddr::new(from, 0))
            .map_err(|e| format!("binding {from}: {e}"))?;
        let stream = socket
            .connect(addr)
            .await
            .map_err(|e| format!("connecting to {addr} from {from}: {e}"))?;
        stream
            .into_std()
            .map_err(|e| format!("a plain stream: {e}"))
    })?;
    Ok(stream.tap_blocking())
}

/// A stream handed back from the async runtime, set to blocking for the tests' plain reads and writes.
trait Blocking {
    fn tap_blocking(self) -> Self;
}

impl Blocking for TcpStream {
    fn tap_blocking(self) -> TcpStream {
        self.set_nonblocking(false).expect("blocking");
        self
    }
}

/// The server's writes to the ledger of `db` held up while this lives: on SQLite a transaction holding the file's
/// write lock (the server's writes wait, then fail and are tried again), on PostgreSQL one holding the row of the
/// table `table`'s house (a settlement waits on it).
pub struct HeldWrites {
    stop: Option<std::sync::mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for HeldWrites {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Holds up the server's writes to `db` (see [`HeldWrites`]) until the guard is dropped.
pub fn hold_writes(db: &Db, table: &str) -> HeldWrites {
    let url = db.url.clone();
    let backend = db.backend;
    let table = table.to_string();
    let (stop, stopped) = std::sync::mpsc::channel::<()>();
    let (held, holding) = std::sync::mpsc::channel::<()>();
    let thread = std::thread::spawn(move || {
        block_on(async move {
            use sqlx::Connection;
            sqlx::any::install_default_drivers();
            let mut conn = sqlx::AnyConnection::connect(&url)
                .await
                .expect("the ledger opens");
            match backend {
                Backend::Sqlite => {
                    sqlx::query("BEGIN IMMEDIATE")
                        .execute(&mut conn)
                        .await
                        .expect("the write lock");
                }
                Backend::Postgres => {
                    sqlx::query("BEGIN")
                        .execute(&mut conn)
                        .await
                        .expect("begins");
                    sqlx::query("SELECT house_chips FROM houses WHERE table_id = $1 FOR UPDATE")
                        .bind(&table)
                        .execute(&mut conn)
                        .await
                        .expect("the house's row");
                }
            }
            let _ = held.send(());
            let _ = stopped.recv();
            sqlx::query("ROLLBACK")
                .execute(&mut conn)
                .await
                .expect("let go");
        });
    });
    holding.recv().expect("the writes are held");
    HeldWrites {
        stop: Some(stop),
        thread: Some(thread),
    }
}

/// `holecard-server` started on `db` with these arguments, expected to refuse to start: its exit status and what it
/// wrote to standard error.
pub fn launch_refused(db: &Db, more: &[&str]) -> (std::process::ExitStatus, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_holecard-server"))
        .args(["--listen", "127.0.0.1:0"])
        .args(TABLES_OF_LEVELS)
        .args(["--database", &db.url])
        .args(more)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let until = Instant::now() + Duration::from_secs(30);
    loop {
        if let Ok(Some(status)) = child.try_wait() {
            let mut text = String::new();
            if let Some(mut stderr) = child.stderr.take() {
                let _ = std::io::Read::read_to_string(&mut stderr, &mut text);
            }
            return (status, text);
        }
        if Instant::now() > until {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the second server on one ledger was still running after 30 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}
