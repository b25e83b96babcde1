//! Every page and the table's heads-up display, in egui: Loading, the Title and its pages (Tables, Settings,
//! Strategy (the table's chart and index plays), Practice (drills and the record they keep), Statistics, the hand
//! history, and a casino's login, lobby, leaderboard and hands), and at the table the limits and bankroll bar, the
//! chip rack and betting buttons, the action buttons with their keys, the round log, the chat and clock of a casino's
//! table and the pause menu; the widgets they share and the pages' look (`backdrop`).
//!
//! Everything the player asks for becomes a message of the model: an `Intent`, a `Choice` the coach judges, an
//! `OpenTable`, a `CasinoRequest`; the keyboard sends the same. Uses the model, `keep` and `felt`; it names neither
//! table's driver (`local`, `online`), so every page serves the game's own table and a casino's alike. Only
//! `platform` puts it in the app.

use crate::engine::{Action, Cents, Phase, TableState};
use crate::game::felt::asset_tracking::{Preload, Tally};
use crate::game::felt::fonts::{
    BOLD_FAMILY, FontFile, GameFonts, font_bytes, font_definitions, preload_fonts,
};
use crate::game::model::coach;
use crate::game::model::frames::{DrawWhile, Redraw};
use crate::game::model::player::{BetSlip, Intent, PlayOptions, denominations, human_seat};
use crate::game::model::practice::ShuffleQuiz;
use crate::game::model::screen::{RoundPhase, Screen};
use crate::game::model::seat::OpenTable;
use crate::game::model::session::Session;
use crate::game::model::sides::SideValues;
use crate::game::model::table::Remark;
use crate::game::model::table::{Beats, Occupants, SeatView, Shown, Speed};
use crate::host::level::{Listing, catalogue};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use std::collections::VecDeque;
use std::path::Path;

mod backdrop;
mod casino;
mod hands;
mod how_to_play;
mod input;
pub mod layout;
mod loading;
mod practice;
mod settings;
mod statistics;
mod strategy;
mod table_hud;
mod tables;
pub mod theme;
mod title;

pub use crate::game::model::screen::{Menu, Pause};
pub use casino::Typed;
use hands::*;
use input::*;
pub use loading::GameStopped;
use loading::*;
use table_hud::*;

use settings::*;
use theme::{BACKDROP, CREAM, GOLD, PANEL, QUIET, REFUSAL, Theme, bold};

/// Where the Loading screen goes when it is done.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct StartAt(pub Screen);

/// Everything the Settings page changes.
#[derive(bevy::ecs::system::SystemParam)]
pub struct Settings<'w> {
    beats: ResMut<'w, Beats>,
    options: ResMut<'w, PlayOptions>,
    look: ResMut<'w, crate::game::felt::art::Look>,
    mix: Option<ResMut<'w, crate::game::felt::audio::Mix>>,
    hearing: Option<Res<'w, crate::game::felt::audio::Hearing>>,
}

/// The page the Title opens on the first time it is shown (`--start tables`), when not the main one.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct StartPage(pub Menu);

/// The table's story in words, newest last.
#[derive(Resource, Default)]
pub struct RoundLog {
    /// Lines, at most [`RoundLog::KEEP`].
    pub lines: VecDeque<String>,
    /// The side panel is open.
    pub open: bool,
}

impl RoundLog {
    /// Lines kept.
    pub const KEEP: usize = 300;

    fn push(&mut self, line: String) {
        if self.lines.len() == Self::KEEP {
            self.lines.pop_front();
        }
        self.lines.push_back(line);
    }
}

/// The levels on the Tables screen, read when the screen opens.
#[derive(Resource, Default)]
struct Tables(Vec<Listing>);

/// The order the pages draw in, every frame: the zoom and the theme first, then what lies behind (the Title's felt),
/// then the page or the table's HUD, then what floats over them (the game over, the replay's banner, a casino's chat
/// and clock, the pause menu's statistics).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Draw {
    Setup,
    Behind,
    Page,
    Over,
    Settle,
}

/// The windows (egui's areas: a pause menu, a popup, a tooltip) and where each lay at the end of the last frame.
#[derive(Resource, Default)]
struct Windows {
    laid: Vec<(egui::Id, egui::Rect)>,
    /// One of them moved or changed its size in this frame.
    moved: bool,
}

/// A window placed by its size (the pause menu, centred) is placed from the size it had in the frame before: when its
/// contents change (the menu's How to play, three times its height), it lies wrong for a frame, and on a screen that
/// waits for the player that frame would stay until the next touch — a tap aimed at what is drawn would land where
/// the button is not. So a window that moved or grew asks for one more frame, until every window stays where it is.
fn windows_settle(mut contexts: EguiContexts, mut windows: ResMut<Windows>) -> Result {
    let laid = windows_laid(contexts.ctx_mut()?);
    windows.moved = laid != windows.laid;
    windows.laid = laid;
    Ok(())
}

/// Each window shown and where it lies.
fn windows_laid(ctx: &egui::Context) -> Vec<(egui::Id, egui::Rect)> {
    ctx.memory(|memory| {
        memory
            .layer_ids()
            .filter(|layer| memory.areas().is_visible(layer))
            .filter_map(|layer| Some((layer.id, memory.area_rect(layer.id)?)))
            .collect()
    })
}

pub(crate) fn plugin(app: &mut App) {
    app.add_message::<GameStopped>()
        .init_resource::<RoundLog>()
        .init_resource::<Tables>()
        .init_resource::<Typed>()
        .init_resource::<Preload>()
        .init_resource::<Theme>()
        .configure_sets(
            EguiPrimaryContextPass,
            (
                Draw::Setup,
                Draw::Behind,
                Draw::Page,
                Draw::Over,
                Draw::Settle,
            )
                .chain(),
        )
        .init_resource::<Windows>()
        .add_systems(EguiPrimaryContextPass, windows_settle.in_set(Draw::Settle))
        .draw_while(Redraw::EveryFrame, |windows: Res<Windows>| windows.moved)
        .add_plugins((
            title::plugin,
            tables::plugin,
            strategy::plugin,
            practice::plugin,
            statistics::plugin,
            hands::plugin,
            how_to_play::plugin,
            settings::plugin,
            casino::plugin,
            table_hud::plugin,
        ))
        .add_systems(
            PreUpdate,
            theme::follow_the_screen.after(bevy::input::InputSystems),
        )
        .add_systems(Startup, preload_fonts)
        .add_systems(OnEnter(Screen::Title), open_start_page)
        .add_systems(Update, back_to_the_lobby.run_if(in_state(Screen::Title)))
        .add_systems(
            Update,
            keys.before(coach::Judging)
                .run_if(in_state(Pause::Off))
                .run_if(|typed: Res<Typed>| !typed.typing)
                .run_if(|quiz: Res<ShuffleQuiz>| !quiz.showing()),
        )
        .add_systems(
            EguiPrimaryContextPass,
            layout::install
                .in_set(Draw::Setup)
                .run_if(resource_exists::<layout::LayoutCheck>),
        )
        .add_systems(
            Last,
            layout::log_reports.run_if(resource_exists::<layout::LayoutCheck>),
        )
        .add_systems(
            EguiPrimaryContextPass,
            (
                zoom_to_window.in_set(Draw::Setup),
                loading_screen
                    .in_set(Draw::Page)
                    .run_if(in_state(Screen::Loading)),
            ),
        );
}

/// A page of the Title: Back and the page's name across the top, and the page under them in the rest of the screen
/// (each page scrolls its own column). Esc goes back too, unless a text field has the keyboard. Returns true when
/// the player asked to go back.
fn page(ctx: &egui::Context, name: &str, add: impl FnOnce(&mut egui::Ui)) -> bool {
    let theme = Theme::of(ctx);
    let mut back = false;
    egui::CentralPanel::default()
        .frame(egui::Frame::NONE.inner_margin(egui::Margin::same(8)))
        .show(&mut root_ui(ctx), |ui| {
            ui.horizontal(|ui| {
                let button = theme
                    .button(bold(theme.hint("Back", "Esc")).size(theme::size::BUTTON))
                    .min_size(egui::vec2(96.0, theme::size::TARGET));
                back = ui.add(button).clicked();
                ui.add_space(8.0);
                ui.label(bold(name).size(theme::size::HEADING).color(GOLD));
            });
            ui.add_space(6.0);
            ui.vertical_centered(add);
        });
    let escape =
        ctx.input(|i| i.key_pressed(egui::Key::Escape)) && !ctx.egui_wants_keyboard_input();
    back || escape
}

/// Opens the Title on the page asked for at start, once.
fn open_start_page(
    start: Option<Res<StartPage>>,
    mut menu: ResMut<NextState<Menu>>,
    mut commands: Commands,
) {
    if let Some(start) = start {
        menu.set(start.0);
        commands.remove_resource::<StartPage>();
    }
}

/// Leaving a casino's table opens its lobby, as soon as the casino's driver says the player left one.
fn back_to_the_lobby(
    casino: Option<ResMut<crate::game::model::casino::Casino>>,
    mut menu: ResMut<NextState<Menu>>,
) {
    if let Some(mut casino) = casino
        && std::mem::take(&mut casino.back_to_lobby)
    {
        menu.set(Menu::Lobby);
    }
}

/// A page's column: centred, as wide as the window allows up to `widest`, scrolling; `add` is given its width.
fn scrolling_column(ui: &mut egui::Ui, widest: f32, add: impl FnOnce(&mut egui::Ui, f32)) {
    let width = (ui.available_width() - 16.0).min(widest);
    let size = egui::vec2(width, ui.available_height() - 40.0);
    ui.allocate_ui_with_layout(size, egui::Layout::top_down(egui::Align::Center), |ui| {
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| add(ui, width));
    });
}

/// A page's panel: darker felt with a thin gold edge, like the table's printed boxes.
fn page_frame() -> egui::Frame {
    egui::Frame::new()
        .fill(egui::Color32::from_rgba_unmultiplied(8, 30, 19, 228))
        .stroke(egui::Stroke::new(1.0, GOLD.gamma_multiply(0.7)))
        .corner_radius(10.0)
        .inner_margin(egui::Margin::same(14))
}

/// Work under way: what is being worked out, in words above a bar with how much of it is done (inside the bar the
/// words would be cut on a phone's width).
fn working(ui: &mut egui::Ui, words: &str, done: f32) {
    ui.label(words);
    ui.add(egui::ProgressBar::new(done).show_percentage());
}

fn panel_frame() -> egui::Frame {
    egui::Frame::new()
        .fill(PANEL)
        .corner_radius(8.0)
        .inner_margin(egui::Margin::same(10))
}

/// The pages are dressed for the screen's shape (`theme`), and zoomed for it: on a touch screen a point is a CSS
/// pixel, so a phone reads the type scale as written; on a desktop the HUD grows and shrinks with the window as the
/// table does, laid out for 1280×720 (half as big again at 1920×1080). The window's size is in logical pixels (CSS
/// pixels in the browser).
fn zoom_to_window(
    mut contexts: EguiContexts,
    windows: Query<&Window>,
    theme: Res<Theme>,
    mut dressed: Local<Option<theme::Shape>>,
) -> Result {
    let Ok(window) = windows.single() else {
        return Ok(());
    };
    if *dressed != Some(theme.shape) {
        theme::dress(contexts.ctx_mut()?, theme.shape);
        *dressed = Some(theme.shape);
    }
    theme.keep(contexts.ctx_mut()?);
    let layout =
        crate::game::felt::layout::TableLayout::for_window(window.width(), window.height());
    let zoom = theme
        .shape
        .zoom(window.width(), window.height(), layout.size);
    let ctx = contexts.ctx_mut()?;
    if (ctx.zoom_factor() - zoom).abs() > 0.01 {
        ctx.set_zoom_factor(zoom);
    }
    Ok(())
}

/// A root `Ui` covering the window, for egui 0.36's panels.
fn root_ui(ctx: &egui::Context) -> egui::Ui {
    egui::Ui::new(
        ctx.clone(),
        "root".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Preset;
    use crate::game::felt::fonts::{BOLD, REGULAR};

    #[test]
    fn a_tally_counts_what_is_loaded_what_failed_and_what_is_on_its_way() {
        let mut app = crate::game::platform::headless::with_the_games_assets();
        crate::game::felt::fonts::fonts_plugin(&mut app);
        let server = app.world().resource::<AssetServer>().clone();
        let fonts: Vec<(&str, Handle<FontFile>)> = [REGULAR, "fonts/no-such-font.ttf"]
            .into_iter()
            .map(|path| (path, server.load(path)))
            .collect();
        let tally = || Tally::of(&server, fonts.iter().map(|(p, h)| (p, h.id().untyped())));
        let asked = tally();
        assert_eq!((asked.done, asked.pending), (0, 2), "{asked:?}");
        for _ in 0..2_000 {
            app.update();
            let now = tally();
            assert_eq!(now.done + now.pending, 2, "{now:?}");
            if now.pending == 0 {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        let settled = tally();
        assert_eq!((settled.done, settled.pending), (2, 0), "{settled:?}");
        assert_eq!(settled.failures.len(), 1, "{settled:?}");
        assert!(
            settled.failures[0].starts_with("fonts/no-such-font.ttf: "),
            "{settled:?}"
        );
    }

    /// A centred window whose contents grow lies wrong in the frame they grow in and right in the next: the frame it
    /// moved in asks for another, and once it lies still no more are asked.
    #[test]
    fn a_window_that_moved_asks_for_frames_until_it_lies_still() {
        let ctx = context();
        let frame = |lines: usize| {
            let mut output = ctx.run_ui(window(egui::vec2(390.0, 844.0)), |ui| {
                egui::Window::new("Paused")
                    .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
                    .collapsible(false)
                    .resizable(false)
                    .show(ui.ctx(), |ui| {
                        for line in 0..lines {
                            ui.label(format!("Line {line}"));
                        }
                    });
            });
            output.textures_delta.clear();
            windows_laid(&ctx)
        };
        let mut last = frame(3);
        for _ in 0..3 {
            last = frame(3);
        }
        assert_eq!(frame(3), last, "a window with the same contents lies still");
        let grown = frame(30);
        assert_ne!(grown, last, "the window grew");
        let mut frames = 0;
        let mut now = grown;
        loop {
            let next = frame(30);
            frames += 1;
            if next == now {
                break;
            }
            assert!(frames < 5, "the window never lies still: {next:?}");
            now = next;
        }
        assert!(
            frames >= 2,
            "the grown window lay right at once ({frames} frames): nothing to settle"
        );
        let (_, rect) = now[0];
        assert!(
            (rect.center().y - 422.0).abs() < 1.0,
            "centred at last: {rect:?}"
        );
    }

    /// An egui context with the game's own fonts.
    fn context() -> egui::Context {
        let ctx = egui::Context::default();
        let read = |file: &str| {
            let path = format!("{}/assets/{file}", env!("CARGO_MANIFEST_DIR"));
            std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
        };
        ctx.set_fonts(font_definitions(Some(read(REGULAR)), Some(read(BOLD))));
        ctx
    }

    /// The betting bar of a Las Vegas Strip table (no side bets), as the HUD docks it: its rectangle.
    fn plain_betting_bar(
        ctx: &egui::Context,
        slip: &BetSlip,
        portrait: bool,
        theme: &Theme,
    ) -> egui::Rect {
        let rules = Preset::LasVegasStrip.rules();
        bottom_bar(ctx, |ui| {
            betting_bar(
                ui,
                (slip, &SideValues::default()),
                &rules,
                false,
                portrait,
                theme,
            );
        })
        .rect
    }

    fn slip() -> BetSlip {
        BetSlip {
            chips: vec![Cents(2_500)],
            last_bet: Cents(2_500),
            ..BetSlip::default()
        }
    }

    fn window(screen: egui::Vec2) -> egui::RawInput {
        egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, screen)),
            ..Default::default()
        }
    }

    /// Every line of text one frame of `ui` paints.
    fn painted_text(ctx: &egui::Context, ui: impl FnMut(&mut egui::Ui)) -> Vec<String> {
        let output = ctx.run_ui(window(egui::vec2(1280.0, 720.0)), ui);
        let text = output
            .shapes
            .iter()
            .filter_map(|clipped| match &clipped.shape {
                egui::Shape::Text(text) => Some(text.galley.text().to_string()),
                _ => None,
            })
            .collect();
        output.drop_without_applying_deltas();
        text
    }

    #[test]
    fn the_strategy_chart_prints_each_row_of_cells_after_its_hand() {
        let rules = Preset::LasVegasStrip.rules();
        let grid = crate::engine::strategy::BasicStrategy::for_rules(&rules).grid();
        let parts = strategy::chart_rows(&grid);
        // Each chart on its own page: what falls below the screen is not painted.
        let text: Vec<String> = parts
            .iter()
            .flat_map(|(title, rows)| {
                painted_text(&context(), |ui| {
                    strategy::chart_table(ui, title, rows, 30.0)
                })
            })
            .collect();
        let row = |name: &str| -> Vec<&str> {
            let at = text.iter().position(|t| t == name).unwrap_or(text.len());
            text.iter()
                .skip(at + 1)
                .take(10)
                .map(String::as_str)
                .collect()
        };
        assert_eq!(
            row("16"),
            ["S", "S", "S", "S", "S", "H", "H", "Rh", "Rh", "Rh"]
        );
        assert_eq!(
            row("A,7"),
            ["S", "Ds", "Ds", "Ds", "Ds", "S", "S", "H", "H", "H"]
        );
        // A pair not split shows its total's play: 5,5 doubles as a 10 does.
        assert_eq!(
            row("5,5"),
            ["D", "D", "D", "D", "D", "D", "D", "D", "H", "H"]
        );
        assert_eq!(row("8,8"), ["P"; 10]);
        let (stand, _) = strategy::cell_colours(crate::engine::strategy::Play::Stand);
        let (hit, _) = strategy::cell_colours(crate::engine::strategy::Play::Hit);
        assert_ne!(stand, hit, "each play has its colour");
    }

    #[test]
    fn the_heat_map_runs_from_red_to_green_and_greys_what_was_never_asked() {
        let unseen = practice::heat(0, 0);
        let green = practice::heat(9, 0);
        let red = practice::heat(0, 9);
        assert_eq!(unseen.r(), unseen.g(), "grey");
        assert!(green.g() > green.r() && red.r() > red.g());
        let half = practice::heat(3, 3);
        assert!(half.r() < red.r() && half.g() < green.g());
    }

    #[test]
    fn the_hud_is_painted_in_the_first_frame_it_is_shown() {
        let rules = Preset::LasVegasStrip.rules();
        let slip = slip();
        let bar = |ui: &mut egui::Ui| {
            bottom_bar(ui.ctx(), |ui| {
                betting_bar(
                    ui,
                    (&slip, &SideValues::default()),
                    &rules,
                    false,
                    false,
                    &Theme::default(),
                );
            });
        };
        let first = painted_text(&context(), bar);
        assert!(first.iter().any(|t| t.contains("Your bet")), "{first:?}");
        assert!(first.iter().any(|t| t.contains("Deal")), "{first:?}");

        // What hud_area saves the table from: a plain new egui area paints nothing in its first frame.
        let plain = painted_text(&context(), |ui| {
            egui::Area::new("plain".into()).show(ui.ctx(), |ui| {
                ui.label("Your bet");
            });
        });
        assert!(plain.is_empty(), "{plain:?}");
    }

    /// Where the betting bar lands in a window of `screen` points, drawn in the game's own fonts and dressed for
    /// `shape`, and how far above the bottom edge the panels over it then stand.
    fn betting_bar_rect(screen: egui::Vec2, shape: theme::Shape) -> (egui::Rect, f32) {
        let ctx = context();
        theme::dress(&ctx, shape);
        let slip = slip();
        let theme = Theme {
            shape,
            keyboard: true,
        };
        let portrait = screen.y > screen.x;
        let mut rect = egui::Rect::NOTHING;
        // One frame: the new bar measures itself in egui's first pass and is placed in the second (`hud_area`).
        ctx.run_ui(window(screen), |ui| {
            rect = plain_betting_bar(ui.ctx(), &slip, portrait, &theme);
        })
        .drop_without_applying_deltas();
        (rect, above_bottom_bar(&ctx, portrait))
    }

    /// A watcher's bar is a line of words and never the rack: the panels over it (the casino's row) stand on it, not
    /// where the rack would stand, and leave no empty band under the felt. A player's betting bar keeps them above
    /// the rack through the round's shorter bars.
    #[test]
    fn the_panels_over_the_bar_stand_on_the_bar_that_was_drawn() {
        let screen = egui::vec2(390.0, 844.0);
        let (slip, rules) = (slip(), Preset::LasVegasStrip.rules());
        let theme = Theme {
            shape: theme::Shape::PhonePortrait,
            keyboard: false,
        };
        // Each bar drawn for two frames (a new area measures itself, then is placed): the bar, and the panels' lift.
        let draw = |ctx: &egui::Context, betting: bool| {
            let (mut bar, mut above) = (egui::Rect::NOTHING, 0.0);
            for _ in 0..2 {
                ctx.run_ui(window(screen), |ui| {
                    bar = bottom_bar(ui.ctx(), |ui| {
                        if betting {
                            betting_bar(
                                ui,
                                (&slip, &SideValues::default()),
                                &rules,
                                false,
                                true,
                                &theme,
                            );
                        } else {
                            ui.label("Place your bets");
                        }
                    })
                    .rect;
                    above = above_bottom_bar(ui.ctx(), true);
                })
                .drop_without_applying_deltas();
            }
            (bar, above)
        };
        let watcher = context();
        theme::dress(&watcher, theme.shape);
        let (line, above) = draw(&watcher, false);
        assert!(
            (above - (line.height() + 16.0)).abs() < 1.0 && above < 148.0,
            "a watcher's panels stand {above} above the bottom, over a bar {line:?}"
        );

        let player = context();
        theme::dress(&player, theme.shape);
        let (rack, rack_above) = draw(&player, true);
        assert!(
            rack_above >= rack.height() + 16.0 - 1.0,
            "{rack_above} {rack:?}"
        );
        let (_, then) = draw(&player, false);
        assert_eq!(
            then, rack_above,
            "the panels moved when the bar grew shorter"
        );
    }

    /// The felt framed in what the bottom bar leaves, measured as the HUD draws it: every seat's circle and label
    /// lands above the betting bar (the tallest the bar is), on a desktop window and on a phone held upright; without
    /// the framing the bar would lie over the seats nearest it.
    #[test]
    fn the_table_is_framed_above_the_bar() {
        use crate::game::felt::layout::{Covered, Framing, TableLayout};
        for (shape, screen) in [
            (theme::Shape::Desktop, egui::vec2(1280.0, 720.0)),
            (theme::Shape::PhonePortrait, egui::vec2(390.0, 844.0)),
        ] {
            let ctx = context();
            theme::dress(&ctx, shape);
            let theme = Theme {
                shape,
                keyboard: false,
            };
            theme.keep(&ctx);
            let portrait = screen.y > screen.x;
            let slip = slip();
            let mut bar = egui::Rect::NOTHING;
            let mut covered = Covered::default();
            ctx.run_ui(window(screen), |ui| {
                bar = plain_betting_bar(ui.ctx(), &slip, portrait, &theme);
                covered = table_hud::covered(ui.ctx(), portrait);
            })
            .drop_without_applying_deltas();
            assert!(covered.bottom > screen.y - bar.top(), "{covered:?} {bar:?}");
            let window = Vec2::new(screen.x, screen.y);
            let free = window - Vec2::new(0.0, covered.top + covered.bottom);
            let layout = TableLayout::for_space(free);
            let framing = Framing::of(&layout, window, covered);
            let unframed = Framing::of(&layout, window, Covered::default());
            let mut under = 0;
            let pieces = layout.pieces(framing.least_words);
            for seat in 0..7 {
                // The label's foot: under the circle, as `felt::view` writes the name and the chips (as large as the
                // framing writes them).
                let label = format!("seat {}'s label", seat + 1);
                let (_, label) = pieces
                    .iter()
                    .find(|(name, _)| *name == label)
                    .expect("a label");
                let foot = Vec2::new(label.center().x, label.min.y);
                let at = framing.on_screen(window, foot);
                assert!(
                    at.y < bar.top() && at.x > 0.0 && at.x < screen.x,
                    "{shape:?}: seat {seat}'s label at {at} under the bar {bar:?}"
                );
                under += usize::from(unframed.on_screen(window, foot).y > bar.top());
            }
            assert!(
                under > 0,
                "{shape:?}: no seat would be under the bar unframed"
            );
        }
    }

    #[test]
    fn the_betting_bar_takes_one_row_where_the_window_has_room_and_a_phone_across_its_width() {
        let inside = |rect: egui::Rect, screen: egui::Vec2| {
            egui::Rect::from_min_size(egui::Pos2::ZERO, screen).contains_rect(rect)
        };
        // A window wider than 16:9 (in points): the rack and the bet's buttons in one row, the side panels beside.
        let wide = egui::vec2(1700.0, 720.0);
        let (one_row, above) = betting_bar_rect(wide, theme::Shape::Desktop);
        assert!(inside(one_row, wide), "{one_row:?} in {wide:?}");
        assert!(one_row.height() < 170.0, "{one_row:?}");
        assert!(
            wide.y - one_row.top() < above,
            "{one_row:?}, panels {above} up"
        );

        // 1280×720 (any 16:9 desktop, in points): the chips over the buttons, narrow enough for a column of panels
        // at each side in one band along the bottom.
        let desktop = egui::vec2(1280.0, 720.0);
        let (stacked, _) = betting_bar_rect(desktop, theme::Shape::Desktop);
        assert!(inside(stacked, desktop), "{stacked:?} in {desktop:?}");
        assert!(
            stacked.height() > one_row.height() + 20.0,
            "{stacked:?} vs {one_row:?}"
        );
        let column = table_hud::SIDE + 2.0 * 10.0 + 2.0 * 8.0;
        assert!(
            stacked.left() >= column && desktop.x - stacked.right() >= column,
            "{stacked:?} leaves no room for the side panels ({column} each)"
        );
        // The one-row bar is wider than a phone held upright: that is why it takes rows there.
        let phone = egui::vec2(390.0, 844.0);
        assert!(one_row.width() > phone.x, "{one_row:?}");

        let (rows, above) = betting_bar_rect(phone, theme::Shape::PhonePortrait);
        assert!(inside(rows, phone), "{rows:?} in {phone:?}");
        assert!(
            rows.height() > one_row.height() + 40.0,
            "{rows:?} vs {one_row:?}"
        );
        // Across the thumb's reach: the whole width but the margins.
        assert!(rows.width() > phone.x - 40.0, "{rows:?}");
        // The panels stand clear of it.
        assert!(phone.y - rows.top() < above, "{rows:?}, panels {above} up");
    }
}
