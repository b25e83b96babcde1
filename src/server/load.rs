//! `holecard-lab load`: many bot clients against a running server, as people would be. Each bot makes an account
//! on the fly (`POST /api/register`), says hello with its token, sits at its table (or watches when every seat is
//! taken), bets the table's minimum every round and plays basic strategy from the view it keeps from the news. A
//! command's latency is the time from sending it to receiving the news it caused (its `BetSet` or `Acted`). When
//! given the server's database, the ledger's sums are checked afterwards.

use crate::engine::{BasicStrategy, Event, SeatId, TableState, TableView};
use crate::host::News;
use crate::server::protocol::{Allowance, Listing, ServerMessage};
use futures_util::{SinkExt, StreamExt};
use serde::Serialize;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::{Barrier, Semaphore};
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Message;

/// What to run.
#[derive(Clone, Debug)]
pub struct LoadConfig {
    /// `ws://HOST:PORT` (loopback: this is a tool for the machine the server runs on).
    pub server: String,
    /// Bots.
    pub clients: usize,
    /// Tables to spread them over (the lobby's first ones).
    pub tables: usize,
    /// Rounds each bot plays (or watches) after every bot is at its table.
    pub rounds: u64,
    /// The server's database, to check the ledger afterwards.
    pub database: Option<String>,
    /// The most the whole run may take.
    pub timeout: Duration,
}

/// What a run measured.
#[derive(Clone, Debug, Default, Serialize)]
pub struct LoadReport {
    /// Bots.
    pub clients: usize,
    /// Tables.
    pub tables: usize,
    /// Rounds each bot played from their start (a watcher: watched from the betting on).
    pub rounds: u64,
    /// Bots seated; the rest watched.
    pub seated: usize,
    /// Commands sent (bets and decisions).
    pub commands: u64,
    /// Commands a second, over the play (from every bot at its table to the last one done).
    pub commands_per_sec: f64,
    /// Command sent → its news received, median.
    pub latency_p50_ms: f64,
    /// The same, 99th percentile.
    pub latency_p99_ms: f64,
    /// The same, slowest.
    pub latency_max_ms: f64,
    /// Messages the bots received.
    pub messages: u64,
    /// Commands refused because the table's clock ran out while they travelled (a bet arriving just after the
    /// deal, a decision just after the table stood for the seat): the table was right, the bot was late.
    pub late: u64,
    /// Any other refusal, broken connections, unreadable messages, bots that did not finish, failed
    /// registrations.
    pub errors: u64,
    /// The first few errors, in words.
    pub error_samples: Vec<String>,
    /// Seconds to register and seat every bot.
    pub setup_seconds: f64,
    /// Seconds of play.
    pub play_seconds: f64,
    /// The ledger's sums held afterwards (null when no database was given).
    pub ledger_balanced: Option<bool>,
}

/// What a bot last sent.
#[derive(Clone, Copy, Debug)]
enum Sent {
    Bet,
    Play,
}

/// What one bot saw.
#[derive(Default)]
struct BotResult {
    seated: bool,
    late: u64,
    commands: u64,
    messages: u64,
    latencies_us: Vec<u64>,
    errors: Vec<String>,
    finished_at: Option<Instant>,
}

/// Runs the bots and reports.
pub async fn run(config: &LoadConfig) -> Result<LoadReport, String> {
    let host = config
        .server
        .strip_prefix("ws://")
        .map(|h| h.trim_end_matches('/').to_string())
        .ok_or_else(|| format!("{}: the server is ws://HOST:PORT", config.server))?;
    let (status, body) = http(&host, "GET", "/api/tables", None).await?;
    if status != 200 {
        return Err(format!("GET /api/tables answered {status}: {body}"));
    }
    let lobby: Vec<Listing> =
        serde_json::from_str(&body).map_err(|e| format!("the lobby is not JSON: {e}"))?;
    if lobby.len() < config.tables {
        return Err(format!(
            "the server has {} tables, not {} (start it with --tables-per-level)",
            lobby.len(),
            config.tables
        ));
    }
    let tables: Vec<Listing> = lobby.into_iter().take(config.tables.max(1)).collect();
    let run = crate::engine::os_seed_number().map_err(|e| e.to_string())? % 0xFF_FFFF;
    // Argon2 is the server's costliest request: a few registrations at a time, as a crowd arriving would be.
    let registering = Arc::new(Semaphore::new(4));
    let barrier = Arc::new(Barrier::new(config.clients + 1));
    let started = Instant::now();
    let mut bots = Vec::with_capacity(config.clients);
    for i in 0..config.clients {
        let bot = Bot {
            host: host.clone(),
            name: format!("bot{run:06x}-{i}"),
            table: tables[i % tables.len()].clone(),
            rounds: config.rounds,
        };
        let (registering, barrier) = (registering.clone(), barrier.clone());
        bots.push(tokio::spawn(bot.run(registering, barrier)));
    }
    barrier.wait().await;
    let play_from = Instant::now();
    let setup_seconds = play_from.duration_since(started).as_secs_f64();
    let mut report = LoadReport {
        clients: config.clients,
        tables: tables.len(),
        rounds: config.rounds,
        setup_seconds,
        ..LoadReport::default()
    };
    let mut latencies = Vec::new();
    let mut last = play_from;
    let deadline = started + config.timeout;
    for bot in bots {
        let result = match tokio::time::timeout_at(deadline, bot).await {
            Ok(Ok(result)) => result,
            Ok(Err(e)) => BotResult {
                errors: vec![format!("a bot failed: {e}")],
                ..BotResult::default()
            },
            Err(_) => BotResult {
                errors: vec![format!(
                    "a bot was not done within {} s",
                    config.timeout.as_secs()
                )],
                ..BotResult::default()
            },
        };
        report.seated += usize::from(result.seated);
        report.late += result.late;
        report.commands += result.commands;
        report.messages += result.messages;
        report.errors += result.errors.len() as u64;
        for e in result.errors {
            if report.error_samples.len() < 10 {
                report.error_samples.push(e);
            }
        }
        latencies.extend(result.latencies_us);
        if let Some(at) = result.finished_at {
            last = last.max(at);
        }
    }
    report.play_seconds = last.duration_since(play_from).as_secs_f64();
    report.commands_per_sec = report.commands as f64 / report.play_seconds.max(1e-9);
    latencies.sort_unstable();
    let at = |q: f64| -> f64 {
        if latencies.is_empty() {
            return 0.0;
        }
        let i = ((latencies.len() as f64 - 1.0) * q).round() as usize;
        latencies[i] as f64 / 1_000.0
    };
    report.latency_p50_ms = at(0.50);
    report.latency_p99_ms = at(0.99);
    report.latency_max_ms = at(1.0);
    if let Some(database) = &config.database {
        let store = super::ledger::Store::open_reader(database)
            .await
            .map_err(|e| e.to_string())?;
        let checked = store.check().await.map_err(|e| e.to_string())?;
        for problem in checked.problems.iter().take(5) {
            report.error_samples.push(format!("ledger: {problem}"));
        }
        report.ledger_balanced = Some(checked.balanced());
    }
    Ok(report)
}

/// One bot.
struct Bot {
    host: String,
    name: String,
    table: Listing,
    rounds: u64,
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A bot at its table.
struct Seated {
    socket: Socket,
    allowance: Allowance,
    seat: Option<SeatId>,
    view: TableView,
}

impl Bot {
    async fn run(self, registering: Arc<Semaphore>, barrier: Arc<Barrier>) -> BotResult {
        let mut result = BotResult::default();
        let ready = self.arrive(&registering, &mut result).await;
        barrier.wait().await;
        match ready {
            Ok(at_table) => self.play(at_table, &mut result).await,
            Err(e) => result.errors.push(format!("{}: {e}", self.name)),
        }
        result.finished_at = Some(Instant::now());
        result
    }

    /// Registers, connects and takes a seat (or watches).
    async fn arrive(
        &self,
        registering: &Semaphore,
        result: &mut BotResult,
    ) -> Result<Seated, String> {
        let token = {
            let _turn = registering
                .acquire()
                .await
                .map_err(|e| format!("registering: {e}"))?;
            let credentials =
                serde_json::json!({"name": self.name, "password": "load-test-password"});
            let (status, body) = http(
                &self.host,
                "POST",
                "/api/register",
                Some(&credentials.to_string()),
            )
            .await?;
            if status != 200 {
                return Err(format!("registering answered {status}: {body}"));
            }
            let answer: serde_json::Value =
                serde_json::from_str(&body).map_err(|e| format!("registering: {e}"))?;
            answer["token"]
                .as_str()
                .ok_or("registering gave no token")?
                .to_string()
        };
        // A table of one of several servers behind a proxy is played at its server's path.
        let path = self.table.ws.as_deref().unwrap_or("/ws");
        let url = format!("ws://{}{path}", self.host);
        // A small read buffer: tungstenite zeroes all of it before each read (128 KiB by default).
        let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
            .read_buffer_size(8 * 1024);
        let (mut socket, _) = tokio_tungstenite::connect_async_with_config(url, Some(config), true)
            .await
            .map_err(|e| format!("connecting: {e}"))?;
        let hello = serde_json::json!({"type": "hello", "version": crate::protocol::VERSION, "token": token});
        send(&mut socket, &hello).await?;
        expect(&mut socket, result, |m| {
            matches!(m, ServerMessage::Welcome { .. })
        })
        .await?;
        for seat in 0..crate::engine::MAX_SEATS as SeatId {
            let sit = serde_json::json!({"type": "sit", "table": self.table.id, "seat": seat});
            send(&mut socket, &sit).await?;
            let answer = expect(&mut socket, result, |m| {
                matches!(
                    m,
                    ServerMessage::Joined { .. } | ServerMessage::Refused { .. }
                )
            })
            .await?;
            if let ServerMessage::Joined { seat, view, .. } = answer {
                result.seated = seat.is_some();
                return Ok(Seated {
                    allowance: Allowance::polite(std::time::Instant::now()),
                    socket,
                    seat,
                    view: *view,
                });
            }
        }
        send(
            &mut socket,
            &serde_json::json!({"type": "watch", "table": self.table.id}),
        )
        .await?;
        match expect(&mut socket, result, |m| {
            matches!(m, ServerMessage::Joined { .. })
        })
        .await?
        {
            ServerMessage::Joined { view, .. } => Ok(Seated {
                allowance: Allowance::polite(std::time::Instant::now()),
                socket,
                seat: None,
                view: *view,
            }),
            _ => Err("watching: no joined".to_string()),
        }
    }

    /// Answers the table's clock: a bet of the table's minimum, or basic strategy's play. What it sent, if anything.
    async fn act(
        &self,
        at: &mut Seated,
        strategy: &BasicStrategy,
        seat: SeatId,
        waiting: Option<SeatId>,
        result: &mut BotResult,
    ) -> Result<Option<Sent>, ()> {
        let command = match waiting {
            None if at.view.phase() == crate::engine::Phase::Betting => {
                let min = at.view.rules().min_bet;
                let s = &at.view.seats()[usize::from(seat)];
                (!s.bet.is_positive() && s.chips() >= min)
                    .then(|| (Sent::Bet, serde_json::json!({"type": "bet", "amount": min})))
            }
            Some(_) if at.view.seat_to_act() == Some(seat) => strategy
                .decide(&at.view, seat)
                .and_then(|c| c.action())
                .map(|action| {
                    let play = serde_json::json!({"type": "play", "action": action});
                    (Sent::Play, play)
                }),
            _ => None,
        };
        let Some((sent, command)) = command else {
            return Ok(None);
        };
        // A bot is quicker than a person: it keeps under the server's allowance of messages instead of being
        // refused for going too fast.
        let wait = at.allowance.wait(std::time::Instant::now());
        if !wait.is_zero() {
            tokio::time::sleep(wait).await;
        }
        at.allowance.take(std::time::Instant::now());
        if let Err(e) = send(&mut at.socket, &command).await {
            result.errors.push(format!("{}: {e}", self.name));
            return Err(());
        }
        result.commands += 1;
        Ok(Some(sent))
    }

    /// Plays (or watches) its rounds.
    async fn play(&self, mut at: Seated, result: &mut BotResult) {
        let strategy = BasicStrategy::for_rules(at.view.rules());
        let mut ended = 0;
        // A round counts once the bot took part from its start: a seat's bet was set, or a watcher saw the betting
        // open. A round already under way when the bot sat down (or one it sat out, its bet late) is not one of its
        // rounds.
        let mut in_round = false;
        let mut pending: Option<Instant> = None;
        let quiet = Duration::from_secs(120);
        // The table's clock is the cue: it starts for everyone's bets when a round can be bet on, and for a seat each
        // time the table waits for its decision — always after the news that led there, so the view is current.
        let mut cue: Option<Option<SeatId>> = None;
        let mut last_sent: Option<Sent> = None;
        while ended < self.rounds {
            // With a cue in hand, read first whatever has already arrived (a cue behind later news is stale); act
            // on it once nothing more is waiting, and only where the bot's own view agrees.
            let next = match (at.seat, cue) {
                (Some(seat), Some(waiting)) => {
                    match tokio::time::timeout(Duration::ZERO, at.socket.next()).await {
                        Ok(next) => Ok(next),
                        Err(_) => {
                            cue = None;
                            match self.act(&mut at, &strategy, seat, waiting, result).await {
                                Ok(Some(sent)) => {
                                    pending = Some(Instant::now());
                                    last_sent = Some(sent);
                                }
                                Ok(None) => {}
                                Err(()) => return,
                            }
                            continue;
                        }
                    }
                }
                _ => tokio::time::timeout(quiet, at.socket.next()).await,
            };
            let message = match next {
                Ok(Some(Ok(Message::Text(text)))) => text,
                Ok(Some(Ok(_))) => continue,
                Ok(Some(Err(e))) => {
                    result
                        .errors
                        .push(format!("{}: the connection broke: {e}", self.name));
                    return;
                }
                Ok(None) => {
                    result
                        .errors
                        .push(format!("{}: the server closed the connection", self.name));
                    return;
                }
                Err(_) => {
                    result
                        .errors
                        .push(format!("{}: nothing for {} s", self.name, quiet.as_secs()));
                    return;
                }
            };
            result.messages += 1;
            let message: ServerMessage = match serde_json::from_str(message.as_str()) {
                Ok(message) => message,
                Err(e) => {
                    result
                        .errors
                        .push(format!("{}: an unreadable message: {e}", self.name));
                    continue;
                }
            };
            match message {
                ServerMessage::News { news, .. } => {
                    let News::Event(event) = news else {
                        continue;
                    };
                    if let Err(e) = at.view.apply(&event) {
                        result
                            .errors
                            .push(format!("{}: the news did not follow: {e}", self.name));
                        return;
                    }
                    let mine = match event {
                        Event::BetSet { seat, .. } | Event::Acted { seat, .. } => {
                            let mine = Some(seat) == at.seat;
                            in_round |= mine;
                            mine
                        }
                        Event::RoundEnded { .. } => {
                            ended += u64::from(std::mem::take(&mut in_round));
                            false
                        }
                        _ => false,
                    };
                    if mine && let Some(sent) = pending.take() {
                        result.latencies_us.push(sent.elapsed().as_micros() as u64);
                    }
                }
                ServerMessage::Clock(timer) if timer.seat.is_none() || timer.seat == at.seat => {
                    if at.seat.is_none() {
                        in_round |= timer.seat.is_none()
                            && at.view.phase() == crate::engine::Phase::Betting;
                    }
                    cue = Some(timer.seat);
                }
                ServerMessage::Refused { code, message } => {
                    // The table answers in order: if the news before this refusal already shows the round dealt
                    // (for a bet) or the seat's turn over (for a decision), the clock ran out as the command
                    // travelled. That is late, not wrong; anything else is an error.
                    let late = pending.take().is_some()
                        && at.seat.is_some_and(|seat| match last_sent {
                            Some(Sent::Bet) => at.view.phase() != crate::engine::Phase::Betting,
                            Some(Sent::Play) => at.view.seat_to_act() != Some(seat),
                            None => false,
                        });
                    if late {
                        result.late += 1;
                    } else {
                        result
                            .errors
                            .push(format!("{}: refused ({code:?}): {message}", self.name));
                    }
                }
                _ => {}
            }
        }
        // Up from the table (a connection that only drops keeps its seat a minute), then gone.
        if at.seat.is_some() {
            let _ = send(&mut at.socket, &serde_json::json!({"type": "stand"})).await;
        }
        let _ = at.socket.close(None).await;
    }
}

async fn send(socket: &mut Socket, message: &serde_json::Value) -> Result<(), String> {
    socket
        .send(Message::text(message.to_string()))
        .await
        .map_err(|e| format!("sending: {e}"))
}

/// Reads until a message `wanted` arrives (at most 60 s); a refusal that is not wanted is an error.
async fn expect(
    socket: &mut Socket,
    result: &mut BotResult,
    wanted: impl Fn(&ServerMessage) -> bool,
) -> Result<ServerMessage, String> {
    let until = Instant::now() + Duration::from_secs(60);
    loop {
        let next = tokio::time::timeout_at(until, socket.next())
            .await
            .map_err(|_| "no answer within 60 s".to_string())?;
        let text = match next {
            Some(Ok(Message::Text(text))) => text,
            Some(Ok(_)) => continue,
            Some(Err(e)) => return Err(format!("the connection broke: {e}")),
            None => return Err("the server closed the connection".to_string()),
        };
        result.messages += 1;
        let message: ServerMessage =
            serde_json::from_str(text.as_str()).map_err(|e| format!("unreadable: {e}"))?;
        if wanted(&message) {
            return Ok(message);
        }
        if let ServerMessage::Refused { code, message } = message {
            return Err(format!("refused ({code:?}): {message}"));
        }
    }
}

/// One HTTP/1.1 request over a fresh connection: the status and the body.
async fn http(
    host: &str,
    method: &str,
    path: &str,
    body: Option<&str>,
) -> Result<(u16, String), String> {
    let ask = async {
        let mut stream = tokio::net::TcpStream::connect(host)
            .await
            .map_err(|e| format!("connecting to {host}: {e}"))?;
        let body = body.unwrap_or_default();
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\n\r\n{body}",
            body.len()
        );
        stream
            .write_all(request.as_bytes())
            .await
            .map_err(|e| format!("{method} {path}: {e}"))?;
        let mut answer = Vec::new();
        stream
            .read_to_end(&mut answer)
            .await
            .map_err(|e| format!("{method} {path}: {e}"))?;
        let answer = String::from_utf8_lossy(&answer).into_owned();
        let status = answer
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| format!("{method} {path}: not an HTTP answer"))?;
        let body = answer
            .split_once("\r\n\r\n")
            .map(|(_, b)| b.to_string())
            .unwrap_or_default();
        Ok((status, body))
    };
    tokio::time::timeout(Duration::from_secs(120), ask)
        .await
        .map_err(|_| format!("{method} {path}: no answer within 120 s"))?
}
