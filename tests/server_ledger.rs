//! The server's accounts and ledger over real sockets and a real database (SQLite, and PostgreSQL when
//! `HOLECARD_TEST_POSTGRES` names a server, as on CI): accounts, bankrolls and history that persist, rounds settled
//! once, the ledger's sums, and a server killed with SIGKILL at any moment losing and making no chip.

mod serving;

use holecard::engine::{Cents, Event};
use holecard::server::ledger::{Player, Settlement};
use holecard::server::protocol::{Refusal, ServerMessage};
use serving::{
    Client, Db, account, check_ledger, hello_refused, http, json, launch, patient, pump,
    start_with, with_store,
};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

on_both!(
    accounts_keep_their_bankroll_history_and_highscore,
    a_round_is_settled_once_and_a_broken_sum_is_found,
    a_history_cut_short_keeps_its_oldest_round_whole,
    a_server_killed_mid_round_refunds_the_round_and_keeps_every_chip,
    a_server_killed_at_any_moment_loses_and_makes_no_chip,
    the_load_tool_plays_every_bot_without_an_error,
    an_accounts_reset_is_in_the_ledger_and_its_hour_outlasts_a_restart,
    an_account_away_longer_than_the_hold_comes_back_with_its_token,
    logging_out_or_a_new_password_ends_every_session_and_seat_at_once,
    names_that_look_alike_cannot_be_played_under_at_once,
    password_attempts_are_limited_per_name_and_per_address,
);

/// An account's session lasts 30 days in the ledger: coming back after its seat's hold has run out (the game
/// closed for a while, a page opened again later) is a welcome, not "that token is not known here".
fn an_account_away_longer_than_the_hold_comes_back_with_its_token(db: &Db) {
    let pace = holecard::server::table::Pace {
        hold: Duration::from_millis(300),
        ..patient()
    };
    let running = start_with(db, pace, |_| {});
    let token = account(running.addr, "Dana", "correct horse");
    let mut dana = Client::with_token(running.addr, &token);
    dana.sit_anywhere("strip");
    drop(dana);
    // Longer than the hold: the seat is given up and the session held here is stale.
    std::thread::sleep(Duration::from_millis(900));
    let mut back = Client::with_token(running.addr, &token);
    let welcome = back
        .got
        .iter()
        .find(|m| matches!(m, ServerMessage::Welcome { .. }))
        .cloned();
    assert!(
        matches!(&welcome, Some(ServerMessage::Welcome { name, account: true, .. }) if name == "Dana"),
        "{welcome:?}"
    );
    // And it plays: it can sit down again with its chips.
    back.sit_anywhere("strip");
    assert_eq!(back.chips(), Cents::units(1_000));
}

fn accounts_keep_their_bankroll_history_and_highscore(db: &Db) {
    let pace = holecard::server::table::Pace {
        turn: Duration::from_secs(1),
        ..patient()
    };
    let running = start_with(db, pace, |config| {
        let second = config.tables[0].1.clone();
        config.tables.push(("downtown".to_string(), second));
    });
    let addr = running.addr;
    // Registering: a clear refusal for a bad name, a short password, a taken name, and a body that is not JSON.
    let post = |path: &str, body: &str| http(addr, "POST", path, Some(body), None);
    let (status, body) = post(
        "/api/register",
        r#"{"name":"<Ann>","password":"correct horse"}"#,
    );
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("letters, digits"), "{body}");
    let (status, body) = post("/api/register", r#"{"name":"Ann","password":"short"}"#);
    assert_eq!(
        (status, json(&body)["error"].as_str()),
        (400, Some("a password has 8 to 128 characters"))
    );
    let (status, body) = post("/api/register", r#"{"name":"Ann","password":"#);
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("must be JSON"), "{body}");
    let (status, body) = post(
        "/api/register",
        r#"{"name":"Ann","password":"correct horse"}"#,
    );
    assert_eq!(status, 200, "{body}");
    let first = json(&body);
    assert_eq!(
        (first["name"].as_str(), first["chips"].as_i64()),
        (Some("Ann"), Some(100_000))
    );
    let (status, _) = post(
        "/api/register",
        r#"{"name":"ANN","password":"another one"}"#,
    );
    assert_eq!(status, 409);
    // Logging in: a wrong password and an unknown name are the same 401.
    let (wrong, body) = post("/api/login", r#"{"name":"Ann","password":"wrong horse"}"#);
    let (nobody, _) = post(
        "/api/login",
        r#"{"name":"Nobody","password":"wrong horse"}"#,
    );
    assert_eq!((wrong, nobody), (401, 401), "{body}");
    let token = account(addr, "Ann", "correct horse");
    assert_ne!(
        token,
        first["token"].as_str().unwrap_or_default(),
        "each login is a session"
    );

    // A guest cannot take an account's name; the account plays under its token.
    let (mut zed, _) = tungstenite::connect(format!("ws://{addr}/ws")).expect("connects");
    zed.send(tungstenite::Message::text(
        r#"{"type":"hello","version":2,"name":"ann"}"#,
    ))
    .expect("sends");
    let reply = zed.read().expect("an answer");
    assert!(
        reply.to_text().expect("text").contains("an account's"),
        "{reply}"
    );
    let mut ann = Client::with_token(addr, &token);
    assert!(
        ann.got.iter().any(
            |m| matches!(m, ServerMessage::Welcome { account: true, name, .. } if name == "Ann")
        )
    );
    let mut bob = Client::connect(&running, "Bob");
    ann.sit_anywhere("strip");
    bob.sit_anywhere("strip");
    assert_eq!(
        ann.chips(),
        Cents::units(1_000),
        "the account's bankroll came to the table"
    );
    for round in 1..=3 {
        ann.send(r#"{"type":"bet","amount":2500}"#);
        bob.send(r#"{"type":"bet","amount":1000}"#);
        pump(&mut [&mut ann, &mut bob], |c| {
            c.iter().all(|c| c.rounds_ended() >= round)
        });
    }
    // The ledger has what the table has: bankroll, highscore, every hand.
    let chips = ann.chips();
    let (status, body) = http(addr, "GET", "/api/me", None, Some(&token));
    assert_eq!(status, 200, "{body}");
    assert_eq!(json(&body)["chips"].as_i64(), Some(chips.0));
    let (status, body) = http(addr, "GET", "/api/history", None, Some(&token));
    assert_eq!(status, 200, "{body}");
    let hands = json(&body);
    let hands = hands.as_array().expect("a list");
    assert!(hands.len() >= 3, "{hands:?}");
    let won: i64 = hands
        .iter()
        .map(|h| h["net"].as_i64().expect("a net"))
        .sum();
    assert_eq!(
        Cents::units(1_000) + Cents(won),
        chips,
        "the hands' nets are the bankroll's change"
    );
    assert_eq!(hands[0]["bankroll"].as_i64(), Some(chips.0));
    assert!(
        hands
            .iter()
            .all(|h| h["table"] == "strip" && h["cards"].as_str().is_some_and(|c| c.len() >= 4))
    );
    assert_eq!(
        http(addr, "GET", "/api/history", None, None).0,
        401,
        "history is the account's own"
    );
    assert_eq!(
        http(addr, "GET", "/api/history", None, Some("not-a-token")).0,
        401
    );
    let (_, board) = http(addr, "GET", "/api/leaderboard", None, None);
    let board = json(&board);
    let board = board.as_array().expect("a list");
    assert_eq!(
        board.len(),
        1,
        "guests are not on the leaderboard: {board:?}"
    );
    assert_eq!(board[0]["name"], "Ann");
    assert!(board[0]["highscore"].as_i64() >= Some(chips.0.max(100_000)));

    // While her chips are in a round at one table they cannot sit at another; when it ends, they can.
    ann.autoplay = false;
    let ended = ann.rounds_ended();
    ann.send(r#"{"type":"bet","amount":1000}"#);
    bob.send(r#"{"type":"bet","amount":1000}"#);
    let seat = ann.seat;
    let mine = |m: &ServerMessage| matches!(m, ServerMessage::Clock(t) if t.seat.is_some() && t.seat == seat);
    let waited = (0..400).find(|_| {
        ann.poll();
        bob.poll();
        ann.got.iter().rev().take(20).any(mine) || ann.rounds_ended() > ended
    });
    assert!(waited.is_some(), "the round was dealt");
    if ann.rounds_ended() == ended {
        ann.send(r#"{"type":"sit","table":"downtown","seat":3}"#);
        let (code, message) = ann.refusal();
        assert_eq!(code, Refusal::SeatUnavailable);
        assert!(message.contains("still at the table"), "{message}");
        // The clock stands for her (1 s), the round ends, and she is up.
        pump(&mut [&mut bob], |c| c[0].rounds_ended() > ended);
    }
    // The first table writes her chips free in its own time after the round's news has gone out (a busy machine
    // can be a moment behind): until then she is told to wait for its round to end, as any client is, and asks again.
    let sat = (0..50).any(|_| {
        ann.send(r#"{"type":"sit","table":"downtown","seat":3}"#);
        match ann.wait_for(|m| {
            matches!(
                m,
                ServerMessage::Joined { seat: Some(3), .. } | ServerMessage::Refused { .. }
            )
        }) {
            ServerMessage::Joined { .. } => true,
            ServerMessage::Refused { message, .. } if message.contains("still at the table") => {
                std::thread::sleep(Duration::from_millis(100));
                false
            }
            other => panic!("{other:?}"),
        }
    });
    assert!(sat, "her chips never came free of the first table");
    let chips = with_store(db, async |store| {
        store
            .account("ann")
            .await
            .expect("answers")
            .expect("Ann")
            .chips
    });
    assert_eq!(ann.chips(), chips, "the bankroll went to the next table");
    drop((ann, bob, running));
    let report = with_store(db, async |store| {
        store.check().await.expect("the check runs")
    });
    assert!(report.balanced(), "{:?}", report.problems);
    assert!(report.rounds >= 3 && report.hands >= 3, "{report:?}");
}

/// Round 1 at table "t" (rules "6D S17") as its events tell it, the account `key` playing seat 2 and ending with
/// `chips_after`, the house gaining `house_net`.
fn round_one_at_seat_2(
    events: &[holecard::engine::Event],
    key: &str,
    chips_after: Cents,
    house_net: Cents,
) -> Settlement {
    let mut recorder = holecard::host::record::Recorder::new();
    let record = events
        .iter()
        .find_map(|e| recorder.hear(e))
        .expect("the round ends");
    Settlement {
        table: "t".to_string(),
        rules: "6D S17".to_string(),
        round: 1,
        record,
        players: vec![(
            2,
            Player::Account {
                key: key.to_string(),
                chips_after,
            },
        )],
        house_net,
    }
}

/// A history of the last hand only, when the last round was split: the round comes whole, its first hand with the
/// round's side bet (which a limit cutting the round after its second hand used to leave out, and the hands' nets
/// with it no longer added up to the bankroll's change).
fn a_history_cut_short_keeps_its_oldest_round_whole(db: &Db) {
    with_store(db, async |store| {
        let (ann, _) = store
            .register("Ann", "correct horse", Cents::units(100))
            .await
            .expect("registers");
        store
            .house("t", Cents::units(1_000))
            .await
            .expect("a house");
        store
            .claim_seat(&ann.key, 0, "t", 2)
            .await
            .expect("seated at t");
        use holecard::engine::Suit::{Hearts, Spades};
        use holecard::engine::side::{SideBet, SideWin};
        use holecard::engine::{Event, Outcome, Rank, Spot};
        let card = |rank| holecard::engine::Card::new(0, Spades, rank);
        let to = |hand| Spot::Player { seat: 2, hand };
        // 8♠ 8♥ against a 9, split: the first hand wins $10, the second loses $10, and $5 on Perfect Pairs wins 6 to
        // 1 on the mixed pair.
        let events = [
            Event::RoundStarted { round: 1 },
            Event::Dealt {
                to: to(0),
                card: card(Rank::Eight),
            },
            Event::Dealt {
                to: Spot::Dealer,
                card: card(Rank::Nine),
            },
            Event::Dealt {
                to: to(0),
                card: holecard::engine::Card::new(0, Hearts, Rank::Eight),
            },
            Event::HoleCardDealt,
            Event::SideBetSettled {
                seat: 2,
                bet: SideBet::PerfectPairs,
                stake: Cents::units(5),
                win: Some(SideWin::MixedPair),
                net: Cents::units(30),
            },
            Event::Split {
                seat: 2,
                hand: 0,
                wager: Cents::units(10),
            },
            Event::Dealt {
                to: to(0),
                card: card(Rank::King),
            },
            Event::Dealt {
                to: to(1),
                card: card(Rank::Seven),
            },
            Event::HoleCardRevealed {
                card: card(Rank::Nine),
            },
            Event::Settled {
                seat: 2,
                hand: 0,
                outcome: Outcome::Win,
                wager: Cents::units(10),
                net: Cents::units(10),
            },
            Event::Settled {
                seat: 2,
                hand: 1,
                outcome: Outcome::Lose,
                wager: Cents::units(10),
                net: Cents::units(-10),
            },
            Event::RoundEnded { round: 1 },
        ];
        let settlement =
            round_one_at_seat_2(&events, &ann.key, Cents::units(130), Cents::units(-30));
        let settled = store.settle(&settlement).await.expect("settles");
        assert!(settled.fresh && settled.disputed.is_empty(), "{settled:?}");
        let hands = store.history(&ann.key, 1).await.expect("a history");
        let numbers: Vec<u8> = hands.iter().map(|h| h.hand).collect();
        assert_eq!(numbers, [1, 0], "the split round, whole, newest hand first");
        assert!(hands[0].side_bets.is_empty(), "{:?}", hands[0].side_bets);
        assert_eq!(hands[1].side_bets.len(), 1, "{:?}", hands[1]);
        assert_eq!(
            (
                hands[1].side_bets[0].bet.as_str(),
                hands[1].side_bets[0].net
            ),
            ("Perfect Pairs", Cents::units(30))
        );
        assert_eq!(hands[1].side_bets[0].won.as_deref(), Some("a mixed pair"));
        let nets: Cents = hands
            .iter()
            .flat_map(|h| std::iter::once(h.net).chain(h.side_bets.iter().map(|b| b.net)))
            .fold(Cents::ZERO, |sum, net| sum + net);
        assert_eq!(
            nets,
            Cents::units(30),
            "the round's hands and side bet, all of it"
        );
        let report = store.check().await.expect("the check runs");
        assert!(report.balanced(), "{:?}", report.problems);
    });
}

fn a_round_is_settled_once_and_a_broken_sum_is_found(db: &Db) {
    with_store(db, async |store| {
        let (ann, _) = store
            .register("Ann", "correct horse", Cents::units(100))
            .await
            .expect("registers");
        let (house, before) = store
            .house("t", Cents::units(1_000))
            .await
            .expect("a house");
        assert_eq!((house, before), (Cents::units(1_000), 0));
        assert_eq!(
            store
                .claim_seat(&ann.key, 0, "t", 2)
                .await
                .expect("seated at t"),
            Cents::units(100)
        );
        // A round Ann won $10 on, settled twice: the second time changes nothing.
        let card = |rank| holecard::engine::Card::new(0, holecard::engine::Suit::Spades, rank);
        use holecard::engine::{Outcome, Rank, Spot};
        let events = [
            Event::RoundStarted { round: 1 },
            Event::Dealt {
                to: Spot::Player { seat: 2, hand: 0 },
                card: card(Rank::Ten),
            },
            Event::Dealt {
                to: Spot::Dealer,
                card: card(Rank::Nine),
            },
            Event::Dealt {
                to: Spot::Player { seat: 2, hand: 0 },
                card: card(Rank::Queen),
            },
            Event::HoleCardDealt,
            Event::HoleCardRevealed {
                card: card(Rank::Eight),
            },
            Event::Settled {
                seat: 2,
                hand: 0,
                outcome: Outcome::Win,
                wager: Cents::units(10),
                net: Cents::units(10),
            },
            Event::RoundEnded { round: 1 },
        ];
        let settlement =
            round_one_at_seat_2(&events, &ann.key, Cents::units(110), Cents::units(-10));
        let settled = store.settle(&settlement).await.expect("settles");
        assert!(settled.fresh && settled.disputed.is_empty(), "{settled:?}");
        let again = store.settle(&settlement).await.expect("answers");
        assert!(!again.fresh, "settled once");
        let now = store
            .account(&ann.key)
            .await
            .expect("answers")
            .expect("Ann");
        assert_eq!(
            (now.chips, now.highscore),
            (Cents::units(110), Cents::units(110))
        );
        let hands = store.history(&ann.key, 10).await.expect("a history");
        assert_eq!(hands.len(), 1);
        assert_eq!(
            (
                hands[0].cards.as_str(),
                hands[0].dealer.as_str(),
                hands[0].outcome.as_str()
            ),
            ("10♠ Q♠", "9♠ 8♠", "Win")
        );
        let report = store.check().await.expect("the check runs");
        assert!(report.balanced(), "{:?}", report.problems);
        assert_eq!(
            (report.accounts, report.rounds, report.hands, report.chips),
            (1, 1, 1, Cents::units(110))
        );
        // A line the table and the ledger disagree on does not keep the round from being written: the round is
        // settled, the line's net goes to the account as the ledger has it, and the line is kept as a dispute,
        // which the check reports and the table is told of (it stands the account up).
        let mut wrong = settlement.clone();
        wrong.round = 2;
        wrong.players[0].1 = Player::Account {
            key: ann.key.clone(),
            chips_after: Cents::units(999),
        };
        let settled = store.settle(&wrong).await.expect("settles");
        assert!(settled.fresh, "{settled:?}");
        assert_eq!(settled.disputed, vec![ann.key.clone()]);
        let report = store.check().await.expect("the check runs");
        assert_eq!(
            report.problems,
            vec![
                "table t round 2: ann's line was disputed (the table and the ledger disagreed about it)"
                    .to_string()
            ]
        );
        assert_eq!(
            (report.accounts, report.rounds, report.hands, report.chips),
            (1, 2, 2, Cents::units(120))
        );
        // A round with a side bet: Ann's $5 on Perfect Pairs paid 6 to 1 beside her $10 hand's win. Her entry is the
        // hand and the side bet, the side bet is kept beside the hand, and her history shows it on her first hand.
        let side = Event::SideBetSettled {
            seat: 2,
            bet: holecard::engine::side::SideBet::PerfectPairs,
            stake: Cents::units(5),
            win: Some(holecard::engine::side::SideWin::MixedPair),
            net: Cents::units(30),
        };
        let mut with_side = events.to_vec();
        with_side.insert(4, side);
        with_side[0] = Event::RoundStarted { round: 3 };
        let mut recorder = holecard::host::record::Recorder::new();
        let record = with_side
            .iter()
            .find_map(|e| recorder.hear(e))
            .expect("the round ends");
        let mut third = settlement.clone();
        third.round = 3;
        third.record = record;
        third.players[0].1 = Player::Account {
            key: ann.key.clone(),
            chips_after: Cents::units(160),
        };
        third.house_net = Cents::units(-40);
        let settled = store.settle(&third).await.expect("settles");
        assert!(settled.fresh && settled.disputed.is_empty(), "{settled:?}");
        let hands = store.history(&ann.key, 10).await.expect("a history");
        let played = hands.iter().find(|h| h.round == 3).expect("round 3");
        assert_eq!(
            played.side_bets,
            [holecard::protocol::PlayedSideBet {
                bet: "Perfect Pairs".into(),
                stake: Cents::units(5),
                won: Some("a mixed pair".into()),
                net: Cents::units(30),
            }]
        );
        let report = store.check().await.expect("the check runs");
        assert_eq!(
            report.problems.len(),
            1,
            "only the dispute: {:?}",
            report.problems
        );
        assert_eq!(report.chips, Cents::units(160));
        // Chips made from nothing, a round that does not sum to zero, a house off by a cent: each is found.
    });
    for tamper in [
        "UPDATE accounts SET chips = chips + 1",
        "UPDATE rounds SET house_net = house_net - 1",
        "UPDATE side_bets SET net = net + 1",
    ] {
        serving::tamper(db, tamper);
    }
    with_store(db, async |store| {
        let report = store.check().await.expect("the check runs");
        assert!(!report.balanced());
        let problems = report.problems.join("\n");
        assert!(problems.contains("account Ann holds 16001"), "{problems}");
        assert!(
            problems.contains("table t round 3: ann's side bets are not the side bets kept"),
            "{problems}"
        );
        assert!(
            problems.contains("table t round 1: the nets sum to -1"),
            "{problems}"
        );
        assert!(
            problems.contains("the house of table t holds 94000"),
            "{problems}"
        );
    });
}

/// An account's chips and the sum of its hands' nets, from the API.
/// How many hands the account's history holds.
fn played(addr: SocketAddr, token: &str) -> usize {
    let (status, hands) = http(addr, "GET", "/api/history?limit=1000", None, Some(token));
    assert_eq!(status, 200, "{hands}");
    json(&hands).as_array().map_or(0, Vec::len)
}

fn bankroll(addr: SocketAddr, token: &str) -> (Cents, Cents) {
    let (status, me) = http(addr, "GET", "/api/me", None, Some(token));
    assert_eq!(status, 200, "{me}");
    let (status, hands) = http(addr, "GET", "/api/history?limit=1000", None, Some(token));
    assert_eq!(status, 200, "{hands}");
    // Each hand's net, and on a seat's first hand its side bets'.
    let won = json(&hands)
        .as_array()
        .expect("a list")
        .iter()
        .map(|h| {
            let sides: i64 = h["side_bets"].as_array().map_or(0, |bets| {
                bets.iter()
                    .map(|b| b["net"].as_i64().expect("a side bet's net"))
                    .sum()
            });
            h["net"].as_i64().expect("a net") + sides
        })
        .sum();
    (
        Cents(json(&me)["chips"].as_i64().expect("chips")),
        Cents(won),
    )
}

fn a_server_killed_mid_round_refunds_the_round_and_keeps_every_chip(db: &Db) {
    let server = launch(db, ("30", "30", "600"));
    let tokens = [
        account(server.addr, "Ann", "correct horse"),
        account(server.addr, "Bob", "battery staple"),
    ];
    let mut ann = Client::with_token(server.addr, &tokens[0]);
    let mut bob = Client::with_token(server.addr, &tokens[1]);
    let table = "las-vegas-strip";
    let seat = ann.sit_anywhere(table);
    bob.sit_anywhere(table);
    // A round played to its end and settled.
    ann.send(r#"{"type":"bet","amount":2500}"#);
    bob.send(r#"{"type":"bet","amount":1000}"#);
    pump(&mut [&mut ann, &mut bob], |c| {
        c.iter().all(|c| c.rounds_ended() >= 1)
    });
    // Then rounds until one stops at Ann's decision: the server dies there, her bet and Bob's on the felt.
    ann.autoplay = false;
    let before = (ann.chips(), bob.chips());
    let mut stopped = false;
    for _ in 0..20 {
        let ended = ann.rounds_ended();
        let before_bet = (ann.chips(), bob.chips());
        ann.send(r#"{"type":"bet","amount":5000}"#);
        bob.send(r#"{"type":"bet","amount":2000}"#);
        let from = ann.got.len();
        let until = Instant::now() + Duration::from_secs(20);
        while Instant::now() < until && ann.rounds_ended() == ended {
            ann.poll();
            bob.poll();
            if ann.got[from..]
                .iter()
                .any(|m| matches!(m, ServerMessage::Clock(t) if t.seat == Some(seat)))
            {
                stopped = true;
                break;
            }
        }
        if stopped {
            assert_eq!(
                before_bet.0 - ann.chips(),
                Cents::units(50),
                "her bet is on the felt"
            );
            break;
        }
        pump(&mut [&mut ann, &mut bob], |c| {
            c.iter().all(|c| c.rounds_ended() > ended)
        });
    }
    assert!(stopped, "a round waited for Ann within 20 rounds");
    let settled = (
        ann.chips() + Cents::units(50),
        bob.chips() + Cents::units(20),
    );
    assert!(settled.0 <= before.0 + Cents::units(100_000), "{settled:?}");
    drop((ann, bob));
    let said = server.kill();
    assert!(!said.contains("panicked"), "{said}");

    let server = launch(db, ("30", "30", "600"));
    // The unsettled round is refunded: both hold what they had before its bets, and their histories add up.
    for (token, chips) in tokens.iter().zip([settled.0, settled.1]) {
        let (now, won) = bankroll(server.addr, token);
        assert_eq!(now, chips, "the bets on the felt came back");
        assert_eq!(now, Cents::units(1_000) + won, "the history is whole");
    }
    // The session survived too, and so did her seat: the table held it for her, with her chips in front of it;
    // the next round settles.
    let mut ann = Client::with_token(server.addr, &tokens[0]);
    let back = ann.find_or_wait(|m| matches!(m, ServerMessage::Joined { .. }));
    assert!(
        matches!(&back, ServerMessage::Joined { table: t, seat: Some(s), .. } if t == table && *s == seat),
        "{back:?}"
    );
    assert_eq!(ann.chips(), settled.0);
    let played_before = played(server.addr, &tokens[0]);
    ann.send(r#"{"type":"bet","amount":1000}"#);
    pump(&mut [&mut ann], |c| c[0].rounds_ended() >= 1);
    // The round's end goes out as the table writes it down: wait (a bounded while) for the ledger to hold it, so
    // the kill comes after it and not in the middle of it.
    for _ in 0..100 {
        if played(server.addr, &tokens[0]) > played_before {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(ann);
    let said = server.kill();
    assert!(
        said.contains("never settled before the server stopped"),
        "{said}"
    );
    let report = check_ledger(db);
    assert!(report["report"]["rounds"].as_u64() >= Some(2), "{report}");
}

fn a_server_killed_at_any_moment_loses_and_makes_no_chip(db: &Db) {
    // Quick tables (a person's turn is 1 s, a companion's 40 ms), two accounts betting every round; killed at 6
    // moments spread over the rounds by a fixed sequence, so a failure can be run again.
    let moments_ms = [350u64, 1_700, 900, 2_300, 1_250, 600];
    let names = [("Cat", "correct horse"), ("Dan", "battery staple")];
    let mut tokens = Vec::new();
    let mut log = String::new();
    for (i, wait) in moments_ms.iter().enumerate() {
        let server = launch(db, ("1", "1", "40"));
        if tokens.is_empty() {
            tokens = names
                .iter()
                .map(|(n, p)| account(server.addr, n, p))
                .collect();
        }
        let mut clients: Vec<Client> = tokens
            .iter()
            .map(|t| Client::with_token(server.addr, t))
            .collect();
        // At Atlantic City a $15 bet with 21+3 and Perfect Pairs beside it: side bets are settled with the round's
        // first cards, so a kill catches them settled and not.
        let table = ["atlantic-city", "las-vegas-strip"][i % 2];
        let bet = if table == "atlantic-city" {
            r#"{"type":"bet","amount":1500,"side_bets":[{"bet":"TwentyOnePlusThree","amount":100},{"bet":"PerfectPairs","amount":500}]}"#
        } else {
            r#"{"type":"bet","amount":1000}"#
        };
        for client in &mut clients {
            client.sit_anywhere(table);
        }
        let mut bet_for = vec![usize::MAX; clients.len()];
        let until = Instant::now() + Duration::from_millis(*wait);
        while Instant::now() < until {
            for (client, last) in clients.iter_mut().zip(bet_for.iter_mut()) {
                client.poll();
                if client.rounds_ended() != *last && client.chips() >= Cents::units(21) {
                    *last = client.rounds_ended();
                    client.send(bet);
                }
            }
        }
        drop(clients);
        let said = server.kill();
        assert!(!said.contains("panicked"), "{said}");
        log += &said;
        check_ledger(db);
    }
    let server = launch(db, ("1", "1", "40"));
    let (mut played, mut side_bets) = (0, 0);
    for token in &tokens {
        let (now, won) = bankroll(server.addr, token);
        assert_eq!(
            now,
            Cents::units(1_000) + won,
            "every chip is in the history"
        );
        let hands = json(
            &http(
                server.addr,
                "GET",
                "/api/history?limit=1000",
                None,
                Some(token),
            )
            .1,
        );
        let hands = hands.as_array().cloned().unwrap_or_default();
        played += hands.len();
        side_bets += hands
            .iter()
            .map(|h| h["side_bets"].as_array().map_or(0, Vec::len))
            .sum::<usize>();
    }
    assert!(side_bets >= 4, "{side_bets} side bets settled");
    log += &server.kill();
    // The kills fell mid-round (a refund said on restart) and between rounds, with hands settled between them.
    assert!(
        log.contains("never settled before the server stopped"),
        "{log}"
    );
    assert!(played >= 20, "{played} hands settled");
}

fn the_load_tool_plays_every_bot_without_an_error(db: &Db) {
    use holecard::server::load::{LoadConfig, run};
    let pace = holecard::server::table::Pace {
        bet: Duration::from_secs(3),
        turn: Duration::from_secs(3),
        companion: Duration::ZERO,
        ..holecard::server::table::Pace::default()
    };
    let running = start_with(db, pace, |config| {
        config.tables = holecard::server::copies(std::mem::take(&mut config.tables), 3);
        config.per_address = 64;
    });
    let config = LoadConfig {
        server: format!("ws://{}", running.addr),
        clients: 15,
        tables: 3,
        rounds: 3,
        database: Some(db.url.clone()),
        timeout: Duration::from_secs(120),
    };
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let report = runtime.block_on(run(&config)).expect("the load runs");
    // Four seats are free at each table (three companions sit there): twelve bots play, three watch.
    assert_eq!(
        (report.clients, report.tables, report.seated),
        (15, 3, 12),
        "{report:?}"
    );
    assert_eq!(report.errors, 0, "{:?}", report.error_samples);
    assert_eq!(report.ledger_balanced, Some(true));
    // Every seated bot bet in each of its rounds, and played its hands.
    assert!(report.commands >= 12 * 3 * 2, "{report:?}");
    assert!(
        report.latency_p50_ms > 0.0 && report.latency_p99_ms >= report.latency_p50_ms,
        "{report:?}"
    );
    // A round's hands go to the ledger as the round settles, a moment after the bots have seen it end: wait for
    // them (a bounded while) before the server stops, as a busy machine can put the last table's a second behind.
    let recorded = || {
        with_store(db, async |store| {
            store.check().await.expect("the check runs").hands
        })
    };
    let mut hands = recorded();
    for _ in 0..75 {
        if hands >= 12 * 3 {
            break;
        }
        std::thread::sleep(Duration::from_millis(200));
        hands = recorded();
    }
    drop(running);
    assert!(hands >= 12 * 3, "{hands} hands recorded");
}

fn an_accounts_reset_is_in_the_ledger_and_its_hour_outlasts_a_restart(db: &Db) {
    let pace = holecard::server::table::Pace {
        turn: Duration::from_millis(300),
        ..patient()
    };
    // A $10 stake at a $10 table: one lost hand and the account is out of chips.
    let start = || start_with(db, pace, |config| config.stake = Cents::units(10));
    let running = start();
    let token = account(running.addr, "Eve", "correct horse");
    let mut eve = Client::with_token(running.addr, &token);
    eve.sit_anywhere("strip");
    eve.send(r#"{"type":"reset"}"#);
    assert_eq!(eve.refusal().0, Refusal::NoReset, "she still has her $10");
    eve.go_broke();
    eve.send(r#"{"type":"reset"}"#);
    eve.wait_for(|m| {
        matches!(
            m,
            ServerMessage::News {
                news: holecard::host::News::Event(Event::Rebought { .. }),
                ..
            }
        )
    });
    assert_eq!(eve.chips(), Cents::units(10));
    eve.go_broke();
    drop(eve);
    drop(running);
    // The ledger has the reset; after a restart the hour still holds, at a table and away from one.
    let running = start();
    let mut eve = Client::with_token(running.addr, &token);
    eve.send(r#"{"type":"reset"}"#);
    let (code, message) = eve.refusal();
    assert_eq!(code, Refusal::NoReset);
    assert!(message.contains("once an hour"), "{message}");
    eve.send(r#"{"type":"sit","table":"strip","seat":3}"#);
    let (code, message) = eve.refusal();
    assert_eq!(code, Refusal::SeatUnavailable);
    assert!(message.contains("no chips"), "{message}");
    drop((eve, running));
    let report = with_store(db, async |store| {
        store.check().await.expect("the check runs")
    });
    assert!(report.balanced(), "{:?}", report.problems);
    let (stake, reset) = serving::entries(db, "eve");
    assert_eq!(
        (stake, reset),
        (1, 1),
        "one stake and one reset in Eve's ledger"
    );
}

/// Logging out ends every session of the account at once, at the tables too: the connection that sits is told and
/// closed, its seat is free, and its token is no longer welcomed. A new password does the same for a seat held for a
/// dropped connection, and only the new password and the new token work afterwards.
fn logging_out_or_a_new_password_ends_every_session_and_seat_at_once(db: &Db) {
    let running = start_with(db, patient(), |_| {});
    let addr = running.addr;
    // The table says the seat is free, and the player at it leaves (news after the words).
    let freed = |bob: &mut Client, seat| {
        let from = bob.got.len();
        bob.wait_for(|m| matches!(m, ServerMessage::Notice { text } if text == "Dana has logged out; the seat is free."));
        let left = |m: &ServerMessage| matches!(m, ServerMessage::News { news: holecard::host::News::Event(Event::Left { seat: s, .. }), .. } if *s == seat);
        if !bob.got[from..].iter().any(left) {
            bob.wait_for(left);
        }
    };
    let phone = account(addr, "Dana", "correct horse");
    let laptop = account(addr, "Dana", "correct horse");
    assert_ne!(phone, laptop);
    let mut bob = Client::connect(&running, "Bob");
    bob.send(r#"{"type":"watch","table":"strip"}"#);
    bob.wait_for(|m| matches!(m, ServerMessage::Joined { .. }));
    let mut dana = Client::with_token(addr, &phone);
    let seat = dana.sit_anywhere("strip");
    // Logged out on the laptop: the phone's connection at the table is told and closed, and the seat is free.
    let (status, body) = http(addr, "POST", "/api/logout", None, Some(&laptop));
    assert_eq!(status, 204, "{body}");
    dana.until_the_session_ends();
    freed(&mut bob, seat);
    for token in [&phone, &laptop] {
        let hello = format!(r#"{{"type":"hello","version":2,"token":"{token}"}}"#);
        assert_eq!(hello_refused(addr, &hello).0, Refusal::BadName);
        assert_eq!(http(addr, "GET", "/api/me", None, Some(token)).0, 401);
    }

    // A seat held for a dropped connection: a new password frees it at once and ends the old token.
    let tablet = account(addr, "Dana", "correct horse");
    let mut dana = Client::with_token(addr, &tablet);
    let seat = dana.sit_anywhere("strip");
    drop(dana);
    bob.wait_for(
        |m| matches!(m, ServerMessage::Notice { text } if text.contains("lost the connection")),
    );
    let change = r#"{"password":"wrong guess","new_password":"tr0ub4dor&3"}"#;
    assert_eq!(
        http(addr, "POST", "/api/password", Some(change), Some(&tablet)).0,
        401
    );
    let change = r#"{"password":"correct horse","new_password":"tr0ub4dor&3"}"#;
    let (status, body) = http(addr, "POST", "/api/password", Some(change), Some(&tablet));
    assert_eq!(status, 200, "{body}");
    let fresh = json(&body)["token"]
        .as_str()
        .expect("a new token")
        .to_string();
    freed(&mut bob, seat);
    let hello = format!(r#"{{"type":"hello","version":2,"token":"{tablet}"}}"#);
    assert_eq!(hello_refused(addr, &hello).0, Refusal::BadName);
    let old = r#"{"name":"Dana","password":"correct horse"}"#;
    assert_eq!(http(addr, "POST", "/api/login", Some(old), None).0, 401);
    let new = r#"{"name":"Dana","password":"tr0ub4dor&3"}"#;
    assert_eq!(http(addr, "POST", "/api/login", Some(new), None).0, 200);
    let mut dana = Client::with_token(addr, &fresh);
    dana.sit_anywhere("strip");
    assert_eq!(dana.chips(), Cents::units(1_000));
}

/// Names are told apart by what they look like (Unicode TR39's confusable skeleton, case folded): nobody plays as a
/// look-alike of an account's name or of a guest's at the casino, and no account takes a look-alike name.
fn names_that_look_alike_cannot_be_played_under_at_once(db: &Db) {
    use holecard::server::ledger::look_of;
    assert_eq!(look_of("\u{410}lice"), look_of("alice"), "a Cyrillic A");
    assert_eq!(look_of("AIice"), look_of("Alice"), "a capital I for an l");
    assert_eq!(
        look_of("Bob"),
        look_of("\u{412}\u{43e}b"),
        "Cyrillic Ve and o"
    );
    assert_ne!(look_of("Alice"), look_of("Alicia"));
    let running = start_with(db, patient(), |_| {});
    let addr = running.addr;
    account(addr, "Alice", "correct horse");
    for alike in ["AIice", "ALICE", "A1ice"] {
        let hello = format!(r#"{{"type":"hello","version":2,"name":"{alike}"}}"#);
        let (code, why) = hello_refused(addr, &hello);
        assert_eq!(code, Refusal::BadName, "{alike}: {why}");
        assert!(why.contains("account"), "{alike}: {why}");
    }
    // A name mixing look-alike letters of two scripts is no name at all.
    let hello = r#"{"type":"hello","version":2,"name":"\u0410lice"}"#;
    let (code, why) = hello_refused(addr, hello);
    assert_eq!(code, Refusal::BadName, "{why}");
    assert!(why.contains("one script"), "{why}");
    let register = |name: &str| {
        let body = format!(r#"{{"name":"{name}","password":"battery staple"}}"#);
        http(addr, "POST", "/api/register", Some(&body), None)
    };
    let (status, why) = register("\u{410}lice");
    assert_eq!(status, 400, "{why}");
    let (status, why) = register("AIice");
    assert_eq!(status, 409, "{why}");
    assert!(
        why.contains("looks too much like the account Alice"),
        "{why}"
    );
    // A guest's name, while they play, is theirs in every look.
    let bob = Client::connect(&running, "Bob");
    let hello = r#"{"type":"hello","version":2,"name":"B0b"}"#;
    let (code, why) = hello_refused(addr, hello);
    assert_eq!(code, Refusal::BadName, "{why}");
    assert!(why.contains("looks too much like"), "{why}");
    assert_eq!(register("B0B").0, 409);
    drop(bob);
    // Names that only differ are fine.
    Client::connect(&running, "Alicia");
    assert_eq!(register("Bobby").0, 200);
}

/// A password cannot be guessed as fast as the hashes allow: over the attempts a minute for a name, or from an
/// address, the answer is 429 with Retry-After, and even the right password waits.
fn password_attempts_are_limited_per_name_and_per_address(db: &Db) {
    use std::num::NonZeroU32;
    let limit = |n| NonZeroU32::new(n).expect("not zero");
    let running = start_with(db, patient(), |config| {
        config.logins = holecard::server::api::LoginLimits {
            per_address: limit(6),
            per_name: limit(3),
            ..Default::default()
        };
    });
    let addr = running.addr;
    let token = account(addr, "Alice", "correct horse");
    let login = |name: &str, password: &str| {
        let body = format!(r#"{{"name":"{name}","password":"{password}"}}"#);
        serving::http_with_head(addr, "POST", "/api/login", Some(&body), None)
    };
    let retry_after = |head: &str| -> u64 {
        head.lines()
            .find_map(|l| {
                l.to_ascii_lowercase()
                    .strip_prefix("retry-after: ")
                    .map(str::to_string)
            })
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or_else(|| panic!("no Retry-After in {head}"))
    };
    for _ in 0..3 {
        assert_eq!(login("Alice", "guess").0, 401);
    }
    // The name's three a minute are spent: a fourth guess waits, and so does the right password, in any case.
    let (status, head, body) = login("alice", "guess");
    assert_eq!(status, 429, "{body}");
    assert!((1..=20).contains(&retry_after(&head)), "{head}");
    assert!(body.contains("too many password attempts"), "{body}");
    assert_eq!(login("Alice", "correct horse").0, 429);
    // The address's six are spent too (five above, one more here): any name from it waits.
    assert_eq!(login("Zed", "guess").0, 401);
    let (status, head, _) = login("Zed", "guess");
    assert_eq!(status, 429);
    assert!((1..=10).contains(&retry_after(&head)), "{head}");
    // A new password is a password attempt as well.
    let change = r#"{"password":"guess","new_password":"battery staple"}"#;
    assert_eq!(
        http(addr, "POST", "/api/password", Some(change), Some(&token)).0,
        429
    );
    // What needs no password is not limited.
    assert_eq!(http(addr, "GET", "/api/me", None, Some(&token)).0, 200);
}
