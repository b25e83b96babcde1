//! The game in a window (or the browser page's canvas): Bevy's default plugins, egui, the table's look and HUD, and
//! the command line's `--screenshot PATH --frames N`.

use crate::game::model::frames::{AskForFrames, DrawsAsAsked, Redraw, Waker};
use crate::game::model::screen::Screen;
use crate::game::pages::{Menu, StartAt, StartPage};
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};
use bevy::window::WindowResolution;
use std::path::PathBuf;
use std::time::Duration;

/// What only a window has: its size, the screen it opens on, and the command line's screenshot.
#[derive(Clone, Debug)]
pub struct WindowOptions {
    /// Save the window to this PNG after `frames` frames, then exit.
    pub screenshot: Option<PathBuf>,
    /// Frames to run before the screenshot.
    pub frames: u32,
    /// Window size in logical pixels.
    pub size: (u32, u32),
    /// The screen after loading, if not the default.
    pub start: Option<Start>,
    /// The casino to play online at (`--server`; in the browser, the page's own server): the Title opens on its
    /// login page when given.
    pub server: Option<String>,
    /// Open with the advisor on, whatever Settings last said.
    pub advisor: bool,
    /// Open with the coach on, whatever Settings last said.
    pub coach: bool,
    /// Log the layout check's report whenever what the pages laid out changes (`pages::layout`).
    pub layout: bool,
    /// A round the casino kept (`TABLE/ROUND`) to watch again on the felt as soon as the game is up (`/hand/TABLE/ROUND`
    /// opens the browser build so).
    pub hand: Option<(String, u64)>,
    /// With a screenshot: the player bets this each round and deals, and the decisions wait for a person, so the
    /// picture can show one.
    pub bet: Option<crate::engine::Cents>,
    /// With `bet`: this on each side bet the table offers too.
    pub side_bet: Option<crate::engine::Cents>,
}

/// Where the game opens after loading.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Start {
    /// The title menu.
    Title,
    /// The Tables page of the title menu.
    Tables,
    /// The Settings page of the title menu.
    Settings,
    /// The Statistics page of the title menu.
    Statistics,
    /// The Strategy page: the table's chart and index plays.
    Strategy,
    /// How to play: the aim, a round, the table's rules, the controls.
    HowToPlay,
    /// The Trainer: the path from the chart to counting at a table, at the next step (`practice` too).
    #[value(alias = "practice")]
    Trainer,
    /// The Trainer's record: the heat map over the chart and the scores over time.
    Progress,
    /// The hand history, from the Statistics page.
    Hands,
    /// The newest kept round, replayed on the felt.
    Replay,
    /// Straight to the table.
    Table,
    /// Play online: the login page (the lobby when a session is kept).
    Online,
    /// The casino's leaderboard (with a kept session).
    Leaderboard,
    /// The player's hands as the casino kept them (with a kept session).
    CasinoHands,
}

/// Bevy's default plugins as the game (and `holecard-bare`, the floor its start is timed against) sets them up: a
/// window of `resolution` titled `title` (in the browser, the page's canvas, filling the page) and the asset folder
/// (`asset_root`), its files loaded without asking for `.meta` files.
pub fn bevy_plugins(title: String, resolution: WindowResolution) -> impl PluginGroup {
    DefaultPlugins
        .set(WindowPlugin {
            primary_window: Some(Window {
                title,
                resolution,
                canvas: Some("#holecard".into()),
                fit_canvas_to_parent: true,
                prevent_default_event_handling: true,
                ..default()
            }),
            ..default()
        })
        .set(AssetPlugin {
            file_path: asset_root(),
            meta_check: bevy::asset::AssetMetaCheck::Never,
            ..default()
        })
}

/// The window's platform: Bevy's default plugins with the window (the page's canvas in the browser) and the asset
/// folder, and egui.
pub(crate) fn platform(app: &mut App, options: &WindowOptions, table_name: &str) {
    let resolution = WindowResolution::new(options.size.0, options.size.1);
    // On a desktop the window is laid out in logical pixels of scale 1 (so screenshots are the same everywhere);
    // in the browser the canvas fills the page and follows the device-pixel ratio, so text stays sharp on a phone.
    #[cfg(not(target_arch = "wasm32"))]
    let resolution = resolution.with_scale_factor_override(1.0);
    // No assets folder here or beside the executable (a copy anywhere, `cargo install`): the copies carried.
    #[cfg(not(target_arch = "wasm32"))]
    if native_asset_home() == crate::game::platform::carried::AssetHome::Carried {
        crate::game::platform::carried::read_the_carried_copies(app);
    }
    app.add_plugins(bevy_plugins(format!("Holecard — {table_name}"), resolution))
        .add_plugins(bevy_egui::EguiPlugin::default())
        // egui's font atlas is an image asset bevy_egui writes in PostUpdate; the render world copies an image only
        // when its asset event has been sent, in PostUpdate too, and nothing orders the two. Where the events go first,
        // a frame whose atlas is new or has new glyphs is drawn without the HUD (whose every shape samples the atlas):
        // the browser test caught the table's first frame so, three loads in five. Writing the atlas first draws it in
        // its own frame.
        .configure_sets(
            PostUpdate,
            bevy_egui::EguiPostUpdateSet::PostProcessOutput.before(bevy::asset::AssetEventSystems),
        )
        .add_systems(
            PreUpdate,
            modifiers_only_when_changed
                .after(bevy_egui::EguiInputSet::WriteEguiEvents)
                .before(bevy_egui::EguiPreUpdateSet::BeginPass),
        );
    // The window draws while something moves and otherwise waits for the player (model::frames); a screenshot's run
    // counts its frames, and draws every one. What arrives off the frame (the casino's messages and answers) wakes it.
    if options.screenshot.is_none() {
        app.init_resource::<DrawsAsAsked>()
            .add_systems(Last, draw_as_asked.after(AskForFrames));
    }
    if let Some(proxy) = app
        .world()
        .get_resource::<bevy::winit::EventLoopProxyWrapper>()
    {
        let proxy = (**proxy).clone();
        app.insert_resource(Waker::new(move || {
            // Refused only once the window has closed: there is nothing to wake then.
            let _ = proxy.send_event(bevy::winit::WinitUserEvent::WakeUp);
        }));
    }
}

/// bevy_egui tells egui the modifier keys' state every frame as an event; egui takes any event for input and asks
/// for the next frame, so a window would never stop drawing. An event that changes nothing is dropped: egui reads the
/// keys held from the frame's input and its events, and the state is the same without it.
fn modifiers_only_when_changed(
    mut inputs: Query<(Entity, &mut bevy_egui::EguiInput)>,
    mut told: Local<std::collections::HashMap<Entity, bevy_egui::egui::Modifiers>>,
) {
    use bevy_egui::egui::Event;
    for (context, mut input) in &mut inputs {
        // Losing the window's focus lets go of every key in egui: what it is told next is news.
        if input
            .0
            .events
            .iter()
            .any(|event| matches!(event, Event::WindowFocused(_)))
        {
            told.remove(&context);
            continue;
        }
        let mut last = told.get(&context).copied();
        input.0.events.retain(|event| match event {
            Event::ModifiersChanged(now) if last == Some(*now) => false,
            Event::ModifiersChanged(now) => {
                last = Some(*now);
                true
            }
            _ => true,
        });
        if let Some(last) = last {
            told.insert(context, last);
        }
    }
}

/// The longest a window waiting for the player goes without a frame. Nothing on the screen needs one; the frame it
/// draws then takes in what came without waking it, and writes the hands kept since the last write.
const STILL: Duration = Duration::from_secs(5);

/// Turns what the rooms asked for into frames: every frame (a redraw asked at once), once a second (the window's
/// wait), or only when the player does something.
fn draw_as_asked(
    mut asked: ResMut<Redraw>,
    mut redraws: MessageWriter<bevy::window::RequestRedraw>,
    mut winit: ResMut<bevy::winit::WinitSettings>,
) {
    use bevy::winit::UpdateMode;
    let redraw = std::mem::take(&mut *asked);
    if redraw == Redraw::EveryFrame {
        redraws.write(bevy::window::RequestRedraw);
    }
    let wait = if redraw >= Redraw::EverySecond {
        Duration::from_secs(1)
    } else {
        STILL
    };
    // Window events only: the pointer moving elsewhere on the desktop wakes nothing.
    let mode = UpdateMode::reactive_low_power(wait);
    if winit.focused_mode != mode || winit.unfocused_mode != mode {
        winit.focused_mode = mode;
        winit.unfocused_mode = mode;
    }
}

/// What the window shows and plays: the art, sound, lettering, motion, the table's look, the HUD, saves, the screen
/// it opens on and the screenshot. Returns the preferences remembered from the last launch (applied here, the pace
/// by the caller).
pub(crate) fn presentation(
    app: &mut App,
    options: &WindowOptions,
    session: &crate::game::model::session::Session,
) -> crate::game::keep::preferences::Preferences {
    app.add_plugins((
        crate::game::felt::plugin,
        crate::game::pages::plugin,
        crate::game::keep::on_disk,
        crate::game::local::keeping::plugin,
        crate::game::keep::history::keep_on_disk,
    ));
    let remembered = crate::game::keep::preferences::Preferences::load();
    app.insert_resource(crate::game::model::player::PlayOptions {
        auto_stand_21: remembered.auto_stand_21,
        keep_every_seat: remembered.keep_every_seat,
        advisor: remembered.advisor,
        show_count: remembered.show_count,
        count_system: remembered.count_system,
        coach: remembered.coach,
        count_quiz: remembered.count_quiz,
        kelly_percent: remembered.kelly_percent,
        luck: remembered.luck,
    })
    .insert_resource(remembered.look)
    .insert_resource(remembered.mix)
    .insert_resource(crate::game::model::settings::Welcomed(remembered.welcomed));
    if options.layout {
        app.init_resource::<crate::game::pages::layout::LayoutCheck>();
    }
    if options.advisor || options.coach {
        let mut play = app
            .world_mut()
            .resource_mut::<crate::game::model::player::PlayOptions>();
        play.advisor |= options.advisor;
        play.coach |= options.coach;
    }
    if let Some(bet) = options.bet {
        let side = options.side_bet;
        app.add_systems(
            Update,
            (move |slip: Res<crate::game::model::player::BetSlip>,
                   seen: Option<Res<crate::game::model::table::SeatView>>,
                   beats: Res<crate::game::model::table::Beats>,
                   mut intents: MessageWriter<crate::game::model::player::Intent>| {
                use crate::engine::{Phase, TableState};
                use crate::game::model::player::Intent;
                let Some(seen) = seen.filter(|seen| seen.0.phase() == Phase::Betting) else {
                    return;
                };
                if beats.settled() && !slip.in_play && slip.is_empty() {
                    for bet in side.map_or_else(Vec::new, |_| seen.0.rules().side_bets.offered()) {
                        intents.write(Intent::Spot(Some(bet)));
                        intents.write_batch(side.map(Intent::Chip));
                    }
                    intents.write(Intent::Spot(None));
                    intents.write(Intent::Chip(bet));
                    intents.write(Intent::Deal);
                }
            })
            .after(crate::game::model::screen::RoundSet::Present)
            .run_if(in_state(Screen::Table)),
        );
        if options.coach {
            app.add_systems(
                Update,
                off_the_chart
                    .before(crate::game::model::coach::Judging)
                    .run_if(in_state(Screen::Table)),
            );
        }
    }
    let start = options
        .start
        .unwrap_or(if options.server.is_some() || options.hand.is_some() {
            Start::Online
        } else if session.autoplay || options.screenshot.is_some() {
            Start::Table
        } else {
            Start::Title
        });
    match online_address(options.server.as_deref()) {
        Ok(address) => {
            let mut online = crate::game::online::Online::new(address);
            if let Some(waker) = app.world().get_resource::<Waker>() {
                online.wake_with(waker.clone());
            }
            let mut casino = online.casino();
            // Opening on the casino with a session kept from last time: straight to the lobby (or the page asked for).
            let at_the_casino = matches!(
                start,
                Start::Online | Start::Leaderboard | Start::CasinoHands
            );
            if at_the_casino && online.login.is_some() {
                online.connect(&mut casino, None);
                match start {
                    Start::Leaderboard => online.ask_leaderboard(&mut casino),
                    Start::CasinoHands => online.ask_history(&mut casino),
                    _ => {}
                }
            }
            // A round to watch again needs no account: it opens once the casino sends it (or its page says why not).
            if let Some((table, round)) = &options.hand {
                online.watch_again(&mut casino, table, *round);
            }
            app.insert_resource(online).insert_resource(casino);
        }
        Err(problem) => error!("playing online: {problem}"),
    }
    app.insert_resource(StartAt(match start {
        Start::Table => Screen::Table,
        Start::Title
        | Start::Tables
        | Start::Settings
        | Start::Statistics
        | Start::Strategy
        | Start::Trainer
        | Start::HowToPlay
        | Start::Progress
        | Start::Hands
        | Start::Replay
        | Start::Online
        | Start::Leaderboard
        | Start::CasinoHands => Screen::Title,
    }));
    match start {
        Start::Tables => app.insert_resource(StartPage(Menu::Tables)),
        Start::Settings => app.insert_resource(StartPage(Menu::Settings)),
        Start::Statistics => app.insert_resource(StartPage(Menu::Statistics)),
        Start::Strategy => app.insert_resource(StartPage(Menu::Strategy)),
        Start::Trainer => app.insert_resource(StartPage(Menu::Practice)),
        Start::HowToPlay => app.insert_resource(StartPage(Menu::HowToPlay)),
        Start::Progress => {
            app.world_mut()
                .resource_mut::<crate::game::model::practice::Practice>()
                .show(crate::game::model::practice::Shown::Record);
            app.insert_resource(StartPage(Menu::Practice))
        }
        Start::Hands => app.insert_resource(StartPage(Menu::Hands)),
        Start::Replay => app.add_systems(Startup, replay_the_newest),
        Start::Online => app.insert_resource(StartPage(Menu::Online)),
        Start::Leaderboard => app.insert_resource(StartPage(Menu::Leaderboard)),
        Start::CasinoHands => app.insert_resource(StartPage(Menu::ServerHands)),
        Start::Title | Start::Table => app,
    };
    #[cfg(target_arch = "wasm32")]
    app.add_systems(OnExit(Screen::Loading), || {
        crate::game::platform::web::announce("holecard-ready");
    })
    .add_systems(Update, announce_table.run_if(in_state(Screen::Table)))
    .add_systems(Update, crate::game::platform::web::number_pad)
    .add_systems(Startup, crate::game::platform::web::listen_to_the_agent)
    .add_systems(
        PreUpdate,
        (
            crate::game::platform::web::pass_on_enter
                .in_set(bevy_egui::EguiInputSet::ReadBevyMessages),
            crate::game::platform::web::agent_is_the_page
                .after(bevy_egui::EguiInputSet::WriteEguiEvents)
                .before(bevy_egui::EguiPreUpdateSet::BeginPass),
        ),
    )
    .add_systems(
        PostUpdate,
        crate::game::platform::web::keyboard_follows_the_field
            .after(bevy_egui::EguiPostUpdateSet::EndPass),
    )
    // Typing on a phone goes to the page's hidden input, not the window: its keys wake the window
    // (web::listen_to_the_agent).
    .add_systems(Last, show_why_it_stopped);
    if let Some(path) = options.screenshot.clone() {
        // The clock steps 16 ms a frame (as in headless runs), so frame N after loading names the same moment of
        // play on every run and every machine (a mid-flip frame stays mid-flip), however slowly frames are drawn.
        app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(
            std::time::Duration::from_millis(16),
        ))
        .insert_resource(ShootAt {
            path,
            frame: options.frames,
            played: 0,
            taken: false,
        })
        .add_systems(
            Update,
            shoot_then_quit.run_if(not(in_state(Screen::Loading))),
        );
    }
    remembered
}

/// The casino to play online at: the page's own server in the browser; natively `--server`, else this machine's
/// default one.
fn online_address(given: Option<&str>) -> Result<crate::game::online::link::Address, String> {
    #[cfg(target_arch = "wasm32")]
    {
        let _ = given;
        crate::game::online::link::Address::of_the_page()
    }
    #[cfg(not(target_arch = "wasm32"))]
    crate::game::online::link::Address::parse(given.unwrap_or(crate::game::online::DEFAULT_SERVER))
}

/// The `assets` folder: `BEVY_ASSET_ROOT`'s, or the one beside the working directory (the source tree, an unpacked
/// release), or beside the executable (`carried::asset_home`); where there is none, the game reads the copies it
/// carries (`platform` makes them the default source) and the folder named here is not read. In the browser, the
/// folder the page names (`web::asset_folder`).
fn asset_root() -> String {
    #[cfg(target_arch = "wasm32")]
    {
        crate::game::platform::web::asset_folder()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        match native_asset_home() {
            crate::game::platform::carried::AssetHome::Folder(folder) => folder,
            crate::game::platform::carried::AssetHome::Carried => "assets".to_string(),
        }
    }
}

/// Where this process reads its assets from (`carried::asset_home`, from its working directory and executable).
#[cfg(not(target_arch = "wasm32"))]
fn native_asset_home() -> crate::game::platform::carried::AssetHome {
    crate::game::platform::carried::asset_home(
        std::env::current_dir().ok(),
        std::env::current_exe().ok(),
    )
}

/// Tells the page when the table's first frame is being drawn (this one, HUD and all: see
/// `hud::table_hud::hud_area`); the page marks it on screen at its next frame.
#[cfg(target_arch = "wasm32")]
fn announce_table(mut told: Local<bool>) {
    if !*told {
        *told = true;
        crate::game::platform::web::announce("holecard-table");
    }
}

/// A game that cannot start says why on the page, in place of the loading bar.
#[cfg(target_arch = "wasm32")]
fn show_why_it_stopped(mut stopped: MessageReader<crate::game::pages::GameStopped>) {
    for crate::game::pages::GameStopped(message) in stopped.read() {
        crate::game::platform::web::fail(message);
    }
}

/// Where and when to save the window: `frame` frames after loading.
#[derive(Resource)]
struct ShootAt {
    path: PathBuf,
    frame: u32,
    played: u32,
    taken: bool,
}

fn shoot_then_quit(mut commands: Commands, mut shot: ResMut<ShootAt>) {
    shot.played += 1;
    if shot.taken || shot.played < shot.frame {
        return;
    }
    shot.taken = true;
    let path = shot.path.clone();
    let mut save = save_to_disk(path.clone());
    commands.spawn(Screenshot::primary_window()).observe(
        move |captured: On<ScreenshotCaptured>, mut exit: MessageWriter<AppExit>| {
            save(captured);
            info!("saved the window to {}", path.display());
            exit.write(AppExit::Success);
        },
    );
}

/// `--start replay`: the newest kept round goes on the felt as soon as the Title is up.
fn replay_the_newest(kept: Res<crate::game::keep::history::Kept>, mut commands: Commands) {
    match crate::host::replay::rounds(&kept.history.hands).next() {
        Some(round) => {
            commands.insert_resource(crate::game::model::seat::OpenTable::Replay(
                crate::game::model::seat::Replayed::Own(round),
            ));
        }
        None => warn!("--start replay: no hands are kept yet, so the Title opens"),
    }
}

/// With `--bet` and `--coach`: the player's first decision is made off the chart (the first legal play that is not the
/// book's), so that the picture shows the coach stopping it.
fn off_the_chart(
    seen: Option<Res<crate::game::model::table::SeatView>>,
    session: Res<crate::game::model::session::Session>,
    mut choices: MessageWriter<crate::game::model::coach::Choice>,
    mut done: Local<bool>,
) {
    use crate::engine::TableState;
    use crate::game::model::coach;
    let (Some(seen), Some(seat)) = (seen, crate::game::model::session::human_seat(&session)) else {
        return;
    };
    let view = &seen.0;
    if *done || view.seat_to_act() != Some(seat) {
        return;
    }
    let Some(book_play) = coach::book_play(view, seat, None) else {
        return;
    };
    if let Some(action) = view
        .legal_actions(seat)
        .iter()
        .find(|&action| action != book_play.play)
    {
        *done = true;
        // Chosen as a player would; the coach stops it, as it does any play off the chart.
        choices.write(coach::Choice::Play(action));
    }
}
