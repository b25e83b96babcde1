//! Sound, through bevy_kira_audio: three channels (music, ambience, effects) with the player's volumes, the
//! effects the table's events call for, and the two loops. Nothing plays before the player's first key press,
//! click or touch (browsers require it, and a game that starts shouting is rude); effects before then are dropped,
//! and the loops start once, at that moment. Without an audio device the game plays silently and says so once.

use super::hud::Preload;
use super::player::{Intent, human_seat};
use super::seats::Session;
use super::table::{ChipsMoved, Pile, Shown};
use crate::engine::{Event, Outcome};
use bevy::prelude::*;
use bevy_kira_audio::prelude::*;

/// The lounge music channel.
#[derive(Resource)]
pub struct Music;

/// The casino floor's murmur.
#[derive(Resource)]
pub struct Ambience;

/// Cards, chips, buttons and results.
#[derive(Resource)]
pub struct Effects;

/// One channel's setting.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Fader {
    /// 0 (silent) to 1 (full).
    pub volume: f32,
    /// Off, whatever the volume.
    pub muted: bool,
}

impl Default for Fader {
    fn default() -> Fader {
        Fader {
            volume: 0.7,
            muted: false,
        }
    }
}

/// How far below full scale a channel at full volume plays. The sounds peak at −3 dBFS each, and a busy moment
/// (companions' chips landing while the music and the murmur play) sums several of them: with no headroom the
/// browser test heard a loudest sample of 1.23, past full scale, which the speakers clip.
pub const HEADROOM_DB: f32 = -6.0;

impl Fader {
    /// The channel's gain in decibels, headroom included (kira's silence below the slider's bottom).
    pub fn decibels(self) -> Decibels {
        if self.muted || self.volume <= 0.001 {
            Decibels::SILENCE
        } else {
            Decibels((20.0 * self.volume.min(1.0).log10() + HEADROOM_DB).max(Decibels::SILENCE.0))
        }
    }
}

/// The player's volumes, remembered between launches.
#[derive(
    Resource, Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize,
)]
#[serde(default)]
pub struct Mix {
    /// Lounge music.
    pub music: Fader,
    /// Casino murmur.
    pub ambience: Fader,
    /// Cards, chips and results.
    pub effects: Fader,
}

/// Every effect, by the name of its file under `assets/sounds/`.
pub const EFFECTS: [&str; 12] = [
    "shuffle",
    "card-slide",
    "card-flip",
    "chip",
    "chip-stack",
    "button",
    "win",
    "blackjack",
    "lose",
    "push",
    "dealer-bust",
    "your-turn",
];

/// The loops: casino murmur and lounge music.
pub const LOOPS: [&str; 2] = ["ambience", "music"];

/// A sound's file.
pub fn sound_path(name: &str) -> String {
    format!("sounds/{name}.wav")
}

/// The loaded sounds.
#[derive(Resource)]
struct Sounds {
    effects: Vec<(&'static str, Handle<AudioSource>)>,
    ambience: Handle<AudioSource>,
    music: Handle<AudioSource>,
}

impl Sounds {
    fn effect(&self, name: &str) -> Option<Handle<AudioSource>> {
        self.effects
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, h)| h.clone())
    }
}

/// Whether sound can play yet.
#[derive(Resource, Debug, Default)]
pub struct Hearing {
    /// There is an output device.
    pub device: bool,
    /// The player has pressed a key, clicked or touched.
    pub unlocked: bool,
    /// The loops are running.
    pub loops_started: bool,
}

impl Hearing {
    /// Effects may play: there is a device and the player has pressed, clicked or touched. Effects asked for before
    /// then are dropped, not saved up, so a late start never plays a burst of old sounds.
    pub fn effects_allowed(&self) -> bool {
        self.device && self.unlocked
    }

    /// True exactly once: on the first frame sound is allowed, when the loops start. However late sound starts
    /// (a browser resumes its audio only after the first gesture), the loops start once and are never doubled.
    pub fn start_loops_now(&mut self) -> bool {
        let now = self.effects_allowed() && !self.loops_started;
        self.loops_started |= now;
        now
    }
}

/// Sound for the windowed game.
pub(super) fn plugin(app: &mut App) {
    let device = output_device();
    if !device {
        // Said once; kira adds its own line when it cannot open the device.
        warn!("no audio output device: the game plays silently");
    }
    app.add_plugins(AudioPlugin)
        .add_audio_channel::<Music>()
        .add_audio_channel::<Ambience>()
        .add_audio_channel::<Effects>()
        .init_resource::<Mix>()
        .insert_resource(Hearing {
            device,
            ..default()
        })
        .add_systems(Startup, load.after(super::hud::preload))
        .add_systems(
            Update,
            (unlock, start_loops, set_volumes, play_effects)
                .chain()
                .after(super::screen::RoundSet::Present)
                .run_if(not(in_state(super::screen::Screen::Loading))),
        );
}

/// Is there somewhere to send sound? A device that is named but cannot say how it plays counts as none: kira
/// would fail to open it, and then keep every command queued for ever.
fn output_device() -> bool {
    use cpal::traits::{DeviceTrait, HostTrait};
    cpal::default_host()
        .default_output_device()
        .is_some_and(|device| device.default_output_config().is_ok())
}

/// Starts loading every sound and lists them for the Loading screen.
pub fn load(mut commands: Commands, assets: Res<AssetServer>, mut preload: ResMut<Preload>) {
    let mut take = |name: &str| {
        let path = sound_path(name);
        let handle: Handle<AudioSource> = assets.load(&path);
        preload.add(&path, handle.clone().untyped());
        handle
    };
    let effects = EFFECTS.iter().map(|&name| (name, take(name))).collect();
    commands.insert_resource(Sounds {
        effects,
        ambience: take(LOOPS[0]),
        music: take(LOOPS[1]),
    });
}

/// The first key press, click or touch lets sound play.
fn unlock(
    keys: Res<ButtonInput<KeyCode>>,
    mouse: Res<ButtonInput<MouseButton>>,
    touches: Res<Touches>,
    mut hearing: ResMut<Hearing>,
) {
    if !hearing.unlocked
        && (keys.get_just_pressed().next().is_some()
            || mouse.get_just_pressed().next().is_some()
            || touches.any_just_pressed())
    {
        hearing.unlocked = true;
    }
}

/// The loops start once, when sound is first allowed; they run under every screen after loading.
fn start_loops(
    mut hearing: ResMut<Hearing>,
    sounds: Res<Sounds>,
    music: Res<AudioChannel<Music>>,
    ambience: Res<AudioChannel<Ambience>>,
) {
    if hearing.start_loops_now() {
        ambience
            .play(sounds.ambience.clone())
            .looped()
            .fade_in(AudioTween::linear(std::time::Duration::from_secs(2)));
        music
            .play(sounds.music.clone())
            .looped()
            .fade_in(AudioTween::linear(std::time::Duration::from_secs(2)));
    }
}

/// The channels follow the player's volumes.
fn set_volumes(
    mix: Res<Mix>,
    hearing: Res<Hearing>,
    music: Res<AudioChannel<Music>>,
    ambience: Res<AudioChannel<Ambience>>,
    effects: Res<AudioChannel<Effects>>,
) {
    if hearing.device && (mix.is_changed() || hearing.is_changed()) {
        music.set_volume(mix.music.decibels());
        ambience.set_volume(mix.ambience.decibels());
        effects.set_volume(mix.effects.decibels());
    }
}

/// Which effect an event the table has just shown calls for, from the player's side of the table.
pub fn effect_for(event: &Event, me: Option<u8>) -> Option<&'static str> {
    match *event {
        Event::Shuffled { .. } => Some("shuffle"),
        Event::Dealt { .. } => Some("card-slide"),
        Event::HoleCardRevealed { .. } => Some("card-flip"),
        Event::DealerBusted { .. } => Some("dealer-bust"),
        Event::Turn { seat, .. } if Some(seat) == me => Some("your-turn"),
        Event::Settled { seat, outcome, .. } if Some(seat) == me => Some(match outcome {
            Outcome::Blackjack => "blackjack",
            Outcome::Win | Outcome::EvenMoney => "win",
            Outcome::Push => "push",
            Outcome::Lose | Outcome::Bust | Outcome::Surrender => "lose",
        }),
        _ => None,
    }
}

/// Which chip sound a move makes: one chip set down, or a stack.
pub fn chip_effect(moved: &ChipsMoved) -> &'static str {
    let into_circle = matches!(moved.to, Pile::Circle(_));
    if into_circle && moved.amount <= crate::engine::Cents::units(5) {
        "chip"
    } else {
        "chip-stack"
    }
}

/// Plays each effect in the frame its event is shown; one of each name a frame, so seven seats settling at once do
/// not pile seven chip sounds on top of each other.
#[allow(clippy::too_many_arguments)]
fn play_effects(
    hearing: Res<Hearing>,
    session: Option<Res<Session>>,
    sounds: Res<Sounds>,
    effects: Res<AudioChannel<Effects>>,
    mut shown: MessageReader<Shown>,
    mut moves: MessageReader<ChipsMoved>,
    mut intents: MessageReader<Intent>,
) {
    let me = session.as_deref().and_then(human_seat);
    let mut names: Vec<&'static str> = Vec::new();
    names.extend(
        shown
            .read()
            .filter_map(|Shown(event)| effect_for(event, me)),
    );
    names.extend(moves.read().map(chip_effect));
    if intents.read().count() > 0 {
        names.push("button");
    }
    if !hearing.effects_allowed() {
        return;
    }
    names.sort_unstable();
    names.dedup();
    for name in names {
        if let Some(handle) = sounds.effect(name) {
            effects.play(handle);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Cents, Total};

    #[test]
    fn sound_starts_on_the_first_gesture_and_the_loops_start_once() {
        let mut hearing = Hearing {
            device: true,
            ..Hearing::default()
        };
        // Frames before any key, click or touch: nothing plays, the loops wait.
        for _ in 0..10 {
            assert!(!hearing.effects_allowed());
            assert!(!hearing.start_loops_now());
        }
        hearing.unlocked = true;
        assert!(hearing.effects_allowed());
        assert!(
            hearing.start_loops_now(),
            "the loops start on the first allowed frame"
        );
        for _ in 0..100 {
            assert!(!hearing.start_loops_now(), "and never again");
        }
        // With no device nothing ever plays, gesture or not.
        let mut silent = Hearing {
            device: false,
            unlocked: true,
            loops_started: false,
        };
        assert!(!silent.effects_allowed());
        assert!(!silent.start_loops_now());
    }

    #[test]
    fn faders_turn_volume_into_decibels() {
        assert_eq!(
            Fader {
                volume: 1.0,
                muted: false
            }
            .decibels(),
            Decibels(HEADROOM_DB)
        );
        assert_eq!(
            Fader {
                volume: 1.0,
                muted: true
            }
            .decibels(),
            Decibels::SILENCE
        );
        let half = Fader {
            volume: 0.5,
            muted: false,
        }
        .decibels();
        assert!((half.0 - HEADROOM_DB + 6.02).abs() < 0.01, "{half:?}");
        assert_eq!(Fader::default().decibels(), Fader::default().decibels());
    }

    #[test]
    fn results_sound_only_for_the_players_own_hands() {
        let settled = |seat, outcome| Event::Settled {
            seat,
            hand: 0,
            outcome,
            wager: Cents::units(10),
            net: Cents::units(10),
        };
        assert_eq!(
            effect_for(&settled(2, Outcome::Blackjack), Some(2)),
            Some("blackjack")
        );
        assert_eq!(
            effect_for(&settled(2, Outcome::Bust), Some(2)),
            Some("lose")
        );
        assert_eq!(effect_for(&settled(3, Outcome::Win), Some(2)), None);
        assert_eq!(
            effect_for(
                &Event::DealerBusted {
                    total: Total::of(&[])
                },
                None
            ),
            Some("dealer-bust")
        );
        assert_eq!(
            effect_for(&Event::Turn { seat: 2, hand: 0 }, Some(2)),
            Some("your-turn")
        );
        assert_eq!(effect_for(&Event::Turn { seat: 1, hand: 0 }, Some(2)), None);
    }

    #[test]
    fn every_effect_named_by_the_table_ships() {
        for name in [
            "shuffle",
            "card-slide",
            "card-flip",
            "dealer-bust",
            "your-turn",
        ] {
            assert!(EFFECTS.contains(&name));
        }
        let moved = |amount| ChipsMoved {
            from: Pile::Bankroll(0),
            to: Pile::Circle(0),
            amount,
            after: super::super::table::Delay::Now,
        };
        assert_eq!(chip_effect(&moved(Cents::units(5))), "chip");
        assert_eq!(chip_effect(&moved(Cents::units(50))), "chip-stack");
        assert!(EFFECTS.contains(&chip_effect(&moved(Cents::units(5)))));
    }
}
