//! The table's look and motion, headless: the view and motion plugins run on placeholder pictures (nothing is drawn)
//! so glides, flips, chip flights, banners and reduced motion can be watched frame by frame. And every picture and
//! sound the game loads exists and loads through Bevy's asset server.
#![cfg(feature = "game")]

mod common;

use common::one_seat_level;

use bevy::prelude::*;
use holecard::engine::Rank::*;
use holecard::game::felt::art::{self, Look};
use holecard::game::felt::motion::{Banner, Fade, Flight, Glide};
use holecard::game::local::table::HostedTable;
use holecard::game::model::table::{CardView, Speed};
use holecard::game::platform::headless;

/// What was seen over a round at normal speed.
#[derive(Default, Debug)]
struct Seen {
    /// Frames with a card away from its place (travelling).
    gliding: u32,
    /// Frames with a card narrower than full width (turning over).
    flipping: u32,
    /// Frames with chips in the air.
    flying: u32,
    /// Frames with a banner up.
    banners: u32,
    /// Frames with something fading in.
    fading: u32,
}

/// Plays the first round of `app` through to the next betting phase, watching the motion. Between rounds the
/// books and the piles must agree and every card must be in its place; the round's last chips must land soon after.
fn watch_a_round(app: &mut App) -> Seen {
    let mut seen = Seen::default();
    let mut ended = None;
    for frame in 0..20_000 {
        app.update();
        let world = app.world_mut();
        let round = world.resource::<HostedTable>().round();
        let mut cards = world.query::<(&CardView, &Glide, &Transform)>();
        if cards.iter(world).any(|(_, glide, at)| {
            glide.moving() && at.translation.truncate() != glide.to.truncate()
        }) {
            seen.gliding += 1;
        }
        if cards.iter(world).any(|(_, _, at)| at.scale.x < 0.99) {
            seen.flipping += 1;
        }
        let flying = world.query::<&Flight>().iter(world).next().is_some();
        seen.flying += u32::from(flying);
        seen.banners += u32::from(world.query::<&Banner>().iter(world).next().is_some());
        seen.fading += u32::from(world.query::<&Fade>().iter(world).next().is_some());
        match ended {
            None if round >= 1 && headless::between_rounds(app) => {
                assert!(headless::chips_shown(app), "the books and the piles differ");
                let world = app.world_mut();
                assert!(
                    world
                        .query::<(&Glide, &Transform)>()
                        .iter(world)
                        .all(|(g, t)| !g.moving() && t.translation == g.to),
                    "a card is still travelling between rounds"
                );
                ended = Some(frame);
            }
            Some(end) if !flying => {
                assert!(
                    frame - end < 120,
                    "chips still flying {} frames on",
                    frame - end
                );
                return seen;
            }
            _ => {}
        }
    }
    panic!("the round did not end: {seen:?}");
}

/// The one-seat level seeded with 3, at normal speed with every animation, `cards` on top of the shoe.
fn animated(look: Look, cards: &[holecard::engine::Rank]) -> App {
    let mut app = headless::app_animated(one_seat_level(), 3, Speed::Normal, look).expect("app");
    app.world_mut()
        .resource_mut::<HostedTable>()
        .queue_next_cards(cards)
        .expect("cards");
    app
}

#[test]
fn cards_glide_the_hole_card_turns_chips_fly_and_a_blackjack_gets_its_banner() {
    // Mae: ace and king (blackjack); dealer: nine up, seven in the hole.
    let mut app = animated(Look::default(), &[Ace, Nine, King, Seven]);
    let seen = watch_a_round(&mut app);
    assert!(
        seen.gliding > 10,
        "cards should travel from the shoe: {seen:?}"
    );
    assert!(
        seen.flipping > 2,
        "the hole card should turn over: {seen:?}"
    );
    assert!(seen.flying > 10, "bets and payouts should fly: {seen:?}");
    assert!(seen.banners > 10, "a blackjack raises a banner: {seen:?}");
    assert_eq!(seen.fading, 0, "full motion does not fade: {seen:?}");
}

#[test]
fn reduced_motion_fades_instead_of_moving() {
    let still = Look {
        reduced_motion: true,
        ..Look::default()
    };
    let mut app = animated(still, &[Ten, Nine, Eight, Seven]);
    let seen = watch_a_round(&mut app);
    assert_eq!(seen.gliding, 0, "no card travels: {seen:?}");
    assert_eq!(
        seen.flipping, 0,
        "the hole card turns without the narrowing: {seen:?}"
    );
    assert!(seen.fading > 10, "cards and chips fade in: {seen:?}");
    assert!(
        seen.flying > 0,
        "chips still appear where they land: {seen:?}"
    );
}

#[test]
fn a_split_card_slides_across_to_its_new_hand() {
    use holecard::engine::Spot;
    use holecard::game::model::table::HandView;
    // Mae: two eights against a six, which the book splits.
    let mut app = animated(Look::default(), &[Eight, Six, Eight, Ten]);
    let second_hand = Spot::Player { seat: 0, hand: 1 };
    let mut split_at = None;
    for frame in 0..5_000 {
        app.update();
        let world = app.world_mut();
        let split = world
            .query::<&HandView>()
            .iter(world)
            .any(|h| h.spot() == second_hand);
        if !split {
            continue;
        }
        let start = *split_at.get_or_insert(frame);
        let sliding = world
            .query::<(&CardView, &Glide, &Transform)>()
            .iter(world)
            .any(|(view, glide, at)| {
                view.spot == second_hand
                    && view.order == 0
                    && glide.moving()
                    && at.translation.truncate() != glide.to.truncate()
            });
        if sliding {
            assert!(frame - start <= 3, "the slide started late");
            return;
        }
        assert!(
            frame - start < 10,
            "the split card did not slide to its hand"
        );
    }
    panic!("Mae never split her eights");
}

/// Six rounds of a level at normal speed with every animation running.
fn plays_with_every_animation_running(path: &std::path::Path) {
    let level = holecard::host::level::Level::load(path).expect("the shipped levels parse");
    let name = level.name.clone();
    let report = headless::run(level, 11, 6, true).expect("runs");
    assert!(report.passed(), "{name}: {report:?}");
    assert!(report.rounds >= 6, "{name}: {report:?}");
}

per_level_tests! { plays_with_every_animation_running;
    atlantic_city_plays_with_every_animation_running: "atlantic-city.ron",
    break_the_bank_plays_with_every_animation_running: "break-the-bank.ron",
    carnival_six_five_plays_with_every_animation_running: "carnival-six-five.ron",
    double_deck_custom_plays_with_every_animation_running: "double-deck-custom.ron",
    downtown_single_deck_plays_with_every_animation_running: "downtown-single-deck.ron",
    european_no_hole_card_plays_with_every_animation_running: "european-no-hole-card.ron",
    las_vegas_strip_plays_with_every_animation_running: "las-vegas-strip.ron",
}

/// Every picture the game preloads and every sound it loads after the first screen, through Bevy's asset server the
/// way the game loads them.
#[test]
fn every_card_chip_table_and_sound_asset_exists_and_loads() {
    use bevy::asset::AssetApp;
    use bevy::image::{CompressedImageFormats, ImageLoader};
    use bevy_kira_audio::prelude::{AudioSource, WavLoader};
    let mut app = holecard::game::platform::headless::with_the_games_assets();
    app.add_plugins(bevy::image::ImagePlugin::default())
        .register_asset_loader(ImageLoader::new(CompressedImageFormats::NONE))
        .init_asset::<TextureAtlasLayout>()
        .add_plugins(holecard::game::felt::fonts::fonts_plugin)
        .init_asset::<AudioSource>()
        .init_asset_loader::<WavLoader>()
        .init_resource::<holecard::game::felt::asset_tracking::Preload>()
        .init_resource::<Look>()
        .add_systems(
            Startup,
            (
                holecard::game::felt::fonts::preload_fonts,
                art::load,
                holecard::game::felt::audio::load,
            )
                .chain(),
        )
        .add_systems(
            PreUpdate,
            art::load_chosen_deck.run_if(resource_exists::<art::Art>),
        );
    let mut failed = Vec::new();
    let mut pending = usize::MAX;
    for _ in 0..2_000 {
        app.update();
        let preload = app
            .world()
            .resource::<holecard::game::felt::asset_tracking::Preload>();
        let sounds = app
            .world()
            .resource::<holecard::game::felt::audio::Sounds>();
        let assets = app.world().resource::<AssetServer>();
        let preloaded = preload
            .handles()
            .map(|(path, h)| (path.to_string(), h.id()));
        let sounds = sounds.handles().map(|(path, h)| (path, h.id().untyped()));
        let tally =
            holecard::game::felt::asset_tracking::Tally::of(assets, preloaded.chain(sounds));
        (pending, failed) = (tally.pending, tally.failures);
        if pending == 0 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert!(failed.is_empty(), "assets that did not load: {failed:#?}");
    assert_eq!(pending, 0, "assets still loading after ten seconds");

    let world = app.world();
    let preload = world.resource::<holecard::game::felt::asset_tracking::Preload>();
    let paths: Vec<&str> = preload.handles().map(|(p, _)| p).collect();
    assert_eq!(
        paths.len(),
        // The fonts and the pictures with one deck of the four (the one the look prints with); the sounds come
        // after the first screen.
        2 + art::PICTURES.len() - 3
    );
    // Every deck loads once the look asks for it, and the atlases are cut as the game cuts them: 13 ranks by four
    // suits and a row of backs; one chip per value.
    for four_colour in [false, true] {
        for large_index in [false, true] {
            let look = Look {
                four_colour,
                large_index,
                reduced_motion: false,
            };
            *app.world_mut().resource_mut::<Look>() = look;
            let mut size = None;
            for _ in 0..2_000 {
                app.update();
                let deck = app.world().resource::<art::Art>().deck(look);
                size = app
                    .world()
                    .resource::<Assets<Image>>()
                    .get(&deck)
                    .map(Image::size);
                if size.is_some() {
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            assert_eq!(size, Some(art::CARD_CELL * UVec2::new(13, 5)), "{look:?}");
        }
    }
    let world = app.world();
    let images = world.resource::<Assets<Image>>();
    let art = world.resource::<art::Art>();
    let chips = images.get(&art.chips).expect("chips loaded");
    assert_eq!(
        chips.size(),
        art::CHIP_CELL * UVec2::new(art::CHIP_ORDER.len() as u32, 1)
    );
    // Every level's chips and card back have a picture.
    for listing in holecard::host::level::catalogue(std::path::Path::new("levels")) {
        let level = listing.level.expect("the shipped levels parse");
        for chip in holecard::game::model::player::denominations(&level.rules.rules()) {
            assert!(
                art::CHIP_ORDER.contains(&chip),
                "{}: no chip art for {chip}",
                level.name
            );
        }
        assert!(art::back_cell(level.card_back) < 13 * 5);
    }
    // Every sound decoded to something with length.
    let sounds = world.resource::<Assets<AudioSource>>();
    assert_eq!(
        sounds.len(),
        holecard::game::felt::audio::EFFECTS.len() + holecard::game::felt::audio::LOOPS.len()
    );
    for (_, sound) in sounds.iter() {
        assert!(sound.sound.duration().as_secs_f64() > 0.05);
    }
}
