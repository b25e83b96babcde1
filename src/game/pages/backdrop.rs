//! Behind every page: the table's felt under a lamp, its padded rail, cards and chips laid on it.

use super::*;

/// The rail's leather.
const RAIL: egui::Color32 = egui::Color32::from_rgb(0x3a, 0x1d, 0x12);

/// Paints the felt behind a page: `felt` (the table's colour) lit from above the middle and darkening to the edges,
/// the padded rail along the bottom, and, beside a page's column `beside` points wide where there is room, a hand and
/// a stack of chips lying on it.
pub(super) fn paint_backdrop(ctx: &egui::Context, felt: (u8, u8, u8), beside: Option<f32>) {
    let painter = ctx.layer_painter(egui::LayerId::background());
    let rect = ctx.viewport_rect();
    let shade = |k: f32| {
        let c = |v: u8| ((f32::from(v) * k).min(255.0)) as u8;
        egui::Color32::from_rgb(c(felt.0), c(felt.1), c(felt.2))
    };
    painter.rect_filled(rect, 0.0, shade(0.28));
    // The lamp's pool of light: a fan of triangles, bright at the middle, dark at the rim.
    let centre = egui::pos2(rect.center().x, rect.top() + rect.height() * 0.38);
    let (rx, ry) = (rect.width() * 0.72, rect.height() * 0.78);
    let mut mesh = egui::Mesh::default();
    mesh.colored_vertex(centre, shade(1.05));
    let steps = 72u32;
    for i in 0..=steps {
        let angle = i as f32 / steps as f32 * std::f32::consts::TAU;
        mesh.colored_vertex(
            centre + egui::vec2(angle.cos() * rx, angle.sin() * ry),
            shade(0.28),
        );
    }
    for i in 0..steps {
        mesh.add_triangle(0, i + 1, i + 2);
    }
    painter.add(mesh);
    // The rail: a padded arc across the bottom, with the gold line printed inside it.
    // Sized by the window's shorter side, so an upright window gets a rail curving round its lower part.
    let span = rect.width().min(rect.height());
    let arc = |radius_x: f32, radius_y: f32| -> Vec<egui::Pos2> {
        let middle = egui::pos2(rect.center().x, rect.bottom() - span * 0.92);
        (0..=48)
            .map(|i| {
                let t = std::f32::consts::PI * (0.12 + 0.76 * i as f32 / 48.0);
                middle + egui::vec2(-t.cos() * radius_x, t.sin() * radius_y)
            })
            .collect()
    };
    let (wide, deep) = (rect.width() * 0.62, span * 1.02);
    painter.add(egui::Shape::line(
        arc(wide, deep),
        egui::Stroke::new(26.0, RAIL),
    ));
    painter.add(egui::Shape::line(
        arc(wide, deep - 7.0),
        egui::Stroke::new(2.0, egui::Color32::from_rgb(0x62, 0x36, 0x22)),
    ));
    painter.add(egui::Shape::line(
        arc(wide - 40.0, deep - 40.0),
        egui::Stroke::new(1.5, GOLD.gamma_multiply(0.45)),
    ));
    // A blackjack lying on the felt, and a stack of chips beside it, only where the page leaves room for them beside
    // its column of `beside` points: never under words or a button.
    let Some(column) = beside else {
        return;
    };
    let unit = (span / 720.0).clamp(0.6, 1.6);
    let margin = (rect.width() - column) / 2.0;
    if margin < 200.0 * unit {
        return;
    }
    let hand = egui::pos2(
        rect.min.x + (margin - 108.0 * unit) / 2.0,
        rect.min.y + rect.height() * 0.62,
    );
    let stack = egui::pos2(rect.max.x - margin / 2.0, rect.min.y + rect.height() * 0.7);
    let values = [50_000, 10_000, 2_500, 500];
    card(&painter, hand, unit, "A", "♠", false);
    let second = hand + egui::vec2(34.0, -14.0) * unit;
    card(&painter, second, unit, "K", "♥", true);
    crate::game::pages::layout::record_decoration(
        ctx,
        egui::Rect::from_min_max(
            egui::pos2(hand.x, second.y),
            second + egui::vec2(74.0 + 3.0, 104.0 + 4.0 + 14.0) * unit,
        ),
    );
    for (i, &value) in values.iter().enumerate() {
        let at = stack - egui::vec2(0.0, i as f32 * 7.0 * unit);
        chip(&painter, at, unit, Cents(value));
    }
    let loose = stack + egui::vec2(-58.0, 10.0) * unit;
    chip(&painter, loose, unit, Cents(2_500));
    crate::game::pages::layout::record_decoration(
        ctx,
        egui::Rect::from_min_max(
            egui::pos2(
                loose.x - 28.0 * unit,
                stack.y - (values.len() as f32 * 7.0 + 28.0) * unit,
            ),
            egui::pos2(stack.x + 30.0 * unit, loose.y + 31.0 * unit),
        ),
    );
}

/// A playing card, face up, its top-left corner at `at`.
fn card(painter: &egui::Painter, at: egui::Pos2, unit: f32, rank: &str, suit: &str, red: bool) {
    let size = egui::vec2(74.0, 104.0) * unit;
    let face = egui::Rect::from_min_size(at, size);
    painter.rect_filled(
        face.translate(egui::vec2(3.0, 4.0)),
        6.0 * unit,
        egui::Color32::from_black_alpha(90),
    );
    painter.rect_filled(face, 6.0 * unit, egui::Color32::from_rgb(0xfb, 0xf8, 0xf0));
    painter.rect_stroke(
        face,
        6.0 * unit,
        egui::Stroke::new(1.0, egui::Color32::from_gray(170)),
        egui::StrokeKind::Inside,
    );
    let ink = if red {
        egui::Color32::from_rgb(0xc0, 0x1c, 0x28)
    } else {
        egui::Color32::from_rgb(0x16, 0x16, 0x1a)
    };
    let font =
        |size: f32| egui::FontId::new(size * unit, egui::FontFamily::Name(BOLD_FAMILY.into()));
    painter.text(
        face.min + egui::vec2(7.0, 4.0) * unit,
        egui::Align2::LEFT_TOP,
        rank,
        font(20.0),
        ink,
    );
    painter.text(
        face.min + egui::vec2(8.0, 27.0) * unit,
        egui::Align2::LEFT_TOP,
        suit,
        font(16.0),
        ink,
    );
    painter.text(
        face.center() + egui::vec2(4.0, 8.0) * unit,
        egui::Align2::CENTER_CENTER,
        suit,
        font(40.0),
        ink,
    );
}

/// A casino chip seen from above, in its value's colours.
fn chip(painter: &egui::Painter, centre: egui::Pos2, unit: f32, value: Cents) {
    let colours = crate::host::design::chip_colours(value);
    let body = egui::Color32::from_rgb(colours.body[0], colours.body[1], colours.body[2]);
    let radius = 26.0 * unit;
    painter.circle_filled(
        centre + egui::vec2(2.0, 3.0),
        radius,
        egui::Color32::from_black_alpha(90),
    );
    painter.circle_filled(centre, radius, body);
    let spot = egui::Color32::from_rgb(colours.spot[0], colours.spot[1], colours.spot[2]);
    // The edge spots, then the inlay ring.
    for i in 0..6 {
        let angle = i as f32 / 6.0 * std::f32::consts::TAU;
        let from = centre + egui::vec2(angle.cos(), angle.sin()) * radius * 0.72;
        let to = centre + egui::vec2(angle.cos(), angle.sin()) * radius * 0.98;
        painter.line_segment([from, to], egui::Stroke::new(6.0 * unit, spot));
    }
    painter.circle_stroke(centre, radius * 0.62, egui::Stroke::new(1.5 * unit, spot));
}
