//! The Tables page: every level file with its rules, limits, buy-in and companions, and its exact house edge; a broken
//! file shows its place and error. The house edge's line is shared with the casino's lobby.

use super::*;
use crate::engine::words::counted;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        tables_screen
            .in_set(Draw::Page)
            .run_if(in_state(Menu::Tables)),
    );
}

/// The page on the Title: picking a table goes back to the main menu with it chosen.
fn tables_screen(
    mut contexts: EguiContexts,
    mut tables: ResMut<Tables>,
    mut session: ResMut<Session>,
    mut edges: ResMut<crate::game::model::edges::HouseEdges>,
    mut side_edges: ResMut<crate::game::model::sides::SideEdges>,
    mut to_menu: ResMut<NextState<Menu>>,
) -> Result {
    if tables.0.is_empty() {
        tables.0 = catalogue(Path::new("levels"));
    }
    let mut picked = None;
    let back = page(contexts.ctx_mut()?, "Tables", |ui| {
        picked = tables_page(ui, &tables.0, (&mut edges, &mut side_edges));
    });
    if let Some(level) = picked {
        session.player_seat = level.player_seat;
        session.level = level;
        to_menu.set(Menu::Main);
    } else if back {
        to_menu.set(Menu::Main);
    }
    Ok(())
}

/// Every level file with its key rules; a broken one shows its file, line and error. Returns the table picked.
pub(super) fn tables_page(
    ui: &mut egui::Ui,
    listings: &[Listing],
    (edges, side_edges): (
        &mut crate::game::model::edges::HouseEdges,
        &mut crate::game::model::sides::SideEdges,
    ),
) -> Option<crate::host::level::Level> {
    let mut picked = None;
    // Broken files first, so they are seen.
    let mut order: Vec<&Listing> = listings.iter().collect();
    order.sort_by_key(|l| l.level.is_ok());
    // As wide as a wide window allows, narrower on an upright one.
    let width = (ui.available_width() - 16.0).min(780.0);
    let size = egui::vec2(width, ui.available_height() - 40.0);
    ui.allocate_ui_with_layout(size, egui::Layout::top_down(egui::Align::Min), |ui| {
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                for listing in order {
                    panel_frame().show(ui, |ui| {
                        ui.set_width(width - 40.0);
                        match &listing.level {
                            Ok(level) => {
                                let rules = level.rules.rules();
                                ui.horizontal(|ui| {
                                    ui.label(bold(&level.name).size(18.0).color(GOLD));
                                    ui.with_layout(
                                        egui::Layout::right_to_left(egui::Align::Center),
                                        |ui| {
                                            if ui.button("Sit here").clicked() {
                                                picked = Some(level.clone());
                                            }
                                        },
                                    );
                                });
                                ui.label(&level.description);
                                let shoes = match level.deck_choices.as_slice() {
                                    [] => String::new(),
                                    choices => {
                                        let listed: Vec<String> =
                                            choices.iter().map(u8::to_string).collect();
                                        format!(" · pick {} decks", listed.join(", "))
                                    }
                                };
                                let companions = match level.companions.len() {
                                    0 => "no companions".to_string(),
                                    n => counted(n as u64, "companion", "companions"),
                                };
                                theme::rule_codes(ui, &rules, &listing.path, theme::size::SMALL);
                                ui.label(
                                    egui::RichText::new(format!(
                                        "Bets {}–{} · buy-in {} · {companions}{shoes}",
                                        rules.min_bet, rules.max_bet, level.buy_in,
                                    ))
                                    .size(13.0),
                                );
                                ui.label(house_edge_line(edges.edge(&rules)));
                                side_bet_lines(ui, &rules, side_edges);
                            }
                            Err(error) => {
                                ui.label(
                                    bold(format!(
                                        "{} — broken, not playable",
                                        listing.path.display()
                                    ))
                                    .color(REFUSAL),
                                );
                                ui.label(error.to_string());
                            }
                        }
                    });
                    ui.add_space(6.0);
                }
            });
    });
    picked
}

/// Each side bet the table offers: what it is, what each hand pays, the most on it, and its house edge on a full
/// shoe.
fn side_bet_lines(
    ui: &mut egui::Ui,
    rules: &crate::engine::Rules,
    edges: &mut crate::game::model::sides::SideEdges,
) {
    use crate::engine::side::SideWin;
    for bet in rules.side_bets.offered() {
        let edge = edges.value(rules, bet).map_or_else(String::new, |value| {
            format!(" · {}", super::table_hud::edge_words(value))
        });
        let [r, g, b] = crate::host::design::side_colour(bet);
        let mut line = egui::text::LayoutJob::default();
        let style = ui.style().clone();
        egui::RichText::new("● ")
            .size(13.0)
            .color(egui::Color32::from_rgb(r, g, b))
            .append_to(
                &mut line,
                &style,
                egui::FontSelection::Default,
                egui::Align::Center,
            );
        bold(format!(
            "Side bet {}, up to {}{edge}",
            bet.name(),
            rules.side_bets.max_bet
        ))
        .size(13.0)
        .color(GOLD)
        .append_to(
            &mut line,
            &style,
            egui::FontSelection::Default,
            egui::Align::Center,
        );
        ui.add_space(4.0);
        ui.add(egui::Label::new(line).wrap());
        let pays: Vec<String> = SideWin::of(bet)
            .into_iter()
            .filter_map(|win| {
                let pays = rules.side_bets.pays(win).filter(|&p| p > 0)?;
                Some(format!("{} {pays} to 1", win.name()))
            })
            .collect();
        ui.label(
            egui::RichText::new(format!("{} Pays: {}.", bet.meaning(), pays.join(", "))).size(13.0),
        );
    }
}

/// A table's house edge in words: for a player of the chart, on the full shoe; "working out" until known.
pub(super) fn house_edge_line(edge: Option<f64>) -> egui::RichText {
    match edge {
        Some(edge) if edge < 0.0 => egui::RichText::new(format!(
            "Your edge {:.3}%: what you win of each bet on average, playing by the chart",
            -edge
        )),
        Some(edge) => egui::RichText::new(format!(
            "House edge {edge:.3}%: what the house keeps of each bet on average, when you play by the chart"
        )),
        None => egui::RichText::new("House edge: working it out…"),
    }
    .size(13.0)
    .color(GOLD)
}
