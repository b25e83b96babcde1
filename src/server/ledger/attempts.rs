//! Attempts limited across every server on the ledger: passwords tried for one name, accounts registered from one
//! address. Each bucket is one row holding the generic cell rate algorithm's theoretical arrival time, moved on in
//! the one statement that lets an attempt through, so servers racing each other share one limit.

use super::{LedgerError, Store, now_ms};
use sqlx::Row;
use std::time::Duration;

impl Store {
    /// One attempt in `bucket`, which lets `per_minute` through a minute after a burst of as many: none when it goes
    /// through, else how long until the next would.
    pub async fn attempt(
        &self,
        bucket: &str,
        per_minute: u32,
    ) -> Result<Option<Duration>, LedgerError> {
        let per_minute = i64::from(per_minute.max(1));
        let now = now_ms();
        // At least a millisecond apart: a limit of more than 60,000 a minute is a burst of as many.
        let every = (60_000 / per_minute).max(1);
        let burst = every * (per_minute - 1);
        let through = sqlx::query(
            "INSERT INTO attempts (bucket, tat_ms) VALUES ($1, $2 + $3) \
             ON CONFLICT (bucket) DO UPDATE \
             SET tat_ms = (CASE WHEN attempts.tat_ms > $2 THEN attempts.tat_ms ELSE $2 END) + $3 \
             WHERE (CASE WHEN attempts.tat_ms > $2 THEN attempts.tat_ms ELSE $2 END) - $2 <= $4",
        )
        .bind(bucket)
        .bind(now)
        .bind(every)
        .bind(burst)
        .execute(&self.pool)
        .await?;
        if through.rows_affected() == 1 {
            return Ok(None);
        }
        let row = sqlx::query("SELECT tat_ms FROM attempts WHERE bucket = $1")
            .bind(bucket)
            .fetch_optional(&self.pool)
            .await?;
        let tat: i64 = match row {
            Some(row) => row.try_get(0)?,
            None => now,
        };
        let wait = (tat - burst - now).max(1);
        Ok(Some(Duration::from_millis(wait as u64)))
    }

    /// Forgets the buckets that have let everything through again.
    pub async fn forget_old_attempts(&self) -> Result<(), LedgerError> {
        sqlx::query("DELETE FROM attempts WHERE tat_ms < $1")
            .bind(now_ms())
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
