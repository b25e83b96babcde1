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
