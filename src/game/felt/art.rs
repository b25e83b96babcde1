//! The table's pictures: the deck atlases, the chips and the table's fittings that `holecard-assets` draws into
//! `assets/`, loaded behind the Loading screen, and the player's choice of how cards are printed.

use crate::engine::{Card, Cents};
use crate::game::felt::asset_tracking::Preload;
use crate::game::model::frames::{DrawWhile, Redraw};
pub use crate::game::model::settings::Look;
use crate::host::design;
use crate::host::level::CardBack;
use bevy::asset::RenderAssetUsages;
use bevy::image::ImageLoaderSettings;
use bevy::prelude::*;

pub use crate::host::design::{back_cell, face_cell};

/// One card in a deck atlas, in pixels (the table draws cards at half this): `design::CARD_CELL`.
pub const CARD_CELL: UVec2 = UVec2::new(design::CARD_CELL.0, design::CARD_CELL.1);
/// One chip in the chip atlas, in pixels: `design::CHIP_CELL`.
pub const CHIP_CELL: UVec2 = UVec2::new(design::CHIP_CELL.0, design::CHIP_CELL.1);
/// The chip atlas's values, in its order: the casino's chips.
pub const CHIP_ORDER: [Cents; 8] = design::CHIP_VALUES;

/// Every picture the table uses.
#[derive(Resource, Clone)]
pub struct Art {
    /// Deck atlases: classic, four-colour, large-index, large-index four-colour. Only the deck the look prints
    /// with is loaded at the start (each is 5 MB of pixels to decode and send to the GPU, which in a browser is time
    /// the player waits); another is loaded the first time the look asks for it, and is blank until it is in.
    pub decks: [Handle<Image>; 4],
    /// The cells of a deck atlas: 13 ranks by 4 suits, then the backs.
    pub card_cells: Handle<TextureAtlasLayout>,
    /// One chip per value.
    pub chips: Handle<Image>,
    /// The cells of the chip atlas.
    pub chip_cells: Handle<TextureAtlasLayout>,
    /// The cloth, tinted by the level's colour.
    pub felt: Handle<Image>,
    /// A bet circle.
    pub ring: Handle<Image>,
    /// The dealing shoe.
    pub shoe: Handle<Image>,
    /// The discard holder.
    pub discard: Handle<Image>,
    /// The dealer's chip tray.
    pub chip_tray: Handle<Image>,
    /// The ribbon banners are written on.
    pub banner: Handle<Image>,
    /// The glow round the hand in turn.
    pub glow: Handle<Image>,
}

/// Paths of every picture, as the game loads them (and as the asset test checks them).
pub const PICTURES: [&str; 12] = [
    "cards/classic.png",
    "cards/four-colour.png",
    "cards/large-index.png",
    "cards/large-index-four-colour.png",
    "chips.png",
    "table/felt.png",
    "table/ring.png",
    "table/shoe.png",
    "table/discard.png",
    "table/chip-tray.png",
    "table/banner.png",
    "table/glow.png",
];

impl Art {
    /// Every picture a placeholder, for a table run without a screen (headless frame costs and tests).
    pub fn placeholder() -> Art {
        Art {
            decks: std::array::from_fn(|_| Handle::default()),
            card_cells: Handle::default(),
            chips: Handle::default(),
            chip_cells: Handle::default(),
            felt: Handle::default(),
            ring: Handle::default(),
            shoe: Handle::default(),
            discard: Handle::default(),
            chip_tray: Handle::default(),
            banner: Handle::default(),
            glow: Handle::default(),
        }
    }

    /// The deck atlas for a look.
    pub fn deck(&self, look: Look) -> Handle<Image> {
        self.decks[deck_index(look)].clone()
    }

    /// A card's face as a sprite of `size`.
    pub fn face(&self, look: Look, card: Card, size: Vec2) -> Sprite {
        self.card_sprite(look, face_cell(card), size)
    }

    /// A card back as a sprite of `size`.
    pub fn back(&self, look: Look, back: CardBack, size: Vec2) -> Sprite {
        self.card_sprite(look, back_cell(back), size)
    }

    fn card_sprite(&self, look: Look, index: usize, size: Vec2) -> Sprite {
        Sprite {
            image: self.deck(look),
            texture_atlas: Some(TextureAtlas {
                layout: self.card_cells.clone(),
                index,
            }),
            custom_size: Some(size),
            ..default()
        }
    }

    /// A chip of `value` as a sprite of `size` (the nearest smaller chip for a value the casino has no chip for).
    pub fn chip(&self, value: Cents, size: Vec2) -> Sprite {
        let index = CHIP_ORDER.iter().rposition(|&c| c <= value).unwrap_or(0);
        Sprite {
            image: self.chips.clone(),
            texture_atlas: Some(TextureAtlas {
                layout: self.chip_cells.clone(),
                index,
            }),
            custom_size: Some(size),
            ..default()
        }
    }
}

/// Which of [`Art::decks`] (and of the first four [`PICTURES`]) a look prints with.
pub fn deck_index(look: Look) -> usize {
    usize::from(look.four_colour) + 2 * usize::from(look.large_index)
}

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Look>()
        .add_systems(Startup, load.after(crate::game::felt::fonts::preload_fonts))
        .add_systems(
            PreUpdate,
            load_chosen_deck.run_if(resource_exists::<Art>.and_then(resource_changed::<Look>)),
        )
        .draw_while(Redraw::EveryFrame, deck_on_its_way);
}

/// The deck the look asks for is still loading (a change in Settings shows once it has come).
fn deck_on_its_way(art: Option<Res<Art>>, look: Res<Look>, assets: Res<AssetServer>) -> bool {
    art.is_some_and(|art| {
        let deck = &art.decks[deck_index(*look)];
        *deck != Handle::default()
            && crate::game::felt::asset_tracking::on_its_way(&assets, deck.id())
    })
}

/// Starts loading a picture. Its pixels go to the GPU and are not kept in the game's memory as well: nothing reads
/// them back, and copying them is time a browser player waits through.
fn load_picture(assets: &AssetServer, path: &'static str) -> Handle<Image> {
    assets
        .load_builder()
        .with_settings(|settings: &mut ImageLoaderSettings| {
            settings.asset_usage = RenderAssetUsages::RENDER_WORLD;
        })
        .load(path)
}

/// Starts loading every picture but the decks the look does not print with, and lists them for the Loading screen.
pub fn load(
    mut commands: Commands,
    assets: Res<AssetServer>,
    mut layouts: ResMut<Assets<TextureAtlasLayout>>,
    mut preload: ResMut<Preload>,
    look: Res<Look>,
) {
    let chosen = deck_index(*look);
    let handles: Vec<Handle<Image>> = PICTURES
        .iter()
        .enumerate()
        .map(|(i, &path)| {
            if i < 4 && i != chosen {
                return Handle::default();
            }
            let handle = load_picture(&assets, path);
            preload.add(path, handle.clone().untyped());
            handle
        })
        .collect();
    let picture = |i: usize| handles[i].clone();
    commands.insert_resource(Art {
        decks: [picture(0), picture(1), picture(2), picture(3)],
        card_cells: layouts.add(TextureAtlasLayout::from_grid(CARD_CELL, 13, 5, None, None)),
        chips: picture(4),
        chip_cells: layouts.add(TextureAtlasLayout::from_grid(
            CHIP_CELL,
            CHIP_ORDER.len() as u32,
            1,
            None,
            None,
        )),
        felt: picture(5),
        ring: picture(6),
        shoe: picture(7),
        discard: picture(8),
        chip_tray: picture(9),
        banner: picture(10),
        glow: picture(11),
    });
}

/// Loads a deck the first time the look asks for it (the player changed it in Settings).
pub fn load_chosen_deck(look: Res<Look>, mut art: ResMut<Art>, assets: Res<AssetServer>) {
    let index = deck_index(*look);
    if art.decks[index] == Handle::default() {
        art.decks[index] = load_picture(&assets, PICTURES[index]);
    }
}
