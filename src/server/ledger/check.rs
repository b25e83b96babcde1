//! The check: the ledger's sums proved, every one (`holecard-server --check-ledger`).

use super::{LedgerError, Store};
use crate::engine::Cents;
use serde::Serialize;
use sqlx::Row;
use sqlx::any::AnyRow;

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

impl Store {
    /// Proves the ledger's sums: every account's chips are its entries' sum and its highscore at least its chips;
    /// every round's nets sum to zero and its accounts' entries to its accounts' net; every entry of a round is its
    /// hands, insurance and side bets; every house holds what it started with and what its rounds brought.
    pub async fn check(&self) -> Result<LedgerReport, LedgerError> {
        let mut report = LedgerReport::default();
        let count = |sql: &'static str| async move {
            let row = sqlx::query(sql).fetch_one(&self.pool).await?;
            row.try_get::<i64, _>(0).map_err(LedgerError::from)
        };
        report.accounts = count("SELECT COUNT(*) FROM accounts").await? as u64;
        report.entries = count("SELECT COUNT(*) FROM ledger").await? as u64;
        report.rounds = count("SELECT COUNT(*) FROM rounds").await? as u64;
        report.hands = count("SELECT COUNT(*) FROM hands").await? as u64;
        report.chips =
            Cents(count("SELECT CAST(COALESCE(SUM(chips), 0) AS BIGINT) FROM accounts").await?);
        let checks: [(&'static str, &'static str); 8] = [
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
                "SELECT table_id, round, accounts_net + guests_net + companions_net + house_net + disputed_net \
                 FROM rounds WHERE accounts_net + guests_net + companions_net + house_net + disputed_net <> 0",
                "table {0} round {1}: the nets sum to {2}, not 0",
            ),
            (
                "SELECT table_id, round, name_key FROM disputes",
                "table {0} round {1}: {2}'s line was disputed (the table and the ledger disagreed about it)",
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
                 l.insurance + l.side_bets + (SELECT CAST(COALESCE(SUM(h.net), 0) AS BIGINT) FROM hands h \
                 WHERE h.table_id = l.table_id AND h.round = l.round AND h.name_key = l.name_key)",
                "table {0} round {1}: {2}'s entry is not its hands, insurance and side bets",
            ),
            (
                "SELECT l.table_id, l.round, l.name_key FROM ledger l WHERE l.kind = 'round' AND l.side_bets <> \
                 (SELECT CAST(COALESCE(SUM(b.net), 0) AS BIGINT) FROM side_bets b \
                 WHERE b.table_id = l.table_id AND b.round = l.round AND b.name_key = l.name_key)",
                "table {0} round {1}: {2}'s side bets are not the side bets kept for the round",
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
            for row in sqlx::query(sql).fetch_all(&self.pool).await? {
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
