//! The casino server (the `server` feature, no Bevy): tables shared over WebSockets. Each table is a task that owns
//! its host (`crate::host::Host`) and decides everything; a connection speaks for its own seat only, and what it is
//! sent is the public news and its seat's view: nothing tells the shoe's order, the generator or a face-down card.
//!
//! People play as guests (a name) or with an account (`POST /api/register`, `POST /api/login`: a session token
//! given in the first WebSocket message, never in a URL). An account's bankroll, highscore and hands live in the
//! ledger (`ledger`): SQLite by default, PostgreSQL when asked.
//!
//! By job: `ledger` (the database: accounts and sessions, names, the lobby, seats and settlement, the check), `table`
//! (a table's task), `connection` (a client's WebSocket, and its `hello`), `sessions` (the sessions held here and
//! their end), `lobby` (the tables listed), `api` (the accounts' HTTP API), `web` (the browser build's files),
//! `error` (the server's one error), `load` (the load tool's bots), `metrics` (the operator's figures and health),
//! `verify` (a table's shoes watched and checked, for the lab).
//! This file puts them together.

pub mod api;
mod connection;
pub mod error;
pub mod load;
pub mod metrics;
mod moderation;
pub mod replays;
pub use crate::protocol;
pub mod ledger;
pub mod listen;
mod lobby;
mod sessions;
pub mod table;
pub mod verify;
mod web;

use crate::engine::Cents;
use crate::host::level::Level;
use axum::Router;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::get;
use error::ServerError;
use futures_util::SinkExt;
use ledger::Store;
use metrics::Metrics;
use protocol::{ClientMessage, Refusal, ServerMessage};
use sessions::Session;
use std::collections::{BTreeMap, HashMap};
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
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
    /// WebSockets one address may hold at once (past it, 429); it may have twice as many connections accepted, and
    /// a few more, while they are requests to the API or reconnecting.
    pub per_address: usize,
    /// How long a client may take to send a request's headers (an idle kept-alive connection is closed after as
    /// long) and its body: [`listen::REQUEST_TIME`] unless a test wants it shorter.
    pub request_time: Duration,
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
    /// The operator's figures counted and served at `/metrics` (Prometheus' text format).
    pub metrics: bool,
    /// Each shoe's seed fresh from the operating system (a casino's), rather than from `seed` (the same shoes again
    /// for the same seed). Either way every shoe is committed to before its first card and revealed after its last.
    pub fresh_shoes: bool,
    /// How long the tables' chat is kept in the ledger (for moderators and reports), then swept.
    pub keep_chat: Duration,
    /// How long each settled round is kept to watch again (`/api/hand/TABLE/ROUND`), then swept; zero keeps none.
    pub keep_replays: Duration,
}

/// How long rounds are kept to watch again unless the operator says.
pub const KEEP_REPLAYS_DAYS: u64 = 30;

/// How long the tables' chat is kept unless the operator says.
pub const KEEP_CHAT_DAYS: u64 = 30;

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
    /// How to end each connection an account has open, by connection.
    ends: Mutex<HashMap<ConnId, sessions::Welcomed>>,
    /// Password attempts, limited.
    attempts: api::Attempts,
    /// Where this server is reached behind a proxy, when it is one of several.
    route: Option<String>,
    /// This process, as the ledger knows the guests' names it holds: its route, or a token of its own.
    holder: String,
    /// The operator's figures.
    metrics: Arc<Metrics>,
    /// How many days rounds are kept to watch again (for messages).
    keep_replays_days: u64,
}

/// Opens the ledger at `config.database`, recovers what a stop left (unsettled rounds are refunded, every account is
/// up from its table) and says so on standard error; then the server's routes over its open tables:
/// `GET /api/tables` (the lobby), `GET /ws` (play), the accounts' API (`api`), and the browser build's files at `/`
/// when there is one.
pub async fn router(config: &Config) -> Result<Router, ServerError> {
    let store = Store::open(&config.database).await?;
    let ids: Vec<String> = config.tables.iter().map(|(id, _)| id.clone()).collect();
    let recovery = store.recover(&ids).await?;
    for (table, round) in &recovery.refunded {
        tracing::warn!(
            "table {table} round {round} was dealt but never settled before the server stopped: \
             its bets were never taken, so they are refunded"
        );
    }
    if recovery.unseated > 0 {
        tracing::info!(
            "{} accounts were seated with no chips (or in no known seat) when the server stopped; \
             they are up",
            recovery.unseated
        );
    }
    let metrics = Arc::new(Metrics::new(config.metrics, store.failures()));
    metrics.tables_open(config.tables.len());
    let keeper = (!config.keep_replays.is_zero()).then(|| replays::Keeper::start(store.clone()));
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
            metrics.clone(),
            config.fresh_shoes,
            keeper.clone(),
        )
        .await?;
        tables.insert(id.clone(), handle);
    }
    // A process holds its guests' names under its route, or with no route under a token of its own. Starting, it
    // gives back the names it held when it stopped: those guests' sessions were in its memory.
    let holder = match &config.route {
        Some(route) => format!("route:{route}"),
        None => format!("process:{}", new_token()?),
    };
    let released = store
        .release_earlier_guest_names(&holder, config.route.is_some())
        .await?;
    if released > 0 {
        tracing::info!("{released} guest names held when this server stopped are free again");
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
        route: config.route.clone(),
        holder,
        metrics,
        keep_replays_days: config.keep_replays.as_secs() / 86_400,
    });
    if shared.store.shared_by_servers() {
        tokio::spawn(sessions::hear_sessions_ended(
            config.database.clone(),
            Arc::downgrade(&shared),
        ));
    }
    tokio::spawn(sessions::keep_guest_names(Arc::downgrade(&shared)));
    // The attempts' memory is swept now and then while the server runs, and the chat older than its time.
    let sweeping = Arc::downgrade(&shared);
    let keep_chat = i64::try_from(config.keep_chat.as_millis()).unwrap_or(i64::MAX);
    let keep_replays = i64::try_from(config.keep_replays.as_millis()).unwrap_or(i64::MAX);
    tokio::spawn(async move {
        let mut every = tokio::time::interval(api::FORGET_ATTEMPTS_EVERY);
        loop {
            every.tick().await;
            let Some(shared) = sweeping.upgrade() else {
                return;
            };
            shared.attempts.forget_old();
            let now = ledger::now_ms();
            if let Err(e) = shared
                .store
                .forget_chat_before(now.saturating_sub(keep_chat))
                .await
            {
                shared.store.failed("sweeping the chat past its time", &e);
            }
            if let Err(e) = shared
                .store
                .forget_replays_before(now.saturating_sub(keep_replays))
                .await
            {
                shared
                    .store
                    .failed("sweeping the rounds kept past their time", &e);
            }
        }
    });
    let mut app = Router::new()
        .route("/api/tables", get(lobby::lobby))
        .route("/ws", get(connection::upgrade))
        .route("/healthz", get(metrics::healthz))
        .route("/readyz", get(metrics::readyz));
    if config.metrics {
        app = app.route("/metrics", get(metrics::metrics));
    }
    if let Some(route) = config.route.as_deref().filter(|r| *r != "/ws") {
        if !route.starts_with('/') {
            return Err(ServerError::Route(route.to_string()));
        }
        app = app.route(route, get(connection::upgrade));
    }
    let app = app.merge(api::routes()).with_state(shared);
    let app = match &config.web {
        Some(dir) if dir.join("index.html").is_file() => app
            .route("/hand/{table}/{round}", get(web::watch_again))
            .fallback_service(
                Router::new()
                    .fallback_service(
                        tower_http::services::ServeDir::new(dir)
                            .precompressed_br()
                            .precompressed_gzip(),
                    )
                    .layer(axum::middleware::from_fn(web::keeping_rules)),
            ),
        _ => app.fallback(web::not_found),
    };
    // Every route: a body declared larger than anything here reads is refused before it is read, a body must come
    // within its time, and every error is JSON.
    Ok(app
        .layer(tower_http::timeout::RequestBodyTimeoutLayer::new(
            config.request_time,
        ))
        .layer(axum::middleware::from_fn(web::no_large_bodies))
        .layer(axum::middleware::from_fn(web::errors_as_json)))
}

/// Serves `config` on `listener` until `shutdown` resolves.
pub async fn serve(
    listener: tokio::net::TcpListener,
    config: Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServerError> {
    serve_app(listener, router(&config).await?, &config, shutdown).await
}

/// Serves an app made by [`router`] for `config` on `listener` until `shutdown` resolves, each connection counted as
/// it is accepted (`listen`): at most [`listen::accepted_per_client`] of `per_address` from one client, and as many in
/// all as the process's file limit leaves room for; each request given `request_time`.
pub async fn serve_app(
    listener: tokio::net::TcpListener,
    app: Router,
    config: &Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServerError> {
    let caps = listen::Caps::under_the_file_limit(listen::accepted_per_client(config.per_address));
    listen::serve(listener, app, caps, config.request_time, shutdown).await
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
pub fn spawn(addr: SocketAddr, config: Config) -> Result<Running, ServerError> {
    log_to_stderr(LogFormat::Plain);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(ServerError::Runtime)?;
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind(addr))
        .map_err(|source| ServerError::Listen { addr, source })?;
    let addr = listener
        .local_addr()
        .map_err(|source| ServerError::Listen { addr, source })?;
    // The routes are built inside the runtime: each table's task is spawned on it.
    let app = runtime.block_on(router(&config))?;
    let (stop, stopped) = oneshot::channel::<()>();
    let thread = std::thread::spawn(move || {
        let shutdown = async move {
            let _ = stopped.await;
        };
        if let Err(e) = runtime.block_on(serve_app(listener, app, &config, shutdown)) {
            tracing::error!("{e}");
        }
    });
    Ok(Running {
        addr,
        stop: Some(stop),
        thread: Some(thread),
    })
}

/// How the server's log is written to standard error: a line of words each (`holecard-server: …`), or a JSON object
/// each (`{"timestamp":…,"level":"WARN","message":…,"target":…}`) for a log collector.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LogFormat {
    #[default]
    Plain,
    Json,
}

/// Sends the server's log to standard error in `format`: its own lines from `info` up, its libraries' from `warn`.
/// Once a process: a second call (a test's second server) keeps the first.
pub fn log_to_stderr(format: LogFormat) {
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    use tracing_subscriber::{Layer, filter::Targets, fmt};
    // The server's own lines from `info` up; its libraries' (the database driver's notices) only from `warn`.
    let lines = Targets::new()
        .with_target("holecard", tracing::Level::INFO)
        .with_default(tracing::Level::WARN);
    let layer = fmt::layer().with_writer(std::io::stderr);
    let layer = match format {
        LogFormat::Plain => layer.event_format(Plain).boxed(),
        LogFormat::Json => layer.json().flatten_event(true).boxed(),
    };
    let _ = tracing_subscriber::registry()
        .with(layer.with_filter(lines))
        .try_init();
}

/// A plain log line: `holecard-server: `, `warning: ` or `error: ` for those, and the message.
struct Plain;

impl<S, N> tracing_subscriber::fmt::FormatEvent<S, N> for Plain
where
    S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
    N: for<'a> tracing_subscriber::fmt::FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        ctx: &tracing_subscriber::fmt::FmtContext<'_, S, N>,
        mut writer: tracing_subscriber::fmt::format::Writer<'_>,
        event: &tracing::Event<'_>,
    ) -> std::fmt::Result {
        write!(writer, "holecard-server: ")?;
        match *event.metadata().level() {
            tracing::Level::ERROR => write!(writer, "error: ")?,
            tracing::Level::WARN => write!(writer, "warning: ")?,
            _ => {}
        }
        ctx.field_format().format_fields(writer.by_ref(), event)?;
        writeln!(writer)
    }
}

/// A session token: 128 bits from the operating system, in hex.
pub(crate) fn new_token() -> Result<String, ServerError> {
    let seed = crate::engine::os_seed().map_err(|e| ServerError::Token(e.to_string()))?;
    Ok(seed[..16].iter().map(|b| format!("{b:02x}")).collect())
}

/// The tables of every level file in `dir`, by file stem; a broken file is an error naming it.
pub fn tables_in(dir: &std::path::Path) -> Result<Vec<(String, Level)>, ServerError> {
    let mut tables = Vec::new();
    for listing in crate::host::level::catalogue(dir) {
        let id = listing
            .path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let level = listing
            .level
            .map_err(|e| ServerError::Level(e.to_string()))?;
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
