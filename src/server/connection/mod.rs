//! One client's connection: its WebSocket, read and written in one task; what it may send and how fast; the table it
//! is at; its hello (`hello`). It speaks for its own seat only.

mod hello;
mod moderate;

use super::lobby::listings;
use super::*;

pub(super) async fn upgrade(
    ws: WebSocketUpgrade,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: axum::http::HeaderMap,
    tally: Option<axum::Extension<listen::Tally>>,
    State(shared): State<Arc<Shared>>,
) -> Response {
    let Some(slot) = Slot::take(&shared, api::client_of(peer.ip())) else {
        let why = format!(
            "at most {} connections from one address",
            shared.per_address
        );
        return error::json_error(StatusCode::TOO_MANY_REQUESTS, why);
    };
    // The connection counts (against the caps it was accepted under) for as long as the WebSocket is open.
    let counted = tally.and_then(|axum::Extension(tally)| tally.take());
    let open = shared.metrics.connected();
    let address = player_address(peer.ip(), &headers);
    // Tungstenite zeroes its whole read buffer before each read: at its default 128 KiB that memset was a quarter of
    // the server's time under load. A client's messages are at most 4 KiB (the buffer grows for a larger frame).
    ws.max_message_size(MAX_FRAME_BYTES)
        .max_frame_size(MAX_FRAME_BYTES)
        .read_buffer_size(READ_BUFFER_BYTES)
        .on_upgrade(move |socket| async move {
            Connection::new(shared, address).run(socket).await;
            drop((slot, counted, open));
        })
}

/// One of an address's connections, given back when dropped.
struct Slot {
    shared: Arc<Shared>,
    ip: IpAddr,
}

impl Slot {
    fn take(shared: &Arc<Shared>, ip: IpAddr) -> Option<Slot> {
        let mut addresses = shared.addresses.lock().ok()?;
        let open = addresses.entry(ip).or_insert(0);
        if *open >= shared.per_address {
            return None;
        }
        *open += 1;
        Some(Slot {
            shared: shared.clone(),
            ip,
        })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        if let Ok(mut addresses) = self.shared.addresses.lock()
            && let Some(open) = addresses.get_mut(&self.ip)
        {
            *open -= 1;
            if *open == 0 {
                addresses.remove(&self.ip);
            }
        }
    }
}

/// One client's connection: who they are, where they sit, and how fast they talk.
struct Connection {
    shared: Arc<Shared>,
    id: ConnId,
    name: Option<String>,
    token: String,
    /// Who sits: the account (`account:KEY`: any of its sessions may come back to its seat), or the guest session
    /// (`guest:TOKEN`).
    who: String,
    /// The account's key, or none for a guest.
    account: Option<String>,
    /// The epoch of the account's sessions it was welcomed under: what it asks of the ledger names it, so nothing it
    /// asks is done once the account's sessions have ended.
    epoch: i64,
    table: Option<TableHandle>,
    /// What it may still send.
    allowance: protocol::Allowance,
    /// What ends this connection from outside, until `hello` files it for an account.
    end: Option<oneshot::Sender<Option<ServerMessage>>>,
    /// Where the player comes from, as the ledger keeps it for a ban by address (none: a proxy on this machine that
    /// did not say).
    address: Option<String>,
    /// The looks of the names whose chat this player does not see.
    blocks: table::Blocks,
}

impl Connection {
    fn new(shared: Arc<Shared>, address: Option<String>) -> Connection {
        let id = shared.next_conn.fetch_add(1, Ordering::Relaxed);
        Connection {
            shared,
            id,
            name: None,
            token: String::new(),
            who: String::new(),
            account: None,
            epoch: 0,
            table: None,
            allowance: protocol::Allowance::server(std::time::Instant::now()),
            end: None,
            address,
            blocks: table::Blocks::default(),
        }
    }

    async fn run(mut self, mut socket: WebSocket) {
        let (out, mut inbox) = mpsc::channel::<table::Outgoing>(1024);
        let hello_by = Instant::now() + HELLO_TIME;
        // An account's connection can be ended from outside (logout, a new password): `hello` files the sender
        // where `Shared::end_account` finds it, in the same breath as the session.
        let (end, mut ended) = oneshot::channel::<Option<ServerMessage>>();
        self.end = Some(end);
        let mut session_ended = false;
        loop {
            let waiting_for_hello = self.name.is_none();
            tokio::select! {
                incoming = socket.recv() => {
                    let text = match incoming {
                        Some(Ok(Message::Text(text))) => text,
                        Some(Ok(Message::Binary(_))) => {
                            let refused = refusal(Refusal::BadMessage, "messages are JSON in text frames");
                            if send(&mut socket, &self.shared.metrics, &refused).await.is_err() {
                                break;
                            }
                            continue;
                        }
                        Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                        // Closed, or a frame the WebSocket layer refused (too big, not UTF-8): it has said why.
                        Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                    };
                    let answer = self.answer(text.as_str(), &out).await;
                    if let Some(answer) = answer
                        && send(&mut socket, &self.shared.metrics, &answer).await.is_err()
                    {
                        break;
                    }
                }
                Some(message) = inbox.recv() => {
                    // News comes in bursts: what is already queued goes out with it, in one write. The last message
                    // a table sends a displaced connection goes out, and the connection closes.
                    let mut last = false;
                    let mut next = Some(message);
                    let mut burst = Ok(());
                    while burst.is_ok() && let Some(message) = next.take() {
                        let text = match message {
                            table::Outgoing::Text(text) => text,
                            table::Outgoing::Last(text) => {
                                last = true;
                                text
                            }
                            table::Outgoing::Away(table, text) => {
                                self.sent_away(&table);
                                text
                            }
                        };
                        burst = socket.feed(Message::Text(text)).await;
                        next = if last { None } else { inbox.try_recv().ok() };
                    }
                    if burst.is_err() || socket.flush().await.is_err() {
                        break;
                    }
                    if last {
                        // The table has given the seat to another session: this one has nothing left there.
                        self.table = None;
                        break;
                    }
                }
                result = &mut ended, if self.end.is_none() => {
                    // Sent: the session was ended. Dropped unsent: the server is going away.
                    if let Ok(said) = result {
                        let why = "this session has ended (logged out, or the password was changed): log in again";
                        let said = said.unwrap_or_else(|| refusal(Refusal::SessionEnded, why));
                        let _ = send(&mut socket, &self.shared.metrics, &said).await;
                        session_ended = true;
                    }
                    break;
                }
                () = tokio::time::sleep_until(hello_by), if waiting_for_hello => {
                    let refused = refusal(Refusal::NotIntroduced, "say hello first, within 10 seconds");
                    let _ = send(&mut socket, &self.shared.metrics, &refused).await;
                    break;
                }
            }
        }
        if let Ok(mut ends) = self.shared.ends.lock() {
            ends.remove(&self.id);
        }
        if let Some(table) = self.table.take() {
            // A session that was ended has already given up its seat: it left, it did not drop.
            let gone = ToTable::Gone {
                conn: self.id,
                dropped: !session_ended,
                done: None,
            };
            let _ = table.tx.send(gone).await;
        }
        if self.name.is_some()
            && let Ok(mut sessions) = self.shared.sessions.lock()
            && let Some(session) = sessions.get_mut(&self.token)
            && session.live == Some(self.id)
        {
            session.live = None;
            session.gone_at = Some(Instant::now());
        }
    }

    /// Takes one message in; the answer, if it has one of its own (table news comes through the inbox).
    async fn answer(&mut self, text: &str, out: &table::Outbox) -> Option<ServerMessage> {
        let read = std::time::Instant::now();
        if !self.allowance.take(std::time::Instant::now()) {
            return Some(refusal(Refusal::TooFast, "too many messages; slow down"));
        }
        let message = match protocol::parse(text) {
            Ok(message) => message,
            Err((code, why)) => return Some(refusal(code, &why)),
        };
        self.shared.metrics.command(&message);
        let Some(name) = self.name.clone() else {
            let (welcome, back) = self.hello(message).await;
            if let Some((table, since)) = back {
                self.come_back(name_of(&welcome), table, since, out).await;
            }
            return Some(welcome);
        };
        let to_table = match message {
            ClientMessage::Hello { .. } => {
                return Some(refusal(Refusal::NotIntroduced, "hello comes once"));
            }
            ClientMessage::Lobby {} => {
                return Some(ServerMessage::Lobby {
                    tables: listings(&self.shared).await,
                });
            }
            ClientMessage::Sit { table, seat } => {
                return self.join(name, table, Some(seat), out).await;
            }
            ClientMessage::Watch { table } => return self.join(name, table, None, out).await,
            ClientMessage::Bet { amount, side_bets } => {
                if let Some(refused) = self.session_over().await {
                    return Some(refused);
                }
                let mut side = crate::engine::side::SideStakes::default();
                for (i, stake) in side_bets.iter().enumerate() {
                    if side_bets[..i].iter().any(|s| s.bet == stake.bet) {
                        return Some(refusal(
                            Refusal::BadMessage,
                            &format!("{} is named twice in one bet", stake.bet.name()),
                        ));
                    }
                    side.set(stake.bet, stake.amount);
                }
                ToTable::Bet {
                    conn: self.id,
                    amount,
                    side,
                    read,
                }
            }
            ClientMessage::Play { action } => ToTable::Play {
                conn: self.id,
                action,
                read,
            },
            ClientMessage::Stand {} => ToTable::Stand { conn: self.id },
            ClientMessage::Reset {} if self.table.is_none() => {
                return Some(self.reset_away().await);
            }
            ClientMessage::Reset {} => ToTable::Reset { conn: self.id },
            ClientMessage::Chat { text } => match protocol::check_chat(&text) {
                Ok(text) => match self.say(&name, text).await {
                    Ok(chat) => chat,
                    Err(refused) => return Some(refused),
                },
                Err(why) => return Some(refusal(Refusal::BadChat, &why)),
            },
            ClientMessage::Moderate {
                action,
                name: whom,
                seconds,
                reason,
                address,
                table,
            } => {
                let order = ledger::Order {
                    action,
                    name: whom,
                    seconds,
                    reason,
                    address,
                    table: table.or_else(|| self.table.as_ref().map(|t| t.id.clone())),
                };
                return Some(self.moderate(order).await);
            }
            ClientMessage::Report { name: whom, reason } => {
                return Some(self.report(&name, &whom, &reason).await);
            }
            ClientMessage::Block { name: whom } => return Some(self.block(&whom, true).await),
            ClientMessage::Unblock { name: whom } => return Some(self.block(&whom, false).await),
        };
        match &self.table {
            Some(table) => {
                let _ = table.tx.send(to_table).await;
                None
            }
            None => Some(refusal(
                Refusal::NotSeated,
                "join a table first (sit or watch)",
            )),
        }
    }

    /// Why a bet of this connection's is refused, when its account's sessions have ended on another server sharing
    /// the ledger and this one has not heard yet (a NOTIFY takes a moment; a bet sent after the logout was answered
    /// must not be taken). The ledger says: one read of the account's epoch, only where servers share a ledger (a lone
    /// server's tables hear its own logouts before it answers them). A play within a round already dealt is not asked
    /// about: the round plays out, and the seat gets up when it ends.
    async fn session_over(&self) -> Option<ServerMessage> {
        let key = self.account.as_ref()?;
        if !self.shared.store.shared_by_servers() {
            return None;
        }
        match self.shared.store.epoch_of(key).await {
            Ok(Some(epoch)) if epoch == self.epoch => None,
            Ok(_) => Some(refusal(
                Refusal::SessionEnded,
                &ledger::LedgerError::SessionEnded.to_string(),
            )),
            Err(e) => Some(self.ledger_down(&e)),
        }
    }

    /// The ledger failed: the client hears that, the log hears why.
    fn ledger_down(&self, e: &ledger::LedgerError) -> ServerMessage {
        self.shared.store.failed("answering a connection", e);
        refusal(
            Refusal::Unavailable,
            "the server's ledger is not answering; try again soon",
        )
    }

    /// An account's reset away from any table: its bankroll back to the starting stake, at most once an hour.
    async fn reset_away(&self) -> ServerMessage {
        let Some(key) = &self.account else {
            return refusal(Refusal::NotSeated, "take a seat to reset your balance");
        };
        let reset = self
            .shared
            .store
            .reset(key, None, Some(self.epoch), self.shared.stake)
            .await;
        match reset {
            Ok(_) => match self.shared.store.account(key).await {
                Ok(Some(account)) => ServerMessage::Balance {
                    chips: account.chips,
                    highscore: account.highscore,
                },
                Ok(None) => refusal(Refusal::NoReset, "no such account"),
                Err(e) => self.ledger_down(&e),
            },
            Err(ledger::LedgerError::SessionEnded) => refusal(
                Refusal::SessionEnded,
                &ledger::LedgerError::SessionEnded.to_string(),
            ),
            Err(e) if !e.is_outage() => refusal(Refusal::NoReset, &e.to_string()),
            Err(e) => self.ledger_down(&e),
        }
    }

    /// Back after a dropped connection: into the seat held for the session, else watching the table it was at.
    async fn come_back(
        &mut self,
        name: String,
        table: String,
        since: Option<u64>,
        out: &table::Outbox,
    ) {
        let Some(handle) = self.shared.tables.get(&table).cloned() else {
            return;
        };
        let (reply, answer) = oneshot::channel();
        let resume = ToTable::Resume {
            conn: self.id,
            who: self.who.clone(),
            since,
            out: out.clone(),
            blocks: self.blocks.clone(),
            reply,
        };
        if handle.tx.send(resume).await.is_ok() && answer.await == Ok(true) {
            self.table = Some(handle);
        } else {
            let _ = self.join(name, table, None, out).await;
        }
    }

    async fn join(
        &mut self,
        name: String,
        table: String,
        seat: Option<crate::engine::SeatId>,
        out: &table::Outbox,
    ) -> Option<ServerMessage> {
        let Some(handle) = self.shared.tables.get(&table).cloned() else {
            return Some(refusal(
                Refusal::NoSuchTable,
                &format!("there is no table {table:?}"),
            ));
        };
        if let Some(refused) = self.kept_from(&name, &table, seat.is_some()).await {
            return Some(refused);
        }
        self.leave_table().await;
        let (reply, answer) = oneshot::channel();
        let join = ToTable::Join {
            conn: self.id,
            who: self.who.clone(),
            account: self.account.clone().map(|key| (key, self.epoch)),
            name,
            seat,
            out: out.clone(),
            blocks: self.blocks.clone(),
            reply,
        };
        if handle.tx.send(join).await.is_err() {
            return Some(refusal(Refusal::NoSuchTable, "that table has closed"));
        }
        match answer.await {
            Ok(Ok(())) => {
                self.table = Some(handle);
                if let Ok(mut sessions) = self.shared.sessions.lock()
                    && let Some(session) = sessions.get_mut(&self.token)
                {
                    session.table = Some(table);
                }
                None
            }
            Ok(Err((code, why))) => Some(refusal(code, &why)),
            Err(_) => Some(refusal(Refusal::NoSuchTable, "that table has closed")),
        }
    }

    /// Moves on from the table the connection is at (getting up from any seat).
    /// Waits until the table has written what leaving changed (an account's chips free to sit elsewhere).
    async fn leave_table(&mut self) {
        if let Some(table) = self.table.take() {
            let (done, written) = oneshot::channel();
            let gone = ToTable::Gone {
                conn: self.id,
                dropped: false,
                done: Some(done),
            };
            if table.tx.send(gone).await.is_ok() {
                let _ = written.await;
            }
        }
    }
}

/// Where a player comes from, as a ban by address takes it: one client as the limits count it (`api::client_of`).
/// A connection from this machine's loopback is a proxy's when it says whom it forwards (`X-Forwarded-For`, its last
/// entry: the address the proxy itself saw); from `127.0.0.1` or `::1` saying nothing, it is a proxy's that did not
/// say, and no address is kept (a ban on it would be a ban on everyone behind it).
fn player_address(peer: IpAddr, headers: &axum::http::HeaderMap) -> Option<String> {
    if !peer.is_loopback() {
        return Some(api::client_of(peer).to_string());
    }
    let forwarded = headers
        .get("x-forwarded-for")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.rsplit(',').next())
        .and_then(|v| v.trim().parse::<IpAddr>().ok());
    match forwarded {
        Some(player) => Some(api::client_of(player).to_string()),
        None if peer == IpAddr::from([127, 0, 0, 1])
            || peer == IpAddr::from(std::net::Ipv6Addr::LOCALHOST) =>
        {
            None
        }
        None => Some(api::client_of(peer).to_string()),
    }
}

/// The name a `welcome` gives.
fn name_of(welcome: &ServerMessage) -> String {
    match welcome {
        ServerMessage::Welcome { name, .. } => name.clone(),
        _ => String::new(),
    }
}

fn refusal(code: Refusal, message: &str) -> ServerMessage {
    ServerMessage::Refused {
        code,
        message: message.to_string(),
    }
}

/// Sends one message, a refusal counted by its reason.
async fn send(
    socket: &mut WebSocket,
    metrics: &Metrics,
    message: &ServerMessage,
) -> Result<(), ()> {
    if let ServerMessage::Refused { code, .. } = message {
        metrics.refused(*code);
    }
    socket
        .send(Message::Text(table::json(message)))
        .await
        .map_err(|_| ())
}
