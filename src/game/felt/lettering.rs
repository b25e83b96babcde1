//! Words on the table itself: totals, names, amounts, counts, banners and the rules printed on the felt. They are
//! laid out and rasterised by epaint, the text engine egui draws the HUD with, and drawn as meshes among the table's
//! sprites (so a card passing over the felt's print covers it). One text engine serves the whole game: Bevy's own
//! (parley, swash, ICU's tables) is not built, which keeps about a megabyte out of the browser download.
//!
//! Glyphs are rasterised at the window's real pixel density for the table (device pixels per table unit), and laid
//! out again when that changes, so the words stay sharp at any window size and device-pixel ratio.

use super::fonts::{BOLD_FAMILY, FontFile, GameFonts, font_bytes, font_definitions};
use crate::game::felt::layout::{Framing, TableLayout, written};
use bevy::asset::RenderAssetUsages;
use bevy::camera::visibility::NoFrustumCulling;
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use bevy::sprite::Anchor;
use bevy_egui::egui;
use egui::epaint::text::{Fonts, LayoutJob, TextOptions};
use std::sync::Arc;

/// Words drawn on the table. The entity's origin is the `anchor` point of the words' box (its centre by default);
/// lines are centred on each other unless the anchor is on the left or right edge. Their colour is [`Ink`].
/// (The words' mesh changes shape with them, so it is never culled by a stale bounding box.)
#[derive(Component, Clone, Debug, PartialEq)]
#[require(Transform, Visibility, Ink, NoFrustumCulling)]
pub struct Lettering {
    pub words: String,
    /// Font size in table units.
    pub size: f32,
    pub bold: bool,
    pub anchor: Anchor,
    /// Bent onto a circle of this radius around the entity's origin, centred at the circle's bottom, each glyph
    /// leaning with the curve: how the rules are printed along the felt's edge.
    pub arc: Option<f32>,
}

impl Lettering {
    pub fn new(words: impl Into<String>, size: f32, bold: bool) -> Self {
        Self {
            words: words.into(),
            size,
            bold,
            anchor: Anchor::CENTER,
            arc: None,
        }
    }

    pub fn anchored(self, anchor: Anchor) -> Self {
        Self { anchor, ..self }
    }

    /// The words laid out no smaller than `least` units ([`Framing::least_words`]); the rules printed along the
    /// felt's edge keep their size, as a table's print does.
    fn job(&self, least: f32) -> LayoutJob {
        let size = if self.arc.is_some() {
            self.size
        } else {
            written(self.size, least)
        };
        let family = if self.bold {
            egui::FontFamily::Name(BOLD_FAMILY.into())
        } else {
            egui::FontFamily::Proportional
        };
        let mut job = LayoutJob::simple(
            self.words.clone(),
            egui::FontId::new(size, family),
            egui::Color32::WHITE,
            f32::INFINITY,
        );
        if self.arc.is_some() {
            // Printed letters stand a little apart.
            job.sections[0].format.extra_letter_spacing = 2.0;
        }
        job.halign = if self.anchor.x < 0.0 {
            egui::Align::LEFT
        } else if self.anchor.x > 0.0 {
            egui::Align::RIGHT
        } else {
            egui::Align::Center
        };
        job
    }
}

/// The colour of [`Lettering`] (fades change its alpha).
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct Ink(pub Color);

impl Default for Ink {
    fn default() -> Self {
        Self(Color::WHITE)
    }
}

/// Lettering as last laid out: the mesh it is drawn with and what it was laid out from.
#[derive(Component)]
pub struct LaidOut {
    mesh: Handle<Mesh>,
    material: Handle<ColorMaterial>,
    galley: Option<Arc<egui::Galley>>,
    /// Width and height of the words' box, in table units (zero until laid out).
    pub size: Vec2,
}

/// epaint's fonts and the atlas its glyphs are rasterised into, as a Bevy image the lettering's materials share.
#[derive(Resource)]
pub struct Letterer {
    /// None until both font files are in.
    fonts: Option<Fonts>,
    atlas: Handle<Image>,
    /// Device pixels per table unit the glyphs are rasterised for.
    pixels_per_unit: f32,
    /// The least size the words were laid out at ([`Framing::least_words`]).
    least_words: f32,
}

impl Letterer {
    /// The atlas image the lettering samples.
    pub fn atlas(&self) -> &Handle<Image> {
        &self.atlas
    }
}

pub(crate) fn plugin(app: &mut App) {
    let atlas = app
        .world_mut()
        .resource_mut::<Assets<Image>>()
        .add(atlas_image(&egui::ColorImage::filled(
            [1, 1],
            egui::Color32::TRANSPARENT,
        )));
    app.insert_resource(Letterer {
        fonts: None,
        atlas,
        pixels_per_unit: 1.0,
        least_words: 0.0,
    })
    .add_systems(
        PostUpdate,
        (start_lettering, give_materials, lay_out, ink).chain(),
    );
}

/// Width and height of the atlas image, in texels. epaint's atlas starts short and doubles in height as glyphs
/// come; the image the materials sample is always this size (epaint's rows padded with transparent ones), because a
/// material keeps the texture it was prepared with, and a bigger image is a new texture (which the labels' materials
/// did not follow: glyphs were sampled half-height from the old one).
const ATLAS_SIDE: usize = 1024;

/// The text options for the table's lettering: as egui's, with an atlas no bigger than [`ATLAS_SIDE`].
fn text_options() -> TextOptions {
    TextOptions {
        max_texture_side: ATLAS_SIDE,
        ..TextOptions::default()
    }
}

/// Makes epaint's fonts once both font files are in.
fn start_lettering(
    mut letterer: ResMut<Letterer>,
    files: Res<Assets<FontFile>>,
    fonts: Option<Res<GameFonts>>,
) {
    if letterer.fonts.is_some() {
        return;
    }
    let Some((regular, bold)) = fonts.and_then(|f| font_bytes(&files, &f)) else {
        return;
    };
    letterer.fonts = Some(Fonts::new(
        text_options(),
        font_definitions(Some(regular), Some(bold)),
    ));
}

/// New lettering gets its own material (its ink) on the shared atlas, and a handle for the mesh it will be laid out
/// into. (No empty mesh is made for it meanwhile: Bevy 0.19's mesh allocator skips allocating a mesh without
/// vertices but still copies it, and logs an error each time.)
fn give_materials(
    mut commands: Commands,
    letterer: Res<Letterer>,
    meshes: Res<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    new: Query<(Entity, &Ink), Added<Lettering>>,
) {
    for (entity, ink) in &new {
        let material = materials.add(ColorMaterial {
            color: ink.0,
            texture: Some(letterer.atlas.clone()),
            alpha_mode: bevy::sprite_render::AlphaMode2d::Blend,
            ..default()
        });
        commands.entity(entity).insert((
            LaidOut {
                mesh: meshes.reserve_handle(),
                material: material.clone(),
                galley: None,
                size: Vec2::ZERO,
            },
            MeshMaterial2d(material),
        ));
    }
}

/// Device pixels per table unit in a window: the camera shows at least the layout's table (see
/// `view::camera::projection`).
pub fn pixels_per_unit(window: Option<&Window>) -> f32 {
    let Some(window) = window else {
        return 1.0;
    };
    let layout = TableLayout::for_window(window.width(), window.height());
    let exact = (window.physical_width() as f32 / layout.size.x)
        .min(window.physical_height() as f32 / layout.size.y);
    // In eighths, so a window being dragged larger does not rasterise every glyph at every size on the way.
    ((exact * 8.0).round() / 8.0).clamp(0.25, 8.0)
}

/// Lays out lettering whose words changed (all of it when the pixel density, the words' size or the atlas changed),
/// rasterising new glyphs into the atlas, and builds each one's mesh.
fn lay_out(
    mut letterer: ResMut<Letterer>,
    windows: Query<&Window>,
    framing: Option<Res<Framing>>,
    mut images: ResMut<Assets<Image>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut lettering: Query<(Entity, Ref<Lettering>, &mut LaidOut)>,
    mut commands: Commands,
) {
    let letterer = &mut *letterer;
    let Some(fonts) = letterer.fonts.as_mut() else {
        return;
    };
    let density = pixels_per_unit(windows.iter().next());
    let least = framing.map_or(0.0, |framing| framing.least_words);
    let mut everything = density != letterer.pixels_per_unit || least != letterer.least_words;
    letterer.pixels_per_unit = density;
    letterer.least_words = least;
    // A nearly full atlas starts again empty; every glyph is then rasterised anew.
    if fonts.font_atlas_fill_ratio() > 0.8 {
        *fonts = Fonts::new(text_options(), fonts.definitions().clone());
        everything = true;
    }
    fonts.begin_pass(text_options());
    let mut changed = Vec::new();
    for (entity, lettering, mut laid) in &mut lettering {
        if everything || lettering.is_changed() || laid.galley.is_none() {
            let galley = fonts
                .with_pixels_per_point(density)
                .layout_job(lettering.job(least));
            laid.size = Vec2::new(galley.rect.width(), galley.rect.height());
            laid.galley = Some(galley);
            changed.push(entity);
        }
    }
    if fonts.font_image_delta().is_some() {
        images
            .insert(&letterer.atlas, atlas_image(&fonts.image()))
            .ok();
    }
    let atlas = Vec2::splat(ATLAS_SIDE as f32);
    for entity in changed {
        let Ok((_, lettering, laid)) = lettering.get(entity) else {
            continue;
        };
        let Some(galley) = &laid.galley else {
            continue;
        };
        let Some(mesh) = galley_mesh(galley, &lettering, atlas) else {
            commands.entity(entity).remove::<Mesh2d>();
            continue;
        };
        meshes.insert(&laid.mesh, mesh).ok();
        commands.entity(entity).insert(Mesh2d(laid.mesh.clone()));
    }
}

/// Ink goes into the lettering's material.
fn ink(mut materials: ResMut<Assets<ColorMaterial>>, inks: Query<(&Ink, &LaidOut), Changed<Ink>>) {
    for (ink, laid) in &inks {
        // Only a real change touches the material (touching it has the renderer prepare it again).
        if materials
            .get(&laid.material)
            .is_some_and(|m| m.color != ink.0)
            && let Some(mut material) = materials.get_mut(&laid.material)
        {
            material.color = ink.0;
        }
    }
}

fn empty_mesh() -> Mesh {
    Mesh::new(
        PrimitiveTopology::TriangleList,
        RenderAssetUsages::default(),
    )
}

/// The galley's glyph quads as a mesh in table units (y up), placed so the anchor point of its box is the origin
/// (or bent onto the lettering's arc); None if it draws nothing (no words, or only spaces).
pub fn galley_mesh(galley: &egui::Galley, lettering: &Lettering, atlas: Vec2) -> Option<Mesh> {
    let anchor = lettering.anchor;
    let rect = galley.rect;
    // The anchor point in the galley's coordinates (y down).
    let origin = Vec2::new(
        rect.min.x + (anchor.x + 0.5) * rect.width(),
        rect.min.y + (0.5 - anchor.y) * rect.height(),
    );
    let mut positions = Vec::new();
    let mut uvs = Vec::new();
    let mut indices = Vec::new();
    for row in &galley.rows {
        let mesh = &row.visuals.mesh;
        let base = positions.len() as u32;
        for vertex in &mesh.vertices {
            let x = row.pos.x + vertex.pos.x - origin.x;
            let y = row.pos.y + vertex.pos.y - origin.y;
            positions.push([x, -y, 0.0]);
            uvs.push([vertex.uv.x / atlas.x, vertex.uv.y / atlas.y]);
        }
        indices.extend(mesh.indices.iter().map(|i| base + i));
    }
    if indices.is_empty() {
        return None;
    }
    if let Some(radius) = lettering.arc {
        bend(&mut positions, radius);
    }
    Some(
        empty_mesh()
            .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
            .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, uvs)
            .with_inserted_indices(Indices::U32(indices)),
    )
}

/// Bends straight lettering onto the bottom of a circle of `radius` around the origin: each glyph (four vertices,
/// as epaint makes them) keeps its shape and sits on the circle at its own distance along the line, turned to the
/// curve.
fn bend(positions: &mut [[f32; 3]], radius: f32) {
    for quad in positions.chunks_mut(4) {
        let centre = quad.iter().map(|p| p[0]).sum::<f32>() / quad.len() as f32;
        let angle = centre / radius;
        let (sin, cos) = angle.sin_cos();
        for p in quad.iter_mut() {
            let (dx, dy) = (p[0] - centre, p[1]);
            p[0] = radius * sin + dx * cos - dy * sin;
            p[1] = -radius * cos + dx * sin + dy * cos;
        }
    }
}

/// epaint's atlas (white glyphs, premultiplied coverage) as an image of white with the coverage as alpha.
fn atlas_image(image: &egui::ColorImage) -> Image {
    let mut data = vec![0; ATLAS_SIDE * ATLAS_SIDE * 4];
    let width = image.size[0].min(ATLAS_SIDE);
    for (y, row) in image
        .pixels
        .chunks(image.size[0].max(1))
        .take(ATLAS_SIDE)
        .enumerate()
    {
        for (x, pixel) in row.iter().take(width).enumerate() {
            let at = (y * ATLAS_SIDE + x) * 4;
            data[at..at + 4].copy_from_slice(&pixel.to_srgba_unmultiplied());
        }
    }
    Image::new(
        Extent3d {
            width: ATLAS_SIDE as u32,
            height: ATLAS_SIDE as u32,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::RENDER_WORLD,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn font(name: &str) -> Vec<u8> {
        let path = format!("{}/assets/fonts/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    fn fonts() -> Fonts {
        Fonts::new(
            text_options(),
            font_definitions(
                Some(font("DejaVuSans.ttf")),
                Some(font("DejaVuSans-Bold.ttf")),
            ),
        )
    }

    /// The mesh of `lettering` laid out at one pixel per unit, as vertex positions (x, y).
    fn laid_out(fonts: &mut Fonts, lettering: &Lettering) -> Vec<Vec2> {
        let galley = fonts
            .with_pixels_per_point(1.0)
            .layout_job(lettering.job(0.0));
        let mesh = galley_mesh(&galley, lettering, Vec2::splat(1024.0))
            .unwrap_or_else(|| panic!("{:?} drew nothing", lettering.words));
        let Some(bevy::mesh::VertexAttributeValues::Float32x3(positions)) =
            mesh.attribute(Mesh::ATTRIBUTE_POSITION)
        else {
            panic!("no positions");
        };
        positions.iter().map(|p| Vec2::new(p[0], p[1])).collect()
    }

    fn bounds(points: &[Vec2]) -> Rect {
        points
            .iter()
            .fold(Rect::from_corners(points[0], points[0]), |r, p| {
                r.union_point(*p)
            })
    }

    #[test]
    fn the_anchor_point_of_the_words_box_sits_at_the_origin() {
        let mut fonts = fonts();
        let words = |anchor| Lettering::new("Dealer shows 10", 18.0, true).anchored(anchor);
        // Four corners of glyph quads for the 13 letters that are not spaces.
        let centre = laid_out(&mut fonts, &words(Anchor::CENTER));
        assert_eq!(centre.len(), 13 * 4);
        let b = bounds(&centre);
        assert!(b.width() > 100.0 && b.height() > 10.0, "{b:?}");
        assert!(b.center().x.abs() < 2.0, "centred across: {b:?}");
        assert!(
            b.max.y < 18.0 && b.min.y > -18.0,
            "around the middle: {b:?}"
        );
        let top = bounds(&laid_out(&mut fonts, &words(Anchor::TOP_CENTER)));
        assert!(
            top.max.y <= 0.5 && top.min.y < -10.0,
            "hangs below: {top:?}"
        );
        let bottom = bounds(&laid_out(&mut fonts, &words(Anchor::BOTTOM_CENTER)));
        assert!(
            bottom.min.y >= -0.5 && bottom.max.y > 10.0,
            "stands above: {bottom:?}"
        );
        let left = bounds(&laid_out(&mut fonts, &words(Anchor::CENTER_LEFT)));
        assert!(
            left.min.x >= -0.5 && left.min.x < 3.0,
            "starts at the origin: {left:?}"
        );
        assert!((left.width() - b.width()).abs() < 0.01);
    }

    #[test]
    fn lines_are_centred_on_each_other_under_a_centred_anchor() {
        let mut fonts = fonts();
        let two = laid_out(
            &mut fonts,
            &Lettering::new("Lucky Lou\n$790", 14.0, false).anchored(Anchor::TOP_CENTER),
        );
        // "LuckyLou" is 8 glyphs, "$790" 4: the second line's quads come last.
        assert_eq!(two.len(), 12 * 4);
        let (first, second) = two.split_at(8 * 4);
        let (first, second) = (bounds(first), bounds(second));
        assert!(
            second.max.y < first.min.y + 2.0,
            "second line below the first"
        );
        assert!(first.center().x.abs() < 2.0 && second.center().x.abs() < 2.0);
        assert!(second.width() < first.width());
    }

    #[test]
    fn printed_lines_follow_the_felts_curve() {
        let mut fonts = fonts();
        let radius = 300.0;
        let mut line = Lettering::new("BLACKJACK PAYS 3 TO 2", 24.0, true);
        let straight = bounds(&laid_out(&mut fonts, &line));
        line.arc = Some(radius);
        let bent = laid_out(&mut fonts, &line);
        let glyphs: Vec<Vec2> = bent
            .chunks(4)
            .map(|quad| quad.iter().copied().sum::<Vec2>() / 4.0)
            .collect();
        assert_eq!(glyphs.len(), 17);
        for (i, glyph) in glyphs.iter().enumerate() {
            // On the circle, give or take the glyphs' own heights about the line's middle.
            assert!(
                (glyph.length() - radius).abs() < 10.0,
                "glyph {i} at {glyph}"
            );
        }
        // Left to right along the bottom of the circle, the ends higher than the middle, evenly.
        assert!(glyphs.windows(2).all(|w| w[1].x > w[0].x));
        let (first, last, middle) = (glyphs[0], glyphs[16], glyphs[8]);
        assert!(first.y > middle.y + 20.0 && last.y > middle.y + 20.0);
        assert!((first.y - last.y).abs() < 6.0 && (first.x + last.x).abs() < 12.0);
        // Bending keeps the distance along the line: the arc spans about the straight width.
        let span = 2.0 * radius * (last.x.atan2(-last.y) - first.x.atan2(-first.y)) / 2.0;
        assert!(
            (span - straight.width()).abs() < 30.0,
            "{span} vs {}",
            straight.width()
        );
    }

    #[test]
    fn glyphs_are_rasterised_at_the_windows_pixel_density_for_the_table() {
        assert_eq!(pixels_per_unit(None), 1.0);
        let window = |width, height, scale| Window {
            resolution: bevy::window::WindowResolution::new(width, height)
                .with_scale_factor_override(scale),
            ..default()
        };
        let landscape = TableLayout::for_window(1280.0, 720.0).size;
        let expected = (1280.0 / landscape.x).min(720.0 / landscape.y);
        assert!((pixels_per_unit(Some(&window(1280, 720, 1.0))) - expected).abs() <= 1.0 / 16.0);
        // A phone held upright at three device pixels per CSS pixel: the same layout as a 390×844 window, three
        // times the pixels.
        let upright = TableLayout::for_window(390.0, 844.0).size;
        let phone = (1170.0 / upright.x).min(2532.0 / upright.y);
        let got = pixels_per_unit(Some(&window(1170, 2532, 3.0)));
        assert!((got - phone).abs() <= 1.0 / 16.0, "{got} vs {phone}");
        assert!(got > 1.5 * pixels_per_unit(Some(&window(390, 844, 1.0))));
    }

    /// A world with the lettering plugin and the game's font files loading from `assets/`.
    fn lettering_app() -> App {
        let mut app = crate::game::platform::headless::with_the_games_assets();
        app.init_asset::<Image>()
            .init_asset::<Mesh>()
            .init_asset::<ColorMaterial>()
            .add_plugins((super::super::fonts::fonts_plugin, plugin));
        let assets = app.world().resource::<AssetServer>().clone();
        app.insert_resource(GameFonts {
            regular: assets.load("fonts/DejaVuSans.ttf"),
            bold: assets.load("fonts/DejaVuSans-Bold.ttf"),
        });
        app
    }

    fn mesh_of(app: &App, entity: Entity) -> Option<Mesh> {
        let mesh = app.world().get::<Mesh2d>(entity)?;
        app.world().resource::<Assets<Mesh>>().get(&mesh.0).cloned()
    }

    #[test]
    fn lettering_is_drawn_once_the_fonts_are_in_and_follows_its_words_and_ink() {
        let mut app = lettering_app();
        let words = app
            .world_mut()
            .spawn((
                Lettering::new("307 in the shoe", 13.0, false),
                Ink(Color::WHITE),
            ))
            .id();
        // However soon the fonts are in, no mesh without vertices is made for it meanwhile.
        app.update();
        let meshes = app.world().resource::<Assets<Mesh>>();
        assert!(meshes.iter().all(|(_, mesh)| mesh.count_vertices() > 0));
        for _ in 0..500 {
            app.update();
            if app.world().get::<Mesh2d>(words).is_some() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        let mesh = mesh_of(&app, words).expect("the words were never laid out");
        assert_eq!(mesh.count_vertices(), 12 * 4);
        // The glyphs are in the atlas the material samples.
        let letterer = app.world().resource::<Letterer>();
        let atlas = app
            .world()
            .resource::<Assets<Image>>()
            .get(letterer.atlas())
            .expect("the atlas");
        assert!(atlas.width() > 1 && atlas.height() > 1);
        let laid = app.world().get::<LaidOut>(words).expect("laid out");
        let material = app
            .world()
            .resource::<Assets<ColorMaterial>>()
            .get(&laid.material)
            .expect("a material");
        assert_eq!(material.texture.as_ref(), Some(letterer.atlas()));
        assert!(laid.size.x > 50.0);

        // New words, new mesh; a fade's ink reaches the material.
        app.world_mut()
            .get_mut::<Lettering>(words)
            .expect("lettering")
            .words = "306 in the shoe".into();
        app.world_mut().get_mut::<Ink>(words).expect("ink").0 = Color::srgba(1.0, 1.0, 1.0, 0.25);
        app.update();
        let after = mesh_of(&app, words).expect("still drawn");
        assert_ne!(
            after
                .attribute(Mesh::ATTRIBUTE_UV_0)
                .map(|a| a.get_bytes().to_vec()),
            mesh.attribute(Mesh::ATTRIBUTE_UV_0)
                .map(|a| a.get_bytes().to_vec()),
            "a different digit samples different glyphs"
        );
        let laid = app.world().get::<LaidOut>(words).expect("laid out");
        let alpha = app
            .world()
            .resource::<Assets<ColorMaterial>>()
            .get(&laid.material)
            .map(|m| m.color.alpha());
        assert_eq!(alpha, Some(0.25));

        // No words: nothing drawn (no empty mesh for the renderer).
        app.world_mut()
            .get_mut::<Lettering>(words)
            .expect("lettering")
            .words = String::new();
        app.update();
        assert!(app.world().get::<Mesh2d>(words).is_none());
        // Many big glyphs make epaint's atlas grow; the image the materials sample keeps its size (a bigger image
        // would be a new texture, which materials prepared earlier do not follow).
        for size in [40.0, 60.0, 80.0] {
            app.world_mut().spawn(Lettering::new(
                "ABCDEFGHIJKLMNOPQRSTUVWXYZ abcdefghijklmnopqrstuvwxyz 0123456789",
                size,
                true,
            ));
        }
        app.update();
        let letterer = app.world().resource::<Letterer>();
        let grown = letterer
            .fonts
            .as_ref()
            .map(|f| f.font_image_size())
            .expect("fonts");
        assert!(grown[1] > 128, "epaint's atlas grew: {grown:?}");
        let atlas = app
            .world()
            .resource::<Assets<Image>>()
            .get(letterer.atlas())
            .expect("the atlas");
        assert_eq!(
            (atlas.width(), atlas.height()),
            (ATLAS_SIDE as u32, ATLAS_SIDE as u32)
        );
        // At no point was a mesh without vertices made (Bevy 0.19's renderer logs an error for each one).
        let meshes = app.world().resource::<Assets<Mesh>>();
        assert!(meshes.iter().all(|(_, mesh)| mesh.count_vertices() > 0));
    }
}
