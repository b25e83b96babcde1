//! The pages' look in one place: the shape of the screen (phone upright or on its side, tablet, desktop), the type
//! scale, the colours, the spacing, and the widgets every page uses (a page's big button, the back button, a row of
//! equal buttons across the width, a key hint that shows only once a keyboard has been used).
//!
//! Sizes are in egui points. On a phone or a tablet a point is a CSS pixel (the pages are not zoomed there), so the
//! type scale is what a thumb-holder reads: body 16, never under 13, and every target at least 44 across. On a
//! desktop the pages grow with the window from 1280×720, as the table does.

use crate::engine::rules::Rules;
use bevy::prelude::*;
use bevy_egui::egui;

/// The HUD's gold: headings, the player's chips, the best play.
pub const GOLD: egui::Color32 = egui::Color32::from_rgb(0xff, 0xd8, 0x4a);
/// A refusal or a wrong answer.
pub const REFUSAL: egui::Color32 = egui::Color32::from_rgb(0xff, 0x8a, 0x7a);
/// Behind the Loading and Title screens.
pub const BACKDROP: egui::Color32 = egui::Color32::from_rgb(0x10, 0x2a, 0x1c);
/// The table's panels, over the felt.
pub const PANEL: egui::Color32 = egui::Color32::from_rgba_premultiplied(12, 16, 14, 215);
/// Quiet words on the pages: the table's printing.
pub const CREAM: egui::Color32 = egui::Color32::from_rgb(0xee, 0xe4, 0xc8);
/// What is there but not the point: a card nobody saw, a card never dealt (still readable on a panel).
pub const QUIET: egui::Color32 = egui::Color32::from_rgb(0xa8, 0xa4, 0x96);
/// The buttons' burgundy, resting and under the pointer.
const BURGUNDY: egui::Color32 = egui::Color32::from_rgb(0x6e, 0x16, 0x22);
const BURGUNDY_LIT: egui::Color32 = egui::Color32::from_rgb(0x8e, 0x22, 0x30);

/// The type scale, in points.
pub mod size {
    /// The smallest words anywhere: a caption, a chart's cell.
    pub const SMALL: f32 = 13.0;
    /// Body text.
    pub const BODY: f32 = 16.0;
    /// A button's words.
    pub const BUTTON: f32 = 17.0;
    /// A page's big buttons and the table's actions.
    pub const LARGE: f32 = 20.0;
    /// A page's heading.
    pub const HEADING: f32 = 24.0;
    /// The game's name on the Title.
    pub const TITLE: f32 = 48.0;
    /// The least a thumb can hit, across and high, on a touch screen.
    pub const TARGET: f32 = 44.0;
    /// Between two targets.
    pub const GAP: f32 = 8.0;
}

/// The screen's shape, from its size in CSS pixels (logical pixels natively).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// A phone held upright: one narrow column, the thumb at the bottom.
    PhonePortrait,
    /// A phone on its side: short, wide.
    PhoneLandscape,
    /// A touch screen bigger than a phone.
    Tablet,
    /// A window with a mouse and a keyboard.
    Desktop,
}

impl Shape {
    /// A screen whose short side is under 500 CSS px is a phone's; a bigger one that has been touched, a tablet's.
    pub fn of(width: f32, height: f32, touched: bool) -> Shape {
        match (width.min(height) < 500.0, touched) {
            (true, _) if height > width => Shape::PhonePortrait,
            (true, _) => Shape::PhoneLandscape,
            (false, true) => Shape::Tablet,
            (false, false) => Shape::Desktop,
        }
    }

    /// The least height of a button: a thumb's on a touch screen, a little less under a mouse.
    pub fn target(self) -> f32 {
        if self.touch() { size::TARGET } else { 36.0 }
    }

    /// A phone either way up.
    pub fn phone(self) -> bool {
        matches!(self, Shape::PhonePortrait | Shape::PhoneLandscape)
    }

    /// A phone on its side: the HUD in a column at each side of the table.
    pub fn sideways(self) -> bool {
        self == Shape::PhoneLandscape
    }

    /// Held with a thumb: targets of [`size::TARGET`] at least, and the pages at one point a CSS pixel.
    pub fn touch(self) -> bool {
        self != Shape::Desktop
    }

    /// egui's zoom for a window of `width`×`height` laid out for `layout` (1280×720, or 720×1280 upright): a touch
    /// screen reads at one point a CSS pixel; a desktop window grows and shrinks with the table, from three quarters
    /// to three times.
    pub fn zoom(self, width: f32, height: f32, layout: Vec2) -> f32 {
        if self.touch() {
            1.0
        } else {
            (width / layout.x).min(height / layout.y).clamp(0.75, 3.0)
        }
    }
}

/// The look the pages are drawn in now: the screen's shape, and whether a keyboard has been used (key hints show
/// only then: a touch hides them again).
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Theme {
    pub shape: Shape,
    pub keyboard: bool,
}

impl Default for Theme {
    fn default() -> Self {
        Theme {
            shape: Shape::Desktop,
            keyboard: false,
        }
    }
}

impl Theme {
    /// The theme the pages are drawn in, as the frame began (kept in egui's memory by `zoom_to_window`, so a page's
    /// function needs only its `Ui`).
    pub fn of(ctx: &egui::Context) -> Theme {
        ctx.data(|data| data.get_temp(egui::Id::NULL))
            .unwrap_or_default()
    }

    /// Keeps this theme in egui's memory for the frame's pages.
    pub fn keep(self, ctx: &egui::Context) {
        ctx.data_mut(|data| data.insert_temp(egui::Id::NULL, self));
    }

    /// `label` with its key, `Hit  [H]`, once a keyboard has been used; otherwise the label alone.
    pub fn hint(&self, label: &str, key: &str) -> String {
        if self.keyboard {
            format!("{label}  [{key}]")
        } else {
            label.to_string()
        }
    }

    /// The least height of a button (see [`Shape::target`]).
    pub fn target(&self) -> f32 {
        self.shape.target()
    }

    /// A help that is on or off: a button lit while on, `each` wide, with its key hint; a click turns it over.
    pub fn toggle(&self, ui: &mut egui::Ui, label: &str, key: &str, on: &mut bool, each: f32) {
        let toggle = egui::Button::new(self.hint(label, key))
            .selected(*on)
            .min_size(egui::vec2(each, self.target()))
            .corner_radius(8.0);
        if ui.add(toggle).clicked() {
            *on = !*on;
        }
    }

    /// A page's big button, as wide as `width`.
    pub fn wide_button(&self, text: &str, width: f32) -> egui::Button<'static> {
        egui::Button::new(bold(text).size(size::LARGE))
            .min_size(egui::vec2(width, self.target().max(44.0)))
            .corner_radius(8.0)
    }

    /// A button of the body's size, at least a target high.
    pub fn button(&self, text: impl Into<egui::WidgetText>) -> egui::Button<'static> {
        egui::Button::new(text)
            .min_size(egui::vec2(self.target(), self.target()))
            .corner_radius(8.0)
    }
}

/// A table's shorthand ("6D S17 DAS SP4 LS 3:2 peek") and a button that opens, under it, what each of its words
/// means at this table (hovering the shorthand shows it too, where there is a pointer). `id` keeps it open or shut.
pub fn rule_codes(
    ui: &mut egui::Ui,
    rules: &Rules,
    id: impl std::hash::Hash + std::fmt::Debug,
    size: f32,
) {
    let id = egui::Id::new(("rule codes", id));
    let mut open = ui.data(|data| data.get_temp::<bool>(id)).unwrap_or(false);
    let theme = Theme::of(ui.ctx());
    ui.horizontal_wrapped(|ui| {
        ui.label(egui::RichText::new(rules.to_string()).size(size))
            .on_hover_ui(|ui| rule_glossary(ui, rules));
        let words = if open {
            "Hide what these mean"
        } else {
            "What these mean"
        };
        if ui
            .add(theme.button(egui::RichText::new(words).size(size::BODY)))
            .clicked()
        {
            open = !open;
            ui.data_mut(|data| data.insert_temp(id, open));
        }
    });
    if open {
        rule_glossary(ui, rules);
    }
}

/// Each word of a table's shorthand in gold, with what it means at this table.
pub fn rule_glossary(ui: &mut egui::Ui, rules: &Rules) {
    for code in rules.codes() {
        ui.horizontal_wrapped(|ui| {
            ui.label(bold(&code.code).size(size::BODY).color(GOLD));
            ui.label(egui::RichText::new(&code.meaning).size(size::BODY));
        });
    }
}

/// The field with the keyboard this frame takes a number: a phone should open its number pad.
pub fn wants_a_number(ctx: &egui::Context) {
    let pass = ctx.cumulative_pass_nr();
    ctx.data_mut(|data| data.insert_temp(egui::Id::new("a number is typed"), pass));
}

/// Whether the field with the keyboard took a number in the last pass.
pub fn takes_a_number(ctx: &egui::Context) -> bool {
    let pass = ctx.cumulative_pass_nr();
    ctx.data(|data| data.get_temp::<u64>(egui::Id::new("a number is typed")))
        .is_some_and(|at| at + 1 >= pass)
}

/// Bold words.
pub fn bold(text: impl Into<String>) -> egui::RichText {
    egui::RichText::new(text).family(egui::FontFamily::Name(
        crate::game::felt::fonts::BOLD_FAMILY.into(),
    ))
}

/// `count` equal buttons across `width`, as many to a row as fit at `least` wide each: the columns and each one's
/// width.
pub fn grid(width: f32, count: usize, least: f32) -> (usize, f32) {
    let count = count.max(1);
    let fit = ((width + size::GAP) / (least + size::GAP)).floor().max(1.0) as usize;
    // Rows as even as they can be: eight chips where seven fit are two rows of four.
    let columns = count.div_ceil(count.div_ceil(fit));
    let each = (width - size::GAP * (columns - 1) as f32) / columns as f32;
    (columns, each.max(least.min(width)))
}

/// The text styles, the spacing and the widgets' dress for `shape`: burgundy buttons edged in gold, dark felt windows,
/// cream text, checkboxes drawn square, targets a thumb can hit on a touch screen.
pub fn dress(ctx: &egui::Context, shape: Shape) {
    use egui::{FontFamily, FontId, TextStyle};
    let target = shape.target();
    // A tap is a click however long the frames around it take. egui times a press from the frame that reads it to
    // the frame that reads its release; a window that waits for the player draws the frame of a tap's touch at once
    // and reads its release a frame later, which takes a second where a phone's browser draws in software, past
    // egui's 0.8 s for a click. Nothing here is pressed and held for its own meaning (no context menus).
    ctx.options_mut(|options| options.input_options.max_click_duration = 4.0);
    ctx.all_styles_mut(|style| {
        // A steady cursor: a blinking one asks egui for a frame every half second, for as long as a field waits.
        style.visuals.text_cursor.blink = false;
        style.text_styles = [
            (
                TextStyle::Small,
                FontId::new(size::SMALL, FontFamily::Proportional),
            ),
            (
                TextStyle::Body,
                FontId::new(size::BODY, FontFamily::Proportional),
            ),
            (
                TextStyle::Button,
                FontId::new(size::BUTTON, FontFamily::Proportional),
            ),
            (
                TextStyle::Heading,
                FontId::new(size::HEADING, FontFamily::Proportional),
            ),
            (
                TextStyle::Monospace,
                FontId::new(size::BODY - 1.0, FontFamily::Monospace),
            ),
        ]
        .into();
        let spacing = &mut style.spacing;
        spacing.item_spacing = egui::vec2(size::GAP, size::GAP);
        spacing.button_padding = egui::vec2(12.0, 6.0);
        spacing.interact_size = egui::vec2(target, target);
        spacing.icon_width = 22.0;
        spacing.icon_width_inner = 12.0;
        spacing.icon_spacing = 8.0;
        spacing.combo_width = 160.0;
        spacing.slider_width = 160.0;
        // A scroll bar a thumb can find; pages scroll by dragging too.
        spacing.scroll = egui::style::ScrollStyle::solid();
        let visuals = &mut style.visuals;
        visuals.override_text_color = None;
        visuals.window_fill = egui::Color32::from_rgb(10, 34, 22);
        visuals.panel_fill = egui::Color32::from_rgb(10, 34, 22);
        visuals.window_stroke = egui::Stroke::new(1.0, GOLD.gamma_multiply(0.7));
        visuals.extreme_bg_color = egui::Color32::from_rgb(6, 20, 13);
        visuals.selection.bg_fill = BURGUNDY_LIT;
        visuals.selection.stroke = egui::Stroke::new(1.0, GOLD);
        let widgets = &mut visuals.widgets;
        for (state, fill, edge) in [
            (&mut widgets.inactive, BURGUNDY, 0.55),
            (&mut widgets.hovered, BURGUNDY_LIT, 1.0),
            (&mut widgets.active, BURGUNDY_LIT, 1.0),
            (&mut widgets.open, BURGUNDY, 0.8),
        ] {
            state.weak_bg_fill = fill;
            state.bg_fill = fill;
            state.bg_stroke = egui::Stroke::new(1.0, GOLD.gamma_multiply(edge));
            // Square enough that a checkbox is a box (egui draws it with the widgets' corners); buttons round
            // their own corners.
            state.corner_radius = egui::CornerRadius::same(3);
            state.fg_stroke.color = egui::Color32::from_rgb(0xf6, 0xee, 0xd8);
        }
        widgets.noninteractive.fg_stroke.color = CREAM;
        widgets.noninteractive.bg_stroke = egui::Stroke::new(1.0, GOLD.gamma_multiply(0.35));
    });
}

/// The screen's shape and the zoom follow the window; a key pressed shows the key hints, a touch hides them.
pub(super) fn follow_the_screen(
    windows: Query<&Window>,
    keys: Res<ButtonInput<KeyCode>>,
    touches: Option<Res<Touches>>,
    mut theme: ResMut<Theme>,
    mut touched: Local<bool>,
) {
    let touching = touches.is_some_and(|t| t.any_just_pressed());
    *touched |= touching;
    if keys.get_just_pressed().next().is_some() {
        theme.keyboard = true;
    } else if touching {
        theme.keyboard = false;
    }
    if let Ok(window) = windows.single() {
        let shape = Shape::of(window.width(), window.height(), *touched);
        if theme.shape != shape {
            theme.shape = shape;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_phone_is_told_by_its_short_side_and_a_tablet_by_its_touch() {
        assert_eq!(Shape::of(390.0, 844.0, true), Shape::PhonePortrait);
        assert_eq!(Shape::of(844.0, 390.0, false), Shape::PhoneLandscape);
        assert_eq!(Shape::of(820.0, 1180.0, true), Shape::Tablet);
        assert_eq!(Shape::of(1280.0, 720.0, false), Shape::Desktop);
        let upright = Vec2::new(720.0, 1280.0);
        assert_eq!(Shape::PhonePortrait.zoom(390.0, 844.0, upright), 1.0);
        let wide = Vec2::new(1280.0, 720.0);
        assert_eq!(Shape::Desktop.zoom(1920.0, 1080.0, wide), 1.5);
        assert_eq!(Shape::Desktop.zoom(800.0, 600.0, wide), 0.75);
    }

    #[test]
    fn buttons_across_a_phone_are_a_thumb_wide_and_fill_the_row() {
        // Eight chips across 374 points, where seven would fit: two rows of four, each 87.5 wide.
        assert_eq!(grid(374.0, 8, size::TARGET), (4, 87.5));
        let (columns, each) = grid(374.0, 5, 64.0);
        assert_eq!(columns, 5);
        assert!((each * 5.0 + size::GAP * 4.0 - 374.0).abs() < 0.01);
        assert_eq!(grid(100.0, 3, size::TARGET), (2, 46.0));
    }

    #[test]
    fn key_hints_show_only_once_a_keyboard_has_been_used() {
        let mut theme = Theme::default();
        assert_eq!(theme.hint("Hit", "H"), "Hit");
        theme.keyboard = true;
        assert_eq!(theme.hint("Hit", "H"), "Hit  [H]");
    }
}
