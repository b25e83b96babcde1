//! The table's art as vector designs: every card face and back, the chips, the felt and the table's fittings are
//! written here as SVG and rendered by resvg into PNG atlases. Changing a colour or a shape here and running the
//! tool again restyles the game.
//!
//! Sizes are twice the size the table draws them at 1280×720, so they stay crisp at 1920×1080.

use holecard::engine::{Card, Cents, Rank, Suit};
use holecard::host::design::{
    CARD_CELL as CARD, CHIP_CELL as CHIP, CHIP_VALUES, back_cell, card_cell_origin, face_cell,
};
use holecard::host::level::CardBack;
use std::fmt::Write as _;

/// A picture the game ships: where it goes under `assets/` and its SVG.
pub struct Picture {
    /// Path under `assets/`.
    pub path: &'static str,
    /// Pixel size.
    pub size: (u32, u32),
    /// The design.
    pub svg: String,
}

const RANKS: [&str; 13] = [
    "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
];

/// How a deck is printed.
#[derive(Clone, Copy)]
struct Deck {
    /// Clubs green and diamonds blue, so suits differ by colour as well as shape.
    four_colour: bool,
    /// Jumbo corner indices for low vision; the middle of the card is drawn smaller to make room.
    large_index: bool,
}

const INK_BLACK: &str = "#16161c";
const INK_RED: &str = "#c8102e";
const INK_GREEN: &str = "#117a35";
const INK_BLUE: &str = "#1949b8";
const PAPER: &str = "#fbf9f3";
const GOLD: &str = "#d9b45a";

impl Deck {
    fn ink(self, suit: Suit) -> &'static str {
        match (suit, self.four_colour) {
            (Suit::Hearts, _) | (Suit::Diamonds, false) => INK_RED,
            (Suit::Diamonds, true) => INK_BLUE,
            (Suit::Clubs, true) => INK_GREEN,
            (Suit::Clubs, false) | (Suit::Spades, _) => INK_BLACK,
        }
    }
}

/// A suit's shape in a 100×100 box, as SVG path data (clubs are three lobes and a stem).
fn suit_path(suit: Suit) -> &'static str {
    match suit {
        Suit::Hearts => {
            "M50,94 C38,80 2,58 2,30 C2,13 14,3 28,3 C39,3 46,10 50,19 C54,10 61,3 72,3 \
             C86,3 98,13 98,30 C98,58 62,80 50,94 Z"
        }
        Suit::Diamonds => {
            "M50,2 C60,20 72,36 88,50 C72,64 60,80 50,98 C40,80 28,64 12,50 C28,36 40,20 50,2 Z"
        }
        Suit::Spades => {
            "M50,2 C62,22 96,40 96,64 C96,79 85,88 72,88 C63,88 56,84 53,78 C54,88 59,94 68,98 \
             L32,98 C41,94 46,88 47,78 C44,84 37,88 28,88 C15,88 4,79 4,64 C4,40 38,22 50,2 Z"
        }
        Suit::Clubs => {
            "M50,4 A21,21 0 0 1 66,39 A21,21 0 1 1 57,70 C58,85 62,92 70,98 L30,98 C38,92 42,85 43,70 \
             A21,21 0 1 1 34,39 A21,21 0 0 1 50,4 Z"
        }
    }
}

/// A suit symbol of `size` pixels centred on (`x`, `y`), turned upside down for the bottom half of a card.
fn pip(out: &mut String, suit: Suit, x: f32, y: f32, size: f32, ink: &str, upside_down: bool) {
    let scale = size / 100.0;
    let turn = if upside_down { 180 } else { 0 };
    let _ = write!(
        out,
        r#"<path transform="translate({x} {y}) rotate({turn}) scale({scale}) translate(-50 -50)" d="{}" fill="{ink}"/>"#,
        suit_path(suit)
    );
}

/// Where the pips of a number card lie, in card pixels; `true` for the ones printed upside down.
fn pip_layout(rank: usize) -> Vec<(f32, f32, bool)> {
    let (left, mid, right) = (41.0, 60.0, 79.0);
    let (top, bottom, centre) = (33.0, 135.0, 84.0);
    let upper_third = top + (bottom - top) / 3.0;
    let lower_third = bottom - (bottom - top) / 3.0;
    let corners = [
        (left, top, false),
        (right, top, false),
        (left, bottom, true),
        (right, bottom, true),
    ];
    let mut pips = Vec::new();
    match rank {
        2 => pips.extend([(mid, top, false), (mid, bottom, true)]),
        3 => pips.extend([(mid, top, false), (mid, centre, false), (mid, bottom, true)]),
        4 => pips.extend(corners),
        5 => {
            pips.extend(corners);
            pips.push((mid, centre, false));
        }
        6..=8 => {
            pips.extend(corners);
            pips.extend([(left, centre, false), (right, centre, false)]);
            if rank >= 7 {
                pips.push((mid, (top + centre) / 2.0, false));
            }
            if rank == 8 {
                pips.push((mid, (centre + bottom) / 2.0, true));
            }
        }
        9 | 10 => {
            pips.extend(corners);
            pips.extend([
                (left, upper_third, false),
                (right, upper_third, false),
                (left, lower_third, true),
                (right, lower_third, true),
            ]);
            if rank == 9 {
                pips.push((mid, centre, false));
            } else {
                pips.extend([
                    (mid, (top + upper_third) / 2.0, false),
                    (mid, (lower_third + bottom) / 2.0, true),
                ]);
            }
        }
        _ => {}
    }
    pips
}

/// The corner index: rank over suit, top left, and the same turned round at bottom right.
fn corner_index(out: &mut String, deck: Deck, suit: Suit, rank: &str, ink: &str) {
    let (size, x, suit_size) = if deck.large_index {
        (50.0, 22.0, 30.0)
    } else {
        (32.0, 17.0, 19.0)
    };
    // "10" is the one two-glyph rank; it is narrowed so every index fits the strip a fanned card leaves visible.
    let squeeze = if rank == "10" { 0.72 } else { 1.0 };
    let mut one = String::new();
    let _ = write!(
        one,
        r#"<text x="0" y="0" transform="translate({x} {base}) scale({squeeze} 1)" font-family="DejaVu Sans" font-weight="bold" font-size="{size}" text-anchor="middle" fill="{ink}" letter-spacing="-2">{rank}</text>"#,
        base = 6.0 + size * 0.76,
    );
    pip(
        &mut one,
        suit,
        x,
        10.0 + size * 0.76 + suit_size * 0.62,
        suit_size,
        ink,
        false,
    );
    let _ = write!(
        out,
        r#"<g>{one}</g><g transform="rotate(180 {cx} {cy})">{one}</g>"#,
        cx = CARD.0 as f32 / 2.0,
        cy = CARD.1 as f32 / 2.0,
    );
}

/// The card's paper: rounded corners, a fine grey edge and a faint inner border.
fn blank(out: &mut String, fill: &str) {
    let (w, h) = (CARD.0 as f32 - 2.0, CARD.1 as f32 - 2.0);
    let _ = write!(
        out,
        r##"<rect x="1" y="1" width="{w}" height="{h}" rx="10" fill="{fill}" stroke="#a9a395" stroke-width="1.6"/>"##
    );
}

/// A court card's portrait: a framed, double-ended figure whose headwear and emblem say which court it is.
fn court(out: &mut String, suit: Suit, rank: &str, ink: &str) {
    let (x0, y0, x1, y1) = (30.0, 24.0, 90.0, 144.0);
    let tint = match ink {
        INK_RED => "#f6dcd8",
        INK_BLUE => "#dbe4f7",
        INK_GREEN => "#d9efdf",
        _ => "#e4e2dc",
    };
    let _ = write!(
        out,
        r##"<rect x="{x0}" y="{y0}" width="{w}" height="{h}" fill="{tint}" stroke="{ink}" stroke-width="1.5"/>"##,
        w = x1 - x0,
        h = y1 - y0,
    );
    let mut half = String::new();
    // Robe: shoulders and a collar in gold and the suit's ink.
    let _ = write!(
        half,
        r##"<path d="M33,84 C36,68 44,64 60,64 C76,64 84,68 87,84 Z" fill="{ink}"/>
<path d="M48,64 L60,80 L72,64 Z" fill="{GOLD}" stroke="{INK_BLACK}" stroke-width="0.8"/>
<path d="M36,84 C40,74 46,71 52,70" stroke="{GOLD}" stroke-width="2" fill="none"/>
<path d="M84,84 C80,74 74,71 68,70" stroke="{GOLD}" stroke-width="2" fill="none"/>"##
    );
    // Face, hair and eyes.
    let hair = if rank == "Q" { "#6b3b1f" } else { "#3a2a1c" };
    let _ = write!(
        half,
        r##"<ellipse cx="60" cy="52" rx="10.5" ry="12" fill="#f3d2b0" stroke="{INK_BLACK}" stroke-width="0.8"/>
<path d="M49.5,52 C49,42 53,38 60,38 C67,38 71,42 70.5,52 C68,46 64,44 60,44 C56,44 52,46 49.5,52 Z" fill="{hair}"/>
<circle cx="56" cy="52" r="1.3" fill="{INK_BLACK}"/><circle cx="64" cy="52" r="1.3" fill="{INK_BLACK}"/>
<path d="M57,58 Q60,60 63,58" stroke="#9a4a3a" stroke-width="1" fill="none"/>"##
    );
    match rank {
        "K" => {
            // A tall crown with crosses, a beard, and a sword over the shoulder.
            let _ = write!(
                half,
                r##"<path d="M48,40 L48,27 L53,33 L56,25 L60,31 L64,25 L67,33 L72,27 L72,40 Z" fill="{GOLD}" stroke="{INK_BLACK}" stroke-width="0.9"/>
<circle cx="60" cy="35" r="2" fill="{ink}"/>
<path d="M51,57 C52,66 56,69 60,69 C64,69 68,66 69,57 C66,61 63,62 60,62 C57,62 54,61 51,57 Z" fill="#8a6a4a"/>
<path d="M80,30 L80,70" stroke="#c9ccd4" stroke-width="3"/><path d="M75,66 L85,66" stroke="{GOLD}" stroke-width="3"/>"##
            );
        }
        "Q" => {
            // A rounded diadem with pearls, long hair, and a flower.
            let _ = write!(
                half,
                r##"<path d="M49,41 C49,33 54,29 60,29 C66,29 71,33 71,41 Z" fill="{GOLD}" stroke="{INK_BLACK}" stroke-width="0.9"/>
<circle cx="54" cy="33" r="1.6" fill="#fff"/><circle cx="60" cy="30.5" r="1.8" fill="#fff"/><circle cx="66" cy="33" r="1.6" fill="#fff"/>
<path d="M49.5,50 C47,58 47,64 50,68 L53,66 C51,61 51,56 52,52 Z" fill="{hair}"/>
<path d="M70.5,50 C73,58 73,64 70,68 L67,66 C69,61 69,56 68,52 Z" fill="{hair}"/>
<path d="M40,70 L43,52" stroke="#2f7a3a" stroke-width="1.8"/>
<circle cx="43" cy="50" r="4" fill="{ink}"/><circle cx="43" cy="50" r="1.6" fill="{GOLD}"/>"##
            );
        }
        _ => {
            // A flat cap with a feather, and a staff.
            let _ = write!(
                half,
                r##"<path d="M47,42 C47,34 53,31 60,31 C67,31 73,34 73,42 Z" fill="{ink}" stroke="{INK_BLACK}" stroke-width="0.9"/>
<path d="M46,42 L74,42" stroke="{GOLD}" stroke-width="2.4"/>
<path d="M70,34 C78,26 84,24 88,26 C83,29 78,32 72,37 Z" fill="{GOLD}" stroke="{INK_BLACK}" stroke-width="0.6"/>
<path d="M38,72 L38,30" stroke="#7a5230" stroke-width="2.5"/><circle cx="38" cy="29" r="3" fill="{GOLD}"/>"##
            );
        }
    }
    // The top half, and the same turned round: a court card reads the same from either end.
    let _ = write!(
        out,
        r##"<clipPath id="court-{rank}-{suit_id}"><rect x="{x0}" y="{y0}" width="{w}" height="{h}"/></clipPath>
<g clip-path="url(#court-{rank}-{suit_id})"><g>{half}</g><g transform="rotate(180 60 84)">{half}</g></g>
<path d="M{x0},84 L{x1},84" stroke="{ink}" stroke-width="0.8" stroke-dasharray="2 2"/>"##,
        w = x1 - x0,
        h = y1 - y0,
        suit_id = suit as u8,
    );
    // A small suit mark in the frame's corners.
    pip(out, suit, x0 + 8.0, y0 + 8.0, 10.0, ink, false);
    pip(out, suit, x1 - 8.0, y1 - 8.0, 10.0, ink, true);
}

/// One card face.
fn face(out: &mut String, deck: Deck, suit: Suit, rank_index: usize) {
    let rank = RANKS[rank_index];
    let ink = deck.ink(suit);
    blank(out, PAPER);
    // With jumbo indices the middle of the card is drawn at half size, clear of the corners.
    let middle = if deck.large_index {
        "translate(60 84) scale(0.5) translate(-60 -84)"
    } else {
        ""
    };
    let mut art = String::new();
    match rank {
        "A" => {
            if suit == Suit::Spades {
                // The ace of spades carries the maker's mark, as it does in every deck.
                let _ = write!(
                    art,
                    r##"<circle cx="60" cy="84" r="34" fill="none" stroke="{GOLD}" stroke-width="2"/>
<circle cx="60" cy="84" r="30" fill="none" stroke="{ink}" stroke-width="0.8"/>"##
                );
                pip(&mut art, suit, 60.0, 82.0, 44.0, ink, false);
                let _ = write!(
                    art,
                    r##"<text x="60" y="128" font-family="DejaVu Sans" font-weight="bold" font-size="8" letter-spacing="1.5" text-anchor="middle" fill="{ink}">HOLECARD</text>"##
                );
            } else {
                pip(&mut art, suit, 60.0, 84.0, 40.0, ink, false);
            }
        }
        "J" | "Q" | "K" => court(&mut art, suit, rank, ink),
        _ => {
            for (x, y, upside_down) in pip_layout(rank_index + 1) {
                pip(&mut art, suit, x, y, 19.0, ink, upside_down);
            }
        }
    }
    let _ = write!(out, r#"<g transform="{middle}">{art}</g>"#);
    corner_index(out, deck, suit, rank, ink);
}

/// The two backs: a crimson lattice and navy diamonds, each in a white border with a medallion.
fn back(out: &mut String, navy: bool) {
    let (base, line, id) = if navy {
        ("#1b2f6e", "#8ea6e8", "navy")
    } else {
        ("#9e1b2a", "#f0a8b0", "crimson")
    };
    blank(out, "#ffffff");
    let pattern = if navy {
        format!(
            r#"<path d="M6,0 L12,6 L6,12 L0,6 Z" fill="{line}" fill-opacity="0.55"/><circle cx="6" cy="6" r="1.2" fill="{base}"/>"#
        )
    } else {
        format!(
            r#"<path d="M0,0 L12,12 M12,0 L0,12" stroke="{line}" stroke-width="1.3" stroke-opacity="0.7"/>"#
        )
    };
    let _ = write!(
        out,
        r##"<defs><pattern id="{id}" width="12" height="12" patternUnits="userSpaceOnUse">{pattern}</pattern></defs>
<rect x="8" y="8" width="104" height="152" rx="6" fill="{base}"/>
<rect x="8" y="8" width="104" height="152" rx="6" fill="url(#{id})"/>
<rect x="12" y="12" width="96" height="144" rx="4" fill="none" stroke="{line}" stroke-width="1.2"/>
<ellipse cx="60" cy="84" rx="24" ry="30" fill="{base}" stroke="{GOLD}" stroke-width="2.5"/>
<text x="60" y="97" font-family="DejaVu Sans" font-weight="bold" font-size="34" text-anchor="middle" fill="{GOLD}">H</text>"##
    );
}

/// A deck atlas: 13 ranks across, the four suits down, then a row with the two backs.
fn deck_atlas(deck: Deck) -> String {
    let (w, h) = (CARD.0 * 13, CARD.1 * 5);
    let mut out = svg_open(w, h);
    for suit in Suit::ALL {
        for (index, rank) in Rank::ALL.into_iter().enumerate() {
            let (x, y) = card_cell_origin(face_cell(Card::new(0, suit, rank)));
            let _ = write!(out, r#"<g transform="translate({x} {y})">"#);
            face(&mut out, deck, suit, index);
            out.push_str("</g>");
        }
    }
    for back_design in [CardBack::Crimson, CardBack::Navy] {
        let (x, y) = card_cell_origin(back_cell(back_design));
        let _ = write!(out, r#"<g transform="translate({x} {y})">"#);
        back(&mut out, back_design == CardBack::Navy);
        out.push_str("</g>");
    }
    out.push_str("</svg>");
    out
}

/// A chip's colours as SVG writes them: body, edge spots, and the inlay's ink (`holecard::host::design` has them).
fn chip_colours(cents: i64) -> (String, String, String) {
    let hex = |[r, g, b]: [u8; 3]| format!("#{r:02x}{g:02x}{b:02x}");
    let colours = holecard::host::design::chip_colours(Cents(cents));
    (hex(colours.body), hex(colours.spot), hex(colours.ink))
}

/// A chip's printed value: "1", "25", "1K", "25K".
fn chip_label(cents: i64) -> String {
    let units = cents / 100;
    if units >= 1_000 && units % 1_000 == 0 {
        format!("{}K", units / 1_000)
    } else {
        units.to_string()
    }
}

/// One chip seen from the player's chair: an edge band with spots under a top face with spots round the rim, an
/// inlay ring, and the value.
fn chip(out: &mut String, cents: i64) {
    let (body, spot, ink) = chip_colours(cents);
    let (cx, cy, rx, ry, thick) = (32.0_f32, 22.0_f32, 30.0_f32, 19.5_f32, 8.0_f32);
    // Edge band: the lower half of the ellipse, extruded down by the chip's thickness.
    let _ = write!(
        out,
        r##"<path d="M{l},{cy} A{rx},{ry} 0 0 0 {r},{cy} L{r},{cyt} A{rx},{ry} 0 0 1 {l},{cyt} Z" fill="{body}" stroke="#00000055" stroke-width="0.8"/>"##,
        l = cx - rx,
        r = cx + rx,
        cyt = cy + thick,
    );
    // Spots on the edge, where the rim's spots wrap round: bands clipped to the edge so none stands proud of it.
    let band = format!(
        "M{l},{cy} A{rx},{ry} 0 0 0 {r},{cy} L{r},{cyt} A{rx},{ry} 0 0 1 {l},{cyt} Z",
        l = cx - rx,
        r = cx + rx,
        cyt = cy + thick,
    );
    let _ = write!(
        out,
        r#"<clipPath id="edge-{cents}"><path d="{band}"/></clipPath><g clip-path="url(#edge-{cents})">"#
    );
    for k in 0..5 {
        let angle = (20.0 + 35.0 * k as f32).to_radians();
        let x = cx + rx * angle.cos();
        let _ = write!(
            out,
            r#"<rect x="{a}" y="{cy}" width="5" height="{h}" fill="{spot}"/>"#,
            a = x - 2.5,
            h = ry + thick,
        );
    }
    out.push_str("</g>");
    // A shade over the edge so the band reads as the side of a disc.
    let _ = write!(
        out,
        r##"<path d="M{l},{cy} A{rx},{ry} 0 0 0 {r},{cy} L{r},{cyt} A{rx},{ry} 0 0 1 {l},{cyt} Z" fill="#000000" fill-opacity="0.28"/>"##,
        l = cx - rx,
        r = cx + rx,
        cyt = cy + thick,
    );
    // Top face.
    let _ = write!(
        out,
        r##"<ellipse cx="{cx}" cy="{cy}" rx="{rx}" ry="{ry}" fill="{body}" stroke="#00000066" stroke-width="0.8"/>"##
    );
    // Six spots round the rim of the top face.
    for k in 0..6 {
        let from = (k as f32 * 60.0 - 12.0).to_radians();
        let to = (k as f32 * 60.0 + 12.0).to_radians();
        let (outer_x, outer_y) = (rx - 1.0, ry - 0.7);
        let (inner_x, inner_y) = (rx * 0.74, ry * 0.74);
        let _ = write!(
            out,
            r##"<path d="M{a},{b} A{outer_x},{outer_y} 0 0 1 {c},{d} L{e},{f} A{inner_x},{inner_y} 0 0 0 {g},{h} Z" fill="{spot}"/>"##,
            a = cx + outer_x * from.cos(),
            b = cy + outer_y * from.sin(),
            c = cx + outer_x * to.cos(),
            d = cy + outer_y * to.sin(),
            e = cx + inner_x * to.cos(),
            f = cy + inner_y * to.sin(),
            g = cx + inner_x * from.cos(),
            h = cy + inner_y * from.sin(),
        );
    }
    // Inlay: a pale disc with a dashed ring and the value, squashed like the face it is printed on.
    let label = chip_label(cents);
    let font = if label.len() >= 3 { 15.0 } else { 18.0 };
    let _ = write!(
        out,
        r##"<ellipse cx="{cx}" cy="{cy}" rx="{ix}" ry="{iy}" fill="#f7f3e8"/>
<ellipse cx="{cx}" cy="{cy}" rx="{dx}" ry="{dy}" fill="none" stroke="{ink}" stroke-width="1" stroke-dasharray="2 1.5"/>
<text x="0" y="0" transform="translate({cx} {ty}) scale(1 0.7)" font-family="DejaVu Sans" font-weight="bold" font-size="{font}" text-anchor="middle" fill="{ink}">{label}</text>"##,
        ix = rx * 0.62,
        iy = ry * 0.62,
        dx = rx * 0.55,
        dy = ry * 0.55,
        ty = cy + font * 0.36 * 0.7 + 1.0,
    );
}

fn chip_atlas() -> String {
    let mut out = svg_open(CHIP.0 * CHIP_VALUES.len() as u32, CHIP.1);
    for (i, value) in CHIP_VALUES.iter().enumerate() {
        let _ = write!(out, r#"<g transform="translate({} 0)">"#, i as u32 * CHIP.0);
        chip(&mut out, value.0);
        out.push_str("</g>");
    }
    out.push_str("</svg>");
    out
}

fn svg_open(width: u32, height: u32) -> String {
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">"#
    )
}

/// The felt's cloth: fine fractal noise in grey, tinted at run time by the level's colour, darker towards its rim.
fn felt() -> String {
    let mut out = svg_open(1024, 1024);
    out.push_str(
        r##"<defs>
<filter id="weave" x="0" y="0" width="1" height="1" filterUnits="objectBoundingBox">
<feTurbulence type="fractalNoise" baseFrequency="0.9" numOctaves="3" seed="7" stitchTiles="stitch"/>
<feColorMatrix type="matrix" values="0 0 0 0 1  0 0 0 0 1  0 0 0 0 1  0.33 0.33 0.33 0 -0.25"/>
</filter>
<radialGradient id="rim" cx="0.5" cy="0.5" r="0.5">
<stop offset="0.55" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.45"/>
</radialGradient>
<radialGradient id="lamp" cx="0.5" cy="0.72" r="0.45">
<stop offset="0" stop-color="#fff" stop-opacity="0.12"/><stop offset="1" stop-color="#fff" stop-opacity="0"/>
</radialGradient>
</defs>
<rect width="1024" height="1024" fill="#e6e6e6"/>
<rect width="1024" height="1024" filter="url(#weave)" fill="#000" opacity="0.35"/>
<rect width="1024" height="1024" fill="url(#lamp)"/>
<rect width="1024" height="1024" fill="url(#rim)"/>
</svg>"##,
    );
    out
}

/// A bet circle: a printed double ring.
fn ring() -> String {
    let mut out = svg_open(128, 128);
    let _ = write!(
        out,
        r##"<circle cx="64" cy="64" r="58" fill="#ffffff" fill-opacity="0.06" stroke="#f3e3b8" stroke-opacity="0.85" stroke-width="3.5"/>
<circle cx="64" cy="64" r="50" fill="none" stroke="#f3e3b8" stroke-opacity="0.45" stroke-width="1.5" stroke-dasharray="5 4"/></svg>"##
    );
    out
}

/// The dealing shoe seen from above: a dark box with a brass plate and the slot the cards leave by.
fn shoe() -> String {
    let mut out = svg_open(184, 224);
    out.push_str(
        r##"<defs><linearGradient id="body" x1="0" y1="0" x2="1" y2="1">
<stop offset="0" stop-color="#3a3a42"/><stop offset="1" stop-color="#17171b"/></linearGradient></defs>
<rect x="4" y="6" width="176" height="214" rx="14" fill="#000" fill-opacity="0.35"/>
<rect x="2" y="2" width="176" height="212" rx="14" fill="url(#body)" stroke="#55555f" stroke-width="2"/>
<rect x="20" y="18" width="140" height="150" rx="6" fill="#101014" stroke="#2c2c33" stroke-width="2"/>
<path d="M18,176 L162,176 L152,206 L28,206 Z" fill="#b8903f" stroke="#e6c77a" stroke-width="2"/>
<text x="90" y="197" font-family="DejaVu Sans" font-weight="bold" font-size="14" letter-spacing="3" text-anchor="middle" fill="#3a2a10">HOLECARD</text>
</svg>"##,
    );
    out
}

/// The discard holder: a smoked acrylic box.
fn discard() -> String {
    let mut out = svg_open(168, 208);
    out.push_str(
        r##"<rect x="6" y="8" width="158" height="196" rx="8" fill="#000" fill-opacity="0.3"/>
<rect x="4" y="4" width="158" height="196" rx="8" fill="#c8d2dc" fill-opacity="0.16" stroke="#e8f0f8" stroke-opacity="0.6" stroke-width="3"/>
<rect x="14" y="14" width="138" height="176" rx="5" fill="none" stroke="#e8f0f8" stroke-opacity="0.25" stroke-width="1.5"/>
</svg>"##,
    );
    out
}

/// The dealer's chip tray: a wooden frame with eight grooves.
fn chip_tray() -> String {
    let mut out = svg_open(600, 88);
    out.push_str(
        r##"<defs><linearGradient id="wood" x1="0" y1="0" x2="0" y2="1">
<stop offset="0" stop-color="#7a4a26"/><stop offset="0.5" stop-color="#5a341a"/><stop offset="1" stop-color="#3d2210"/></linearGradient>
<linearGradient id="groove" x1="0" y1="0" x2="0" y2="1">
<stop offset="0" stop-color="#120c08"/><stop offset="1" stop-color="#2e2016"/></linearGradient></defs>
<rect x="2" y="4" width="596" height="82" rx="10" fill="#000" fill-opacity="0.35"/>
<rect x="2" y="2" width="596" height="80" rx="10" fill="url(#wood)" stroke="#a8784a" stroke-width="2"/>"##,
    );
    for k in 0..8 {
        let _ = write!(
            out,
            r##"<rect x="{x}" y="12" width="62" height="60" rx="8" fill="url(#groove)"/>"##,
            x = 14 + k * 72
        );
    }
    out.push_str("</svg>");
    out
}

/// The ribbon a banner ("Blackjack!", "Bust", "Push") is written on.
fn banner() -> String {
    let mut out = svg_open(512, 112);
    out.push_str(
        r##"<defs><linearGradient id="band" x1="0" y1="0" x2="0" y2="1">
<stop offset="0" stop-color="#2a1a10" stop-opacity="0.94"/><stop offset="1" stop-color="#120a06" stop-opacity="0.94"/></linearGradient></defs>
<path d="M4,56 L40,14 L472,14 L508,56 L472,98 L40,98 Z" fill="url(#band)" stroke="#d9b45a" stroke-width="4"/>
<path d="M24,56 L50,24 L462,24 L488,56 L462,88 L50,88 Z" fill="none" stroke="#d9b45a" stroke-opacity="0.5" stroke-width="1.5"/>
</svg>"##,
    );
    out
}

/// A soft glow for the hand in turn: a rounded rectangle blurred at the edges.
fn glow() -> String {
    let mut out = svg_open(128, 128);
    out.push_str(
        r##"<defs><filter id="soft" x="-0.5" y="-0.5" width="2" height="2"><feGaussianBlur stdDeviation="10"/></filter></defs>
<rect x="24" y="24" width="80" height="80" rx="14" fill="#ffd76a" filter="url(#soft)"/>
</svg>"##,
    );
    out
}

/// The game's icon, for a phone's home screen or a desktop's app list (the browser build's web app manifest): the ace
/// of spades, tilted, on the felt's green. Drawn on a 512 grid and kept inside its middle 80%, the part every
/// platform's mask (circle, squircle, rounded square) leaves showing.
fn icon(size: u32) -> String {
    let spade = suit_path(Suit::Spades);
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="0 0 512 512">
<defs><radialGradient id="cloth" cx="0.5" cy="0.45" r="0.7"><stop offset="0" stop-color="#2f7a4f"/><stop offset="1" stop-color="#123a25"/></radialGradient></defs>
<rect width="512" height="512" fill="url(#cloth)"/>
<g transform="rotate(-8 256 256)">
<rect x="146" y="96" width="220" height="320" rx="22" fill="#000" fill-opacity="0.35" transform="translate(8 10)"/>
<rect x="146" y="96" width="220" height="320" rx="22" fill="#fbf7ec" stroke="{GOLD}" stroke-width="5"/>
<text x="172" y="150" font-family="DejaVu Sans" font-weight="bold" font-size="46" fill="{INK_BLACK}">A</text>
<path d="{spade}" fill="{INK_BLACK}" transform="translate(196 196) scale(1.2)"/>
</g>
</svg>"##
    )
}

/// A design at the size its `<svg>` element gives.
fn picture(path: &'static str, svg: String) -> Picture {
    let attribute = |name: &str| -> u32 {
        svg.split_once(&format!(" {name}=\""))
            .and_then(|(_, rest)| rest.split_once('"'))
            .and_then(|(number, _)| number.parse().ok())
            .unwrap_or(0)
    };
    Picture {
        path,
        size: (attribute("width"), attribute("height")),
        svg,
    }
}

/// Every picture the game ships.
pub fn pictures() -> Vec<Picture> {
    let deck = |path, four_colour, large_index| {
        picture(
            path,
            deck_atlas(Deck {
                four_colour,
                large_index,
            }),
        )
    };
    vec![
        deck("cards/classic.png", false, false),
        deck("cards/four-colour.png", true, false),
        deck("cards/large-index.png", false, true),
        deck("cards/large-index-four-colour.png", true, true),
        picture("chips.png", chip_atlas()),
        picture("table/felt.png", felt()),
        picture("table/ring.png", ring()),
        picture("table/shoe.png", shoe()),
        picture("table/discard.png", discard()),
        picture("table/chip-tray.png", chip_tray()),
        picture("table/banner.png", banner()),
        picture("table/glow.png", glow()),
        picture("icons/icon-192.png", icon(192)),
        picture("icons/icon-512.png", icon(512)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_picture_has_the_size_its_design_gives() {
        let pictures = pictures();
        let size = |path: &str| pictures.iter().find(|p| p.path == path).map(|p| p.size);
        assert_eq!(size("cards/classic.png"), Some((CARD.0 * 13, CARD.1 * 5)));
        assert_eq!(size("chips.png"), Some((CHIP.0 * 8, CHIP.1)));
        assert_eq!(size("table/felt.png"), Some((1024, 1024)));
        assert!(pictures.iter().all(|p| p.size.0 > 0 && p.size.1 > 0));
    }

    #[test]
    fn pips_follow_the_standard_layouts() {
        for rank in 2..=10 {
            let pips = pip_layout(rank);
            assert_eq!(pips.len(), rank, "{rank}");
            // Upside-down pips are exactly the ones below the middle.
            assert!(
                pips.iter().all(|&(_, y, down)| down == (y > 84.0)),
                "{rank}"
            );
        }
    }
}
