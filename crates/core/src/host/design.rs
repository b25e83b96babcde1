//! The table's design where the game and the asset tool must agree: the casino's chips and their colours, and how
//! the card and chip atlases are cut. `holecard-assets` draws the atlases from these, and the game cuts and tints
//! them with the same numbers, so a chip or a card cell is defined once.

use crate::engine::{Card, Cents, Suit};
use crate::host::level::CardBack;

/// One card in a deck atlas, in pixels (the table draws cards at half this, so they stay crisp at 1920×1080).
pub const CARD_CELL: (u32, u32) = (120, 168);
/// One chip in the chip atlas, in pixels: the chip seen from the player's chair, its top face above an edge band as
/// thick as the offset between chips in a stack.
pub const CHIP_CELL: (u32, u32) = (64, 56);
/// Columns of a deck atlas: one per rank.
pub const DECK_COLUMNS: u32 = 13;

/// The colour of a side bet's spot, on the felt and on its button in the betting bar, so one is found by the other.
pub const fn side_colour(bet: crate::engine::side::SideBet) -> [u8; 3] {
    use crate::engine::side::SideBet;
    match bet {
        SideBet::TwentyOnePlusThree => [0x4f, 0x9d, 0xff],
        SideBet::PerfectPairs => [0xff, 0x6b, 0x8a],
        SideBet::LuckyLadies => [0xff, 0xd2, 0x4a],
        SideBet::Buster => [0xff, 0x8c, 0x2e],
    }
}

/// The casino's chip values, smallest first: the chip atlas's order, left to right.
pub const CHIP_VALUES: [Cents; 8] = [
    Cents::units(1),
    Cents::units(5),
    Cents::units(25),
    Cents::units(100),
    Cents::units(500),
    Cents::units(1_000),
    Cents::units(5_000),
    Cents::units(25_000),
];

/// A chip's colours, as sRGB bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChipColours {
    /// The chip's body.
    pub body: [u8; 3],
    /// The spots round its edge and rim.
    pub spot: [u8; 3],
    /// The ink of its printed value.
    pub ink: [u8; 3],
}

/// A chip's colours by casino convention for the common values (a value between chips takes the next chip up's).
pub fn chip_colours(value: Cents) -> ChipColours {
    let (body, spot, ink) = match value.0 / 100 {
        0..=1 => (0xf2f0e6, 0x2f6fd0, 0x2f6fd0),
        2..=5 => (0xc81e2c, 0xffffff, 0xc81e2c),
        6..=25 => (0x1f8a3c, 0xffffff, 0x1f8a3c),
        26..=100 => (0x1c1c22, 0xffffff, 0x1c1c22),
        101..=500 => (0x6b2f9e, 0xf4d35e, 0x6b2f9e),
        501..=1_000 => (0xe8b01a, 0x1c1c22, 0x8a5a00),
        1_001..=5_000 => (0x8a4b23, 0xf2f0e6, 0x8a4b23),
        _ => (0x2f6fd0, 0xf4d35e, 0x1d3f80),
    };
    let bytes = |rgb: u32| {
        let [_, r, g, b] = rgb.to_be_bytes();
        [r, g, b]
    };
    ChipColours {
        body: bytes(body),
        spot: bytes(spot),
        ink: bytes(ink),
    }
}

/// A card's cell in a deck atlas: its suit's row (in [`Suit::ALL`]'s order), its rank's column.
pub fn face_cell(card: Card) -> usize {
    let row = Suit::ALL
        .iter()
        .position(|&s| s == card.suit())
        .unwrap_or(0);
    row * DECK_COLUMNS as usize + (card.rank() as usize - 1)
}

/// A back's cell, in the row under the faces.
pub fn back_cell(back: CardBack) -> usize {
    4 * DECK_COLUMNS as usize
        + match back {
            CardBack::Crimson => 0,
            CardBack::Navy => 1,
        }
}

/// Where a cell of a deck atlas starts, in pixels from the atlas's top left.
pub fn card_cell_origin(cell: usize) -> (u32, u32) {
    let cell = cell as u32;
    (
        cell % DECK_COLUMNS * CARD_CELL.0,
        cell / DECK_COLUMNS * CARD_CELL.1,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Rank;

    #[test]
    fn every_card_has_its_own_cell_and_the_backs_follow() {
        let mut cells: Vec<usize> = Suit::ALL
            .iter()
            .flat_map(|&suit| Rank::ALL.map(|rank| face_cell(Card::new(0, suit, rank))))
            .collect();
        cells.sort_unstable();
        cells.dedup();
        assert_eq!(cells, (0..52).collect::<Vec<_>>());
        assert_eq!(back_cell(CardBack::Crimson), 52);
        assert_eq!(back_cell(CardBack::Navy), 53);
        assert_eq!(face_cell(Card::new(0, Suit::Spades, Rank::Ace)), 39);
        assert_eq!(card_cell_origin(back_cell(CardBack::Navy)), (120, 4 * 168));
    }

    #[test]
    fn each_chip_has_its_own_colour() {
        let mut bodies: Vec<[u8; 3]> = CHIP_VALUES.iter().map(|&v| chip_colours(v).body).collect();
        bodies.dedup();
        assert_eq!(bodies.len(), CHIP_VALUES.len());
        assert_eq!(chip_colours(Cents::units(5)).body, [0xc8, 0x1e, 0x2c]);
    }
}
