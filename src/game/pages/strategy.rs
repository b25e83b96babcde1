//! The Strategy page: the chosen table's basic-strategy chart, worked out for its rules and coloured as printed
//! cards are, and its index plays for the chosen count, worked out too (`model::strategy`).

use super::*;
use crate::engine::exact::chart::RowOf;
use crate::engine::exact::indices::{IndexHand, Set};
use crate::engine::exact::name_of;
use crate::engine::strategy::{Grid, Play, UP_CARDS, column_of_points};
use crate::game::model::strategy::{Indices, StrategyBook};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        strategy_screen
            .in_set(Draw::Page)
            .run_if(in_state(Menu::Strategy)),
    );
}

/// The page on the Title.
fn strategy_screen(
    mut contexts: EguiContexts,
    session: Res<Session>,
    options: Res<PlayOptions>,
    mut book: ResMut<StrategyBook>,
    mut to_menu: ResMut<NextState<Menu>>,
) -> Result {
    if page(contexts.ctx_mut()?, "Strategy", |ui| {
        strategy_page(ui, &session, &options, &mut book);
    }) {
        to_menu.set(Menu::Main);
    }
    Ok(())
}

/// A cell's colours as printed charts have them: hit white, stand yellow, double green, split blue, surrender red.
pub(super) fn cell_colours(play: Play) -> (egui::Color32, egui::Color32) {
    let dark = egui::Color32::from_rgb(0x1b, 0x1b, 0x1b);
    let fill = match play {
        Play::Hit | Play::ByTotal => egui::Color32::from_rgb(0xf2, 0xf0, 0xe8),
        Play::Stand => egui::Color32::from_rgb(0xf5, 0xd0, 0x3b),
        Play::DoubleOrHit | Play::DoubleOrStand => egui::Color32::from_rgb(0x5c, 0xc9, 0x7b),
        Play::Split => egui::Color32::from_rgb(0x6c, 0xa8, 0xf0),
        Play::SurrenderOrHit | Play::SurrenderOrStand | Play::SurrenderOrSplit => {
            egui::Color32::from_rgb(0xef, 0x7a, 0x6e)
        }
    };
    (fill, dark)
}

/// What a pair's cell shows: the split, or the play of the pair's total.
fn pair_shown(grid: &Grid, points: usize, col: usize) -> Play {
    let cell = grid.pair[points][col];
    if cell.splits() {
        cell
    } else if points == 1 {
        grid.soft[12][col]
    } else {
        grid.hard[points * 2][col]
    }
}

/// A chart's row: the hand's name and a cell per up card.
pub(super) type ChartRow = (String, [Play; 10]);

/// One chart: a heading row of up cards, then a row per hand.
pub(super) fn chart_table(ui: &mut egui::Ui, id: &str, rows: &[ChartRow], cell: f32) {
    marked_chart_table(ui, id, rows, cell, None);
}

/// One chart with a cell marked (`mark`: its row's place and the up card's column): the cell outlined, its row and
/// column as printed, the rest dimmed, so the eye finds it as a finger on a printed chart would.
pub(super) fn marked_chart_table(
    ui: &mut egui::Ui,
    id: &str,
    rows: &[ChartRow],
    cell: f32,
    mark: Option<(usize, usize)>,
) {
    egui::Grid::new(id)
        .spacing(egui::vec2(2.0, 2.0))
        .min_col_width(cell)
        .show(ui, |ui| {
            ui.label("");
            for up in UP_CARDS {
                ui.label(bold(name_of(up)));
            }
            ui.end_row();
            for (at, (name, row)) in rows.iter().enumerate() {
                ui.label(bold(name.as_str()));
                for (column, play) in row.iter().enumerate() {
                    let (mut fill, text) = cell_colours(*play);
                    let (rect, _) =
                        ui.allocate_exact_size(egui::vec2(cell, cell * 0.8), egui::Sense::hover());
                    if let Some((row_at, up_at)) = mark
                        && row_at != at
                        && up_at != column
                    {
                        fill = fill.gamma_multiply(0.35);
                    }
                    ui.painter().rect_filled(rect, 2.0, fill);
                    if mark == Some((at, column)) {
                        ui.painter().rect_stroke(
                            rect.expand(1.5),
                            3.0,
                            egui::Stroke::new(3.0, egui::Color32::from_rgb(0xd9, 0x2b, 0x3a)),
                            egui::StrokeKind::Outside,
                        );
                    }
                    ui.painter().text(
                        rect.center(),
                        egui::Align2::CENTER_CENTER,
                        play.code(),
                        egui::FontId::proportional((cell * 0.42).max(theme::size::SMALL)),
                        text,
                    );
                }
                ui.end_row();
            }
        });
}

/// The part of the chart a hand's row is in, its rows (the hard totals reaching up to the hand's, when it is above
/// the chart's 17), and the row's place in it.
pub(super) fn part_of(grid: &Grid, row: RowOf) -> (&'static str, Vec<ChartRow>, Option<usize>) {
    let [hard, soft, pairs] = chart_rows(grid);
    let (part, name) = match row {
        RowOf::Hard(total) => {
            let (title, mut rows) = hard;
            for above in (18..=usize::from(total).min(21)).rev() {
                let mut cells = [Play::Stand; 10];
                for up in UP_CARDS {
                    cells[column_of_points(up)] = grid.hard[above][column_of_points(up)];
                }
                rows.insert(0, (above.to_string(), cells));
            }
            ((title, rows), total.to_string())
        }
        RowOf::Soft(total) => (soft, format!("A,{}", total - 11)),
        RowOf::Pair(points) => {
            let card = name_of(points);
            (pairs, format!("{card},{card}"))
        }
    };
    let at = part.1.iter().position(|(n, _)| *n == name);
    (part.0, part.1, at)
}

/// The chart's three parts as rows of cells.
pub(super) fn chart_rows(grid: &Grid) -> [(&'static str, Vec<ChartRow>); 3] {
    let by_col = |f: &dyn Fn(usize) -> Play| -> [Play; 10] {
        let mut row = [Play::Hit; 10];
        for up in UP_CARDS {
            row[column_of_points(up)] = f(column_of_points(up));
        }
        row
    };
    let hard = (5..=17)
        .rev()
        .map(|t| (t.to_string(), by_col(&|c| grid.hard[t][c])))
        .collect();
    let soft = (13..=20)
        .rev()
        .map(|t| (format!("A,{}", t - 11), by_col(&|c| grid.soft[t][c])))
        .collect();
    let pairs = [1usize, 10, 9, 8, 7, 6, 5, 4, 3, 2]
        .into_iter()
        .map(|p| {
            let card = name_of(p as u8);
            (
                format!("{card},{card}"),
                by_col(&|c| pair_shown(grid, p, c)),
            )
        })
        .collect();
    [
        ("Hard totals", hard),
        ("Soft totals", soft),
        ("Pairs", pairs),
    ]
}

/// The page: the table's name and rules, the chart, the index plays.
pub(super) fn strategy_page(
    ui: &mut egui::Ui,
    session: &Session,
    options: &PlayOptions,
    book: &mut StrategyBook,
) {
    let rules = session.level.rules.rules();
    let system = options.count_system();
    book.ask(&rules, system);
    scrolling_column(ui, 860.0, |ui, width| {
        // Cells sized to the page: a phone's width fits the ten columns and the row names.
        let cell = if width >= 720.0 {
            28.0
        } else {
            ((width - 80.0) / 11.0).clamp(22.0, 34.0)
        };
        panel_frame().show(ui, |ui| {
                    ui.set_width(width - 40.0);
                    ui.label(bold(&session.level.name).size(18.0).color(GOLD));
                    theme::rule_codes(ui, &rules, "strategy", theme::size::SMALL);
                    ui.label(
                        egui::RichText::new(
                            "Basic strategy for these rules: each cell is the play that wins the most (or loses \
                             the least) on average, from a full shoe, with your first two cards making that total.",
                        )
                        .size(theme::size::SMALL),
                    );
                    ui.horizontal_wrapped(|ui| {
                        for (play, words) in [
                            (Play::Hit, "hit"),
                            (Play::Stand, "stand"),
                            (Play::DoubleOrHit, "double (else hit)"),
                            (Play::DoubleOrStand, "double (else stand)"),
                            (Play::Split, "split"),
                            (Play::SurrenderOrHit, "surrender (else hit)"),
                        ] {
                            let (fill, text) = cell_colours(play);
                            egui::Frame::NONE
                                .fill(fill)
                                .inner_margin(egui::Margin::symmetric(4, 1))
                                .corner_radius(2.0)
                                .show(ui, |ui| {
                                    ui.label(egui::RichText::new(play.code()).color(text).strong())
                                });
                            ui.label(egui::RichText::new(words).size(theme::size::SMALL));
                        }
                    });
                });
        ui.add_space(6.0);
        // Side by side where the page is wide enough, one under the other on a phone.
        if width >= 720.0 {
            ui.horizontal_top(|ui| {
                ui.vertical(|ui| charts(ui, book, cell));
                ui.vertical(|ui| indices_panel(ui, book, system));
            });
        } else {
            charts(ui, book, cell);
            indices_panel(ui, book, system);
        }
    });
}

/// The three charts, or word that they are being worked out.
fn charts(ui: &mut egui::Ui, book: &StrategyBook, cell: f32) {
    match book.chart() {
        Some(grid) => {
            for (title, rows) in chart_rows(grid) {
                panel_frame().show(ui, |ui| {
                    ui.label(bold(title).color(GOLD));
                    chart_table(ui, title, &rows, cell);
                });
                ui.add_space(6.0);
            }
        }
        None => {
            ui.label("Working out the chart…");
        }
    }
}

/// The index plays' panel.
fn indices_panel(ui: &mut egui::Ui, book: &StrategyBook, system: &crate::engine::count::System) {
    panel_frame().show(ui, |ui| {
        ui.label(bold(format!("Index plays, {}", system.name)).color(GOLD));
        index_table(ui, book.indices(), published_list_applies(system));
    });
}

/// The index plays: the hand, the play below the index, the play at it and above, the index, and for Hi-Lo the
/// published index beside it.
fn index_table(ui: &mut egui::Ui, indices: &Indices, hi_lo: bool) {
    match indices {
        Indices::Unasked => {}
        Indices::Working(done) => {
            working(ui, "Working out the index plays…", *done);
        }
        Indices::Unbalanced(why) => {
            ui.label(why.as_str());
        }
        Indices::Done(list) => {
            ui.label(
                egui::RichText::new(
                    "When the true count (rounded down) is at the index or above, the play on the right wins \
                     more than the one beside it.",
                )
                .size(theme::size::SMALL),
            );
            if hi_lo {
                ui.label(egui::RichText::new(why_they_differ()).size(theme::size::SMALL));
            }
            egui::Grid::new("indices")
                .striped(true)
                .spacing(egui::vec2(14.0, 3.0))
                .show(ui, |ui| {
                    let published = ["Hand", "Below", "At and above", "Index", "Published"];
                    for heading in &published[..if hi_lo { 5 } else { 4 }] {
                        ui.label(bold(*heading));
                    }
                    ui.end_row();
                    for index in list {
                        let play = index.play;
                        let set = match (play.set, play.hand) {
                            (_, IndexHand::Insurance) => "",
                            (Set::Fab4, _) => " (Fab 4)",
                            (Set::Illustrious18, _) => "",
                        };
                        ui.label(format!("{}{set}", play.name()));
                        ui.label(play.low.word());
                        ui.label(play.high.word());
                        ui.label(match (index.index, index.always) {
                            (Some(0), _) => bold("0").color(GOLD),
                            (Some(at), _) => bold(format!("{at:+}")).color(GOLD),
                            (None, true) => egui::RichText::new("always"),
                            (None, false) => egui::RichText::new("never"),
                        });
                        if hi_lo {
                            ui.label(crate::engine::exact::indices::published(&play).map_or_else(
                                String::new,
                                |at| match at {
                                    0 => "0".to_string(),
                                    at => format!("{at:+}"),
                                },
                            ));
                        }
                        ui.end_row();
                    }
                });
        }
    }
}

/// How the published index plays were found, and so why a few differ from the ones worked out here.
const HOW_PUBLISHED: &str = "were found by simulating shoes of six decks where the dealer stands on soft 17, and \
     rounded";

/// Why the index plays worked out here are not all the published ones.
fn why_they_differ() -> String {
    format!(
        "These are worked out for this table's own rules, on a shoe leaning evenly to each true count; the \
         published Illustrious 18 and Fab 4 (the last column) {HOW_PUBLISHED}, so a few differ by a point or so."
    )
}

/// The published index plays are Hi-Lo's: shown beside the worked-out ones for that count alone.
fn published_list_applies(system: &crate::engine::count::System) -> bool {
    system.name == crate::engine::count::hi_lo().name
}

/// Why `index`, worked out here, is not the published one, where there is a published one for `system`'s count and
/// it differs.
pub(super) fn why_this_differs(
    index: &crate::engine::exact::indices::Index,
    system: &crate::engine::count::System,
) -> Option<String> {
    let published = crate::engine::exact::indices::published(&index.play)
        .filter(|&at| published_list_applies(system) && Some(at) != index.index)?;
    Some(format!(
        "The published list says {} for this one: it and its companions {HOW_PUBLISHED}; this one is worked out \
         for this table's own rules.",
        crate::engine::words::signed(published.into(), 0)
    ))
}
