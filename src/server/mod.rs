//! The casino server (the `server` feature, no Bevy): tables shared over WebSockets. Each table is a task that owns
//! its host (`crate::host::Host`) and decides everything; a connection speaks for its own seat only, and what it is
//! sent is the public news and its seat's view: nothing tells the shoe's order, the generator or a face-down card.
//!
//! People play as guests (a name) or with an account (`POST /api/register`, `POST /api/login`: a session token
//! given in the first WebSocket message, never in a URL). An account's bankroll, highscore and hands live in the
//! ledger (`store`): SQLite by default, PostgreSQL when asked.

pub mod api;
pub mod load;
pub use crate::protocol;
pub mod store;
pub mod table;

use crate::engine::Cents;
use crate::host::level::Level;
use axum::Router;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Json, Response};
use axum::routing::get;
use futures_util::SinkExt;
use protocol::{ClientMessage, Listing, Refusal, ServerMessage};
use std::collections::{BTreeMap, HashMap};
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use store::Store;
use table::{ConnId, Pace, TableHandle, ToTable};
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

/// What a server opens.
#[derive(Clone, Debug)]
pub struct Config {
    /// The tables: an id each (the level file's stem) and the level.
    pub tables: Vec<(String, Level)>,
    /// Seeds the tables' shoes and companions (each table its own seed from it).
    pub seed: u64,
    /// How long tables wait.
    pub pace: Pace,
    /// Connections one address may hold at once.
    pub per_address: usize,
    /// The browser build (`web/dist`), served at `/` when it holds an `index.html`.
    pub web: Option<std::path::PathBuf>,
    /// The ledger: `sqlite://PATH` or `postgres://…`.
    pub database: String,
    /// What a new account starts with, and resets to.
    pub stake: Cents,
    /// Password attempts a minute, from one address and for one name.
    pub logins: api::LoginLimits,
    /// One of several servers on one ledger behind a proxy: the path this server's WebSocket is reached at through
    /// the proxy (`/ws/a`), served here as well as `/ws`. Its tables are then listed in the ledger's shared lobby,
    /// and its lobby lists every server's tables, each with where to play at it.
    pub route: Option<String>,
}

/// Frames larger than this are refused by the WebSocket layer itself (the connection closes with "message too
/// big"); up to it, a message over [`protocol::MAX_MESSAGE_BYTES`] is answered with a refusal.
const MAX_FRAME_BYTES: usize = 64 * 1024;

/// A connection's read buffer.
const READ_BUFFER_BYTES: usize = 8 * 1024;

/// A client must say hello within this.
const HELLO_TIME: Duration = Duration::from_secs(10);

struct Shared {
    tables: BTreeMap<String, TableHandle>,
    store: Store,
    stake: Cents,
    /// Open connections by address, and how many one may hold.
    addresses: Mutex<HashMap<IpAddr, usize>>,
    per_address: usize,
    /// Guests' sessions by token.
    sessions: Mutex<HashMap<String, Session>>,
    /// How long a dropped session holds its name and seat.
    hold: Duration,
    next_conn: AtomicU64,
    /// How to end each connection an account has open: by connection, the account's key and the way to end it.
    ends: Mutex<HashMap<ConnId, (String, oneshot::Sender<()>)>>,
    /// Password attempts, limited.
    attempts: api::Attempts,
    /// Accounts seated here when the server last stopped, by key: the table holding their seat.
    reseated: Mutex<HashMap<String, String>>,
    /// Where this server is reached behind a proxy, when it is one of several.
    route: Option<String>,
}

impl Shared {
    /// Ends every session of the account `key` here at once (it logged out, or its password changed): its tokens are
    /// forgotten, each table gives up its seat (one a connection holds, or one held for a dropped connection), and
    /// each open connection is told and closed. The ledger's sessions are ended by the caller.
    async fn end_account(&self, key: &str) {
        if let Ok(mut sessions) = self.sessions.lock() {
            sessions.retain(|_, s| s.account.as_deref() != Some(key));
        }
        let who = format!("account:{key}");
        for table in self.tables.values() {
            let _ = table.tx.send(ToTable::Ended { who: who.clone() }).await;
        }
        let ends: Vec<oneshot::Sender<()>> = match self.ends.lock() {
            Ok(mut ends) => {
                let theirs: Vec<ConnId> = ends
                    .iter()
                    .filter(|(_, (k, _))| k == key)
                    .map(|(conn, _)| *conn)
                    .collect();
                theirs
                    .into_iter()
                    .filter_map(|conn| ends.remove(&conn).map(|(_, end)| end))
                    .collect()
            }
            Err(_) => Vec::new(),
        };
        for end in ends {
            let _ = end.send(());
        }
    }
}

/// A session: who it is, whether a connection has it now, and the table they were at.
struct Session {
    name: String,
    /// What the name looks like (`store::look_of`): no two sessions here look alike.
    look: String,
    /// The account's key, or none for a guest.
    account: Option<String>,
    live: Option<ConnId>,
    gone_at: Option<Instant>,
    table: Option<String>,
}

impl Session {
    /// Still holds its name (and any seat): connected, or dropped less than `hold` ago.
    fn current(&self, now: Instant, hold: Duration) -> bool {
        self.live.is_some() || self.gone_at.is_some_and(|at| now.duration_since(at) < hold)
    }
}

impl Session {
    /// Who sits in a seat: an account by its key (any of its sessions may come back to it), a guest by token.
    fn who(&self, token: &str) -> String {
        match &self.account {
            Some(key) => format!("account:{key}"),
            None => format!("guest:{token}"),
        }
    }
}

/// Opens the ledger at `config.database`, recovers what a stop left (unsettled rounds are refunded, every account is
/// up from its table) and says so on standard error; then the server's routes over its open tables:
/// `GET /api/tables` (the lobby), `GET /ws` (play), the accounts' API (`api`), and the browser build's files at `/`
/// when there is one.
pub async fn router(config: &Config) -> Result<Router, String> {
    let store = Store::open(&config.database).await?;
    let ids: Vec<String> = config.tables.iter().map(|(id, _)| id.clone()).collect();
    let recovery = store.recover(&ids).await?;
    for (table, round) in &recovery.refunded {
        eprintln!(
            "holecard-server: table {table} round {round} was dealt but never settled before the server stopped: \
             its bets were never taken, so they are refunded"
        );
    }
    if recovery.unseated > 0 {
        eprintln!(
            "holecard-server: {} accounts were seated with no chips (or in no known seat) when the server stopped; \
             they are up",
            recovery.unseated
        );
    }
    let mut reseated = HashMap::new();
    for (table, reseat) in &recovery.seated {
        reseated.insert(reseat.key.clone(), table.clone());
    }
    let mut tables = BTreeMap::new();
    for (i, (id, level)) in config.tables.iter().enumerate() {
        let seed = config.seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let reseat = recovery
            .seated
            .iter()
            .filter(|(table, _)| table == id)
            .map(|(_, reseat)| reseat.clone())
            .collect();
        let handle = table::open(
            id.clone(),
            level.clone(),
            seed,
            config.pace,
            store.clone(),
            config.stake,
            reseat,
            config.route.clone(),
        )
        .await?;
        tables.insert(id.clone(), handle);
    }
    let shared = Arc::new(Shared {
        tables,
        store,
        stake: config.stake,
        sessions: Mutex::new(HashMap::new()),
        addresses: Mutex::new(HashMap::new()),
        per_address: config.per_address,
        hold: config.pace.hold,
        next_conn: AtomicU64::new(1),
        ends: Mutex::new(HashMap::new()),
        attempts: api::Attempts::new(config.logins),
        reseated: Mutex::new(reseated),
        route: config.route.clone(),
    });
    if shared.store.shared_by_servers() {
        tokio::spawn(hear_sessions_ended(
            config.database.clone(),
            Arc::downgrade(&shared),
        ));
    }
    // The attempts' memory is swept now and then, while the server runs.
    let sweeping = Arc::downgrade(&shared);
    tokio::spawn(async move {
        let mut every = tokio::time::interval(api::FORGET_ATTEMPTS_EVERY);
        loop {
            every.tick().await;
            match sweeping.upgrade() {
                Some(shared) => shared.attempts.forget_old(),
                None => return,
            }
        }
    });
    let mut app = Router::new()
        .route("/api/tables", get(lobby))
        .route("/ws", get(upgrade));
    if let Some(route) = config.route.as_deref().filter(|r| *r != "/ws") {
        if !route.starts_with('/') {
            return Err(format!("a route is a path, as /ws/a, not {route:?}"));
        }
        app = app.route(route, get(upgrade));
    }
    let app = app.merge(api::routes()).with_state(shared);
    Ok(match &config.web {
        Some(dir) if dir.join("index.html").is_file() => app.fallback_service(
            Router::new()
                .fallback_service(
                    tower_http::services::ServeDir::new(dir)
                        .precompressed_br()
                        .precompressed_gzip(),
                )
                .layer(axum::middleware::from_fn(keeping_rules)),
        ),
        _ => app,
    })
}

/// How long a browser may keep each file of the browser build: for good where the name carries a hash of the
/// contents (`scripts/build-web` names the module, its glue, the loader and the assets' folder so: a new build is new
/// names), and only after asking again otherwise (the page, the service worker), so a new build is seen at once.
/// The files themselves go out Brotli'd or gzipped where the build wrote a `.br` or `.gz` copy beside them and the
/// browser accepts it (`ServeDir`'s precompressed files, with `Vary: Accept-Encoding`).
async fn keeping_rules(request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let lasting = named_by_contents(request.uri().path());
    let mut response = next.run(request).await;
    if response.status().is_success() || response.status() == StatusCode::NOT_MODIFIED {
        response.headers_mut().insert(
            axum::http::header::CACHE_CONTROL,
            axum::http::HeaderValue::from_static(if lasting {
                "public, max-age=31536000, immutable"
            } else {
                "no-cache"
            }),
        );
    }
    response
}

/// Whether a path of the browser build names its file by the hash of its contents: under `assets/<hash>/`, or a
/// file name with a `.<hash>.` part (`holecard_bg.3f9c0a1b2c4d.wasm`), the hash being 12 lowercase hex digits.
pub fn named_by_contents(path: &str) -> bool {
    let hash = |part: &str| {
        part.len() == 12
            && part
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    };
    if let Some(rest) = path.strip_prefix("/assets/")
        && let Some((folder, file)) = rest.split_once('/')
        && hash(folder)
        && !file.is_empty()
    {
        return true;
    }
    let name = path.rsplit('/').next().unwrap_or_default();
    let parts: Vec<&str> = name.split('.').collect();
    parts.len() >= 3 && parts[1..parts.len() - 1].iter().any(|part| hash(part))
}

/// Serves `config` on `listener` until `shutdown` resolves.
pub async fn serve(
    listener: tokio::net::TcpListener,
    config: Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), String> {
    serve_app(listener, router(&config).await?, shutdown).await
}

/// Serves an app made by [`router`] on `listener` until `shutdown` resolves.
pub async fn serve_app(
    listener: tokio::net::TcpListener,
    app: Router,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), String> {
    use axum::serve::ListenerExt;
    // Small messages go out at once: without TCP_NODELAY, Nagle's algorithm holds a message back until the last
    // one is acknowledged, and a client's delayed acknowledgement makes that 40 ms.
    let listener = listener.tap_io(|stream| {
        if let Err(e) = stream.set_nodelay(true) {
            eprintln!("holecard-server: TCP_NODELAY on a connection: {e}");
        }
    });
    axum::serve(
        listener,
        app.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown)
    .await
    .map_err(|e| format!("serving: {e}"))
}

/// A server running on its own thread and runtime (for tests and tools): its address, and a stop on drop.
pub struct Running {
    /// Where it listens.
    pub addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Starts a server on `addr` (port 0 picks a free one) on a thread of its own.
pub fn spawn(addr: SocketAddr, config: Config) -> Result<Running, String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("starting the runtime: {e}"))?;
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind(addr))
        .map_err(|e| format!("listening on {addr}: {e}"))?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("listening on {addr}: {e}"))?;
    // The routes are built inside the runtime: each table's task is spawned on it.
    let app = runtime.block_on(router(&config))?;
    let (stop, stopped) = oneshot::channel::<()>();
    let thread = std::thread::spawn(move || {
        let shutdown = async move {
            let _ = stopped.await;
        };
        if let Err(e) = runtime.block_on(serve_app(listener, app, shutdown)) {
            eprintln!("holecard-server: {e}");
        }
    });
    Ok(Running {
        addr,
        stop: Some(stop),
        thread: Some(thread),
    })
}

async fn lobby(State(shared): State<Arc<Shared>>) -> Json<Vec<Listing>> {
    Json(listings(&shared).await)
}

/// The lobby: this server's tables and, when it is one of several, every other server's that said lately it is up
/// (each with the path its WebSocket is reached at); by id.
async fn listings(shared: &Shared) -> Vec<Listing> {
    let mut all: Vec<Listing> = shared
        .tables
        .values()
        .filter_map(|t| t.listing.lock().ok().map(|l| l.clone()))
        .map(|mut listing| {
            listing.ws = shared.route.clone();
            listing
        })
        .collect();
    if let Some(route) = &shared.route {
        match shared.store.lobby(route, table::PUBLISH_EVERY * 3).await {
            Ok(others) => all.extend(others),
            Err(e) => eprintln!("holecard-server: the shared lobby: {e}"),
        }
        all.sort_by(|a, b| a.id.cmp(&b.id));
    }
    all
}

/// Hears from PostgreSQL that an account's sessions have ended on any server sharing the ledger (logged out, a new
/// password) and ends them here too; listens again after a lost connection, while the server runs.
async fn hear_sessions_ended(database: String, shared: std::sync::Weak<Shared>) {
    loop {
        let listener = async {
            let mut listener = sqlx::postgres::PgListener::connect(&database).await?;
            listener.listen(store::SESSIONS_ENDED).await?;
            loop {
                let heard = listener.recv().await?;
                match shared.upgrade() {
                    Some(shared) => shared.end_account(heard.payload()).await,
                    None => return Ok::<(), sqlx::Error>(()),
                }
            }
        };
        match listener.await {
            Ok(()) => return,
            Err(e) => eprintln!(
                "holecard-server: hearing other servers' logouts: {e}; listening again in 1 s"
            ),
        }
        if shared.strong_count() == 0 {
            return;
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

async fn upgrade(
    ws: WebSocketUpgrade,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    State(shared): State<Arc<Shared>>,
) -> Response {
    let Some(slot) = Slot::take(&shared, peer.ip()) else {
        let why = format!(
            "at most {} connections from one address",
            shared.per_address
        );
        return (StatusCode::TOO_MANY_REQUESTS, why).into_response();
    };
    // Tungstenite zeroes its whole read buffer before each read: at its default 128 KiB that memset was a quarter of
    // the server's time under load. A client's messages are at most 4 KiB (the buffer grows for a larger frame).
    ws.max_message_size(MAX_FRAME_BYTES)
        .max_frame_size(MAX_FRAME_BYTES)
        .read_buffer_size(READ_BUFFER_BYTES)
        .on_upgrade(move |socket| async move {
            Connection::new(shared).run(socket).await;
            drop(slot);
        })
}

/// One of an address's connections, given back when dropped.
struct Slot {
    shared: Arc<Shared>,
    ip: IpAddr,
}

impl Slot {
    fn take(shared: &Arc<Shared>, ip: IpAddr) -> Option<Slot> {
        let mut addresses = shared.addresses.lock().ok()?;
        let open = addresses.entry(ip).or_insert(0);
        if *open >= shared.per_address {
            return None;
        }
        *open += 1;
        Some(Slot {
            shared: shared.clone(),
            ip,
        })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        if let Ok(mut addresses) = self.shared.addresses.lock()
            && let Some(open) = addresses.get_mut(&self.ip)
        {
            *open -= 1;
            if *open == 0 {
                addresses.remove(&self.ip);
            }
        }
    }
}

/// One client's connection: who they are, where they sit, and how fast they talk.
struct Connection {
    shared: Arc<Shared>,
    id: ConnId,
    name: Option<String>,
    token: String,
    /// Who sits: the account, or the guest session (`Session::who`).
    who: String,
    /// The account's key, or none for a guest.
    account: Option<String>,
    table: Option<TableHandle>,
    /// What it may still send.
    allowance: protocol::Allowance,
    /// What ends this connection from outside, until `hello` files it for an account.
    end: Option<oneshot::Sender<()>>,
}

impl Connection {
    fn new(shared: Arc<Shared>) -> Connection {
        let id = shared.next_conn.fetch_add(1, Ordering::Relaxed);
        Connection {
            shared,
            id,
            name: None,
            token: String::new(),
            who: String::new(),
            account: None,
            table: None,
            allowance: protocol::Allowance::server(std::time::Instant::now()),
            end: None,
        }
    }

    async fn run(mut self, mut socket: WebSocket) {
        let (out, mut inbox) = mpsc::channel::<table::Outgoing>(1024);
        let hello_by = Instant::now() + HELLO_TIME;
        // An account's connection can be ended from outside (logout, a new password): `hello` files the sender
        // where `Shared::end_account` finds it, in the same breath as the session.
        let (end, mut ended) = oneshot::channel::<()>();
        self.end = Some(end);
        let mut session_ended = false;
        loop {
            let waiting_for_hello = self.name.is_none();
            tokio::select! {
                incoming = socket.recv() => {
                    let text = match incoming {
                        Some(Ok(Message::Text(text))) => text,
                        Some(Ok(Message::Binary(_))) => {
                            let refused = refusal(Refusal::BadMessage, "messages are JSON in text frames");
                            if send(&mut socket, &refused).await.is_err() {
                                break;
                            }
                            continue;
                        }
                        Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                        // Closed, or a frame the WebSocket layer refused (too big, not UTF-8): it has said why.
                        Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                    };
                    let answer = self.answer(text.as_str(), &out).await;
                    if let Some(answer) = answer
                        && send(&mut socket, &answer).await.is_err()
                    {
                        break;
                    }
                }
                Some(message) = inbox.recv() => {
                    // News comes in bursts: what is already queued goes out with it, in one write.
                    let mut burst = socket.feed(Message::Text(message)).await;
                    while burst.is_ok() && let Ok(more) = inbox.try_recv() {
                        burst = socket.feed(Message::Text(more)).await;
                    }
                    if burst.is_err() || socket.flush().await.is_err() {
                        break;
                    }
                }
                result = &mut ended, if self.end.is_none() && self.account.is_some() => {
                    // Sent: the session was ended. Dropped unsent: the server is going away.
                    if result.is_ok() {
                        let why = "this session has ended (logged out, or the password was changed): log in again";
                        let _ = send(&mut socket, &refusal(Refusal::SessionEnded, why)).await;
                        session_ended = true;
                    }
                    break;
                }
                () = tokio::time::sleep_until(hello_by), if waiting_for_hello => {
                    let refused = refusal(Refusal::NotIntroduced, "say hello first, within 10 seconds");
                    let _ = send(&mut socket, &refused).await;
                    break;
                }
            }
        }
        if let Ok(mut ends) = self.shared.ends.lock() {
            ends.remove(&self.id);
        }
        if let Some(table) = self.table.take() {
            // A session that was ended has already given up its seat: it left, it did not drop.
            let gone = ToTable::Gone {
                conn: self.id,
                dropped: !session_ended,
                done: None,
            };
            let _ = table.tx.send(gone).await;
        }
        if self.name.is_some()
            && let Ok(mut sessions) = self.shared.sessions.lock()
            && let Some(session) = sessions.get_mut(&self.token)
            && session.live == Some(self.id)
        {
            session.live = None;
            session.gone_at = Some(Instant::now());
        }
    }

    /// Takes one message in; the answer, if it has one of its own (table news comes through the inbox).
    async fn answer(&mut self, text: &str, out: &table::Outbox) -> Option<ServerMessage> {
        if !self.allowance.take(std::time::Instant::now()) {
            return Some(refusal(Refusal::TooFast, "too many messages; slow down"));
        }
        let message = match protocol::parse(text) {
            Ok(message) => message,
            Err((code, why)) => return Some(refusal(code, &why)),
        };
        let Some(name) = self.name.clone() else {
            let (welcome, back) = self.hello(message).await;
            if let Some((table, since)) = back {
                self.come_back(name_of(&welcome), table, since, out).await;
            }
            return Some(welcome);
        };
        let to_table = match message {
            ClientMessage::Hello { .. } => {
                return Some(refusal(Refusal::NotIntroduced, "hello comes once"));
            }
            ClientMessage::Lobby {} => {
                return Some(ServerMessage::Lobby {
                    tables: listings(&self.shared).await,
                });
            }
            ClientMessage::Sit { table, seat } => {
                return self.join(name, table, Some(seat), out).await;
            }
            ClientMessage::Watch { table } => return self.join(name, table, None, out).await,
            ClientMessage::Bet { amount } => ToTable::Bet {
                conn: self.id,
                amount,
            },
            ClientMessage::Play { action } => ToTable::Play {
                conn: self.id,
                action,
            },
            ClientMessage::Stand {} => ToTable::Stand { conn: self.id },
            ClientMessage::Reset {} if self.table.is_none() => {
                return Some(self.reset_away().await);
            }
            ClientMessage::Reset {} => ToTable::Reset { conn: self.id },
            ClientMessage::Chat { text } => match protocol::check_chat(&text) {
                Ok(text) => ToTable::Chat {
                    conn: self.id,
                    text,
                },
                Err(why) => return Some(refusal(Refusal::BadChat, &why)),
            },
        };
        match &self.table {
            Some(table) => {
                let _ = table.tx.send(to_table).await;
                None
            }
            None => Some(refusal(
                Refusal::NotSeated,
                "join a table first (sit or watch)",
            )),
        }
    }

    /// Says hello: a new guest, an account's session, or one coming back with their token (then also the table
    /// they were at, and the last news they have).
    async fn hello(
        &mut self,
        message: ClientMessage,
    ) -> (ServerMessage, Option<(String, Option<u64>)>) {
        let ClientMessage::Hello {
            version,
            name,
            token,
            since,
        } = message
        else {
            return (refusal(Refusal::NotIntroduced, "say hello first"), None);
        };
        if version != protocol::VERSION {
            let why = format!(
                "this server speaks protocol {}, not {version}",
                protocol::VERSION
            );
            return (refusal(Refusal::WrongVersion, &why), None);
        }
        // What the ledger knows: the account a token is a session of, or whether a guest's name is an account's.
        // A session held here only counts while it is current: an account away longer than the hold is looked up
        // in the ledger again (its session lasts 30 days there), not refused as unknown once the stale one is gone.
        let hold = self.shared.hold;
        // Only a guest's session is known here alone; an account's token is asked of the ledger every time, so one
        // that has been logged out (here or on another server) is not welcomed back from memory.
        let known = |token: &str| {
            self.shared.sessions.lock().is_ok_and(|s| {
                s.get(token)
                    .is_some_and(|s| s.account.is_none() && s.current(Instant::now(), hold))
            })
        };
        let account = match &token {
            Some(token) if !known(token) => match self.shared.store.session(token).await {
                Ok(account) => account,
                Err(e) => return (self.ledger_down(&e), None),
            },
            _ => None,
        };
        if token.is_none() {
            // A name that will not do is refused before the ledger is asked about it (PostgreSQL refuses a NUL in a
            // query's text outright, which the client would have heard as the ledger being down).
            if let Err(why) = protocol::check_name(&name) {
                return (refusal(Refusal::BadName, &why), None);
            }
            match self.shared.store.name_taken(&name).await {
                Ok(None) => {}
                Ok(Some(account)) => {
                    let why = if account.to_lowercase() == name.trim().to_lowercase() {
                        "that name is an account's: log in to play under it".to_string()
                    } else {
                        format!(
                            "that name looks too much like the account {account}'s: choose another"
                        )
                    };
                    return (refusal(Refusal::BadName, &why), None);
                }
                Err(e) => return (self.ledger_down(&e), None),
            }
        }
        let Ok(mut sessions) = self.shared.sessions.lock() else {
            return (
                refusal(Refusal::BadName, "the server cannot take names now"),
                None,
            );
        };
        let now = Instant::now();
        sessions.retain(|_, s| s.current(now, self.shared.hold));
        let (name, token, back) = match token {
            Some(token) => {
                if let Some(account) = account {
                    // A new session of an account: back to where another of its sessions sat, if any.
                    let table = sessions
                        .values()
                        .find(|s| s.account.as_deref() == Some(account.key.as_str()))
                        .and_then(|s| s.table.clone())
                        .or_else(|| {
                            // Seated here when the server last stopped: back to that seat.
                            let mut reseated = self.shared.reseated.lock().ok()?;
                            reseated.remove(&account.key)
                        });
                    let session = Session {
                        look: store::look_of(&account.name),
                        name: account.name,
                        account: Some(account.key),
                        live: None,
                        gone_at: None,
                        table,
                    };
                    sessions.insert(token.clone(), session);
                } else if sessions.get(&token).is_some_and(|s| s.account.is_some()) {
                    // The ledger no longer has this account's session (logged out, a new password): over here too.
                    sessions.remove(&token);
                }
                let Some(session) = sessions.get_mut(&token) else {
                    let why = "that token is not known here, or its hold has run out: log in again, or say \
                               hello with a name to play as a guest";
                    return (refusal(Refusal::BadName, why), None);
                };
                session.live = Some(self.id);
                session.gone_at = None;
                self.account = session.account.clone();
                let back = session.table.clone().map(|t| (t, since));
                (session.name.clone(), token, back)
            }
            None => {
                let name = match protocol::check_name(&name) {
                    Ok(name) => name,
                    Err(why) => return (refusal(Refusal::BadName, &why), None),
                };
                let look = store::look_of(&name);
                if let Some(other) = sessions.values().find(|s| s.look == look) {
                    let why = if other.name.to_lowercase() == name.to_lowercase() {
                        format!("someone here already plays as {name}")
                    } else {
                        format!(
                            "someone here already plays as {}, which looks too much like {name}",
                            other.name
                        )
                    };
                    return (refusal(Refusal::BadName, &why), None);
                }
                let token = match new_token() {
                    Ok(token) => token,
                    Err(why) => return (refusal(Refusal::BadName, &why), None),
                };
                sessions.insert(
                    token.clone(),
                    Session {
                        look,
                        name: name.clone(),
                        account: None,
                        live: Some(self.id),
                        gone_at: None,
                        table: None,
                    },
                );
                (name, token, None)
            }
        };
        if let Some(session) = sessions.get(&token) {
            self.who = session.who(&token);
        }
        if let (Some(key), Some(end)) = (&self.account, self.end.take())
            && let Ok(mut ends) = self.shared.ends.lock()
        {
            ends.insert(self.id, (key.clone(), end));
        }
        self.name = Some(name.clone());
        self.token = token.clone();
        let welcome = ServerMessage::Welcome {
            version: protocol::VERSION,
            name,
            token,
            account: self.account.is_some(),
        };
        (welcome, back)
    }

    /// The ledger failed: the client hears that, the log hears why.
    fn ledger_down(&self, e: &str) -> ServerMessage {
        eprintln!("holecard-server: the ledger: {e}");
        refusal(
            Refusal::Unavailable,
            "the server's ledger is not answering; try again soon",
        )
    }

    /// An account's reset away from any table: its bankroll back to the starting stake, at most once an hour.
    async fn reset_away(&self) -> ServerMessage {
        let Some(key) = &self.account else {
            return refusal(Refusal::NotSeated, "take a seat to reset your balance");
        };
        match self.shared.store.reset(key, None, self.shared.stake).await {
            Ok(Ok(_)) => match self.shared.store.account(key).await {
                Ok(Some(account)) => ServerMessage::Balance {
                    chips: account.chips,
                    highscore: account.highscore,
                },
                Ok(None) => refusal(Refusal::NoReset, "no such account"),
                Err(e) => self.ledger_down(&e),
            },
            Ok(Err(why)) => refusal(Refusal::NoReset, &why),
            Err(e) => self.ledger_down(&e),
        }
    }

    /// Back after a dropped connection: into the seat held for the session, else watching the table it was at.
    async fn come_back(
        &mut self,
        name: String,
        table: String,
        since: Option<u64>,
        out: &table::Outbox,
    ) {
        let Some(handle) = self.shared.tables.get(&table).cloned() else {
            return;
        };
        let (reply, answer) = oneshot::channel();
        let resume = ToTable::Resume {
            conn: self.id,
            who: self.who.clone(),
            since,
            out: out.clone(),
            reply,
        };
        if handle.tx.send(resume).await.is_ok() && answer.await == Ok(true) {
            self.table = Some(handle);
        } else {
            let _ = self.join(name, table, None, out).await;
        }
    }

    async fn join(
        &mut self,
        name: String,
        table: String,
        seat: Option<crate::engine::SeatId>,
        out: &table::Outbox,
    ) -> Option<ServerMessage> {
        let Some(handle) = self.shared.tables.get(&table).cloned() else {
            return Some(refusal(
                Refusal::NoSuchTable,
                &format!("there is no table {table:?}"),
            ));
        };
        self.leave_table().await;
        let (reply, answer) = oneshot::channel();
        let join = ToTable::Join {
            conn: self.id,
            who: self.who.clone(),
            account: self.account.clone(),
            name,
            seat,
            out: out.clone(),
            reply,
        };
        if handle.tx.send(join).await.is_err() {
            return Some(refusal(Refusal::NoSuchTable, "that table has closed"));
        }
        match answer.await {
            Ok(Ok(())) => {
                self.table = Some(handle);
                if let Ok(mut sessions) = self.shared.sessions.lock()
                    && let Some(session) = sessions.get_mut(&self.token)
                {
                    session.table = Some(table);
                }
                None
            }
            Ok(Err((code, why))) => Some(refusal(code, &why)),
            Err(_) => Some(refusal(Refusal::NoSuchTable, "that table has closed")),
        }
    }

    /// Moves on from the table the connection is at (getting up from any seat).
    /// Waits until the table has written what leaving changed (an account's chips free to sit elsewhere).
    async fn leave_table(&mut self) {
        if let Some(table) = self.table.take() {
            let (done, written) = oneshot::channel();
            let gone = ToTable::Gone {
                conn: self.id,
                dropped: false,
                done: Some(done),
            };
            if table.tx.send(gone).await.is_ok() {
                let _ = written.await;
            }
        }
    }
}

/// The name a `welcome` gives.
fn name_of(welcome: &ServerMessage) -> String {
    match welcome {
        ServerMessage::Welcome { name, .. } => name.clone(),
        _ => String::new(),
    }
}

/// A session token: 128 bits from the operating system, in hex.
fn new_token() -> Result<String, String> {
    let seed = crate::engine::os_seed().map_err(|e| e.to_string())?;
    Ok(seed[..16].iter().map(|b| format!("{b:02x}")).collect())
}

fn refusal(code: Refusal, message: &str) -> ServerMessage {
    ServerMessage::Refused {
        code,
        message: message.to_string(),
    }
}

async fn send(socket: &mut WebSocket, message: &ServerMessage) -> Result<(), ()> {
    socket
        .send(Message::Text(table::encode(message)))
        .await
        .map_err(|_| ())
}

/// The tables of every level file in `dir`, by file stem; a broken file is an error naming it.
pub fn tables_in(dir: &std::path::Path) -> Result<Vec<(String, Level)>, String> {
    let mut tables = Vec::new();
    for listing in crate::host::level::catalogue(dir) {
        let id = listing
            .path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let level = listing.level.map_err(|e| e.to_string())?;
        tables.push((id, level));
    }
    Ok(tables)
}

/// Each table `n` times: the first under its own id, the others as `ID-2`, `ID-3`, …, each its own shoe.
pub fn copies(tables: Vec<(String, Level)>, n: usize) -> Vec<(String, Level)> {
    let mut all = Vec::with_capacity(tables.len() * n.max(1));
    for copy in 1..=n.max(1) {
        for (id, level) in &tables {
            let id = match copy {
                1 => id.clone(),
                _ => format!("{id}-{copy}"),
            };
            all.push((id, level.clone()));
        }
    }
    all
}

#[cfg(test)]
mod tests {
    use super::named_by_contents;

    #[test]
    fn only_files_named_by_their_contents_are_kept_for_good() {
        for lasting in [
            "/holecard_bg.0123456789ab.wasm",
            "/holecard.abcdef012345.js",
            "/loader.00000000ffff.js",
            "/assets/0123456789ab/cards/classic/AS.png",
        ] {
            assert!(named_by_contents(lasting), "{lasting}");
        }
        for asked_again in [
            "/",
            "/index.html",
            "/sw.js",
            "/manifest.webmanifest",
            "/holecard_bg.wasm",
            "/0123456789ab.js",
            "/holecard.0123456789AB.js",
            "/holecard.0123456789a.js",
            "/assets/0123456789ab/",
            "/assets/felt.png",
            "/assets/notahashhere/felt.png",
        ] {
            assert!(!named_by_contents(asked_again), "{asked_again}");
        }
    }
}
