//! The game as one plugin, for the window, the browser and the headless run alike.

use super::window;
use crate::engine::RuleError;
use crate::game::keep::sitting::Sitting;
use crate::game::model::screen::{Screen, TableOpens};
use crate::game::model::{session, table};
use crate::game::{felt, keep, local, model, online};
use crate::host::level::Level;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::time::TimeUpdateStrategy;
use std::time::Duration;

/// How the game is shown.
#[derive(Clone, Debug)]
pub enum Display {
    /// In a window, or the browser page's canvas: Bevy's default plugins, egui, the art, the sound, the HUD, saves.
    Window(window::WindowOptions),
    /// No window or GPU: the logic alone, or with `animated` the table's look too on placeholder art (every glide,
    /// flip and chip flight runs, nothing is drawn).
    Headless {
        /// Run the look as well.
        animated: bool,
    },
}

/// The whole game as one plugin, for the window, the browser and the headless run alike: the platform's plugins,
/// the table's logic (screens, the host, seats, the player's intents), and the presentation the display has.
#[derive(Clone, Debug)]
pub struct AppPlugin {
    session: session::Session,
    speed: Option<table::Speed>,
    display: Display,
    restore: Option<Sitting>,
}

impl AppPlugin {
    /// The game at `level`, its table seeded from `seed`, with an AI in the player's seat if `autoplay`. A table the
    /// engine would refuse is refused now, not when the player sits down.
    pub fn new(
        level: Level,
        seed: u64,
        autoplay: bool,
        display: Display,
    ) -> Result<AppPlugin, RuleError> {
        let session = session::Session::new(level, seed, autoplay);
        session.new_table()?;
        Ok(AppPlugin {
            session,
            speed: None,
            display,
            restore: None,
        })
    }

    /// The game sitting back down at a saved sitting.
    pub fn restoring(sitting: Sitting, display: Display) -> AppPlugin {
        AppPlugin {
            session: sitting.session.clone(),
            speed: None,
            display,
            restore: Some(sitting),
        }
    }

    /// At this pace (else the remembered setting in a window, normal speed headless).
    pub fn at(mut self, speed: table::Speed) -> AppPlugin {
        self.speed = Some(speed);
        self
    }
}

impl Plugin for AppPlugin {
    fn build(&self, app: &mut App) {
        match &self.display {
            Display::Window(options) => window::platform(app, options, &self.session.level.name),
            Display::Headless { .. } => headless_platform(app),
        }
        logic_plugin(app);
        let remembered = match &self.display {
            Display::Window(options) => Some(window::presentation(app, options, &self.session)),
            Display::Headless { animated } => {
                if *animated {
                    look_without_a_screen(app);
                }
                None
            }
        };
        let speed = self
            .speed
            .or(remembered.map(|p| p.speed))
            .unwrap_or_default();
        app.insert_resource(table::Beats::at(speed))
            .insert_resource(self.session.clone());
        if let Some(sitting) = &self.restore {
            match sitting.restore() {
                Ok(restore) => {
                    app.insert_resource(restore);
                }
                // The save stays as it was; the table opens fresh.
                Err(problem) => error!("cannot resume the saved sitting: {problem}"),
            }
        }
    }
}

/// The game's logic, which runs the same with a window or without one: screens and round phases, the table's
/// entities, the seats and the player's intents.
pub fn logic_plugin(app: &mut App) {
    // Messages last two frames, every frame. Bevy's clock keeps them until a fixed-timestep step has run, which never
    // happens while the pause menu stops the table's clock: every message written meanwhile would stay (a redraw
    // asked for once would be asked for again after every frame: model::frames). Nothing here runs on fixed steps.
    // (Said every frame: each fixed step of Bevy's clock says it again its own way.)
    app.add_systems(
        First,
        (|mut registry: ResMut<bevy::ecs::message::MessageRegistry>| {
            registry.should_update = bevy::ecs::message::ShouldUpdateMessages::Always;
        })
        .before(bevy::ecs::message::MessageUpdateSystems),
    );
    app.add_plugins((model::plugin, local::plugin, keep::plugin, online::plugin))
        .add_systems(
            OnEnter(Screen::Table),
            (
                table::reset,
                online::arrive,
                local::table::open,
                keep::history::start_recording,
                table::spawn_table,
                table::show_restored,
                local::seats::seat_the_table,
            )
                .chain()
                .in_set(TableOpens),
        );
}

/// Runs every schedule of the app's main world on one thread. The table's ECS is a few dozen small systems: waking
/// worker threads for them costs more than the systems themselves (on two cores, a multi-threaded frame spent most
/// of its 1.3 ms in thread hand-offs). Call after every plugin has added its schedules.
pub fn single_threaded(app: &mut App) {
    let mut schedules = app.world_mut().resource_mut::<Schedules>();
    for (_, schedule) in schedules.iter_mut() {
        schedule.set_executor(bevy::ecs::schedule::SingleThreadedExecutor::new());
    }
}

/// The headless platform: Bevy's minimal plugins and states, the clock stepping 16 ms a frame.
fn headless_platform(app: &mut App) {
    app.add_plugins((MinimalPlugins, StatesPlugin))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
            16,
        )));
}

/// The view and motion plugins on placeholder pictures and fonts: every entity, label and animation of the table
/// exists and moves, and nothing is drawn.
fn look_without_a_screen(app: &mut App) {
    use bevy::asset::AssetApp;
    app.add_plugins((AssetPlugin::default(), bevy::transform::TransformPlugin))
        .init_asset::<Image>()
        .init_asset::<TextureAtlasLayout>()
        .init_asset::<Mesh>()
        .init_asset::<ColorMaterial>()
        .init_resource::<felt::art::Look>()
        .init_resource::<ClearColor>()
        .insert_resource(felt::art::Art::placeholder())
        .insert_resource(felt::fonts::GameFonts {
            regular: Handle::default(),
            bold: Handle::default(),
        })
        .add_plugins((
            felt::fonts::fonts_plugin,
            felt::lettering::plugin,
            felt::motion::plugin,
            felt::view::plugin,
        ));
}
