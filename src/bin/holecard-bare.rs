//! The floor under the browser game's start: Bevy 0.19 with the game's Bevy features and its own set-up of Bevy's
//! plugins (`bevy_plugins`), egui and kira, built, packed and served exactly as the game is (`scripts/build-web
//! --bare`), loading the game's fonts and felt, drawing the felt full-window with one egui window and one label over
//! it. It marks `holecard-ready` when they are loaded and `holecard-table` on the next frame, the first that draws
//! them, so `web/test/first-frame.mjs` can time the two side by side and give the game's first table frame as a
//! ratio to this one.
//!
//! Natively it opens the same window (`cargo run --bin holecard-bare`), which keeps it compiling and linted.

use bevy::prelude::*;
use bevy::window::WindowResolution;
use bevy_egui::{EguiContexts, EguiPlugin, EguiPrimaryContextPass, egui};
use holecard::game::felt::fonts::{BOLD, FontFile, REGULAR, font_definitions, fonts_plugin};
use holecard::game::platform::window::bevy_plugins;

/// What the app loads before it draws: the game's two fonts and its felt.
#[derive(Resource)]
struct Loading {
    regular: Handle<FontFile>,
    bold: Handle<FontFile>,
    felt: Handle<Image>,
}

/// Where the app stands: loading, then the frame that first draws the felt and the label, then on.
#[derive(Resource, Default, PartialEq, Eq)]
enum Stage {
    #[default]
    Loading,
    FirstFrame,
    Shown,
}

fn main() {
    App::new()
        .add_plugins(bevy_plugins(
            "Holecard — the bare app".into(),
            WindowResolution::default(),
        ))
        .add_plugins((EguiPlugin::default(), bevy_kira_audio::AudioPlugin))
        .add_plugins(fonts_plugin)
        .init_resource::<Stage>()
        .add_systems(Startup, start)
        .add_systems(Update, (mark_the_first_frame, settle).chain())
        .add_systems(EguiPrimaryContextPass, label)
        .run();
}

fn start(mut commands: Commands, assets: Res<AssetServer>) {
    commands.spawn(Camera2d);
    commands.insert_resource(Loading {
        regular: assets.load(REGULAR),
        bold: assets.load(BOLD),
        felt: assets.load("table/felt.png"),
    });
}

/// Once the fonts and the felt are in: egui gets the fonts, the felt fills the window, and the page is told.
fn settle(
    mut commands: Commands,
    loading: Res<Loading>,
    fonts: Res<Assets<FontFile>>,
    images: Res<Assets<Image>>,
    windows: Query<&Window>,
    mut stage: ResMut<Stage>,
    mut contexts: EguiContexts,
) {
    if *stage != Stage::Loading {
        return;
    }
    let (Some(regular), Some(bold), true) = (
        fonts.get(&loading.regular),
        fonts.get(&loading.bold),
        images.contains(&loading.felt),
    ) else {
        return;
    };
    let Ok(ctx) = contexts.ctx_mut() else {
        return;
    };
    ctx.set_fonts(font_definitions(
        Some(regular.0.to_vec()),
        Some(bold.0.to_vec()),
    ));
    let size = windows
        .single()
        .map(|w| Vec2::new(w.width(), w.height()))
        .unwrap_or(Vec2::new(1280.0, 720.0));
    commands.spawn(Sprite {
        image: loading.felt.clone(),
        custom_size: Some(size),
        ..default()
    });
    #[cfg(target_arch = "wasm32")]
    holecard::game::platform::web::announce("holecard-ready");
    *stage = Stage::FirstFrame;
}

/// The frame after the one that loaded everything is the first whose picture has the felt and the label.
fn mark_the_first_frame(mut stage: ResMut<Stage>, mut marked: Local<bool>) {
    if *stage == Stage::FirstFrame && !*marked {
        *marked = true;
        #[cfg(target_arch = "wasm32")]
        holecard::game::platform::web::announce("holecard-table");
        *stage = Stage::Shown;
    }
}

fn label(mut contexts: EguiContexts, stage: Res<Stage>) {
    if *stage == Stage::Loading {
        return;
    }
    let Ok(ctx) = contexts.ctx_mut() else {
        return;
    };
    egui::Window::new("Holecard").show(ctx, |ui| {
        ui.label("The bare app: Bevy, egui and kira, built as the game is.");
    });
}
