//! Playing online, one of the two drivers of the model (the game's own table, `local`, is the other; the pages name
//! neither): the same table, driven by a casino server instead of the game's own host. The server's seat view
//! becomes the [`SeatView`] and its news goes into the same [`Beats`] the local table fills, so the felt, the HUD,
//! the sounds and the round log work unchanged; the player's intents become protocol messages, and what the player
//! asks of the casino (the model's [`CasinoRequest`]) is done here, with what the pages show of it kept in the
//! model's [`Casino`]. This room keeps the connection (reconnecting with back-off and taking the seat back) and the
//! account's session: the connection and the account (`client`), the messages in and out (`wire`), the player at a
//! casino's table (`seat`), a round the casino kept watched again (`watch`) and the network itself (`link`, the one
//! file that names a client crate). Uses the model and the store (for the kept session); it never names the game's
//! own host.

mod client;
pub mod link;
mod seat;
mod watch;
mod wire;

pub use client::*;
pub use seat::*;
use watch::*;
use wire::*;

use crate::engine::{Phase, SeatId, TableState, TableView};
use crate::game::model::casino::{Asked, AtTable, Casino, CasinoRequest, ChatLine, Clock, Status};
use crate::game::model::frames::{DrawWhile, Redraw};
use crate::game::model::player::{
    BetSlip, Intent, Pending, PlayOptions, deal_refusal, slip_change, stands_on_21,
};
use crate::game::model::screen::{RoundSet, Screen};
use crate::game::model::seat::{Replay, Replayed};
use crate::game::model::session::{HomeSession, Session};
use crate::game::model::table::{Beats, Occupants, OnlineTable, SeatView};
use crate::game::store::Store;
use crate::protocol::{ClientMessage, Refusal, ServerMessage, Timer, VERSION};
use bevy::prelude::*;
use link::{Address, Connection, Heard, Requests};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// The casino Play online goes to when none is named: `holecard-server`'s default on this machine.
pub const DEFAULT_SERVER: &str = "ws://127.0.0.1:8080";

/// Seconds a connection may take to open and be welcomed before it counts as failed.
const CONNECT_SECONDS: f64 = 10.0;

/// The longest wait between two tries to reconnect, in seconds.
const MOST_BACK_OFF: f64 = 8.0;

/// The file (in the data folder, or localStorage) that keeps the account's session between visits.
const LOGIN_FILE: &str = "online.json";

/// The connection itself. Not a `Resource`: in the browser it holds the page's WebSocket, which stays on the page's
/// thread.
#[derive(Default)]
pub struct Link(Option<Connection>);

/// The online systems run before the round's sets: messages in, then the player's intents out.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct Wire;

pub(crate) fn plugin(app: &mut App) {
    app.init_non_send::<Link>()
        // The wire runs from the start (a kept session connects while the game loads); what the server says is taken
        // in once loading is done, so a table it seats the player at is opened after the Title, not overridden by it.
        .add_systems(
            Update,
            (
                answer_requests,
                pump,
                take_messages.run_if(not(in_state(Screen::Loading))),
            )
                .chain()
                .in_set(Wire)
                .before(RoundSet::Betting)
                .run_if(resource_exists::<Online>),
        )
        .add_systems(
            Update,
            open_when_answered
                .after(Wire)
                .run_if(resource_exists::<Online>)
                .run_if(not(in_state(Screen::Loading))),
        )
        .add_systems(
            Update,
            open_kept_round
                .run_if(in_state(Screen::Title))
                .run_if(resource_exists::<Casino>),
        )
        .add_systems(
            Update,
            show_kept_news
                .before(RoundSet::Present)
                .run_if(in_state(Screen::Table))
                .run_if(resource_exists::<KeptNews>),
        )
        .add_systems(OnExit(Screen::Table), |mut commands: Commands| {
            commands.remove_resource::<KeptNews>();
        })
        // Nobody sits down at a round watched again.
        .add_systems(
            Update,
            (sit_on_arrival, bet_online)
                .chain()
                .in_set(RoundSet::Betting)
                .run_if(resource_exists::<OnlineTable>)
                .run_if(not(resource_exists::<Replay>)),
        )
        .add_systems(
            Update,
            (stand_on_21, play_online)
                .chain()
                .in_set(RoundSet::PlayerTurn)
                .run_if(resource_exists::<OnlineTable>),
        )
        .add_systems(
            Update,
            seat_change_online
                .in_set(RoundSet::Betting)
                .run_if(resource_exists::<OnlineTable>)
                .run_if(not(resource_exists::<Replay>)),
        )
        .add_systems(OnEnter(Screen::Title), go_home)
        // What the casino sends wakes the window (`Online::wake_with`); frames are asked for while the wire has work
        // of its own: messages taken in and not yet read, messages to send on an open connection, a table to arrive
        // at, and once a second the clocks it shows in seconds (a turn's, a reconnection's) and a connection's time
        // limit while it opens.
        .draw_while(
            Redraw::EveryFrame,
            resource_exists::<Online>.and_then(|online: Res<Online>, casino: Res<Casino>| {
                !online.inbox.is_empty()
                    || !online.outbox.is_empty() && casino.status == Status::Open
            }),
        )
        .draw_while(Redraw::EveryFrame, resource_exists::<Arrival>)
        .draw_while(
            Redraw::EverySecond,
            resource_exists::<Casino>.and_then(|casino: Res<Casino>| {
                casino.clock.is_some()
                    || matches!(
                        casino.status,
                        Status::Lost { .. } | Status::Connecting { .. }
                    )
            }),
        );
}

/// What the player asked of the casino this frame, done (before the wire sends it).
fn answer_requests(
    mut requests: MessageReader<CasinoRequest>,
    mut online: ResMut<Online>,
    mut casino: ResMut<Casino>,
) {
    for request in requests.read() {
        online.answer(&mut casino, request.clone());
    }
}

/// Back at the Title: the player's own table and seat again. Leaving a casino's table gets the player up (at the end
/// of the round, if one is under way) and opens the lobby.
pub fn go_home(
    home: Option<Res<HomeSession>>,
    online: Option<ResMut<Online>>,
    casino: Option<ResMut<Casino>>,
    mut session: ResMut<Session>,
    mut commands: Commands,
) {
    if let Some(home) = home {
        *session = home.0.clone();
        commands.remove_resource::<HomeSession>();
    }
    if let (Some(mut online), Some(mut casino)) = (online, casino)
        && casino.table.take().is_some()
    {
        casino.clock = None;
        online.sit_on_arrival = false;
        if online.wanted {
            online.send(ClientMessage::Stand {});
            casino.back_to_lobby = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Cents;

    fn online() -> (Online, Casino) {
        let online = Online::apart(Address::parse(DEFAULT_SERVER).expect("the default address"));
        let casino = online.casino();
        (online, casino)
    }

    #[test]
    fn a_drop_while_playing_retries_with_growing_waits_and_a_first_failure_is_said_and_not_retried()
    {
        let (mut first, mut casino) = online();
        first.connect(&mut casino, Some("Ann".into()));
        first.lost(&mut casino, "Connection refused".into(), 10.0);
        assert_eq!(casino.status, Status::Offline);
        assert!(
            !first.wanted,
            "nothing to come back to: the player is told and tries again"
        );
        let said = casino.problem.clone().unwrap_or_default();
        assert_eq!(
            said,
            "Cannot reach the casino at 127.0.0.1:8080: Connection refused"
        );

        let (mut playing, mut casino) = online();
        playing.connect(&mut casino, None);
        playing.was_open = true;
        casino.status = Status::Open;
        let mut waits = Vec::new();
        for _ in 0..7 {
            playing.lost(&mut casino, "reset".into(), 100.0);
            match &casino.status {
                Status::Lost { retry_at, .. } => waits.push(retry_at - 100.0),
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(waits, [0.5, 1.0, 2.0, 4.0, 8.0, 8.0, 8.0]);
        assert!(playing.wanted);
    }

    #[test]
    fn another_address_is_taken_as_typed_and_a_session_kept_for_another_casino_is_not_sent_there() {
        let (mut client, mut casino) = online();
        client.login = Some(Login {
            server: client.address.ws.clone(),
            name: "Ann".into(),
            token: "kept".into(),
        });
        casino.account = Some("Ann".into());
        client.lost(&mut casino, "Connection refused".into(), 1.0);
        assert!(casino.unreached);
        client.move_to(&mut casino, "wss://");
        assert!(
            casino
                .problem
                .as_deref()
                .is_some_and(|p| p.contains("has no host"))
        );
        assert_eq!(
            casino.host, "127.0.0.1:8080",
            "a bad address changes nothing"
        );
        assert!(client.login.is_some());
        client.move_to(&mut casino, " casino.example:9000 ");
        assert_eq!(client.address.ws, "ws://casino.example:9000/ws");
        assert_eq!(casino.host, "casino.example:9000");
        assert!(!casino.unreached && casino.problem.is_none());
        assert!(
            client.login.is_none() && casino.account.is_none(),
            "Ann's session is the other casino's"
        );
    }

    #[test]
    fn a_refused_hello_stops_and_a_refusal_at_the_table_is_said_on_the_bar_with_the_bet_given_back()
    {
        let (mut client, mut casino) = online();
        client.connect(&mut casino, Some("Ann".into()));
        refused_at_hello(
            &mut client,
            &mut casino,
            Refusal::BadName,
            "someone here already plays as Ann",
        );
        assert!(!client.wanted);
        assert_eq!(casino.status, Status::Offline);
        assert_eq!(
            casino.problem.as_deref(),
            Some("Someone here already plays as Ann")
        );

        let (mut client, mut casino) = online();
        client.connect(&mut casino, None);
        casino.status = Status::Open;
        casino.table = Some(AtTable {
            id: "las-vegas-strip".into(),
            seat: Some(2),
        });
        let mut last_sides = crate::engine::side::SideStakes::default();
        last_sides.set(crate::engine::side::SideBet::PerfectPairs, Cents::units(5));
        let mut slip = BetSlip {
            last_bet: Cents::units(25),
            last_sides,
            in_play: true,
            ..BetSlip::default()
        };
        refused(
            &mut client,
            &mut casino,
            &mut slip,
            Screen::Table,
            Refusal::NotAllowed,
            "the bet is over the table maximum".into(),
        );
        assert_eq!(
            slip.refusal.as_deref(),
            Some("The bet is over the table maximum")
        );
        assert!(!slip.in_play);
        assert_eq!(slip.chips, [Cents::units(25)]);
        assert_eq!(slip.side_stakes(), last_sides, "the side bet is back too");
        assert!(casino.problem.is_none());

        // A command's refusal taken in after the connection dropped is said, and the reconnect goes on.
        client.was_open = true;
        client.lost(&mut casino, "reset".into(), 100.0);
        let mut slip = BetSlip::default();
        refused(
            &mut client,
            &mut casino,
            &mut slip,
            Screen::Table,
            Refusal::TooFast,
            "too many messages".into(),
        );
        assert!(client.wanted);
        assert!(matches!(casino.status, Status::Lost { .. }));
        assert_eq!(slip.refusal.as_deref(), Some("Too many messages"));
    }

    #[test]
    fn a_casinos_table_wears_the_games_level_of_its_name_and_plays_the_servers_rules() {
        let rules = crate::engine::Rules {
            decks: 2,
            ..crate::engine::Preset::LasVegasStrip.rules()
        };
        let table = crate::engine::Table::new(
            rules.clone(),
            crate::engine::seed_from_number(1),
            Cents::units(10_000),
        )
        .expect("a table");
        let view = table.view(crate::engine::Viewer::Spectator);
        let level =
            level_for("downtown-single-deck-2", Some("Downtown 2"), &view).expect("a level");
        let downtown = crate::host::level::Level::load(std::path::Path::new(
            "levels/downtown-single-deck.ron",
        ))
        .expect("the level");
        assert_eq!(level.name, "Downtown 2");
        assert_eq!(level.felt, downtown.felt);
        assert_eq!(
            level.rules.rules(),
            rules,
            "the server's rules, not the file's"
        );
        let unknown = level_for("somewhere-else", Some("Elsewhere"), &view).expect("a level");
        assert_eq!(unknown.name, "Elsewhere");
        // Joined before the lobby has said the table's name: the game's level of that id names it, else the id.
        let unlisted = level_for("downtown-single-deck", None, &view).expect("a level");
        assert_eq!(unlisted.name, downtown.name);
        let nameless = level_for("somewhere-else", None, &view).expect("a level");
        assert_eq!(nameless.name, "somewhere-else");
        assert!(unknown.companions.is_empty());
    }
}
