//! `holecard-server`: the casino server. `holecard-server` serves every table in `levels/` on 127.0.0.1:8080, with
//! its ledger in `holecard-server.sqlite` in the data folder; `--check-ledger` proves the ledger's sums and exits.

use clap::Parser;
use holecard::server::api::LoginLimits;
use holecard::server::{self, Config, table::Pace};
use std::net::SocketAddr;
use std::num::NonZeroU32;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Parser)]
#[command(
    name = "holecard-server",
    version,
    about = "The Holecard casino server"
)]
struct Cli {
    /// Where to listen. Put a TLS-terminating proxy in front of it to serve beyond this machine.
    #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// The folder of table levels (default: `levels`, else the tables built in).
    #[arg(long, value_name = "DIR", default_value = "levels")]
    levels: PathBuf,
    /// Seed for the tables' shoes and companions: the same shoes again for the same seed (tests, a reproducible run).
    /// Without it, each shoe is seeded fresh from the operating system. Either way each shoe's seed is committed to
    /// (its SHA-256 announced) before its first card and revealed after its last.
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// Seconds the table waits for bets.
    #[arg(long, value_name = "S", default_value_t = 20)]
    bet_seconds: u64,
    /// Seconds a person has to act before the table stands for them.
    #[arg(long, value_name = "S", default_value_t = 30)]
    turn_seconds: u64,
    /// Milliseconds a companion waits before it acts (so people can follow).
    #[arg(long, value_name = "MS", default_value_t = 600)]
    companion_ms: u64,
    /// Seconds a dropped connection's seat (and a guest's name) wait for it to come back.
    #[arg(long, value_name = "S", default_value_t = holecard::server::protocol::HOLD_SECONDS)]
    hold_seconds: u64,
    /// The browser build to serve at `/` (made by `scripts/build-web`).
    #[arg(long, value_name = "DIR", default_value = "web/dist")]
    web: PathBuf,
    /// Open each level this many times (`las-vegas-strip`, `las-vegas-strip-2`, …): more tables of the same game.
    #[arg(long, value_name = "N", default_value_t = 1)]
    tables_per_level: usize,
    /// Connections one address may hold at once (raise it for a load test from one machine).
    #[arg(long, value_name = "N", default_value_t = 32)]
    per_address: usize,
    /// The ledger: `sqlite://PATH` or `postgres://USER[:PASSWORD]@HOST[:PORT]/NAME` (default: a SQLite file
    /// `holecard-server.sqlite` in the data folder, `$HOLECARD_DATA_DIR` or the platform's).
    #[arg(long, value_name = "URL")]
    database: Option<String>,
    /// What a new account starts with and resets to, in dollars.
    #[arg(long, value_name = "DOLLARS", default_value_t = 1_000)]
    stake: u32,
    /// Password attempts (logging in, changing a password) one address may make a minute; over it, 429.
    #[arg(long, value_name = "N", default_value_t = LoginLimits::default().per_address)]
    logins_per_address: NonZeroU32,
    /// Password attempts one account name may be tried with a minute, from anywhere (every server on the ledger
    /// counts them together); over it, 429.
    #[arg(long, value_name = "N", default_value_t = LoginLimits::default().per_name)]
    logins_per_name: NonZeroU32,
    /// Accounts one address may make a minute (every server on the ledger counts them together); over it, 429.
    #[arg(long, value_name = "N", default_value_t = LoginLimits::default().registrations_per_address)]
    registrations_per_address: NonZeroU32,
    /// One of several servers on one ledger (PostgreSQL) behind a proxy: serve only the K-th of every N tables of
    /// `--levels` (`--share 1/2` the first, third, …; `--share 2/2` the others). See `scripts/casino-cluster`.
    #[arg(long, value_name = "K/N", value_parser = parse_share)]
    share: Option<(usize, usize)>,
    /// Where the proxy reaches this server's WebSocket (`/ws/a`), served here as well as `/ws`: its tables go in the
    /// ledger's shared lobby, and its lobby lists every server's tables, each with where to play at it.
    #[arg(long, value_name = "PATH")]
    route: Option<String>,
    /// Check the ledger's sums (every account's chips are its entries, every round sums to zero, every house is its
    /// start and its rounds), print the report as JSON, and exit: 0 when it balances, 1 when not.
    #[arg(long)]
    check_ledger: bool,
    /// Copy a SQLite ledger, whole and consistent, to this new file and exit (SQLite's `VACUUM INTO`: the server
    /// keeping the ledger may be running). A PostgreSQL ledger is backed up with `pg_dump` (see docs/engineering.md).
    #[arg(long, value_name = "FILE", conflicts_with = "check_ledger")]
    backup_to: Option<PathBuf>,
    /// How the log on standard error is written: `plain` lines of words, or `json` (one JSON object a line, for a
    /// log collector).
    #[arg(long, value_name = "FORMAT", value_enum, default_value = "plain")]
    log_format: LogFormatArg,
    /// Count the server's figures (connections, tables, people, rounds, commands and refusals, command-to-news
    /// times, the ledger's pool and failures) and serve them at /metrics in Prometheus' text format. /healthz and
    /// /readyz are served either way.
    #[arg(long)]
    metrics: bool,
    /// Days the tables' chat is kept in the ledger (moderators read it; a report keeps its own copy), then swept.
    #[arg(long, value_name = "DAYS", default_value_t = server::KEEP_CHAT_DAYS)]
    keep_chat_days: u64,
    /// Days each settled round is kept to watch again (`GET /api/hand/TABLE/ROUND`), then swept; 0 keeps none (and
    /// sweeps those kept before).
    #[arg(long, value_name = "DAYS", default_value_t = server::KEEP_REPLAYS_DAYS)]
    keep_replays_days: u64,
    /// Give an account a role and exit: `--grant NAME ROLE`, ROLE `player`, `moderator` (mutes, times out, kicks and
    /// bans players) or `admin` (moderators too). The moderation log keeps it. The server may be running.
    #[arg(long, num_args = 2, value_names = ["NAME", "ROLE"], conflicts_with_all = ["check_ledger", "backup_to"])]
    grant: Option<Vec<String>>,
}

/// `--log-format`.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum LogFormatArg {
    Plain,
    Json,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    server::log_to_stderr(match cli.log_format {
        LogFormatArg::Plain => server::LogFormat::Plain,
        LogFormatArg::Json => server::LogFormat::Json,
    });
    // Room for every player: the soft limit on open files (often 1,024) raised to the hard one.
    server::listen::raise_the_file_limit();
    let database = match cli
        .database
        .clone()
        .map_or_else(server::ledger::default_database, Ok)
    {
        Ok(database) => database,
        Err(e) => {
            eprintln!("holecard-server: {e}");
            return ExitCode::from(2);
        }
    };
    if cli.check_ledger {
        return check_ledger(&database);
    }
    if let Some(file) = &cli.backup_to {
        return back_up(&database, file);
    }
    if let Some(grant) = &cli.grant {
        return give_role(&database, grant);
    }
    let tables = match server::tables_in(&cli.levels) {
        Ok(tables) => {
            let all = server::copies(tables, cli.tables_per_level);
            match cli.share {
                Some((k, n)) => all
                    .into_iter()
                    .enumerate()
                    .filter(|(i, _)| i % n == k - 1)
                    .map(|(_, table)| table)
                    .collect(),
                None => all,
            }
        }
        Err(e) => {
            eprintln!("holecard-server: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(seed) = cli.seed {
        tracing::warn!(
            "--seed {seed}: every shoe and every companion's choice follows from this number, so whoever knows or \
             guesses it knows every card to come (and the first shoe's revealed seed tells it): for tests and \
             reproducible runs, not for a casino people play at"
        );
    }
    let seed = match cli.seed.map_or_else(holecard::engine::os_seed_number, Ok) {
        Ok(seed) => seed,
        Err(e) => {
            eprintln!("holecard-server: {e}; pass --seed N");
            return ExitCode::from(2);
        }
    };
    let config = Config {
        tables,
        seed,
        pace: Pace {
            bet: Duration::from_secs(cli.bet_seconds),
            turn: Duration::from_secs(cli.turn_seconds),
            companion: Duration::from_millis(cli.companion_ms),
            hold: Duration::from_secs(cli.hold_seconds),
        },
        per_address: cli.per_address,
        request_time: server::listen::REQUEST_TIME,
        web: Some(cli.web.clone()),
        database,
        stake: holecard::engine::Cents::units(i64::from(cli.stake)),
        logins: LoginLimits {
            per_address: cli.logins_per_address,
            per_name: cli.logins_per_name,
            registrations_per_address: cli.registrations_per_address,
        },
        route: cli.route.clone(),
        metrics: cli.metrics,
        // A pinned --seed deals the same shoes again; without one, every shoe is seeded afresh.
        fresh_shoes: cli.seed.is_none(),
        keep_chat: Duration::from_secs(cli.keep_chat_days.saturating_mul(86_400)),
        keep_replays: Duration::from_secs(cli.keep_replays_days.saturating_mul(86_400)),
    };
    let page = if cli.web.join("index.html").is_file() {
        "the game at /".to_string()
    } else {
        format!(
            "no browser build in {} (scripts/build-web makes it)",
            cli.web.display()
        )
    };
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("holecard-server: {e}");
            return ExitCode::FAILURE;
        }
    };
    let served = runtime.block_on(async {
        let listening = |source| server::error::ServerError::Listen {
            addr: cli.listen,
            source,
        };
        let listener = tokio::net::TcpListener::bind(cli.listen)
            .await
            .map_err(listening)?;
        let addr = listener.local_addr().map_err(listening)?;
        let app = server::router(&config).await?;
        let (tables, ledger) = (config.tables.len(), server::ledger::shown(&config.database));
        // The log says where it listens, and then standard output's first line (scripts and tests wait for it, and
        // count a server's starts in its log by its words).
        tracing::info!("listening at http://{addr} with {tables} tables; ledger {ledger}");
        println!(
            "holecard-server: {tables} tables on http://{addr} (lobby /api/tables, play /ws), ledger {ledger}; {page}"
        );
        let stop = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        server::serve_app(listener, app, &config, stop).await
    });
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("holecard-server: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `K/N`, with 1 ≤ K ≤ N.
fn parse_share(text: &str) -> Result<(usize, usize), String> {
    let (k, n) = text
        .split_once('/')
        .ok_or_else(|| format!("{text:?}: a share is K/N, as 1/2"))?;
    let (k, n): (usize, usize) = (
        k.trim().parse().map_err(|e| format!("{text:?}: {e}"))?,
        n.trim().parse().map_err(|e| format!("{text:?}: {e}"))?,
    );
    if k == 0 || k > n {
        return Err(format!("{text:?}: K/N needs 1 ≤ K ≤ N"));
    }
    Ok((k, n))
}

/// `ask` of the ledger at `database`, opened to read only (the server keeping it may be running, and holds its lock),
/// on a runtime of its own: what the ledger answered, or why it could not.
fn read_the_ledger<T>(
    database: &str,
    ask: impl AsyncFnOnce(&server::ledger::Store) -> Result<T, server::ledger::LedgerError>,
) -> Result<T, String> {
    let runtime = tokio::runtime::Runtime::new().map_err(|e| e.to_string())?;
    runtime
        .block_on(async {
            let store = server::ledger::Store::open_reader(database).await?;
            ask(&store).await
        })
        .map_err(|e| e.to_string())
}

/// `--grant NAME ROLE`: the account's role, given in the ledger (which the server keeping it may have open).
fn give_role(database: &str, grant: &[String]) -> ExitCode {
    let [name, role] = grant else {
        eprintln!("holecard-server: --grant takes a name and a role");
        return ExitCode::from(2);
    };
    let given = tokio::runtime::Runtime::new()
        .map_err(|e| e.to_string())
        .and_then(|runtime| {
            runtime
                .block_on(async {
                    let role = server::ledger::Role::named(role)?;
                    let store = server::ledger::Store::open_tool(database).await?;
                    let name = store.grant(name, role).await?;
                    Ok::<_, server::ledger::LedgerError>((name, role))
                })
                .map_err(|e| e.to_string())
        });
    match given {
        Ok((name, role)) => {
            println!("holecard-server: {name} is {} now", role.name());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("holecard-server: --grant {name} {role}: {e}");
            ExitCode::from(2)
        }
    }
}

/// `--backup-to FILE`: a SQLite ledger copied whole to a new file while the server may be keeping it.
fn back_up(database: &str, file: &std::path::Path) -> ExitCode {
    match read_the_ledger(database, async |store| store.back_up_to(file).await) {
        Ok(()) => {
            println!(
                "holecard-server: the ledger {} is copied to {}",
                server::ledger::shown(database),
                file.display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!(
                "holecard-server: backing up the ledger {}: {e}",
                server::ledger::shown(database)
            );
            ExitCode::from(2)
        }
    }
}

/// `--check-ledger`: the report as JSON; 0 when the ledger balances.
fn check_ledger(database: &str) -> ExitCode {
    match read_the_ledger(database, async |store| store.check().await) {
        Ok(report) => {
            let balanced = report.balanced();
            match serde_json::to_string_pretty(&serde_json::json!({
                "ledger": server::ledger::shown(database),
                "balanced": balanced,
                "report": report,
            })) {
                Ok(text) => println!("{text}"),
                Err(e) => eprintln!("holecard-server: {e}"),
            }
            if balanced {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(e) => {
            eprintln!(
                "holecard-server: checking the ledger {}: {e}",
                server::ledger::shown(database)
            );
            ExitCode::from(2)
        }
    }
}
