//! Accounts and their sessions: made with a stake and a password (kept as an Argon2id hash), logged into (a session
//! token, kept as its SHA-256 digest), logged out of everywhere at once, a new password; an account as the server
//! holds it, the leaderboard and an account's hands.

use super::names::look_of;
use super::{LedgerError, Store, now_ms, token_hash};
use crate::engine::Cents;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use serde::Serialize;
use sqlx::Row;
use sqlx::any::AnyRow;

pub use crate::protocol::{PlayedHand, PlayedSideBet, Standing};

/// How long a login lasts.
pub const SESSION_DAYS: u64 = 30;

/// The shortest password.
pub const MIN_PASSWORD_CHARS: usize = 8;

/// The longest password read (Argon2 takes any length; this bounds the work one request can ask for).
pub const MAX_PASSWORD_CHARS: usize = 128;

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

/// A current session of an account, as a connection is welcomed under it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountSession {
    /// The account.
    pub account: Account,
    /// Its sessions' epoch: every statement that moves its chips for this connection names it.
    pub epoch: i64,
    /// The table and seat the ledger has it in, if any.
    pub seated: Option<(String, u8)>,
    /// Its role.
    pub role: super::Role,
}

impl Store {
    /// Makes an account with `stake` in chips, and logs it in: its session token. Refused when the name is taken,
    /// or looks like one held (an account's, or a guest's playing now): the name's look is held in the same
    /// transaction that makes the account, so two look-alikes registering at once cannot both be made.
    pub async fn register(
        &self,
        name: &str,
        password: &str,
        stake: Cents,
    ) -> Result<(Account, String), LedgerError> {
        match self.registered(name, password, stake).await {
            Err(LedgerError::NameHeld { look, key }) => Err(self.why_held(&look, &key, name).await),
            made => made,
        }
    }

    async fn registered(
        &self,
        name: &str,
        password: &str,
        stake: Cents,
    ) -> Result<(Account, String), LedgerError> {
        let name = super::names::check_name(name)?;
        check_password(password)?;
        let hash = self.hash_password(password).await?;
        let key = name.to_lowercase();
        let now = now_ms();
        let mut tx = self.pool.begin().await?;
        let look = look_of(&name);
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
        .await?;
        if made.rows_affected() == 0 {
            return Err(LedgerError::Taken);
        }
        // The name's look is the account's for good, in the one table of every name held: a look-alike account, or
        // a guest playing under one now, holds it already, and this account is not made.
        super::names::hold_for_an_account(&mut tx, &look, &name, &key, now).await?;
        sqlx::query(
            "INSERT INTO ledger (name_key, entry, kind, amount, insurance, chips_after, at_ms) \
             VALUES ($1, 1, 'stake', $2, 0, $2, $3)",
        )
        .bind(&key)
        .bind(stake.0)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        let token = new_session(&mut tx, &key).await?;
        tx.commit().await?;
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
    ) -> Result<(Account, String), LedgerError> {
        if password.chars().count() > MAX_PASSWORD_CHARS {
            return Err(LedgerError::WrongLogin);
        }
        // No account has a name that does not do (nor does the ledger see it: PostgreSQL refuses a NUL outright).
        if super::names::check_name(name).is_err() {
            let _ = self.hash_password(password).await;
            return Err(LedgerError::WrongLogin);
        }
        let key = name.trim().to_lowercase();
        let row = sqlx::query("SELECT password_hash FROM accounts WHERE name_key = $1")
            .bind(&key)
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else {
            // As long as a wrong password takes, so a stranger cannot tell which names exist.
            let _ = self.hash_password(password).await;
            return Err(LedgerError::WrongLogin);
        };
        let hash: String = row.try_get(0)?;
        self.verify_password(password, hash).await?;
        let mut tx = self.pool.begin().await?;
        let token = new_session(&mut tx, &key).await?;
        tx.commit().await?;
        let account = self.account(&key).await?.ok_or(LedgerError::WrongLogin)?;
        Ok((account, token))
    }

    /// The account a session token belongs to, if it is current: the account, its sessions' epoch now and where the
    /// ledger has it seated, read together.
    pub async fn session(&self, token: &str) -> Result<Option<AccountSession>, LedgerError> {
        let row = sqlx::query(
            "SELECT a.name, a.name_key, a.chips, a.highscore, a.sessions_epoch, a.seated_at, a.seat, a.role \
             FROM sessions s JOIN accounts a ON a.name_key = s.name_key \
             WHERE s.token_hash = $1 AND s.expires_ms >= $2",
        )
        .bind(token_hash(token))
        .bind(now_ms())
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let seated_at: Option<String> = row.try_get(5)?;
        let seat: Option<i64> = row.try_get(6)?;
        Ok(Some(AccountSession {
            account: account_of(&row)?,
            epoch: row.try_get(4)?,
            seated: seated_at.zip(seat.and_then(|seat| u8::try_from(seat).ok())),
            role: super::Role::named(&row.try_get::<String, _>(7)?)?,
        }))
    }

    /// The account `key`'s sessions' epoch now (none for no such account): a connection welcomed under an older one
    /// has had its session ended since.
    pub async fn epoch_of(&self, key: &str) -> Result<Option<i64>, LedgerError> {
        let row = sqlx::query("SELECT sessions_epoch FROM accounts WHERE name_key = $1")
            .bind(key)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(row) => Some(row.try_get(0)?),
            None => None,
        })
    }

    /// Ends every session of the account this token is a session of (logging out on one device logs out on all):
    /// the account's key, or none when the token was not a session.
    pub async fn log_out(&self, token: &str) -> Result<Option<String>, LedgerError> {
        let mut tx = self.pool.begin().await?;
        let row = sqlx::query("SELECT name_key FROM sessions WHERE token_hash = $1")
            .bind(token_hash(token))
            .fetch_optional(&mut *tx)
            .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let key: String = row.try_get(0)?;
        end_sessions(&mut tx, &key).await?;
        self.tell_sessions_ended(&mut tx, &key).await?;
        tx.commit().await?;
        Ok(Some(key))
    }

    /// Changes the password of account `key` when `old` is its password: every session of the account ends, and
    /// the one changing it gets a new one (the account and its token).
    pub async fn change_password(
        &self,
        key: &str,
        old: &str,
        new: &str,
    ) -> Result<(Account, String), LedgerError> {
        check_password(new)?;
        if old.chars().count() > MAX_PASSWORD_CHARS {
            return Err(LedgerError::WrongLogin);
        }
        let row = sqlx::query("SELECT password_hash FROM accounts WHERE name_key = $1")
            .bind(key)
            .fetch_optional(&self.pool)
            .await?
            .ok_or(LedgerError::WrongLogin)?;
        let hash: String = row.try_get(0)?;
        self.verify_password(old, hash).await?;
        let hash = self.hash_password(new).await?;
        let mut tx = self.pool.begin().await?;
        sqlx::query("UPDATE accounts SET password_hash = $1 WHERE name_key = $2")
            .bind(&hash)
            .bind(key)
            .execute(&mut *tx)
            .await?;
        end_sessions(&mut tx, key).await?;
        self.tell_sessions_ended(&mut tx, key).await?;
        let token = new_session(&mut tx, key).await?;
        tx.commit().await?;
        let account = self.account(key).await?.ok_or(LedgerError::WrongLogin)?;
        Ok((account, token))
    }

    /// An account by key.
    pub async fn account(&self, key: &str) -> Result<Option<Account>, LedgerError> {
        let row = sqlx::query(
            "SELECT name, name_key, chips, highscore FROM accounts WHERE name_key = $1",
        )
        .bind(key)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|row| account_of(&row))
            .transpose()
            .map_err(LedgerError::from)
    }

    /// The best `n` all-time highscores.
    pub async fn leaderboard(&self, n: u32) -> Result<Vec<Standing>, LedgerError> {
        let rows = sqlx::query(
            "SELECT name, highscore, chips FROM accounts ORDER BY highscore DESC, name_key LIMIT $1",
        )
        .bind(i64::from(n))
        .fetch_all(&self.pool)
        .await
        ?;
        rows.iter()
            .map(|row| {
                Ok(Standing {
                    name: row.try_get(0)?,
                    highscore: Cents(row.try_get(1)?),
                    chips: Cents(row.try_get(2)?),
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(LedgerError::from)
    }

    /// An account's last `n` hands, newest first, and the rest of each round they are of: a round is never cut, so
    /// its first hand, which carries its side bets, is always there.
    pub async fn history(&self, key: &str, n: u32) -> Result<Vec<PlayedHand>, LedgerError> {
        let rows = sqlx::query(
            "WITH last AS (SELECT table_id, round FROM hands WHERE name_key = $1 \
             ORDER BY played_ms DESC, table_id, round DESC, seat, hand DESC LIMIT $2) \
             SELECT table_id, rules, round, seat, hand, cards, decisions, dealer, outcome, wager, net, \
             bankroll_after, played_ms FROM hands h WHERE name_key = $1 \
             AND EXISTS (SELECT 1 FROM last l WHERE l.table_id = h.table_id AND l.round = h.round) \
             ORDER BY played_ms DESC, table_id, round DESC, seat, hand DESC",
        )
        .bind(key)
        .bind(i64::from(n))
        .fetch_all(&self.pool)
        .await
        ?;
        let mut hands = rows
            .iter()
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
                    side_bets: Vec::new(),
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()?;
        // The side bets of those rounds, each on its seat's first hand.
        let Some(oldest) = hands.iter().map(|h| h.at_ms).min() else {
            return Ok(hands);
        };
        let sides = sqlx::query(
            "SELECT b.table_id, b.round, b.seat, b.bet, b.stake, b.won, b.net FROM side_bets b \
             JOIN hands h ON h.table_id = b.table_id AND h.round = b.round AND h.seat = b.seat AND h.hand = 0 \
             WHERE b.name_key = $1 AND h.played_ms >= $2 ORDER BY b.table_id, b.round, b.seat, b.bet",
        )
        .bind(key)
        .bind(oldest)
        .fetch_all(&self.pool)
        .await?;
        for row in &sides {
            let (table, round, seat): (String, i64, i64) =
                (row.try_get(0)?, row.try_get(1)?, row.try_get(2)?);
            let played = PlayedSideBet {
                bet: row.try_get(3)?,
                stake: Cents(row.try_get(4)?),
                won: row.try_get(5)?,
                net: Cents(row.try_get(6)?),
            };
            if let Some(first) = hands.iter_mut().find(|h| {
                h.hand == 0
                    && h.table == table
                    && h.round == round as u64
                    && i64::from(h.seat) == seat
            }) {
                first.side_bets.push(played);
            }
        }
        Ok(hands)
    }
}

/// Ends every session of the account `key`: its tokens are forgotten and its epoch moves on, in the caller's
/// transaction, so that no statement of a connection welcomed before can seat or reset it after the commit.
pub(super) async fn end_sessions(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    key: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE accounts SET sessions_epoch = sessions_epoch + 1 WHERE name_key = $1")
        .bind(key)
        .execute(&mut **tx)
        .await?;
    sqlx::query("DELETE FROM sessions WHERE name_key = $1")
        .bind(key)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

pub(super) fn account_of(row: &AnyRow) -> Result<Account, sqlx::Error> {
    Ok(Account {
        name: row.try_get(0)?,
        key: row.try_get(1)?,
        chips: Cents(row.try_get(2)?),
        highscore: Cents(row.try_get(3)?),
    })
}

/// Starts a session for `key`: its token (128 bits from the operating system, in hex); only its digest is kept.
async fn new_session(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    key: &str,
) -> Result<String, LedgerError> {
    let token = crate::server::new_token().map_err(|e| LedgerError::Corrupt(e.to_string()))?;
    let expires = now_ms() + (SESSION_DAYS * 86_400_000) as i64;
    sqlx::query("INSERT INTO sessions (token_hash, name_key, expires_ms) VALUES ($1, $2, $3)")
        .bind(token_hash(&token))
        .bind(key)
        .bind(expires)
        .execute(&mut **tx)
        .await?;
    Ok(token)
}

fn check_password(password: &str) -> Result<(), LedgerError> {
    let chars = password.chars().count();
    if !(MIN_PASSWORD_CHARS..=MAX_PASSWORD_CHARS).contains(&chars) {
        return Err(LedgerError::Invalid(format!(
            "a password has {MIN_PASSWORD_CHARS} to {MAX_PASSWORD_CHARS} characters"
        )));
    }
    Ok(())
}

impl Store {
    /// Argon2id with the crate's defaults (19 MiB, 2 passes), off the async threads, a core's worth at a time.
    async fn hash_password(&self, password: &str) -> Result<String, LedgerError> {
        let _turn = self.turn().await?;
        let password = password.to_string();
        tokio::task::spawn_blocking(move || {
            argon2::Argon2::default()
                .hash_password(password.as_bytes())
                .map(|hash| hash.to_string())
                .map_err(|e| LedgerError::Hashing(e.to_string()))
        })
        .await
        .map_err(|e| LedgerError::Hashing(e.to_string()))?
    }

    async fn verify_password(&self, password: &str, hash: String) -> Result<(), LedgerError> {
        let _turn = self.turn().await?;
        let password = password.to_string();
        tokio::task::spawn_blocking(move || {
            let parsed = PasswordHash::new(&hash)
                .map_err(|e| LedgerError::Corrupt(format!("a stored hash does not parse: {e}")))?;
            argon2::Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .map_err(|_| LedgerError::WrongLogin)
        })
        .await
        .map_err(|e| LedgerError::Hashing(e.to_string()))?
    }

    async fn turn(&self) -> Result<tokio::sync::SemaphorePermit<'_>, LedgerError> {
        self.hashing
            .acquire()
            .await
            .map_err(|e| LedgerError::Hashing(e.to_string()))
    }
}
