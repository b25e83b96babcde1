//! Settled rounds kept to watch again (`/api/hand/TABLE/ROUND`): the tables hand each settled round to one keeper
//! per server, which writes the rounds that end together in one statement.
//!
//! A round written alone cost PostgreSQL a statement and a commit each, which on the load curve came to about a
//! tenth more of the database's work per command (`docs/server-load.md`); in a batch that cost is shared by the
//! rounds of the moment. A round is kept a moment after its settlement (at most [`GATHER`] and the write); the
//! rounds of that moment are lost if the process is killed in it, which loses no chip: the ledger settled them first.

use super::ledger::{LedgerError, Store};
use super::protocol::Replay;
use tokio::sync::mpsc;
use tokio::time::{Duration, Instant};

/// How long the keeper gathers rounds after the first it is given before writing them together.
pub const GATHER: Duration = Duration::from_millis(250);

/// The most rounds written in one statement (four values each, well under SQLite's and PostgreSQL's limits).
pub const MOST_AT_ONCE: usize = 200;

/// Rounds waiting for the keeper at most; a round that finds the line full is not kept (and the log says so).
const WAITING: usize = 4096;

/// Where a table hands its settled rounds to be kept.
#[derive(Clone, Debug)]
pub struct Keeper {
    rounds: mpsc::Sender<Replay>,
}

impl Keeper {
    /// Starts the keeper writing to `store` for as long as a table holds a [`Keeper`].
    pub fn start(store: Store) -> Keeper {
        let (rounds, waiting) = mpsc::channel(WAITING);
        tokio::spawn(keep(store, waiting));
        Keeper { rounds }
    }

    /// Keeps `replay`, a round the ledger has settled. Never waits: the table's work goes on.
    pub fn keep(&self, replay: Replay, store: &Store) {
        if let Err(e) = self.rounds.try_send(replay) {
            let replay = match e {
                mpsc::error::TrySendError::Full(r) | mpsc::error::TrySendError::Closed(r) => r,
            };
            store.failed(&keeping(&replay), &"too many rounds waiting to be written");
        }
    }
}

/// What the log says the server was doing when keeping `replay` failed.
fn keeping(replay: &Replay) -> String {
    format!(
        "{}: keeping round {} to watch again",
        replay.table, replay.round
    )
}

/// The keeper's loop: the first round waiting, every other that comes within [`GATHER`] (up to [`MOST_AT_ONCE`]),
/// written together; until every table has let go of its [`Keeper`] and the last rounds are written.
async fn keep(store: Store, mut waiting: mpsc::Receiver<Replay>) {
    while let Some(first) = waiting.recv().await {
        let until = Instant::now() + GATHER;
        let mut batch = vec![first];
        while batch.len() < MOST_AT_ONCE {
            match tokio::time::timeout_at(until, waiting.recv()).await {
                Ok(Some(replay)) => batch.push(replay),
                Ok(None) | Err(_) => break,
            }
        }
        let mut rounds = Vec::with_capacity(batch.len());
        for replay in &batch {
            match serde_json::to_string(replay) {
                Ok(json) => rounds.push((replay.table.as_str(), replay.round, json)),
                Err(e) => store.failed(&keeping(replay), &LedgerError::Corrupt(e.to_string())),
            }
        }
        if let Err(e) = store.keep_replays(&rounds).await {
            let first = batch
                .first()
                .map(|r| format!("round {} at {}", r.round, r.table));
            let what = format!(
                "keeping {} rounds to watch again (the first {})",
                rounds.len(),
                first.unwrap_or_default()
            );
            store.failed(&what, &e);
        }
    }
}
