//! Eased motion on Bevy's own curves: glides (cards from the shoe, split hands sliding apart), fades (the
//! reduced-motion setting's stand-in for every move), chip flights between piles, and banners that pop and fade.
//! Every duration is given at normal speed and scaled by the table's speed; instant speed skips to the end.

use crate::game::model::settings::Speed;
use bevy::prelude::*;

/// Moves an entity to `to` along an eased curve, tilted at the start and settling flat.
#[derive(Component, Debug, Clone)]
pub struct Glide {
    from: Vec3,
    /// Where it is going.
    pub to: Vec3,
    t: f32,
    seconds: f32,
    tilt: f32,
}

impl Glide {
    /// Already where it belongs.
    pub fn at(place: Vec3) -> Glide {
        Glide {
            from: place,
            to: place,
            t: 0.0,
            seconds: 0.0,
            tilt: 0.0,
        }
    }

    /// Sets off from `now` towards `target`, taking `seconds`, tilted by `tilt` radians at the start.
    pub fn retarget(&mut self, now: Vec3, target: Vec3, seconds: f32, tilt: f32) {
        *self = Glide {
            from: now,
            to: target,
            t: 0.0,
            seconds,
            tilt,
        };
    }

    /// Still travelling.
    pub fn moving(&self) -> bool {
        self.t < self.seconds
    }
}

/// Fades an entity (its sprite or text and its children's) from one opacity to another.
#[derive(Component, Debug, Clone)]
pub struct Fade {
    from: f32,
    to: f32,
    t: f32,
    seconds: f32,
}

impl Fade {
    /// From invisible to fully shown over `seconds`.
    pub fn r#in(seconds: f32) -> Fade {
        Fade {
            from: 0.0,
            to: 1.0,
            t: 0.0,
            seconds,
        }
    }
}

/// Chips on their way from one pile to another. The piles draw them as still at the source until the flight
/// leaves, and not yet at the destination until it lands.
#[derive(Component, Debug, Clone)]
pub struct Flight {
    /// The pile they leave.
    pub source: Entity,
    /// The pile they land on.
    pub destination: Entity,
    /// How much.
    pub amount: crate::engine::Cents,
    from: Vec3,
    to: Vec3,
    /// Seconds before it leaves.
    delay: f32,
    t: f32,
    seconds: f32,
    /// Fade in at the destination instead of flying.
    still: bool,
}

impl Flight {
    /// Chips worth `amount` from `source` (at `from`) to `destination` (at `to`), leaving after `delay`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        source: Entity,
        destination: Entity,
        amount: crate::engine::Cents,
        from: Vec3,
        to: Vec3,
        delay: f32,
        seconds: f32,
        still: bool,
    ) -> Flight {
        Flight {
            source,
            destination,
            amount,
            from,
            to,
            delay,
            t: 0.0,
            seconds,
            still,
        }
    }

    /// Has not left its source yet.
    pub fn waiting(&self) -> bool {
        self.delay > 0.0
    }

    /// Where the chips are when they start (the flight is spawned there).
    pub fn start(&self) -> Vec3 {
        if self.still { self.to } else { self.from }
    }
}

/// A banner ("Blackjack!", "Bust", "Push") that pops up over a hand, holds, and fades away.
#[derive(Component, Debug, Clone)]
pub struct Banner {
    t: f32,
    pop: f32,
    hold: f32,
    fade: f32,
    /// Size it settles at.
    scale: f32,
    /// Fade in and out without the pop.
    still: bool,
}

impl Banner {
    /// A banner at `scale`, its timings at `speed`.
    pub fn new(scale: f32, speed: Speed, still: bool) -> Banner {
        Banner {
            t: 0.0,
            pop: speed.seconds(0.25),
            hold: speed.seconds(1.1).max(0.4),
            fade: speed.seconds(0.35),
            scale,
            still,
        }
    }
}

pub(crate) fn plugin(app: &mut App) {
    use crate::game::model::frames::{DrawWhile, Redraw};
    use crate::game::model::screen::Screen;
    app.add_systems(
        Update,
        (glide, fade, fly, show_banners)
            .in_set(Animate)
            .run_if(in_state(Screen::Table)),
    )
    .draw_while(Redraw::EveryFrame, in_state(Screen::Table).and_then(moving));
}

/// A fade, a chip's flight or a banner.
type UnderWay = Or<(With<Fade>, With<Flight>, With<Banner>)>;

/// Something is under way: a card gliding (or not yet where it goes), a fade, a chip's flight, a banner. The table's
/// clock stopped (the pause menu) stops them all.
fn moving(
    time: Res<Time<Virtual>>,
    glides: Query<(&Glide, &Transform)>,
    under_way: Query<(), UnderWay>,
) -> bool {
    !time.is_paused()
        && (!under_way.is_empty()
            || glides
                .iter()
                .any(|(glide, transform)| glide.moving() || transform.translation != glide.to))
}

/// The systems that animate; the view sets targets before them.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct Animate;

/// How far along an eased curve a time is.
fn eased(ease: EaseFunction, t: f32, seconds: f32) -> f32 {
    if seconds <= 0.0 {
        return 1.0;
    }
    EasingCurve::new(0.0, 1.0, ease).sample_clamped((t / seconds).clamp(0.0, 1.0))
}

fn glide(time: Res<Time>, mut moving: Query<(&mut Glide, &mut Transform)>) {
    for (mut glide, mut transform) in &mut moving {
        if !glide.moving() {
            if transform.translation != glide.to {
                transform.translation = glide.to;
                transform.rotation = Quat::IDENTITY;
            }
            continue;
        }
        glide.t += time.delta_secs();
        let e = eased(EaseFunction::CubicOut, glide.t, glide.seconds);
        let lift = if e < 1.0 { 20.0 } else { 0.0 };
        transform.translation = glide.from.lerp(glide.to, e).with_z(glide.to.z + lift);
        transform.rotation = Quat::from_rotation_z(glide.tilt * (1.0 - e));
    }
}

/// Sets the opacity of an entity's sprite or text and its children's.
fn set_alpha(
    entity: Entity,
    alpha: f32,
    children: &Query<&Children>,
    sprites: &mut Query<&mut Sprite>,
    texts: &mut Query<&mut crate::game::felt::lettering::Ink>,
) {
    if let Ok(mut sprite) = sprites.get_mut(entity) {
        sprite.color.set_alpha(alpha);
    }
    if let Ok(mut text) = texts.get_mut(entity) {
        text.0.set_alpha(alpha);
    }
    if let Ok(kids) = children.get(entity) {
        for &kid in kids {
            set_alpha(kid, alpha, children, sprites, texts);
        }
    }
}

fn fade(
    time: Res<Time>,
    mut commands: Commands,
    mut fading: Query<(Entity, &mut Fade)>,
    children: Query<&Children>,
    mut sprites: Query<&mut Sprite>,
    mut texts: Query<&mut crate::game::felt::lettering::Ink>,
) {
    for (entity, mut fade) in &mut fading {
        fade.t += time.delta_secs();
        let e = eased(EaseFunction::SineInOut, fade.t, fade.seconds);
        let alpha = fade.from + (fade.to - fade.from) * e;
        set_alpha(entity, alpha, &children, &mut sprites, &mut texts);
        if e >= 1.0 {
            commands.entity(entity).remove::<Fade>();
        }
    }
}

fn fly(
    time: Res<Time>,
    mut commands: Commands,
    mut flights: Query<(Entity, &mut Flight, &mut Transform, &mut Visibility)>,
    children: Query<&Children>,
    mut sprites: Query<&mut Sprite>,
    mut texts: Query<&mut crate::game::felt::lettering::Ink>,
) {
    for (entity, mut flight, mut transform, mut visibility) in &mut flights {
        let dt = time.delta_secs();
        if flight.delay > 0.0 {
            flight.delay -= dt;
            *visibility = Visibility::Hidden;
            continue;
        }
        *visibility = Visibility::Inherited;
        flight.t += dt;
        if flight.still {
            transform.translation = flight.to;
            let alpha = eased(EaseFunction::SineInOut, flight.t, flight.seconds);
            set_alpha(entity, alpha, &children, &mut sprites, &mut texts);
        } else {
            let e = eased(EaseFunction::QuadraticInOut, flight.t, flight.seconds);
            // A low arc over the felt, so chips crossing each other's paths stay readable.
            let arc = 4.0 * e * (1.0 - e) * 24.0;
            transform.translation = flight.from.lerp(flight.to, e) + Vec3::new(0.0, arc, 0.0);
        }
        if flight.t >= flight.seconds {
            commands.entity(entity).despawn();
        }
    }
}

fn show_banners(
    time: Res<Time>,
    mut commands: Commands,
    mut banners: Query<(Entity, &mut Banner, &mut Transform)>,
    children: Query<&Children>,
    mut sprites: Query<&mut Sprite>,
    mut texts: Query<&mut crate::game::felt::lettering::Ink>,
) {
    for (entity, mut banner, mut transform) in &mut banners {
        banner.t += time.delta_secs();
        let t = banner.t;
        let (scale, alpha) = if t < banner.pop {
            let e = eased(EaseFunction::BackOut, t, banner.pop);
            if banner.still {
                (1.0, e.clamp(0.0, 1.0))
            } else {
                (0.5 + 0.5 * e, 1.0)
            }
        } else if t < banner.pop + banner.hold {
            (1.0, 1.0)
        } else {
            let e = eased(
                EaseFunction::SineIn,
                t - banner.pop - banner.hold,
                banner.fade,
            );
            (1.0, 1.0 - e)
        };
        transform.scale = Vec3::splat(scale * banner.scale);
        set_alpha(entity, alpha, &children, &mut sprites, &mut texts);
        if t >= banner.pop + banner.hold + banner.fade {
            commands.entity(entity).despawn();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn easing_starts_slow_or_fast_as_chosen_and_always_arrives() {
        assert_eq!(eased(EaseFunction::CubicOut, 0.0, 0.4), 0.0);
        assert_eq!(eased(EaseFunction::CubicOut, 0.4, 0.4), 1.0);
        assert_eq!(eased(EaseFunction::CubicOut, 9.0, 0.4), 1.0);
        // Cubic-out covers most of the way early: the eye sees the card leave, then settle.
        assert!(eased(EaseFunction::CubicOut, 0.2, 0.4) > 0.8);
        // Instant speed: no time at all.
        assert_eq!(eased(EaseFunction::CubicOut, 0.0, 0.0), 1.0);
    }
}
