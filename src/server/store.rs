//! The server's ledger in a database: SQLite by default (a file in the data folder), PostgreSQL when given a
//! `postgres://` address, both through one `sqlx` pool and one set of migrations (`migrations/`).
//!
//! Chips move only in transactions: an account's starting stake, a round settled at a table (every hand's record,
//! every bankroll change and highscore, the house's side, all at once, keyed by table and round so that settling it
//! twice does nothing), a reset. An account's chips are the sum of its ledger entries; `check` proves it, with every
//! other sum the ledger keeps.

use super::protocol::Listing;
use crate::engine::Cents;
use crate::host::record::{RoundRecord, cards_text, decisions_text};
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use serde::Serialize;
use sha2::{Digest, Sha256};
use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::migrate::{Migration, MigrationType, Migrator};
use sqlx::{AnyPool, Row};
use std::time::Duration;

pub use crate::host::history::now_ms;

/// How long a login lasts.
pub const SESSION_DAYS: u64 = 30;

/// The shortest password.
pub const MIN_PASSWORD_CHARS: usize = 8;

/// The longest password read (Argon2 takes any length; this bounds the work one request can ask for).
pub const MAX_PASSWORD_CHARS: usize = 128;

/// How often an account may reset its bankroll.
pub const RESET_EVERY: Duration = Duration::from_secs(3_600);

/// The ledger.
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
    /// Argon2 hashes at once: each takes 19 MiB and a core for tens of milliseconds, so a crowd registering at
    /// once waits its turn instead of taking the machine's memory.
    hashing: std::sync::Arc<tokio::sync::Semaphore>,
    /// Where it is, for messages (a PostgreSQL address without its password).
    place: String,
}

/// Why an account could not be made, logged into or used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AccountError {
    /// The name or password does not do (the message says why).
    Invalid(String),
    /// The name is taken.
    Taken,
    /// The name looks too much like this account's.
    LooksLike(String),
    /// No such name, or the wrong password (not told apart).
    WrongLogin,
    /// The database failed.
    Database(String),
}

impl std::fmt::Display for AccountError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AccountError::Invalid(why) => f.write_str(why),
            AccountError::Taken => f.write_str("that name is taken"),
            AccountError::LooksLike(other) => write!(
                f,
                "that name looks too much like the account {other}'s: choose another"
            ),
            AccountError::WrongLogin => f.write_str("no account has that name and password"),
            AccountError::Database(why) => write!(f, "the ledger failed: {why}"),
        }
    }
}

/// An account as the server holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Account {
    /// Its name as the player wrote it.
    pub name: String,
    /// The name in lower case: the account's key.
    #[serde(skip)]
    pub key: String,
    /// Its bankroll.
    pub chips: Cents,
    /// The most chips it ever held.
    pub highscore: Cents,
}

pub use crate::protocol::{PlayedHand, Standing};

/// Who played a settled round at a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Player {
    /// An account, by key, with its chips at the table after the round.
    Account {
        /// The account's key.
        key: String,
        /// Its chips after the round, as the table has them (the ledger must agree).
        chips_after: Cents,
    },
    /// A guest (their chips are not kept).
    Guest,
    /// One of the table's companions.
    Companion,
}

/// A round to settle: the record of its hands, who sat where, and the house's side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settlement {
    /// The table.
    pub table: String,
    /// Its rules' shorthand.
    pub rules: String,
    /// The round, over the table's whole life.
    pub round: u64,
    /// What happened.
    pub record: RoundRecord,
    /// Who played each seat that played.
    pub players: Vec<(crate::engine::SeatId, Player)>,
    /// What the house gained.
    pub house_net: Cents,
}

/// What a restart found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Recovery {
    /// Rounds dealt and never settled (table, round): their bets were never taken, so they are refunded.
    pub refunded: Vec<(String, u64)>,
    /// Accounts that were seated when the server stopped with no chips, or where their seat is not known: they are up,
    /// their chips their bankroll again.
    pub unseated: u64,
    /// Accounts that were seated with chips when the server stopped, by table: their seats wait for them to come back.
    pub seated: Vec<(String, Reseat)>,
}

/// An account seated at a table when its server stopped: the table seats it again and holds the seat for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reseat {
    pub key: String,
    pub name: String,
    pub chips: Cents,
    pub seat: u8,
}

/// What the ledger check found.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct LedgerReport {
    /// Accounts.
    pub accounts: u64,
    /// Chips the accounts hold.
    pub chips: Cents,
    /// Ledger entries.
    pub entries: u64,
    /// Rounds settled.
    pub rounds: u64,
    /// Hands recorded.
    pub hands: u64,
    /// Every sum that did not hold, in words; empty when the ledger balances.
    pub problems: Vec<String>,
}

impl LedgerReport {
    /// Every sum held.
    pub fn balanced(&self) -> bool {
        self.problems.is_empty()
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
            include_str!("../../migrations/0001_ledger.sql").into_sql_str(),
            false,
        ),
        Migration::new(
            2,
            "name look".into(),
            MigrationType::Simple,
            include_str!("../../migrations/0002_name_look.sql").into_sql_str(),
            false,
        ),
        Migration::new(
            3,
            "cluster".into(),
            MigrationType::Simple,
            include_str!("../../migrations/0003_cluster.sql").into_sql_str(),
            false,
        ),
    ])
}

/// The PostgreSQL channel on which servers sharing a ledger hear that an account's sessions have ended.
pub const SESSIONS_ENDED: &str = "holecard_sessions_ended";

/// What a name looks like, for telling names apart: its confusable skeleton (Unicode TR39), case folded, and the
/// skeleton again (so a capital I and a small l, a Cyrillic А and a Latin A, "rn" and "m" are all the same). Two
/// names that look alike cannot be played under at once, nor both be accounts.
pub fn look_of(name: &str) -> String {
    let first: String = unicode_security::skeleton(name.trim()).collect();
    unicode_security::skeleton(&first.to_lowercase()).collect()
}

fn db(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// The default database: `holecard-server.sqlite` in the data folder.
pub fn default_database() -> Result<String, String> {
    let dir = crate::host::places::data_dir()
        .ok_or("no data folder: set HOLECARD_DATA_DIR or pass --database")?;
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
    pub async fn open(url: &str) -> Result<Store, String> {
        sqlx::any::install_default_drivers();
        let place = shown(url);
        let sqlite = url.starts_with("sqlite:");
        let url = if sqlite {
            let path = url
                .trim_start_matches("sqlite://")
                .trim_start_matches("sqlite:");
            let path = path.split('?').next().unwrap_or_default();
            if let Some(dir) = std::path::Path::new(path).parent()
                && !dir.as_os_str().is_empty()
            {
                std::fs::create_dir_all(dir)
                    .map_err(|e| format!("cannot make the folder {}: {e}", dir.display()))?;
            }
            format!("sqlite://{path}?mode=rwc")
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            url.to_string()
        } else {
            return Err(format!(
                "{place}: a database is sqlite://PATH or postgres://USER@HOST/NAME"
            ));
        };
        // SQLite takes one writer at a time, and a second connection that wants to write waits in SQLite's busy
        // handler, which sleeps up to 100 ms a try while the machine is idle: one connection, with the pool as the
        // queue, serves every table in turn instead (a write here takes well under a millisecond).
        let pool = AnyPoolOptions::new()
            .max_connections(if sqlite { 1 } else { 16 })
            .acquire_timeout(Duration::from_secs(10))
            .connect(&url)
            .await
            .map_err(|e| format!("opening the database {place}: {e}"))?;
        if sqlite {
            // One writer and many readers at once; a committed transaction survives the process being killed.
            sqlx::query("PRAGMA journal_mode = WAL")
                .execute(&pool)
                .await
                .map_err(|e| format!("{place}: {e}"))?;
        }
        migrator()
            .run(&pool)
            .await
            .map_err(|e| format!("bringing the database {place} up to date: {e}"))?;
        fill_name_looks(&pool)
            .await
            .map_err(|e| format!("bringing the database {place} up to date: {e}"))?;
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let hashing = std::sync::Arc::new(tokio::sync::Semaphore::new(cores));
        Ok(Store {
            pool,
            place,
            hashing,
        })
    }

    /// Where the ledger is, for messages (no password).
    pub fn place(&self) -> &str {
        &self.place
    }

    /// After a start, for the tables this server opens (other servers sharing the ledger keep theirs): their rounds
    /// left unsettled are refunded — their bets were never taken, so the accounts already hold them — and the
    /// accounts seated at them with chips are returned to be seated again in their seats (the others are up).
    pub async fn recover(&self, tables: &[String]) -> Result<Recovery, String> {
        let mut recovery = Recovery::default();
        let mut tx = self.pool.begin().await.map_err(db)?;
        for table in tables {
            let open =
                sqlx::query("SELECT round FROM open_rounds WHERE table_id = $1 ORDER BY round")
                    .bind(table)
                    .fetch_all(&mut *tx)
                    .await
                    .map_err(db)?;
            for row in open {
                let round: i64 = row.try_get(0).map_err(db)?;
                recovery.refunded.push((table.clone(), round as u64));
            }
            sqlx::query("DELETE FROM open_rounds WHERE table_id = $1")
                .bind(table)
                .execute(&mut *tx)
                .await
                .map_err(db)?;
            let seated = sqlx::query(
                "SELECT name_key, name, chips, seat FROM accounts WHERE seated_at = $1 AND seat IS NOT NULL \
                 AND chips > 0",
            )
            .bind(table)
            .fetch_all(&mut *tx)
            .await
            .map_err(db)?;
            for row in seated {
                let seat: i64 = row.try_get(3).map_err(db)?;
                let reseat = Reseat {
                    key: row.try_get(0).map_err(db)?,
                    name: row.try_get(1).map_err(db)?,
                    chips: Cents(row.try_get(2).map_err(db)?),
                    seat: u8::try_from(seat).map_err(db)?,
                };
                recovery.seated.push((table.clone(), reseat));
            }
            recovery.unseated += sqlx::query(
                "UPDATE accounts SET seated_at = NULL, seat = NULL WHERE seated_at = $1 AND (seat IS NULL OR chips <= 0)",
            )
            .bind(table)
            .execute(&mut *tx)
            .await
            .map_err(db)?
            .rows_affected();
        }
        sqlx::query("DELETE FROM sessions WHERE expires_ms < $1")
            .bind(now_ms())
            .execute(&mut *tx)
            .await
            .map_err(db)?;
        tx.commit().await.map_err(db)?;
        Ok(recovery)
    }

    /// Makes an account with `stake` in chips, and logs it in: its session token.
    pub async fn register(
        &self,
        name: &str,
        password: &str,
        stake: Cents,
    ) -> Result<(Account, String), AccountError> {
        let name = super::protocol::check_name(name).map_err(AccountError::Invalid)?;
        check_password(password)?;
        let hash = self.hash_password(password).await?;
        let key = name.to_lowercase();
        let now = now_ms();
        let dberr = |e: sqlx::Error| AccountError::Database(e.to_string());
        let mut tx = self.pool.begin().await.map_err(dberr)?;
        let look = look_of(&name);
        let alike =
            sqlx::query("SELECT name FROM accounts WHERE name_look = $1 AND name_key <> $2")
                .bind(&look)
                .bind(&key)
                .fetch_optional(&mut *tx)
                .await
                .map_err(dberr)?;
        if let Some(row) = alike {
            let other: String = row.try_get(0).map_err(dberr)?;
            return Err(AccountError::LooksLike(other));
        }
        let made = sqlx::query(
            "INSERT INTO accounts (name_key, name, password_hash, chips, highscore, created_ms, name_look) \
             VALUES ($1, $2, $3, $4, $4, $5, $6) ON CONFLICT (name_key) DO NOTHING",
        )
        .bind(&key)
        .bind(&name)
        .bind(&hash)
        .bind(stake.0)
        .bind(now)
        .bind(&look)
        .execute(&mut *tx)
        .await
        .map_err(dberr)?;
        if made.rows_affected() == 0 {
            return Err(AccountError::Taken);
        }
        sqlx::query(
            "INSERT INTO ledger (name_key, entry, kind, amount, insurance, chips_after, at_ms) \
             VALUES ($1, 1, 'stake', $2, 0, $2, $3)",
        )
        .bind(&key)
        .bind(stake.0)
        .bind(now)
        .execute(&mut *tx)
        .await
        .map_err(dberr)?;
        let token = new_session(&mut tx, &key).await.map_err(dberr)?;
        tx.commit().await.map_err(dberr)?;
        let account = Account {
            name,
            key,
            chips: stake,
            highscore: stake,
        };
        Ok((account, token))
    }

    /// Logs in: the account and a new session token.
    pub async fn log_in(
        &self,
        name: &str,
        password: &str,
    ) -> Result<(Account, String), AccountError> {
        let dberr = |e: sqlx::Error| AccountError::Database(e.to_string());
        if password.chars().count() > MAX_PASSWORD_CHARS {
            return Err(AccountError::WrongLogin);
        }
        // No account has a name that does not do (nor does the ledger see it: PostgreSQL refuses a NUL outright).
        if super::protocol::check_name(name).is_err() {
            let _ = self.hash_password(password).await;
            return Err(AccountError::WrongLogin);
        }
        let key = name.trim().to_lowercase();
        let row = sqlx::query("SELECT password_hash FROM accounts WHERE name_key = $1")
            .bind(&key)
            .fetch_optional(&self.pool)
            .await
            .map_err(dberr)?;
        let Some(row) = row else {
            // As long as a wrong password takes, so a stranger cannot tell which names exist.
            let _ = self.hash_password(password).await;
            return Err(AccountError::WrongLogin);
        };
        let hash: String = row.try_get(0).map_err(dberr)?;
        self.verify_password(password, hash).await?;
        let mut tx = self.pool.begin().await.map_err(dberr)?;
        let token = new_session(&mut tx, &key).await.map_err(dberr)?;
        tx.commit().await.map_err(dberr)?;
        let account = self
            .account(&key)
            .await
            .map_err(AccountError::Database)?
            .ok_or(AccountError::WrongLogin)?;
        Ok((account, token))
    }

    /// The account a session token belongs to, if it is current.
    pub async fn session(&self, token: &str) -> Result<Option<Account>, String> {
        let row =
            sqlx::query("SELECT name_key FROM sessions WHERE token_hash = $1 AND expires_ms >= $2")
                .bind(token_hash(token))
                .bind(now_ms())
                .fetch_optional(&self.pool)
                .await
                .map_err(db)?;
        match row {
            Some(row) => {
                self.account(&row.try_get::<String, _>(0).map_err(db)?)
                    .await
            }
            None => Ok(None),
        }
    }

    /// Ends every session of the account this token is a session of (logging out on one device logs out on all):
    /// the account's key, or none when the token was not a session.
    pub async fn log_out(&self, token: &str) -> Result<Option<String>, String> {
        let mut tx = self.pool.begin().await.map_err(db)?;
        let row = sqlx::query("SELECT name_key FROM sessions WHERE token_hash = $1")
            .bind(token_hash(token))
            .fetch_optional(&mut *tx)
            .await
            .map_err(db)?;
        let Some(row) = row else {
            return Ok(None);
        };
        let key: String = row.try_get(0).map_err(db)?;
        sqlx::query("DELETE FROM sessions WHERE name_key = $1")
            .bind(&key)
            .execute(&mut *tx)
            .await
            .map_err(db)?;
        self.tell_sessions_ended(&mut tx, &key).await.map_err(db)?;
        tx.commit().await.map_err(db)?;
        Ok(Some(key))
    }

    /// Changes the password of account `key` when `old` is its password: every session of the account ends, and
    /// the one changing it gets a new one (the account and its token).
    pub async fn change_password(
        &self,
        key: &str,
        old: &str,
        new: &str,
    ) -> Result<(Account, String), AccountError> {
        let dberr = |e: sqlx::Error| AccountError::Database(e.to_string());
        check_password(new)?;
        if old.chars().count() > MAX_PASSWORD_CHARS {
            return Err(AccountError::WrongLogin);
        }
        let row = sqlx::query("SELECT password_hash FROM accounts WHERE name_key = $1")
            .bind(key)
            .fetch_optional(&self.pool)
            .await
            .map_err(dberr)?
            .ok_or(AccountError::WrongLogin)?;
        let hash: String = row.try_get(0).map_err(dberr)?;
        self.verify_password(old, hash).await?;
        let hash = self.hash_password(new).await?;
        let mut tx = self.pool.begin().await.map_err(dberr)?;
        sqlx::query("UPDATE accounts SET password_hash = $1 WHERE name_key = $2")
            .bind(&hash)
            .bind(key)
            .execute(&mut *tx)
            .await
            .map_err(dberr)?;
        sqlx::query("DELETE FROM sessions WHERE name_key = $1")
            .bind(key)
            .execute(&mut *tx)
            .await
            .map_err(dberr)?;
        self.tell_sessions_ended(&mut tx, key)
            .await
            .map_err(dberr)?;
        let token = new_session(&mut tx, key).await.map_err(dberr)?;
        tx.commit().await.map_err(dberr)?;
        let account = self
            .account(key)
            .await
            .map_err(AccountError::Database)?
            .ok_or(AccountError::WrongLogin)?;
        Ok((account, token))
    }

    /// Puts a table's line in the shared lobby: its listing, the path its server's WebSocket is reached at, and now.
    pub async fn publish(&self, listing: &Listing, route: &str) -> Result<(), String> {
        let text = serde_json::to_string(listing).map_err(db)?;
        sqlx::query(
            "INSERT INTO lobby (table_id, listing, route, seen_ms) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (table_id) DO UPDATE SET listing = $2, route = $3, seen_ms = $4",
        )
        .bind(&listing.id)
        .bind(&text)
        .bind(route)
        .bind(now_ms())
        .execute(&self.pool)
        .await
        .map_err(db)?;
        Ok(())
    }

    /// The shared lobby's lines of other servers (not reached at `route`) seen within `fresh`, each with its route.
    pub async fn lobby(&self, route: &str, fresh: Duration) -> Result<Vec<Listing>, String> {
        let since = now_ms() - fresh.as_millis() as i64;
        let rows = sqlx::query(
            "SELECT listing, route FROM lobby WHERE route <> $1 AND seen_ms >= $2 ORDER BY table_id",
        )
        .bind(route)
        .bind(since)
        .fetch_all(&self.pool)
        .await
        .map_err(db)?;
        let mut listings = Vec::with_capacity(rows.len());
        for row in rows {
            let text: String = row.try_get(0).map_err(db)?;
            let mut listing: Listing = serde_json::from_str(&text).map_err(db)?;
            listing.ws = Some(row.try_get(1).map_err(db)?);
            listings.push(listing);
        }
        Ok(listings)
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
        if self.shared_by_servers() {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(SESSIONS_ENDED)
                .bind(key)
                .execute(&mut **tx)
                .await?;
        }
        Ok(())
    }

    /// An account by key.
    pub async fn account(&self, key: &str) -> Result<Option<Account>, String> {
        let row = sqlx::query(
            "SELECT name, name_key, chips, highscore FROM accounts WHERE name_key = $1",
        )
        .bind(key)
        .fetch_optional(&self.pool)
        .await
        .map_err(db)?;
        row.map(|row| account_of(&row)).transpose().map_err(db)
    }

    /// The name of an account whose name looks like this one (in any case, or with look-alike letters), if any.
    pub async fn name_taken(&self, name: &str) -> Result<Option<String>, String> {
        let row = sqlx::query("SELECT name FROM accounts WHERE name_key = $1 OR name_look = $2")
            .bind(name.trim().to_lowercase())
            .bind(look_of(name))
            .fetch_optional(&self.pool)
            .await
            .map_err(db)?;
        row.map(|row| row.try_get(0)).transpose().map_err(db)
    }

    /// Seats an account at `table`: its chips go in front of it there. None when it is seated at another table
    /// (then the answer names it).
    pub async fn claim_seat(
        &self,
        key: &str,
        table: &str,
        seat: u8,
    ) -> Result<Result<Cents, String>, String> {
        let claimed = sqlx::query(
            "UPDATE accounts SET seated_at = $2, seat = $3 WHERE name_key = $1 AND seated_at IS NULL RETURNING chips",
        )
        .bind(key)
        .bind(table)
        .bind(i64::from(seat))
        .fetch_optional(&self.pool)
        .await
        .map_err(db)?;
        if let Some(row) = claimed {
            return Ok(Ok(Cents(row.try_get::<i64, _>(0).map_err(db)?)));
        }
        let row = sqlx::query("SELECT seated_at FROM accounts WHERE name_key = $1")
            .bind(key)
            .fetch_optional(&self.pool)
            .await
            .map_err(db)?;
        let at: Option<String> = match row {
            Some(row) => row.try_get(0).map_err(db)?,
            None => return Ok(Err("no such account".to_string())),
        };
        Ok(Err(format!(
            "your chips are still at the table {:?}: get up there first (or wait for its round to end)",
            at.unwrap_or_default()
        )))
    }

    /// The account is up from `table`: its chips are its bankroll again.
    pub async fn leave_seat(&self, key: &str, table: &str) -> Result<(), String> {
        sqlx::query(
            "UPDATE accounts SET seated_at = NULL, seat = NULL WHERE name_key = $1 AND seated_at = $2",
        )
            .bind(key)
            .bind(table)
            .execute(&self.pool)
            .await
            .map_err(db)?;
        Ok(())
    }

    /// A table's house and the number of rounds it settled before, made on its first opening.
    pub async fn house(&self, table: &str, start: Cents) -> Result<(Cents, u64), String> {
        sqlx::query(
            "INSERT INTO houses (table_id, house_start, house_chips, last_round) VALUES ($1, $2, $2, 0) \
             ON CONFLICT (table_id) DO NOTHING",
        )
        .bind(table)
        .bind(start.0)
        .execute(&self.pool)
        .await
        .map_err(db)?;
        let row = sqlx::query("SELECT house_chips, last_round FROM houses WHERE table_id = $1")
            .bind(table)
            .fetch_one(&self.pool)
            .await
            .map_err(db)?;
        let chips: i64 = row.try_get(0).map_err(db)?;
        let last: i64 = row.try_get(1).map_err(db)?;
        Ok((Cents(chips), last as u64))
    }

    /// A round was dealt: until it settles, a restart refunds it.
    pub async fn round_dealt(&self, table: &str, round: u64) -> Result<(), String> {
        sqlx::query(
            "INSERT INTO open_rounds (table_id, round, started_ms) VALUES ($1, $2, $3) \
             ON CONFLICT (table_id, round) DO NOTHING",
        )
        .bind(table)
        .bind(round as i64)
        .bind(now_ms())
        .execute(&self.pool)
        .await
        .map_err(db)?;
        Ok(())
    }

    /// Settles a round in one transaction: false when it was settled before (and nothing changed).
    pub async fn settle(&self, settlement: &Settlement) -> Result<bool, String> {
        let s = settlement;
        let now = now_ms();
        let mut nets = [0i64; 3];
        for (seat, player) in &s.players {
            let net = s.record.seat(*seat).map_or(Cents(0), |r| r.net()).0;
            match player {
                Player::Account { .. } => nets[0] += net,
                Player::Guest => nets[1] += net,
                Player::Companion => nets[2] += net,
            }
        }
        let dealer = cards_text(&s.record.dealer);
        let mut tx = self.pool.begin().await.map_err(db)?;
        let fresh = sqlx::query(
            "INSERT INTO rounds (table_id, round, accounts_net, guests_net, companions_net, house_net, dealer, \
             settled_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (table_id, round) DO NOTHING",
        )
        .bind(&s.table)
        .bind(s.round as i64)
        .bind(nets[0])
        .bind(nets[1])
        .bind(nets[2])
        .bind(s.house_net.0)
        .bind(&dealer)
        .bind(now)
        .execute(&mut *tx)
        .await
        .map_err(db)?;
        if fresh.rows_affected() == 0 {
            return Ok(false);
        }
        for (seat, player) in &s.players {
            let Player::Account { key, chips_after } = player else {
                continue;
            };
            let Some(record) = s.record.seat(*seat) else {
                continue;
            };
            let net = record.net();
            let row = sqlx::query(
                "UPDATE accounts SET chips = chips + $2, \
                 highscore = CASE WHEN chips + $2 > highscore THEN chips + $2 ELSE highscore END \
                 WHERE name_key = $1 RETURNING chips",
            )
            .bind(key)
            .bind(net.0)
            .fetch_one(&mut *tx)
            .await
            .map_err(db)?;
            let chips = Cents(row.try_get::<i64, _>(0).map_err(db)?);
            if chips != *chips_after {
                // The table and the ledger disagree: nothing of this round is written, and the log says so.
                return Err(format!(
                    "{} round {}: {key} would hold {chips} in the ledger but {chips_after} at the table",
                    s.table, s.round
                ));
            }
            let entry = Entry {
                kind: "round",
                table: Some(&s.table),
                round: Some(s.round),
                amount: net,
                insurance: record.insurance,
                chips_after: chips,
            };
            add_entry(&mut tx, key, entry, now).await.map_err(db)?;
            for (i, hand) in record.hands.iter().enumerate() {
                sqlx::query(
                    "INSERT INTO hands (name_key, table_id, round, seat, hand, rules, cards, decisions, dealer, \
                     outcome, wager, net, bankroll_after, played_ms) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
                )
                .bind(key)
                .bind(&s.table)
                .bind(s.round as i64)
                .bind(i64::from(*seat))
                .bind(i as i64)
                .bind(&s.rules)
                .bind(cards_text(&hand.cards))
                .bind(decisions_text(&hand.decisions))
                .bind(&dealer)
                .bind(hand.outcome.map_or("unsettled", |o| o.label()))
                .bind(hand.wager.0)
                .bind(hand.net.0)
                .bind(chips.0)
                .bind(now)
                .execute(&mut *tx)
                .await
                .map_err(db)?;
            }
        }
        sqlx::query(
            "UPDATE houses SET house_chips = house_chips + $2, \
             last_round = CASE WHEN $3 > last_round THEN $3 ELSE last_round END WHERE table_id = $1",
        )
        .bind(&s.table)
        .bind(s.house_net.0)
        .bind(s.round as i64)
        .execute(&mut *tx)
        .await
        .map_err(db)?;
        sqlx::query("DELETE FROM open_rounds WHERE table_id = $1 AND round = $2")
            .bind(&s.table)
            .bind(s.round as i64)
            .execute(&mut *tx)
            .await
            .map_err(db)?;
        tx.commit().await.map_err(db)?;
        Ok(true)
    }

    /// Resets an out-of-chips account to `stake`, at most once an hour: the chips it gets, or why not. `table` is
    /// where it sits (the table then adds the chips to its seat), or none when it is not seated anywhere.
    pub async fn reset(
        &self,
        key: &str,
        table: Option<&str>,
        stake: Cents,
    ) -> Result<Result<Cents, String>, String> {
        let now = now_ms();
        let since = now - RESET_EVERY.as_millis() as i64;
        let mut tx = self.pool.begin().await.map_err(db)?;
        let row = sqlx::query(
            "SELECT chips, last_reset_ms FROM accounts WHERE name_key = $1 \
             AND ((seated_at IS NULL AND $2 = '') OR seated_at = $2)",
        )
        .bind(key)
        .bind(table.unwrap_or_default())
        .fetch_optional(&mut *tx)
        .await
        .map_err(db)?;
        let Some(row) = row else {
            return Ok(Err(match table {
                Some(_) => "you are not seated here".to_string(),
                None => "your chips are at a table: reset there".to_string(),
            }));
        };
        let chips = Cents(row.try_get::<i64, _>(0).map_err(db)?);
        let last: Option<i64> = row.try_get(1).map_err(db)?;
        if let Some(last) = last.filter(|last| *last > since) {
            let minutes = (last - since).div_euclid(60_000) + 1;
            return Ok(Err(format!(
                "a balance resets once an hour: again in {minutes} minutes"
            )));
        }
        let amount = stake - chips;
        if !amount.is_positive() {
            return Ok(Err("you still have chips to play with".to_string()));
        }
        sqlx::query(
            "UPDATE accounts SET chips = $2, last_reset_ms = $3, \
             highscore = CASE WHEN $2 > highscore THEN $2 ELSE highscore END WHERE name_key = $1",
        )
        .bind(key)
        .bind(stake.0)
        .bind(now)
        .execute(&mut *tx)
        .await
        .map_err(db)?;
        let entry = Entry {
            kind: "reset",
            table,
            round: None,
            amount,
            insurance: Cents(0),
            chips_after: stake,
        };
        add_entry(&mut tx, key, entry, now).await.map_err(db)?;
        tx.commit().await.map_err(db)?;
        Ok(Ok(amount))
    }

    /// The best `n` all-time highscores.
    pub async fn leaderboard(&self, n: u32) -> Result<Vec<Standing>, String> {
        let rows = sqlx::query(
            "SELECT name, highscore, chips FROM accounts ORDER BY highscore DESC, name_key LIMIT $1",
        )
        .bind(i64::from(n))
        .fetch_all(&self.pool)
        .await
        .map_err(db)?;
        rows.iter()
            .map(|row| {
                Ok(Standing {
                    name: row.try_get(0)?,
                    highscore: Cents(row.try_get(1)?),
                    chips: Cents(row.try_get(2)?),
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(db)
    }

    /// An account's last `n` hands, newest first.
    pub async fn history(&self, key: &str, n: u32) -> Result<Vec<PlayedHand>, String> {
        let rows = sqlx::query(
            "SELECT table_id, rules, round, seat, hand, cards, decisions, dealer, outcome, wager, net, \
             bankroll_after, played_ms FROM hands WHERE name_key = $1 \
             ORDER BY played_ms DESC, table_id, round DESC, seat, hand DESC LIMIT $2",
        )
        .bind(key)
        .bind(i64::from(n))
        .fetch_all(&self.pool)
        .await
        .map_err(db)?;
        rows.iter()
            .map(|row| {
                Ok(PlayedHand {
                    table: row.try_get(0)?,
                    rules: row.try_get(1)?,
                    round: row.try_get::<i64, _>(2)? as u64,
                    seat: row.try_get::<i64, _>(3)? as u8,
                    hand: row.try_get::<i64, _>(4)? as u8,
                    cards: row.try_get(5)?,
                    decisions: row.try_get(6)?,
                    dealer: row.try_get(7)?,
                    outcome: row.try_get(8)?,
                    wager: Cents(row.try_get(9)?),
                    net: Cents(row.try_get(10)?),
                    bankroll: Cents(row.try_get(11)?),
                    at_ms: row.try_get(12)?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(db)
    }

    /// Proves the ledger's sums: every account's chips are its entries' sum and its highscore at least its chips;
    /// every round's nets sum to zero and its accounts' entries to its accounts' net; every entry of a round is its
    /// hands and insurance; every house holds what it started with and what its rounds brought.
    pub async fn check(&self) -> Result<LedgerReport, String> {
        let mut report = LedgerReport::default();
        let count = |sql: &'static str| async move {
            let row = sqlx::query(sql).fetch_one(&self.pool).await.map_err(db)?;
            row.try_get::<i64, _>(0).map_err(db)
        };
        report.accounts = count("SELECT COUNT(*) FROM accounts").await? as u64;
        report.entries = count("SELECT COUNT(*) FROM ledger").await? as u64;
        report.rounds = count("SELECT COUNT(*) FROM rounds").await? as u64;
        report.hands = count("SELECT COUNT(*) FROM hands").await? as u64;
        report.chips =
            Cents(count("SELECT CAST(COALESCE(SUM(chips), 0) AS BIGINT) FROM accounts").await?);
        let checks: [(&'static str, &'static str); 6] = [
            (
                "SELECT a.name, a.chips, CAST(COALESCE(SUM(l.amount), 0) AS BIGINT) FROM accounts a \
                 LEFT JOIN ledger l ON l.name_key = a.name_key GROUP BY a.name_key, a.name, a.chips \
                 HAVING a.chips <> CAST(COALESCE(SUM(l.amount), 0) AS BIGINT)",
                "account {0} holds {1} but its ledger entries sum to {2}",
            ),
            (
                "SELECT name, highscore, chips FROM accounts WHERE highscore < chips",
                "account {0} has a highscore of {1} below its {2} in chips",
            ),
            (
                "SELECT table_id, round, accounts_net + guests_net + companions_net + house_net FROM rounds \
                 WHERE accounts_net + guests_net + companions_net + house_net <> 0",
                "table {0} round {1}: the nets sum to {2}, not 0",
            ),
            (
                "SELECT r.table_id, r.round, r.accounts_net - CAST(COALESCE(SUM(l.amount), 0) AS BIGINT) \
                 FROM rounds r LEFT JOIN ledger l ON l.table_id = r.table_id AND l.round = r.round \
                 AND l.kind = 'round' GROUP BY r.table_id, r.round, r.accounts_net \
                 HAVING r.accounts_net <> CAST(COALESCE(SUM(l.amount), 0) AS BIGINT)",
                "table {0} round {1}: the accounts' net and their ledger entries differ by {2}",
            ),
            (
                "SELECT l.table_id, l.round, l.name_key FROM ledger l WHERE l.kind = 'round' AND l.amount <> \
                 l.insurance + (SELECT CAST(COALESCE(SUM(h.net), 0) AS BIGINT) FROM hands h \
                 WHERE h.table_id = l.table_id AND h.round = l.round AND h.name_key = l.name_key)",
                "table {0} round {1}: {2}'s entry is not its hands and insurance",
            ),
            (
                "SELECT h.table_id, h.house_chips, h.house_start + CAST(COALESCE(SUM(r.house_net), 0) AS BIGINT) \
                 FROM houses h LEFT JOIN rounds r ON r.table_id = h.table_id \
                 GROUP BY h.table_id, h.house_chips, h.house_start \
                 HAVING h.house_chips <> h.house_start + CAST(COALESCE(SUM(r.house_net), 0) AS BIGINT)",
                "the house of table {0} holds {1} but its start and rounds make {2}",
            ),
        ];
        for (sql, says) in checks {
            for row in sqlx::query(sql).fetch_all(&self.pool).await.map_err(db)? {
                report.problems.push(fill(says, &row));
            }
        }
        Ok(report)
    }
}

/// `says` with `{i}` replaced by column i of `row` (text or number).
fn fill(says: &str, row: &AnyRow) -> String {
    let mut text = says.to_string();
    for i in 0..3 {
        let value = row
            .try_get::<String, _>(i)
            .or_else(|_| row.try_get::<i64, _>(i).map(|n| n.to_string()))
            .unwrap_or_default();
        text = text.replace(&format!("{{{i}}}"), &value);
    }
    text
}

fn account_of(row: &AnyRow) -> Result<Account, sqlx::Error> {
    Ok(Account {
        name: row.try_get(0)?,
        key: row.try_get(1)?,
        chips: Cents(row.try_get(2)?),
        highscore: Cents(row.try_get(3)?),
    })
}

/// A change to an account's chips.
struct Entry<'a> {
    kind: &'static str,
    table: Option<&'a str>,
    round: Option<u64>,
    amount: Cents,
    insurance: Cents,
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
        "INSERT INTO ledger (name_key, entry, kind, table_id, round, amount, insurance, chips_after, at_ms) \
         SELECT $1, COALESCE(MAX(entry), 0) + 1, $2, $3, $4, $5, $6, $7, $8 FROM ledger WHERE name_key = $1",
    )
    .bind(key)
    .bind(entry.kind)
    .bind(entry.table.map(str::to_string))
    .bind(entry.round.map(|r| r as i64))
    .bind(entry.amount.0)
    .bind(entry.insurance.0)
    .bind(entry.chips_after.0)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Gives each account made before names' looks were kept its look.
async fn fill_name_looks(pool: &sqlx::AnyPool) -> Result<(), sqlx::Error> {
    let rows = sqlx::query("SELECT name_key, name FROM accounts WHERE name_look IS NULL")
        .fetch_all(pool)
        .await?;
    for row in rows {
        let (key, name): (String, String) = (row.try_get(0)?, row.try_get(1)?);
        sqlx::query("UPDATE accounts SET name_look = $1 WHERE name_key = $2")
            .bind(look_of(&name))
            .bind(&key)
            .execute(pool)
            .await?;
    }
    Ok(())
}

/// Starts a session for `key`: its token (128 bits from the operating system, in hex); only its digest is kept.
async fn new_session(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    key: &str,
) -> Result<String, sqlx::Error> {
    let token = super::new_token().map_err(sqlx::Error::Protocol)?;
    let expires = now_ms() + (SESSION_DAYS * 86_400_000) as i64;
    sqlx::query("INSERT INTO sessions (token_hash, name_key, expires_ms) VALUES ($1, $2, $3)")
        .bind(token_hash(&token))
        .bind(key)
        .bind(expires)
        .execute(&mut **tx)
        .await?;
    Ok(token)
}

fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn check_password(password: &str) -> Result<(), AccountError> {
    let chars = password.chars().count();
    if !(MIN_PASSWORD_CHARS..=MAX_PASSWORD_CHARS).contains(&chars) {
        return Err(AccountError::Invalid(format!(
            "a password has {MIN_PASSWORD_CHARS} to {MAX_PASSWORD_CHARS} characters"
        )));
    }
    Ok(())
}

impl Store {
    /// Argon2id with the crate's defaults (19 MiB, 2 passes), off the async threads, a core's worth at a time.
    async fn hash_password(&self, password: &str) -> Result<String, AccountError> {
        let _turn = self.turn().await?;
        let password = password.to_string();
        tokio::task::spawn_blocking(move || {
            argon2::Argon2::default()
                .hash_password(password.as_bytes())
                .map(|hash| hash.to_string())
                .map_err(|e| AccountError::Database(format!("hashing the password: {e}")))
        })
        .await
        .map_err(|e| AccountError::Database(e.to_string()))?
    }

    async fn verify_password(&self, password: &str, hash: String) -> Result<(), AccountError> {
        let _turn = self.turn().await?;
        let password = password.to_string();
        tokio::task::spawn_blocking(move || {
            let parsed = PasswordHash::new(&hash).map_err(|e| {
                AccountError::Database(format!("a stored hash does not parse: {e}"))
            })?;
            argon2::Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .map_err(|_| AccountError::WrongLogin)
        })
        .await
        .map_err(|e| AccountError::Database(e.to_string()))?
    }

    async fn turn(&self) -> Result<tokio::sync::SemaphorePermit<'_>, AccountError> {
        self.hashing
            .acquire()
            .await
            .map_err(|e| AccountError::Database(e.to_string()))
    }
}
