//! The layout check: what egui laid out in a frame — every widget's rectangle and role from egui's accessibility
//! tree, every run of words with its size from the shapes it painted, the areas of the HUD, the Title's decorations
//! — measured against the theme's rules: no words under 13 CSS px, on a touch screen no target under 44×44, no two
//! runs of words or two targets over each other, no words cut off at a side of the view they lie in (the views
//! scroll only up and down), no decoration over a widget, no area running off the screen, and at
//! the table no panel of the HUD over a seat, its label, the shoe, the discard holder or the dealer's tray.
//!
//! With `--layout` (`?layout` in the browser) each frame's report goes to the game's log as one JSON line under the
//! target `holecard::layout` whenever it changes: the faults, and the widgets with their labels and rectangles in CSS
//! pixels (which the browser test also uses to find what to tap). The pages' own tests check the same rules on a bare
//! egui context (`mod.rs`).

use super::theme::{Shape, Theme};
use bevy::prelude::*;
use bevy_egui::egui;
use std::sync::{Arc, Mutex};

/// The least size of words anywhere, in CSS pixels.
pub const TEXT_FLOOR: f32 = 13.0;
/// The least target on a touch screen, across and high, in CSS pixels.
pub const TARGET_FLOOR: f32 = 44.0;

/// The HUD's panels the table never lies under: those docked along the window's edges (the felt is framed clear of
/// them), and the count (docked under the header on a phone, beside the shoe elsewhere).
pub const DOCKED: [&str; 6] = [
    "bottom bar",
    "header",
    "count",
    "player info",
    "table info",
    "online panel",
];

/// The windows that stand as columns beside the table on a wide screen while open (on a phone, sheets over it).
pub const COLUMNS: [&str; 2] = ["Chat", "Round log"];

/// A widget as egui's accessibility tree has it.
#[derive(Clone, Debug, PartialEq)]
pub struct Widget {
    /// `Button`, `CheckBox`, `TextInput`, `Label`, ….
    pub role: String,
    /// Its words.
    pub label: String,
    /// Where it is, in points.
    pub rect: egui::Rect,
    /// It can be tapped or clicked (or focused, for a text field), and is enabled.
    pub target: bool,
    /// It is inside a window (the pause menu, the round log's sheet, the chat): a sheet over the table, which may
    /// cover what is under it.
    pub in_window: bool,
}

/// A run of words as painted: the part of it not clipped away, its size in points, its words.
#[derive(Clone, Debug, PartialEq)]
pub struct Words {
    pub rect: egui::Rect,
    /// Part of it lies off the screen, clipped by the screen's own edge: nothing scrolls it into view.
    pub off_screen: bool,
    /// Part of it is cut away at a side by the view it lies in (a page's column, a panel): the views scroll only up
    /// and down, so nothing brings it into view.
    pub cut_at_side: bool,
    pub size: f32,
    pub text: String,
}

/// What egui laid out in one frame.
#[derive(Clone, Debug)]
pub struct Laid {
    /// The screen, in points.
    pub screen: egui::Rect,
    /// CSS pixels per point.
    pub zoom: f32,
    pub widgets: Vec<Widget>,
    pub words: Vec<Words>,
    /// The HUD's areas (not windows, not the pages' background): each must be on the screen whole.
    pub areas: Vec<(String, egui::Rect)>,
    /// The Title's cards and chips laid on the felt.
    pub decorations: Vec<egui::Rect>,
    /// The HUD's panels docked along the window's edges, by name ([`DOCKED`]).
    pub docked: Vec<(String, egui::Rect)>,
    /// The table's pieces on the screen (a seat's circle and label, the shoe, …), by name: no docked panel may lie
    /// over one.
    pub felt: Vec<(String, egui::Rect)>,
    /// The words written on the felt (names, chips, counts, totals; not the rules printed along its edge), as shown:
    /// each at least the floor, none over another, no docked panel over one.
    pub felt_words: Vec<Words>,
    /// The cards on the felt, each where it comes to rest: no words on the felt under one, no docked panel over one.
    pub cards: Vec<egui::Rect>,
    /// Where each window is (a sheet over what is under it).
    pub windows: Vec<egui::Rect>,
}

/// Where the Title's decorations lie this pass (`backdrop` records them).
pub fn record_decoration(ctx: &egui::Context, rect: egui::Rect) {
    let pass = ctx.cumulative_pass_nr();
    ctx.data_mut(|data| {
        let id = egui::Id::new("the Title's decorations");
        let mut laid: (u64, Vec<egui::Rect>) = data.get_temp(id).unwrap_or_default();
        if laid.0 != pass {
            laid = (pass, Vec::new());
        }
        laid.1.push(rect);
        data.insert_temp(id, laid);
    });
}

fn decorations(ctx: &egui::Context) -> Vec<egui::Rect> {
    let pass = ctx.cumulative_pass_nr();
    ctx.data(|data| {
        data.get_temp::<(u64, Vec<egui::Rect>)>(egui::Id::new("the Title's decorations"))
    })
    // Recorded in this pass; the check reads them as the pass ends, when egui may count the next one.
    .filter(|(at, _)| *at + 1 >= pass)
    .map(|(_, rects)| rects)
    .unwrap_or_default()
}

const FELT: &str = "the felt's pieces on the screen";

/// Where the table's pieces lie on the screen this pass (`table_hud` records them), in points.
pub fn record_felt(
    ctx: &egui::Context,
    pieces: Vec<(String, egui::Rect)>,
    cards: Vec<egui::Rect>,
    words: Vec<Words>,
) {
    let pass = ctx.cumulative_pass_nr();
    let felt: Felt = (pieces, cards, words);
    ctx.data_mut(|data| data.insert_temp(egui::Id::new(FELT), (pass, felt)));
}

/// The felt's pieces, cards and words, as [`record_felt`] keeps them.
type Felt = (Vec<(String, egui::Rect)>, Vec<egui::Rect>, Vec<Words>);

/// Where the area (or window) `name` was drawn, if it was shown in the last pass: egui keeps the rectangles of areas
/// no longer drawn.
pub fn shown_area(ctx: &egui::Context, name: &str) -> Option<egui::Rect> {
    let id = egui::Id::new(name);
    ctx.memory(|memory| {
        let shown = memory
            .areas()
            .visible_layer_ids()
            .iter()
            .any(|layer| layer.id == id);
        shown.then(|| memory.area_rect(id)).flatten()
    })
}

/// The felt's pieces and words recorded in this pass (or the one before).
fn felt(ctx: &egui::Context) -> Felt {
    let pass = ctx.cumulative_pass_nr();
    ctx.data(|data| data.get_temp::<(u64, Felt)>(egui::Id::new(FELT)))
        .filter(|(at, _)| *at + 1 >= pass)
        .map(|(_, felt)| felt)
        .unwrap_or_default()
}

impl Laid {
    /// What `ctx` laid out, from the frame's `output` (egui's accessibility tree must be on: `ctx.enable_accesskit`).
    pub fn capture(ctx: &egui::Context, output: &egui::FullOutput) -> Laid {
        let mut words = Vec::new();
        let screen = ctx.content_rect();
        for clipped in &output.shapes {
            collect_words(&clipped.shape, clipped.clip_rect, screen, &mut words);
        }
        let widgets = output
            .platform_output
            .accesskit_update
            .as_ref()
            .map_or_else(Vec::new, widgets_of);
        let windows = output
            .platform_output
            .accesskit_update
            .as_ref()
            .map_or_else(Vec::new, windows_of);
        let areas = ctx.memory(|memory| {
            let visible = memory.areas().visible_layer_ids();
            let mut areas: Vec<(String, egui::Rect)> = visible
                .into_iter()
                .filter(|layer| {
                    matches!(layer.order, egui::Order::Middle | egui::Order::Foreground)
                })
                .filter_map(|layer| {
                    memory
                        .area_rect(layer.id)
                        .map(|rect| (format!("{:?}", layer.id), rect))
                })
                .collect();
            areas.sort_by(|a, b| a.0.cmp(&b.0));
            areas
        });
        let docked = DOCKED
            .iter()
            .chain(COLUMNS.iter())
            .filter_map(|name| shown_area(ctx, name).map(|rect| (name.to_string(), rect)))
            .collect();
        // A card's own rank and suit are part of the decoration, not words on the page.
        let decorations = decorations(ctx);
        words.retain(|w: &Words| {
            !decorations
                .iter()
                .any(|d| d.expand(2.0).contains_rect(w.rect))
        });
        let (felt, cards, felt_words) = felt(ctx);
        Laid {
            screen: ctx.content_rect(),
            zoom: ctx.zoom_factor(),
            widgets,
            words,
            areas,
            decorations,
            docked,
            felt,
            felt_words,
            cards,
            windows,
        }
    }

    /// Everything that breaks the theme's rules, in words (empty when the layout is sound). `shape`: the screen's.
    pub fn faults(&self, shape: Shape) -> Vec<String> {
        let mut faults = Vec::new();
        let px = |points: f32| points * self.zoom;
        let screen = self.screen.expand(1.0);
        for words in &self.words {
            if words.off_screen {
                faults.push(format!(
                    "words off the screen, where nothing scrolls: {:?}",
                    words.text
                ));
            }
            // What is typed in a field longer than the field scrolls inside it, as it should.
            let typed = || {
                self.widgets.iter().any(|w| {
                    matches!(
                        w.role.as_str(),
                        "TextInput" | "PasswordInput" | "MultilineTextInput"
                    ) && w.rect.expand(1.0).intersects(words.rect)
                })
            };
            if words.cut_at_side && !words.off_screen && !typed() {
                faults.push(format!(
                    "words cut off at the side of their view: {:?}",
                    words.text
                ));
            }
            if px(words.size) < TEXT_FLOOR - 0.01 {
                faults.push(format!(
                    "words under {TEXT_FLOOR} px: {:?} at {:.1} px",
                    words.text,
                    px(words.size)
                ));
            }
        }
        let shown: Vec<&Widget> = self.widgets.iter().filter(|w| self.shown(w)).collect();
        if shape.touch() {
            // A scroll bar is not aimed at on a touch screen: the page itself is dragged.
            for widget in shown.iter().filter(|w| w.target && w.role != "ScrollBar") {
                let size = widget.rect.size() * self.zoom;
                if size.x < TARGET_FLOOR - 0.5 || size.y < TARGET_FLOOR - 0.5 {
                    faults.push(format!(
                        "a target under {TARGET_FLOOR}×{TARGET_FLOOR} px: {} {:?} is {:.0}×{:.0}",
                        widget.role, widget.label, size.x, size.y
                    ));
                }
            }
        }
        // Two targets over each other (a window may cover what is under it: it is a sheet over the table).
        let targets: Vec<&&Widget> = shown.iter().filter(|w| w.target).collect();
        for (i, a) in targets.iter().enumerate() {
            for b in &targets[i + 1..] {
                if a.in_window == b.in_window && overlap(a.rect, b.rect) > 4.0 / self.zoom {
                    faults.push(format!(
                        "{} {:?} and {} {:?} overlap",
                        a.role, a.label, b.role, b.label
                    ));
                }
            }
        }
        // Two runs of words over each other (a window's words may cover what is under it, as its targets may).
        // Words are a window's when the smallest widget that holds them and says them is (their label, their button:
        // not a row of the window's paragraph that happens to reach over a caption of the bar under it, nor the bar's
        // button under the window's Back), or, said by none, when they lie in a window (its title).
        let in_window = |words: &Words| {
            let holder = self
                .widgets
                .iter()
                .filter(|w| {
                    w.rect.expand(1.0).contains_rect(words.rect) && w.label.contains(&words.text)
                })
                .min_by(|a, b| a.rect.area().total_cmp(&b.rect.area()));
            match holder {
                Some(widget) => widget.in_window,
                None => self.windows.iter().any(|w| w.contains_rect(words.rect)),
            }
        };
        for (i, a) in self.words.iter().enumerate() {
            for b in &self.words[i + 1..] {
                if in_window(a) == in_window(b) && overlap(a.rect, b.rect) > 4.0 / self.zoom {
                    faults.push(format!("words {:?} and {:?} overlap", a.text, b.text));
                }
            }
        }
        for decoration in &self.decorations {
            for widget in &shown {
                if overlap(*decoration, widget.rect) > 0.0 {
                    faults.push(format!(
                        "a decoration lies over {} {:?}",
                        widget.role, widget.label
                    ));
                }
            }
            for words in &self.words {
                if overlap(*decoration, words.rect) > 0.0 {
                    faults.push(format!("a decoration lies over the words {:?}", words.text));
                }
            }
        }
        for (panel, over) in &self.docked {
            // On a phone the chat and the round log are sheets over the table, meant to cover it while open.
            if shape.phone() && COLUMNS.contains(&panel.as_str()) {
                continue;
            }
            for (piece, under) in &self.felt {
                if overlap(*over, *under) > 2.0 {
                    faults.push(format!("the HUD's {panel} lies over the table's {piece}"));
                }
            }
            if self.cards.iter().any(|card| overlap(*over, *card) > 2.0) {
                faults.push(format!("the HUD's {panel} lies over a card"));
            }
            for words in &self.felt_words {
                if overlap(*over, words.rect) > 2.0 {
                    faults.push(format!(
                        "the HUD's {panel} lies over the felt's words {:?}",
                        words.text
                    ));
                }
            }
        }
        // The felt's words: read at the floor, and apart.
        for (i, words) in self.felt_words.iter().enumerate() {
            if px(words.size) < TEXT_FLOOR - 0.01 {
                faults.push(format!(
                    "the felt's words under {TEXT_FLOOR} px: {:?} at {:.1} px",
                    words.text,
                    px(words.size)
                ));
            }
            if self
                .cards
                .iter()
                .any(|card| overlap(*card, words.rect) > 4.0 / self.zoom)
            {
                faults.push(format!(
                    "a card lies over the felt's words {:?}",
                    words.text
                ));
            }
            for other in &self.felt_words[i + 1..] {
                if overlap(words.rect, other.rect) > 4.0 / self.zoom {
                    faults.push(format!(
                        "the felt's words {:?} and {:?} overlap",
                        words.text, other.text
                    ));
                }
            }
        }
        for (name, rect) in &self.areas {
            if !screen.contains_rect(*rect) {
                faults.push(format!(
                    "the area {name} runs off the screen: {:.0},{:.0} to {:.0},{:.0} on {:.0}×{:.0}",
                    px(rect.min.x),
                    px(rect.min.y),
                    px(rect.max.x),
                    px(rect.max.y),
                    px(self.screen.width()),
                    px(self.screen.height())
                ));
            }
        }
        faults
    }

    /// A widget is shown when words of its own are painted inside it (a widget scrolled out of its page's view has
    /// its words clipped away), or it has no words to paint.
    fn shown(&self, widget: &Widget) -> bool {
        if !self.screen.intersects(widget.rect) {
            return false;
        }
        let field = matches!(
            widget.role.as_str(),
            "TextInput" | "PasswordInput" | "MultilineTextInput"
        );
        if field {
            return self.screen.expand(1.0).contains_rect(widget.rect);
        }
        widget.label.trim().is_empty()
            || self
                .words
                .iter()
                .any(|w| widget.rect.expand(1.0).contains_rect(w.rect))
    }

    /// The report as one line of JSON: the screen and zoom, the faults, and each shown widget in CSS pixels.
    pub fn report(&self, shape: Shape) -> String {
        let widgets: Vec<serde_json::Value> = self
            .widgets
            .iter()
            .filter(|w| self.shown(w))
            .map(|w| {
                let r = w.rect;
                serde_json::json!({
                    "role": w.role,
                    "label": w.label,
                    "x": r.min.x * self.zoom,
                    "y": r.min.y * self.zoom,
                    "w": r.width() * self.zoom,
                    "h": r.height() * self.zoom,
                    "target": w.target,
                })
            })
            .collect();
        serde_json::json!({
            "shape": format!("{shape:?}"),
            "screen": [self.screen.width() * self.zoom, self.screen.height() * self.zoom],
            "zoom": self.zoom,
            "smallest_words": self.words.iter().map(|w| w.size * self.zoom).fold(f32::INFINITY, f32::min),
            "smallest_felt_words": self.felt_words.iter().map(|w| w.size * self.zoom).fold(f32::INFINITY, f32::min),
            "faults": self.faults(shape),
            "widgets": widgets,
        })
        .to_string()
    }
}

/// The area two rectangles share, in square points.
fn overlap(a: egui::Rect, b: egui::Rect) -> f32 {
    let shared = a.intersect(b);
    if shared.is_positive() {
        shared.area()
    } else {
        0.0
    }
}

fn collect_words(shape: &egui::Shape, clip: egui::Rect, screen: egui::Rect, into: &mut Vec<Words>) {
    match shape {
        egui::Shape::Vec(shapes) => {
            for shape in shapes {
                collect_words(shape, clip, screen, into);
            }
        }
        egui::Shape::Text(text) => {
            let galley = &text.galley;
            let size = galley
                .job
                .sections
                .iter()
                .map(|s| s.format.font_id.size)
                .fold(f32::INFINITY, f32::min);
            // Row by row: a run of words wrapped across lines covers its rows, not the box around them.
            for row in &galley.rows {
                let words = row.row.text();
                let words = words.trim();
                if words.is_empty() {
                    continue;
                }
                let whole = row
                    .rect_without_leading_space()
                    .translate(text.pos.to_vec2());
                let rect = whole.intersect(clip);
                // Cut by a clip as big as the screen (not a scrolling view inside it): off the screen for good.
                let off_screen = !screen.expand(1.0).contains_rect(whole)
                    && clip.expand(1.0).contains_rect(screen);
                let cut_at_side =
                    whole.left() < clip.left() - 1.0 || whole.right() > clip.right() + 1.0;
                if !rect.is_positive() {
                    continue;
                }
                into.push(Words {
                    rect,
                    off_screen,
                    cut_at_side,
                    size,
                    text: words.chars().take(48).collect(),
                });
            }
        }
        _ => {}
    }
}

fn widgets_of(update: &egui::accesskit::TreeUpdate) -> Vec<Widget> {
    use egui::accesskit::{Action, NodeId, Role};
    use std::collections::HashMap;
    let nodes: HashMap<NodeId, &egui::accesskit::Node> =
        update.nodes.iter().map(|(id, node)| (*id, node)).collect();
    let mut parent = HashMap::new();
    for (id, node) in &update.nodes {
        for child in node.children() {
            parent.insert(*child, *id);
        }
    }
    let root = update.tree.as_ref().map(|tree| tree.root);
    let in_window = |mut id: NodeId| {
        while let Some(up) = parent.get(&id) {
            if Some(*up) != root && nodes.get(up).is_some_and(|n| n.role() == Role::Window) {
                return true;
            }
            id = *up;
        }
        false
    };
    let mut widgets = Vec::new();
    for (id, node) in &update.nodes {
        let role = node.role();
        if matches!(role, Role::Window | Role::GenericContainer | Role::Unknown) {
            continue;
        }
        let Some(bounds) = node.bounds() else {
            continue;
        };
        let rect = egui::Rect::from_min_max(
            egui::pos2(bounds.x0 as f32, bounds.y0 as f32),
            egui::pos2(bounds.x1 as f32, bounds.y1 as f32),
        );
        // A text field is named by the label it is labelled by (never by what is typed in it: a password).
        let text_field = matches!(
            role,
            Role::TextInput | Role::PasswordInput | Role::MultilineTextInput
        );
        let label = node
            .label()
            .map(str::to_string)
            .or_else(|| {
                node.labelled_by()
                    .iter()
                    .filter_map(|by| nodes.get(by).and_then(|n| n.label().or_else(|| n.value())))
                    .next()
                    .map(str::to_string)
            })
            .or_else(|| {
                (!text_field)
                    .then(|| node.value().map(str::to_string))
                    .flatten()
            })
            .unwrap_or_default();
        // A label senses a click (its words can be selected), but nobody aims at one.
        let target = !node.is_disabled()
            && role != Role::Label
            && (node.supports_action(Action::Click) || text_field);
        widgets.push(Widget {
            role: format!("{role:?}"),
            label,
            rect,
            target,
            in_window: in_window(*id),
        });
    }
    widgets.sort_by(|a, b| {
        (a.rect.min.y, a.rect.min.x)
            .partial_cmp(&(b.rect.min.y, b.rect.min.x))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    widgets
}

/// Where each window of the accessibility tree is.
fn windows_of(update: &egui::accesskit::TreeUpdate) -> Vec<egui::Rect> {
    // The tree's root is a window too: the whole screen, not a sheet over it.
    let root = update.tree.as_ref().map(|tree| tree.root);
    update
        .nodes
        .iter()
        .filter(|(id, node)| Some(*id) != root && node.role() == egui::accesskit::Role::Window)
        .filter_map(|(_, node)| node.bounds())
        .map(|b| {
            egui::Rect::from_min_max(
                egui::pos2(b.x0 as f32, b.y0 as f32),
                egui::pos2(b.x1 as f32, b.y1 as f32),
            )
        })
        .collect()
}

/// The check at work in the app: an egui plugin that measures every frame's output, and the last report, for the
/// log.
#[derive(Resource, Clone, Default)]
pub struct LayoutCheck {
    last: Arc<Mutex<Option<String>>>,
    logged: Option<String>,
}

struct Probe {
    last: Arc<Mutex<Option<String>>>,
}

impl egui::Plugin for Probe {
    fn debug_name(&self) -> &'static str {
        "holecard's layout check"
    }

    fn output_hook(&mut self, ctx: &egui::Context, output: &mut egui::FullOutput) {
        let report = Laid::capture(ctx, output).report(Theme::of(ctx).shape);
        if let Ok(mut last) = self.last.lock() {
            *last = Some(report);
        }
    }
}

/// Puts the probe on the window's egui context once it is there, with egui's accessibility tree on.
pub(super) fn install(
    mut contexts: bevy_egui::EguiContexts,
    check: Res<LayoutCheck>,
    mut done: Local<bool>,
) -> Result {
    if *done {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    ctx.enable_accesskit();
    ctx.add_plugin(Probe {
        last: check.last.clone(),
    });
    *done = true;
    Ok(())
}

/// Logs the latest report when it differs from the one logged last (a page that stands still logs once).
pub(super) fn log_reports(mut check: ResMut<LayoutCheck>) {
    let latest = check.last.lock().ok().and_then(|last| last.clone());
    if let Some(latest) = latest
        && check.logged.as_ref() != Some(&latest)
    {
        info!(target: "holecard::layout", "{latest}");
        check.logged = Some(latest);
    }
}

/// For the pages' tests: an egui context with the game's own fonts, dressed for `shape` (and Bevy's task pools,
/// where the pages hand their work).
#[cfg(test)]
pub(super) fn test_context(shape: Shape) -> egui::Context {
    use crate::game::felt::fonts::{BOLD, REGULAR, font_definitions};
    bevy::tasks::AsyncComputeTaskPool::get_or_init(bevy::tasks::TaskPool::new);
    bevy::tasks::ComputeTaskPool::get_or_init(bevy::tasks::TaskPool::new);
    let ctx = egui::Context::default();
    let read = |file: &str| {
        let path = format!("{}/assets/{file}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    };
    ctx.set_fonts(font_definitions(Some(read(REGULAR)), Some(read(BOLD))));
    super::theme::dress(&ctx, shape);
    ctx.enable_accesskit();
    ctx
}

/// The same walk as the browser test's, natively, on a bare egui context: each page the Title opens that does not
/// need the app, at a phone's size and a desktop's, measured by the same rules.
#[cfg(test)]
mod walk {
    use super::super::*;
    use super::{Laid, Shape, Widget, Words};

    /// The faults of the page `name` drawn by `draw` at `screen` points, after egui has settled its layout.
    fn faults(
        shape: Shape,
        screen: egui::Vec2,
        name: &str,
        draw: impl FnMut(&mut egui::Ui),
    ) -> Vec<String> {
        laid(shape, false, screen, name, draw).faults(shape)
    }

    /// What the page `name` drawn by `draw` at `screen` points lays out once egui has settled, on a screen of
    /// `shape` where a keyboard has (`keyboard`) or has not been used.
    fn laid(
        shape: Shape,
        keyboard: bool,
        screen: egui::Vec2,
        name: &str,
        mut draw: impl FnMut(&mut egui::Ui),
    ) -> Laid {
        let ctx = super::test_context(shape);
        let input = || egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, screen)),
            ..Default::default()
        };
        let mut laid = None;
        for pass in 0..3 {
            Theme { shape, keyboard }.keep(&ctx);
            let output = ctx.run_ui(input(), |ui| {
                page(ui.ctx(), name, &mut draw);
            });
            if pass == 2 {
                laid = Some(Laid::capture(&ctx, &output));
            }
            output.drop_without_applying_deltas();
        }
        laid.expect("three passes")
    }

    /// Every shape the pages are laid out for: a phone upright and on its side, a tablet, a desktop window.
    const SIZES: [(Shape, egui::Vec2); 4] = [
        (Shape::PhonePortrait, egui::vec2(390.0, 844.0)),
        (Shape::PhoneLandscape, egui::vec2(844.0, 390.0)),
        (Shape::Tablet, egui::vec2(820.0, 1180.0)),
        (Shape::Desktop, egui::vec2(1280.0, 720.0)),
    ];

    fn session() -> Session {
        let level = crate::host::level::Level::load_or_default(None).expect("the built-in table");
        Session::new(level, 7, false)
    }

    #[test]
    fn the_tables_page_is_sound_in_every_shape() {
        let listings = catalogue(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/levels")));
        assert!(listings.len() >= 7, "{}", listings.len());
        for (shape, screen) in SIZES {
            let mut edges = crate::game::model::edges::HouseEdges::default();
            let faults = faults(shape, screen, "Tables", |ui| {
                tables::tables_page(
                    ui,
                    &listings,
                    (
                        &mut edges,
                        &mut crate::game::model::sides::SideEdges::default(),
                    ),
                );
            });
            assert_eq!(faults, Vec::<String>::new(), "{shape:?}");
        }
    }

    #[test]
    fn the_strategy_and_practice_pages_are_sound_in_every_shape() {
        let session = session();
        let options = PlayOptions::default();
        for (shape, screen) in SIZES {
            let mut book = crate::game::model::strategy::StrategyBook::default();
            let found = faults(shape, screen, "Strategy", |ui| {
                strategy::strategy_page(ui, &session, &options, &mut book);
            });
            assert_eq!(found, Vec::<String>::new(), "Strategy, {shape:?}");
            use crate::game::model::practice::{Shown, Step};
            let every = Step::ALL
                .into_iter()
                .map(Shown::Step)
                .chain([Shown::Next, Shown::Record]);
            for shown in every {
                let mut practice = crate::game::model::practice::Practice::default();
                practice.show(shown);
                let found = faults(shape, screen, "Trainer", |ui| {
                    let _ =
                        practice::practice_page(ui, &session, &options, &mut practice, &mut book);
                });
                assert_eq!(found, Vec::<String>::new(), "Trainer, {shown:?}, {shape:?}");
            }
            // A deck at the player's own pace, half through, and a flash card missed: its chart's part with the
            // cell marked.
            let mut practice = crate::game::model::practice::Practice::default();
            practice.show(Shown::Step(Step::Deck));
            practice.new_count_down(options.count_system(), 52, 0.0);
            for _ in 0..20 {
                practice.turn(1.0);
            }
            let found = faults(shape, screen, "Trainer", |ui| {
                let _ = practice::practice_page(ui, &session, &options, &mut practice, &mut book);
            });
            assert_eq!(found, Vec::<String>::new(), "a deck under way, {shape:?}");
            let rules = session.level.rules.rules();
            for (row, up) in [
                (crate::engine::exact::chart::RowOf::Hard(16), 10),
                (crate::engine::exact::chart::RowOf::Soft(18), 9),
                (crate::engine::exact::chart::RowOf::Pair(8), 1),
            ] {
                let found = faults(shape, screen, "Trainer", |ui| {
                    scrolling_column(ui, 720.0, |ui, _| practice::chart_cell(ui, &rules, row, up));
                });
                assert_eq!(found, Vec::<String>::new(), "{row:?} v {up}, {shape:?}");
            }
        }
    }

    #[test]
    fn an_index_play_answered_says_why_the_published_index_differs_and_not_where_it_agrees() {
        use crate::engine::exact::indices::{Index, published};
        use crate::game::model::practice::{Practice, Shown, Step};
        let session = session();
        let options = PlayOptions::default();
        let rules = session.level.rules.rules();
        let system = options.count_system();
        let mut insurance = Index::published_6d_s17_das().swap_remove(0);
        let at = published(&insurance.play).expect("insurance is published");
        for (worked_out, said) in [(at + 1, true), (at, false)] {
            insurance.index = Some(worked_out);
            let mut book = crate::game::model::strategy::StrategyBook::worked_out(
                &rules,
                system,
                vec![insurance.clone()],
            );
            for (shape, screen) in SIZES {
                let mut practice = Practice::default();
                practice.show(Shown::Step(Step::IndexPlays));
                practice.new_index(book.done_indices().expect("worked out"));
                let question = practice.index.question.clone().expect("a question");
                practice.index.answer = Some((question.answer(), true));
                let laid = laid(shape, false, screen, "Trainer", |ui| {
                    let _ =
                        practice::practice_page(ui, &session, &options, &mut practice, &mut book);
                });
                // (Said below the fold on a phone on its side: a label of the page.)
                let why = laid
                    .widgets
                    .iter()
                    .any(|w| w.label.starts_with("The published list says"));
                assert_eq!(why, said, "index {worked_out}, published {at}, {shape:?}");
                assert_eq!(laid.faults(shape), Vec::<String>::new(), "{shape:?}");
            }
        }
    }

    #[test]
    fn the_statistics_and_hands_pages_are_sound_with_nothing_kept() {
        let kept = crate::game::keep::history::Kept::default();
        for (shape, screen) in SIZES {
            let found = faults(shape, screen, "Statistics", |ui| {
                statistics::statistics_page(ui, &kept, None);
            });
            assert_eq!(found, Vec::<String>::new(), "Statistics, {shape:?}");
            let found = faults(shape, screen, "Hand history", |ui| {
                hands_page(ui, &kept);
            });
            assert_eq!(found, Vec::<String>::new(), "Hands, {shape:?}");
        }
    }

    /// With hands kept: the all-time totals and the sitting's, side by side where they fit and one above the
    /// other on a phone, on the Title (the last sitting) and at its table (this one), sound at every shape.
    #[test]
    fn the_statistics_page_shows_the_sitting_beside_all_time_at_every_shape() {
        let mut kept = crate::game::keep::history::Kept::default();
        kept.history =
            crate::host::history::sample::played(60, crate::host::history::NATIVE_LIMIT).0;
        // Valued as dealt, with values as wide as a long sitting's: the lines of luck and skill are there too.
        for hand in &mut kept.history.hands {
            hand.expected = Some(Cents(-123_456));
            for decision in &mut hand.decisions {
                decision.cost = Some(Cents(1_423_987));
            }
        }
        for (shape, screen) in SIZES {
            for table in [None, Some(("Strip", 60))] {
                let at = format!("{shape:?} {table:?}");
                let found = faults(shape, screen, "Statistics", |ui| {
                    scrolling_column(ui, 900.0, |ui, _| {
                        statistics::statistics_page(ui, &kept, table);
                    });
                });
                assert_eq!(found, Vec::<String>::new(), "{at}");
                // Whole, on a screen as wide and tall enough for all of it: both panels are there.
                let whole = egui::vec2(screen.x, 9000.0);
                let laid = laid(shape, false, whole, "Statistics", |ui| {
                    statistics::statistics_page(ui, &kept, table);
                });
                assert_eq!(laid.faults(shape), Vec::<String>::new(), "{at}");
                let title = if table.is_some() {
                    "This sitting"
                } else {
                    "Last sitting · Strip"
                };
                let words: Vec<&str> = laid.words.iter().map(|w| w.text.as_str()).collect();
                assert!(words.contains(&"All-time"), "{at}: {words:?}");
                assert!(words.contains(&title), "{at}: {words:?}");
            }
        }
    }

    /// How to play at every shape, scrolled as it is shown, and whole on a screen tall enough for all of it (at a
    /// phone's width and a desktop's) for every preset: sound, this table's rules word for word, and the keys only
    /// where there are keys.
    #[test]
    fn how_to_play_is_sound_says_the_tables_rules_and_tells_keys_only_where_there_are_keys() {
        let name = "The table";
        for (shape, screen) in SIZES {
            let rules = crate::engine::Preset::LasVegasStrip.rules();
            let found = faults(shape, screen, "How to play", |ui| {
                scrolling_column(ui, 680.0, |ui, width| {
                    how_to_play::how_to_play(ui, name, &rules, width);
                });
            });
            assert_eq!(found, Vec::<String>::new(), "{shape:?}");
        }
        for preset in crate::engine::Preset::ALL {
            let rules = preset.rules();
            for (shape, keyboard, width) in [
                (Shape::PhonePortrait, false, 390.0),
                (Shape::PhonePortrait, true, 390.0),
                (Shape::Desktop, false, 1280.0),
            ] {
                let laid = laid(
                    shape,
                    keyboard,
                    egui::vec2(width, 9000.0),
                    "How to play",
                    |ui| {
                        let width = (ui.available_width() - 16.0).min(680.0);
                        how_to_play::how_to_play(ui, name, &rules, width);
                    },
                );
                let at = format!("{preset:?}, {shape:?}, keyboard {keyboard}");
                assert_eq!(laid.faults(shape), Vec::<String>::new(), "{at}");
                // What is painted, and what each widget says (a label wrapped over rows is painted in pieces).
                let all: Vec<&str> = laid
                    .words
                    .iter()
                    .map(|w| w.text.as_str())
                    .chain(laid.widgets.iter().map(|w| w.label.as_str()))
                    .collect();
                let says = |what: &str| all.iter().any(|w| w.contains(what));
                for code in rules.codes() {
                    assert!(says(&code.meaning), "{at}: {} unexplained", code.code);
                }
                assert!(says("The aim") && says("What the table shows"), "{at}");
                let keys = says("Keys") && says("Backspace") && says("Esc");
                assert_eq!(keys, !shape.touch() || keyboard, "{at}: {all:?}");
                assert_eq!(says("Playing by touch"), shape.touch(), "{at}");
                assert!(!all.iter().any(|w| w.contains("engine")), "{at}: {all:?}");
            }
        }
    }

    #[test]
    fn the_check_finds_small_words_small_targets_and_words_over_words() {
        let shape = Shape::PhonePortrait;
        let found = faults(shape, egui::vec2(390.0, 844.0), "Broken", |ui| {
            ui.label(egui::RichText::new("tiny").size(9.0));
            let _ = ui.add(egui::Button::new("x").min_size(egui::vec2(20.0, 20.0)));
            let at = ui.cursor().min;
            ui.put(
                egui::Rect::from_min_size(at, egui::vec2(120.0, 30.0)),
                egui::Label::new("one run"),
            );
            ui.put(
                egui::Rect::from_min_size(at, egui::vec2(120.0, 30.0)),
                egui::Label::new("another"),
            );
        });
        let said = |what: &str| found.iter().any(|f| f.contains(what));
        assert!(said("words under 13 px: \"tiny\""), "{found:?}");
        assert!(said("a target under 44×44 px: Button \"x\""), "{found:?}");
        assert!(
            said("words \"one run\" and \"another\" overlap"),
            "{found:?}"
        );
        // A window's words over the page's are a sheet over it, not a fault; words under each other in it are.
        let found = faults(shape, egui::vec2(390.0, 844.0), "Sheet", |ui| {
            ui.label("the page's words, under the window");
            egui::Window::new("A sheet")
                .fixed_pos(egui::pos2(0.0, 40.0))
                .show(ui.ctx(), |ui| {
                    ui.label("the window's own words");
                });
        });
        assert!(!found.iter().any(|f| f.contains("overlap")), "{found:?}");
        // Nor when the window's words are in a scroll area reaching over the words under it (the pause menu's How
        // to play over the bar's captions on a phone, CI of bae8f95): the words belong to the labels that hold
        // them, not to the scroll area around them.
        let found = faults(shape, egui::vec2(390.0, 844.0), "Sheet", |ui| {
            ui.add_space(160.0);
            for line in 0..4 {
                ui.label(format!("★ {line}"));
            }
            egui::Window::new("A sheet")
                .fixed_pos(egui::pos2(0.0, 40.0))
                .show(ui.ctx(), |ui| {
                    ui.set_width(360.0);
                    egui::ScrollArea::vertical()
                        .max_height(400.0)
                        .show(ui, |ui| {
                            ui.label(
                                "The window's one long paragraph, wrapped over many rows. "
                                    .repeat(40),
                            );
                        });
                });
        });
        assert!(!found.iter().any(|f| f.contains("overlap")), "{found:?}");
        // The table's own case, as the browser reported it (CI of f3b5498 at 390x844): the pause menu's How to play
        // over the phone's bar. The bar's captions lie inside a row of the window's paragraph (a smaller widget than
        // their own button), and the window's Back inside the bar's Double: words are whose label says them.
        let rect = |x: f32, y: f32, w: f32, h: f32| {
            egui::Rect::from_min_size(egui::pos2(x, y), egui::vec2(w, h))
        };
        let widget = |role: &str, label: &str, rect: egui::Rect, in_window: bool| Widget {
            role: role.into(),
            label: label.into(),
            rect,
            target: role == "Button",
            in_window,
        };
        let words = |text: &str, rect: egui::Rect| Words {
            rect,
            off_screen: false,
            cut_at_side: false,
            size: 16.0,
            text: text.into(),
        };
        let row = "3. Your turn. Tap the play you want";
        let laid = Laid {
            screen: rect(0.0, 0.0, 390.0, 844.0),
            zoom: 1.0,
            widgets: vec![
                widget(
                    "Button",
                    "Hit\n★ +$0.71",
                    rect(20.0, 706.0, 170.0, 56.0),
                    false,
                ),
                widget(
                    "Label",
                    &format!("{row} in the bar"),
                    rect(40.0, 734.0, 299.0, 168.0),
                    true,
                ),
                widget("TextRun", row, rect(40.0, 734.0, 284.0, 19.0), true),
                widget("Button", "Back", rect(25.0, 767.0, 330.0, 44.0), true),
                widget(
                    "Button",
                    "Double\n+$0.10",
                    rect(20.0, 770.0, 170.0, 56.0),
                    false,
                ),
            ],
            words: vec![
                words("Hit", rect(66.0, 715.0, 23.0, 19.0)),
                words("★ +$0.71", rect(66.0, 734.5, 79.0, 18.0)),
                words(row, rect(40.0, 734.0, 284.0, 19.0)),
                words("Back", rect(41.0, 779.0, 42.0, 19.0)),
                words("Double", rect(77.0, 779.0, 57.0, 19.0)),
            ],
            areas: Vec::new(),
            decorations: Vec::new(),
            docked: Vec::new(),
            felt: Vec::new(),
            felt_words: Vec::new(),
            cards: Vec::new(),
            windows: vec![rect(15.0, 20.0, 360.0, 800.0)],
        };
        let found = laid.faults(shape);
        assert!(!found.iter().any(|f| f.contains("overlap")), "{found:?}");
        // Words over words inside the window are still a fault.
        let mut crowded = laid.clone();
        crowded
            .words
            .push(words("Back", rect(41.0, 736.0, 42.0, 19.0)));
        let found = crowded.faults(shape);
        assert!(
            found
                .iter()
                .any(|f| f.contains(&format!("words {row:?} and \"Back\" overlap"))),
            "{found:?}"
        );
        // The same page on a desktop has no target rule.
        let found = faults(Shape::Desktop, egui::vec2(1280.0, 720.0), "Broken", |ui| {
            let _ = ui.add(egui::Button::new("x").min_size(egui::vec2(20.0, 20.0)));
        });
        assert_eq!(found, Vec::<String>::new());
    }
}
