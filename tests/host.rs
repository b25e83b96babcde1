//! The table's host: companions bet, play, talk, come and go; the books balance; what it reports is enough to follow
//! the table from outside.

use holecard::engine::ai::Personality;
use holecard::engine::{Cents, Command, Event, Phase, SeatId, Table, TableState, Viewer};
use holecard::host::level::Level;
use holecard::host::{Host, Names, News, Occupant};

fn strip() -> Level {
    Level::load_or_default(None).expect("the default level")
}

/// The default level's table hosted from `seed`, its regulars seated and the player's seat on autoplay.
fn hosted(seed: u64, player_buy_in: Cents) -> (Host, Vec<News>) {
    let level = strip();
    let table = Table::new(
        level.rules.rules(),
        holecard::engine::seed_from_number(seed),
        level.house_bankroll,
    )
    .expect("table");
    let mut host = Host::new(table, level.companions.clone(), seed, 0);
    let seat = level.player_seat.expect("a player seat");
    let mut you = Occupant::person("You", player_buy_in);
    you.mind = Some(host.mind(Personality::ByTheBook, seat));
    let mut news = host.sit(seat, you).expect("sits");
    news.extend(host.seat_regulars());
    (host, news)
}

/// Plays rounds the way every host's loop does (between rounds, bets, deal, the round to its end), checking the books
/// and the companions' count after each; returns the news.
fn play(host: &mut Host, rounds: u64, regulars: usize) -> Vec<News> {
    let mut news = Vec::new();
    let mut attempts = 0;
    while host.round() < rounds && attempts < rounds * 20 {
        attempts += 1;
        news.extend(host.between_rounds(false));
        let companions = host.occupants().filter(|(_, o)| !o.person).count();
        assert!(companions <= regulars, "{companions} companions seated");
        news.extend(host.place_bets());
        match host.apply(Command::Deal) {
            Ok(dealt) => news.extend(dealt),
            // Nobody could bet: rounds stop, so look at the seats again.
            Err(_) => news.extend(host.between_rounds(true)),
        }
        news.extend(host.finish_round());
        assert_eq!(host.phase(), Phase::Betting, "the round was played out");
        assert!(host.chips_conserved(), "round {}", host.round());
    }
    news
}

#[test]
fn one_seed_hosts_the_same_sitting_and_its_news_is_enough_to_follow_it() {
    let regulars = strip().companions.len();
    let (mut first, mut told) = hosted(21, Cents::units(1_000));
    let (mut second, again) = hosted(21, Cents::units(1_000));
    assert_eq!(told, again);
    told.extend(play(&mut first, 150, regulars));
    let told_again: Vec<News> = again
        .into_iter()
        .chain(play(&mut second, 150, regulars))
        .collect();
    assert_eq!(told, told_again, "the same seed tells the same story");
    assert!(first.round() >= 150);
    assert_eq!(
        first.refused(),
        0,
        "no mind asked for a move the engine refused"
    );
    assert!(first.replays(), "the command log replays the sitting");

    // A spectator who only hears the news keeps up with the table, names included.
    let table = Table::new(
        strip().rules.rules(),
        holecard::engine::seed_from_number(21),
        strip().house_bankroll,
    )
    .expect("table");
    let mut view = table.view(Viewer::Spectator);
    let mut names = Names::default();
    for item in &told {
        names.follow(item);
        if let News::Event(event) = item {
            view.apply(event).expect("the news fits the view");
        }
    }
    assert_eq!(view, first.view(Viewer::Spectator));
    assert_eq!(names, first.names());
    assert!(
        told.iter().any(|n| matches!(n, News::Said { .. })),
        "companions talk"
    );
}

#[test]
fn companions_go_home_and_newcomers_take_their_seats_never_more_than_the_regulars() {
    let level = strip();
    let regulars: Vec<&str> = level.companions.iter().map(|c| c.name.as_str()).collect();
    let (mut host, mut news) = hosted(5, Cents::units(1_000));
    news.extend(play(&mut host, 1_500, regulars.len()));
    let mut names = Names::default();
    let mut gone: Vec<String> = Vec::new();
    let mut newcomers = 0;
    for item in &news {
        match item {
            News::GotUp { seat } => gone.push(names.name(*seat)),
            News::SatDown { name, .. } => {
                assert!(!gone.contains(name), "{name} went home and came back");
                newcomers += usize::from(!regulars.contains(&name.as_str()));
            }
            _ => {}
        }
        names.follow(item);
    }
    assert!(!gone.is_empty(), "someone went home in 1,500 rounds");
    assert!(newcomers >= 1, "someone new sat down in 1,500 rounds");
    assert!(
        !gone.iter().any(|g| g == "You"),
        "a person never leaves by themselves"
    );
    // Each departure is said before the seat empties.
    for (i, item) in news.iter().enumerate() {
        if let News::GotUp { seat } = item {
            assert!(matches!(news[i - 1], News::Event(Event::Left { seat: s, .. }) if s == *seat));
            assert!(
                news[..i - 1]
                    .iter()
                    .rev()
                    .take(3)
                    .any(|n| matches!(n, News::Said { seat: s, .. } if s == seat))
            );
        }
    }
}

#[test]
fn a_person_out_of_chips_keeps_their_seat() {
    let level = strip();
    let seat: SeatId = level.player_seat.expect("a player seat");
    let min_bet = level.rules.rules().min_bet;
    let (mut host, _) = hosted(9, min_bet);
    play(&mut host, 40, level.companions.len());
    assert!(
        host.seats()[usize::from(seat)].bankroll < min_bet,
        "the test needs the player broke"
    );
    assert!(
        host.occupant(seat)
            .is_some_and(|o| o.person && o.name == "You")
    );
}

#[test]
fn a_snapshot_hosts_the_same_table_again_with_its_people() {
    let level = strip();
    let (mut host, _) = hosted(13, Cents::units(1_000));
    play(&mut host, 12, level.companions.len());
    host.place_bets();
    host.apply(Command::Deal).expect("deals");
    let snapshot = host.snapshot(holecard::engine::seed_from_number(99));
    snapshot.check().expect("whole");
    let reseed = holecard::engine::seed_from_number(100);
    let mut back = Host::restore(snapshot, reseed, level.companions.clone(), 13, 1);
    for (seat, occupant) in host.occupants() {
        let personality = occupant.mind.as_ref().map(|m| m.personality());
        back.resume_seat(seat, occupant.clone(), personality);
    }
    let empty = (0..7).find(|&s| host.is_free(s)).expect("an empty seat");
    back.resume_seat(empty, Occupant::person("Ghost", Cents::units(5)), None);
    assert!(
        back.is_free(empty),
        "nobody is put in a seat the table has empty"
    );
    assert_eq!(back.names(), host.names());
    let seat = level.player_seat.expect("a player seat");
    assert_eq!(back.view(Viewer::Seat(seat)), host.view(Viewer::Seat(seat)));
    back.finish_round();
    assert_eq!(back.phase(), Phase::Betting);
    assert!(back.chips_conserved());
}
