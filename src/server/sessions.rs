//! The sessions held here, and their end. A guest's session lives in this process alone: its name (held in the
//! ledger for it, so no server welcomes a look-alike), whether a connection has it now, and the table it was at. An
//! account's sessions live in the ledger; what this process keeps of them is how to end each connection of the
//! account at once (logged out, a new password), here and, through the ledger's NOTIFY, on every server sharing it.
//! A process that loses its LISTEN connection asks the ledger about every account connected here when it comes back.

use super::*;

/// How long the ledger holds a guest's name for this process without hearing from it again: the process renews its
/// guests' names three times in that while, and a process that is killed gives them back when it runs out.
pub(super) const GUEST_HOLD: Duration = Duration::from_secs(30);

/// An account's connection as the ways to end it find it: the account, the epoch of its sessions it was welcomed
/// under, and the way to end it.
pub(super) struct Welcomed {
    pub(super) key: String,
    pub(super) epoch: i64,
    /// Sent what to say as the connection closes; none: that the session has ended.
    pub(super) end: oneshot::Sender<Option<ServerMessage>>,
}

/// How a guest's connection is filed where a ban finds it, beside accounts' keys (which have no colon).
pub(super) fn guest_key(look: &str) -> String {
    format!("{GUEST}{look}")
}

/// What a guest's key starts with.
const GUEST: &str = "guest:";

/// A guest's session: its name, whether a connection has it now, and the table they were at.
pub(super) struct Session {
    pub(super) name: String,
    pub(super) live: Option<ConnId>,
    pub(super) gone_at: Option<Instant>,
    pub(super) table: Option<String>,
}

impl Session {
    /// Still holds its name (and any seat): connected, or dropped less than `hold` ago.
    pub(super) fn current(&self, now: Instant, hold: Duration) -> bool {
        self.live.is_some() || self.gone_at.is_some_and(|at| now.duration_since(at) < hold)
    }
}

impl Shared {
    /// Ends every session of the account `key` here at once (it logged out, or its password changed): each table
    /// gives up its seat (one a connection holds, or one held for a dropped connection), and each open connection
    /// is told and closed. The ledger's sessions are ended by the caller.
    pub(super) async fn end_account(&self, key: &str) {
        self.end_account_saying(key, None).await;
    }

    /// Closes the connections here of the guest whose name has the look `look`, each told `why` as it closes.
    pub(super) async fn end_guest_saying(&self, look: &str, why: ServerMessage) {
        self.end_account_saying(&guest_key(look), Some(why)).await;
    }

    /// The same, each connection told `why` (none: that the session has ended) as it closes.
    pub(super) async fn end_account_saying(&self, key: &str, why: Option<ServerMessage>) {
        let who = format!("account:{key}");
        for table in self.tables.values() {
            let ended = ToTable::Ended {
                who: who.clone(),
                banned: why.clone(),
            };
            let _ = table.tx.send(ended).await;
        }
        let ends: Vec<oneshot::Sender<Option<ServerMessage>>> = match self.ends.lock() {
            Ok(mut ends) => {
                let theirs: Vec<ConnId> = ends
                    .iter()
                    .filter(|(_, welcomed)| welcomed.key == key)
                    .map(|(conn, _)| *conn)
                    .collect();
                theirs
                    .into_iter()
                    .filter_map(|conn| ends.remove(&conn).map(|welcomed| welcomed.end))
                    .collect()
            }
            Err(_) => Vec::new(),
        };
        for end in ends {
            let _ = end.send(why.clone());
        }
    }

    /// Asks the ledger about every account with a connection here, and ends those whose sessions ended while this
    /// process could not hear of it.
    async fn recheck_accounts(&self) {
        let welcomed: std::collections::BTreeSet<(String, i64)> = match self.ends.lock() {
            Ok(ends) => ends
                .values()
                .map(|welcomed| (welcomed.key.clone(), welcomed.epoch))
                .collect(),
            Err(_) => return,
        };
        // A guest's connection is filed for a ban to find; it has no sessions in the ledger to ask about.
        for (key, epoch) in welcomed
            .into_iter()
            .filter(|(key, _)| !key.starts_with(GUEST))
        {
            match self.store.epoch_of(&key).await {
                Ok(now) if now != Some(epoch) => {
                    tracing::info!(
                        "{key}'s sessions ended while this server was not listening: ended here too"
                    );
                    self.end_account(&key).await;
                }
                Ok(_) => {}
                Err(e) => self.store.failed(&format!("asking about {key}"), &e),
            }
        }
    }
}

/// Hears from PostgreSQL that an account's sessions have ended on any server sharing the ledger (logged out, a new
/// password) and ends them here too; and a moderator's action another server imposed, carried out here too (one
/// missed while not listening holds all the same: the ledger refuses the player's next seat, line or hello). A notification sent while the connection was down is lost (PostgreSQL keeps
/// none for a listener that is gone), so each time it listens again, it asks the ledger about every account
/// connected here; it listens first, then asks, so nothing falls between the two.
pub(super) async fn hear_sessions_ended(database: String, shared: std::sync::Weak<Shared>) {
    let mut listened_before = false;
    loop {
        let listener = async {
            let mut listener = sqlx::postgres::PgListener::connect(&database).await?;
            listener
                .listen_all([ledger::SESSIONS_ENDED, ledger::MODERATED])
                .await?;
            let mut listening_again = listened_before;
            listened_before = true;
            loop {
                if std::mem::take(&mut listening_again) {
                    match shared.upgrade() {
                        Some(shared) => shared.recheck_accounts().await,
                        None => return Ok::<(), sqlx::Error>(()),
                    }
                }
                // `try_recv` says when the connection was lost (and is listening again): then what was missed is
                // asked of the ledger.
                match listener.try_recv().await? {
                    Some(heard) if heard.channel() == ledger::MODERATED => match shared.upgrade() {
                        Some(shared) => {
                            if let Some(moderated) = shared.store.heard_moderated(heard.payload()) {
                                super::moderation::heard(&shared, &moderated).await;
                            }
                        }
                        None => return Ok(()),
                    },
                    Some(heard) => match shared.upgrade() {
                        // The key, and what to tell its connections when it was a ban.
                        Some(shared) => match heard.payload().split_once('\n') {
                            Some((key, said)) => {
                                let said = ServerMessage::Refused {
                                    code: Refusal::Banned,
                                    message: said.to_string(),
                                };
                                shared.end_account_saying(key, Some(said)).await;
                            }
                            None => shared.end_account(heard.payload()).await,
                        },
                        None => return Ok(()),
                    },
                    None => {
                        tracing::warn!(
                            "the connection hearing other servers' logouts was lost; listening \
                             again, and asking the ledger what was missed"
                        );
                        listening_again = true;
                    }
                }
            }
        };
        match listener.await {
            Ok(()) => return,
            Err(e) => tracing::warn!("hearing other servers' logouts: {e}; listening again in 1 s"),
        }
        if shared.strong_count() == 0 {
            return;
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

/// Every third of [`GUEST_HOLD`] (or every wait of a dropped connection, when shorter), while the server runs:
/// guests' sessions whose wait ran out are forgotten and their names given back in the ledger; the names of the rest
/// are held on.
pub(super) async fn keep_guest_names(shared: std::sync::Weak<Shared>) {
    let Some(hold) = shared.upgrade().map(|shared| shared.hold) else {
        return;
    };
    // Often enough to renew the names before their hold in the ledger runs out, and to give a name back soon after
    // its guest's seat stopped waiting for them.
    let mut every = tokio::time::interval((GUEST_HOLD / 3).min(hold.max(Duration::from_secs(1))));
    // Names the ledger could not be told to give back (it was not answering): told again next time.
    let mut unreleased: Vec<(String, String)> = Vec::new();
    loop {
        every.tick().await;
        let Some(shared) = shared.upgrade() else {
            return;
        };
        let now = Instant::now();
        let mut gone: Vec<(String, String)> = match shared.sessions.lock() {
            Ok(mut sessions) => {
                let expired: Vec<String> = sessions
                    .iter()
                    .filter(|(_, s)| !s.current(now, shared.hold))
                    .map(|(token, _)| token.clone())
                    .collect();
                expired
                    .into_iter()
                    .filter_map(|token| sessions.remove(&token).map(|s| (s.name, token)))
                    .collect()
            }
            Err(_) => Vec::new(),
        };
        gone.append(&mut unreleased);
        for (name, token) in gone {
            if let Err(e) = shared.store.release_guest_name(&name, &token).await {
                shared.store.failed(
                    &format!("giving back the guest name {name} (tried again soon)"),
                    &e,
                );
                unreleased.push((name, token));
            }
        }
        let until = ledger::now_ms() + GUEST_HOLD.as_millis() as i64;
        if let Err(e) = shared.store.renew_guest_names(&shared.holder, until).await {
            shared.store.failed("holding the guests' names", &e);
        }
    }
}
