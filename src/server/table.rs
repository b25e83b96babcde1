//! One table: a task that owns its host and applies what its people ask for one message at a time. It deals when
//! every person seated has bet (or the betting time is up), gives each person the table's time to act (then plays
//! the safe choice for them: stand, or decline the offer), lets the companions act, and sends every member the news,
//! numbered without gaps.

use super::protocol::{Listing, Refusal, ServerMessage, Timer};
use crate::engine::{Action, Command, Event, MAX_SEATS, Phase, SeatId, Table, TableState, Viewer};
use crate::host::{Host, News, Occupant};
use crate::level::Level;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

/// How long a table waits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pace {
    /// For bets, from the first chance to bet.
    pub bet: Duration,
    /// For a person to act.
    pub turn: Duration,
    /// Before a companion acts (so people can follow).
    pub companion: Duration,
}

impl Default for Pace {
    fn default() -> Pace {
        Pace {
            bet: Duration::from_secs(20),
            turn: Duration::from_secs(30),
            companion: Duration::from_millis(600),
        }
    }
}

/// A connection's number.
pub type ConnId = u64;

/// Where the table sends a member's messages.
pub type Outbox = mpsc::Sender<Arc<ServerMessage>>;

/// What a connection asks of a table.
#[derive(Debug)]
pub enum ToTable {
    /// Sit at `seat`, or watch when none; the answer says whether.
    Join {
        /// Who.
        conn: ConnId,
        /// Under what name.
        name: String,
        /// Where, or none to watch.
        seat: Option<SeatId>,
        /// Their messages.
        out: Outbox,
        /// Done, or why not.
        reply: oneshot::Sender<Result<(), (Refusal, String)>>,
    },
    /// A bet.
    Bet {
        /// Who.
        conn: ConnId,
        /// How much.
        amount: crate::engine::Cents,
    },
    /// A decision.
    Play {
        /// Who.
        conn: ConnId,
        /// What.
        action: Action,
    },
    /// Get up and watch.
    Stand {
        /// Who.
        conn: ConnId,
    },
    /// A chat line, already checked.
    Chat {
        /// Who.
        conn: ConnId,
        /// What.
        text: String,
    },
    /// The connection has gone, or moved to another table.
    Gone {
        /// Who.
        conn: ConnId,
    },
}

/// A table as the rest of the server sees it: where to send, and its lobby line.
#[derive(Clone, Debug)]
pub struct TableHandle {
    /// Its inbox.
    pub tx: mpsc::Sender<ToTable>,
    /// Its line in the lobby, kept current by the table.
    pub listing: Arc<Mutex<Listing>>,
}

struct Member {
    name: String,
    out: Outbox,
    seat: Option<SeatId>,
}

/// What the table is waiting for, and until when.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Waiting {
    Bets,
    Person(SeatId),
    Companion,
}

struct TableTask {
    id: String,
    level: Level,
    host: Host,
    pace: Pace,
    members: HashMap<ConnId, Member>,
    seq: u64,
    deadline: Option<(Instant, Waiting)>,
    /// People who asked to get up (or left) during a round: they go when it ends.
    leaving: Vec<SeatId>,
    listing: Arc<Mutex<Listing>>,
}

/// Opens the table of `level` (its companions seated) as a task; `seed` seeds its shoe and companions.
pub fn open(id: String, level: Level, seed: u64, pace: Pace) -> Result<TableHandle, String> {
    let table = Table::new(
        level.rules.rules(),
        crate::engine::seed_from_number(seed),
        level.house_bankroll,
    )
    .map_err(|e| format!("{id}: {e}"))?;
    let mut host = Host::new(table, level.companions.clone(), seed, 0);
    host.seat_regulars();
    let listing = Arc::new(Mutex::new(Listing {
        id: id.clone(),
        name: level.name.clone(),
        rules: level.rules.rules().to_string(),
        min_bet: level.rules.rules().min_bet,
        max_bet: level.rules.rules().max_bet,
        people: 0,
        companions: 0,
        spectators: 0,
    }));
    let (tx, rx) = mpsc::channel(1024);
    let task = TableTask {
        id,
        level,
        host,
        pace,
        members: HashMap::new(),
        seq: 0,
        deadline: None,
        leaving: Vec::new(),
        listing: listing.clone(),
    };
    task.update_listing();
    tokio::spawn(task.run(rx));
    Ok(TableHandle { tx, listing })
}

impl TableTask {
    async fn run(mut self, mut rx: mpsc::Receiver<ToTable>) {
        loop {
            let deadline = self.deadline;
            tokio::select! {
                message = rx.recv() => match message {
                    Some(message) => self.handle(message),
                    None => return,
                },
                () = sleep_until(deadline.map(|(at, _)| at)) => self.time_up(),
            }
            self.advance();
            self.update_listing();
        }
    }

    fn handle(&mut self, message: ToTable) {
        match message {
            ToTable::Join {
                conn,
                name,
                seat,
                out,
                reply,
            } => {
                let joined = self.join(conn, name, seat, out);
                let _ = reply.send(joined);
            }
            ToTable::Bet { conn, amount } => {
                let Some(seat) = self.seat_of(conn) else {
                    return self.refuse(conn, Refusal::NotSeated, "watchers don't bet");
                };
                if self.leaving.contains(&seat) {
                    return self.refuse(conn, Refusal::NotSeated, "you are getting up");
                }
                match self.host.apply(Command::Bet { seat, amount }) {
                    Ok(news) => self.tell(news),
                    Err(e) => self.refuse(conn, Refusal::NotAllowed, &e.to_string()),
                }
            }
            ToTable::Play { conn, action } => {
                let Some(seat) = self.seat_of(conn) else {
                    return self.refuse(conn, Refusal::NotSeated, "watchers don't play");
                };
                if self.host.seat_to_act() != Some(seat) {
                    return self.refuse(conn, Refusal::NotAllowed, "it isn't your turn");
                }
                let command = action.command(seat, self.host.max_insurance(seat));
                match self.host.apply(command) {
                    Ok(news) => {
                        self.deadline = None;
                        self.tell(news);
                    }
                    Err(e) => self.refuse(conn, Refusal::NotAllowed, &e.to_string()),
                }
            }
            ToTable::Stand { conn } => match self.seat_of(conn) {
                Some(seat) => self.get_up(seat),
                None => self.refuse(conn, Refusal::NotSeated, "you have no seat"),
            },
            ToTable::Chat { conn, text } => {
                if let Some(member) = self.members.get(&conn) {
                    let line = Arc::new(ServerMessage::Chat {
                        from: member.name.clone(),
                        text,
                    });
                    self.send_all(line);
                }
            }
            ToTable::Gone { conn } => {
                // Mid-round, the seat plays on by the clock (stands) and empties when the round ends.
                if let Some(seat) = self.seat_of(conn) {
                    self.get_up(seat);
                }
                self.members.remove(&conn);
            }
        }
    }

    fn join(
        &mut self,
        conn: ConnId,
        name: String,
        seat: Option<SeatId>,
        out: Outbox,
    ) -> Result<(), (Refusal, String)> {
        if let Some(seat) = seat {
            if usize::from(seat) >= MAX_SEATS {
                return Err((
                    Refusal::SeatUnavailable,
                    format!("seats are numbered 0 to {}", MAX_SEATS - 1),
                ));
            }
            if !self.host.is_free(seat) {
                return Err((Refusal::SeatUnavailable, format!("seat {seat} is taken")));
            }
            if self.host.phase() != Phase::Betting {
                return Err((
                    Refusal::SeatUnavailable,
                    "a seat can be taken between rounds; watch until this one ends".to_string(),
                ));
            }
            let news = self
                .host
                .sit(seat, Occupant::person(name.clone(), self.level.buy_in))
                .map_err(|e| (Refusal::SeatUnavailable, e.to_string()))?;
            self.tell(news);
        }
        let view = self.host.view(seat.map_or(Viewer::Spectator, Viewer::Seat));
        let joined = ServerMessage::Joined {
            table: self.id.clone(),
            seat,
            seq: self.seq,
            view: Box::new(view),
            names: self.host.names().seats.to_vec(),
        };
        let _ = out.try_send(Arc::new(joined));
        self.members.insert(conn, Member { name, out, seat });
        Ok(())
    }

    fn seat_of(&self, conn: ConnId) -> Option<SeatId> {
        self.members.get(&conn).and_then(|m| m.seat)
    }

    /// A person gets up: now between rounds, else when the round ends.
    fn get_up(&mut self, seat: SeatId) {
        if self.host.phase() == Phase::Betting {
            if let Ok((_, news)) = self.host.leave(seat) {
                self.tell(news);
            }
            for member in self.members.values_mut() {
                if member.seat == Some(seat) {
                    member.seat = None;
                }
            }
        } else if !self.leaving.contains(&seat) {
            self.leaving.push(seat);
        }
    }

    /// The table's clock ran out: the safe choice for a silent person, a companion's move, or the deal.
    fn time_up(&mut self) {
        let Some((_, waiting)) = self.deadline.take() else {
            return;
        };
        match waiting {
            Waiting::Person(seat) if self.host.seat_to_act() == Some(seat) => {
                if let Some(action) = self.host.legal_actions(seat).when_silent()
                    && let Ok(news) = self
                        .host
                        .apply(action.command(seat, self.host.max_insurance(seat)))
                {
                    self.tell(news);
                }
            }
            Waiting::Companion => {
                if let Some(Ok(news)) = self.host.act() {
                    self.tell(news);
                }
            }
            Waiting::Bets => self.deal(true),
            Waiting::Person(_) => {}
        }
    }

    /// Deals when every person seated has bet, or when the betting time is up (those who have not bet sit the
    /// round out; the companions play).
    fn deal(&mut self, time_up: bool) {
        let people: Vec<SeatId> = self.people().collect();
        let bet = |s: &SeatId| self.host.seats()[usize::from(*s)].bet.is_positive();
        let all = !people.is_empty() && people.iter().all(bet);
        if !(all || time_up) {
            return;
        }
        let news = self.host.place_bets();
        self.tell(news);
        if let Ok(news) = self.host.apply(Command::Deal) {
            self.deadline = None;
            self.tell(news);
        }
    }

    /// Seats a person sits in.
    fn people(&self) -> impl Iterator<Item = SeatId> + '_ {
        self.host
            .occupants()
            .filter(|(_, o)| o.person)
            .map(|(seat, _)| seat)
    }

    /// Moves the table on as far as it goes without anyone: between rounds, the leavers go, companions come and go,
    /// the deal when everyone has bet; in a round, companions' moves and the timers.
    fn advance(&mut self) {
        for _ in 0..1_000 {
            if self.host.phase() == Phase::Betting {
                for seat in std::mem::take(&mut self.leaving) {
                    self.get_up(seat);
                }
                let news = self.host.between_rounds(false);
                self.tell(news);
                if self.people().next().is_none() {
                    self.deadline = None;
                    return;
                }
                let round = self.host.round();
                self.deal(false);
                if self.host.round() != round {
                    continue;
                }
                if self.deadline.is_none() {
                    self.start(Waiting::Bets, self.pace.bet);
                }
                return;
            }
            let Some(seat) = self.host.seat_to_act() else {
                return;
            };
            if self.host.mind_to_act() == Some(seat) {
                if self.pace.companion.is_zero() {
                    match self.host.act() {
                        Some(Ok(news)) => self.tell(news),
                        _ => return,
                    }
                    continue;
                }
                if self.deadline.is_none() {
                    self.start(Waiting::Companion, self.pace.companion);
                }
                return;
            }
            if self.deadline.map(|(_, w)| w) != Some(Waiting::Person(seat)) {
                self.start(Waiting::Person(seat), self.pace.turn);
            }
            return;
        }
    }

    /// Starts a timer; people are told of the ones that wait for them.
    fn start(&mut self, waiting: Waiting, wait: Duration) {
        self.deadline = Some((Instant::now() + wait, waiting));
        let timer = match waiting {
            Waiting::Bets => Timer {
                seat: None,
                ms: wait.as_millis() as u64,
            },
            Waiting::Person(seat) => Timer {
                seat: Some(seat),
                ms: wait.as_millis() as u64,
            },
            Waiting::Companion => return,
        };
        self.send_all(Arc::new(ServerMessage::Clock(timer)));
    }

    /// Sends news to every member, numbered.
    fn tell(&mut self, news: Vec<News>) {
        for item in news {
            if let News::Event(Event::RoundEnded { .. }) = item {
                self.deadline = None;
            }
            self.seq += 1;
            let message = Arc::new(ServerMessage::News {
                seq: self.seq,
                news: item,
            });
            self.send_all(message);
        }
    }

    fn send_all(&mut self, message: Arc<ServerMessage>) {
        // A member whose messages pile up unread is dropped rather than let the table wait or grow without bound.
        let mut stuck = Vec::new();
        for (conn, member) in &self.members {
            if member.out.try_send(message.clone()).is_err() {
                stuck.push(*conn);
            }
        }
        for conn in stuck {
            self.members.remove(&conn);
        }
    }

    fn refuse(&mut self, conn: ConnId, code: Refusal, message: &str) {
        if let Some(member) = self.members.get(&conn) {
            let _ = member.out.try_send(Arc::new(ServerMessage::Refused {
                code,
                message: message.to_string(),
            }));
        }
    }

    fn update_listing(&self) {
        let people = self.people().count() as u8;
        let companions = self.host.occupants().count() as u8 - people;
        let spectators = self.members.values().filter(|m| m.seat.is_none()).count() as u32;
        if let Ok(mut listing) = self.listing.lock() {
            listing.people = people;
            listing.companions = companions;
            listing.spectators = spectators;
        }
    }
}

/// Sleeps until `at`, or forever.
async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}
