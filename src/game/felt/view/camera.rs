//! The camera: its projection fitted to the window, and its rest under the loading cover.

use super::*;

/// The camera. No multisampling: everything on the table is a textured sprite whose edges are already soft in its
/// picture, and four samples a pixel made each frame several times dearer where WebGL runs in software.
pub(super) fn spawn_camera(mut commands: Commands) {
    commands.spawn((
        Camera2d,
        bevy::render::view::Msaa::Off,
        projection(&TableLayout::default()),
    ));
}

/// While the assets load (under the loading screen), one invisible piece of each kind the table draws — a sprite, a
/// textured mesh, a line of lettering — so the renderer prepares their shaders then rather than on the table's
/// first frame. Where WebGL runs in software each of those costs a noticeable part of a second.
pub(super) fn warm_up(
    mut commands: Commands,
    letterer: Res<crate::game::felt::lettering::Letterer>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    let unseen = Color::NONE;
    commands.spawn((
        Name::new("Warm-up sprite"),
        Sprite::from_color(unseen, Vec2::ONE),
        DespawnOnExit(Screen::Loading),
    ));
    // Textured meshes are drawn blended (the lettering) and opaque (the felt).
    let circle = meshes.add(Circle::new(1.0).mesh().resolution(8));
    for alpha_mode in [AlphaMode2d::Blend, AlphaMode2d::Opaque] {
        commands.spawn((
            Name::new("Warm-up mesh"),
            Mesh2d(circle.clone()),
            MeshMaterial2d(materials.add(ColorMaterial {
                color: unseen,
                texture: Some(letterer.atlas().clone()),
                alpha_mode,
                ..default()
            })),
            DespawnOnExit(Screen::Loading),
        ));
    }
    commands.spawn((
        Name::new("Warm-up lettering"),
        text(false, 1.0, unseen, "."),
        DespawnOnExit(Screen::Loading),
    ));
}

/// Frames the camera draws under the browser page's cover before it rests: enough for the warm-up pieces to be
/// prepared (a frame for their pictures, one for their shaders) and drawn.
#[cfg(any(target_arch = "wasm32", test))]
pub(super) const WARM_UP_FRAMES: u32 = 6;

/// In the browser the page hides the canvas under its own loading bar until the game is ready, so the game's loading
/// screen is never seen there. After the warm-up the camera rests until the table: the one thread the page and the
/// game share goes to downloading and decoding, and the renderer (in software on many machines) is not handed frames
/// nobody sees, which it would still be drawing when the table's first frame comes.
#[cfg(any(target_arch = "wasm32", test))]
pub(super) fn rest_under_cover(app: &mut App) {
    app.add_systems(Update, rest_after_warm_up.run_if(in_state(Screen::Loading)))
        .add_systems(OnExit(Screen::Loading), wake_camera);
}

#[cfg(any(target_arch = "wasm32", test))]
pub(super) fn rest_after_warm_up(
    mut frames: Local<u32>,
    mut cameras: Query<&mut Camera, With<Camera2d>>,
) {
    *frames += 1;
    if *frames == WARM_UP_FRAMES {
        for mut camera in &mut cameras {
            camera.is_active = false;
        }
    }
}

/// The table is drawn from its first frame.
#[cfg(any(target_arch = "wasm32", test))]
pub(super) fn wake_camera(mut cameras: Query<&mut Camera, With<Camera2d>>) {
    for mut camera in &mut cameras {
        camera.is_active = true;
    }
}

/// The camera fits the layout's table into the window, whatever its size (before the HUD is measured: see
/// [`fit_layout`]).
pub(super) fn projection(layout: &TableLayout) -> Projection {
    Projection::Orthographic(OrthographicProjection {
        scaling_mode: bevy::camera::ScalingMode::AutoMin {
            min_width: layout.size.x,
            min_height: layout.size.y,
        },
        ..OrthographicProjection::default_2d()
    })
}

/// Picks the layout for the shape of what the HUD's lasting bands leave of the window (a phone on its side, with the
/// HUD in a column at each side, leaves an upright middle), and the card style.
pub(super) fn fit_layout(
    windows: Query<&Window>,
    (look, covered): (Res<Look>, Res<Covered>),
    mut layout: ResMut<TableLayout>,
) {
    let Ok(window) = windows.single() else {
        return;
    };
    let space = covered.lasting_space(Vec2::new(window.width(), window.height()));
    let wanted = TableLayout::for_space(space).with_large_index(look.large_index);
    if *layout != wanted {
        *layout = wanted;
    }
}

/// Frames the table in what the HUD leaves of the window ([`Covered`]). It runs after egui's pass, which measures
/// the HUD, and before the camera's and the transforms' update, so a frame's table and HUD agree from the table's
/// first frame. The camera glides to a new framing when a band of the HUD changes, and jumps to it when the window
/// changes shape, the table takes the other layout, the HUD is first measured, or the table is opened again.
pub(super) fn frame_table(
    windows: Query<&Window>,
    (layout, covered, time): (Res<TableLayout>, Res<Covered>, Res<Time<Real>>),
    mut framing: ResMut<Framing>,
    mut cameras: Query<(&mut Projection, &mut Transform), With<Camera2d>>,
    (mut window_was, mut covered_was, mut upright_was): (Local<Vec2>, Local<Covered>, Local<bool>),
) {
    let Ok(window) = windows.single() else {
        return;
    };
    let size = Vec2::new(window.width(), window.height());
    if size.x < 1.0 || size.y < 1.0 {
        return;
    }
    let reshaped = *window_was != size
        || *covered_was == Covered::default()
        || *upright_was != layout.portrait
        || *framing == Framing::default();
    *window_was = size;
    *covered_was = *covered;
    *upright_was = layout.portrait;
    let target = Framing::of(&layout, size, *covered);
    let next = if reshaped {
        target
    } else {
        framing.towards(target, time.delta_secs())
    };
    if *framing != next {
        *framing = next;
    }
    // The window shows `size / pixels_per_unit` table units about the framing's centre.
    let shown = size / framing.pixels_per_unit;
    for (mut projection, mut transform) in &mut cameras {
        use bevy::camera::ScalingMode;
        let fixed = ScalingMode::Fixed {
            width: shown.x,
            height: shown.y,
        };
        if let Projection::Orthographic(orthographic) = &mut *projection {
            let same = matches!(orthographic.scaling_mode, ScalingMode::Fixed { width, height }
                if width == shown.x && height == shown.y);
            if !same {
                orthographic.scaling_mode = fixed;
            }
        } else {
            *projection = Projection::Orthographic(OrthographicProjection {
                scaling_mode: fixed,
                ..OrthographicProjection::default_2d()
            });
        }
        let at = framing.centre.extend(transform.translation.z);
        if transform.translation != at {
            transform.translation = at;
        }
    }
}

/// The table opened (again): its first frame is framed at once, not glided to from where the last table was framed.
pub(super) fn forget_framing(mut framing: ResMut<Framing>) {
    *framing = Framing::default();
}
