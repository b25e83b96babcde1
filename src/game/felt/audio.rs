//! Sound, through bevy_kira_audio: three channels (music, ambience, effects) with the player's volumes, the
//! effects the table's events call for, and the two loops. Nothing plays before the player's first key press,
//! click or touch (browsers require it, and a game that starts shouting is rude); effects before then are dropped,
//! and the loops start once, at that moment. Without an audio device the game plays silently and says so once.
//! The sounds are not part of the Loading screen: they are asked for once the first screen after it is drawn.

use crate::engine::{Event, Outcome};
use crate::game::model::frames::{DrawWhile, Redraw};
use crate::game::model::player::{Intent, human_seat};
use crate::game::model::session::Session;
pub use crate::game::model::settings::{Fader, Mix};
use crate::game::model::table::{ChipsMoved, Pile, Shown};
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

/// The sounds, from the frame they are asked for.
#[derive(Resource)]
pub struct Sounds {
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

    /// Every sound, with the file it comes from.
    pub fn handles(&self) -> impl Iterator<Item = (String, &Handle<AudioSource>)> {
        self.named()
            .map(|(name, handle)| (sound_path(name), handle))
    }

    /// Every sound, with its name (no path made: asked every frame while they load).
    fn named(&self) -> impl Iterator<Item = (&'static str, &Handle<AudioSource>)> {
        let effects = self.effects.iter().map(|(name, handle)| (*name, handle));
        let loops = LOOPS.into_iter().zip([&self.ambience, &self.music]);
        effects.chain(loops)
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
pub(crate) fn plugin(app: &mut App) {
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
        .add_systems(
            Update,
            (unlock, start_loops, set_volumes, play_effects)
                .chain()
                .after(crate::game::model::screen::RoundSet::Present)
                .run_if(not(in_state(crate::game::model::screen::Screen::Loading))),
        );
    load_after_the_first_screen(app);
    // The sounds are asked for and taken in frame by frame: a page left alone right after loading still gets them.
    app.draw_while(
        Redraw::EveryFrame,
        not(in_state(crate::game::model::screen::Screen::Loading)).and_then(sounds_on_their_way),
    );
}

/// The sounds are not asked for yet, or some are still loading.
fn sounds_on_their_way(sounds: Option<Res<Sounds>>, assets: Res<AssetServer>) -> bool {
    sounds.is_none_or(|sounds| {
        sounds
            .named()
            .any(|(_, handle)| crate::game::felt::asset_tracking::on_its_way(&assets, handle.id()))
    })
}

/// How many frames after the Loading screen the sounds are asked for. Nothing plays before the player's first
/// gesture, so the sounds need not hold up the first screen: in the browser, fetching and decoding 1.8 MB of WAV on
/// the one thread the page and the game share would delay the table's first frame. The frames before are drawn (and
/// shown) first.
pub const SOUNDS_AFTER_FRAMES: u32 = 2;

/// Asks for the sounds once the first screen after loading has been drawn, and reports any that cannot be loaded.
pub fn load_after_the_first_screen(app: &mut App) {
    app.add_systems(
        Update,
        (
            load.run_if(
                not(in_state(crate::game::model::screen::Screen::Loading))
                    .and_then(not(resource_exists::<Sounds>))
                    .and_then(frames_after_loading_passed),
            ),
            report_failures.run_if(resource_exists::<Sounds>),
        )
            .chain(),
    );
}

/// Counts the frames it is asked about: true from the frame after the first `SOUNDS_AFTER_FRAMES`.
fn frames_after_loading_passed(mut frames: Local<u32>) -> bool {
    *frames += 1;
    *frames > SOUNDS_AFTER_FRAMES
}

/// Once every sound has loaded or failed, each failure is said once; the game plays on without that sound.
fn report_failures(sounds: Res<Sounds>, assets: Res<AssetServer>, mut reported: Local<bool>) {
    if *reported {
        return;
    }
    let handles = sounds.handles().map(|(path, h)| (path, h.id().untyped()));
    let tally = crate::game::felt::asset_tracking::Tally::of(&assets, handles);
    if tally.pending > 0 {
        return;
    }
    *reported = true;
    for failure in tally.failures {
        error!("could not load {failure}; the game plays on without that sound");
    }
}

/// Is there somewhere to send sound? A device that is named but cannot say how it plays counts as none: kira
/// would fail to open it, and then keep every command queued for ever.
fn output_device() -> bool {
    use cpal::traits::{DeviceTrait, HostTrait};
    cpal::default_host()
        .default_output_device()
        .is_some_and(|device| device.default_output_config().is_ok())
}

/// Starts loading every sound.
pub fn load(mut commands: Commands, assets: Res<AssetServer>) {
    let take = |name: &str| assets.load(sound_path(name));
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

/// The loops start once, when sound is first allowed and the sounds have been asked for; they run under every screen
/// after loading. (A loop asked for before its file is in starts when it is.)
fn start_loops(
    mut hearing: ResMut<Hearing>,
    sounds: Option<Res<Sounds>>,
    music: Res<AudioChannel<Music>>,
    ambience: Res<AudioChannel<Ambience>>,
) {
    let Some(sounds) = sounds else {
        return;
    };
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
        Event::Dealt { .. } | Event::HoleCardDealt => Some("card-slide"),
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
/// not pile seven chip sounds on top of each other. An effect whose file is not in yet is dropped, not played late.
#[allow(clippy::too_many_arguments)]
fn play_effects(
    hearing: Res<Hearing>,
    session: Option<Res<Session>>,
    sounds: Option<Res<Sounds>>,
    loaded: Res<Assets<AudioSource>>,
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
    let Some(sounds) = sounds.filter(|_| hearing.effects_allowed()) else {
        return;
    };
    names.sort_unstable();
    names.dedup();
    for handle in names.into_iter().filter_map(|name| sounds.effect(name)) {
        if loaded.contains(&handle) {
            effects.play(handle);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Cents, Total};
    use bevy::asset::AssetApp;

    #[test]
    fn the_sounds_are_asked_for_only_after_the_first_screen_is_drawn_and_then_all_load() {
        let mut app = crate::game::platform::headless::with_the_games_assets();
        app.add_plugins(bevy::state::app::StatesPlugin)
            .init_asset::<AudioSource>()
            .init_asset_loader::<WavLoader>()
            .init_state::<crate::game::model::screen::Screen>();
        load_after_the_first_screen(&mut app);
        for frame in 1..=30 {
            app.update();
            assert!(
                app.world().get_resource::<Sounds>().is_none(),
                "loading frame {frame}"
            );
        }
        app.world_mut()
            .resource_mut::<NextState<crate::game::model::screen::Screen>>()
            .set(crate::game::model::screen::Screen::Table);
        for frame in 1..=SOUNDS_AFTER_FRAMES {
            app.update();
            assert!(
                app.world().get_resource::<Sounds>().is_none(),
                "frame {frame} after loading"
            );
        }
        app.update();
        let sounds = app.world().resource::<Sounds>();
        let paths: Vec<String> = sounds.handles().map(|(path, _)| path).collect();
        assert_eq!(paths.len(), EFFECTS.len() + LOOPS.len());
        assert!(paths.contains(&"sounds/music.wav".to_string()), "{paths:?}");
        // Asked for once: the handles stay the same however long the game runs.
        let first: Vec<_> = sounds.handles().map(|(_, h)| h.id()).collect();
        let mut pending = usize::MAX;
        for _ in 0..2_000 {
            app.update();
            let assets = app.world().resource::<AssetServer>();
            let sounds = app.world().resource::<Sounds>();
            assert_eq!(
                first,
                sounds.handles().map(|(_, h)| h.id()).collect::<Vec<_>>()
            );
            pending = sounds
                .handles()
                .filter(|(_, h)| !assets.is_loaded(h.id()))
                .count();
            if pending == 0 {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        assert_eq!(pending, 0, "sounds still loading after ten seconds");
    }

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
            after: crate::game::model::table::Delay::Now,
        };
        assert_eq!(chip_effect(&moved(Cents::units(5))), "chip");
        assert_eq!(chip_effect(&moved(Cents::units(50))), "chip-stack");
        assert!(EFFECTS.contains(&chip_effect(&moved(Cents::units(5)))));
    }
}
