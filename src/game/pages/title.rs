//! The Title screen and its pages: Play, Watch, Tables (every level file) and Settings.

use super::*;

/// The title and its pages: Play, Tables, Settings, Quit.
#[allow(clippy::too_many_arguments)]
pub(super) fn title_screen(
    mut contexts: EguiContexts,
    menu: Res<State<Menu>>,
    mut to_menu: ResMut<NextState<Menu>>,
    mut tables: ResMut<Tables>,
    mut session: ResMut<Session>,
    mut settings: Settings,
    mut next: ResMut<NextState<Screen>>,
    mut exit: MessageWriter<AppExit>,
    (saved, mut refused): (Res<crate::game::keep::slot::Saved>, ResMut<OpenRefused>),
    kept: Res<crate::game::keep::history::Kept>,
    mut casino: Option<ResMut<crate::game::model::casino::Casino>>,
    (mut typed, mut asks): (
        ResMut<Typed>,
        MessageWriter<crate::game::model::casino::CasinoRequest>,
    ),
    mut commands: Commands,
    mut edges: ResMut<crate::game::model::edges::HouseEdges>,
    mut book: ResMut<crate::game::model::strategy::StrategyBook>,
    mut practice: ResMut<crate::game::model::practice::Practice>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    super::backdrop::paint_backdrop(ctx, session.level.felt);
    egui::CentralPanel::default()
        .frame(egui::Frame::NONE)
        .show(&mut root_ui(ctx), |ui| {
            ui.vertical_centered(|ui| {
                ui.add_space(60.0);
                ui.heading(bold("HOLECARD").size(56.0).color(GOLD));
                ui.label(egui::RichText::new("casino blackjack").size(18.0));
                ui.add_space(24.0);
                match *menu.get() {
                    Menu::Main => {
                        ui.label(
                            egui::RichText::new(format!("Table: {}", session.level.name))
                                .size(18.0),
                        );
                        ui.add_space(12.0);
                        let big = |ui: &mut egui::Ui, text: &str, enabled: bool| {
                            ui.add_enabled(enabled, wide_button(text)).clicked()
                        };
                        let mid_round = saved
                            .sitting
                            .as_ref()
                            .is_some_and(|s| s.table.state().phase() != Phase::Betting);
                        if let Some(sitting) = &saved.sitting {
                            let label = format!(
                                "Resume at {}{}",
                                sitting.session.level.name,
                                if mid_round { " (mid-round)" } else { "" }
                            );
                            if big(ui, &label, true) {
                                commands.insert_resource(OpenTable::Resume);
                            }
                        }
                        let play = match &saved.sitting {
                            Some(s) if s.session.player_seat.is_some() => {
                                format!("Play here with your {}", s.player_chips())
                            }
                            _ => "Play".to_string(),
                        };
                        // A table that offers a choice of shoes asks it as the player sits down.
                        let choices = session.level.deck_choices.clone();
                        let mut sit_with = None;
                        if choices.is_empty() {
                            if big(ui, &play, !mid_round) {
                                sit_with = Some(None);
                            }
                        } else {
                            for decks in choices {
                                let shoe = if decks == 1 {
                                    "1 deck".to_string()
                                } else {
                                    format!("{decks} decks")
                                };
                                if big(ui, &format!("{play} · {shoe}"), !mid_round) {
                                    sit_with = Some(Some(decks));
                                }
                            }
                        }
                        if let Some(decks) = sit_with {
                            if let Some(decks) = decks {
                                session.level = session.level.with_decks(decks);
                            }
                            session.player_seat = session.level.player_seat;
                            session.player_chips = saved
                                .sitting
                                .as_ref()
                                .filter(|s| s.session.player_seat.is_some())
                                .map(crate::game::keep::sitting::Sitting::player_chips)
                                .filter(|c| c.is_positive());
                            next.set(Screen::Table);
                        }
                        if big(ui, "Watch this table", !mid_round) {
                            session.player_seat = None;
                            next.set(Screen::Table);
                        }
                        if mid_round {
                            ui.label("Your last round is still on the felt: resume it first.");
                        }
                        if let Some(problem) = &saved.problem {
                            ui.colored_label(REFUSAL, problem);
                        }
                        if let Some(casino) = casino.as_deref_mut()
                            && big(ui, "Play online", true)
                        {
                            casino.problem = None;
                            to_menu.set(if casino.is_open() {
                                Menu::Lobby
                            } else {
                                Menu::Online
                            });
                        }
                        if big(ui, "Tables", true) {
                            tables.0 = catalogue(Path::new("levels"));
                            to_menu.set(Menu::Tables);
                        }
                        if big(ui, "Strategy", true) {
                            to_menu.set(Menu::Strategy);
                        }
                        if big(ui, "Practice", true) {
                            to_menu.set(Menu::Practice);
                        }
                        if big(ui, "Statistics", true) {
                            to_menu.set(Menu::Statistics);
                        }
                        if big(ui, "Settings", true) {
                            to_menu.set(Menu::Settings);
                        }
                        // A page is left by closing its tab; quitting would only stop the game on a frozen frame.
                        if !cfg!(target_arch = "wasm32") && big(ui, "Quit", true) {
                            exit.write(AppExit::Success);
                        }
                    }
                    Menu::Tables => {
                        if tables.0.is_empty() {
                            tables.0 = catalogue(Path::new("levels"));
                        }
                        if let Some(level) = tables_page(ui, &tables.0, &mut edges) {
                            session.player_seat = level.player_seat;
                            session.level = level;
                            to_menu.set(Menu::Main);
                        }
                        if ui.button("Back").clicked() {
                            to_menu.set(Menu::Main);
                        }
                    }
                    Menu::Practice => {
                        super::practice::practice_page(
                            ui,
                            &session,
                            &settings.options,
                            &mut practice,
                            &mut book,
                        );
                        if ui.button("Back").clicked() {
                            practice.finish_flash_session();
                            to_menu.set(Menu::Main);
                        }
                    }
                    Menu::Strategy => {
                        super::strategy::strategy_page(ui, &session, &settings.options, &mut book);
                        if ui.button("Back").clicked() {
                            to_menu.set(Menu::Main);
                        }
                    }
                    Menu::Settings => {
                        settings_page(ui, &mut settings);
                        if ui.button("Back").clicked() {
                            to_menu.set(Menu::Main);
                        }
                    }
                    Menu::Statistics => {
                        super::statistics::statistics_page(ui, &kept, None);
                        ui.add_space(8.0);
                        ui.horizontal(|ui| {
                            ui.add_space((ui.available_width() - 150.0).max(0.0) / 2.0);
                            if ui.button(bold("Hand history")).clicked() {
                                to_menu.set(Menu::Hands);
                            }
                            if ui.button("Back").clicked() {
                                to_menu.set(Menu::Main);
                            }
                        });
                    }
                    Menu::Online | Menu::Lobby | Menu::Leaderboard | Menu::ServerHands => {
                        let Some(casino) = casino.as_deref() else {
                            ui.label("Playing online is not set up in this build.");
                            if ui.button("Back").clicked() {
                                to_menu.set(Menu::Main);
                            }
                            return;
                        };
                        let go =
                            match *menu.get() {
                                Menu::Online => {
                                    super::casino::online_page(ui, casino, &mut asks, &mut typed)
                                }
                                Menu::Lobby => super::casino::lobby_page(ui, casino, &mut asks),
                                Menu::Leaderboard => super::casino::leaderboard_page(ui, casino)
                                    .then_some(Menu::Lobby),
                                _ => super::casino::server_hands_page(ui, casino)
                                    .then_some(Menu::Lobby),
                            };
                        if let Some(page) = go {
                            to_menu.set(page);
                        }
                    }
                    Menu::Hands => {
                        if let Some(round) = hands_page(ui, &kept) {
                            commands.insert_resource(OpenTable::Replay(round));
                        }
                        if let Some(problem) = &refused.0 {
                            ui.colored_label(REFUSAL, problem);
                        }
                        if ui.button("Back").clicked() {
                            refused.0 = None;
                            to_menu.set(Menu::Statistics);
                        }
                    }
                }
            });
        });
    Ok(())
}

pub(super) fn settings_page(ui: &mut egui::Ui, settings: &mut Settings) {
    panel_frame().show(ui, |ui| {
        ui.set_width(380.0);
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
            "Advisor: every play's exact value on this shoe  [A]",
        );
        ui.checkbox(
            &mut settings.options.coach,
            "Coach: a play off the chart is stopped once, with its cost  [G]",
        );
        ui.horizontal(|ui| {
            ui.checkbox(&mut settings.options.show_count, "Show the count  [O]");
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
                        ui.add_sized([76.0, 18.0], egui::Label::new(name));
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
