//! The shared lobby: each table's line, kept in the ledger by the server that holds the table, so that every server
//! on one ledger lists every table and where it is played.

use super::{LedgerError, Store, now_ms};
use crate::protocol::Listing;
use sqlx::Row;
use std::time::Duration;

impl Store {
    /// Puts a table's line in the shared lobby: its listing, the path its server's WebSocket is reached at, and now.
    pub async fn publish(&self, listing: &Listing, route: &str) -> Result<(), LedgerError> {
        let text = serde_json::to_string(listing)
            .map_err(|e| LedgerError::Corrupt(format!("a lobby line: {e}")))?;
        sqlx::query(
            "INSERT INTO lobby (table_id, listing, route, seen_ms) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (table_id) DO UPDATE SET listing = $2, route = $3, seen_ms = $4",
        )
        .bind(&listing.id)
        .bind(&text)
        .bind(route)
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The shared lobby's lines of other servers (not reached at `route`) seen within `fresh`, each with its route.
    pub async fn lobby(&self, route: &str, fresh: Duration) -> Result<Vec<Listing>, LedgerError> {
        let since = now_ms() - fresh.as_millis() as i64;
        let rows = sqlx::query(
            "SELECT listing, route FROM lobby WHERE route <> $1 AND seen_ms >= $2 ORDER BY table_id",
        )
        .bind(route)
        .bind(since)
        .fetch_all(&self.pool)
        .await
        ?;
        let mut listings = Vec::with_capacity(rows.len());
        for row in rows {
            let text: String = row.try_get(0)?;
            let mut listing: Listing = serde_json::from_str(&text)
                .map_err(|e| LedgerError::Corrupt(format!("a lobby line: {e}")))?;
            listing.ws = Some(row.try_get(1)?);
            listings.push(listing);
        }
        Ok(listings)
    }
}
