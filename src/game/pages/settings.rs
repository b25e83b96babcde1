//! The Settings page, from the Title and the pause menu: speed, the helps, the cards and motion, and sound.

use super::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        settings_screen
            .in_set(Draw::Page)
            .run_if(in_state(Menu::Settings)),
    );
}

/// The page on the Title.
fn settings_screen(
    mut contexts: EguiContexts,
    mut settings: Settings,
    mut to_menu: ResMut<NextState<Menu>>,
) -> Result {
    if page(contexts.ctx_mut()?, "Settings", |ui| {
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                ui.vertical_centered(|ui| settings_page(ui, &mut settings))
            });
    }) {
        to_menu.set(Menu::Main);
    }
    Ok(())
}

/// Every setting, in one column as wide as the screen allows.
pub(super) fn settings_page(ui: &mut egui::Ui, settings: &mut Settings) {
    let theme = Theme::of(ui.ctx());
    let width = (ui.available_width() - 28.0).min(460.0);
    panel_frame().show(ui, |ui| {
        ui.set_width(width);
        ui.label(bold("Speed"));
        ui.horizontal_wrapped(|ui| {
            let speed = &mut settings.beats.speed;
            ui.radio_value(speed, Speed::Normal, "Normal");
            ui.radio_value(speed, Speed::Fast, "Fast");
            ui.radio_value(speed, Speed::Instant, "Instant (skip animations)");
        });
        ui.add_space(6.0);
        ui.checkbox(&mut settings.options.auto_stand_21, "Stand by itself on 21");
        ui.checkbox(
            &mut settings.options.keep_every_seat,
            "Keep every seat's hands in the history",
        );
        ui.checkbox(
            &mut settings.options.advisor,
            theme.hint(
                "Advisor: what each play wins or loses on average, on this shoe",
                "A",
            ),
        );
        ui.checkbox(
            &mut settings.options.coach,
            theme.hint(
                "Coach: a play off the chart is stopped once, with its cost",
                "G",
            ),
        );
        ui.horizontal(|ui| {
            ui.checkbox(
                &mut settings.options.show_count,
                theme.hint("Show the count", "O"),
            );
            let chosen = settings.options.count_system().name.as_str();
            egui::ComboBox::from_id_salt("count system")
                .selected_text(chosen)
                .show_ui(ui, |ui| {
                    for (i, system) in crate::engine::count::systems().iter().enumerate() {
                        ui.selectable_value(
                            &mut settings.options.count_system,
                            i as u8,
                            system.name.as_str(),
                        );
                    }
                });
        });
        ui.add_enabled(
            !settings.options.show_count,
            egui::Checkbox::new(
                &mut settings.options.count_quiz,
                "With the count hidden, ask for my count when the shoe is shuffled",
            ),
        );
        // The share of Kelly's bet the advisor suggests between rounds.
        ui.horizontal_wrapped(|ui| {
            ui.label("The advisor's suggested bet:");
            // Each a thumb's target on a touch screen.
            let target = Theme::of(ui.ctx()).target();
            for (percent, words) in [(25, "a quarter"), (50, "half"), (100, "all")] {
                let chosen = settings.options.kelly_percent == percent;
                let button =
                    egui::Button::selectable(chosen, words).min_size(egui::vec2(target, target));
                if ui.add(button).clicked() {
                    settings.options.kelly_percent = percent;
                }
            }
            ui.label("of Kelly's bet");
        });
        ui.checkbox(
            &mut settings.options.luck,
            "Work out each round's expected result, so Statistics can tell luck from skill",
        );
        ui.add_space(8.0);
        ui.label(bold("Cards and motion"));
        let look = &mut *settings.look;
        ui.checkbox(&mut look.four_colour, "Four-colour deck (♣ green, ♦ blue)");
        ui.checkbox(&mut look.large_index, "Large corner indices");
        ui.checkbox(
            &mut look.reduced_motion,
            "Reduced motion (fades instead of moves)",
        );
        ui.add_space(8.0);
        ui.label(bold("Sound"));
        if settings.hearing.as_ref().is_some_and(|h| !h.device) {
            ui.colored_label(REFUSAL, "No audio device: the game is playing silently.");
        }
        match settings.mix.as_deref_mut() {
            Some(mix) => {
                for (name, fader) in [
                    ("Music", &mut mix.music),
                    ("Ambience", &mut mix.ambience),
                    ("Effects", &mut mix.effects),
                ] {
                    ui.horizontal(|ui| {
                        ui.add_sized([90.0, theme::size::TARGET], egui::Label::new(name));
                        ui.add_enabled(
                            !fader.muted,
                            egui::Slider::new(&mut fader.volume, 0.0..=1.0).show_value(false),
                        );
                        ui.checkbox(&mut fader.muted, "Mute");
                    });
                }
            }
            None => {
                ui.label("No sound in this build.");
            }
        }
    });
}
