//! What a connection asks that is moderation's: its chat line kept (or refused while muted), a moderator's action,
//! a report, a block; and a table it may not join while timed out, kicked or banned.

use super::*;

/// Reports one name may make a minute.
const REPORTS_PER_MINUTE: u32 = 5;

impl Connection {
    /// A chat line for the table, kept in the ledger first — which keeps it only when no mute, timeout or ban is in
    /// force on the name — or why it is not said.
    pub(super) async fn say(&self, name: &str, text: String) -> Result<ToTable, ServerMessage> {
        let Some(table) = &self.table else {
            return Err(refusal(
                Refusal::NotSeated,
                "join a table first (sit or watch)",
            ));
        };
        match self.shared.store.say(&table.id, name, &text).await {
            Ok(None) => Ok(ToTable::Chat {
                conn: self.id,
                text,
            }),
            Ok(Some(muted)) => Err(refusal(
                Refusal::Muted,
                &format!(
                    "you cannot chat: a moderator has {} {}{}",
                    muted.done_to_you(),
                    muted.time_left(),
                    muted.because()
                ),
            )),
            Err(e) => Err(self.ledger_down(&e)),
        }
    }

    /// Why this player may not join `table` now (sit at it when `sitting`): a ban, a timeout (no seat anywhere) or
    /// a kick from it, in force.
    pub(super) async fn kept_from(
        &self,
        name: &str,
        table: &str,
        sitting: bool,
    ) -> Option<ServerMessage> {
        match self.shared.store.sent_away(name, table, sitting).await {
            Ok(None) => None,
            Ok(Some(away)) => {
                let why = format!(
                    "a moderator has {} {}{}",
                    away.done_to_you(),
                    away.time_left(),
                    away.because()
                );
                Some(refusal(Refusal::SentAway, &why))
            }
            Err(e) => Some(self.ledger_down(&e)),
        }
    }

    /// A moderator's action, asked by this connection's account (the ledger checks the role): what was done, in
    /// words, or why not.
    pub(super) async fn moderate(&self, order: ledger::Order) -> ServerMessage {
        let Some(key) = &self.account else {
            return refusal(Refusal::NotAllowed, "only a moderator can do that");
        };
        match moderation::act(&self.shared, key, &order).await {
            Ok(done) => ServerMessage::Notice { text: done },
            Err(e) if e.is_outage() => self.ledger_down(&e),
            Err(e) => refusal(Refusal::NotAllowed, &e.to_string()),
        }
    }

    /// This player reports `whom`: the ledger keeps it with the table's chat and round. Nobody but the moderators
    /// sees it.
    pub(super) async fn report(&self, name: &str, whom: &str, reason: &str) -> ServerMessage {
        let whom = whom.trim();
        if whom.is_empty() {
            return refusal(Refusal::NotAllowed, "a report names a player");
        }
        // A few a minute from one name, counted in the ledger: each keeps a copy of the table's chat.
        let bucket = format!("report:{}", ledger::look_of(name));
        match self.shared.store.attempt(&bucket, REPORTS_PER_MINUTE).await {
            Ok(None) => {}
            Ok(Some(wait)) => {
                let why = format!(
                    "you have reported a lot just now; try again in {} s",
                    wait.as_secs() + 1
                );
                return refusal(Refusal::TooFast, &why);
            }
            Err(e) => return self.ledger_down(&e),
        }
        let table = self.table.as_ref().map(|t| t.id.as_str());
        match self.shared.store.report(name, whom, reason, table).await {
            Ok(()) => ServerMessage::Notice {
                text: format!(
                    "Thank you: the moderators will read your report about {whom}, with the table's chat before it."
                ),
            },
            Err(e) => self.ledger_down(&e),
        }
    }

    /// This player blocks (or unblocks) `whom`: their chat is not sent to it (again). An account's blocks are kept in
    /// the ledger; a guest's last this connection.
    pub(super) async fn block(&self, whom: &str, block: bool) -> ServerMessage {
        let whom = whom.trim();
        if whom.is_empty() {
            return refusal(Refusal::NotAllowed, "a block names a player");
        }
        let look = match &self.account {
            Some(key) if block => self.shared.store.block(key, whom).await,
            Some(key) => self.shared.store.unblock(key, whom).await,
            None => Ok(ledger::look_of(whom)),
        };
        let look = match look {
            Ok(look) => look,
            Err(e) => return self.ledger_down(&e),
        };
        if let Ok(mut blocks) = self.blocks.write() {
            if block {
                blocks.insert(look);
            } else {
                blocks.remove(&look);
            }
        }
        let text = if block {
            format!("You will not see {whom}'s chat. /unblock {whom} shows it again.")
        } else {
            format!("You will see {whom}'s chat again.")
        };
        ServerMessage::Notice { text }
    }

    /// A moderator has sent this connection away from the table `table`: when it is still there, it is at none (it
    /// may have moved on to another meanwhile).
    pub(super) fn sent_away(&mut self, table: &str) {
        if self.table.as_ref().is_none_or(|t| t.id != table) {
            return;
        }
        self.table = None;
        if let Ok(mut sessions) = self.shared.sessions.lock()
            && let Some(session) = sessions.get_mut(&self.token)
        {
            session.table = None;
        }
    }
}
