//! Where everything sits on the felt, for a landscape window (1280×720, 1920×1080: the same table scaled) and for a
//! phone held upright (720×1280: the seats on a deeper curve, the dealer higher up). The view reads every position
//! from here, so switching layouts moves the whole table.

use crate::engine::Spot;
use bevy::prelude::*;

/// A card on the felt, in table units.
pub const CARD_SIZE: Vec2 = Vec2::new(60.0, 84.0);

/// The table's geometry for one window shape.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct TableLayout {
    /// Table units the camera fits into the window.
    pub size: Vec2,
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
    /// The dealer's total, below the cards.
    pub dealer_label: Vec2,
    /// Centre of the felt's curve (the seats' curve is an ellipse about it).
    pub centre: Vec2,
    /// The seats' curve: half-width and depth.
    pub seat_radii: Vec2,
    /// Degrees between neighbouring seats.
    pub seat_step: f32,
    /// Radius of the felt (the rail is a little wider).
    pub felt_radius: f32,
    /// The printed rules: the curve's centre and the first line's radius.
    pub print_centre: Vec2,
    /// Radius of the first printed line; later lines lie further in.
    pub print_radius: f32,
    /// How each card of a hand sits on the one before (x points towards the middle of the table).
    pub fan: Vec2,
    /// Distance between a seat's split hands.
    pub split_gap: f32,
    /// From a seat's bet circle to its first card.
    pub hand_above_circle: f32,
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
            shoe: Vec2::new(552.0, 280.0),
            discards: Vec2::new(-552.0, 280.0),
            dealer: Vec2::new(-23.0, 212.0),
            dealer_tray: Vec2::new(0.0, 300.0),
            dealer_label: Vec2::new(0.0, 152.0),
            centre: Vec2::new(0.0, 620.0),
            seat_radii: Vec2::splat(800.0),
            seat_step: 13.0,
            felt_radius: 930.0,
            print_centre: Vec2::new(0.0, 620.0),
            print_radius: 500.0,
            fan: Vec2::new(15.0, 22.0),
            split_gap: 68.0,
            hand_above_circle: 82.0,
        }
    }

    /// The upright table: the same seven seats on a deep curve, the dealer at the top.
    pub fn portrait() -> TableLayout {
        TableLayout {
            size: Vec2::new(720.0, 1280.0),
            portrait: true,
            shoe: Vec2::new(282.0, 500.0),
            discards: Vec2::new(-282.0, 500.0),
            dealer: Vec2::new(-23.0, 430.0),
            dealer_tray: Vec2::new(0.0, 548.0),
            dealer_label: Vec2::new(0.0, 368.0),
            centre: Vec2::new(0.0, 170.0),
            seat_radii: Vec2::new(292.0, 545.0),
            seat_step: 25.0,
            felt_radius: 820.0,
            print_centre: Vec2::new(0.0, 700.0),
            print_radius: 390.0,
            fan: Vec2::new(12.0, 22.0),
            split_gap: 64.0,
            hand_above_circle: 82.0,
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

    /// With jumbo indices the fan opens wider so each card's index shows.
    pub fn with_large_index(mut self, large: bool) -> TableLayout {
        if large {
            self.fan.x += 7.0;
        }
        self
    }

    /// A seat's bet circle. Seat 0, first base, is on the dealer's left: the right of the screen.
    pub fn seat_point(&self, seat: u8) -> Vec2 {
        let angle = ((3.0 - f32::from(seat)) * self.seat_step).to_radians();
        Vec2::new(
            self.centre.x + self.seat_radii.x * angle.sin(),
            self.centre.y - self.seat_radii.y * angle.cos(),
        )
    }

    /// How each card of a seat's hand sits on the one before: up, and in towards the middle of the table.
    pub fn fan(&self, seat: u8) -> Vec2 {
        if seat < 3 {
            Vec2::new(-self.fan.x, self.fan.y)
        } else {
            self.fan
        }
    }

    /// Where a hand's first card lies, given how many hands its seat has.
    pub fn hand_base(&self, seat: u8, hand: u8, hands_in_seat: u8) -> Vec2 {
        let spread =
            (f32::from(hand) - (f32::from(hands_in_seat.max(1)) - 1.0) / 2.0) * self.split_gap;
        self.seat_point(seat) + Vec2::new(spread, self.hand_above_circle)
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

    /// The top of a hand of `cards` cards: where its total is written.
    pub fn hand_top(&self, seat: u8, hand: u8, hands_in_seat: u8, cards: usize) -> Vec2 {
        self.hand_base(seat, hand, hands_in_seat)
            + self.fan(seat) * cards.saturating_sub(1) as f32
            + Vec2::new(0.0, CARD_SIZE.y / 2.0 + 4.0)
    }

    /// Where a seat's own chips are: beside its name, under the bet circle.
    pub fn bankroll_point(&self, seat: u8) -> Vec2 {
        self.seat_point(seat) - Vec2::new(0.0, 56.0)
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

    #[test]
    fn the_window_shape_picks_the_layout() {
        assert!(!TableLayout::for_window(1280.0, 720.0).portrait);
        assert!(!TableLayout::for_window(1920.0, 1080.0).portrait);
        assert!(TableLayout::for_window(720.0, 1280.0).portrait);
    }
}
