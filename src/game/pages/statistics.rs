//! The Statistics page, from the Title and the pause menu: the player's totals all-time and at this table, and the
//! bankroll over the kept hands.

use super::*;
use crate::game::keep::history::Kept;
use crate::host::history::{History, Totals};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        (
            statistics_screen
                .in_set(Draw::Page)
                .run_if(in_state(Menu::Statistics)),
            pause_statistics
                .in_set(Draw::Over)
                .run_if(in_state(Pause::Statistics)),
        ),
    );
}

/// The page on the Title, with the way to the hand history.
fn statistics_screen(
    mut contexts: EguiContexts,
    kept: Res<Kept>,
    mut to_menu: ResMut<NextState<Menu>>,
) -> Result {
    let mut hands = false;
    let back = page(contexts.ctx_mut()?, "Statistics", |ui| {
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                ui.vertical_centered(|ui| {
                    statistics_page(ui, &kept, None);
                    ui.add_space(8.0);
                    let theme = Theme::of(ui.ctx());
                    let width = (ui.available_width() - 32.0).min(360.0);
                    hands = ui.add(theme.wide_button("Hand history", width)).clicked();
                    ui.add_space(16.0);
                });
            });
    });
    if hands {
        to_menu.set(Menu::Hands);
    } else if back {
        to_menu.set(Menu::Main);
    }
    Ok(())
}

/// The page: the all-time totals and the sitting's (this one, at a table; the last one, on the Title) side by side
/// where there is room and one above the other where there is not, then the bankroll chart (beside them on a wide
/// Title). `table`: at a table, its name and the rounds dealt there so far.
pub(super) fn statistics_page(ui: &mut egui::Ui, kept: &Kept, table: Option<(&str, u64)>) {
    let history = &kept.history;
    let all = history.totals();
    if let Some(problem) = &kept.problem {
        ui.colored_label(REFUSAL, problem);
    }
    if all.hands == 0 {
        ui.label("No hands yet: every hand you play is kept here.");
        return;
    }
    let sitting = match table {
        // At a table whose first round is still to come, its sitting has nothing in it yet.
        Some((table, dealt)) => Some((
            "This sitting".to_string(),
            history
                .sitting_at(table, dealt)
                .map(|s| s.totals)
                .unwrap_or_default(),
        )),
        None => history
            .sittings()
            .pop()
            .map(|s| (format!("Last sitting · {}", s.table), s.totals)),
    };
    let mut panels = vec![("All-time".to_string(), all.clone())];
    panels.extend(sitting);
    let room = ui.available_width() - MARGIN;
    let row = panels_width(panels.len());
    let side_by_side = room >= row;
    let chart_beside = table.is_none() && room >= row + GAP + 400.0;
    let chart = if chart_beside {
        CHART_WIDTH.min(room - row - GAP)
    } else {
        CHART_WIDTH.min(room).min(row)
    };
    if side_by_side {
        let whole = if chart_beside { row + GAP + chart } else { row };
        ui.horizontal_top(|ui| {
            ui.add_space(((ui.available_width() - whole) / 2.0).max(0.0));
            for (index, (title, totals)) in panels.iter().enumerate() {
                if index > 0 {
                    ui.add_space(GAP);
                }
                ui.vertical(|ui| totals_panel(ui, title, totals));
            }
            if chart_beside {
                ui.add_space(GAP);
                ui.vertical(|ui| bankroll_chart(ui, history, all.highscore, chart));
            }
        });
    } else {
        for (title, totals) in &panels {
            ui.vertical_centered(|ui| totals_panel(ui, title, totals));
            ui.add_space(GAP);
        }
    }
    if !chart_beside {
        ui.add_space(8.0);
        ui.vertical_centered(|ui| bankroll_chart(ui, history, all.highscore, chart));
    }
}

/// A totals panel's width.
const PANEL_WIDTH: f32 = 330.0;
/// The most a totals panel's names take of it.
const NAME_WIDTH: f32 = 180.0;

/// The space between two panels side by side, and what the page keeps clear at its sides.
const GAP: f32 = 16.0;
const MARGIN: f32 = 20.0;

/// The width of `count` totals panels side by side, framed, with the gaps between them.
fn panels_width(count: usize) -> f32 {
    let count = count as f32;
    count * (PANEL_WIDTH + 24.0) + (count - 1.0) * GAP
}

/// The chart's width beside the Title's totals.
const CHART_WIDTH: f32 = 560.0;

fn totals_panel(ui: &mut egui::Ui, title: &str, t: &Totals) {
    panel_frame().show(ui, |ui| {
        ui.set_width(PANEL_WIDTH);
        ui.label(bold(title).size(18.0).color(GOLD));
        // Words, not targets: rows as tall as their words. Each column at most `NAME_WIDTH`; a value longer than
        // what is left of the panel wraps inside it.
        egui::Grid::new(title)
            .num_columns(2)
            .spacing([16.0, 6.0])
            .min_row_height(0.0)
            .max_col_width(NAME_WIDTH)
            .show(ui, |ui| {
                let mut row = |name: &str, value: String| {
                    ui.label(name);
                    ui.label(bold(value));
                    ui.end_row();
                };
                let share = |n: u64| format!("{n}  ({:.1} %)", t.percent(n));
                row("Hands", t.hands.to_string());
                row("Won", share(t.won));
                row("Lost", share(t.lost));
                row("Pushed", share(t.pushed));
                row("Blackjacks", share(t.blackjacks));
                row("Busts", share(t.busts));
                row("Surrenders", share(t.surrenders));
                row("Doubles won", format!("{} of {}", t.doubles_won, t.doubles));
                row(
                    "Split hands won",
                    format!("{} of {}", t.split_hands_won, t.split_hands),
                );
                row(
                    "Insurance won",
                    format!(
                        "{} of {}  ({})",
                        t.insurance_won,
                        t.insurance_taken,
                        t.insurance_net.signed()
                    ),
                );
                row("Net", t.net.signed().to_string());
                // Luck told from skill, over the rounds whose expected result was worked out as they were dealt.
                let p = &t.priced;
                if p.rounds > 0 {
                    row("Rounds valued as dealt", p.rounds.to_string());
                    row("What they brought", p.net.signed().to_string());
                    row("What the bets were worth", p.expected.signed().to_string());
                    let decisions = Cents::ZERO - p.decisions;
                    row(
                        "Your plays compared with the chart",
                        decisions.signed().to_string(),
                    );
                    row("What the cards gave", p.luck().signed().to_string());
                }
                row("Biggest win", t.biggest_win.signed().to_string());
                row("Biggest loss", t.biggest_loss.signed().to_string());
                row(
                    "Longest streaks",
                    format!("{} won, {} lost", t.longest_winning, t.longest_losing),
                );
                row(
                    "Decisions off the chart",
                    format!("{} of {}", t.off_book, t.decisions),
                );
                // Priced on the cards the seat had not seen: off the chart can be the better play.
                if t.off_book_cost < Cents::ZERO {
                    row(
                        "What they won you, on average",
                        (Cents::ZERO - t.off_book_cost).to_string(),
                    );
                } else {
                    row(
                        "What they cost you, on average",
                        t.off_book_cost.to_string(),
                    );
                }
                row("Highscore", t.highscore.to_string());
            });
    });
}

/// The bankroll after each kept round, as a line, with its highest and lowest marked.
fn bankroll_chart(ui: &mut egui::Ui, history: &History, highscore: Cents, width: f32) {
    let mut points: Vec<Cents> = Vec::new();
    let mut last: Option<(&str, u64)> = None;
    for hand in history.hands.iter().filter(|h| h.yours) {
        let round = Some((hand.table.as_str(), hand.round));
        if round != last {
            points.push(hand.bankroll);
            last = round;
        }
    }
    let rounds = match points.len() {
        1 => "the last round".to_string(),
        n => format!("the last {n} rounds"),
    };
    ui.label(format!("Bankroll over {rounds} (highscore {highscore})"));
    let (rect, _) =
        ui.allocate_exact_size(egui::vec2(width.max(200.0), 200.0), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 6.0, PANEL);
    let (Some(lo), Some(hi)) = (points.iter().min(), points.iter().max()) else {
        return;
    };
    let span = (hi.0 - lo.0).max(1) as f32;
    let plot = rect.shrink2(egui::vec2(12.0, 16.0));
    let steps = points.len().saturating_sub(1).max(1) as f32;
    let at = |i: usize, v: Cents| {
        egui::pos2(
            plot.left() + plot.width() * i as f32 / steps,
            plot.bottom() - plot.height() * (v.0 - lo.0) as f32 / span,
        )
    };
    let line: Vec<egui::Pos2> = points.iter().enumerate().map(|(i, v)| at(i, *v)).collect();
    painter.add(egui::Shape::line(line, egui::Stroke::new(2.0, GOLD)));
    let font = egui::FontId::proportional(13.0);
    let text = egui::Color32::from_gray(220);
    painter.text(
        plot.left_top(),
        egui::Align2::LEFT_TOP,
        hi.to_string(),
        font.clone(),
        text,
    );
    painter.text(
        plot.left_bottom(),
        egui::Align2::LEFT_BOTTOM,
        lo.to_string(),
        font,
        text,
    );
}

/// The pause menu's Statistics page: this table's totals beside the all-time ones.
pub(super) fn pause_statistics(
    mut contexts: EguiContexts,
    kept: Res<Kept>,
    session: Res<Session>,
    seat: Option<Res<SeatView>>,
    mut to_pause: ResMut<NextState<Pause>>,
) -> Result {
    // The rounds dealt as the seat has seen them (at a casino's table, the casino's own count).
    let dealt = seat.map_or(u64::MAX, |view| view.0.round());
    let ctx = contexts.ctx_mut()?;
    let theme = Theme::of(ctx);
    // As wide as the two panels side by side where the screen has room (a phone's has not: one above the other),
    // and scrolled within the screen's height.
    let screen = ctx.content_rect().size();
    let width = (screen.x - 48.0).min(panels_width(2) + MARGIN);
    egui::Window::new("Statistics")
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            ui.set_width(width);
            egui::ScrollArea::vertical()
                .max_height(screen.y - 160.0)
                .show(ui, |ui| {
                    statistics_page(ui, &kept, Some((&session.level.name, dealt)));
                });
            ui.add_space(8.0);
            if ui.add(theme.wide_button("Back", width)).clicked() {
                to_pause.set(Pause::Menu);
            }
        });
    Ok(())
}
