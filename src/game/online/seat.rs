//! The player at a casino's table: the table the casino seats the player at put on the felt (its view and names; the
//! server hosts it), a seat taken from the lobby, and the player's bet, decisions and seat changes sent as messages.

use super::*;

/// A table a casino just seated (or re-seated) the player at, as a watcher or in a seat: what the table opens on
/// instead of a table of its own.
#[derive(Resource, Clone, Debug)]
pub struct Arrival {
    /// The table's id at the casino.
    pub table: String,
    /// The level it is shown as (its name, rules and look).
    pub level: crate::host::level::Level,
    /// The player's seat, or none when watching.
    pub seat: Option<SeatId>,
    /// The table from there.
    pub view: TableView,
    /// Who sits where, by name.
    pub names: Vec<Option<String>>,
}

/// Puts a casino's table on the felt on entering the table: its view and names; the server hosts it. The player's own
/// session comes back on returning to the Title.
pub(crate) fn arrive(
    mut session: ResMut<Session>,
    arrival: Option<Res<Arrival>>,
    home: Option<Res<HomeSession>>,
    mut commands: Commands,
    mut occupants: ResMut<Occupants>,
) {
    let Some(arrival) = arrival else {
        return;
    };
    if home.is_none() {
        commands.insert_resource(HomeSession(session.clone()));
    }
    session.level = arrival.level.clone();
    session.player_seat = arrival.seat;
    session.autoplay = false;
    let mut view = arrival.view.clone();
    view.set_viewer(SeatView::viewer(&session));
    for (seat, name) in arrival.names.iter().enumerate().take(occupants.seats.len()) {
        occupants.seats[seat] = name.clone();
    }
    commands.insert_resource(SeatView(view));
    commands.insert_resource(OnlineTable {
        id: arrival.table.clone(),
    });
    commands.remove_resource::<Arrival>();
}

/// The level to show a server's table as: the game's own level of that name (its felt, card backs and words), else
/// one made from the table's rules; named as the lobby names it (`name`), else as the game's level is, else by its id.
pub fn level_for(
    id: &str,
    name: Option<&str>,
    view: &TableView,
) -> Result<crate::host::level::Level, crate::host::level::LevelError> {
    let listed = crate::host::level::catalogue(std::path::Path::new("levels"))
        .into_iter()
        .filter_map(|listing| {
            let stem = listing.path.file_stem()?.to_string_lossy().to_string();
            let level = listing.level.ok()?;
            (id == stem
                || id
                    .strip_prefix(&stem)
                    .is_some_and(|rest| rest.starts_with('-')))
            .then_some(level)
        })
        .next();
    // The built-in level's felt and words stand in for a table the game has no level of.
    let own_name = listed.as_ref().map(|level| level.name.clone());
    let mut level = match listed {
        Some(level) => level,
        None => crate::host::level::Level::load_or_default(None)?,
    };
    level.name = name
        .map(str::to_string)
        .or(own_name)
        .unwrap_or_else(|| id.to_string());
    level.rules = crate::host::level::RuleSource::Custom(view.rules().clone());
    level.companions.clear();
    level.deck_choices.clear();
    level.until_broke = false;
    Ok(level)
}

/// Sitting down from the lobby: once the table is joined as a watcher, take its first free seat.
pub(super) fn sit_on_arrival(
    mut online: ResMut<Online>,
    mut casino: ResMut<Casino>,
    seen: Res<SeatView>,
    occupants: Res<Occupants>,
    beats: Res<Beats>,
) {
    if !online.sit_on_arrival || !beats.settled() {
        return;
    }
    // Not joined yet (the connection may be moving to the server that holds the table): wait for it.
    let Some(table) = casino.table.clone() else {
        return;
    };
    online.sit_on_arrival = false;
    if table.seat.is_some() {
        return;
    }
    match (0..7u8).find(|&seat| occupants.is_free(&seen.0, seat)) {
        Some(seat) => online.send(ClientMessage::Sit {
            table: table.id,
            seat,
        }),
        None => casino.hear_chat(ChatLine {
            from: None,
            text: "Every seat is taken: you are watching.".into(),
        }),
    }
}

/// Building a bet works as at the player's own table; the deal puts it in the circle on the server, which deals when
/// everyone seated has bet (or the betting clock runs out). Out of chips, the player may reset as the server allows.
pub(super) fn bet_online(
    mut intents: MessageReader<Intent>,
    mut online: ResMut<Online>,
    mut slip: ResMut<BetSlip>,
    seen: Res<SeatView>,
    session: Res<Session>,
) {
    let Some(seat) = session.player_seat else {
        intents.clear();
        return;
    };
    let table = &seen.0;
    for intent in intents.read() {
        if slip.in_play {
            continue;
        }
        let bankroll = table.seats()[usize::from(seat)].bankroll;
        if slip_change(&mut slip, intent, table.rules(), bankroll) {
            continue;
        }
        match intent {
            Intent::Deal => {
                let total = slip.total();
                let busy = table.phase() != Phase::Betting;
                slip.refusal = deal_refusal(busy, total, table.rules());
                if slip.refusal.is_none() {
                    let side_bets = slip
                        .side_stakes()
                        .staked()
                        .map(|(bet, amount)| crate::protocol::SideStake { bet, amount })
                        .collect();
                    online.send(ClientMessage::Bet {
                        amount: total,
                        side_bets,
                    });
                    slip.dealt(total);
                }
            }
            Intent::Rebuy => {
                slip.refusal = None;
                online.send(ClientMessage::Reset {});
            }
            _ => {}
        }
    }
}

/// Between rounds the player may take an empty seat (the server moves them, or sits them down from watching).
pub(super) fn seat_change_online(
    mut intents: MessageReader<Intent>,
    mut online: ResMut<Online>,
    table: Res<OnlineTable>,
) {
    for intent in intents.read() {
        if let Intent::SitAt(seat) = *intent {
            online.send(ClientMessage::Sit {
                table: table.id.clone(),
                seat,
            });
        }
    }
}

/// With auto-stand on, a hand of 21 stands by itself online too.
pub(super) fn stand_on_21(
    session: Res<Session>,
    options: Res<PlayOptions>,
    mut pending: ResMut<Pending>,
    seen: Res<SeatView>,
    beats: Res<Beats>,
    online: Res<Online>,
) {
    if let Some(seat) = session.player_seat
        && options.auto_stand_21
        && beats.settled()
        && pending.0.is_none()
        && !online.awaiting
        && stands_on_21(&seen.0, seat)
    {
        pending.0 = Some(crate::engine::Action::Stand);
    }
}

/// The player's decisions go to the server once the felt shows their turn; one at a time (the next waits for the
/// table's answer).
pub(super) fn play_online(
    mut intents: MessageReader<Intent>,
    mut online: ResMut<Online>,
    mut pending: ResMut<Pending>,
    seen: Res<SeatView>,
    session: Res<Session>,
    beats: Res<Beats>,
) {
    let Some(seat) = session.player_seat else {
        intents.clear();
        return;
    };
    let table = &seen.0;
    for intent in intents.read() {
        if let Intent::Play(action) = *intent
            && table.legal_actions(seat).contains(action)
            && !online.awaiting
        {
            pending.0 = Some(action);
        }
    }
    if !beats.settled() || online.awaiting {
        return;
    }
    let Some(action) = pending.0.take() else {
        return;
    };
    if table.seat_to_act() == Some(seat) && table.legal_actions(seat).contains(action) {
        online.send(ClientMessage::Play { action });
        online.awaiting = true;
    }
}
