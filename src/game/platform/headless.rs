//! The whole ECS game without a window or GPU: every seat played by AI, for soaks and frame-cost measurements.

use crate::engine::TableState;
use crate::game::keep::sitting::Sitting;
use crate::game::keep::slot::SaveSlot;
use crate::game::local::keeping::KeepAutoplay;
use crate::game::local::table::HostedTable;
use crate::game::model::screen::Screen;
use crate::game::model::table::{
    Bankroll, Beats, BetCircle, CardView, DealerTray, SeatView, SideSpot, Speed,
};
use crate::host::level::Level;
use bevy::prelude::*;
use serde::Serialize;
use std::time::Instant;

/// What a headless run saw.
#[derive(Debug, Serialize)]
pub struct HeadlessReport {
    /// Rounds played.
    pub rounds: u64,
    /// Frames run.
    pub frames: u64,
    /// Mean wall time of one frame, microseconds.
    pub frame_time_mean_us: f64,
    /// 99th percentile frame time, microseconds.
    pub frame_time_p99_us: f64,
    /// Bankrolls + house + felt equal what was brought to the table, less what left it.
    pub chips_conserved: bool,
    /// The card entities on the felt are exactly the cards the engine has on the table.
    pub cards_accounted: bool,
    /// The chips drawn in every bankroll, bet circle and the dealer's tray match the engine's books at the end.
    pub chips_shown: bool,
    /// Replaying the sitting's command log from the opening table gives the same table.
    pub replays: bool,
    /// Between every two rounds, the seat view the HUD and the felt draw from, kept from the events shown, equals the
    /// engine table's view from that seat.
    pub seat_view_follows: bool,
    /// Commands an AI seat asked for that the engine refused (each also logged as an error).
    pub refused_commands: u64,
    /// The table stopped making progress before the rounds were played.
    pub stalled: bool,
}

impl HeadlessReport {
    /// Every round was played and every check holds.
    pub fn passed(&self) -> bool {
        !self.stalled
            && self.chips_conserved
            && self.cards_accounted
            && self.chips_shown
            && self.replays
            && self.seat_view_follows
            && self.refused_commands == 0
    }
}

/// A windowless app with the game's logic at `level`, every seat played by AI, at `speed`.
pub fn app(level: Level, seed: u64, speed: Speed) -> Result<App, crate::engine::RuleError> {
    app_with(level, seed, speed, true)
}

/// A windowless app at `level`; the player's seat is played by AI when `autoplay`, else it waits for intents.
pub fn app_with(
    level: Level,
    seed: u64,
    speed: Speed,
    autoplay: bool,
) -> Result<App, crate::engine::RuleError> {
    build(level, seed, speed, autoplay, None, false, None)
}

/// A windowless app that also runs the table's look: sprites, labels, glides, flips, chip flights and banners, as
/// the window would, with nothing drawn. For frame costs with every animation running, and tests of the motion.
pub fn app_animated(
    level: Level,
    seed: u64,
    speed: Speed,
    look: crate::game::felt::art::Look,
) -> Result<App, crate::engine::RuleError> {
    let mut app = build(level, seed, speed, true, None, true, None)?;
    app.insert_resource(look);
    Ok(app)
}

/// A windowless app that sits back down at a saved sitting.
pub fn app_restoring(sitting: Sitting, speed: Speed) -> Result<App, crate::engine::RuleError> {
    let session = &sitting.session;
    let (level, seed, autoplay) = (session.level.clone(), session.seed, session.autoplay);
    build(level, seed, speed, autoplay, Some(sitting), false, None)
}

/// The headless sitting run's app: the table at `level` (or the `saved` sitting), the player's seat played by AI and
/// kept like a person's in `slot` (journaled, saved, its hands in the history there).
pub fn app_keeping(
    level: Level,
    seed: u64,
    saved: Option<Sitting>,
    slot: SaveSlot,
    keep: KeepAutoplay,
) -> Result<App, crate::engine::RuleError> {
    build(
        level,
        seed,
        Speed::Instant,
        true,
        saved,
        false,
        Some((slot, Some(keep))),
    )
}

/// A windowless app keeping what the window keeps in `slot`: the player's sitting, journaled and saved, and the
/// hands in the history (with `autoplay`, the AI's hands in the history and no sitting, as in a window).
pub fn app_with_slot(
    level: Level,
    seed: u64,
    speed: Speed,
    autoplay: bool,
    slot: SaveSlot,
) -> Result<App, crate::engine::RuleError> {
    build(
        level,
        seed,
        speed,
        autoplay,
        None,
        false,
        Some((slot, None)),
    )
}

fn build(
    level: Level,
    seed: u64,
    speed: Speed,
    autoplay: bool,
    restore: Option<Sitting>,
    animated: bool,
    keeping: Option<(SaveSlot, Option<KeepAutoplay>)>,
) -> Result<App, crate::engine::RuleError> {
    let display = crate::game::platform::app::Display::Headless { animated };
    let game = match restore {
        Some(sitting) => crate::game::platform::app::AppPlugin::restoring(sitting, display),
        None => crate::game::platform::app::AppPlugin::new(level, seed, autoplay, display)?,
    };
    let mut app = App::new();
    app.add_plugins(game.at(speed));
    if let Some((slot, keep)) = keeping {
        app.insert_resource(crate::game::keep::history::Kept::load(slot.store.clone()))
            .insert_resource(slot);
        if let Some(keep) = keep {
            app.insert_resource(keep);
        }
        crate::game::local::keeping::plugin(&mut app);
    }
    crate::game::platform::app::single_threaded(&mut app);
    app.update();
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Table);
    app.update();
    Ok(app)
}

/// A windowless app that plays online at `online`'s casino: it opens on the Title, where the caller logs in or
/// connects (as a page does, with the model's `CasinoRequest`); the table opens when the server seats (or sits) it,
/// and the player's intents go over the wire.
pub fn app_online(online: crate::game::online::Online, speed: Speed) -> Result<App, String> {
    let level = Level::load_or_default(None).map_err(|e| e.to_string())?;
    let display = crate::game::platform::app::Display::Headless { animated: false };
    let game = crate::game::platform::app::AppPlugin::new(level, 1, false, display)
        .map_err(|e| e.to_string())?;
    let mut app = App::new();
    let casino = online.casino();
    app.add_plugins(game.at(speed))
        .insert_resource(online)
        .insert_resource(casino);
    crate::game::platform::app::single_threaded(&mut app);
    app.update();
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Title);
    app.update();
    Ok(app)
}

/// An app with Bevy's minimal plugins and an asset server reading this crate's own `assets/` folder (without meta
/// files, as the game reads it): for tests that load the game's real files.
pub fn with_the_games_assets() -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        AssetPlugin {
            file_path: concat!(env!("CARGO_MANIFEST_DIR"), "/assets").into(),
            meta_check: bevy::asset::AssetMetaCheck::Never,
            ..default()
        },
    ));
    app
}

/// True when the table is between rounds with everything shown.
pub fn between_rounds(app: &App) -> bool {
    let engine = app.world().resource::<HostedTable>();
    engine.phase() == crate::engine::Phase::Betting && app.world().resource::<Beats>().settled()
}

/// The seat view (what the presentation draws from) is the engine table's view from the same seat, and the shoe and
/// the discard tray on the felt show its counts.
pub fn seat_view_follows(app: &App) -> bool {
    let world = app.world();
    let seen = &world.resource::<SeatView>().0;
    let counts = seen.shoe();
    let shoe = world
        .try_query::<&crate::game::model::table::ShoeStack>()
        .is_some_and(|mut q| q.iter(world).all(|s| s.remaining == counts.remaining));
    let tray = world
        .try_query::<&crate::game::model::table::DiscardTray>()
        .is_some_and(|mut q| q.iter(world).all(|t| t.cards == counts.discarded));
    *seen == world.resource::<HostedTable>().view(seen.viewer()) && shoe && tray
}

/// The card entities match the engine's cards on the felt.
pub fn cards_accounted(app: &mut App) -> bool {
    let table = app
        .world()
        .resource::<HostedTable>()
        .view(crate::engine::Viewer::Spectator);
    let dealer = table.dealer();
    let on_felt = dealer.cards.len()
        + usize::from(dealer.hole_down)
        + table.hands().iter().map(|h| h.cards.len()).sum::<usize>();
    let mut views = app.world_mut().query::<&CardView>();
    views.iter(app.world()).count() == on_felt
}

/// Between rounds, the chip piles on the felt (bankrolls, bet circles, the dealer's tray) hold what the engine says.
pub fn chips_shown(app: &mut App) -> bool {
    let world = app.world_mut();
    let engine = world.resource::<HostedTable>();
    let seats = engine.seats().clone();
    let house = engine.house();
    let mut bankrolls = world.query::<&Bankroll>();
    let mut circles = world.query::<&BetCircle>();
    let mut trays = world.query::<&DealerTray>();
    let mut sides = world.query::<&SideSpot>();
    bankrolls
        .iter(world)
        .all(|b| seats[usize::from(b.seat)].bankroll == b.amount)
        && circles
            .iter(world)
            .all(|c| seats[usize::from(c.seat)].bet == c.amount)
        && trays.iter(world).all(|t| t.amount == house)
        && sides.iter(world).all(|s| {
            let seat = &seats[usize::from(s.seat)];
            seat.side.get(s.bet) + seat.side_in_play.get(s.bet) == s.amount
        })
        && bankrolls.iter(world).count() == seats.len()
}

/// The level with an AI in every seat: its companions, an AI in the player's seat, and regulars of each personality
/// in the seats left over.
pub fn seven_ai_seats(mut level: Level) -> Level {
    use crate::engine::ai::Personality;
    const STYLES: [Personality; 4] = [
        Personality::ByTheBook,
        Personality::HunchPlayer,
        Personality::CardCounter,
        Personality::HighRoller,
    ];
    for seat in 0..7u8 {
        let taken =
            level.companions.iter().any(|c| c.seat == seat) || level.player_seat == Some(seat);
        if !taken {
            level.companions.push(crate::host::level::Companion {
                name: format!("Regular {}", seat + 1),
                personality: STYLES[usize::from(seat) % STYLES.len()],
                bankroll: crate::engine::Cents(level.buy_in.0.max(1) * 5),
                seat,
            });
        }
    }
    level
}

/// Plays `rounds` rounds with an AI in every seat, as fast as the machine allows, and reports frame costs and the
/// books.
///
/// `animated` runs the table's look too, at normal speed: every card glides, the hole card flips, chips fly and
/// banners pop, as in the window (nothing is drawn).
pub fn run(
    level: Level,
    seed: u64,
    rounds: u64,
    animated: bool,
) -> Result<HeadlessReport, crate::engine::RuleError> {
    let level = seven_ai_seats(level);
    let (mut app, frames_a_round) = if animated {
        let look = crate::game::felt::art::Look::default();
        (app_animated(level, seed, Speed::Normal, look)?, 4_000)
    } else {
        (app(level, seed, Speed::Instant)?, 200)
    };
    let mut frame_times = Vec::new();
    let frame_limit = rounds.saturating_mul(frames_a_round).max(1_000);
    let (mut seat_view_ok, mut checked_round) = (true, None);
    loop {
        let round = app.world().resource::<HostedTable>().round();
        if between_rounds(&app) && checked_round != Some(round) {
            checked_round = Some(round);
            seat_view_ok &= seat_view_follows(&app);
        }
        if round >= rounds && between_rounds(&app) {
            break;
        }
        if frame_times.len() as u64 >= frame_limit {
            // Reported in the JSON (`stalled`), which fails the run.
            break;
        }
        let started = Instant::now();
        app.update();
        frame_times.push(started.elapsed().as_secs_f64() * 1e6);
    }
    let frames = frame_times.len() as u64;
    let mean = frame_times.iter().sum::<f64>() / frames.max(1) as f64;
    frame_times.sort_by(f64::total_cmp);
    let p99 = frame_times
        .get((frame_times.len() * 99 / 100).min(frame_times.len().saturating_sub(1)))
        .copied();
    let cards_accounted = cards_accounted(&mut app);
    let chips_shown = chips_shown(&mut app);
    let engine = app.world().resource::<HostedTable>();
    let replays = engine.replays();
    Ok(HeadlessReport {
        rounds: engine.round(),
        frames,
        frame_time_mean_us: mean,
        frame_time_p99_us: p99.unwrap_or(0.0),
        chips_conserved: engine.chips_conserved(),
        cards_accounted,
        chips_shown,
        replays,
        seat_view_follows: seat_view_ok,
        refused_commands: engine.refused(),
        stalled: engine.round() < rounds,
    })
}

/// What `holecard --headless --autoplay --rounds N` did.
#[derive(Debug, Serialize)]
pub struct SittingReport {
    /// It sat back down at a saved sitting.
    pub resumed: bool,
    /// Rounds played this run.
    pub rounds_played: u64,
    /// The table's round number now.
    pub round: u64,
    /// The player's chips now.
    pub bankroll: crate::engine::Cents,
    /// Hands in the history now.
    pub hands_kept: usize,
    /// The sitting and the history were written.
    pub saved: bool,
}

/// `holecard --headless --autoplay --rounds N`: the player's seat played by its AI and kept like a person's. It sits
/// back down at the saved sitting when there is one (and plays N more rounds), journals every frame the table
/// accepts a command and records every hand in the history, in the data folder (`HOLECARD_DATA_DIR`), so a run
/// killed at any moment goes on from its last accepted command when started again. With `trace`, says each journal
/// entry on stdout as it is written (`journal …`) and synced (`synced …`), and where it resumed (`resumed …`).
pub fn sitting_run(
    level: Level,
    seed: u64,
    rounds: u64,
    trace: bool,
) -> Result<SittingReport, String> {
    let slot = SaveSlot::new(crate::game::store::Store::platform_or_why()?);
    let found = slot.read().map_err(|unreadable| unreadable.message)?;
    if let Some(problem) = &found.problem {
        eprintln!("holecard: {problem}");
    }
    let resumed = found.sitting.is_some();
    // Where it resumes, said before the table deals on.
    if trace
        && let Some(sitting) = &found.sitting
        && let Some(seat) = sitting.session.player_seat
    {
        let restore = sitting.restore()?;
        let line = crate::game::keep::journal::trace_line(&restore.host, seat, sitting.accepted);
        println!("resumed {line}");
    }
    let keep = KeepAutoplay { trace };
    let mut app =
        app_keeping(level, seed, found.sitting, slot.clone(), keep).map_err(|e| e.to_string())?;
    let seat = app
        .world()
        .resource::<crate::game::model::session::Session>()
        .player_seat
        .ok_or("this table has no seat for the player")?;
    let start = app.world().resource::<HostedTable>().round();
    let target = start + rounds;
    for _ in 0..rounds.saturating_mul(200).max(1_000) {
        if app.world().resource::<HostedTable>().round() >= target && between_rounds(&app) {
            break;
        }
        app.update();
    }
    let round = app.world().resource::<HostedTable>().round();
    if round < target || !between_rounds(&app) {
        return Err(format!(
            "the table stalled at round {round} of {target}; the journal has it to the last command"
        ));
    }
    // Leaving the table writes the save and the history, as the window does.
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Title);
    app.update();
    let world = app.world();
    let bankroll = world.resource::<HostedTable>().seats()[usize::from(seat)].chips();
    let kept = world.resource::<crate::game::keep::history::Kept>();
    let saved = world.resource::<crate::game::keep::slot::Saved>();
    Ok(SittingReport {
        resumed,
        rounds_played: round - start,
        round,
        bankroll,
        hands_kept: kept.history.hands.len(),
        saved: kept.problem.is_none() && saved.problem.is_none(),
    })
}
