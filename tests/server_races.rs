//! The ledger never loses a chip, whatever players do at once and whatever fails: money and identity held by the
//! database itself, not by a read then a write. Each test races what a hostile player would race (or holds up the
//! database, or kills the server), on SQLite and on PostgreSQL, over real sockets; each failed on the server before
//! these rules went into the ledger (on SQLite, where one connection serialised the pure-SQL races by accident,
//! those passed before too, and the races between memory and the ledger did not).

mod serving;

use holecard::engine::{Cents, Event, TableState};
use holecard::host::News;
use holecard::server::protocol::{Refusal, ServerMessage};
use serving::{
    Client, Db, account, check_ledger, http, http_with_head, json, launch, patient, pump,
    start_with, try_hello, with_store,
};
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

on_both!(
    two_resets_at_once_give_one,
    a_reset_racing_a_sit_leaves_the_table_and_the_ledger_agreed,
    look_alike_names_at_once_are_never_both_taken,
    a_hello_racing_a_logout_never_plays_on,
    any_session_takes_its_accounts_seat_and_the_one_it_displaces_is_told,
    news_of_a_settlement_goes_out_after_it_commits,
    a_server_killed_while_a_round_is_written_never_told_its_result,
    names_and_chat_lines_that_show_nothing_are_refused,
    every_error_is_json,
    registrations_and_password_guesses_are_limited,
    half_sent_requests_and_huge_bodies_are_cut_off,
    idle_connections_from_one_address_lock_no_one_else_out,
    a_guests_name_is_free_again_once_the_guest_has_gone,
    a_logout_frees_the_seat_and_holds_it_for_no_one,
    a_disputed_line_keeps_no_one_elses_round_from_the_ledger,
);

/// A fast table: bets and turns by the clock in a second, companions at once.
fn quick() -> holecard::server::table::Pace {
    holecard::server::table::Pace {
        bet: Duration::from_secs(1),
        turn: Duration::from_secs(1),
        companion: Duration::ZERO,
        hold: Duration::from_secs(2),
    }
}

/// Runs `a` and `b` at the same moment, on two threads: both answers.
fn at_once<A: Send, B: Send>(a: impl FnOnce() -> A + Send, b: impl FnOnce() -> B + Send) -> (A, B) {
    let start = Arc::new(Barrier::new(2));
    std::thread::scope(|scope| {
        let (sa, sb) = (start.clone(), start.clone());
        let a = scope.spawn(move || {
            sa.wait();
            a()
        });
        let b = scope.spawn(move || {
            sb.wait();
            b()
        });
        (
            a.join().expect("the first ran"),
            b.join().expect("the second ran"),
        )
    })
}

/// An account named `name`, seated at `strip` and played until its chips are under the stake (and not none), then
/// up with its chips free in the ledger: its token. None when the cards would not have it so in a few rounds.
fn under_the_stake(db: &Db, addr: SocketAddr, name: &str) -> Option<String> {
    let token = account(addr, name, "correct horse");
    let mut ann = Client::with_token(addr, &token);
    let seat = ann.sit_anywhere("strip");
    let stake = ann.chips();
    for _ in 0..8 {
        let chips = ann.chips();
        if chips < stake || chips <= Cents::ZERO {
            break;
        }
        let ended = ann.rounds_ended();
        let bet = ann.min_bet();
        ann.send(&format!(r#"{{"type":"bet","amount":{}}}"#, bet.0));
        pump(&mut [&mut ann], |c| c[0].rounds_ended() > ended);
    }
    let chips = ann.chips();
    ann.get_up(seat);
    drop(ann);
    // The table writes her chips free in the ledger as it says the seat is empty.
    let key = name.to_lowercase();
    let until = Instant::now() + Duration::from_secs(5);
    while serving::seated_at(db, &key).is_some() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    (chips < stake && chips > Cents::ZERO).then_some(token)
}

/// Two resets of one account at once, from two connections: one is done and one refused, and the ledger has one.
fn two_resets_at_once_give_one(db: &Db) {
    let running = start_with(db, quick(), |config| config.stake = Cents::units(15));
    let addr = running.addr;
    let mut tries = 0;
    for i in 0..24 {
        let name = format!("Ann{i}");
        let Some(token) = under_the_stake(db, addr, &name) else {
            continue;
        };
        tries += 1;
        let mut one = Client::with_token(addr, &token);
        let mut two = Client::with_token(addr, &token);
        let answer = |client: &mut Client| {
            client.wait_for(|m| {
                matches!(
                    m,
                    ServerMessage::Balance { .. } | ServerMessage::Refused { .. }
                )
            })
        };
        let (a, b) = at_once(
            || {
                one.send(r#"{"type":"reset"}"#);
                answer(&mut one)
            },
            || {
                two.send(r#"{"type":"reset"}"#);
                answer(&mut two)
            },
        );
        let balances = [&a, &b]
            .iter()
            .filter(|m| matches!(m, ServerMessage::Balance { .. }))
            .count();
        assert_eq!(balances, 1, "{a:?} {b:?}");
        let (_, resets) = serving::entries(db, &name.to_lowercase());
        assert_eq!(resets, 1, "{name}: one reset in the ledger");
        if tries == 6 {
            break;
        }
    }
    assert!(tries >= 3, "only {tries} accounts came under the stake");
    drop(running);
    check_ledger(db);
}

/// A reset away from the tables racing a sit of the same account: whichever the ledger took first, the chips the
/// table seats it with are the ledger's, and a round at that table settles for everyone at it.
fn a_reset_racing_a_sit_leaves_the_table_and_the_ledger_agreed(db: &Db) {
    let running = start_with(db, quick(), |config| config.stake = Cents::units(15));
    let addr = running.addr;
    let mut tries = 0;
    for i in 0..24 {
        let name = format!("Cid{i}");
        let Some(token) = under_the_stake(db, addr, &name) else {
            continue;
        };
        tries += 1;
        let mut sitter = Client::with_token(addr, &token);
        let mut resetter = Client::with_token(addr, &token);
        let (sat, _) = at_once(
            || {
                sitter.send(r#"{"type":"sit","table":"strip","seat":6}"#);
                sitter.wait_for(|m| {
                    matches!(
                        m,
                        ServerMessage::Joined { seat: Some(_), .. } | ServerMessage::Refused { .. }
                    )
                })
            },
            || {
                resetter.send(r#"{"type":"reset"}"#);
                resetter.wait_for(|m| {
                    matches!(
                        m,
                        ServerMessage::Balance { .. } | ServerMessage::Refused { .. }
                    )
                })
            },
        );
        let key = name.to_lowercase();
        let ledger = with_store(db, async |store| {
            store
                .account(&key)
                .await
                .expect("answers")
                .expect("the account")
                .chips
        });
        if matches!(sat, ServerMessage::Joined { .. }) {
            assert_eq!(
                sitter.chips(),
                ledger,
                "{name}: seated with the ledger's chips"
            );
            // A round at the table settles: her line and the table's agree.
            let ended = sitter.rounds_ended();
            let bet = sitter.min_bet();
            sitter.send(&format!(r#"{{"type":"bet","amount":{}}}"#, bet.0));
            pump(&mut [&mut sitter], |c| c[0].rounds_ended() > ended);
            sitter.send(r#"{"type":"stand"}"#);
        }
        drop((sitter, resetter));
        if tries == 12 {
            break;
        }
    }
    assert!(tries >= 3, "only {tries} accounts came under the stake");
    // Every round's settlement went in whole: no line refused, none disputed.
    std::thread::sleep(Duration::from_millis(500));
    drop(running);
    check_ledger(db);
}

/// Two look-alike names registered at one moment, or registered while a guest says hello under one: one of them
/// gets the name, never both.
fn look_alike_names_at_once_are_never_both_taken(db: &Db) {
    let running = start_with(db, quick(), |_| {});
    let addr = running.addr;
    let register = |name: String| {
        let body = format!(r#"{{"name":"{name}","password":"battery staple"}}"#);
        http(addr, "POST", "/api/register", Some(&body), None).0
    };
    for i in 0..10 {
        let (a, b) = at_once(
            || register(format!("Alice{i}")),
            || register(format!("AIice{i}")),
        );
        assert!(
            !(a == 200 && b == 200),
            "Alice{i} and AIice{i} were both made"
        );
        assert!(a == 200 || b == 200, "neither was made: {a} {b}");
    }
    for i in 0..10 {
        let name = format!("Zoe{i}");
        let hello = format!(r#"{{"type":"hello","version":2,"name":"{name}"}}"#);
        let (guest, made) = at_once(|| try_hello(addr, &hello), || register(name.clone()));
        assert!(
            !(guest.is_ok() && made == 200),
            "{name} was both a guest and an account"
        );
    }
}

/// A hello racing a logout of the same account: the connection is refused, or welcomed and then told the session
/// has ended and closed; it never sits with the account's chips.
fn a_hello_racing_a_logout_never_plays_on(db: &Db) {
    // Ninety-six logins from this one address in a few seconds: the address's limit is raised for it.
    let running = start_with(db, quick(), many_logins);
    hellos_racing_logouts(running.addr, running.addr, "strip", "Dora", 48);
    drop(running);
    check_ledger(db);
}

/// The address's limit on logins raised, for a test that logs in many times from this one address.
fn many_logins(config: &mut holecard::server::Config) {
    config.logins.per_address = std::num::NonZeroU32::new(1_000).expect("not zero");
}

/// `tries` accounts each say hello to `hello_at` as another session of theirs logs out at `logout_at`, at one
/// moment: each connection is refused, or welcomed and then told its session has ended and closed, never seated at
/// `table` (a sit is sent at once). Says how many were welcomed before their logout.
fn hellos_racing_logouts(
    hello_at: SocketAddr,
    logout_at: SocketAddr,
    table: &str,
    name: &str,
    tries: usize,
) {
    let mut welcomed = 0;
    for i in 0..tries {
        let name = format!("{name}{i}");
        let one = account(logout_at, &name, "correct horse");
        let two = account(logout_at, &name, "correct horse");
        let hello = format!(r#"{{"type":"hello","version":2,"token":"{one}"}}"#);
        let (hello, logout) = at_once(
            || try_hello(hello_at, &hello),
            || http(logout_at, "POST", "/api/logout", None, Some(&two)).0,
        );
        assert_eq!(logout, 204);
        if let Ok(mut client) = hello {
            welcomed += 1;
            // It may be closed already: then the sit goes nowhere.
            let _ = client.ws.send(tungstenite::Message::text(format!(
                r#"{{"type":"sit","table":"{table}","seat":6}}"#
            )));
            let last = client.until_closed();
            assert!(
                last.iter().any(|m| matches!(
                    m,
                    ServerMessage::Refused {
                        code: Refusal::SessionEnded,
                        ..
                    }
                )),
                "{last:?}"
            );
            assert!(
                !last
                    .iter()
                    .any(|m| matches!(m, ServerMessage::Joined { seat: Some(_), .. })),
                "a session that had ended sat down: {last:?}"
            );
        }
    }
    eprintln!("{welcomed} of {tries} hellos were welcomed before their logout");
}

/// Any session of an account takes its seat back, and the connection it displaces is told so and closed (before,
/// whether it came back was a map's order, and the displaced connection's bets went unanswered).
fn any_session_takes_its_accounts_seat_and_the_one_it_displaces_is_told(db: &Db) {
    let running = start_with(db, quick(), |_| {});
    let addr = running.addr;
    for i in 0..8 {
        let name = format!("Eve{i}");
        let first = account(addr, &name, "correct horse");
        let second = account(addr, &name, "correct horse");
        let third = account(addr, &name, "correct horse");
        let mut phone = Client::with_token(addr, &first);
        let seat = phone.sit_anywhere("strip");
        // Another session that never sat, then a third: the third comes back to the seat.
        let _idle = Client::with_token(addr, &second);
        let mut laptop = Client::with_token(addr, &third);
        let back = laptop.find_or_wait(|m| matches!(m, ServerMessage::Joined { .. }));
        assert!(
            matches!(back, ServerMessage::Joined { seat: Some(s), .. } if s == seat),
            "{name}: {back:?}"
        );
        let last = phone.until_closed();
        assert!(
            last.iter().any(|m| matches!(
                m,
                ServerMessage::Refused {
                    code: Refusal::TakenOver,
                    ..
                }
            )),
            "{name}: {last:?}"
        );
        // Up again, for the next account.
        laptop.get_up(seat);
    }
}

/// A logout gets the account up and its seat is free at once: no seat is held for it afterwards (the table's word
/// to everyone that it has logged out finds the account's connection closed, which once held the seat for it), so
/// another player sits there, and the account, back with a new session, is put in no seat but its own.
fn a_logout_frees_the_seat_and_holds_it_for_no_one(db: &Db) {
    // Seats wait a minute for a dropped connection: a seat held by mistake would stay held for the whole test.
    let running = start_with(db, patient(), |config| {
        config.pace.hold = Duration::from_secs(60)
    });
    let addr = running.addr;
    let bob = account(addr, "Bob", "correct horse");
    let mut bob = Client::with_token(addr, &bob);
    bob.send(r#"{"type":"watch","table":"strip"}"#);
    bob.wait_for(|m| matches!(m, ServerMessage::Joined { .. }));
    for i in 0..5 {
        let name = format!("Ivy{i}");
        let token = account(addr, &name, "correct horse");
        let mut ivy = Client::with_token(addr, &token);
        let seat = ivy.sit_anywhere("strip");
        let (status, _) = http(addr, "POST", "/api/logout", None, Some(&token));
        assert_eq!(status, 204);
        ivy.until_the_session_ends();
        bob.until_empty(seat);
        // Back with a new session: she sits at another seat and her connection drops (that seat, hers, waits for
        // her); coming back, she is put in that seat and no other.
        let token = account(addr, &name, "correct horse");
        let mut again = Client::with_token(addr, &token);
        let other = (0..7u8)
            .find(|s| {
                *s != seat
                    && bob
                        .view
                        .as_ref()
                        .is_some_and(|v| !v.seats()[usize::from(*s)].occupied)
            })
            .expect("another free seat");
        again.send(&format!(
            r#"{{"type":"sit","table":"strip","seat":{other}}}"#
        ));
        let sat = again.wait_for(|m| {
            matches!(
                m,
                ServerMessage::Joined { .. } | ServerMessage::Refused { .. }
            )
        });
        let ServerMessage::Joined {
            seat: Some(hers), ..
        } = sat
        else {
            panic!("{name} could not sit again: {sat:?}");
        };
        drop(again);
        let mut back = Client::with_token(addr, &token);
        let joined = back.find_or_wait(|m| matches!(m, ServerMessage::Joined { .. }));
        assert!(
            matches!(joined, ServerMessage::Joined { seat: Some(s), .. } if s == hers),
            "{name} sat at {hers}, and came back to {joined:?}"
        );
        // Her first seat is anyone's: Bob sits there, and gets up.
        bob.send(&format!(
            r#"{{"type":"sit","table":"strip","seat":{seat}}}"#
        ));
        let answer = bob.wait_for(|m| {
            matches!(
                m,
                ServerMessage::Joined { .. } | ServerMessage::Refused { .. }
            )
        });
        assert!(
            matches!(answer, ServerMessage::Joined { seat: Some(s), .. } if s == seat),
            "seat {seat}, which {name} logged out of, was still held: {answer:?}"
        );
        bob.send(r#"{"type":"stand"}"#);
        back.send(r#"{"type":"stand"}"#);
        pump(&mut [&mut bob, &mut back], |c| {
            c[0].view.as_ref().is_some_and(|v| {
                !v.seats()[usize::from(seat)].occupied && !v.seats()[usize::from(hers)].occupied
            })
        });
    }
}

/// One account's line of a round refused at settlement (the table and the ledger disagree about its chips: what a
/// reset racing a sit once did) keeps nothing else of the round from the ledger: another player's result is written,
/// and that player gets up with the chips the table told him. (Before, the whole round was refused: the other
/// player's win was never written and he could not leave until a restart.)
fn a_disputed_line_keeps_no_one_elses_round_from_the_ledger(db: &Db) {
    let running = start_with(db, quick(), |_| {});
    let addr = running.addr;
    let ann_token = account(addr, "Ann", "correct horse");
    let bob_token = account(addr, "Bob", "correct horse");
    let mut ann = Client::with_token(addr, &ann_token);
    let mut bob = Client::with_token(addr, &bob_token);
    ann.sit_anywhere("strip");
    let seat = bob.sit_anywhere("strip");
    let start = bob.chips();
    // Ann's chips in the ledger change behind the table's back: her line of the next round cannot add up.
    serving::tamper(
        db,
        "UPDATE accounts SET chips = chips - 50000 WHERE name_key = 'ann'",
    );
    let ended = bob.rounds_ended();
    let bet = bob.min_bet();
    for client in [&mut ann, &mut bob] {
        client.send(&format!(r#"{{"type":"bet","amount":{}}}"#, bet.0));
    }
    // Both stand by the clock; the round ends for Bob with his result told.
    pump(&mut [&mut ann, &mut bob], |c| c[1].rounds_ended() > ended);
    let told = bob.chips();
    let (status, hands) = http(addr, "GET", "/api/history", None, Some(&bob_token));
    assert_eq!(status, 200, "{hands}");
    let hands = json(&hands);
    let nets: Vec<i64> = hands
        .as_array()
        .expect("a list")
        .iter()
        .map(|h| h["net"].as_i64().expect("a net"))
        .collect();
    assert!(!nets.is_empty(), "Bob's round is in his history: {hands}");
    assert_eq!(
        Cents(start.0 + nets.iter().sum::<i64>()),
        told,
        "the history's net is what the table told"
    );
    // Bob gets up, and the ledger has him up with the chips the table told him.
    bob.get_up(seat);
    let until = Instant::now() + Duration::from_secs(5);
    while serving::seated_at(db, "bob").is_some() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(
        serving::seated_at(db, "bob"),
        None,
        "Bob is up in the ledger"
    );
    drop((ann, bob));
    drop(running);
    let (bob_chips, problems) = with_store(db, async |store| {
        let bob = store.account("bob").await.expect("answers").expect("Bob");
        let report = store.check().await.expect("the check runs");
        (bob.chips, report.problems)
    });
    assert_eq!(bob_chips, told, "Bob's chips in the ledger");
    // What the check finds is Ann's, and only hers: the tampered account and her disputed line.
    assert!(!problems.is_empty(), "the dispute is reported");
    for problem in &problems {
        assert!(
            problem.contains("Ann") || problem.contains("ann's"),
            "a problem not of Ann's: {problems:?}"
        );
    }
}

/// What a round won or lost is told only once the ledger has it: with the ledger's writes held up, the round's end
/// waits; let go, it comes, and the account's history has it.
fn news_of_a_settlement_goes_out_after_it_commits(db: &Db) {
    let running = start_with(db, quick(), |_| {});
    let addr = running.addr;
    let token = account(addr, "Finn", "correct horse");
    let mut finn = Client::with_token(addr, &token);
    finn.sit_anywhere("strip");
    let ended = finn.rounds_ended();
    let held = serving::hold_writes(db, "strip");
    let bet = finn.min_bet();
    finn.send(&format!(r#"{{"type":"bet","amount":{}}}"#, bet.0));
    // The round plays (the client stands by the clock) while the ledger cannot take its settlement.
    let until = Instant::now() + Duration::from_secs(6);
    while Instant::now() < until {
        finn.poll();
        assert_eq!(
            finn.rounds_ended(),
            ended,
            "a round's end was told before the ledger had it"
        );
    }
    drop(held);
    let until = Instant::now() + Duration::from_secs(20);
    while finn.rounds_ended() == ended && Instant::now() < until {
        finn.poll();
    }
    assert!(
        finn.rounds_ended() > ended,
        "the round's end came once written"
    );
    let (status, hands) = http(addr, "GET", "/api/history", None, Some(&token));
    assert_eq!(status, 200, "{hands}");
    assert!(
        !json(&hands).as_array().expect("hands").is_empty(),
        "the round is in the history"
    );
}

/// A server killed while it writes a round's settlement: nobody was told the round's result, and the restart
/// refunds it; the ledger balances. The next round the player is told of has the number the ledger keeps.
fn a_server_killed_while_a_round_is_written_never_told_its_result(db: &Db) {
    let server = launch(db, ("1", "1", "0"));
    let token = account(server.addr, "Gus", "correct horse");
    let mut gus = Client::with_token(server.addr, &token);
    gus.sit_anywhere("las-vegas-strip");
    let ended = gus.rounds_ended();
    let held = serving::hold_writes(db, "las-vegas-strip");
    let bet = gus.min_bet();
    gus.send(&format!(r#"{{"type":"bet","amount":{}}}"#, bet.0));
    let until = Instant::now() + Duration::from_secs(6);
    while Instant::now() < until {
        gus.poll();
    }
    assert_eq!(gus.rounds_ended(), ended, "nothing told while unwritten");
    server.kill();
    drop(held);
    drop(gus);
    let again = launch(db, ("1", "1", "0"));
    let (status, hands) = http(again.addr, "GET", "/api/history", None, Some(&token));
    assert_eq!(status, 200, "{hands}");
    assert!(
        json(&hands).as_array().expect("hands").is_empty(),
        "a round nobody heard the end of was refunded: {hands}"
    );
    // Back in his seat, he plays the next round.
    let mut back = Client::with_token(again.addr, &token);
    back.find_or_wait(|m| matches!(m, ServerMessage::Joined { seat: Some(_), .. }));
    back.send(&format!(r#"{{"type":"bet","amount":{}}}"#, bet.0));
    pump(&mut [&mut back], |c| {
        c[0].news().iter().any(|(_, n)| {
            matches!(n, News::Event(Event::Settled { seat, .. }) if Some(*seat) == c[0].seat)
        }) && c[0].rounds_ended() > 0
    });
    let told = back.last_round_started().expect("a round was dealt");
    let (_, hands) = http(again.addr, "GET", "/api/history", None, Some(&token));
    assert_eq!(json(&hands)[0]["round"], told, "{hands}");
    drop(back);
    drop(again);
    check_ledger(db);
}

/// Names that show as nothing, hide a letter or mix look-alike scripts are nobody's; chat lines of nothing that
/// shows are refused; a letter keeps a few marks, not a tower.
fn names_and_chat_lines_that_show_nothing_are_refused(db: &Db) {
    let running = start_with(db, quick(), |_| {});
    let addr = running.addr;
    for name in [
        r"\u3164\u3164",
        r"Camilla\u115FOlsen",
        r"\u1D04\u1D00\u1D0D\u026A\u029F\u029F\u1D00",
        r"P\u0430yPal",
    ] {
        let hello = format!(r#"{{"type":"hello","version":2,"name":"{name}"}}"#);
        let refused = try_hello(addr, &hello).err();
        assert!(
            matches!(refused, Some((Refusal::BadName, _))),
            "{name}: {refused:?}"
        );
        let body = format!(r#"{{"name":"{name}","password":"battery staple"}}"#);
        let (status, why) = http(addr, "POST", "/api/register", Some(&body), None);
        assert_eq!(status, 400, "{name}: {why}");
    }
    // Spaces are one space: "Ann  Lee" is "Ann Lee", and so held once.
    let _ann = Client::connect_at(addr, "Ann Lee");
    let refused = try_hello(addr, r#"{"type":"hello","version":2,"name":"Ann   Lee"}"#).err();
    assert!(
        matches!(refused, Some((Refusal::BadName, _))),
        "{refused:?}"
    );

    let mut bea = Client::connect_at(addr, "Bea");
    bea.send(r#"{"type":"watch","table":"strip"}"#);
    bea.wait_for(|m| matches!(m, ServerMessage::Joined { .. }));
    for blank in [
        r"\u3164\u3164",
        r"\u2800",
        r"\u034F",
        r"\uFE0F",
        r"  \u115F ",
    ] {
        bea.send(&format!(r#"{{"type":"chat","text":"{blank}"}}"#));
        let (code, why) = bea.refusal();
        assert_eq!(code, Refusal::BadChat, "{blank}: {why}");
    }
    let tower = format!(r#"{{"type":"chat","text":"a{}"}}"#, r"\u0301".repeat(299));
    bea.send(&tower);
    let said = bea.wait_for(|m| matches!(m, ServerMessage::Chat { .. }));
    assert_eq!(
        said,
        ServerMessage::Chat {
            from: "Bea".into(),
            text: format!(
                "a{}",
                "\u{301}".repeat(holecard::protocol::MARKS_PER_LETTER)
            ),
        }
    );
}

/// Every error the server answers over HTTP is `{"error": …}`, whichever part of it refused.
fn every_error_is_json(db: &Db) {
    let running = start_with(db, quick(), |config| config.per_address = 2);
    let addr = running.addr;
    for (method, path, status) in [
        ("GET", "/api/register", 405),
        ("GET", "/api/leaderboard?limit=lots", 400),
        ("GET", "/ws", 400),
        ("GET", "/no/such/page", 404),
        ("GET", "/api/me", 401),
    ] {
        let (got, head, body) = http_with_head(addr, method, path, None, None);
        assert_eq!(got, status, "{method} {path}: {body}");
        assert!(
            head.to_lowercase()
                .contains("content-type: application/json"),
            "{method} {path}: {head}"
        );
        assert!(json(&body)["error"].is_string(), "{method} {path}: {body}");
    }
    // One WebSocket too many from one address: 429, in JSON too.
    let _one = Client::connect_at(addr, "Hal");
    let _two = Client::connect_at(addr, "Ida");
    let refused = tungstenite::connect(format!("ws://{addr}/ws")).expect_err("refused");
    match refused {
        tungstenite::Error::Http(response) => {
            assert_eq!(response.status().as_u16(), 429);
            let body = response.body().clone().unwrap_or_default();
            let body = String::from_utf8_lossy(&body);
            assert!(json(&body)["error"].is_string(), "{body}");
        }
        other => panic!("{other:?}"),
    }
}

/// An address makes a few accounts a minute, and a name is tried a few times a minute across every server on the
/// ledger; past either, 429 with Retry-After. Each IPv4 client of an IPv6 listener counts as itself.
fn registrations_and_password_guesses_are_limited(db: &Db) {
    use std::num::NonZeroU32;
    let limit = |n| NonZeroU32::new(n).expect("not zero");
    let logins = holecard::server::api::LoginLimits {
        per_address: limit(3),
        per_name: limit(4),
        registrations_per_address: limit(5),
    };
    // Listening on every address family, as `[::]` would.
    let running = holecard::server::spawn(
        "[::]:0".parse().expect("an address"),
        serving::config(db, quick(), |config| config.logins = logins),
    )
    .expect("the server starts on every address family");
    let addr = SocketAddr::new(
        "127.0.0.1".parse().expect("an address"),
        running.addr.port(),
    );
    let register = |from: &str, name: String| {
        let body = format!(r#"{{"name":"{name}","password":"battery staple"}}"#);
        serving::http_from(
            from.parse().expect("an address"),
            addr,
            "POST",
            "/api/register",
            Some(&body),
            None,
        )
    };
    let made: Vec<u16> = (0..8)
        .map(|i| register("127.0.0.1", format!("Jo{i}")).0)
        .collect();
    assert_eq!(made.iter().filter(|s| **s == 200).count(), 5, "{made:?}");
    let (status, head, body) = register("127.0.0.1", "Jo9".into());
    assert_eq!(status, 429, "{body}");
    assert!(head.to_lowercase().contains("retry-after:"), "{head}");
    // Another address makes its own.
    assert_eq!(register("127.0.0.2", "Kit".into()).0, 200);

    // Three bad passwords from 127.0.0.2: its fourth is refused, but 127.0.0.1 (one IPv4 client among many on an
    // IPv6 listener, not one bucket for all of them) is not.
    let login = |from: &str, password: &str| {
        let body = format!(r#"{{"name":"Jo0","password":"{password}"}}"#);
        serving::http_from(
            from.parse().expect("an address"),
            addr,
            "POST",
            "/api/login",
            Some(&body),
            None,
        )
        .0
    };
    let wrong: Vec<u16> = (0..3).map(|_| login("127.0.0.2", "wrong guess")).collect();
    assert_eq!(wrong, [401, 401, 401]);
    assert_eq!(
        login("127.0.0.2", "wrong guess"),
        429,
        "the address's fourth"
    );
    assert_eq!(
        login("127.0.0.1", "wrong guess"),
        401,
        "another client's first"
    );
    // The name has had four tries: its fifth is refused from anywhere.
    assert_eq!(
        login("127.0.0.3", "battery staple"),
        429,
        "the name's fifth"
    );
    // On PostgreSQL, another server on the ledger counts the same tries: two on each, and the fifth is refused.
    if let serving::Backend::Postgres = db.backend() {
        let other = start_with(db, quick(), |config| {
            config.logins = logins;
            config.tables[0].0 = "strip-b".to_string();
        });
        let body = r#"{"name":"Jo1","password":"wrong guess"}"#;
        let here = |addr: SocketAddr, from: &str| {
            serving::http_from(
                from.parse().expect("an address"),
                addr,
                "POST",
                "/api/login",
                Some(body),
                None,
            )
            .0
        };
        let tries = [
            here(addr, "127.0.0.4"),
            here(other.addr, "127.0.0.4"),
            here(addr, "127.0.0.5"),
            here(other.addr, "127.0.0.5"),
            here(addr, "127.0.0.6"),
        ];
        assert_eq!(
            tries,
            [401, 401, 401, 401, 429],
            "the name's tries are counted in the ledger, not per server"
        );
    }
    drop(running);
}

/// A client that sends half a request is cut off when the request's time runs out, a body declared larger than the
/// server reads is refused before it is read, and an idle kept-alive connection is closed.
fn half_sent_requests_and_huge_bodies_are_cut_off(db: &Db) {
    use std::io::{Read, Write};
    let running = start_with(db, quick(), |config| {
        config.request_time = Duration::from_millis(500);
    });
    let addr = running.addr;
    let closed_within = |mut stream: std::net::TcpStream, within: Duration| {
        stream
            .set_read_timeout(Some(within))
            .expect("a read timeout");
        let mut buffer = [0u8; 1024];
        let started = Instant::now();
        loop {
            match stream.read(&mut buffer) {
                Ok(0) => return started.elapsed(),
                Ok(_) => continue,
                Err(e) => panic!("still open after {within:?}: {e}"),
            }
        }
    };
    let mut half = std::net::TcpStream::connect(addr).expect("connects");
    half.write_all(b"GET /ws HTTP/1.1\r\nHost: x\r\n")
        .expect("half a request");
    let took = closed_within(half, Duration::from_secs(5));
    assert!(took < Duration::from_secs(3), "{took:?}");
    let idle = std::net::TcpStream::connect(addr).expect("connects");
    let took = closed_within(idle, Duration::from_secs(5));
    assert!(took < Duration::from_secs(3), "{took:?}");
    let mut huge = std::net::TcpStream::connect(addr).expect("connects");
    huge.write_all(
        b"POST /api/logout HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000000\r\n\r\nnot all of it",
    )
    .expect("a request");
    huge.set_read_timeout(Some(Duration::from_secs(5)))
        .expect("a read timeout");
    let mut answer = String::new();
    let _ = huge.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains(r#"{"error":"#), "{answer}");
    // A body small enough to be read, sent only in part: its time runs out too, and the connection is answered
    // and closed rather than held.
    let mut slow = std::net::TcpStream::connect(addr).expect("connects");
    slow.write_all(
        b"POST /api/register HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"name\":",
    )
    .expect("a request");
    let took = closed_within(slow, Duration::from_secs(5));
    assert!(took < Duration::from_secs(3), "{took:?}");
}

/// Many idle connections from one address (each counted as it is accepted, before anything of it is read) take
/// only their share: another address still plays.
fn idle_connections_from_one_address_lock_no_one_else_out(db: &Db) {
    let running = start_with(db, quick(), |config| config.per_address = 4);
    let addr = running.addr;
    let from: IpAddr = "127.0.0.2".parse().expect("an address");
    let mut held = Vec::new();
    for _ in 0..200 {
        held.push(serving::connect_from(from, addr));
    }
    // The ones over the address's share were closed at once.
    let share = holecard::server::listen::accepted_per_client(4);
    std::thread::sleep(Duration::from_millis(300));
    let mut open = 0;
    for stream in &held {
        use std::io::Read;
        stream
            .set_read_timeout(Some(Duration::from_millis(5)))
            .expect("a read timeout");
        let mut one = [0u8; 1];
        let mut reading: &std::net::TcpStream = stream;
        if !matches!(reading.read(&mut one), Ok(0)) {
            open += 1;
        }
    }
    assert!(open <= share, "{open} open, over the share of {share}");
    // Someone else comes in and plays.
    let token = account(addr, "Lou", "correct horse");
    let mut lou = Client::with_token(addr, &token);
    lou.sit_anywhere("strip");
    drop(held);
}

/// Says `hello` until it is welcomed (at most 15 s): the client.
fn welcomed_soon(addr: SocketAddr, hello: &str) -> Client {
    let until = Instant::now() + Duration::from_secs(15);
    loop {
        match try_hello(addr, hello) {
            Ok(client) => return client,
            Err(refused) if Instant::now() < until => {
                let _ = refused;
                std::thread::sleep(Duration::from_millis(100));
            }
            Err(refused) => panic!("still refused after 15 s: {refused:?}"),
        }
    }
}

/// A guest's name is held while the guest plays and while its seat waits for it, and free again once it has gone;
/// one held when its server stopped is free again when the server starts.
fn a_guests_name_is_free_again_once_the_guest_has_gone(db: &Db) {
    const ANN: &str = r#"{"type":"hello","version":2,"name":"Ann"}"#;
    const ANN_AGAIN: &str = r#"{"type":"hello","version":2,"name":"ANN"}"#;
    // Under a route, as one of several servers on a PostgreSQL ledger: it comes back as the same server.
    let routed = |config: &mut holecard::server::Config| config.route = Some("/ws/a".to_string());
    let running = start_with(db, quick(), routed);
    let ann = Client::connect_at(running.addr, "Ann");
    let (code, _) = serving::hello_refused(running.addr, ANN_AGAIN);
    assert_eq!(code, Refusal::BadName);
    drop(ann);
    // Her seat's wait (two seconds here) and the next round of the names: free.
    let gone = Instant::now();
    let _again = welcomed_soon(running.addr, ANN_AGAIN);
    assert!(gone.elapsed() >= quick().hold, "{:?}", gone.elapsed());
    drop(running);
    // Held when the server stopped; the server starts again on the ledger and she comes straight back.
    let running = start_with(db, quick(), routed);
    assert!(
        try_hello(running.addr, ANN).is_ok(),
        "the name was still held after the restart"
    );
}

mod listening {
    use super::*;
    use holecard::server::Running;

    /// Two servers on one ledger, each set by `config`: the second's first table is `strip-b`.
    fn two_servers(db: &Db, config: fn(&mut holecard::server::Config)) -> (Running, Running) {
        let a = start_with(db, quick(), config);
        let b = start_with(db, quick(), |c| {
            config(c);
            c.tables[0].0 = "strip-b".to_string();
        });
        (a, b)
    }

    /// Two servers on one PostgreSQL ledger: a logout on one ends the account's connection on the other, also when
    /// the other had lost its LISTEN connection at that moment (PostgreSQL keeps no notification for a listener
    /// that is gone: coming back, the server asks the ledger about every account it holds).
    #[test]
    fn a_logout_while_a_server_is_not_listening_still_ends_its_sessions() {
        let Some(db) = Db::on(serving::Backend::Postgres) else {
            return;
        };
        let (a, b) = two_servers(&db, |_| {});
        for i in 0..3 {
            let name = format!("Nell{i}");
            let token = account(a.addr, &name, "correct horse");
            let mut there = Client::with_token(b.addr, &token);
            there.send(r#"{"type":"watch","table":"strip-b"}"#);
            there.wait_for(|m| matches!(m, ServerMessage::Joined { .. }));
            // Every server's LISTEN connection cut, and at once the logout, on the other server.
            serving::on_the_ledger(
                &db,
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
                 WHERE datname = current_database() AND query LIKE 'LISTEN%'",
            );
            let (status, _) = http(a.addr, "POST", "/api/logout", None, Some(&token));
            assert_eq!(status, 204);
            there.until_the_session_ends();
        }
    }

    /// Two servers on one PostgreSQL ledger hold guests' names in the ledger: a name (or one that looks like it) a
    /// guest plays under on one is refused on the other, and two look-alike guests saying hello at one moment, one
    /// to each server, are never both welcomed. (Before, each process held its guests' names in its own memory.)
    #[test]
    fn a_guests_name_is_held_across_servers() {
        let Some(db) = Db::on(serving::Backend::Postgres) else {
            return;
        };
        let (a, b) = two_servers(&db, |_| {});
        let _ann = Client::connect_at(a.addr, "Ann");
        for look_alike in ["Ann", "ANN", "\u{410}nn"] {
            let hello = format!(r#"{{"type":"hello","version":2,"name":"{look_alike}"}}"#);
            let (code, _) = serving::hello_refused(b.addr, &hello);
            assert_eq!(code, Refusal::BadName, "{look_alike} on the other server");
        }
        for i in 0..10 {
            let hello = |name: String| format!(r#"{{"type":"hello","version":2,"name":"{name}"}}"#);
            let (one, two) = (hello(format!("Ivy{i}")), hello(format!("IVY{i}")));
            let (on_a, on_b) = at_once(|| try_hello(a.addr, &one), || try_hello(b.addr, &two));
            assert!(
                !(on_a.is_ok() && on_b.is_ok()),
                "Ivy{i} and IVY{i} were both welcomed, one on each server"
            );
            assert!(on_a.is_ok() || on_b.is_ok(), "neither Ivy{i} was welcomed");
        }
    }

    /// A hello on one server racing a logout of the same account on the other: the connection is refused, or
    /// welcomed and then told its session has ended; it never sits with the account's chips.
    #[test]
    fn a_hello_racing_a_logout_on_another_server_never_plays_on() {
        let Some(db) = Db::on(serving::Backend::Postgres) else {
            return;
        };
        let (a, b) = two_servers(&db, many_logins);
        hellos_racing_logouts(b.addr, a.addr, "strip-b", "Wren", 24);
        drop((a, b));
        check_ledger(&db);
    }

    /// A logout on another server that this one has not heard of yet (its NOTIFY still on the way): a bet sent
    /// after the logout was answered is refused by the ledger's word, not taken because the news was late. The
    /// other server's logout is the ledger's own statements, run behind this server's back with no NOTIFY.
    #[test]
    fn a_bet_after_a_logout_this_server_has_not_heard_of_is_refused() {
        let Some(db) = Db::on(serving::Backend::Postgres) else {
            return;
        };
        let a = start_with(&db, quick(), |_| {});
        let token = account(a.addr, "Orla", "correct horse");
        let mut orla = Client::with_token(a.addr, &token);
        orla.sit_anywhere("strip");
        serving::on_the_ledger(
            &db,
            "UPDATE accounts SET sessions_epoch = sessions_epoch + 1 WHERE name_key = 'orla'",
        );
        serving::on_the_ledger(&db, "DELETE FROM sessions WHERE name_key = 'orla'");
        let bet = orla.min_bet().0;
        orla.send(&format!(r#"{{"type":"bet","amount":{bet}}}"#));
        let answer = orla.wait_for(|m| {
            matches!(m, ServerMessage::Refused { .. })
                || matches!(
                    m,
                    ServerMessage::News {
                        news: News::Event(Event::BetSet { .. }),
                        ..
                    }
                )
        });
        assert!(
            matches!(
                answer,
                ServerMessage::Refused {
                    code: Refusal::SessionEnded,
                    ..
                }
            ),
            "a bet of an ended session: {answer:?}"
        );
        drop(orla);
        drop(a);
        check_ledger(&db);
    }
}

mod one_writer {
    use super::*;

    /// Two servers on one SQLite ledger would each deal the same tables and write over each other's rounds: the
    /// second is refused and says why, the ledger can still be checked while the first serves, and once the first
    /// has stopped another may keep the ledger.
    #[test]
    fn a_second_server_on_one_sqlite_ledger_is_refused() {
        let db = Db::on(serving::Backend::Sqlite).expect("SQLite is always here");
        let first = start_with(&db, quick(), |_| {});
        let (status, said) = serving::launch_refused(&db, &[]);
        assert!(!status.success(), "{said}");
        assert!(
            said.contains("another holecard-server keeps its ledger"),
            "{said}"
        );
        check_ledger(&db);
        let token = account(first.addr, "Ona", "correct horse");
        Client::with_token(first.addr, &token).sit_anywhere("strip");
        drop(first);
        let second = start_with(&db, quick(), |_| {});
        let mut ona = Client::with_token(second.addr, &token);
        ona.sit_anywhere("strip");
        drop(ona);
        drop(second);
        check_ledger(&db);
    }
}

mod out_of_files {
    use super::*;

    /// A server started under a soft file limit below its hard one raises it to the hard one (the soft 1,024 of
    /// most systems would lock players out long before the machine runs short).
    #[test]
    fn a_server_raises_its_file_limit_to_the_hard_one() {
        let db = Db::on(serving::Backend::Sqlite).expect("SQLite is always here");
        let server = serving::launch_under_file_limit(&db, ("1", "1", "0"), (256, 4096));
        let limits = std::fs::read_to_string(format!("/proc/{}/limits", server.child.id()))
            .expect("the server's limits");
        let files: Vec<&str> = limits
            .lines()
            .find(|line| line.starts_with("Max open files"))
            .expect("its file limit")
            .split_whitespace()
            .collect();
        assert_eq!(
            files[3..5],
            ["4096", "4096"],
            "the soft limit raised to the hard: {limits}"
        );
        let said = server.kill();
        assert!(!said.contains("panicked"), "{said}");
    }

    /// More connections at once, from many addresses, than the process's file limit leaves room for: those over
    /// it are closed as they come (a newcomer too, while they stay), the server keeps what it holds (its ledger
    /// among them) and runs on, and when they go it serves again.
    #[test]
    fn a_server_at_its_file_limit_holds_on_and_serves_again() {
        use std::io::Read;
        let db = Db::on(serving::Backend::Sqlite).expect("SQLite is always here");
        let mut server = serving::launch_under_file_limit(&db, ("1", "1", "0"), (256, 256));
        let mut held = Vec::new();
        for n in 0..300u16 {
            let [high, low] = n.to_be_bytes();
            let from = IpAddr::from([127, 0, 1 + high, low.max(1)]);
            held.push(serving::connect_from(from, server.addr));
        }
        std::thread::sleep(Duration::from_millis(300));
        let mut newcomer = serving::connect_from(IpAddr::from([127, 0, 9, 1]), server.addr);
        newcomer
            .set_read_timeout(Some(Duration::from_secs(5)))
            .expect("a read timeout");
        let mut one = [0u8; 1];
        assert!(
            matches!(newcomer.read(&mut one), Ok(0)),
            "a connection over the file limit's room was kept"
        );
        assert!(
            matches!(server.child.try_wait(), Ok(None)),
            "the server stopped with its files taken"
        );
        drop(held);
        std::thread::sleep(Duration::from_millis(300));
        let token = account(server.addr, "Pia", "correct horse");
        let mut pia = Client::with_token(server.addr, &token);
        pia.sit_anywhere("las-vegas-strip");
        drop(pia);
        let said = server.kill();
        assert!(!said.contains("panicked"), "{said}");
        check_ledger(&db);
    }
}
