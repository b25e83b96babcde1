//! The Loading screen: the preload's progress, and the game's fonts installed in egui as soon as they are in.

use super::*;

/// The game cannot start, and why (the platform shows it where the player will see it: the browser's page).
#[derive(Message, Clone, Debug)]
pub struct GameStopped(pub String);

/// Progress of the preload: egui gets the game's fonts as soon as they are in, and once every asset is in the game
/// moves on.
#[allow(clippy::too_many_arguments)]
pub(super) fn loading_screen(
    mut contexts: EguiContexts,
    preload: Res<Preload>,
    mut fonts_installed: Local<bool>,
    assets: Res<AssetServer>,
    fonts: Res<Assets<FontFile>>,
    game_fonts: Res<GameFonts>,
    start: Option<Res<StartAt>>,
    mut next: ResMut<NextState<Screen>>,
    mut exit: MessageWriter<AppExit>,
    mut stopped: MessageWriter<GameStopped>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let total = preload.handles().count();
    let Tally { done, failures, .. } =
        Tally::of(&assets, preload.handles().map(|(path, h)| (path, h.id())));
    egui::CentralPanel::default()
        .frame(egui::Frame::new().fill(BACKDROP))
        .show(&mut root_ui(ctx), |ui| {
            ui.vertical_centered(|ui| {
                ui.add_space(ui.available_height() / 3.0);
                ui.heading(egui::RichText::new("HOLECARD").size(48.0).color(GOLD));
                ui.label(format!("Shuffling up… {done} of {total}"));
                ui.add(
                    egui::ProgressBar::new(done as f32 / total.max(1) as f32).desired_width(360.0),
                );
                for failure in &failures {
                    ui.colored_label(REFUSAL, failure);
                }
            });
        });
    // egui has no font of its own (its built-in fonts would add 1.4 MB to the browser download): the game's fonts
    // come first in the preload and go in as soon as they are here. Without them nothing can be read, so a font that
    // cannot be loaded stops the game with the reason.
    if !*fonts_installed {
        let states = [&game_fonts.regular, &game_fonts.bold].map(|h| assets.load_state(h.id()));
        if let Some(error) = states.iter().find_map(|state| match state {
            bevy::asset::LoadState::Failed(error) => Some(error),
            _ => None,
        }) {
            let message = format!("the game's font could not be loaded: {error}");
            error!("{message}");
            stopped.write(GameStopped(message));
            exit.write(AppExit::from_code(3));
            return Ok(());
        }
        if states.iter().all(|state| state.is_loaded()) {
            *fonts_installed = true;
            install_fonts(ctx, &fonts, &game_fonts);
        }
    }
    if done == total && *fonts_installed {
        for failure in &failures {
            error!("could not load {failure}; the game carries on without it");
        }
        next.set(start.map_or(Screen::Title, |s| s.0));
    }
    Ok(())
}

/// egui draws in DejaVu Sans too, so ♠ ♥ ♦ ♣ and the table's text look the same everywhere.
pub(super) fn install_fonts(ctx: &egui::Context, files: &Assets<FontFile>, game_fonts: &GameFonts) {
    if let Some((regular, bold)) = font_bytes(files, game_fonts) {
        ctx.set_fonts(font_definitions(Some(regular), Some(bold)));
    }
}
