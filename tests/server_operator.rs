//! Running a casino, as its operator and its players see it, over real sockets on SQLite and PostgreSQL: the
//! server's figures at `/metrics` read back by a parser of Prometheus' text format (not the server's own writer) and
//! each seen to move as people connect, sit, watch, bet, play, chat, are refused and leave; `/healthz`; `/readyz`
//! failing while the ledger is down and answering again once it is back; every shoe committed to, revealed, and
//! checked card for card by the players who saw it.

mod serving;

use holecard::engine::{Event, TableState};
use holecard::host::News;
use holecard::host::fair::{self, ShoeChecks};
use holecard::server::protocol::{Refusal, ServerMessage};
use prometheus_parse::{Scrape, Value};
use serving::*;
use std::time::{Duration, Instant};

/// What a command that must succeed printed on standard output (its standard error shown if it failed).
fn succeeded(output: &std::process::Output) -> String {
    let said = String::from_utf8_lossy(&output.stdout).to_string();
    assert!(
        output.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    said
}

/// The server's figures now.
fn scrape(addr: std::net::SocketAddr) -> Scrape {
    let (status, head, body) = http_with_head(addr, "GET", "/metrics", None, None);
    assert_eq!(status, 200, "{body}");
    assert!(
        head.to_lowercase()
            .contains("content-type: text/plain; version=0.0.4"),
        "{head}"
    );
    Scrape::parse(body.lines().map(|line| Ok(line.to_string()))).expect("Prometheus' text format")
}

/// A figure: the sample named `metric` with these labels (a histogram's count of observations).
fn figure(scrape: &Scrape, metric: &str, labels: &[(&str, &str)]) -> Option<f64> {
    let sample = scrape.samples.iter().find(|s| {
        s.metric == metric
            && labels.len() == s.labels.len()
            && labels.iter().all(|(k, v)| s.labels.get(k) == Some(*v))
    })?;
    Some(match &sample.value {
        Value::Counter(v) | Value::Gauge(v) | Value::Untyped(v) => *v,
        Value::Histogram(buckets) => buckets.iter().map(|b| b.count).fold(0.0, f64::max),
        Value::Summary(_) => panic!("{metric} is not a summary"),
    })
}

/// A figure that must be there.
fn must(scrape: &Scrape, metric: &str, labels: &[(&str, &str)]) -> f64 {
    figure(scrape, metric, labels)
        .unwrap_or_else(|| panic!("no {metric} {labels:?} in {:#?}", scrape.samples))
}

/// Scrapes until `wanted` holds (the figures of a table move when its task has run; at most 10 s).
fn until(addr: std::net::SocketAddr, what: &str, wanted: impl Fn(&Scrape) -> bool) -> Scrape {
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        let now = scrape(addr);
        if wanted(&now) {
            return now;
        }
        assert!(Instant::now() < until, "{what}: {:#?}", now.samples);
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn the_figures_move_as_people_play(db: &Db) {
    let running = start(db, patient());
    let addr = running.addr;
    let before = scrape(addr);
    assert_eq!(must(&before, "holecard_tables", &[]), 1.0);
    assert_eq!(must(&before, "holecard_connections", &[]), 0.0);
    assert_eq!(must(&before, "holecard_seated", &[]), 0.0);
    assert_eq!(must(&before, "holecard_rounds_total", &[]), 0.0);
    assert_eq!(must(&before, "holecard_ledger_errors_total", &[]), 0.0);
    assert_eq!(
        must(&before, "holecard_command_to_news_seconds_count", &[]),
        0.0
    );
    let open = must(
        &before,
        "holecard_ledger_pool_connections",
        &[("state", "idle")],
    ) + must(
        &before,
        "holecard_ledger_pool_connections",
        &[("state", "in_use")],
    );
    assert!(open >= 1.0, "the pool holds a connection: {open}");

    let (mut ann, mut bob) = ann_sits_and_bob_watches(&running);
    let sat = until(addr, "Ann seated, Bob watching", |s| {
        figure(s, "holecard_seated", &[]) == Some(1.0)
            && figure(s, "holecard_watching", &[]) == Some(1.0)
    });
    assert_eq!(must(&sat, "holecard_connections", &[]), 2.0);
    let commands = |s: &Scrape, kind| figure(s, "holecard_commands_total", &[("kind", kind)]);
    assert_eq!(commands(&sat, "hello"), Some(2.0));
    assert_eq!(commands(&sat, "sit"), Some(1.0));
    assert_eq!(commands(&sat, "watch"), Some(1.0));
    assert_eq!(commands(&sat, "bet"), None, "no bet yet");

    // A round: Ann bets, plays when her turn comes (the test client plays the safe choice), and it settles.
    let min = ann.min_bet().0;
    ann.send(&format!(r#"{{"type":"bet","amount":{min}}}"#));
    pump(&mut [&mut ann, &mut bob], |c| c[0].rounds_ended() >= 1);
    let played = until(addr, "the round settled", |s| {
        figure(s, "holecard_rounds_total", &[]) == Some(1.0)
    });
    assert_eq!(commands(&played, "bet"), Some(1.0));
    let plays = commands(&played, "play").unwrap_or(0.0);
    let timed = must(&played, "holecard_command_to_news_seconds_count", &[]);
    assert_eq!(
        timed,
        1.0 + plays,
        "the bet and each play timed to their news"
    );
    let took = must(&played, "holecard_command_to_news_seconds_sum", &[]);
    assert!(took > 0.0 && took < 5.0 * timed, "{took} s for {timed}");
    // Every observation lies in the last bucket (+Inf), and the buckets only grow.
    let Some(Value::Histogram(buckets)) = played
        .samples
        .iter()
        .find(|s| s.metric == "holecard_command_to_news_seconds")
        .map(|s| &s.value)
    else {
        panic!("no histogram of the command-to-news times");
    };
    assert!(buckets.windows(2).all(|w| w[0].count <= w[1].count));
    assert_eq!(buckets.last().map(|b| b.count), Some(timed));

    // Refusals, by reason: a watcher's bet (the table refuses it) and an empty chat line (the connection does).
    bob.send(r#"{"type":"bet","amount":500}"#);
    assert_eq!(bob.refusal().0, Refusal::NotSeated);
    ann.send(r#"{"type":"chat","text":"   "}"#);
    assert_eq!(ann.refusal().0, Refusal::BadChat);
    let refused = scrape(addr);
    let refusals = |reason| figure(&refused, "holecard_refusals_total", &[("reason", reason)]);
    assert_eq!(refusals("not_seated"), Some(1.0));
    assert_eq!(refusals("bad_chat"), Some(1.0));
    assert_eq!(commands(&refused, "chat"), Some(1.0));

    // Bob goes: one connection fewer, no one watching.
    drop(bob);
    until(addr, "Bob gone", |s| {
        figure(s, "holecard_connections", &[]) == Some(1.0)
            && figure(s, "holecard_watching", &[]) == Some(0.0)
    });
    assert_eq!(
        http(addr, "GET", "/healthz", None, None),
        (200, r#"{"healthy":true}"#.to_string())
    );
    assert_eq!(
        http(addr, "GET", "/readyz", None, None),
        (200, r#"{"ready":true}"#.to_string())
    );
}

fn with_the_figures_off_none_are_served_and_health_still_is(db: &Db) {
    let running = start_with(db, patient(), |config| config.metrics = false);
    let (status, body) = http(running.addr, "GET", "/metrics", None, None);
    assert_eq!(status, 404, "{body}");
    assert_eq!(http(running.addr, "GET", "/healthz", None, None).0, 200);
    assert_eq!(http(running.addr, "GET", "/readyz", None, None).0, 200);
}

/// The ledger goes down (PostgreSQL takes no connection to its database, and those open are ended): `/readyz` says
/// so and the failures are counted, while `/healthz` still answers; back up, `/readyz` is ready again.
#[test]
fn readyz_fails_while_the_ledger_is_down() {
    let Some(db) = Db::on(Backend::Postgres) else {
        return;
    };
    let running = start(&db, patient());
    let addr = running.addr;
    assert_eq!(http(addr, "GET", "/readyz", None, None).0, 200);
    refuse_connections(&db, true);
    let (status, body) = http(addr, "GET", "/readyz", None, None);
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("the ledger is not answering"), "{body}");
    assert_eq!(http(addr, "GET", "/healthz", None, None).0, 200);
    let down = scrape(addr);
    assert!(must(&down, "holecard_ledger_errors_total", &[]) >= 1.0);
    refuse_connections(&db, false);
    let until = Instant::now() + Duration::from_secs(15);
    while http(addr, "GET", "/readyz", None, None).0 != 200 {
        assert!(
            Instant::now() < until,
            "/readyz still fails with the ledger back"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    drop(running);
}

/// What a client was told, in order, as the game follows a table's shoes: each shoe committed to, the cards seen,
/// and each seed revealed checked against the shoe dealt again from it. The shoes checked: (shoe, cards seen, not
/// shown).
fn check_the_shoes(got: &[ServerMessage]) -> Vec<(u64, usize, usize)> {
    let mut checks = ShoeChecks::new();
    let mut checked = Vec::new();
    for message in got {
        match message {
            ServerMessage::Joined { shoe, view, .. } => checks.joined(shoe.clone(), view),
            ServerMessage::News { news, .. } => {
                if let Some(done) = checks.hear(news) {
                    let verified = done
                        .outcome
                        .unwrap_or_else(|e| panic!("shoe {}: {e}", done.shoe));
                    checked.push((done.shoe, verified.cards, verified.unseen));
                }
            }
            _ => {}
        }
    }
    checked
}

/// A shoe anyone can verify: each shoe's seed (fresh from the operating system) is committed to before its first
/// card and revealed once its last is out; a player, a watcher and a watcher who came mid-shoe each deal the shoe
/// again from the seed and find every card they saw where it says. Nothing about a seed — in hex, or as its bytes —
/// is in anything the server sent before that seed's reveal.
fn every_shoe_is_committed_to_revealed_and_checks_card_for_card(db: &Db) {
    let running = start_with(db, patient(), |config| config.fresh_shoes = true);
    let (mut ann, mut bob) = ann_sits_and_bob_watches(&running);
    let revealed = |c: &Client| {
        c.got
            .iter()
            .filter(|m| {
                matches!(
                    m,
                    ServerMessage::News {
                        news: News::ShoeRevealed { .. },
                        ..
                    }
                )
            })
            .count()
    };
    let mut cat: Option<Client> = None;
    let until = Instant::now() + Duration::from_secs(120);
    let all_seen_two = |ann: &Client, bob: &Client, cat: &Option<Client>| {
        [Some(ann), Some(bob), cat.as_ref()]
            .iter()
            .all(|c| c.is_some_and(|c| revealed(c) >= 2))
    };
    while !all_seen_two(&ann, &bob, &cat) {
        assert!(
            Instant::now() < until,
            "two shoes not played through in 120 s"
        );
        let ended = ann.rounds_ended();
        let min = ann.min_bet().0;
        ann.send(&format!(r#"{{"type":"bet","amount":{min}}}"#));
        match cat.as_mut() {
            Some(cat) => pump(&mut [&mut ann, &mut bob, cat], |c| {
                c[0].rounds_ended() > ended
            }),
            None => pump(&mut [&mut ann, &mut bob], |c| c[0].rounds_ended() > ended),
        }
        // Cat comes to watch a few rounds into the first shoe.
        if cat.is_none() && ended == 3 {
            let mut late = Client::connect(&running, "Cat");
            late.send(r#"{"type":"watch","table":"strip"}"#);
            late.wait_for(|m| matches!(m, ServerMessage::Joined { .. }));
            cat = Some(late);
        }
    }
    let cat = cat.expect("Cat came");
    for (who, client) in [("Ann", &ann), ("Bob", &bob), ("Cat", &cat)] {
        let checked = check_the_shoes(&client.got);
        assert!(checked.len() >= 2, "{who} checked {checked:?}");
        for (shoe, cards, unseen) in &checked {
            // A six-deck shoe cut at three quarters deals over 200 cards; a watcher who came mid-shoe saw fewer.
            let least = if who == "Cat" && *shoe == 1 { 20 } else { 150 };
            assert!(*cards >= least, "{who}, shoe {shoe}: {cards} cards checked");
            assert!(*unseen <= 40, "{who}, shoe {shoe}: {unseen} not shown");
        }
    }
    // The secret kept: no seed, in any form, in any message before its reveal.
    let sent: Vec<String> = bob
        .got
        .iter()
        .map(|m| serde_json::to_string(m).expect("a message writes"))
        .collect();
    for (at, message) in bob.got.iter().enumerate() {
        let ServerMessage::News {
            news: News::ShoeRevealed { seed, .. },
            ..
        } = message
        else {
            continue;
        };
        let bytes = fair::seed_from_hex(seed).expect("a seed in hex");
        let forms = [
            seed.clone(),
            seed.to_uppercase(),
            serde_json::to_string(&bytes).expect("bytes write"),
            format!("{bytes:?}"),
        ];
        for earlier in &sent[..at] {
            for form in &forms {
                assert!(!earlier.contains(form.as_str()), "{form} in {earlier}");
            }
        }
        let committed = sent[..at]
            .iter()
            .any(|m| m.contains(&fair::commitment(&bytes)));
        assert!(committed, "the commitment came before the reveal");
        // Revealed only once the shoe's last card is out: the next card drawn is a new shoe's.
        let next_draw = bob.got[at..].iter().find_map(|m| match m {
            ServerMessage::News {
                news: News::Event(event),
                ..
            } if matches!(
                event,
                Event::Shuffled { .. } | Event::Burned | Event::Dealt { .. } | Event::HoleCardDealt
            ) =>
            {
                Some(event)
            }
            _ => None,
        });
        assert!(
            matches!(next_draw, Some(Event::Shuffled { .. }) | None),
            "a card of the revealed shoe came after its reveal: {next_draw:?}"
        );
    }
}

/// A ledger backed up while its server runs (SQLite: `holecard-server --backup-to`; PostgreSQL: `pg_dump`), restored
/// (the file put in place; `pg_restore` into a new database): the copy balances under `--check-ledger`, holds the
/// round played, and a server started on it knows the account and its chips.
fn a_backup_restores_to_a_ledger_that_balances(db: &Db) {
    let running = start(db, patient());
    let token = account(running.addr, "Dora", "a long password 1");
    let mut dora = Client::with_token(running.addr, &token);
    let seat = dora.sit_anywhere("strip");
    let min = dora.min_bet().0;
    dora.send(&format!(r#"{{"type":"bet","amount":{min}}}"#));
    pump(&mut [&mut dora], |c| c[0].rounds_ended() >= 1);
    let chips = dora.chips();
    dora.get_up(seat);
    let (status, me) = http(running.addr, "GET", "/api/me", None, Some(&token));
    assert_eq!(json(&me)["chips"].as_i64(), Some(chips.0), "{status} {me}");

    let copy = Db::on(db.backend()).expect("a second database");
    let server = env!("CARGO_BIN_EXE_holecard-server");
    match db.backend() {
        Backend::Sqlite => {
            let file = copy.url.trim_start_matches("sqlite://").to_string();
            let backed = std::process::Command::new(server)
                .args(["--database", &db.url, "--backup-to", &file])
                .output()
                .expect("the backup runs");
            let said = succeeded(&backed);
            assert!(said.contains("is copied to"), "{said}");
            // A backup never overwrites a file.
            let again = std::process::Command::new(server)
                .args(["--database", &db.url, "--backup-to", &file])
                .output()
                .expect("the backup runs");
            assert_eq!(again.status.code(), Some(2));
            assert!(String::from_utf8_lossy(&again.stderr).contains("there already"));
        }
        Backend::Postgres => {
            let dump = std::env::temp_dir().join(format!("holecard_dump_{}", std::process::id()));
            let dumped = std::process::Command::new("pg_dump")
                .args(["--format=custom", "--no-owner", "--file"])
                .arg(&dump)
                .arg(&db.url)
                .output()
                .expect("pg_dump runs");
            assert!(
                dumped.status.success(),
                "{}",
                String::from_utf8_lossy(&dumped.stderr)
            );
            let restored = std::process::Command::new("pg_restore")
                .args(["--no-owner", "--exit-on-error", "--dbname", &copy.url])
                .arg(&dump)
                .output()
                .expect("pg_restore runs");
            let _ = std::fs::remove_file(&dump);
            assert!(
                restored.status.success(),
                "{}",
                String::from_utf8_lossy(&restored.stderr)
            );
        }
    }
    let report = check_ledger(&copy);
    assert!(
        report["report"]["accounts"].as_u64() >= Some(1),
        "{report:#}"
    );
    assert!(report["report"]["rounds"].as_u64() >= Some(1), "{report:#}");
    assert!(report["report"]["hands"].as_u64() >= Some(1), "{report:#}");
    drop(running);
    let restored = start(&copy, patient());
    let token = account(restored.addr, "Dora", "a long password 1");
    let (status, me) = http(restored.addr, "GET", "/api/me", None, Some(&token));
    assert_eq!(status, 200, "{me}");
    assert_eq!(json(&me)["chips"].as_i64(), Some(chips.0), "{me}");
    drop(restored);
}

on_both!(
    a_kept_round_is_what_a_spectator_was_shown,
    the_figures_move_as_people_play,
    a_backup_restores_to_a_ledger_that_balances,
    with_the_figures_off_none_are_served_and_health_still_is,
    every_shoe_is_committed_to_revealed_and_checks_card_for_card,
    with_no_days_to_keep_no_round_is_kept,
    rounds_are_kept_many_in_one_write_and_each_once,
);

/// `holecard-lab verify` watches a table as a guest while a player plays, checks the first shoe revealed card for
/// card and says so; given a revealed seed, it deals the shoe again, and a seed that is not the one committed to is
/// refused.
#[test]
fn the_lab_checks_a_tables_shoe_and_deals_one_again_from_its_seed() {
    let db = Db::on(Backend::Sqlite).expect("SQLite is built in");
    let running = start_with(&db, patient(), |config| config.fresh_shoes = true);
    let lab = env!("CARGO_BIN_EXE_holecard-lab");
    let mut watcher = std::process::Command::new(lab)
        .args(["verify", "--server", &format!("ws://{}/ws", running.addr)])
        .args(["--table", "strip", "--shoes", "1", "--timeout", "120"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("holecard-lab starts");
    let mut ann = Client::connect(&running, "Ann");
    ann.send(r#"{"type":"sit","table":"strip","seat":3}"#);
    ann.wait_for(|m| matches!(m, ServerMessage::Joined { .. }));
    let until = Instant::now() + Duration::from_secs(120);
    while watcher.try_wait().expect("the lab runs").is_none() {
        assert!(Instant::now() < until, "the lab did not finish in 120 s");
        let ended = ann.rounds_ended();
        let min = ann.min_bet().0;
        ann.send(&format!(r#"{{"type":"bet","amount":{min}}}"#));
        pump(&mut [&mut ann], |c| c[0].rounds_ended() > ended);
    }
    let done = watcher.wait_with_output().expect("the lab's output");
    let said = succeeded(&done);
    assert!(said.contains("checks out: the "), "{said}");

    // The seed Ann was shown at the shoe's end deals its shoe again; another commitment is refused.
    let (committed, seed) = ann
        .got
        .iter()
        .filter_map(|m| match m {
            ServerMessage::News { news, .. } => Some(news),
            _ => None,
        })
        .fold((None, None), |(committed, seed), news| match news {
            News::ShoeCommitted(c) if seed.is_none() => (Some(c.sha256.clone()), seed),
            News::ShoeRevealed { seed: s, .. } if seed.is_none() => (committed, Some(s.clone())),
            _ => (committed, seed),
        });
    let (committed, seed) = (committed.expect("a commitment"), seed.expect("a seed"));
    let dealt = std::process::Command::new(lab)
        .args(["verify", "--seed", &seed, "--sha256", &committed])
        .output()
        .expect("holecard-lab runs");
    let shoe = String::from_utf8_lossy(&dealt.stdout);
    assert!(dealt.status.success(), "{shoe}");
    assert!(shoe.contains("is the commitment announced"), "{shoe}");
    assert!(
        shoe.contains(" 300 "),
        "the shoe's 312 cards in rows of 13: {shoe}"
    );
    let wrong = std::process::Command::new(lab)
        .args(["verify", "--seed", &seed, "--sha256", &"0".repeat(64)])
        .output()
        .expect("holecard-lab runs");
    assert_eq!(wrong.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("not that shoe's seed"));
}

/// The round `round` of `strip` as `/api/hand` gives it, once kept (it is written beside the table's work, a moment
/// after the ledger settles the round; at most 10 s).
fn kept_round(addr: std::net::SocketAddr, round: u64) -> (u16, String) {
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        let (status, body) = http(addr, "GET", &format!("/api/hand/strip/{round}"), None, None);
        if status != 404 || Instant::now() > until {
            return (status, body);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Ann plays two rounds at the minimum bet while Bob watches: the second round's number.
fn two_rounds_played(ann: &mut Client, bob: &mut Client) -> u64 {
    ann.autoplay = true;
    for _ in 0..2 {
        let ended = bob.rounds_ended();
        let min = ann.min_bet().0;
        ann.send(&format!(r#"{{"type":"bet","amount":{min}}}"#));
        pump(&mut [&mut *ann, &mut *bob], |c| c[1].rounds_ended() > ended);
    }
    bob.last_round_started().expect("a round")
}

/// Hands anyone can watch again: each settled round is kept as the table showed it — the table as a spectator saw
/// it before the round, then every news to its end — and served at `/api/hand/TABLE/ROUND`. It is exactly what a
/// spectator at the table was sent (so no face-down card shows before it was turned), and the news follows the view.
fn a_kept_round_is_what_a_spectator_was_shown(db: &Db) {
    let running = start(db, patient());
    let (mut ann, mut bob) = ann_sits_and_bob_watches(&running);
    let round = two_rounds_played(&mut ann, &mut bob);
    let (status, body) = kept_round(running.addr, round);
    assert_eq!(status, 200, "{body}");
    // A round of two people and three companions is a few kilobytes.
    eprintln!("round {round} kept in {} bytes", body.len());
    assert!(body.len() < 32 * 1024, "{} bytes", body.len());
    let replay: holecard::protocol::Replay = serde_json::from_str(&body).expect("a kept round");
    assert_eq!((replay.table.as_str(), replay.round), ("strip", round));
    let ended_at = bob
        .news()
        .iter()
        .find(
            |(_, news)| matches!(news, News::Event(Event::RoundEnded { round: r }) if *r == round),
        )
        .map(|(seq, _)| *seq)
        .expect("Bob saw the round end");
    let shown: Vec<(u64, News)> = bob
        .news()
        .into_iter()
        .filter(|(seq, _)| *seq > replay.seq && *seq <= ended_at)
        .collect();
    assert_eq!(replay.news, shown, "what Bob was sent, no more, no less");
    assert!(
        shown
            .iter()
            .any(|(_, news)| matches!(news, News::Event(Event::RoundStarted { .. }))),
        "the whole round: {shown:?}"
    );
    // The round plays on the view it starts from, to the round's end.
    let mut view = *replay.view;
    for (_, news) in &replay.news {
        if let News::Event(event) = news {
            view.apply(event).expect("the news follows the view");
        }
    }
    assert_eq!(view.round(), round);
    assert_eq!(view.phase(), holecard::engine::Phase::Betting);
    // The first round is kept too; a round not played, or not a number, is said so.
    let (status, _) = kept_round(running.addr, round - 1);
    assert_eq!(status, 200);
    let (status, body) = http(running.addr, "GET", "/api/hand/strip/999", None, None);
    assert_eq!(status, 404, "{body}");
    assert!(
        json(&body)["error"]
            .as_str()
            .is_some_and(|e| e.contains("is not kept here")),
        "{body}"
    );
    let (status, _) = http(running.addr, "GET", "/api/hand/strip/first", None, None);
    assert_eq!(status, 400);
}

/// With `--keep-replays-days 0` the operator keeps no round: the rounds are played and settled as ever, and none is
/// served, however long it is waited for (a kept round is written a quarter of a second after its settlement).
fn with_no_days_to_keep_no_round_is_kept(db: &Db) {
    let running = start_with(db, patient(), |config| config.keep_replays = Duration::ZERO);
    let (mut ann, mut bob) = ann_sits_and_bob_watches(&running);
    let round = two_rounds_played(&mut ann, &mut bob);
    std::thread::sleep(holecard::server::replays::GATHER * 8);
    for round in [round - 1, round] {
        let (status, body) = http(
            running.addr,
            "GET",
            &format!("/api/hand/strip/{round}"),
            None,
            None,
        );
        assert_eq!(status, 404, "round {round}: {body}");
        assert!(
            body.contains("is not kept here (this casino keeps no rounds to watch again)"),
            "{body}"
        );
    }
}

/// The ledger keeps rounds to watch again many in one write, as the keeper hands them (up to its most at once),
/// each once: a round kept again is not changed.
fn rounds_are_kept_many_in_one_write_and_each_once(db: &Db) {
    use holecard::server::ledger::Store;
    use holecard::server::replays::MOST_AT_ONCE;
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async {
        let store = Store::open(&db.url).await.expect("the ledger opens");
        let json = |table: &str, round: u64| format!(r#"{{"table":"{table}","round":{round}}}"#);
        let tables = ["strip", "downtown"];
        let rounds: Vec<(&str, u64, String)> = (0..MOST_AT_ONCE)
            .map(|i| {
                let (table, round) = (tables[i % 2], 1 + (i / 2) as u64);
                (table, round, json(table, round))
            })
            .collect();
        store.keep_replays(&rounds).await.expect("kept at once");
        for (table, round, kept) in &rounds {
            let got = store
                .replay(table, *round)
                .await
                .expect("the ledger answers");
            assert_eq!(got.as_deref(), Some(kept.as_str()), "{table} {round}");
        }
        let last = (MOST_AT_ONCE / 2) as u64;
        assert_eq!(
            store.replay("strip", last + 1).await.expect("answers"),
            None
        );
        // Kept again, with the first one changed: each round is kept once, as it was first.
        let again = vec![
            ("strip", 1, "changed".to_string()),
            ("strip", last + 1, json("strip", last + 1)),
        ];
        store.keep_replays(&again).await.expect("kept again");
        assert_eq!(
            store.replay("strip", 1).await.expect("answers"),
            Some(json("strip", 1))
        );
        assert_eq!(
            store.replay("strip", last + 1).await.expect("answers"),
            Some(json("strip", last + 1))
        );
        store.keep_replays(&[]).await.expect("nothing to keep");
    });
}

/// The log on standard error: plain lines (`holecard-server: …`) by default, one JSON object a line with
/// `--log-format json`.
#[test]
fn the_log_is_plain_lines_or_json_lines_when_asked() {
    let db = Db::on(Backend::Sqlite).expect("SQLite is built in");
    // The tests' servers are pinned (`--seed 7`): the log warns that such a casino's shoes can be foreseen.
    let plain = launch_with(&db, ("10", "10", "0"), &[]).kill();
    let lines: Vec<&str> = plain.lines().collect();
    assert!(
        lines[0].starts_with("holecard-server: warning: --seed 7: every shoe"),
        "{plain}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("holecard-server: listening at http://127.0.0.1:")),
        "{plain}"
    );
    let json = launch_with(&db, ("10", "10", "0"), &["--log-format", "json"]).kill();
    let lines: Vec<serde_json::Value> = json
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect();
    let started = lines
        .iter()
        .find(|l| {
            l["message"]
                .as_str()
                .is_some_and(|m| m.contains("listening at http://"))
        })
        .unwrap_or_else(|| panic!("no start in {json}"));
    assert_eq!(started["level"], "INFO", "{started}");
    assert!(
        lines.iter().any(|l| l["level"] == "WARN"
            && l["message"]
                .as_str()
                .is_some_and(|m| m.starts_with("--seed 7"))),
        "{json}"
    );
    assert!(started["timestamp"].is_string(), "{started}");
}
