//! Screens and round phases, and the order of the round's system sets — declared once, here.

use bevy::prelude::*;

/// Which screen is up.
#[derive(States, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Screen {
    /// Preloading assets.
    #[default]
    Loading,
    /// The title menu.
    Title,
    /// At the table.
    Table,
}

/// Where the round at the table is, as the player sees it (the engine's own phase is finer).
#[derive(SubStates, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[source(Screen = Screen::Table)]
pub enum RoundPhase {
    /// Bets go down; companions come and go.
    #[default]
    Betting,
    /// Cards come out of the shoe, two passes.
    Dealing,
    /// Seats decide: insurance, surrender, hit, stand, double, split.
    PlayerTurn,
    /// The dealer turns the hole card and draws.
    DealerTurn,
    /// Hands are paid and taken.
    Resolution,
}

/// The round's system sets, one per phase, run in this order every frame at the table.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RoundSet {
    /// Placing bets and starting the deal.
    Betting,
    /// Showing the deal.
    Dealing,
    /// Seats' decisions.
    PlayerTurn,
    /// Showing the dealer's play.
    DealerTurn,
    /// Showing settlement.
    Resolution,
    /// Turning the engine's events into the table's entities, one beat at a time; serves every phase.
    Present,
}

pub(crate) fn plugin(app: &mut App) {
    app.init_state::<Screen>()
        .add_sub_state::<RoundPhase>()
        .add_sub_state::<Menu>()
        .add_plugins(pause_plugin)
        .configure_sets(
            Update,
            (
                RoundSet::Betting.run_if(in_state(RoundPhase::Betting)),
                RoundSet::Dealing.run_if(in_state(RoundPhase::Dealing)),
                RoundSet::PlayerTurn.run_if(in_state(RoundPhase::PlayerTurn)),
                RoundSet::DealerTurn.run_if(in_state(RoundPhase::DealerTurn)),
                RoundSet::Resolution.run_if(in_state(RoundPhase::Resolution)),
                RoundSet::Present,
            )
                .chain()
                .run_if(in_state(Screen::Table)),
        );
}

/// The systems that open the table on entering [`Screen::Table`]; anything dressing the table's entities runs after.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct TableOpens;

/// The system that finds a match played until someone is broke decided (and inserts `GameOver`); what is kept of
/// the sitting is forgotten right after it, in the same frame.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct MatchDecided;

/// Which page of the title menu is open: a state of the Title screen.
#[derive(SubStates, Default, Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[source(Screen = Screen::Title)]
pub enum Menu {
    /// Resume, Play, Watch, Tables, Settings, Quit.
    #[default]
    Main,
    /// Every level file.
    Tables,
    /// Speed and options.
    Settings,
    /// The player's totals and bankroll chart.
    Statistics,
    /// The kept rounds, each with a replay.
    Hands,
    /// Play online: log in, register or play as a guest.
    Online,
    /// The casino's tables.
    Lobby,
    /// The casino's all-time highscores.
    Leaderboard,
    /// The player's own hands as the casino kept them.
    ServerHands,
    /// The casino's shoes as the player followed them, each checked card for card against its revealed seed.
    Shoes,
    /// The table's basic-strategy chart and index plays.
    Strategy,
    /// Drills: flash cards, counting down a deck, true counts, index plays, and the progress they keep.
    Practice,
    /// How to play: the aim, a round, the chosen table's rules, the controls, what the table shows.
    HowToPlay,
}

/// The pause menu, and which of its pages is open: a state of the table. The table's clock stops while it is up.
#[derive(SubStates, Default, Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[source(Screen = Screen::Table)]
pub enum Pause {
    /// Playing.
    #[default]
    Off,
    /// Resume, Settings, Rules, Leave.
    Menu,
    /// Speed and options.
    Settings,
    /// The table's rules.
    Rules,
    /// How to play, at this table.
    HowToPlay,
    /// The player's totals and bankroll chart (its own window: `statistics::pause_statistics`).
    Statistics,
}

/// The pause menu as a state of the table: the table's clock stops while it is up, and runs again on resuming or on
/// leaving the table from it.
fn pause_plugin(app: &mut App) {
    app.add_sub_state::<Pause>()
        .add_systems(OnExit(Pause::Off), |mut time: ResMut<Time<Virtual>>| {
            time.pause();
        })
        .add_systems(OnEnter(Pause::Off), |mut time: ResMut<Time<Virtual>>| {
            time.unpause()
        })
        .add_systems(OnExit(Screen::Table), |mut time: ResMut<Time<Virtual>>| {
            time.unpause()
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pause_menu_stops_the_tables_clock_until_resumed_or_left() {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, bevy::state::app::StatesPlugin))
            .init_state::<Screen>()
            .add_plugins(pause_plugin);
        let go = |app: &mut App, screen: Screen| {
            app.world_mut()
                .resource_mut::<NextState<Screen>>()
                .set(screen);
            app.update();
        };
        let pause = |app: &mut App, pause: Pause| {
            app.world_mut()
                .resource_mut::<NextState<Pause>>()
                .set(pause);
            app.update();
        };
        let paused = |app: &App| app.world().resource::<Time<Virtual>>().is_paused();
        go(&mut app, Screen::Table);
        assert_eq!(*app.world().resource::<State<Pause>>().get(), Pause::Off);
        assert!(!paused(&app));
        pause(&mut app, Pause::Menu);
        assert!(paused(&app));
        pause(&mut app, Pause::Rules);
        assert!(
            paused(&app),
            "between the menu's pages the clock stays stopped"
        );
        pause(&mut app, Pause::Off);
        assert!(!paused(&app));
        pause(&mut app, Pause::Menu);
        go(&mut app, Screen::Title);
        assert!(
            !paused(&app),
            "leaving the table from the menu starts the clock"
        );
        assert!(app.world().get_resource::<State<Pause>>().is_none());
        go(&mut app, Screen::Table);
        assert_eq!(*app.world().resource::<State<Pause>>().get(), Pause::Off);
    }
}
