//! The wire, each frame: connect when wanted (again after a drop, with back-off), say hello, send what is queued once
//! welcomed, and take in what the server and the HTTP API said; refusals said in words.

use super::*;

/// The wire: connects when wanted (again after a drop, with back-off), says hello, sends what is queued once
/// welcomed, and takes in what the server and the HTTP API said.
pub(super) fn pump(
    mut link: NonSendMut<Link>,
    mut online: ResMut<Online>,
    mut casino: ResMut<Casino>,
    screen: Res<State<Screen>>,
    time: Res<Time<Real>>,
) {
    let now = time.elapsed_secs_f64();
    let online = &mut *online;
    let casino = &mut *casino;
    for (asked, answer) in online.requests.take() {
        casino.asking.retain(|a| *a != asked);
        answered(online, casino, asked, answer);
    }
    if !online.wanted {
        if let Some(connection) = link.0.take() {
            connection.close();
        }
        if casino.status != Status::Offline {
            casino.status = Status::Offline;
        }
        return;
    }
    // Moving to another of the casino's servers: the connection here ends, and the next one is there.
    if online.moving {
        online.moving = false;
        if let Some(connection) = link.0.take() {
            connection.close();
        }
        casino.status = Status::Offline;
        casino.welcomed = None;
    }
    let due = match &casino.status {
        Status::Offline => true,
        Status::Lost { retry_at, .. } => now >= *retry_at,
        Status::Connecting { .. } | Status::Open => false,
    };
    // Not while the game loads: its frames can be seconds apart there (a browser compiling shaders in software),
    // and a connection would wait on them.
    if link.0.is_none() && due && *screen.get() != Screen::Loading {
        match Connection::open(
            &online.address.ws,
            online.record_frames,
            &online.requests.wake,
        ) {
            Ok(connection) => {
                link.0 = Some(connection);
                if !matches!(casino.status, Status::Lost { .. }) {
                    casino.status = Status::Connecting { since: now };
                }
            }
            Err(why) => online.lost(casino, why, now),
        }
    }
    let Some(connection) = link.0.as_mut() else {
        return;
    };
    let mut dropped = None;
    let mut refused = false;
    for heard in connection.poll() {
        match heard {
            Heard::Opened => {
                // The hello gets its own time to be answered.
                if let Status::Connecting { since } = &mut casino.status {
                    *since = now;
                }
                let (name, token) = match (&online.guest, &online.login) {
                    _ if online.seat_token.is_some() => (String::new(), online.seat_token.clone()),
                    (Some(name), _) => (name.clone(), None),
                    (None, Some(login)) => (String::new(), Some(login.token.clone())),
                    (None, None) => (String::new(), None),
                };
                let since = casino.table.as_ref().map(|_| online.seq);
                connection.send(&ClientMessage::Hello {
                    version: VERSION,
                    name,
                    token,
                    since,
                });
            }
            Heard::Message(message) => {
                // Welcomed is open at once, even while the game is still loading (the rest of the welcome, and
                // everything after it, is taken in once it has loaded).
                if let ServerMessage::Welcome { token, .. } = &message {
                    if matches!(casino.status, Status::Lost { .. }) {
                        casino.hear_chat(ChatLine {
                            from: None,
                            text: "Connected again.".into(),
                        });
                    }
                    casino.status = Status::Open;
                    online.was_open = true;
                    online.seat_token = Some(token.clone());
                }
                if let ServerMessage::Refused { code, message } = &message
                    && (casino.status != Status::Open
                        || matches!(
                            code,
                            Refusal::SessionEnded | Refusal::TakenOver | Refusal::Banned
                        ))
                {
                    refused_at_hello(online, casino, *code, message);
                    refused = true;
                    break;
                }
                online.inbox.push_back(message);
            }
            Heard::Garbled(why) => casino.say(why),
            Heard::Closed(why) => dropped = Some(why),
        }
    }
    if let Some(frames) = connection.frames.as_mut() {
        online.frames.append(frames);
    }
    if dropped.is_none()
        && let Status::Connecting { since }
        | Status::Lost {
            retry_at: since, ..
        } = casino.status
        && now - since > CONNECT_SECONDS
    {
        dropped = Some(format!(
            "no answer in {CONNECT_SECONDS:.0} seconds (is the server running, and is the address right?)"
        ));
    }
    if refused || dropped.is_some() {
        if let Some(connection) = link.0.take() {
            connection.close();
        }
        // Refused at hello, the player has been told; a drop is retried (or said, the first time).
        if let Some(why) = dropped.filter(|_| !refused) {
            online.lost(casino, why, now);
        }
        return;
    }
    if casino.status == Status::Open {
        while let Some(message) = online.outbox.pop_front() {
            connection.send(&message);
        }
    }
}

/// An HTTP answer: a session, the leaderboard, the player's hands.
pub(super) fn answered(
    online: &mut Online,
    casino: &mut Casino,
    asked: Asked,
    answer: link::Answer,
) {
    #[derive(Deserialize)]
    struct Session {
        name: String,
        token: String,
    }
    match (asked, answer) {
        (Asked::Login, Ok(text)) => match serde_json::from_str::<Session>(&text) {
            Ok(session) => {
                let login = Login {
                    server: online.address.ws.clone(),
                    name: session.name,
                    token: session.token,
                };
                if online.keep_login
                    && let Some(store) = Store::platform()
                    && let Ok(text) = serde_json::to_string(&login)
                    && let Err(e) = store.write(LOGIN_FILE, &text)
                {
                    warn!("online: the session is not kept for next time: {e}");
                }
                casino.account = Some(login.name.clone());
                online.login = Some(login);
                online.connect(casino, None);
            }
            Err(e) => casino.say(format!("the casino's answer to logging in: {e}")),
        },
        (Asked::Leaderboard, answer) => {
            casino.leaderboard = Some(answer.map_err(|e| e.to_string()).and_then(|text| {
                serde_json::from_str(&text).map_err(|e| format!("the leaderboard: {e}"))
            }));
        }
        (Asked::History, answer) => {
            casino.history = Some(answer.map_err(|e| e.to_string()).and_then(|text| {
                serde_json::from_str(&text).map_err(|e| format!("your hands: {e}"))
            }));
        }
        (Asked::Hand, Ok(text)) => match serde_json::from_str::<crate::protocol::Replay>(&text) {
            Ok(kept) => {
                let path = crate::protocol::Replay::path(&kept.table, kept.round);
                online.kept_round = Some(Replayed::Casino {
                    link: online.address.page(&path),
                    kept: std::sync::Arc::new(kept),
                });
            }
            Err(e) => casino.say(format!("The round the casino sent does not read: {e}")),
        },
        (Asked::Hand, Err(why)) => casino.say(format!(
            "Cannot watch that round again: {}",
            crate::host::narrate::capitalise(&why.to_string())
        )),
        (Asked::Login, Err(why)) => {
            casino.unreached = matches!(why, link::Failure::NoAnswer(_));
            casino.say(why.to_string());
        }
        (Asked::Logout, _) => {}
    }
}

/// What the server said, taken in: the lobby, the table (its view opens the felt; its news goes to the beats), the
/// clock, the chat, refusals in words.
#[allow(clippy::too_many_arguments)] // Bevy systems take their world as parameters.
pub(super) fn take_messages(
    mut online: ResMut<Online>,
    mut casino: ResMut<Casino>,
    mut beats: ResMut<Beats>,
    mut slip: ResMut<BetSlip>,
    screen: Res<State<Screen>>,
    arrival: Option<Res<Arrival>>,
    occupants: Res<Occupants>,
    mut next: ResMut<NextState<Screen>>,
    mut commands: Commands,
    time: Res<Time<Real>>,
) {
    let now = time.elapsed_secs_f64();
    // A table being opened takes the news after its view once it is open (the next frame).
    if arrival.is_some() {
        return;
    }
    while let Some(message) = online.inbox.pop_front() {
        match message {
            ServerMessage::Welcome { name, account, .. } => {
                let kind = if account { "an account" } else { "a guest" };
                info!(target: "holecard::online", "welcomed as {name}, {kind}");
                casino.welcomed = Some((name, account));
                casino.problem = None;
                online.outbox.push_front(ClientMessage::Lobby {});
            }
            ServerMessage::Balance { chips, highscore } => {
                casino.balance = Some((chips, highscore));
            }
            ServerMessage::Lobby { tables } => {
                info!(target: "holecard::online", "the lobby lists {} tables", tables.len());
                casino.lobby = tables;
            }
            ServerMessage::Joined {
                table,
                seat,
                seq,
                view,
                names,
                shoe,
            } => {
                casino.shoes.joined(shoe, &view);
                let chips =
                    seat.map(|s| (view.seats()[usize::from(s)].bankroll, view.seat_on_felt(s)));
                match (seat, chips) {
                    (Some(seat), Some((bankroll, felt))) => {
                        info!(
                            target: "holecard::online",
                            "at {table} in seat {} with {bankroll} and {felt} on the felt",
                            seat + 1
                        )
                    }
                    _ => info!(target: "holecard::online", "at {table}, watching"),
                }
                online.seq = seq;
                online.awaiting = false;
                casino.table = Some(AtTable {
                    id: table.clone(),
                    seat,
                });
                let name = casino
                    .lobby
                    .iter()
                    .find(|t| t.id == table)
                    .map(|t| t.name.clone());
                let level = match level_for(&table, name.as_deref(), &view) {
                    Ok(level) => level,
                    Err(e) => {
                        casino.say(format!("the table's look: {e}"));
                        continue;
                    }
                };
                commands.insert_resource(Arrival {
                    table,
                    level,
                    seat,
                    view: *view,
                    names,
                });
                // Re-entering the table if it is up: a fresh view makes a fresh felt.
                next.set(Screen::Table);
                return;
            }
            ServerMessage::News { seq, news } => {
                if seq <= online.seq {
                    continue;
                }
                if casino.table.is_none() || *screen.get() != Screen::Table {
                    // Not followed: the shoe's cards from here cannot be placed.
                    casino.shoes.lost();
                    continue;
                }
                if let Some(checked) = casino.shoes.hear(&news) {
                    info!(target: "holecard::online", "{}", checked.words());
                    casino.hear_chat(ChatLine {
                        from: None,
                        text: checked.words(),
                    });
                    let table = casino.table.as_ref().map(|t| t.id.clone());
                    casino.checked.push((table.unwrap_or_default(), checked));
                }
                online.seq = seq;
                online.awaiting = false;
                if let crate::host::News::Said { seat, line } = &news {
                    let from = occupants.name(*seat);
                    casino.hear_chat(ChatLine {
                        from: Some(from),
                        text: line.clone(),
                    });
                }
                if let crate::host::News::Event(crate::engine::Event::RoundEnded { .. }) = news {
                    casino.clock = None;
                }
                beats.show([news]);
            }
            ServerMessage::Missed { .. } => {}
            ServerMessage::Clock(Timer { seat, ms }) => {
                casino.clock = Some(Clock {
                    seat,
                    ends_at: now + ms as f64 / 1000.0,
                });
            }
            ServerMessage::Chat { from, text } => {
                info!(target: "holecard::chat", "{from}: {text}");
                casino.hear_chat(ChatLine {
                    from: Some(from),
                    text,
                });
            }
            ServerMessage::Notice { text } => {
                info!(target: "holecard::online", "the table says: {text}");
                casino.hear_chat(ChatLine { from: None, text });
            }
            ServerMessage::Refused {
                code: Refusal::SentAway,
                message,
            } if casino.table.is_some() => {
                // A moderator has sent the player away from the table: back to the lobby, told why.
                casino.table = None;
                casino.clock = None;
                casino.back_to_lobby = true;
                casino.say(crate::host::narrate::capitalise(&message));
                next.set(Screen::Title);
            }
            ServerMessage::Refused {
                code: code @ (Refusal::Muted | Refusal::BadChat),
                message,
            } => {
                info!(target: "holecard::online", "refused: {message} ({code:?})");
                casino.hear_chat(ChatLine {
                    from: None,
                    text: crate::host::narrate::capitalise(&message),
                });
            }
            ServerMessage::Refused { code, message } => {
                refused(
                    &mut online,
                    &mut casino,
                    &mut slip,
                    *screen.get(),
                    code,
                    message,
                );
            }
        }
    }
}

/// A refusal of a command, said where the player looks: on the table's bar, or on the page. (A refused hello is
/// taken as it arrives, by `pump`; one taken here may have been sent before a drop, and must not stop the reconnect.)
pub(super) fn refused(
    online: &mut Online,
    casino: &mut Casino,
    slip: &mut BetSlip,
    screen: Screen,
    code: Refusal,
    message: String,
) {
    online.awaiting = false;
    info!(target: "holecard::online", "refused: {message} ({code:?})");
    if screen == Screen::Table && casino.table.is_some() {
        if slip.in_play {
            // The bet did not go down: it is back on the slip, with its side bets.
            slip.in_play = false;
            slip.chips = vec![slip.last_bet];
            slip.sides = slip.last_sides.staked().collect();
        }
        slip.refusal = Some(crate::host::narrate::capitalise(&message));
    } else {
        casino.say(crate::host::narrate::capitalise(&message));
    }
}

/// Refused at hello (a name taken, a session no longer known), the session ended while playing (logged out or a
/// new password, here or on another device), or the seat taken over by another session of the account (another
/// device or tab came back to it): say so and stop, rather than take it back and be taken over again; a session the
/// casino no longer knows is forgotten here too.
pub(super) fn refused_at_hello(
    online: &mut Online,
    casino: &mut Casino,
    code: Refusal,
    message: &str,
) {
    let unknown = code == Refusal::BadName && online.login.is_some() && online.seat_token.is_none();
    if unknown || code == Refusal::SessionEnded {
        online.login = None;
        online.seat_token = None;
        casino.account = None;
        online.forget_the_kept_login();
    }
    online.wanted = false;
    casino.status = Status::Offline;
    casino.say(crate::host::narrate::capitalise(message));
}
