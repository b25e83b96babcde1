//! The server's ledger in a database: SQLite by default (a file in the data folder), PostgreSQL when given a
//! `postgres://` address, both through one `sqlx` pool and one set of migrations (`migrations/`).
//!
//! Chips move only in transactions: an account's starting stake, a round settled at a table (every hand's record,
//! every bankroll change and highscore, the house's side, all at once, keyed by table and round so that settling it
//! twice does nothing), a reset. An account's chips are the sum of its ledger entries; `check` proves it, with every
//! other sum the ledger keeps.
//!
//! By job: `accounts` (accounts and sessions), `names` (which names may be played under, what a name looks like, and
//! the one table of every name held), `moderation` (roles, sanctions, the moderation log, reports, blocks, the
//! chat kept), `attempts` (limits every server shares), `lobby` (the shared lobby), `seats`
//! (seats, rounds and their settlement, resets, what a restart finds), `check` (the sums proved). This file opens the
//! ledger and holds what they share: the pool, the one typed error, an entry in an account's ledger.

mod accounts;
mod attempts;
mod check;
mod lobby;
mod moderation;
mod names;
mod seats;

pub use accounts::*;
pub use check::LedgerReport;
pub use moderation::{Imposed, LogLine, Moderated, Order, Report, Role, in_words};
pub use names::{check_name, look_of};
pub use seats::{Player, RESET_EVERY, Recovery, Reseat, Settled, Settlement};

use crate::engine::Cents;
use sqlx::AnyPool;
use sqlx::any::AnyPoolOptions;
use sqlx::migrate::{Migration, MigrationType, Migrator};
use std::path::PathBuf;
use std::time::Duration;
use thiserror::Error;

pub use crate::host::history::now_ms;

/// A session's token as the ledger keeps it: its SHA-256 in hex (the token itself is never stored).
fn token_hash(token: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The ledger.
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
    /// Where the rounds kept to watch again are written and swept: on PostgreSQL a connection of their own, so the
    /// keeper's writes never hold a connection the ledger's money or a player's request waits for; on SQLite the one
    /// connection, which every writer shares.
    replays: AnyPool,
    /// Argon2 hashes at once: each takes 19 MiB and a core for tens of milliseconds, so a crowd registering at
    /// once waits its turn instead of taking the machine's memory.
    hashing: std::sync::Arc<tokio::sync::Semaphore>,
    /// Where it is, for messages (a PostgreSQL address without its password).
    place: String,
    /// A SQLite ledger's lock file, held (and locked) while this server keeps its ledger there: one writer to a
    /// SQLite ledger at a time. None for PostgreSQL, and for a reader.
    _lock: Option<std::sync::Arc<std::fs::File>>,
    /// Times the ledger failed to answer the server (`Store::failed`): the operator's figure itself, shared.
    failures: prometheus_client::metrics::counter::Counter,
    /// This opening of the ledger among the servers sharing it: what it tells them is signed so, and what it hears
    /// signed so is its own.
    origin: String,
}

/// What the ledger refused, or why it could not answer.
#[derive(Debug, Error)]
pub enum LedgerError {
    /// The database failed, or could not be reached.
    #[error("the ledger failed: {0}")]
    Database(#[from] sqlx::Error),
    /// Another holecard-server keeps its ledger in this SQLite file.
    #[error(
        "another holecard-server keeps its ledger in {0}: stop it, or give this one another --database (two servers on one SQLite ledger would serve the same tables and lose rounds)"
    )]
    Held(PathBuf),
    /// An address that names no database this server keeps a ledger in.
    #[error("{0}: a database is sqlite://PATH or postgres://USER@HOST/NAME")]
    NotAnAddress(String),
    /// No address given, and no data folder to keep the default in.
    #[error("no data folder: set HOLECARD_DATA_DIR or pass --database")]
    NoDataFolder,
    /// The folder of a SQLite ledger could not be made.
    #[error("cannot make the folder {folder}: {source}")]
    Folder {
        /// The folder.
        folder: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The database could not be opened.
    #[error("opening the database {place}: {source}")]
    Open {
        /// Where (no password).
        place: String,
        /// Why.
        source: sqlx::Error,
    },
    /// The database's schema could not be brought up to date.
    #[error("bringing the database {place} up to date: {source}")]
    Migrate {
        /// Where (no password).
        place: String,
        /// Why.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The ledger holds something it cannot read (a stored hash, a lobby line), or could not make a token.
    #[error("{0}")]
    Corrupt(String),
    /// Hashing a password failed.
    #[error("hashing a password: {0}")]
    Hashing(String),
    /// A name or password that does not do (the message says why).
    #[error("{0}")]
    Invalid(String),
    /// The name is an account's.
    #[error("that name is taken")]
    Taken,
    /// The name looks too much like this account's.
    #[error("that name looks too much like the account {0}'s: choose another")]
    LooksLike(String),
    /// A guest plays under this name, or one that looks like it, now.
    #[error("someone here already plays as {0}: choose another name")]
    GuestPlays(String),
    /// An account could not take its name: another holds it or one like it (`Store::why_held` says who).
    #[error("that name is held")]
    NameHeld {
        /// The name's look.
        look: String,
        /// The name's key.
        key: String,
    },
    /// The name asked for as a guest's is an account's.
    #[error("that name is an account's: log in to play under it")]
    AnAccountsName,
    /// No such name, or the wrong password (not told apart).
    #[error("no account has that name and password")]
    WrongLogin,
    /// No account by that key.
    #[error("no such account")]
    NoAccount,
    /// The account's chips are at another table.
    #[error(
        "your chips are still at the table {0:?}: get up there first (or wait for its round to end)"
    )]
    SeatedElsewhere(String),
    /// A reset asked at a table where the account does not sit.
    #[error("you are not seated here")]
    NotSeatedHere,
    /// A reset asked away from the tables while the account's chips are at one.
    #[error("your chips are at a table: reset there")]
    ChipsAtTable,
    /// A reset asked with chips left to play with.
    #[error("you still have chips to play with")]
    ChipsLeft,
    /// A reset asked within the hour of the last.
    #[error("a balance resets once an hour: again in {minutes} minutes")]
    ResetTooSoon {
        /// Minutes to wait, rounded up.
        minutes: i64,
    },
    /// The account's sessions have ended (logged out, or a new password) since this connection was welcomed.
    #[error("this session has ended (logged out, or the password was changed): log in again")]
    SessionEnded,
    /// Another account holds that seat in the ledger.
    #[error("seat {0} is taken")]
    SeatTaken(u8),
    /// A moderator's action asked by an account that does not moderate.
    #[error("only a moderator can do that")]
    NotModerator,
    /// A moderator's action on an account of the same role or higher.
    #[error("{0} is {1}: a moderator acts on players and guests, an admin on moderators too")]
    Outranked(String, &'static str),
    /// The row kept changing under a write that checks what it read: tried a few times, then given up.
    #[error("the ledger is busy with this account; try again")]
    Busy,
}

impl LedgerError {
    /// The ledger could not answer (the database, or the server's own work), as against a refusal of what was asked:
    /// the player hears that the ledger is down, the log hears why.
    pub fn is_outage(&self) -> bool {
        matches!(
            self,
            LedgerError::Database(_)
                | LedgerError::NotAnAddress(_)
                | LedgerError::NoDataFolder
                | LedgerError::Folder { .. }
                | LedgerError::Held(_)
                | LedgerError::Open { .. }
                | LedgerError::Migrate { .. }
                | LedgerError::Corrupt(_)
                | LedgerError::Hashing(_)
                | LedgerError::Busy
        )
    }
}

/// The migrations, oldest first.
fn migrator() -> Migrator {
    use sqlx::SqlSafeStr;
    Migrator::with_migrations(vec![
        Migration::new(
            1,
            "ledger".into(),
            MigrationType::Simple,
            include_str!("../../../migrations/0001_ledger.sql").into_sql_str(),
            false,
        ),
        Migration::new(
            2,
            "name look".into(),
            MigrationType::Simple,
            include_str!("../../../migrations/0002_name_look.sql").into_sql_str(),
            false,
        ),
        Migration::new(
            3,
            "cluster".into(),
            MigrationType::Simple,
            include_str!("../../../migrations/0003_cluster.sql").into_sql_str(),
            false,
        ),
        Migration::new(
            4,
            "held by the ledger".into(),
            MigrationType::Simple,
            include_str!("../../../migrations/0004_held_by_the_ledger.sql").into_sql_str(),
            false,
        ),
        Migration::new(
            5,
            "moderation".into(),
            MigrationType::Simple,
            include_str!("../../../migrations/0005_moderation.sql").into_sql_str(),
            false,
        ),
        Migration::new(
            6,
            "replays".into(),
            MigrationType::Simple,
            include_str!("../../../migrations/0006_replays.sql").into_sql_str(),
            false,
        ),
        Migration::new(
            7,
            "side bets".into(),
            MigrationType::Simple,
            include_str!("../../../migrations/0007_side_bets.sql").into_sql_str(),
            false,
        ),
    ])
}

/// The PostgreSQL channel on which servers sharing a ledger hear that an account's sessions have ended.
pub const SESSIONS_ENDED: &str = "holecard_sessions_ended";

/// The PostgreSQL channel on which servers sharing a ledger hear a moderator's action, to carry it out at their own
/// tables (a [`Moderated`] as JSON).
pub const MODERATED: &str = "holecard_moderated";

/// The default database: `holecard-server.sqlite` in the data folder.
pub fn default_database() -> Result<String, LedgerError> {
    let dir = crate::host::places::data_dir().ok_or(LedgerError::NoDataFolder)?;
    Ok(format!(
        "sqlite://{}",
        dir.join("holecard-server.sqlite").display()
    ))
}

/// An address without its password, for messages.
pub fn shown(url: &str) -> String {
    match (url.find("://"), url.find('@')) {
        (Some(scheme), Some(at)) if scheme < at => {
            let user = &url[scheme + 3..at];
            let user = user.split(':').next().unwrap_or_default();
            format!("{}{user}@{}", &url[..scheme + 3], &url[at + 1..])
        }
        _ => url.to_string(),
    }
}

impl Store {
    /// Opens (creating when needed) the database at `url` — `sqlite://PATH` or `postgres://…` — and brings its
    /// schema up to date.
    pub async fn open(url: &str) -> Result<Store, LedgerError> {
        Store::opened(url, Opened::Server).await
    }

    /// Opens the ledger at `url` to read it while a server may be keeping it (`--check-ledger`): no lock taken, no
    /// schema brought up to date, and a SQLite file opened read-only.
    pub async fn open_reader(url: &str) -> Result<Store, LedgerError> {
        Store::opened(url, Opened::Reader).await
    }

    /// Opens the ledger at `url` for a tool to write while a server may be keeping it (`--grant`): no lock taken
    /// (SQLite takes one writer at a time itself), the schema brought up to date.
    pub async fn open_tool(url: &str) -> Result<Store, LedgerError> {
        Store::opened(url, Opened::Tool).await
    }

    async fn opened(url: &str, opened: Opened) -> Result<Store, LedgerError> {
        let reader = opened == Opened::Reader;
        sqlx::any::install_default_drivers();
        let place = shown(url);
        let sqlite = url.starts_with("sqlite:");
        let mut lock = None;
        let url = if sqlite {
            let path = url
                .trim_start_matches("sqlite://")
                .trim_start_matches("sqlite:");
            let path = path.split('?').next().unwrap_or_default();
            if reader {
                format!("sqlite://{path}?mode=ro")
            } else {
                if let Some(dir) = std::path::Path::new(path).parent()
                    && !dir.as_os_str().is_empty()
                {
                    std::fs::create_dir_all(dir).map_err(|source| LedgerError::Folder {
                        folder: dir.to_path_buf(),
                        source,
                    })?;
                }
                if opened == Opened::Server {
                    lock = Some(std::sync::Arc::new(lock_sqlite(std::path::Path::new(
                        path,
                    ))?));
                }
                format!("sqlite://{path}?mode=rwc")
            }
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            url.to_string()
        } else {
            return Err(LedgerError::NotAnAddress(place));
        };
        // SQLite takes one writer at a time, and a second connection that wants to write waits in SQLite's busy
        // handler, which sleeps up to 100 ms a try while the machine is idle: one connection, with the pool as the
        // queue, serves every table in turn instead (a write here takes well under a millisecond).
        let connect = |most: u32| {
            let (url, place) = (url.clone(), place.clone());
            async move {
                AnyPoolOptions::new()
                    .max_connections(most)
                    .acquire_timeout(Duration::from_secs(10))
                    .connect(&url)
                    .await
                    .map_err(|source| LedgerError::Open { place, source })
            }
        };
        let pool = connect(if sqlite { 1 } else { 16 }).await?;
        if sqlite && !reader {
            // One writer and many readers at once; a committed transaction survives the process being killed.
            sqlx::query("PRAGMA journal_mode = WAL")
                .execute(&pool)
                .await
                .map_err(|source| LedgerError::Open {
                    place: place.clone(),
                    source,
                })?;
        }
        if !reader {
            let migrate = |source: Box<dyn std::error::Error + Send + Sync>| LedgerError::Migrate {
                place: place.clone(),
                source,
            };
            migrator()
                .run(&pool)
                .await
                .map_err(|e| migrate(Box::new(e)))?;
            names::refresh_looks(&pool)
                .await
                .map_err(|e| migrate(Box::new(e)))?;
        }
        let replays = if sqlite || opened != Opened::Server {
            pool.clone()
        } else {
            connect(1).await?
        };
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let hashing = std::sync::Arc::new(tokio::sync::Semaphore::new(cores));
        Ok(Store {
            pool,
            replays,
            place,
            hashing,
            _lock: lock,
            failures: Default::default(),
            origin: moderation::row_id()?,
        })
    }

    /// The ledger failed the server while `what`: the log hears why, and the failure is counted.
    pub fn failed(&self, what: &str, why: &dyn std::fmt::Display) {
        self.failures.inc();
        tracing::warn!("the ledger: {what}: {why}");
    }

    /// Times the ledger has failed the server since it opened, as the operator's figures count them (a handle on
    /// the same count).
    pub fn failures(&self) -> prometheus_client::metrics::counter::Counter {
        self.failures.clone()
    }

    /// The pool's connections to the database: open, and of them idle.
    pub fn pool_connections(&self) -> (u32, u32) {
        let idle = u32::try_from(self.pool.num_idle()).unwrap_or(u32::MAX);
        (self.pool.size(), idle)
    }

    /// A SQLite ledger copied whole, as one consistent moment of it, to a new file (SQLite's `VACUUM INTO`, which
    /// reads in one transaction: a server may be writing meanwhile). A PostgreSQL ledger is `pg_dump`'s to copy.
    pub async fn back_up_to(&self, file: &std::path::Path) -> Result<(), LedgerError> {
        if self.shared_by_servers() {
            return Err(LedgerError::Invalid(
                "a PostgreSQL ledger is backed up with pg_dump (see docs/engineering.md), not --backup-to"
                    .to_string(),
            ));
        }
        if file.exists() {
            return Err(LedgerError::Invalid(format!(
                "{} is there already: a backup goes to a new file",
                file.display()
            )));
        }
        let path = file.to_str().ok_or_else(|| {
            LedgerError::Invalid(format!("{}: not a path SQLite can take", file.display()))
        })?;
        sqlx::query("VACUUM INTO $1")
            .bind(path.to_string())
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// One query, answered: the ledger can be read now.
    pub async fn ping(&self) -> Result<(), LedgerError> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    /// Where the ledger is, for messages (no password).
    pub fn place(&self) -> &str {
        &self.place
    }

    /// Whether the ledger is PostgreSQL (where servers sharing it hear each other's logouts).
    pub fn shared_by_servers(&self) -> bool {
        self.place.starts_with("postgres")
    }

    /// Tells every server on this ledger that the account `key`'s sessions have ended (PostgreSQL's NOTIFY on the
    /// channel [`SESSIONS_ENDED`], sent when the transaction that ended them commits, and only then); nothing to tell
    /// on SQLite, which one server has to itself.
    async fn tell_sessions_ended(
        &self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        key: &str,
    ) -> Result<(), sqlx::Error> {
        self.tell_sessions_ended_saying(tx, key, None).await
    }

    /// The same, with what the account's connections are told as they close (a ban's words): the notification is
    /// the key, then a new line and the words (a key has no new line).
    async fn tell_sessions_ended_saying(
        &self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        key: &str,
        said: Option<&str>,
    ) -> Result<(), sqlx::Error> {
        if self.shared_by_servers() {
            let payload = match said {
                Some(said) => format!("{key}\n{said}"),
                None => key.to_string(),
            };
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(SESSIONS_ENDED)
                .bind(payload)
                .execute(&mut **tx)
                .await?;
        }
        Ok(())
    }
}

/// How a ledger is opened: by its server (a SQLite file locked to it), to read it, or for a tool to write beside a
/// server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Opened {
    Server,
    Reader,
    Tool,
}

/// Takes the lock on a SQLite ledger's lock file (`FILE.lock` beside it) for as long as the returned file is held:
/// one server keeps its ledger in a SQLite file at a time. The operating system lets go of it however the server
/// ends.
fn lock_sqlite(path: &std::path::Path) -> Result<std::fs::File, LedgerError> {
    let lock_path = PathBuf::from(format!("{}.lock", path.display()));
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(|source| LedgerError::Folder {
            folder: lock_path.clone(),
            source,
        })?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(LedgerError::Held(path.to_path_buf())),
        Err(std::fs::TryLockError::Error(source)) => Err(LedgerError::Folder {
            folder: lock_path,
            source,
        }),
    }
}

/// A change to an account's chips.
struct Entry<'a> {
    kind: &'static str,
    table: Option<&'a str>,
    round: Option<u64>,
    amount: Cents,
    insurance: Cents,
    /// What the round's side bets gained (negative: lost).
    side_bets: Cents,
    chips_after: Cents,
}

/// Adds an entry to an account's ledger, numbered after its last.
async fn add_entry(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    key: &str,
    entry: Entry<'_>,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO ledger (name_key, entry, kind, table_id, round, amount, insurance, side_bets, chips_after, \
         at_ms) SELECT $1, COALESCE(MAX(entry), 0) + 1, $2, $3, $4, $5, $6, $7, $8, $9 FROM ledger WHERE name_key = $1",
    )
    .bind(key)
    .bind(entry.kind)
    .bind(entry.table.map(str::to_string))
    .bind(entry.round.map(|r| r as i64))
    .bind(entry.amount.0)
    .bind(entry.insurance.0)
    .bind(entry.side_bets.0)
    .bind(entry.chips_after.0)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}
