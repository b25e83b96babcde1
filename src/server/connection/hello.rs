//! The connection's hello: a new guest by name, an account by its session token, or a guest coming back with its
//! token (to its seat, with the news it missed). An account comes back to the seat the ledger has it in; a guest's
//! name is held in the ledger, so no server on it welcomes a name that looks like one held.

use super::*;

/// What a hello answers: the welcome (or a refusal), and the table to come back to with the last news the client has.
type Hello = (ServerMessage, Option<(String, Option<u64>)>);

impl Connection {
    /// Says hello: a new guest, an account's session, or a guest coming back with their token.
    pub(super) async fn hello(&mut self, message: ClientMessage) -> Hello {
        let ClientMessage::Hello {
            version,
            name,
            token,
            since,
        } = message
        else {
            return (refusal(Refusal::NotIntroduced, "say hello first"), None);
        };
        if version != protocol::VERSION {
            let why = format!(
                "this server speaks protocol {}, not {version}",
                protocol::VERSION
            );
            return (refusal(Refusal::WrongVersion, &why), None);
        }
        match token {
            // A guest's session is known here alone, while it holds its name; an account's token is asked of the
            // ledger every time, so one that has been logged out (here or on another server) is never welcomed back.
            Some(token) if self.guest_back(&token) => self.welcomed(token, since),
            Some(token) => self.account(token, since).await,
            None => self.guest(&name).await,
        }
    }

    /// The guest session `token` is held here, and its connection is back: it is live again.
    fn guest_back(&self, token: &str) -> bool {
        let Ok(mut sessions) = self.shared.sessions.lock() else {
            return false;
        };
        let now = Instant::now();
        match sessions.get_mut(token) {
            Some(session) if session.current(now, self.shared.hold) => {
                session.live = Some(self.id);
                session.gone_at = None;
                true
            }
            _ => false,
        }
    }

    /// An account's session: the ledger's answer, and this connection filed where a logout finds it before the ledger
    /// is asked once more whether the session still stands. A logout that committed before the filing moved the
    /// account's epoch, which the second reading sees; one after it finds the filing and ends the connection. Either
    /// way no connection goes on under a session that has ended, and whatever it asks of the ledger names the epoch
    /// it was welcomed under.
    async fn account(&mut self, token: String, since: Option<u64>) -> Hello {
        let session = match self.shared.store.session(&token).await {
            Ok(Some(session)) => session,
            Ok(None) => {
                let why = "that token is not known here, or its hold has run out: log in again, or say hello with \
                           a name to play as a guest";
                return (refusal(Refusal::BadName, why), None);
            }
            Err(e) => return (self.ledger_down(&e), None),
        };
        let key = session.account.key.clone();
        if let Some(end) = self.end.take()
            && let Ok(mut ends) = self.shared.ends.lock()
        {
            ends.insert(
                self.id,
                sessions::Welcomed {
                    key: key.clone(),
                    epoch: session.epoch,
                    end,
                },
            );
        }
        let unfile = |shared: &Shared, id: ConnId| {
            if let Ok(mut ends) = shared.ends.lock() {
                ends.remove(&id);
            }
        };
        match self.shared.store.epoch_of(&key).await {
            Ok(Some(epoch)) if epoch == session.epoch => {}
            Ok(_) => {
                unfile(&self.shared, self.id);
                let ended = ledger::LedgerError::SessionEnded.to_string();
                return (refusal(Refusal::SessionEnded, &ended), None);
            }
            Err(e) => {
                unfile(&self.shared, self.id);
                return (self.ledger_down(&e), None);
            }
        }
        // A ban on the name holds for every session; one on the address, for everyone but the moderators.
        let address = self
            .address
            .as_deref()
            .filter(|_| !session.role.moderates());
        let known = match self
            .shared
            .store
            .banned(&session.account.name, address)
            .await
        {
            Ok(None) => self.shared.store.blocks(&key).await,
            Ok(Some(ban)) => {
                unfile(&self.shared, self.id);
                return (banned(&ban), None);
            }
            Err(e) => Err(e),
        };
        let seen = match known {
            Ok(blocks) => {
                if let Ok(mut mine) = self.blocks.write() {
                    mine.extend(blocks);
                }
                self.shared
                    .store
                    .seen_at(&key, self.address.as_deref())
                    .await
            }
            Err(e) => Err(e),
        };
        if let Err(e) = seen {
            unfile(&self.shared, self.id);
            return (self.ledger_down(&e), None);
        }
        self.account = Some(key.clone());
        self.epoch = session.epoch;
        self.who = format!("account:{key}");
        self.name = Some(session.account.name.clone());
        self.token = token.clone();
        // Back to the seat the ledger has the account in, when it is at one of this server's tables.
        let back = session
            .seated
            .map(|(table, _)| table)
            .filter(|table| self.shared.tables.contains_key(table))
            .map(|table| (table, since));
        let welcome = ServerMessage::Welcome {
            version: protocol::VERSION,
            name: session.account.name,
            token,
            account: true,
        };
        (welcome, back)
    }

    /// A new guest: a name that does, held in the ledger for this session (no name that looks like it is held by an
    /// account, or by another guest on any server).
    async fn guest(&mut self, name: &str) -> Hello {
        let name = match ledger::check_name(name) {
            Ok(name) => name,
            Err(why) => return (refusal(Refusal::BadName, &why.to_string()), None),
        };
        match self
            .shared
            .store
            .banned(&name, self.address.as_deref())
            .await
        {
            Ok(None) => {}
            Ok(Some(ban)) => return (banned(&ban), None),
            Err(e) => return (self.ledger_down(&e), None),
        }
        let token = match new_token() {
            Ok(token) => token,
            Err(why) => return (refusal(Refusal::BadName, &why.to_string()), None),
        };
        let until = ledger::now_ms() + sessions::GUEST_HOLD.as_millis() as i64;
        let held = self
            .shared
            .store
            .hold_guest_name(
                &name,
                &token,
                &self.shared.holder,
                until,
                self.address.as_deref(),
            )
            .await;
        match held {
            Ok(()) => {}
            Err(e) if e.is_outage() => return (self.ledger_down(&e), None),
            Err(ledger::LedgerError::GuestPlays(other)) => {
                let why = if other.to_lowercase() == name.to_lowercase() {
                    format!("someone here already plays as {name}")
                } else {
                    format!(
                        "someone here already plays as {other}, which looks too much like {name}"
                    )
                };
                return (refusal(Refusal::BadName, &why), None);
            }
            Err(e) => return (refusal(Refusal::BadName, &e.to_string()), None),
        }
        // Filed where a ban on the name finds this connection.
        if let Some(end) = self.end.take()
            && let Ok(mut ends) = self.shared.ends.lock()
        {
            ends.insert(
                self.id,
                sessions::Welcomed {
                    key: sessions::guest_key(&ledger::look_of(&name)),
                    epoch: 0,
                    end,
                },
            );
        }
        if let Ok(mut sessions) = self.shared.sessions.lock() {
            sessions.insert(
                token.clone(),
                Session {
                    name,
                    live: Some(self.id),
                    gone_at: None,
                    table: None,
                },
            );
        }
        self.welcomed(token, None)
    }

    /// Welcomes the guest session `token` (new, or back): its name, and the table it was at.
    fn welcomed(&mut self, token: String, since: Option<u64>) -> Hello {
        let Some((name, table)) = self.shared.sessions.lock().ok().and_then(|sessions| {
            sessions
                .get(&token)
                .map(|session| (session.name.clone(), session.table.clone()))
        }) else {
            let why =
                "that token is not known here, or its hold has run out: say hello with a name";
            return (refusal(Refusal::BadName, why), None);
        };
        self.who = format!("guest:{token}");
        self.name = Some(name.clone());
        self.token = token.clone();
        let welcome = ServerMessage::Welcome {
            version: protocol::VERSION,
            name,
            token,
            account: false,
        };
        (welcome, table.map(|table| (table, since)))
    }
}

/// A hello refused for a ban in force.
fn banned(ban: &ledger::Imposed) -> ServerMessage {
    refusal(
        Refusal::Banned,
        &format!(
            "a moderator has banned this name or address {}{}",
            ban.time_left(),
            ban.because()
        ),
    )
}
