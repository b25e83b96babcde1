//! The screens and the heads-up display, in egui: Loading, Title (Play, Tables, Settings, Quit), and at the table the
//! limits and bankroll bar, the chip rack and betting buttons, the action buttons with their keys, the round log and
//! the pause menu. Everything the player asks for becomes an [`Intent`]; the keyboard sends the same intents.

use super::asset_tracking::{Preload, Tally};
use super::lettering::{
    BOLD_FAMILY, FontFile, GameFonts, font_bytes, font_definitions, preload_fonts,
};
use super::player::{BetSlip, Intent, PlayOptions, denominations, human_seat};
use super::screen::{RoundPhase, Screen};
use super::seats::Remark;
use super::session::Session;
use super::table::{Beats, Occupants, SeatView, Shown, Speed};
use crate::engine::{Action, Cents, Phase, TableState};
use crate::level::{Listing, catalogue};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use std::collections::VecDeque;
use std::path::Path;

/// Where the Loading screen goes when it is done.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct StartAt(pub Screen);

/// Everything the Settings page changes.
#[derive(bevy::ecs::system::SystemParam)]
pub struct Settings<'w> {
    beats: ResMut<'w, Beats>,
    options: ResMut<'w, PlayOptions>,
    look: ResMut<'w, super::art::Look>,
    mix: Option<ResMut<'w, super::audio::Mix>>,
    hearing: Option<Res<'w, super::audio::Hearing>>,
}

/// Which page of the title menu is open.
#[derive(Resource, Default, Clone, Copy, PartialEq, Eq)]
pub enum Menu {
    /// Resume, Play, Watch, Tables, Settings, Quit.
    #[default]
    Main,
    /// Every level file.
    Tables,
    /// Speed and options.
    Settings,
}

/// The pause menu, and which of its pages is open.
#[derive(Resource, Default, Clone, Copy, PartialEq, Eq)]
enum Pause {
    #[default]
    Off,
    Menu,
    Settings,
    Rules,
}

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

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Menu>()
        .init_resource::<Pause>()
        .init_resource::<RoundLog>()
        .init_resource::<Tables>()
        .init_resource::<Preload>()
        .add_systems(Startup, preload_fonts)
        .add_systems(
            OnEnter(Screen::Table),
            |mut log: ResMut<RoundLog>, mut pause: ResMut<Pause>| {
                log.lines.clear();
                *pause = Pause::Off;
            },
        )
        .add_systems(Update, keys.run_if(in_state(Screen::Table)))
        .add_systems(
            Update,
            write_log
                .after(super::screen::RoundSet::Present)
                .run_if(in_state(Screen::Table)),
        )
        .add_systems(
            EguiPrimaryContextPass,
            (
                zoom_to_window,
                loading_screen.run_if(in_state(Screen::Loading)),
                title_screen.run_if(in_state(Screen::Title)),
                table_hud.run_if(in_state(Screen::Table)),
            )
                .chain(),
        );
}

/// Colours of the HUD.
const GOLD: egui::Color32 = egui::Color32::from_rgb(0xff, 0xd8, 0x4a);
const REFUSAL: egui::Color32 = egui::Color32::from_rgb(0xff, 0x8a, 0x7a);
/// Behind the Loading and Title screens.
const BACKDROP: egui::Color32 = egui::Color32::from_rgb(0x10, 0x2a, 0x1c);
const PANEL: egui::Color32 = egui::Color32::from_rgba_premultiplied(12, 16, 14, 215);

fn panel_frame() -> egui::Frame {
    egui::Frame::new()
        .fill(PANEL)
        .corner_radius(8.0)
        .inner_margin(egui::Margin::same(10))
}

/// Progress of the preload: egui gets the game's fonts as soon as they are in, and once every asset is in the game
/// moves on.
#[allow(clippy::too_many_arguments)]
fn loading_screen(
    mut contexts: EguiContexts,
    preload: Res<Preload>,
    mut fonts_installed: Local<bool>,
    assets: Res<AssetServer>,
    fonts: Res<Assets<FontFile>>,
    game_fonts: Res<GameFonts>,
    start: Option<Res<StartAt>>,
    mut next: ResMut<NextState<Screen>>,
    mut exit: MessageWriter<AppExit>,
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
            #[cfg(target_arch = "wasm32")]
            super::web::fail(&message);
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

/// The HUD grows and shrinks with the window as the table does: laid out for 1280×720 (720×1280 upright), it is
/// half as big again at 1920×1080, and may shrink to half size. The window's size is in logical pixels (CSS pixels in
/// the browser), so a phone at three device pixels per CSS pixel gets the same HUD as a 390-pixel-wide window.
fn zoom_to_window(mut contexts: EguiContexts, windows: Query<&Window>) -> Result {
    let Ok(window) = windows.single() else {
        return Ok(());
    };
    let layout = super::layout::TableLayout::for_window(window.width(), window.height());
    let zoom = (window.width() / layout.size.x)
        .min(window.height() / layout.size.y)
        .clamp(0.5, 3.0);
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

/// egui draws in DejaVu Sans too, so ♠ ♥ ♦ ♣ and the table's text look the same everywhere.
fn install_fonts(ctx: &egui::Context, files: &Assets<FontFile>, game_fonts: &GameFonts) {
    if let Some((regular, bold)) = font_bytes(files, game_fonts) {
        ctx.set_fonts(font_definitions(Some(regular), Some(bold)));
    }
}

fn bold(text: impl Into<String>) -> egui::RichText {
    egui::RichText::new(text).family(egui::FontFamily::Name(BOLD_FAMILY.into()))
}

/// The title and its pages: Play, Tables, Settings, Quit.
#[allow(clippy::too_many_arguments)]
fn title_screen(
    mut contexts: EguiContexts,
    mut menu: ResMut<Menu>,
    mut tables: ResMut<Tables>,
    mut session: ResMut<Session>,
    mut settings: Settings,
    mut next: ResMut<NextState<Screen>>,
    mut exit: MessageWriter<AppExit>,
    saved: Res<super::save::Saved>,
    mut commands: Commands,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    egui::CentralPanel::default()
        .frame(egui::Frame::new().fill(BACKDROP))
        .show(&mut root_ui(ctx), |ui| {
            ui.vertical_centered(|ui| {
                ui.add_space(60.0);
                ui.heading(bold("HOLECARD").size(56.0).color(GOLD));
                ui.label(egui::RichText::new("casino blackjack").size(18.0));
                ui.add_space(24.0);
                match *menu {
                    Menu::Main => {
                        ui.label(
                            egui::RichText::new(format!("Table: {}", session.level.name))
                                .size(18.0),
                        );
                        ui.add_space(12.0);
                        let big = |ui: &mut egui::Ui, text: &str, enabled: bool| {
                            ui.add_enabled(
                                enabled,
                                egui::Button::new(bold(text).size(22.0))
                                    .min_size(egui::vec2(300.0, 44.0)),
                            )
                            .clicked()
                        };
                        let mid_round = saved
                            .sitting
                            .as_ref()
                            .is_some_and(|s| s.table.phase() != Phase::Betting);
                        if let Some(sitting) = &saved.sitting {
                            let label = format!(
                                "Resume at {}{}",
                                sitting.session.level.name,
                                if mid_round { " (mid-round)" } else { "" }
                            );
                            if big(ui, &label, true) {
                                commands.insert_resource(sitting.restore());
                                next.set(Screen::Table);
                            }
                        }
                        let play = match &saved.sitting {
                            Some(s) if s.session.player_seat.is_some() => {
                                format!("Play here with your {}", s.player_chips())
                            }
                            _ => "Play".to_string(),
                        };
                        if big(ui, &play, !mid_round) {
                            session.player_seat = session.level.player_seat;
                            session.player_chips = saved
                                .sitting
                                .as_ref()
                                .filter(|s| s.session.player_seat.is_some())
                                .map(super::save::Sitting::player_chips)
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
                        if big(ui, "Tables", true) {
                            tables.0 = catalogue(Path::new("levels"));
                            *menu = Menu::Tables;
                        }
                        if big(ui, "Settings", true) {
                            *menu = Menu::Settings;
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
                        if let Some(level) = tables_page(ui, &tables.0) {
                            session.player_seat = level.player_seat;
                            session.level = level;
                            *menu = Menu::Main;
                        }
                        if ui.button("Back").clicked() {
                            *menu = Menu::Main;
                        }
                    }
                    Menu::Settings => {
                        settings_page(ui, &mut settings);
                        if ui.button("Back").clicked() {
                            *menu = Menu::Main;
                        }
                    }
                }
            });
        });
    Ok(())
}

/// Every level file with its key rules; a broken one shows its file, line and error. Returns the table picked.
fn tables_page(ui: &mut egui::Ui, listings: &[Listing]) -> Option<crate::level::Level> {
    let mut picked = None;
    // Broken files first, so they are seen.
    let mut order: Vec<&Listing> = listings.iter().collect();
    order.sort_by_key(|l| l.level.is_ok());
    let size = egui::vec2(780.0, ui.available_height() - 40.0);
    ui.allocate_ui_with_layout(size, egui::Layout::top_down(egui::Align::Min), |ui| {
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                for listing in order {
                    panel_frame().show(ui, |ui| {
                        ui.set_width(740.0);
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
                                let companions = match level.companions.len() {
                                    0 => "no companions".to_string(),
                                    1 => "1 companion".to_string(),
                                    n => format!("{n} companions"),
                                };
                                ui.label(
                                    egui::RichText::new(format!(
                                        "{rules} · bets {}–{} · buy-in {} · {companions}",
                                        rules.min_bet, rules.max_bet, level.buy_in,
                                    ))
                                    .size(13.0),
                                );
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

fn settings_page(ui: &mut egui::Ui, settings: &mut Settings) {
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

/// Keys send the same intents as the buttons; each button shows its key.
fn keys(
    input: Res<ButtonInput<KeyCode>>,
    pause: Res<Pause>,
    seen: Option<Res<SeatView>>,
    session: Res<Session>,
    mut log: ResMut<RoundLog>,
    mut intents: MessageWriter<Intent>,
) {
    if *pause != Pause::Off {
        return;
    }
    let Some(seen) = seen else {
        return;
    };
    let table = &seen.0;
    if input.just_pressed(KeyCode::KeyL) {
        log.open = !log.open;
    }
    if table.phase() == Phase::Betting {
        let chips = denominations(table.rules());
        for (i, chip) in chips.iter().enumerate() {
            if let Some(key) = DIGITS.get(i)
                && input.just_pressed(*key)
            {
                intents.write(Intent::Chip(*chip));
            }
        }
        let pairs = [
            (KeyCode::KeyR, Intent::Rebet),
            (KeyCode::KeyX, Intent::DoubleBet),
            (KeyCode::KeyZ, Intent::Undo),
            (KeyCode::Backspace, Intent::Undo),
            (KeyCode::KeyC, Intent::Clear),
            (KeyCode::Enter, Intent::Deal),
            (KeyCode::Space, Intent::Deal),
            (KeyCode::KeyB, Intent::Rebuy),
        ];
        for (key, intent) in pairs {
            if input.just_pressed(key) {
                intents.write(intent);
            }
        }
    } else if let Some(seat) = human_seat(&session) {
        // Only what the buttons offer: N means "no insurance" or "no even money", whichever is on the table.
        for action in table.legal_actions(seat).iter() {
            if let Some(key) = letter_key(action.key())
                && input.just_pressed(key)
            {
                intents.write(Intent::Play(action));
            }
        }
    }
}

const DIGITS: [KeyCode; 8] = [
    KeyCode::Digit1,
    KeyCode::Digit2,
    KeyCode::Digit3,
    KeyCode::Digit4,
    KeyCode::Digit5,
    KeyCode::Digit6,
    KeyCode::Digit7,
    KeyCode::Digit8,
];

fn letter_key(letter: &str) -> Option<KeyCode> {
    Some(match letter {
        "h" => KeyCode::KeyH,
        "s" => KeyCode::KeyS,
        "d" => KeyCode::KeyD,
        "p" => KeyCode::KeyP,
        "r" => KeyCode::KeyR,
        "k" => KeyCode::KeyK,
        "i" => KeyCode::KeyI,
        "n" => KeyCode::KeyN,
        "e" => KeyCode::KeyE,
        _ => return None,
    })
}

/// The round in words: what the table showed, and what the companions said.
fn write_log(
    mut shown: MessageReader<Shown>,
    mut remarks: MessageReader<Remark>,
    occupants: Res<Occupants>,
    mut log: ResMut<RoundLog>,
) {
    for Shown(event) in shown.read() {
        for line in super::table::narrate(event, &occupants) {
            log.push(line);
        }
    }
    for remark in remarks.read() {
        log.push(format!(
            "{}: “{}”",
            occupants.name(remark.seat),
            remark.line
        ));
    }
}

/// Chip colours for the rack, matching the felt's chips.
fn chip_fill(value: Cents) -> egui::Color32 {
    let [r, g, b] = crate::design::chip_colours(value).body;
    egui::Color32::from_rgb(r, g, b)
}

/// The table's HUD: limits and bankroll, the chip rack and betting buttons, the action buttons, the log, the pause
/// menu.
#[allow(clippy::too_many_arguments)]
fn table_hud(
    mut contexts: EguiContexts,
    seen: Option<Res<SeatView>>,
    session: Res<Session>,
    occupants: Res<Occupants>,
    slip: Res<BetSlip>,
    phase: Option<Res<State<RoundPhase>>>,
    mut settings: Settings,
    mut log: ResMut<RoundLog>,
    mut pause: ResMut<Pause>,
    mut time: ResMut<Time<Virtual>>,
    input: Res<ButtonInput<KeyCode>>,
    mut intents: MessageWriter<Intent>,
    mut next: ResMut<NextState<Screen>>,
    cameras: Query<(&Camera, &GlobalTransform)>,
    layout: Res<super::layout::TableLayout>,
    bankrolls: Query<&super::table::Bankroll>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Some(seen) = seen else {
        return Ok(());
    };
    let table = &seen.0;
    // Between rounds, an empty seat can be taken with a click.
    if table.phase() == Phase::Betting
        && settings.beats.settled()
        && *pause == Pause::Off
        && let Ok((camera, at)) = cameras.single()
    {
        for seat in 0..7u8 {
            let empty = occupants.is_free(table, seat);
            let point = layout.seat_point(seat).extend(0.0);
            if let (true, Ok(screen)) = (empty, camera.world_to_viewport(at, point)) {
                hud_area(ctx, egui::Id::new(("sit", seat)))
                    .fixed_pos(egui::pos2(screen.x, screen.y) / ctx.zoom_factor())
                    .pivot(egui::Align2::CENTER_CENTER)
                    .show(ctx, |ui| {
                        if ui.button("Sit here").clicked() {
                            intents.write(Intent::SitAt(seat));
                        }
                    });
            }
        }
    }
    if input.just_pressed(KeyCode::Escape) {
        *pause = if *pause == Pause::Off {
            Pause::Menu
        } else {
            Pause::Off
        };
    }
    if (*pause != Pause::Off) != time.is_paused() {
        if *pause == Pause::Off {
            time.unpause();
        } else {
            time.pause();
        }
    }
    let rules = table.rules();
    let me = human_seat(&session);
    let portrait = layout.portrait;
    let above_bar = -above_bottom_bar(portrait);

    // Bottom left: the table, its rules and limits. Bottom right: the player's chips, the round, the log.
    hud_area(ctx, "table info".into())
        .anchor(egui::Align2::LEFT_BOTTOM, [8.0, above_bar])
        .show(ctx, |ui| {
            panel_frame().show(ui, |ui| {
                ui.label(bold(&session.level.name).color(GOLD));
                ui.label(format!("Bets {} to {}", rules.min_bet, rules.max_bet));
                ui.label(egui::RichText::new(format!("{rules}")).size(12.0));
            });
        });
    hud_area(ctx, "player info".into())
        .anchor(egui::Align2::RIGHT_BOTTOM, [-8.0, above_bar])
        .show(ctx, |ui| {
            panel_frame().show(ui, |ui| {
                match session.player_seat {
                    Some(seat) => {
                        // As shown on the felt, which may be a beat behind the engine.
                        let chips = bankrolls
                            .iter()
                            .find(|b| b.seat == seat)
                            .map_or(Cents::ZERO, |b| b.amount);
                        ui.label(bold(format!("Your chips {chips}")).color(GOLD));
                    }
                    None => {
                        ui.label("Watching");
                    }
                }
                ui.label(format!("Round {}", table.round()));
                let label = if log.open {
                    "Hide log  [L]"
                } else {
                    "Round log  [L]"
                };
                if ui.button(label).clicked() {
                    log.open = !log.open;
                }
            });
        });

    // Bottom bar: bets between rounds, decisions in the player's turn, otherwise what the table is doing.
    bottom_bar(ctx, |ui| {
        let busy = !settings.beats.settled();
        match me {
            Some(seat) if table.phase() == Phase::Betting => {
                let mine = &table.seats()[usize::from(seat)];
                if mine.chips() < rules.min_bet {
                    ui.horizontal(|ui| {
                        ui.label("You're out of chips.");
                        let label = format!("Buy in again for {}  [B]", session.level.buy_in);
                        if ui.button(label).clicked() {
                            intents.write(Intent::Rebuy);
                        }
                    });
                } else {
                    intents.write_batch(betting_bar(ui, &slip, rules, busy, portrait));
                }
            }
            Some(seat) if table.seat_to_act() == Some(seat) && !busy => {
                let legal = table.legal_actions(seat);
                if portrait {
                    ui.label(bold("Your move").color(GOLD));
                }
                ui.horizontal(|ui| {
                    if !portrait {
                        ui.label(bold("Your move").color(GOLD));
                    }
                    for action in legal.iter() {
                        let mut label = format!(
                            "{}  [{}]",
                            capitalise(action.name()),
                            action.key().to_uppercase()
                        );
                        if action == Action::TakeInsurance {
                            label = format!("Insure {}  [I]", table.max_insurance(seat));
                        }
                        if ui
                            .add(
                                egui::Button::new(bold(label).size(17.0))
                                    .min_size(egui::vec2(96.0, 38.0)),
                            )
                            .clicked()
                        {
                            intents.write(Intent::Play(action));
                        }
                    }
                });
            }
            _ => {
                let words = match table.seat_to_act() {
                    Some(seat) if !busy && session.player_seat == Some(seat) => {
                        "Your move (autoplay)…".to_string()
                    }
                    Some(seat) if !busy => occupants.seats[usize::from(seat)]
                        .as_ref()
                        .map_or_else(String::new, |o| format!("{} is thinking…", o.name)),
                    _ => match phase.as_deref().map(State::get) {
                        Some(RoundPhase::Dealing) => "Dealing…".to_string(),
                        Some(RoundPhase::DealerTurn) => "Dealer's turn".to_string(),
                        Some(RoundPhase::Resolution) => "Paying…".to_string(),
                        Some(RoundPhase::PlayerTurn) => "Players' turn".to_string(),
                        _ => "Place your bets".to_string(),
                    },
                };
                ui.label(egui::RichText::new(words).size(17.0));
            }
        }
        if let Some(refusal) = &slip.refusal {
            ui.colored_label(REFUSAL, refusal);
        }
    });

    // The round log, a collapsible side panel.
    if log.open {
        egui::Window::new("Round log")
            .anchor(egui::Align2::RIGHT_BOTTOM, [-8.0, above_bar - 102.0])
            .default_width(280.0)
            .max_height(420.0)
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| {
                egui::ScrollArea::vertical()
                    .stick_to_bottom(true)
                    .max_height(400.0)
                    .show(ui, |ui| {
                        for line in &log.lines {
                            ui.label(line);
                        }
                    });
            });
    }

    // The pause menu.
    if *pause != Pause::Off {
        egui::Window::new("Paused")
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| {
                ui.set_min_width(320.0);
                match *pause {
                    Pause::Menu | Pause::Off => {
                        let wide = |ui: &mut egui::Ui, text: &str| {
                            ui.add(
                                egui::Button::new(bold(text).size(18.0))
                                    .min_size(egui::vec2(300.0, 36.0)),
                            )
                            .clicked()
                        };
                        if wide(ui, "Resume  [Esc]") {
                            *pause = Pause::Off;
                        }
                        if wide(ui, "Settings") {
                            *pause = Pause::Settings;
                        }
                        if wide(ui, "Rules of this table") {
                            *pause = Pause::Rules;
                        }
                        if wide(ui, "Leave table") {
                            *pause = Pause::Off;
                            next.set(Screen::Title);
                        }
                    }
                    Pause::Settings => {
                        settings_page(ui, &mut settings);
                        if ui.button("Back").clicked() {
                            *pause = Pause::Menu;
                        }
                    }
                    Pause::Rules => {
                        ui.label(bold(&session.level.name).color(GOLD));
                        ui.label(&session.level.description);
                        for line in rules.felt_lines() {
                            ui.label(line);
                        }
                        ui.label(format!("{rules}"));
                        ui.label(format!(
                            "Bets {}–{} in steps of {}",
                            rules.min_bet, rules.max_bet, rules.bet_unit
                        ));
                        if ui.button("Back").clicked() {
                            *pause = Pause::Menu;
                        }
                    }
                }
            });
    }
    Ok(())
}

fn capitalise(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// How far above the window's bottom edge the panels over the bottom bar stand: upright (a phone), the chip rack and
/// the betting buttons take two rows, so the panels sit higher.
fn above_bottom_bar(portrait: bool) -> f32 {
    if portrait { 148.0 } else { 84.0 }
}

/// An area of the table's HUD (a panel, a seat's "Sit here"). egui shows an area it has not seen before unseen, only
/// measuring it, and draws it a frame later; so a new area asks egui to run the pass again at once, and the HUD is
/// whole in the first frame the table is drawn (where frames are slow, as in a browser drawing in software, a frame
/// later is a visible pop). The areas appear at once rather than fading in: the table under them does too.
fn hud_area(ctx: &egui::Context, id: egui::Id) -> egui::Area {
    if egui::AreaState::load(ctx, id).is_none() {
        ctx.request_discard("a new area of the HUD measures itself");
    }
    egui::Area::new(id).fade_in(false)
}

/// The panel along the bottom of the window, centred; its contents never wrap.
fn bottom_bar(ctx: &egui::Context, contents: impl FnOnce(&mut egui::Ui)) -> egui::Response {
    hud_area(ctx, "bottom bar".into())
        .anchor(egui::Align2::CENTER_BOTTOM, [0.0, -8.0])
        .show(ctx, |ui| {
            ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
            panel_frame().show(ui, contents);
        })
        .response
}

/// The chip rack and Rebet, 2×, Undo, Clear, Deal: one row across a wide window, two rows (the chips above the rest)
/// on an upright one. Returns what the player pressed.
fn betting_bar(
    ui: &mut egui::Ui,
    slip: &BetSlip,
    rules: &crate::engine::Rules,
    busy: bool,
    portrait: bool,
) -> Option<Intent> {
    if portrait {
        ui.vertical(|ui| {
            let chip = ui.horizontal(|ui| chip_rack(ui, rules)).inner;
            chip.or(ui.horizontal(|ui| bet_buttons(ui, slip, busy)).inner)
        })
        .inner
    } else {
        ui.horizontal(|ui| {
            let chip = chip_rack(ui, rules);
            ui.separator();
            chip.or(bet_buttons(ui, slip, busy))
        })
        .inner
    }
}

/// A round button for each chip the table takes, with its number key.
fn chip_rack(ui: &mut egui::Ui, rules: &crate::engine::Rules) -> Option<Intent> {
    let mut pressed = None;
    for (i, chip) in denominations(rules).into_iter().enumerate() {
        let fill = chip_fill(chip);
        let ink = if fill.r() as u32 + fill.g() as u32 + fill.b() as u32 > 500 {
            egui::Color32::BLACK
        } else {
            egui::Color32::WHITE
        };
        let label = bold(format!("{chip}\n[{}]", i + 1)).color(ink).size(14.0);
        let button = egui::Button::new(label)
            .fill(fill)
            .corner_radius(26.0)
            .min_size(egui::vec2(52.0, 52.0));
        if ui.add(button).clicked() {
            pressed = Some(Intent::Chip(chip));
        }
    }
    pressed
}

/// The bet so far, Rebet, 2×, Undo, Clear, and Deal.
fn bet_buttons(ui: &mut egui::Ui, slip: &BetSlip, busy: bool) -> Option<Intent> {
    let mut pressed = ui
        .vertical(|ui| {
            ui.label(
                bold(format!("Your bet {}", slip.total()))
                    .size(18.0)
                    .color(GOLD),
            );
            let mut pressed = None;
            ui.horizontal(|ui| {
                for (label, intent, enabled) in [
                    (
                        if slip.last_bet.is_positive() {
                            format!("Rebet {} [R]", slip.last_bet)
                        } else {
                            "Rebet [R]".to_string()
                        },
                        Intent::Rebet,
                        slip.last_bet.is_positive(),
                    ),
                    (
                        "2× [X]".to_string(),
                        Intent::DoubleBet,
                        !slip.chips.is_empty(),
                    ),
                    ("Undo [Z]".to_string(), Intent::Undo, !slip.chips.is_empty()),
                    (
                        "Clear [C]".to_string(),
                        Intent::Clear,
                        !slip.chips.is_empty(),
                    ),
                ] {
                    if ui.add_enabled(enabled, egui::Button::new(label)).clicked() {
                        pressed = Some(intent);
                    }
                }
            });
            pressed
        })
        .inner;
    let deal =
        egui::Button::new(bold("Deal  [Enter]").size(20.0)).min_size(egui::vec2(130.0, 52.0));
    if ui
        .add_enabled(!busy && !slip.chips.is_empty(), deal)
        .clicked()
    {
        pressed = Some(Intent::Deal);
    }
    pressed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Preset;
    use crate::game::lettering::{BOLD, REGULAR};

    #[test]
    fn a_tally_counts_what_is_loaded_what_failed_and_what_is_on_its_way() {
        let mut app = super::super::headless::with_the_games_assets();
        super::super::lettering::fonts_plugin(&mut app);
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

    fn slip() -> BetSlip {
        BetSlip {
            chips: vec![Cents(2_500)],
            last_bet: Cents(2_500),
            refusal: None,
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
    fn the_hud_is_painted_in_the_first_frame_it_is_shown() {
        let rules = Preset::LasVegasStrip.rules();
        let slip = slip();
        let bar = |ui: &mut egui::Ui| {
            bottom_bar(ui.ctx(), |ui| {
                betting_bar(ui, &slip, &rules, false, false);
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

    /// Where the betting bar lands in a window of `screen` points, drawn in the game's own fonts.
    fn betting_bar_rect(screen: egui::Vec2, portrait: bool) -> egui::Rect {
        let ctx = context();
        let slip = slip();
        let rules = Preset::LasVegasStrip.rules();
        let mut rect = egui::Rect::NOTHING;
        // One frame: the new bar measures itself in egui's first pass and is placed in the second (`hud_area`).
        ctx.run_ui(window(screen), |ui| {
            rect = bottom_bar(ui.ctx(), |ui| {
                betting_bar(ui, &slip, &rules, false, portrait);
            })
            .rect;
        })
        .drop_without_applying_deltas();
        rect
    }

    #[test]
    fn the_betting_bar_fits_a_wide_window_in_one_row_and_an_upright_one_in_two() {
        let wide = egui::vec2(1280.0, 720.0);
        let upright = egui::vec2(720.0, 1280.0);
        let inside = |rect: egui::Rect, screen: egui::Vec2| {
            egui::Rect::from_min_size(egui::Pos2::ZERO, screen).contains_rect(rect)
        };

        let one_row = betting_bar_rect(wide, false);
        assert!(inside(one_row, wide), "{one_row:?} in {wide:?}");
        assert!(
            wide.y - one_row.top() < above_bottom_bar(false),
            "{one_row:?}"
        );
        // The one-row bar is wider than a phone held upright: that is why it takes two rows there.
        assert!(one_row.width() > upright.x, "{one_row:?}");

        let two_rows = betting_bar_rect(upright, true);
        assert!(inside(two_rows, upright), "{two_rows:?} in {upright:?}");
        assert!(
            two_rows.height() > one_row.height() + 40.0,
            "{two_rows:?} vs {one_row:?}"
        );
        // Both stay clear of the panels above them.
        assert!(
            upright.y - two_rows.top() < above_bottom_bar(true),
            "{two_rows:?}"
        );
    }
}
