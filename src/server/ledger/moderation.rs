//! Moderation in the ledger: accounts' roles, what moderators impose on a name (each checked for the actor's role in
//! the statement that imposes it, and written to the moderation log in the same transaction), what is imposed now,
//! the tables' chat (a line kept only if its sayer is not muted, in one statement), reports with their context, and
//! accounts' blocks.

use super::names::look_of;
use super::{LedgerError, Store, now_ms};
use crate::protocol::ModAction;
use serde::Serialize;
use sqlx::{AssertSqlSafe, Row};

/// Who an account is on the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Role {
    /// Everyone.
    Player,
    /// Mutes, times out, kicks and bans players and guests, and reads the reports and the log.
    Moderator,
    /// All a moderator does, to moderators too.
    Admin,
}

impl Role {
    /// Its name in the ledger and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Role::Player => "player",
            Role::Moderator => "moderator",
            Role::Admin => "admin",
        }
    }

    /// The role named, or why not.
    pub fn named(name: &str) -> Result<Role, LedgerError> {
        match name.trim().to_lowercase().as_str() {
            "player" => Ok(Role::Player),
            "moderator" => Ok(Role::Moderator),
            "admin" => Ok(Role::Admin),
            other => Err(LedgerError::Invalid(format!(
                "{other:?} is not a role: player, moderator or admin"
            ))),
        }
    }

    /// A moderator or an admin.
    pub fn moderates(self) -> bool {
        self >= Role::Moderator
    }
}

/// An account's role's rank, in SQL: an admin 2, a moderator 1, a player 0.
const RANK: &str = "CASE role WHEN 'admin' THEN 2 WHEN 'moderator' THEN 1 ELSE 0 END";

/// The longest a sanction is given for (a longer time is this): about a hundred years.
const LONGEST_MS: i64 = 100 * 365 * 86_400_000;

/// What a moderator asks: an action on a name (as `POST /api/moderation` takes it, JSON).
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Order {
    /// What.
    pub action: ModAction,
    /// Whom, as shown.
    pub name: String,
    /// How long, in seconds; none: the action's usual time (a ban: for good).
    #[serde(default)]
    pub seconds: Option<u64>,
    /// Why.
    #[serde(default)]
    pub reason: String,
    /// A ban takes the name's last address too.
    #[serde(default)]
    pub address: bool,
    /// A kick's table.
    #[serde(default)]
    pub table: Option<String>,
}

/// A moderator's action as the servers sharing a ledger hear it, to carry it out at their own tables: who, what, at
/// which table (a kick), and what was imposed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Moderated {
    /// The ledger's opening that imposed it.
    origin: String,
    /// The name, as the moderator gave it.
    pub name: String,
    /// The action.
    pub action: ModAction,
    /// The table of a kick.
    pub table: Option<String>,
    /// Why.
    pub reason: String,
    /// Until when, in milliseconds since 1970; none for good.
    pub until_ms: Option<i64>,
}

impl Moderated {
    /// What was imposed, as the server that imposed it saw it (the accounts a ban ended are told apart).
    pub fn imposed(&self) -> Imposed {
        Imposed {
            action: self.action.name().to_string(),
            reason: self.reason.clone(),
            until_ms: self.until_ms,
            accounts: Vec::new(),
            address: false,
        }
    }
}

/// A sanction on a name now: what, why and until when.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Imposed {
    /// What.
    pub action: String,
    /// Why.
    pub reason: String,
    /// Until when, in milliseconds since 1970; none for good.
    pub until_ms: Option<i64>,
    /// The accounts of the name whose sessions a ban ended.
    #[serde(skip)]
    pub accounts: Vec<String>,
    /// A ban that took the name's address too (it was known).
    #[serde(skip)]
    pub address: bool,
}

impl Imposed {
    /// How long it lasts yet, in words ("for 9 more minutes", "for good").
    pub fn time_left(&self) -> String {
        match self.until_ms {
            None => "for good".to_string(),
            // A mute, timeout or kick "forever" lasts the longest time there is.
            Some(until) if until - now_ms() > LONGEST_MS / 2 => "for good".to_string(),
            Some(until) => {
                // Rounded up: a mute of 2 s given a moment ago has "2 seconds" left, not 1.
                let seconds = ((until - now_ms()).max(0) + 999).div_euclid(1_000);
                in_words(seconds)
            }
        }
    }

    /// What the player was done, in words: "muted you", "timed you out of the tables", …
    pub fn done_to_you(&self) -> &'static str {
        match self.action.as_str() {
            "mute" => "muted you",
            "timeout" => "timed you out of the tables",
            "kick" => "removed you from this table",
            _ => "banned you",
        }
    }

    /// What a banned player is told as their connections close.
    pub fn told_the_banned(&self) -> String {
        format!(
            "A moderator has banned you {}{}.",
            self.time_left(),
            self.because()
        )
    }

    /// Why, in words, or nothing when no reason was given.
    pub fn because(&self) -> String {
        if self.reason.is_empty() {
            String::new()
        } else {
            format!(": {}", self.reason)
        }
    }
}

/// "for 10 minutes", "for 2 hours", "for 45 seconds".
pub fn in_words(seconds: i64) -> String {
    let (n, unit) = match seconds {
        s if s >= 2 * 86_400 => (s.div_euclid(86_400), "days"),
        s if s >= 2 * 3_600 => (s.div_euclid(3_600), "hours"),
        s if s >= 120 => (s.div_euclid(60), "minutes"),
        s => (s, if s == 1 { "second" } else { "seconds" }),
    };
    format!("for {n} {unit}")
}

/// A line of the moderation log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LogLine {
    /// When, in milliseconds since 1970.
    pub at_ms: i64,
    /// Who did it (an account's key, or `(operator)` for a role given on the command line).
    pub by: String,
    /// What: mute, timeout, kick, ban, pardon, grant (a role, in `reason`).
    pub action: String,
    /// To whom.
    pub name: String,
    /// Why.
    pub reason: String,
    /// Until when.
    pub until_ms: Option<i64>,
    /// A kick's table.
    pub table: Option<String>,
    /// A ban that took the address too.
    pub address_too: bool,
}

/// A player's report, as moderators read it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Report {
    /// Who reported.
    pub by: String,
    /// Whom.
    pub name: String,
    /// Why.
    pub reason: String,
    /// The table the reporter was at.
    pub table: Option<String>,
    /// The table's last round settled then.
    pub round: Option<i64>,
    /// The table's chat before it, oldest first (`name: text`).
    pub chat: Vec<String>,
    /// When, in milliseconds since 1970.
    pub at_ms: i64,
}

/// The most of a table's chat a report keeps.
pub const REPORT_CHAT_LINES: i64 = 30;

/// The longest reason kept.
const MAX_REASON_CHARS: usize = 200;

/// A row's id: its time, then 64 bits from the operating system (ids sort by time).
pub(super) fn row_id() -> Result<String, LedgerError> {
    let seed = crate::engine::os_seed().map_err(|e| LedgerError::Corrupt(e.to_string()))?;
    let random: String = seed[..8].iter().map(|b| format!("{b:02x}")).collect();
    Ok(format!("{:013}-{random}", now_ms()))
}

/// A reason as kept: cut to its most, and cleaned as a chat line is (no controls, no bidi tricks).
fn reason_of(reason: &str) -> String {
    let cut: String = reason.chars().take(MAX_REASON_CHARS).collect();
    crate::protocol::check_chat(&cut).unwrap_or_default()
}

/// SQL: the account `key` moderates at `now` (both placeholders): its role is a moderator's or an admin's, and no
/// ban is in force on its name.
fn moderates(key: &str, now: &str) -> String {
    format!(
        "(SELECT {RANK} FROM accounts WHERE name_key = {key}) >= 1 AND NOT EXISTS (SELECT 1 FROM sanctions s \
         JOIN accounts a ON s.look = a.name_look WHERE a.name_key = {key} AND s.action = 'ban' \
         AND s.lifted_ms IS NULL AND (s.until_ms IS NULL OR s.until_ms > {now}))"
    )
}

/// The sanctions in force at `now` on a look (`$1`) — SQL for a WHERE, with `now` as `$2`.
const IN_FORCE: &str = "lifted_ms IS NULL AND (until_ms IS NULL OR until_ms > $2)";

impl Store {
    /// Gives the account `name` the role (`holecard-server --grant`): the moderation log says so. The account's name.
    pub async fn grant(&self, name: &str, role: Role) -> Result<String, LedgerError> {
        let key = name.trim().to_lowercase();
        let mut tx = self.pool.begin().await?;
        let row = sqlx::query("UPDATE accounts SET role = $1 WHERE name_key = $2 RETURNING name")
            .bind(role.name())
            .bind(&key)
            .fetch_optional(&mut *tx)
            .await?;
        let Some(row) = row else {
            return Err(LedgerError::NoAccount);
        };
        let name: String = row.try_get(0)?;
        log(
            &mut tx,
            "(operator)",
            "grant",
            &name,
            role.name(),
            None,
            None,
            false,
        )
        .await?;
        tx.commit().await?;
        Ok(name)
    }

    /// The role of the account `key` (a player when there is none).
    pub async fn role_of(&self, key: &str) -> Result<Role, LedgerError> {
        let row = sqlx::query("SELECT role FROM accounts WHERE name_key = $1")
            .bind(key)
            .fetch_optional(&self.pool)
            .await?;
        match row {
            Some(row) => Role::named(&row.try_get::<String, _>(0)?),
            None => Ok(Role::Player),
        }
    }

    /// The account `by` imposes `order`. The statement that imposes it checks the role: it is done only when `by`
    /// moderates and outranks the name's account (a guest's name, or a player's, ranks lowest); the log has it in the
    /// same transaction. A pardon lifts every sanction in force on the name. What was imposed (a pardon: what was
    /// lifted), or why not.
    pub async fn impose(&self, by: &str, order: &Order) -> Result<Imposed, LedgerError> {
        let look = look_of(order.name.trim());
        let name = order.name.trim().to_string();
        let reason = reason_of(&order.reason);
        let now = now_ms();
        let until = order.seconds.or(order.action.usual_seconds()).map(|s| {
            now + i64::try_from(s.saturating_mul(1_000))
                .unwrap_or(LONGEST_MS)
                .min(LONGEST_MS)
        });
        let outranks = |now: &str| {
            format!(
                "{} AND (SELECT {RANK} FROM accounts WHERE name_key = $1) > \
                 COALESCE((SELECT MAX({RANK}) FROM accounts WHERE name_look = $2), 0)",
                moderates("$1", now)
            )
        };
        let mut tx = self.pool.begin().await?;
        let (done, address) = if order.action == ModAction::Pardon {
            let lifted = sqlx::query(AssertSqlSafe(format!(
                "UPDATE sanctions SET lifted_ms = $3 WHERE look = $2 AND lifted_ms IS NULL \
                 AND (until_ms IS NULL OR until_ms > $3) AND {}",
                outranks("$3")
            )))
            .bind(by)
            .bind(&look)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            (lifted > 0, None)
        } else {
            let table = match (order.action, &order.table) {
                (ModAction::Kick, Some(table)) => Some(table.clone()),
                (ModAction::Kick, None) => {
                    return Err(LedgerError::Invalid("a kick names the table".to_string()));
                }
                _ => None,
            };
            // The address is the one the name last played from, as its hold keeps it (none when the hold has gone).
            let row = sqlx::query(AssertSqlSafe(format!(
                "INSERT INTO sanctions (id, action, look, name, table_id, address, reason, by_key, at_ms, until_ms) \
                 SELECT $3, $4, $2, $5, $6, \
                   CASE WHEN $7 = 1 THEN (SELECT address FROM name_holds WHERE look = $2) END, \
                   $8, $1, $9, $10 \
                 WHERE {} RETURNING address",
                outranks("$9")
            )))
            .bind(by)
            .bind(&look)
            .bind(row_id()?)
            .bind(order.action.name())
            .bind(&name)
            .bind(table)
            .bind(i64::from(order.address))
            .bind(&reason)
            .bind(now)
            .bind(until)
            .fetch_optional(&mut *tx)
            .await?;
            match row {
                Some(row) => (true, row.try_get::<Option<String>, _>(0)?),
                None => (false, None),
            }
        };
        if !done {
            drop(tx);
            return Err(self.why_not(by, &look, &name, order.action).await?);
        }
        log(
            &mut tx,
            by,
            order.action.name(),
            &name,
            &reason,
            until,
            order
                .table
                .as_deref()
                .filter(|_| order.action == ModAction::Kick),
            address.is_some(),
        )
        .await?;
        let mut imposed = Imposed {
            action: order.action.name().to_string(),
            reason,
            until_ms: until,
            accounts: Vec::new(),
            address: address.is_some(),
        };
        // A banned account's every session ends with the ban, here and on every server sharing the ledger (every
        // account of the look: accounts made before looks were kept may share one).
        if order.action == ModAction::Ban {
            let keys = sqlx::query("SELECT name_key FROM accounts WHERE name_look = $1")
                .bind(&look)
                .fetch_all(&mut *tx)
                .await?;
            for row in keys {
                let key: String = row.try_get(0)?;
                super::accounts::end_sessions(&mut tx, &key).await?;
                self.tell_sessions_ended_saying(&mut tx, &key, Some(&imposed.told_the_banned()))
                    .await?;
                imposed.accounts.push(key);
            }
        }
        // Every other server on the ledger carries it out at its tables once it is kept, and only then.
        if self.shared_by_servers() {
            let heard = Moderated {
                origin: self.origin.clone(),
                name,
                action: order.action,
                table: order
                    .table
                    .clone()
                    .filter(|_| order.action == ModAction::Kick),
                reason: imposed.reason.clone(),
                until_ms: imposed.until_ms,
            };
            let payload =
                serde_json::to_string(&heard).map_err(|e| LedgerError::Corrupt(e.to_string()))?;
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(super::MODERATED)
                .bind(payload)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(imposed)
    }

    /// A moderator's action another server on the ledger imposed, as heard on [`super::MODERATED`]: none for one
    /// this server imposed itself (it carried it out as it did) or a payload that does not read.
    pub fn heard_moderated(&self, payload: &str) -> Option<Moderated> {
        match serde_json::from_str::<Moderated>(payload) {
            Ok(heard) => (heard.origin != self.origin).then_some(heard),
            Err(e) => {
                tracing::warn!(
                    "a moderator's action heard from the ledger does not read: {e}: {payload}"
                );
                None
            }
        }
    }

    /// Whether the account `by` moderates now: a moderator's or an admin's role, and not banned.
    async fn moderates(&self, by: &str) -> Result<bool, LedgerError> {
        let row = sqlx::query(AssertSqlSafe(format!(
            "SELECT 1 WHERE {}",
            moderates("$1", "$2")
        )))
        .bind(by)
        .bind(now_ms())
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.is_some())
    }

    /// Why `by` could not impose `action` on the name: they do not moderate, the name's account outranks them, or
    /// (a pardon) nothing was in force.
    async fn why_not(
        &self,
        by: &str,
        look: &str,
        name: &str,
        action: ModAction,
    ) -> Result<LedgerError, LedgerError> {
        let role = self.role_of(by).await?;
        if !self.moderates(by).await? {
            return Ok(LedgerError::NotModerator);
        }
        let theirs = sqlx::query("SELECT role FROM accounts WHERE name_look = $1")
            .bind(look)
            .fetch_optional(&self.pool)
            .await?;
        if let Some(row) = theirs {
            let theirs = Role::named(&row.try_get::<String, _>(0)?)?;
            if theirs >= role {
                let theirs = if theirs == Role::Admin {
                    "an admin"
                } else {
                    "a moderator"
                };
                return Ok(LedgerError::Outranked(name.to_string(), theirs));
            }
        }
        Ok(match action {
            ModAction::Pardon => LedgerError::Invalid(format!("nothing is imposed on {name} now")),
            _ => LedgerError::Busy,
        })
    }

    /// A ban in force on the look (or, unless `address` is none, on the address), the longest first.
    pub async fn banned(
        &self,
        name: &str,
        address: Option<&str>,
    ) -> Result<Option<Imposed>, LedgerError> {
        let row = sqlx::query(AssertSqlSafe(format!(
            "SELECT action, reason, until_ms FROM sanctions WHERE action = 'ban' AND {IN_FORCE} \
             AND (look = $1 OR address = $3) ORDER BY COALESCE(until_ms, {}) DESC LIMIT 1",
            i64::MAX
        )))
        .bind(look_of(name))
        .bind(now_ms())
        .bind(address.map(str::to_string))
        .fetch_optional(&self.pool)
        .await?;
        row.map(|row| imposed_of(&row)).transpose()
    }

    /// What keeps the name from sitting at (or, for a kick, from joining) the table now: a timeout or ban (from
    /// every seat) or a kick from this table.
    pub async fn sent_away(
        &self,
        name: &str,
        table: &str,
        sitting: bool,
    ) -> Result<Option<Imposed>, LedgerError> {
        let row = sqlx::query(AssertSqlSafe(format!(
            "SELECT action, reason, until_ms FROM sanctions WHERE look = $1 AND {IN_FORCE} \
             AND (action = 'ban' OR (action = 'kick' AND table_id = $3) OR (action = 'timeout' AND $4 = 1)) \
             ORDER BY COALESCE(until_ms, {}) DESC LIMIT 1",
            i64::MAX
        )))
        .bind(look_of(name))
        .bind(now_ms())
        .bind(table)
        .bind(i64::from(sitting))
        .fetch_optional(&self.pool)
        .await?;
        row.map(|row| imposed_of(&row)).transpose()
    }

    /// Keeps `name`'s chat line at `table`, in one statement that keeps it only when no mute, timeout or ban is in
    /// force on the name: kept, or what keeps it from being said.
    pub async fn say(
        &self,
        table: &str,
        name: &str,
        text: &str,
    ) -> Result<Option<Imposed>, LedgerError> {
        let look = look_of(name);
        let now = now_ms();
        let kept = sqlx::query(AssertSqlSafe(format!(
            "INSERT INTO chat_lines (id, table_id, look, name, text, at_ms) SELECT $3, $4, $1, $5, $6, $2 \
             WHERE NOT EXISTS (SELECT 1 FROM sanctions WHERE look = $1 \
               AND action IN ('mute', 'timeout', 'ban') AND {IN_FORCE})"
        )))
        .bind(&look)
        .bind(now)
        .bind(row_id()?)
        .bind(table)
        .bind(name)
        .bind(text)
        .execute(&self.pool)
        .await?
        .rows_affected();
        if kept == 1 {
            return Ok(None);
        }
        let row = sqlx::query(AssertSqlSafe(format!(
            "SELECT action, reason, until_ms FROM sanctions WHERE look = $1 \
             AND action IN ('mute', 'timeout', 'ban') AND {IN_FORCE} \
             ORDER BY COALESCE(until_ms, {}) DESC LIMIT 1",
            i64::MAX
        )))
        .bind(&look)
        .bind(now)
        .fetch_optional(&self.pool)
        .await?;
        match row {
            Some(row) => Ok(Some(imposed_of(&row)?)),
            // Lifted or run out between the two statements: said again, it is kept (or refused again, for a mute
            // that came meanwhile).
            None => Box::pin(self.say(table, name, text)).await,
        }
    }

    /// Forgets the chat said before `before_ms` (reports keep their own copy): how many lines.
    pub async fn forget_chat_before(&self, before_ms: i64) -> Result<u64, LedgerError> {
        Ok(sqlx::query("DELETE FROM chat_lines WHERE at_ms < $1")
            .bind(before_ms)
            .execute(&self.pool)
            .await?
            .rows_affected())
    }

    /// The round `round` of `table` as the table showed it (a [`crate::protocol::Replay`] as JSON), while it is
    /// kept.
    pub async fn replay(&self, table: &str, round: u64) -> Result<Option<String>, LedgerError> {
        let row =
            sqlx::query("SELECT replay FROM round_replays WHERE table_id = $1 AND round = $2")
                .bind(table)
                .bind(i64::try_from(round).unwrap_or(i64::MAX))
                .fetch_optional(&self.pool)
                .await?;
        row.map(|row| row.try_get(0))
            .transpose()
            .map_err(LedgerError::from)
    }

    /// Keeps rounds to watch again, each `(table, round, json)` a [`crate::protocol::Replay`] as JSON, in one
    /// statement; each kept once. Only for rounds the ledger has settled (a round refunded after a crash is never
    /// kept): the tables hand a round to be kept only once its settlement is written.
    pub async fn keep_replays(&self, rounds: &[(&str, u64, String)]) -> Result<(), LedgerError> {
        if rounds.is_empty() {
            return Ok(());
        }
        let values = (0..rounds.len())
            .map(|i| {
                let at = 4 * i;
                format!("(${}, ${}, ${}, ${})", at + 1, at + 2, at + 3, at + 4)
            })
            .collect::<Vec<_>>()
            .join(", ");
        let sql = format!(
            "INSERT INTO round_replays (table_id, round, replay, settled_ms) VALUES {values} \
             ON CONFLICT (table_id, round) DO NOTHING"
        );
        let now = now_ms();
        let mut query = sqlx::query(AssertSqlSafe(sql));
        for (table, round, json) in rounds {
            query = query
                .bind(*table)
                .bind(i64::try_from(*round).unwrap_or(i64::MAX))
                .bind(json.as_str())
                .bind(now);
        }
        query.execute(&self.replays).await?;
        Ok(())
    }

    /// Forgets the rounds to watch again settled before `before_ms`: how many.
    pub async fn forget_replays_before(&self, before_ms: i64) -> Result<u64, LedgerError> {
        Ok(
            sqlx::query("DELETE FROM round_replays WHERE settled_ms < $1")
                .bind(before_ms)
                .execute(&self.replays)
                .await?
                .rows_affected(),
        )
    }

    /// The address `name` plays from now (an account's, at its hello; a guest's is kept with its name's hold).
    pub async fn seen_at(&self, key: &str, address: Option<&str>) -> Result<(), LedgerError> {
        sqlx::query("UPDATE name_holds SET address = $1 WHERE name_key = $2")
            .bind(address.map(str::to_string))
            .bind(key)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// `by` reports `name`, with the table's chat before it and its last round settled.
    pub async fn report(
        &self,
        by: &str,
        name: &str,
        reason: &str,
        table: Option<&str>,
    ) -> Result<(), LedgerError> {
        let mut tx = self.pool.begin().await?;
        let (chat, round) = match table {
            Some(table) => {
                let lines = sqlx::query(
                    "SELECT name, text FROM chat_lines WHERE table_id = $1 ORDER BY at_ms DESC, id DESC LIMIT $2",
                )
                .bind(table)
                .bind(REPORT_CHAT_LINES)
                .fetch_all(&mut *tx)
                .await?;
                let mut chat = lines
                    .iter()
                    .map(|row| {
                        Ok(format!(
                            "{}: {}",
                            row.try_get::<String, _>(0)?,
                            row.try_get::<String, _>(1)?
                        ))
                    })
                    .collect::<Result<Vec<String>, sqlx::Error>>()?;
                chat.reverse();
                let round: Option<i64> =
                    sqlx::query("SELECT MAX(round) FROM rounds WHERE table_id = $1")
                        .bind(table)
                        .fetch_one(&mut *tx)
                        .await?
                        .try_get(0)?;
                (chat, round)
            }
            None => (Vec::new(), None),
        };
        let context =
            serde_json::to_string(&chat).map_err(|e| LedgerError::Corrupt(e.to_string()))?;
        sqlx::query(
            "INSERT INTO reports (id, by_look, by_name, look, name, reason, table_id, round, context, at_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        )
        .bind(row_id()?)
        .bind(look_of(by))
        .bind(by)
        .bind(look_of(name.trim()))
        .bind(name.trim())
        .bind(reason_of(reason))
        .bind(table.map(str::to_string))
        .bind(round)
        .bind(context)
        .bind(now_ms())
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The latest `n` rows of `table` (reports, the log), newest first, as `columns`: read in one statement only when
    /// the account `by` moderates, and refused when it does not.
    async fn for_moderators(
        &self,
        by: &str,
        columns: &'static str,
        table: &'static str,
        n: u32,
    ) -> Result<Vec<sqlx::any::AnyRow>, LedgerError> {
        let rows = sqlx::query(AssertSqlSafe(format!(
            "SELECT {columns} FROM {table} WHERE {} ORDER BY at_ms DESC, id DESC LIMIT $2",
            moderates("$1", "$3")
        )))
        .bind(by)
        .bind(i64::from(n))
        .bind(now_ms())
        .fetch_all(&self.pool)
        .await?;
        if rows.is_empty() && !self.moderates(by).await? {
            return Err(LedgerError::NotModerator);
        }
        Ok(rows)
    }

    /// The latest `n` reports, newest first, for the account `by` when it moderates (else refused).
    pub async fn reports(&self, by: &str, n: u32) -> Result<Vec<Report>, LedgerError> {
        let columns = "by_name, name, reason, table_id, round, context, at_ms";
        self.for_moderators(by, columns, "reports", n)
            .await?
            .iter()
            .map(|row| {
                let context: String = row.try_get(5)?;
                Ok(Report {
                    by: row.try_get(0)?,
                    name: row.try_get(1)?,
                    reason: row.try_get(2)?,
                    table: row.try_get(3)?,
                    round: row.try_get(4)?,
                    chat: serde_json::from_str(&context)
                        .map_err(|e| LedgerError::Corrupt(format!("a report's chat: {e}")))?,
                    at_ms: row.try_get(6)?,
                })
            })
            .collect()
    }

    /// The latest `n` lines of the moderation log, newest first, for the account `by` when it moderates.
    pub async fn moderation_log(&self, by: &str, n: u32) -> Result<Vec<LogLine>, LedgerError> {
        let columns = "at_ms, by_key, action, name, reason, until_ms, table_id, address_too";
        self.for_moderators(by, columns, "moderation_log", n)
            .await?
            .iter()
            .map(|row| {
                Ok(LogLine {
                    at_ms: row.try_get(0)?,
                    by: row.try_get(1)?,
                    action: row.try_get(2)?,
                    name: row.try_get(3)?,
                    reason: row.try_get(4)?,
                    until_ms: row.try_get(5)?,
                    table: row.try_get(6)?,
                    address_too: row.try_get::<i64, _>(7)? != 0,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(LedgerError::from)
    }

    /// The account `by` blocks `name` (again: nothing changes): the look blocked.
    pub async fn block(&self, by: &str, name: &str) -> Result<String, LedgerError> {
        let look = look_of(name.trim());
        sqlx::query(
            "INSERT INTO blocks (by_key, look, name, at_ms) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (by_key, look) DO NOTHING",
        )
        .bind(by)
        .bind(&look)
        .bind(name.trim())
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        Ok(look)
    }

    /// The account `by` no longer blocks `name`: the look.
    pub async fn unblock(&self, by: &str, name: &str) -> Result<String, LedgerError> {
        let look = look_of(name.trim());
        sqlx::query("DELETE FROM blocks WHERE by_key = $1 AND look = $2")
            .bind(by)
            .bind(&look)
            .execute(&self.pool)
            .await?;
        Ok(look)
    }

    /// The looks the account `by` blocks.
    pub async fn blocks(&self, by: &str) -> Result<Vec<String>, LedgerError> {
        sqlx::query("SELECT look FROM blocks WHERE by_key = $1")
            .bind(by)
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(|row| row.try_get(0))
            .collect::<Result<_, _>>()
            .map_err(LedgerError::from)
    }
}

fn imposed_of(row: &sqlx::any::AnyRow) -> Result<Imposed, LedgerError> {
    Ok(Imposed {
        action: row.try_get(0)?,
        reason: row.try_get(1)?,
        until_ms: row.try_get(2)?,
        accounts: Vec::new(),
        address: false,
    })
}

/// A line of the moderation log.
#[allow(clippy::too_many_arguments)]
async fn log(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    by: &str,
    action: &str,
    name: &str,
    reason: &str,
    until_ms: Option<i64>,
    table: Option<&str>,
    address_too: bool,
) -> Result<(), LedgerError> {
    sqlx::query(
        "INSERT INTO moderation_log (id, at_ms, by_key, action, name, reason, until_ms, table_id, address_too) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(row_id()?)
    .bind(now_ms())
    .bind(by)
    .bind(action)
    .bind(name)
    .bind(reason)
    .bind(until_ms)
    .bind(table.map(str::to_string))
    .bind(i64::from(address_too))
    .execute(&mut **tx)
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_and_roles_read_as_words() {
        assert_eq!(in_words(1), "for 1 second");
        assert_eq!(in_words(45), "for 45 seconds");
        assert_eq!(in_words(600), "for 10 minutes");
        assert_eq!(in_words(7_200), "for 2 hours");
        assert_eq!(in_words(7 * 86_400), "for 7 days");
        assert!(matches!(Role::named(" Moderator "), Ok(Role::Moderator)));
        assert!(Role::named("king").is_err());
        assert!(
            Role::Admin.moderates() && Role::Moderator.moderates() && !Role::Player.moderates()
        );
        assert_eq!(reason_of("  "), "");
        assert_eq!(reason_of("spam\u{202E}moc"), "spammoc");
    }
}
