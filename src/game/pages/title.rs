//! The Title: the game's name over the table's felt, and its main menu (resume, play, watch, play online, and the
//! way to every page). Each page has its own file and system; this one paints the felt behind them all.

use super::*;
use crate::engine::words::counted;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        (
            title_backdrop
                .in_set(Draw::Behind)
                .run_if(in_state(Screen::Title)),
            main_menu.in_set(Draw::Page).run_if(in_state(Menu::Main)),
        ),
    );
}

/// The table's felt behind every page of the Title; on the main menu, where there is room beside its column, a hand
/// and chips lying on it.
fn title_backdrop(
    mut contexts: EguiContexts,
    session: Res<Session>,
    menu: Res<State<Menu>>,
) -> Result {
    let beside = (*menu.get() == Menu::Main).then_some(MENU_COLUMN);
    super::backdrop::paint_backdrop(contexts.ctx_mut()?, session.level.felt, beside);
    Ok(())
}

/// The main menu's column, in points: its buttons' width and a margin.
const MENU_COLUMN: f32 = 400.0;

/// The main menu: Resume (a sitting kept from last time), Play and Watch at the chosen table, Play online, and the
/// pages; every button of one width.
#[allow(clippy::too_many_arguments)]
fn main_menu(
    mut contexts: EguiContexts,
    mut to_menu: ResMut<NextState<Menu>>,
    mut tables: ResMut<Tables>,
    mut session: ResMut<Session>,
    mut next: ResMut<NextState<Screen>>,
    mut exit: MessageWriter<AppExit>,
    (mut saved, slot, mut forgetting): (
        ResMut<crate::game::keep::slot::Saved>,
        Option<Res<crate::game::keep::slot::SaveSlot>>,
        Local<bool>,
    ),
    mut casino: Option<ResMut<crate::game::model::casino::Casino>>,
    mut welcomed: Option<ResMut<crate::game::model::settings::Welcomed>>,
    mut commands: Commands,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let theme = Theme::of(ctx);
    egui::CentralPanel::default()
        .frame(egui::Frame::NONE)
        .show(&mut root_ui(ctx), |ui| {
            egui::ScrollArea::vertical()
                .auto_shrink([false, false])
                .show(ui, |ui| {
                    ui.vertical_centered(|ui| {
                        let tall = ui.available_height() > 760.0;
                        ui.add_space(if tall { 48.0 } else { 20.0 });
                        ui.heading(bold("HOLECARD").size(theme::size::TITLE).color(GOLD));
                        ui.label(egui::RichText::new("casino blackjack").size(theme::size::LARGE));
                        ui.add_space(16.0);
                        ui.label(
                            egui::RichText::new(format!("Table: {}", session.level.name))
                                .size(theme::size::LARGE),
                        );
                        ui.add_space(8.0);
                        let width = (ui.available_width() - 32.0).min(MENU_COLUMN - 40.0);
                        let big = |ui: &mut egui::Ui, text: &str, enabled: bool| {
                            ui.add_enabled(enabled, theme.wide_button(text, width))
                                .clicked()
                        };
                        // The first start offers How to play, once, above everything (`how_to_play::plugin`
                        // records the answer); afterwards it is a button among the pages.
                        let offer = saved.sitting.is_none()
                            && welcomed.as_ref().is_some_and(|w| !w.0);
                        if offer {
                            page_frame().show(ui, |ui| {
                                ui.set_width(width - 30.0);
                                ui.label(bold("New to blackjack?").size(theme::size::LARGE).color(GOLD));
                                ui.label(
                                    "How to play tells you the aim, a round, this table's rules and the \
                                     controls, in a few minutes.",
                                );
                                let (_, each) = theme::grid(width - 30.0, 2, 120.0);
                                ui.horizontal(|ui| {
                                    if ui.add(theme.wide_button("How to play", each)).clicked() {
                                        to_menu.set(Menu::HowToPlay);
                                    }
                                    if ui.add(theme.wide_button("Not now", each)).clicked()
                                        && let Some(welcomed) = welcomed.as_deref_mut()
                                    {
                                        welcomed.0 = true;
                                    }
                                });
                            });
                            ui.add_space(8.0);
                        }
                        let mid_round = saved
                            .sitting
                            .as_ref()
                            .is_some_and(|s| s.table.state().phase() != Phase::Betting);
                        let mut forget = false;
                        if let Some(sitting) = &saved.sitting {
                            if big(ui, "Resume", true) {
                                commands.insert_resource(OpenTable::Resume);
                            }
                            let at = if mid_round {
                                format!("{}, in the middle of a round", sitting.session.level.name)
                            } else {
                                sitting.session.level.name.clone()
                            };
                            ui.label(egui::RichText::new(at).color(CREAM));
                            // Starting afresh forgets the sitting (asked first): its chips, and a round on the felt
                            // with its bets; the hand history and the statistics stay.
                            if !*forgetting {
                                *forgetting = big(ui, "Start afresh", true);
                            } else {
                                let stake = if mid_round {
                                    "its chips and the round on the felt"
                                } else {
                                    "its chips"
                                };
                                ui.label(format!(
                                    "Forget this sitting, {stake}? Your hand history and statistics stay."
                                ));
                                let (_, each) = theme::grid(width, 2, 120.0);
                                ui.horizontal(|ui| {
                                    ui.add_space(((ui.available_width() - width) / 2.0).max(0.0));
                                    forget = ui.add(theme.wide_button("Forget it", each)).clicked();
                                    if ui.add(theme.wide_button("Keep it", each)).clicked() {
                                        *forgetting = false;
                                    }
                                });
                            }
                        }
                        if forget {
                            if let Some(slot) = &slot {
                                slot.clear();
                            }
                            saved.sitting = None;
                            saved.problem = None;
                            *forgetting = false;
                        }
                        let play = match &saved.sitting {
                            Some(s) if s.session.player_seat.is_some() => {
                                format!("Play with your {}", s.player_chips())
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
                                let shoe = counted(decks, "deck", "decks");
                                if big(ui, &format!("{play} · {shoe}"), !mid_round) {
                                    sit_with = Some(Some(decks));
                                }
                            }
                        }
                        if let Some(decks) = sit_with {
                            if let Some(decks) = decks {
                                session.level = session.level.with_decks(decks);
                            }
                            sit_down(&mut session, &saved, &mut next, &mut commands);
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
                        if !offer && big(ui, "How to play", true) {
                            to_menu.set(Menu::HowToPlay);
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
                        for (text, page) in [
                            ("Trainer", Menu::Practice),
                            ("Strategy", Menu::Strategy),
                            ("Statistics", Menu::Statistics),
                            ("Settings", Menu::Settings),
                        ] {
                            if big(ui, text, true) {
                                to_menu.set(page);
                            }
                        }
                        // A page is left by closing its tab; quitting would only stop the game on a frozen frame.
                        if !cfg!(target_arch = "wasm32") && big(ui, "Quit", true) {
                            exit.write(AppExit::Success);
                        }
                        ui.add_space(16.0);
                    });
                });
        });
    Ok(())
}

/// Sits the player down at the chosen table with the chips of the sitting kept from last time (a fresh stack when
/// there is none, or it is spent); a round left on the felt is resumed as it was instead.
pub(super) fn sit_down(
    session: &mut Session,
    saved: &crate::game::keep::slot::Saved,
    next: &mut NextState<Screen>,
    commands: &mut Commands,
) {
    if saved
        .sitting
        .as_ref()
        .is_some_and(|s| s.table.state().phase() != Phase::Betting)
    {
        commands.insert_resource(OpenTable::Resume);
        return;
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
