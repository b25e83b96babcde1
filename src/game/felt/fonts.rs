//! The game's two fonts (DejaVu Sans, regular and bold, under `assets/`): loaded as checked font files first of the
//! preload, and given to egui (the HUD) and to the table's lettering alike. egui's own fonts are not built in (they
//! would add 1.4 MB to the browser download).

use super::asset_tracking::Preload;
use bevy::asset::{AssetLoader, LoadContext, io::Reader};
use bevy::prelude::*;
use bevy_egui::egui;
use std::sync::Arc;

/// A font file as loaded: its bytes, checked to be a TrueType/OpenType font.
#[derive(Asset, TypePath, Clone, Debug)]
pub struct FontFile(pub Arc<[u8]>);

/// Loads `.ttf` and `.otf` files as [`FontFile`]s; a file that is not a font fails to load, naming what is wrong.
#[derive(Default, TypePath)]
pub struct FontFileLoader;

/// A font file that could not be read or is not a font.
#[derive(Debug, thiserror::Error)]
pub enum FontFileError {
    #[error("could not read the font file: {0}")]
    Read(#[from] std::io::Error),
    #[error("not a TrueType or OpenType font: {0}")]
    NotAFont(String),
}

impl AssetLoader for FontFileLoader {
    type Asset = FontFile;
    type Settings = ();
    type Error = FontFileError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        _context: &mut LoadContext<'_>,
    ) -> Result<FontFile, FontFileError> {
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes).await?;
        check_font(&bytes)?;
        Ok(FontFile(bytes.into()))
    }

    fn extensions(&self) -> &[&str] {
        &["ttf", "otf"]
    }
}

/// epaint stops the program on a font it cannot parse, so every font is parsed once here first.
pub fn check_font(bytes: &[u8]) -> Result<(), FontFileError> {
    skrifa::FontRef::new(bytes)
        .map(|_| ())
        .map_err(|e| FontFileError::NotAFont(e.to_string()))
}

/// A font read for measuring text: parsed once, then asked of as many texts as needed.
pub struct TextWidths<'a> {
    per_em: f32,
    glyphs: skrifa::metrics::GlyphMetrics<'a>,
    charmap: skrifa::charmap::Charmap<'a>,
}

impl<'a> TextWidths<'a> {
    /// The font `font` (a font file's bytes), read; None for bytes that are not a font.
    pub fn of(font: &'a [u8]) -> Option<TextWidths<'a>> {
        use skrifa::MetadataProvider;
        use skrifa::instance::{LocationRef, Size};
        let font = skrifa::FontRef::new(font).ok()?;
        let per_em = f32::from(
            font.metrics(Size::unscaled(), LocationRef::default())
                .units_per_em,
        );
        (per_em > 0.0).then(|| TextWidths {
            per_em,
            glyphs: font.glyph_metrics(Size::unscaled(), LocationRef::default()),
            charmap: font.charmap(),
        })
    }

    /// How wide `text` is, in ems: its characters' advances added up (without kerning, which only narrows pairs); a
    /// character the font lacks counts as its missing-glyph box.
    pub fn ems(&self, text: &str) -> f32 {
        let units: f32 = text
            .chars()
            .map(|ch| {
                let glyph = self.charmap.map(ch).unwrap_or(skrifa::GlyphId::NOTDEF);
                self.glyphs.advance_width(glyph).unwrap_or(0.0)
            })
            .sum();
        units / self.per_em
    }
}

/// The game's fonts, loaded on the Loading screen: the HUD and the felt are printed in them.
#[derive(Resource, Clone)]
pub struct GameFonts {
    /// Body text.
    pub regular: Handle<FontFile>,
    /// Card indices, totals, banners.
    pub bold: Handle<FontFile>,
}

/// The bold face's family name in egui's font definitions.
pub const BOLD_FAMILY: &str = "bold";

/// egui's fonts from the bytes of the game's regular and bold font files (either may be missing): the HUD and the
/// table's lettering both use these.
pub fn font_definitions(regular: Option<Vec<u8>>, bold: Option<Vec<u8>>) -> egui::FontDefinitions {
    let mut definitions = egui::FontDefinitions::default();
    for (name, data, family) in [
        ("DejaVuSans", regular, egui::FontFamily::Proportional),
        (
            "DejaVuSans-Bold",
            bold,
            egui::FontFamily::Name(BOLD_FAMILY.into()),
        ),
    ] {
        let Some(data) = data else {
            continue;
        };
        definitions
            .font_data
            .insert(name.to_string(), Arc::new(egui::FontData::from_owned(data)));
        definitions
            .families
            .entry(family)
            .or_default()
            .insert(0, name.to_string());
    }
    // The bold family falls back on the regular one for anything it lacks, and egui's monospace text (which the HUD
    // does not choose, but egui's own widgets may) is drawn in it too.
    let proportional = definitions
        .families
        .get(&egui::FontFamily::Proportional)
        .cloned()
        .unwrap_or_default();
    for family in [
        egui::FontFamily::Name(BOLD_FAMILY.into()),
        egui::FontFamily::Monospace,
    ] {
        definitions
            .families
            .entry(family)
            .or_default()
            .extend(proportional.iter().cloned());
    }
    definitions
}

/// Both font files' bytes, once both are in.
pub fn font_bytes(files: &Assets<FontFile>, fonts: &GameFonts) -> Option<(Vec<u8>, Vec<u8>)> {
    let bytes = |handle: &Handle<FontFile>| files.get(handle).map(|f| f.0.to_vec());
    Some((bytes(&fonts.regular)?, bytes(&fonts.bold)?))
}

/// Registers the font asset and its loader (the game's and the asset tests' apps both load fonts).
pub fn fonts_plugin(app: &mut App) {
    app.init_asset::<FontFile>()
        .register_asset_loader(FontFileLoader);
}

/// The game's fonts, under `assets/`: the HUD and the felt are printed in them.
pub const REGULAR: &str = "fonts/DejaVuSans.ttf";
pub const BOLD: &str = "fonts/DejaVuSans-Bold.ttf";

/// The fonts, first of the preload.
pub fn preload_fonts(
    mut commands: Commands,
    assets: Res<AssetServer>,
    mut preload: ResMut<Preload>,
) {
    let regular: Handle<FontFile> = assets.load(REGULAR);
    let bold: Handle<FontFile> = assets.load(BOLD);
    preload.add(REGULAR, regular.clone().untyped());
    preload.add(BOLD, bold.clone().untyped());
    commands.insert_resource(GameFonts { regular, bold });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn font(name: &str) -> Vec<u8> {
        let path = format!("{}/assets/fonts/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    #[test]
    fn font_files_are_checked_before_egui_sees_them() {
        assert!(check_font(&font("DejaVuSans.ttf")).is_ok());
        let png = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/chips.png"))
            .expect("the chips picture");
        let error = check_font(&png).expect_err("a PNG is not a font");
        assert!(
            error
                .to_string()
                .starts_with("not a TrueType or OpenType font")
        );
        assert!(check_font(&[]).is_err());
    }

    #[test]
    fn a_text_is_measured_in_ems_of_its_font() {
        let regular = font("DejaVuSans.ttf");
        let widths = TextWidths::of(&regular).expect("a font");
        let width = |text: &str| widths.ems(text);
        // DejaVu Sans: "Lucky Lou" 4.96 ems as Chromium lays it out with kerning, 5.03 without; an "i" 0.28, a "W"
        // 0.99.
        assert!(
            (width("Lucky Lou") - 5.03).abs() < 0.01,
            "{}",
            width("Lucky Lou")
        );
        assert!((width("i") - 0.278).abs() < 0.01);
        assert!((width("W") - 0.989).abs() < 0.01);
        assert_eq!(width(""), 0.0);
        // A character the font lacks takes the room of its missing-glyph box.
        assert!(width("\u{10FFFD}") > 0.0);
        assert!(TextWidths::of(b"not a font").is_none());
    }
}
