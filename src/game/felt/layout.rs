//! Where everything sits on the felt, for a landscape window (1280×720, 1920×1080: the same table scaled) and for a
//! phone held upright (720×1280: the seats in a deep U, the dealer higher up). The view reads every position
//! from here, so switching layouts moves the whole table. The camera frames the table's content in what the HUD
//! leaves of the window ([`Covered`], [`Framing`]): nothing of the table lies under a panel.

use crate::engine::Spot;
use bevy::prelude::*;
use bevy::sprite::Anchor;

/// Where words are written on the felt, from the piece they belong to: the point, and which point of the words' box
/// lies there (larger words grow away from it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Written {
    pub at: Vec2,
    pub anchor: Anchor,
}

impl Written {
    const fn new(at: Vec2, anchor: Anchor) -> Written {
        Written { at, anchor }
    }

    /// The box of words of `size` written here, from the piece at `from`.
    pub fn rect(&self, from: Vec2, size: Vec2) -> Rect {
        words_box(self.anchor, from + self.at, size)
    }
}

/// The box of words of `size` whose `anchor` point lies at `point` (y up, as the table's units go).
pub fn words_box(anchor: Anchor, point: Vec2, size: Vec2) -> Rect {
    Rect::from_center_size(point - anchor.as_vec() * size, size)
}

/// A card on the felt, in table units.
pub const CARD_SIZE: Vec2 = Vec2::new(60.0, 84.0);

/// Where a seat's split hands lie.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Splits {
    /// Side by side, either side of where one hand would be: two hands `two` apart (a card and its fan of three),
    /// three or four `more` apart (as close as the neighbours leave room for).
    Apart { two: f32, more: f32 },
    /// Each seat's next hand this far from the one before: where the seats stand too close to go either side (the
    /// upright table), in towards the middle, or for the bottom seat up the open middle of the U.
    Stepping([Vec2; 7]),
}

/// The table's geometry for one window shape.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct TableLayout {
    /// The table's units: the camera shows at least this much when nothing covers the window.
    pub size: Vec2,
    /// What must be seen of the table: the shoe, the discard holder, the dealer's tray and every seat with its
    /// label and a hand of several cards. The camera fits this into what the HUD leaves of the window.
    pub content: Rect,
    /// Upright (phone) rather than wide.
    pub portrait: bool,
    /// Where cards leave the shoe.
    pub shoe: Vec2,
    /// The discard holder.
    pub discards: Vec2,
    /// The dealer's first card.
    pub dealer: Vec2,
    /// The dealer's chip tray.
    pub dealer_tray: Vec2,
    /// The top centre of the dealer's total, below the cards (larger words grow down from it).
    pub dealer_label: Vec2,
    /// Where a bet's amount is written, from its circle's centre.
    pub bet_words: Written,
    /// Where the chips in the dealer's tray are counted, from the tray's centre.
    pub tray_words: Written,
    /// Where the shoe's and the discard holder's counts are written, from each one's centre (turned with it).
    pub shoe_count: Written,
    pub holder_count: Written,
    /// Centre of the felt's curve.
    pub centre: Vec2,
    /// Each seat's bet circle, first base (seat 0, the dealer's left) first.
    pub seats: [Vec2; 7],
    /// Radius of the felt (the rail is a little wider).
    pub felt_radius: f32,
    /// The printed rules: the curve's centre and the first line's radius.
    pub print_centre: Vec2,
    /// Radius of the first printed line; later lines lie further in.
    pub print_radius: f32,
    /// From each seat's bet circle to its hand's first card.
    pub hands: [Vec2; 7],
    /// How each card of a seat's hand sits on the one before: up, and in towards the middle of the table (x).
    pub fans: [Vec2; 7],
    /// Where a seat's split hands lie.
    pub splits: Splits,
    /// Which way from each seat's circle its side-bet spots lie: -1 to the left, 1 to the right.
    pub side_out: [f32; 7],
    /// Each side-bet spot's centre from its seat's circle (across that way, then up), in the order the table offers
    /// them.
    pub side_spots: [Vec2; 4],
    /// The seats' labels carry only names (the upright table: its neighbours stand close, and the player's chips
    /// are in the header).
    pub names_only: bool,
}

impl Default for TableLayout {
    fn default() -> TableLayout {
        TableLayout::landscape()
    }
}

impl TableLayout {
    /// The wide table: the seats on a shallow arc under the dealer.
    pub fn landscape() -> TableLayout {
        TableLayout {
            size: Vec2::new(1280.0, 720.0),
            portrait: false,
            content: Rect::new(-638.0, -265.0, 638.0, 372.0),
            // Out at the corners, clear of the highest hands of first and third base.
            shoe: Vec2::new(580.0, 306.0),
            discards: Vec2::new(-580.0, 306.0),
            dealer: Vec2::new(-23.0, 212.0),
            dealer_tray: Vec2::new(0.0, 300.0),
            dealer_label: Vec2::new(0.0, 163.0),
            // Beside the chips, and the tray's count at its right end.
            bet_words: Written::new(Vec2::new(34.0, 0.0), Anchor::CENTER_LEFT),
            tray_words: Written::new(Vec2::new(158.0, 0.0), Anchor::CENTER_LEFT),
            // The counts under the shoe and the holder, a little outwards: clear of first and third base's totals.
            shoe_count: Written::new(Vec2::new(0.0, -70.0), Anchor::CENTER),
            holder_count: Written::new(Vec2::new(-6.0, -70.0), Anchor::CENTER),
            centre: Vec2::new(0.0, 620.0),
            // A shallow arc under the dealer: 13° apart on a circle of 800 about the felt's centre.
            seats: std::array::from_fn(|seat| {
                let angle = ((3.0 - seat as f32) * 13.0).to_radians();
                Vec2::new(800.0 * angle.sin(), 620.0 - 800.0 * angle.cos())
            }),
            felt_radius: 930.0,
            print_centre: Vec2::new(0.0, 620.0),
            print_radius: 500.0,
            hands: [Vec2::new(0.0, 82.0); 7],
            fans: inward(Vec2::new(15.0, 22.0)),
            splits: Splits::Apart {
                two: 90.0,
                more: 64.0,
            },
            // A column left of the circle (its bet's amount is written at its right), clear of the seat's label under
            // it and its neighbours' split hands; a fourth over the amount, under the seat's own cards.
            side_out: [-1.0; 7],
            side_spots: [
                Vec2::new(44.0, 26.0),
                Vec2::new(44.0, 0.0),
                Vec2::new(44.0, -26.0),
                Vec2::new(-44.0, 26.0),
            ],
            names_only: false,
        }
    }

    /// The upright table: the same seven seats in a deep U, the dealer above them, no higher than the highest
    /// hands reach (the table is framed between the phone's header and its bar: every unit of height costs size).
    pub fn portrait() -> TableLayout {
        TableLayout {
            size: Vec2::new(720.0, 1280.0),
            portrait: true,
            content: Rect::new(-360.0, -590.0, 360.0, 508.0),
            shoe: Vec2::new(282.0, 420.0),
            discards: Vec2::new(-282.0, 420.0),
            dealer: Vec2::new(-23.0, 350.0),
            dealer_tray: Vec2::new(0.0, 468.0),
            dealer_label: Vec2::new(0.0, 299.0),
            // The seats stand close on the upright table: a bet's amount lies over its circle's lower half, clear
            // of the seat's name under it (larger words grow up over the chips); the tray's count under the tray,
            // clear of the shoe.
            bet_words: Written::new(Vec2::new(0.0, -31.0), Anchor::BOTTOM_CENTER),
            tray_words: Written::new(Vec2::new(0.0, -25.0), Anchor::TOP_CENTER),
            // The counts hang from the shoe's and the holder's outer edges and grow in towards the middle, the
            // shoe's clear of the dealer's sixth card.
            shoe_count: Written::new(Vec2::new(62.0, -62.0), Anchor::TOP_RIGHT),
            holder_count: Written::new(Vec2::new(-50.0, -62.0), Anchor::TOP_LEFT),
            centre: Vec2::new(0.0, 170.0),
            // A deep U: two seats up each side, two low on each side, one at the bottom, each hand over its own
            // circle and clear of its neighbours' names and hands at a phone's word size (26–28 units: the test
            // below), found by searching positions for the largest clearance and rounded.
            seats: mirrored([
                Vec2::new(270.0, 88.0),
                Vec2::new(190.0, -46.0),
                Vec2::new(150.0, -374.0),
                Vec2::new(0.0, -506.0),
            ]),
            felt_radius: 820.0,
            print_centre: Vec2::new(0.0, 620.0),
            print_radius: 390.0,
            hands: mirrored([
                Vec2::new(8.0, 71.0),
                Vec2::new(-38.0, 93.0),
                Vec2::new(10.0, 100.0),
                Vec2::new(-10.0, 75.0),
            ]),
            fans: mirrored([
                Vec2::new(-12.0, 16.0),
                Vec2::new(-14.0, 16.0),
                Vec2::new(-12.0, 16.0),
                Vec2::new(12.0, 16.0),
            ]),
            splits: Splits::Stepping(mirrored([
                Vec2::new(-64.0, 0.0),
                Vec2::new(-88.0, 0.0),
                Vec2::new(-88.0, 0.0),
                Vec2::new(4.0, 210.0),
            ])),
            // Away from where the seat's split hands step, on the side of the table it sits: two beside the circle,
            // two further out.
            side_out: [1.0, 1.0, 1.0, 1.0, -1.0, -1.0, -1.0],
            side_spots: [
                Vec2::new(44.0, 12.0),
                Vec2::new(44.0, -16.0),
                Vec2::new(70.0, 12.0),
                Vec2::new(70.0, -16.0),
            ],
            names_only: true,
        }
    }

    /// The layout for a window of this shape.
    pub fn for_window(width: f32, height: f32) -> TableLayout {
        if height > width {
            TableLayout::portrait()
        } else {
            TableLayout::landscape()
        }
    }

    /// The layout whose content shows largest in `free` (what the HUD leaves of a window): the wide table in a
    /// wide space, the upright one in a tall space or a square one (a phone on its side, between the HUD's columns).
    pub fn for_space(free: Vec2) -> TableLayout {
        let fit = |layout: &TableLayout| {
            let content = layout.content.size();
            (free.x / content.x).min(free.y / content.y)
        };
        let (wide, upright) = (TableLayout::landscape(), TableLayout::portrait());
        if fit(&upright) > fit(&wide) {
            upright
        } else {
            wide
        }
    }

    /// With jumbo indices the fan opens wider so each card's index shows.
    pub fn with_large_index(mut self, large: bool) -> TableLayout {
        if large {
            for fan in &mut self.fans {
                fan.x += 7.0 * fan.x.signum();
            }
        }
        self
    }

    /// A seat's bet circle. Seat 0, first base, is on the dealer's left: the right of the screen.
    pub fn seat_point(&self, seat: u8) -> Vec2 {
        self.seats[usize::from(seat.min(6))]
    }

    /// How each card of a seat's hand sits on the one before: up, and in towards the middle of the table.
    pub fn fan(&self, seat: u8) -> Vec2 {
        self.fans[usize::from(seat.min(6))]
    }

    /// Where a hand's first card lies, given how many hands its seat has.
    pub fn hand_base(&self, seat: u8, hand: u8, hands_in_seat: u8) -> Vec2 {
        let hand = f32::from(hand);
        let split = match self.splits {
            Splits::Stepping(steps) => steps[usize::from(seat.min(6))] * hand,
            Splits::Apart { two, more } => {
                let middle = (f32::from(hands_in_seat.max(1)) - 1.0) / 2.0;
                let gap = if hands_in_seat > 2 { more } else { two };
                Vec2::new((hand - middle) * gap, 0.0)
            }
        };
        self.seat_point(seat) + self.hands[usize::from(seat.min(6))] + split
    }

    /// Where a card belongs on the felt (z stacks later cards over earlier ones).
    pub fn card_place(&self, spot: Spot, order: u8, hands_in_seat: u8) -> Vec3 {
        let step = f32::from(order);
        match spot {
            Spot::Dealer => (self.dealer + Vec2::new(step * 46.0, 0.0)).extend(10.0 + step),
            Spot::Player { seat, hand } => {
                let at = self.hand_base(seat, hand, hands_in_seat) + self.fan(seat) * step;
                at.extend(10.0 + step)
            }
        }
    }

    /// The top of a hand of `cards` cards, over the middle of its fan: where its total is written. (Over the last
    /// card, the totals of neighbouring hands fanned towards each other would meet.) A seat's split hands side by
    /// side stand closer than their words are wide: they write their totals at one height, over the tallest of them
    /// (`cards.1` cards), every other one a line (`line` units) higher.
    pub fn hand_top(
        &self,
        seat: u8,
        hand: u8,
        hands_in_seat: u8,
        cards: (usize, usize),
        line: f32,
    ) -> Vec2 {
        let (own, tallest) = cards;
        let fan = self.fan(seat);
        // Side by side: the wide table's, and the upright table's that step across more than up.
        let step = match self.splits {
            Splits::Stepping(steps) => steps[usize::from(seat.min(6))],
            Splits::Apart { .. } => Vec2::X,
        };
        let side_by_side = hands_in_seat > 1 && step.x.abs() > step.y.abs();
        let (high, raised) = if side_by_side {
            (tallest.max(own), if hand % 2 == 1 { line } else { 0.0 })
        } else {
            (own, 0.0)
        };
        self.hand_base(seat, hand, hands_in_seat)
            + Vec2::new(
                fan.x * own.saturating_sub(1) as f32 / 2.0,
                fan.y * high.saturating_sub(1) as f32 + CARD_SIZE.y / 2.0 + 4.0 + raised,
            )
    }

    /// The centre of a seat's spot for the `slot`th side bet the table offers (up to four).
    pub fn side_point(&self, seat: u8, slot: usize) -> Vec2 {
        let step = self.side_spots[slot.min(3)];
        self.seat_point(seat) + Vec2::new(step.x * self.side_out[usize::from(seat.min(6))], step.y)
    }

    /// Where a seat's own chips are: beside its name, under the bet circle.
    pub fn bankroll_point(&self, seat: u8) -> Vec2 {
        self.seat_point(seat) - Vec2::new(0.0, 56.0)
    }

    /// The table's lasting pieces, named, as boxes in table units: each seat's circle and its label (name and chips),
    /// the shoe and the discard holder (about 100×130, turned) with their counts, the dealer's tray and its chips.
    /// No words are written smaller than `least` units (see [`Framing::least_words`]), and their boxes grow with
    /// them. The content holds them all; the layout check faults a panel of the HUD over one.
    pub fn pieces(&self, least: f32) -> Vec<(String, Rect)> {
        let mut pieces = Vec::with_capacity(20);
        self.each_piece(least, |name, rect| pieces.push((name(), rect)));
        pieces
    }

    /// How wide a seat's name may be written, in ems of its words (a longer one is cut): the upright table's seats
    /// stand close, a wide table's label leaves room for "$12,345" under the name.
    pub fn name_ems(&self) -> f32 {
        if self.names_only {
            6.0
        } else {
            100.0 / SEAT_WORDS
        }
    }

    /// Where the shoe stands: a little outwards of where its cards leave it.
    pub fn shoe_at(&self) -> Vec2 {
        self.shoe + Vec2::new(6.0, 0.0)
    }

    /// What the shoe's count says with `cards` in it: "307 in the shoe", or on the upright table, whose shoe stands
    /// close to the dealer's cards, "307 left".
    pub fn shoe_words(&self, cards: u32) -> String {
        if self.portrait {
            format!("{cards} left")
        } else {
            format!("{cards} in the shoe")
        }
    }

    /// A seat's label (its name, and its chips under it where the seats stand apart), hanging from under its circle
    /// and growing downwards, with no words under `least` units: as wide as the widest name written
    /// ([`TableLayout::name_ems`]; DejaVu Sans: "Lucky Lou" is 4.96 times its size across), and on a wide table two
    /// lines, the name and "$12,345".
    pub fn seat_label(&self, seat: u8, least: f32) -> Rect {
        let size = written(SEAT_WORDS, least);
        let label = if self.names_only {
            Vec2::new(self.name_ems(), 1.2) * size
        } else {
            Vec2::new(self.name_ems(), 34.0 / SEAT_WORDS) * size
        };
        Rect::from_center_size(
            self.seat_point(seat) - Vec2::new(0.0, LABEL_TOP + label.y / 2.0),
            label,
        )
    }

    /// What of a seat stays on the table between rounds, with no words under `least` units: its ring, its label,
    /// the words of its bet ("$150": written over the ring, wider than it) and its side bets' spots.
    pub fn seat_pieces(&self, seat: u8, least: f32) -> [(&'static str, Rect); 7] {
        let at = self.seat_point(seat);
        let bet = written(13.0, least);
        let side =
            |slot| Rect::from_center_size(self.side_point(seat, slot), Vec2::splat(SIDE_SPOT));
        [
            ("circle", Rect::from_center_size(at, Vec2::splat(64.0))),
            ("label", self.seat_label(seat, least)),
            (
                "bet",
                self.bet_words.rect(at, Vec2::new(6.0 * 0.65, 1.2) * bet),
            ),
            ("side bet 1", side(0)),
            ("side bet 2", side(1)),
            ("side bet 3", side(2)),
            ("side bet 4", side(3)),
        ]
    }

    /// A free seat's "Sit" button of `size` (table units) at [`TableLayout::sit_point`], if it lies clear of
    /// every other seat's pieces ([`TableLayout::seat_pieces`]); none where the seats stand too close for a thumb's
    /// target between them (a small phone's table), as none stands under the HUD's bars.
    pub fn sit_button(&self, seat: u8, least: f32, size: Vec2) -> Option<Rect> {
        let button = Rect::from_center_size(self.sit_point(seat, least), size);
        let clear = (0..7u8).filter(|other| *other != seat).all(|other| {
            self.seat_pieces(other, least)
                .iter()
                .all(|(_, piece)| !over(button, *piece))
        });
        clear.then_some(button)
    }

    /// Where a free seat's "Sit" button stands, with no words under `least` units: between its ring and the first
    /// line of its label, over both (the label's "open seat" gives way to it, [`SitOffered`]). On a phone the seats
    /// stand close; a button on the ring alone reached the name of the seat above it.
    pub fn sit_point(&self, seat: u8, least: f32) -> Vec2 {
        let label = self.seat_label(seat, least);
        let first_line = label.max.y - written(SEAT_WORDS, least) * 0.6;
        let ring = self.seat_point(seat);
        Vec2::new(ring.x, (ring.y + first_line) / 2.0)
    }

    /// What must be seen of the table with no words under `least` units: the content and every piece. (The camera
    /// asks each frame: the pieces' names are not made for it.)
    pub fn content_for(&self, least: f32) -> Rect {
        let mut content = self.content;
        self.each_piece(least, |_, rect| content = content.union(rect));
        content
    }

    /// Each of [`TableLayout::pieces`], with a way to name it.
    fn each_piece(&self, least: f32, mut piece: impl FnMut(&dyn Fn() -> String, Rect)) {
        let grown = |size: f32| written(size, least) / size;
        let centred = Rect::from_center_size;
        for seat in 0..7u8 {
            let at = self.seat_point(seat);
            piece(
                &|| format!("seat {}'s circle", seat + 1),
                centred(at, Vec2::splat(64.0)),
            );
            piece(
                &|| format!("seat {}'s label", seat + 1),
                self.seat_label(seat, least),
            );
        }
        // "416 in the shoe" is 7.8 times its size across, "416 left" 3.9 and "52 discards" 6.1 (DejaVu Sans).
        let shoe_words = if self.portrait { 4.0 } else { 8.0 };
        for (name, at, count, across) in [
            ("shoe", self.shoe_at(), self.shoe_count, shoe_words),
            ("discard holder", self.discards, self.holder_count, 6.2),
        ] {
            piece(&|| name.to_string(), centred(at, Vec2::new(104.0, 130.0)));
            // Its count, upright under it.
            let words = count.rect(at, Vec2::new(across, 1.4) * written(COUNT_WORDS, least));
            piece(&|| format!("{name}'s count"), words);
        }
        piece(
            &|| "dealer's tray".to_string(),
            centred(self.dealer_tray, Vec2::new(300.0, 44.0)),
        );
        piece(
            &|| "dealer's tray's chips".to_string(),
            self.tray_words
                .rect(self.dealer_tray, Vec2::new(72.0, 16.0) * grown(TRAY_WORDS)),
        );
    }
}

/// Four seats' values from first base to the middle, and the three past the middle as their mirror images.
fn mirrored(half: [Vec2; 4]) -> [Vec2; 7] {
    std::array::from_fn(|seat| {
        let other = half[seat.min(6 - seat)];
        if seat > 3 {
            Vec2::new(-other.x, other.y)
        } else {
            other
        }
    })
}

/// A fan for each seat, its x towards the middle of the table: leftwards from the seats on the right of the screen
/// (0–2), rightwards from the others.
fn inward(fan: Vec2) -> [Vec2; 7] {
    std::array::from_fn(|seat| {
        if seat < 3 {
            Vec2::new(-fan.x, fan.y)
        } else {
            fan
        }
    })
}

/// How far the shoe and the discard holder are turned on the felt (radians, anticlockwise); their counts are
/// written upright.
pub const SHOE_TURN: f32 = 0.25;
pub const HOLDER_TURN: f32 = -0.25;

/// The shoe's and the discard holder's pictures, in table units.
pub const SHOE_PICTURE: Vec2 = Vec2::new(92.0, 112.0);
pub const HOLDER_PICTURE: Vec2 = Vec2::new(84.0, 104.0);

/// From a seat's bet circle's centre down to the top of its label.
pub const LABEL_TOP: f32 = 44.0;
/// Across a side bet's spot, in table units.
pub const SIDE_SPOT: f32 = 24.0;

/// The sizes of the felt's words, in table units: a hand's total or outcome, a seat's name and chips, the shoe's and
/// the holder's counts, the tray's chips.
pub const HAND_WORDS: f32 = 16.0;
pub const SEAT_WORDS: f32 = 14.0;
pub const COUNT_WORDS: f32 = 13.0;
pub const TRAY_WORDS: f32 = 12.0;

/// The least size of the words on the felt (a seat's name and chips, a count, a total), in logical pixels (CSS
/// pixels in a browser): the theme's floor for any words.
pub const FELT_WORDS_FLOOR: f32 = 13.0;
/// The largest least size, in table units (four times the smallest words'), however small the table is shown.
const MOST_LEAST: f32 = 48.0;

/// The least size of the felt's words, in table units, at `pixels_per_unit`: what puts them at
/// [`FELT_WORDS_FLOOR`] on the screen, in whole units (a window dragged larger does not lay them out at every size on
/// the way).
pub fn least_words_for(pixels_per_unit: f32) -> f32 {
    let wanted = FELT_WORDS_FLOOR / pixels_per_unit.max(1e-3);
    (wanted - 1e-3).ceil().min(MOST_LEAST)
}

/// The size words of `size` table units are written at when none may be under `least`: only words under the floor
/// grow, to the floor, so a small screen keeps every word readable and the table's words no larger than that.
pub fn written(size: f32, least: f32) -> f32 {
    size.max(least)
}

/// Two boxes share more than a sliver (touching edges do not count).
fn over(a: Rect, b: Rect) -> bool {
    let shared = a.intersect(b);
    shared.width() > 0.5 && shared.height() > 0.5
}

/// The free seats that offer a "Sit" button this frame (bit `seat`), written by the table's HUD: a seat's "open seat"
/// gives way to its button ([`TableLayout::sit_point`]).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SitOffered(pub u8);

impl SitOffered {
    pub fn at(self, seat: u8) -> bool {
        seat < 7 && self.0 & (1 << seat) != 0
    }
}

/// How much of the window the HUD covers along each edge, in logical pixels: the bands of panels docked at the top
/// and the bottom (and at the sides, where a panel stands beside the felt). The pages write it every frame; the
/// camera frames the table in the rest.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct Covered {
    pub top: f32,
    pub bottom: f32,
    pub left: f32,
    pub right: f32,
    /// Of `left` and `right`, the columns that stay (a phone on its side keeps its header and its bar at the sides);
    /// a column opened for a while (the chat, the round log) frames the table beside it but does not change which
    /// layout the table takes.
    pub lasting_sides: f32,
}

impl Covered {
    /// The space the table's layout is chosen for: the window less the bands that stay.
    pub fn lasting_space(&self, window: Vec2) -> Vec2 {
        Vec2::new(
            (window.x - self.lasting_sides).max(1.0),
            (window.y - self.top - self.bottom).max(1.0),
        )
    }
}

/// Where the camera looks and how near: logical pixels per table unit, and the table point at the window's centre;
/// and how large the felt's words are written for that.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct Framing {
    pub pixels_per_unit: f32,
    pub centre: Vec2,
    /// No word on the felt is written under this many table units, so that on a small screen (a phone shows the
    /// table at about half a pixel a unit) a seat's name is still read at [`FELT_WORDS_FLOOR`] ([`written`]). The
    /// table makes room for the larger words ([`TableLayout::content_for`]).
    pub least_words: f32,
}

impl Default for Framing {
    fn default() -> Framing {
        Framing {
            pixels_per_unit: 1.0,
            centre: Vec2::ZERO,
            least_words: 0.0,
        }
    }
}

/// The least share of the whole window's scale the table keeps however much the HUD covers: where the bands leave
/// too little (a phone on its side), the table stays readable and the bands lie over its edges instead. (The upright
/// table, 1,100 units high, still fits between a 360×640 phone's header and its bar of plays with their values.)
pub const LEAST_SCALE: f32 = 0.55;

impl Framing {
    /// The table of `layout` framed in a `window` (logical pixels) of which `covered` is the HUD's: its content as
    /// large as fits the rest, centred in it.
    pub fn of(layout: &TableLayout, window: Vec2, covered: Covered) -> Framing {
        let whole = (window.x / layout.size.x).min(window.y / layout.size.y);
        let free = Vec2::new(
            (window.x - covered.left - covered.right).max(1.0),
            (window.y - covered.top - covered.bottom).max(1.0),
        );
        // The scale the content with no words under `least` fits at, and that content.
        let fit = |least: f32| {
            let content = layout.content_for(least);
            let size = content.size();
            let scale = (free.x / size.x)
                .min(free.y / size.y)
                .max(whole * LEAST_SCALE);
            (scale, content)
        };
        // Larger words take room and make the table smaller, which wants larger words: a few rounds settle it.
        let mut least = 0.0;
        let (mut scale, mut content) = fit(least);
        for _ in 0..8 {
            let wanted = least_words_for(scale);
            if wanted <= least {
                break;
            }
            least = wanted;
            (scale, content) = fit(least);
        }
        // The free rectangle's centre, from the window's, in pixels (y up, as the table's units go).
        let offset = Vec2::new(
            (covered.left - covered.right) / 2.0,
            (covered.bottom - covered.top) / 2.0,
        );
        Framing {
            pixels_per_unit: scale,
            centre: content.center() - offset / scale,
            least_words: least,
        }
    }

    /// Where a table point is in the window, in logical pixels from its top left corner.
    pub fn on_screen(&self, window: Vec2, point: Vec2) -> Vec2 {
        let from_centre = (point - self.centre) * self.pixels_per_unit;
        Vec2::new(
            window.x / 2.0 + from_centre.x,
            window.y / 2.0 - from_centre.y,
        )
    }

    /// A step of `seconds` from `self` towards `target`: the table glides to a new framing in about a fifth of a
    /// second rather than jumping when a band of the HUD changes height. The words keep the larger of the two least
    /// sizes until it arrives (laid out again at most twice, not at every step).
    pub fn towards(self, target: Framing, seconds: f32) -> Framing {
        let t = 1.0 - (-seconds * 15.0).exp();
        let near = |a: f32, b: f32| (a - b).abs() < 0.001 * b.abs().max(1.0);
        let step = Framing {
            pixels_per_unit: self.pixels_per_unit
                + (target.pixels_per_unit - self.pixels_per_unit) * t,
            centre: self.centre + (target.centre - self.centre) * t,
            // Words never under the floor on the way: the larger least until the glide arrives.
            least_words: self.least_words.max(target.least_words),
        };
        if near(step.pixels_per_unit, target.pixels_per_unit)
            && step.centre.distance(target.centre) < 0.5
        {
            target
        } else {
            step
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two boxes overlap if they overlap on both axes.
    fn overlaps(a: (Vec2, Vec2), b: (Vec2, Vec2)) -> bool {
        (a.0.x - b.0.x).abs() * 2.0 < a.1.x + b.1.x && (a.0.y - b.0.y).abs() * 2.0 < a.1.y + b.1.y
    }

    /// A seat's footprint: its circle, label and a five-card hand, as a box.
    fn seat_box(layout: &TableLayout, seat: u8) -> (Vec2, Vec2) {
        let low = layout.seat_point(seat) - Vec2::new(0.0, 80.0);
        let first = layout
            .card_place(Spot::Player { seat, hand: 0 }, 0, 1)
            .truncate();
        let fifth = layout
            .card_place(Spot::Player { seat, hand: 0 }, 4, 1)
            .truncate();
        let min = low
            .min(first - CARD_SIZE / 2.0)
            .min(fifth - CARD_SIZE / 2.0);
        let max = (layout.seat_point(seat) + Vec2::new(32.0, 0.0))
            .max(first + CARD_SIZE / 2.0)
            .max(fifth + CARD_SIZE / 2.0);
        ((min + max) / 2.0, max - min)
    }

    #[test]
    fn every_seat_and_the_dealer_fit_on_the_table_without_touching() {
        for layout in [
            TableLayout::landscape(),
            TableLayout::portrait(),
            TableLayout::portrait().with_large_index(true),
        ] {
            let half = layout.size / 2.0;
            let dealer = {
                let first = layout.card_place(Spot::Dealer, 0, 1).truncate();
                let last = layout.card_place(Spot::Dealer, 5, 1).truncate();
                ((first + last) / 2.0, last - first + CARD_SIZE)
            };
            for seat in 0..7 {
                let (at, size) = seat_box(&layout, seat);
                assert!(
                    (at.x.abs() + size.x / 2.0) <= half.x && (at.y.abs() + size.y / 2.0) <= half.y,
                    "seat {seat} leaves the {:?} table: {at} {size}",
                    layout.size
                );
                assert!(
                    !overlaps((at, size), dealer),
                    "seat {seat} under the dealer's cards on the {:?} table",
                    layout.size
                );
                let circle = (layout.seat_point(seat), Vec2::splat(64.0));
                for other in (seat + 1)..7 {
                    let other_circle = (layout.seat_point(other), Vec2::splat(64.0));
                    assert!(
                        !overlaps(circle, other_circle),
                        "bet circles {seat} and {other} touch on the {:?} table",
                        layout.size
                    );
                }
            }
        }
    }

    /// What a seat shows with a hand of `cards` cards, with words no smaller than `least`: each card, and the
    /// hand's total over the middle of its fan, one line in bold (DejaVu Sans Bold, measured in Chromium: "Bust (24)" is 5.2
    /// times its size across, "Win +$25" 5.4, "Lose −$10" 5.9; the upright table writes "+$25").
    fn hand_boxes(layout: &TableLayout, seat: u8, cards: u8, least: f32) -> Vec<(String, Rect)> {
        split_hand_boxes(layout, seat, (0, 1), (cards, cards), least)
    }

    /// [`hand_boxes`] for the hand `hand.0` of a seat with `hand.1` hands, of `cards.0` cards, the seat's tallest
    /// hand having `cards.1`.
    fn split_hand_boxes(
        layout: &TableLayout,
        seat: u8,
        (hand, hands): (u8, u8),
        (cards, tallest): (u8, u8),
        least: f32,
    ) -> Vec<(String, Rect)> {
        let name = if hands == 1 {
            format!("seat {}'s", seat + 1)
        } else {
            format!("seat {}'s hand {} of {hands}:", seat + 1, hand + 1)
        };
        let mut boxes: Vec<(String, Rect)> = (0..cards)
            .map(|order| {
                let at = layout.card_place(Spot::Player { seat, hand }, order, hands);
                (
                    format!("{name} card {}", order + 1),
                    Rect::from_center_size(at.truncate(), CARD_SIZE),
                )
            })
            .collect();
        let size = written(HAND_WORDS, least);
        let total = Vec2::new(if layout.portrait { 5.3 } else { 6.0 }, 1.2) * size;
        let top = layout.hand_top(
            seat,
            hand,
            hands,
            (usize::from(cards), usize::from(tallest)),
            total.y,
        );
        boxes.push((
            format!("{name} total of {cards} cards"),
            words_box(Anchor::BOTTOM_CENTER, top, total),
        ));
        boxes
    }

    /// What stays on the table whatever the hands: each seat's circle, label and bet ("$5,000", under 0.65 of its
    /// size across a letter), the shoe, the holder, their counts, the tray, the dealer's six cards and total.
    fn lasting_boxes(layout: &TableLayout, least: f32) -> Vec<(Option<u8>, String, Rect)> {
        let mut boxes = Vec::new();
        for seat in 0..7u8 {
            for (name, rect) in layout.seat_pieces(seat, least) {
                boxes.push((Some(seat), name.to_string(), rect));
            }
        }
        for (name, rect) in layout.pieces(least) {
            if !name.starts_with("seat ") {
                boxes.push((None, name, rect));
            }
        }
        let first = layout.card_place(Spot::Dealer, 0, 1).truncate();
        let last = layout.card_place(Spot::Dealer, 5, 1).truncate();
        boxes.push((
            None,
            "the dealer's cards".to_string(),
            Rect::from_corners(first - CARD_SIZE / 2.0, last + CARD_SIZE / 2.0),
        ));
        let said = Vec2::new(15.0 * 0.66, 1.2) * written(18.0, least);
        boxes.push((
            None,
            "the dealer's total".to_string(),
            words_box(Anchor::TOP_CENTER, layout.dealer_label, said),
        ));
        boxes
    }

    /// A rectangle of `size` about `at`, turned by `turn`, and an upright `rect` lie apart: some side of one has the
    /// other wholly beyond it (the separating axes of two rectangles are their sides' directions).
    fn apart(at: Vec2, size: Vec2, turn: f32, rect: Rect) -> bool {
        let half = size / 2.0;
        let turned: Vec<Vec2> = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
            .iter()
            .map(|&(x, y)| at + Vec2::from_angle(turn).rotate(Vec2::new(x, y) * half))
            .collect();
        let upright = [
            rect.min,
            Vec2::new(rect.max.x, rect.min.y),
            rect.max,
            Vec2::new(rect.min.x, rect.max.y),
        ];
        let axes = [
            Vec2::X,
            Vec2::Y,
            Vec2::from_angle(turn),
            Vec2::from_angle(turn).perp(),
        ];
        axes.iter().any(|axis| {
            let span = |points: &[Vec2]| {
                points.iter().fold((f32::MAX, f32::MIN), |(lo, hi), p| {
                    let d = p.dot(*axis);
                    (lo.min(d), hi.max(d))
                })
            };
            let ((a_lo, a_hi), (b_lo, b_hi)) = (span(&turned), span(&upright));
            a_hi < b_lo || b_hi < a_lo
        })
    }

    #[test]
    fn no_hand_lies_over_another_seat_or_its_words() {
        // A phone held upright (390×844) frames its table between the header and the bar: the bar of plays, and the
        // taller one with the advisor's values under them. The words are written at least this large there.
        let phone = |bar: f32| {
            let covered = Covered {
                top: 121.0,
                bottom: bar,
                ..Covered::default()
            };
            Framing::of(&TableLayout::portrait(), Vec2::new(390.0, 844.0), covered).least_words
        };
        let (plays, advised) = (phone(160.0), phone(200.0));
        assert!(plays >= 25.0 && advised <= 28.0, "{plays} {advised}");
        let cases = [
            (TableLayout::landscape(), vec![13.0, 16.0]),
            (TableLayout::portrait(), vec![plays, advised, 28.0]),
        ];
        for (layout, sizes) in cases {
            let half = layout.size.x / 2.0;
            for least in sizes {
                let lasting = lasting_boxes(&layout, least);
                let all_hands: Vec<Vec<(String, Rect)>> = (0..7u8)
                    .map(|seat| {
                        (1..=5)
                            .flat_map(|cards| hand_boxes(&layout, seat, cards, least))
                            .collect()
                    })
                    .collect();
                for seat in 0..7u8 {
                    for cards in 1..=5 {
                        for (what, rect) in hand_boxes(&layout, seat, cards, least) {
                            let table = format!("the {:?} table at {least}", layout.size);
                            assert!(
                                rect.min.x >= -half && rect.max.x <= half,
                                "{what} leaves {table}: {rect:?}"
                            );
                            for (owner, name, other) in &lasting {
                                // A hand lies over its own circle's top edge no more than it may; its own label
                                // and bet are words it must leave clear.
                                let own_circle = *owner == Some(seat) && name == "circle";
                                assert!(
                                    own_circle || !over(rect, *other),
                                    "{what} lies over {} {name} on {table}",
                                    owner.map_or(String::new(), |o| format!("seat {}'s", o + 1)),
                                );
                            }
                            for (other_seat, hand) in all_hands.iter().enumerate() {
                                if other_seat == usize::from(seat) {
                                    continue;
                                }
                                for (that, other) in hand {
                                    assert!(
                                        !over(rect, *other),
                                        "{what} lies over {that} on {table}"
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// What a seat's split hands (`hands` of them, of two or three cards each) lie over, at each size the words are
    /// written: the other seats (their circles, names, bets and hands of up to three cards), what stays on the table,
    /// and each other: two hands wholly, more their totals (a third or fourth hand's cards may lie over its
    /// neighbour's first card, as a fan's do: the seat's neighbours stand closer than four hands' cards and fans).
    fn split_faults(layout: &TableLayout, seat: u8, hands: u8) -> Vec<String> {
        let mut faults = Vec::new();
        let sizes = if layout.portrait {
            [25.0, 28.0]
        } else {
            [13.0, 16.0]
        };
        for least in sizes {
            let table = format!("the {:?} table at {least}", layout.size);
            let own_circle = format!("seat {}'s circle", seat + 1);
            let others: Vec<(String, Rect)> = (0..7u8)
                .filter(|&other| other != seat)
                .flat_map(|other| (1..=3u8).map(move |cards| (other, cards)))
                .flat_map(|(other, cards)| hand_boxes(layout, other, cards, least))
                .chain(
                    lasting_boxes(layout, least)
                        .into_iter()
                        .map(|(owner, name, rect)| {
                            let whose =
                                owner.map_or(String::new(), |o| format!("seat {}'s ", o + 1));
                            (format!("{whose}{name}"), rect)
                        })
                        .filter(|(name, _)| *name != own_circle),
                )
                .collect();
            // Every hand of two cards, of three, or the first of three and the rest of two, or every other of three.
            for pattern in [[2u8; 4], [3; 4], [3, 2, 2, 2], [2, 3, 2, 3]] {
                let tallest = *pattern[..usize::from(hands)].iter().max().unwrap_or(&2);
                let split: Vec<Vec<(String, Rect)>> = (0..hands)
                    .map(|hand| {
                        let cards = (pattern[usize::from(hand)], tallest);
                        split_hand_boxes(layout, seat, (hand, hands), cards, least)
                    })
                    .collect();
                for (hand, boxes) in split.iter().enumerate() {
                    let siblings: Vec<&(String, Rect)> = split
                        .iter()
                        .enumerate()
                        .filter(|(other, _)| *other != hand)
                        .flat_map(|(_, boxes)| boxes)
                        .collect();
                    for (what, rect) in boxes {
                        let is_total = what.contains("total");
                        let clash = others
                            .iter()
                            .chain(siblings.iter().copied().filter(|(that, _)| {
                                hands == 2 || is_total || that.contains("total")
                            }))
                            .find(|(_, other)| over(*rect, *other));
                        if let Some((that, _)) = clash {
                            faults.push(format!("{what} lies over {that} on {table}"));
                        }
                    }
                }
            }
        }
        faults.sort();
        faults.dedup();
        faults
    }

    /// Two split hands lie wholly clear at every seat of both tables, but where the seats stand too close for them:
    /// the upright table's top corners (first and third base: the second hand reaches the next seat's total; there is
    /// no room outwards or above, under the shoe's and the holder's counts), and on the wide table the fifth and
    /// sixth seats' first hands, over the next seat's bet only if it is as wide as "$5,000" (written right of its
    /// circle). The upright table's bottom seat, where the player sits at most tables, stacks three clear with the
    /// words of the bar of plays (25 units; at the advisor's 28 the third's total touches the next seat's, and a
    /// fourth reaches the dealer's side).
    #[test]
    fn split_hands_lie_clear_of_the_other_seats_and_of_each_other() {
        let (wide, upright) = (TableLayout::landscape(), TableLayout::portrait());
        let mut faults = Vec::new();
        for seat in 0..7u8 {
            if ![0, 6].contains(&seat) {
                faults.extend(split_faults(&upright, seat, 2));
            }
            for fault in split_faults(&wide, seat, 2) {
                let next_bet = format!("lies over seat {}'s bet on", seat + 2);
                if !([4, 5].contains(&seat)
                    && fault.contains("hand 1 of 2")
                    && fault.contains(&next_bet))
                {
                    faults.push(fault);
                }
            }
        }
        faults.extend(
            split_faults(&upright, 3, 3)
                .into_iter()
                .filter(|f| f.ends_with("at 25")),
        );
        assert!(
            faults.is_empty(),
            "{} faults:\n{}",
            faults.len(),
            faults.join("\n")
        );
    }

    /// What stays on the table lies clear of everything else that stays, at every size the words are written:
    /// the shoe's and the holder's counts (turned with them) clear of the dealer's six cards and total, every seat
    /// clear of the others. A seat's bet is written over its own circle.
    #[test]
    fn nothing_that_stays_lies_over_anything_else_that_stays() {
        for (layout, sizes) in [
            (TableLayout::landscape(), vec![13.0, 16.0]),
            (TableLayout::portrait(), vec![25.0, 28.0]),
        ] {
            for least in sizes {
                let lasting = lasting_boxes(&layout, least);
                let mut faults = Vec::new();
                for (i, (owner, name, rect)) in lasting.iter().enumerate() {
                    for (other_owner, other_name, other) in &lasting[i + 1..] {
                        let own_bet = owner.is_some()
                            && owner == other_owner
                            && [name, other_name].contains(&&"bet".to_string());
                        // A fixture's count hangs from its edge.
                        let own_count = *other_name == format!("{name}'s count");
                        // The shoe and the holder are turned: their box is wider than they are, so beside the
                        // dealer's cards it is the turned picture itself that must lie clear (below).
                        let turned = ["shoe", "discard holder"].contains(&name.as_str())
                            && other_name == "the dealer's cards";
                        if !own_bet && !own_count && !turned && over(*rect, *other) {
                            let whose = |o: &Option<u8>| {
                                o.map_or(String::new(), |o| format!("seat {}'s ", o + 1))
                            };
                            faults.push(format!(
                                "{}{name} over {}{other_name}: {rect:?} {other:?}",
                                whose(owner),
                                whose(other_owner)
                            ));
                        }
                    }
                }
                let first = layout.card_place(Spot::Dealer, 0, 1).truncate();
                let last = layout.card_place(Spot::Dealer, 5, 1).truncate();
                let cards = Rect::from_corners(first - CARD_SIZE / 2.0, last + CARD_SIZE / 2.0);
                for (name, at, picture, turn) in [
                    ("shoe", layout.shoe_at(), SHOE_PICTURE, SHOE_TURN),
                    (
                        "discard holder",
                        layout.discards,
                        HOLDER_PICTURE,
                        HOLDER_TURN,
                    ),
                ] {
                    if !apart(at, picture, turn, cards) {
                        faults.push(format!("the {name} over the dealer's six cards"));
                    }
                }
                assert!(
                    faults.is_empty(),
                    "on the {:?} table at {least}:\n{}",
                    layout.size,
                    faults.join("\n")
                );
            }
        }
    }

    /// A free seat's "Sit" button (the HUD's: 60 by 44 points on a phone, 120 by 52 on a desktop) stands on its own
    /// ring and "open seat", and lies over nothing of another seat or the dealer's: at a phone's and a desktop's
    /// framings every free seat offers one, with the betting bar alone and with the side bets' and the next round's
    /// lines above it (Atlantic City's phone, where a button on the ring reached the name of the seat above). A small
    /// phone's table (360 by 640) offers only those that fit.
    #[test]
    fn a_free_seats_sit_button_lies_over_nothing_of_another_seat_or_the_dealers() {
        let phone = |bottom| Covered {
            top: 121.0,
            bottom,
            ..Covered::default()
        };
        let desk = Covered {
            bottom: 190.0,
            ..Covered::default()
        };
        let (thumb, mouse) = (Vec2::new(60.0, 44.0), Vec2::new(120.0, 52.0));
        // A desktop with the side bets' and the next round's lines over half its height draws the table small: its
        // "Sit here" gives way to a "Sit" (60 by 36), which fits at every seat.
        let small_desk = Covered {
            bottom: 292.0,
            ..Covered::default()
        };
        for (layout, window, covered, button, every) in [
            (
                TableLayout::landscape(),
                Vec2::new(1280.0, 720.0),
                small_desk,
                Vec2::new(60.0, 36.0),
                true,
            ),
            (
                TableLayout::portrait(),
                Vec2::new(390.0, 844.0),
                phone(200.0),
                thumb,
                true,
            ),
            (
                TableLayout::portrait(),
                Vec2::new(390.0, 844.0),
                phone(320.0),
                thumb,
                true,
            ),
            (
                TableLayout::portrait(),
                Vec2::new(360.0, 640.0),
                phone(200.0),
                thumb,
                false,
            ),
            (
                TableLayout::landscape(),
                Vec2::new(1280.0, 720.0),
                desk,
                mouse,
                true,
            ),
            (
                TableLayout::landscape(),
                Vec2::new(1920.0, 1080.0),
                desk,
                mouse,
                true,
            ),
        ] {
            let framing = Framing::of(&layout, window, covered);
            let least = framing.least_words;
            let lasting = lasting_boxes(&layout, least);
            let mut faults = Vec::new();
            for seat in 0..7u8 {
                let Some(sit) = layout.sit_button(seat, least, button / framing.pixels_per_unit)
                else {
                    if every {
                        faults.push(format!("seat {} offers no button", seat + 1));
                    }
                    continue;
                };
                // On its own seat: over its ring or its "open seat".
                let [(_, ring), (_, label), ..] = layout.seat_pieces(seat, least);
                if !over(sit, ring) && !over(sit, label) {
                    faults.push(format!(
                        "seat {}'s button {sit:?} is off its seat",
                        seat + 1
                    ));
                }
                for (owner, name, rect) in &lasting {
                    if *owner != Some(seat) && over(sit, *rect) {
                        let whose = owner.map_or(String::new(), |o| format!("seat {}'s ", o + 1));
                        faults.push(format!("seat {}'s Sit over {whose}{name}", seat + 1));
                    }
                }
            }
            assert!(
                faults.is_empty(),
                "{window} with {covered:?}:\n{}",
                faults.join("\n")
            );
        }
    }

    #[test]
    fn the_content_holds_every_seat_and_the_fixtures() {
        for layout in [
            TableLayout::landscape(),
            TableLayout::portrait(),
            TableLayout::portrait().with_large_index(true),
        ] {
            let inside = |at: Vec2, size: Vec2, what: &str| {
                let (min, max) = (at - size / 2.0, at + size / 2.0);
                assert!(
                    layout.content.contains(min) && layout.content.contains(max),
                    "{what} ({min} to {max}) leaves the content {:?} of the {:?} table",
                    layout.content,
                    layout.size
                );
            };
            for seat in 0..7 {
                let (at, size) = seat_box(&layout, seat);
                inside(at, size, &format!("seat {seat}"));
            }
            // Every lasting piece (the seats' circles and labels, the shoe, the holder, the house's tray), and the
            // dealer's cards.
            let pieces = layout.pieces(0.0);
            for name in ["shoe", "discard holder", "dealer's tray"] {
                assert!(pieces.iter().any(|(piece, _)| piece == name), "{name}");
            }
            for (name, rect) in pieces {
                inside(rect.center(), rect.size(), &name);
            }
            inside(layout.dealer, CARD_SIZE, "the dealer's first card");
        }
    }

    /// The window's free rectangle (what `covered` leaves), and where the content lands in it.
    fn framed(layout: &TableLayout, window: Vec2, covered: Covered) -> (Rect, Rect) {
        let framing = Framing::of(layout, window, covered);
        let corner = |p: Vec2| framing.on_screen(window, p);
        let whole = layout.content_for(framing.least_words);
        let content = Rect::from_corners(corner(whole.min), corner(whole.max));
        let free = Rect::new(
            covered.left,
            covered.top,
            window.x - covered.right,
            window.y - covered.bottom,
        );
        (free, content)
    }

    #[test]
    fn the_table_is_framed_in_what_the_hud_leaves() {
        let cases = [
            // A desktop window with a band of panels at the bottom; with the chat at the left too.
            (
                TableLayout::landscape(),
                Vec2::new(1280.0, 720.0),
                [0.0, 190.0, 0.0, 0.0],
            ),
            (
                TableLayout::landscape(),
                Vec2::new(1920.0, 1080.0),
                [0.0, 200.0, 340.0, 0.0],
            ),
            // A phone held upright: the header and the bar at the thumb.
            (
                TableLayout::portrait(),
                Vec2::new(390.0, 844.0),
                [121.0, 200.0, 0.0, 0.0],
            ),
            (
                TableLayout::portrait(),
                Vec2::new(390.0, 844.0),
                [0.0, 0.0, 0.0, 0.0],
            ),
        ];
        for (layout, window, [top, bottom, left, right]) in cases {
            let covered = Covered {
                top,
                bottom,
                left,
                right,
                lasting_sides: 0.0,
            };
            let (free, content) = framed(&layout, window, covered);
            assert!(
                free.inflate(0.01).contains(content.min)
                    && free.inflate(0.01).contains(content.max),
                "at {window} with {covered:?} the table's content {content:?} leaves the free {free:?}"
            );
            // As large as fits: it touches the free rectangle's sides or its top and bottom, centred.
            let fills = (content.width() - free.width()).abs() < 0.5
                || (content.height() - free.height()).abs() < 0.5;
            assert!(
                fills,
                "at {window} with {covered:?}: {content:?} in {free:?}"
            );
            assert!(content.center().distance(free.center()) < 0.5);
        }
    }

    #[test]
    fn the_felts_words_are_read_at_the_floor_and_the_table_makes_room_for_them() {
        let phone = Covered {
            top: 121.0,
            bottom: 200.0,
            ..Covered::default()
        };
        let desk = Covered {
            bottom: 190.0,
            ..Covered::default()
        };
        for (layout, window, covered) in [
            (TableLayout::portrait(), Vec2::new(390.0, 844.0), phone),
            (TableLayout::portrait(), Vec2::new(360.0, 640.0), phone),
            (TableLayout::landscape(), Vec2::new(1280.0, 720.0), desk),
            (TableLayout::landscape(), Vec2::new(1920.0, 1080.0), desk),
        ] {
            let framing = Framing::of(&layout, window, covered);
            let smallest = written(TRAY_WORDS, framing.least_words) * framing.pixels_per_unit;
            // (A small phone whose HUD leaves a third of it gets the largest words there are.)
            assert!(
                smallest >= FELT_WORDS_FLOOR - 0.01 || framing.least_words == MOST_LEAST,
                "at {window}: the smallest words at {smallest} px ({framing:?})"
            );
            // Every piece with its larger words inside what is framed.
            let content = layout.content_for(framing.least_words);
            for (name, piece) in layout.pieces(framing.least_words) {
                assert!(
                    content.contains(piece.min) && content.contains(piece.max),
                    "{name}"
                );
            }
            let (free, shown) = framed(&layout, window, covered);
            assert!(
                free.inflate(0.01).contains(shown.min) && free.inflate(0.01).contains(shown.max),
                "at {window}: {shown:?} leaves {free:?}"
            );
        }
        // A phone's table writes its smallest words about twice their size, and its largest no larger than those; a
        // large window writes every word at its size.
        let phone = Framing::of(&TableLayout::portrait(), Vec2::new(390.0, 844.0), phone);
        assert!(
            phone.least_words >= 2.0 * TRAY_WORDS && phone.least_words < MOST_LEAST,
            "{phone:?}"
        );
        assert_eq!(written(18.0, phone.least_words), phone.least_words);
        let large = Framing::of(&TableLayout::landscape(), Vec2::new(1920.0, 1080.0), desk);
        assert_eq!(
            written(TRAY_WORDS, large.least_words),
            TRAY_WORDS,
            "{large:?}"
        );
        // In whole units; words over the least keep their size.
        assert_eq!(least_words_for(0.5), 26.0);
        assert_eq!(least_words_for(1.0), 13.0);
        assert_eq!(written(24.0, 13.0), 24.0);
    }

    #[test]
    fn a_window_mostly_covered_keeps_the_table_readable() {
        // A phone on its side: the bands leave a strip; the table keeps LEAST_SCALE of its size in the whole window.
        let layout = TableLayout::landscape();
        let window = Vec2::new(844.0, 390.0);
        let covered = Covered {
            top: 110.0,
            bottom: 160.0,
            ..Covered::default()
        };
        let whole = (window.x / layout.size.x).min(window.y / layout.size.y);
        let framing = Framing::of(&layout, window, covered);
        assert!(
            (framing.pixels_per_unit - whole * LEAST_SCALE).abs() < 1e-4,
            "{} px a unit, the whole window's {whole}",
            framing.pixels_per_unit
        );
    }

    #[test]
    fn the_framing_glides_to_its_target_and_stops_there() {
        let from = Framing::default();
        let to = Framing {
            pixels_per_unit: 0.5,
            centre: Vec2::new(0.0, 40.0),
            least_words: 24.0,
        };
        let mut at = from;
        let mut frames = 0;
        while at != to {
            let next = at.towards(to, 1.0 / 60.0);
            assert!(
                (next.pixels_per_unit - to.pixels_per_unit).abs()
                    <= (at.pixels_per_unit - to.pixels_per_unit).abs()
            );
            at = next;
            frames += 1;
            assert!(frames < 60, "still gliding after a second: {at:?}");
        }
        assert!(frames > 3, "a jump, not a glide: {frames} frames");
    }

    #[test]
    fn the_space_the_hud_leaves_picks_the_layout() {
        // A desktop window above its bottom band; a phone upright between its header and bar; a phone on its side
        // between the header's column and the bar's, which leave a nearly square middle: the upright table.
        assert!(!TableLayout::for_space(Vec2::new(1280.0, 490.0)).portrait);
        assert!(TableLayout::for_space(Vec2::new(390.0, 496.0)).portrait);
        assert!(TableLayout::for_space(Vec2::new(364.0, 390.0)).portrait);
        assert!(TableLayout::for_space(Vec2::new(820.0, 880.0)).portrait);
    }

    #[test]
    fn a_column_opened_for_a_while_does_not_change_the_layout() {
        // A 4:3 desktop window with its bottom band and the round log's column open at the right: the space beside
        // the column is nearly square (the upright table would show larger there), but the column goes when the log
        // closes, so the table keeps the wide layout and is framed beside the column.
        let window = Vec2::new(1280.0, 1024.0);
        let covered = Covered {
            bottom: 190.0,
            right: 330.0,
            ..Covered::default()
        };
        let beside = Vec2::new(window.x - covered.right, window.y - covered.bottom);
        assert!(TableLayout::for_space(beside).portrait);
        assert!(!TableLayout::for_space(covered.lasting_space(window)).portrait);
        // A phone on its side keeps its columns: they choose the upright table.
        let phone = Vec2::new(844.0, 390.0);
        let sideways = Covered {
            left: 204.0,
            right: 276.0,
            lasting_sides: 480.0,
            ..Covered::default()
        };
        assert!(TableLayout::for_space(sideways.lasting_space(phone)).portrait);
    }

    #[test]
    fn the_window_shape_picks_the_layout() {
        assert!(!TableLayout::for_window(1280.0, 720.0).portrait);
        assert!(!TableLayout::for_window(1920.0, 1080.0).portrait);
        assert!(TableLayout::for_window(720.0, 1280.0).portrait);
    }
}
