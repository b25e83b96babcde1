//! The server over real sockets: several WebSocket clients in one test process, on 127.0.0.1, each loop bounded;
//! each test runs against SQLite and against PostgreSQL.

mod serving;

use holecard::engine::{Action, Cents, Event, TableState};
use holecard::host::News;
use holecard::server::protocol::{Refusal, ServerMessage};
use holecard::server::table::Pace;
use serving::{Client, Db, ann_sits_and_bob_watches, patient, pump, start, start_with};
use std::net::TcpStream;
use std::time::Duration;
use tungstenite::Message;

on_both!(
    three_people_and_the_companions_play_a_round_that_everyone_sees_alike,
    nothing_a_client_sends_out_of_line_changes_the_table,
    a_silent_player_is_stood_by_the_clock_and_the_table_plays_on,
    chat_reaches_the_table_as_text_and_the_lobby_counts_who_is_there,
    a_dropped_connection_comes_back_to_its_seat_with_the_news_it_missed,
    a_broke_player_resets_once_an_hour_and_an_address_holds_a_few_connections,
    the_server_serves_the_browser_build_and_the_lobby_over_http,
    a_bet_the_house_cannot_cover_is_named_and_the_table_deals_without_it,
    side_bets_go_down_with_the_bet_or_not_at_all,
    a_side_bet_the_house_cannot_cover_holds_up_its_bet_and_goes_back_with_it,
);

fn three_people_and_the_companions_play_a_round_that_everyone_sees_alike(db: &Db) {
    let running = start(db, patient());
    let mut ann = Client::connect(&running, "Ann");
    let mut bob = Client::connect(&running, "Bob");
    let mut cy = Client::connect(&running, "Cy");
    let mut dee = Client::connect(&running, "Dee");
    ann.send(r#"{"type":"sit","table":"strip","seat":1}"#);
    ann.wait_for(|m| matches!(m, ServerMessage::Joined { seat: Some(1), .. }));
    bob.send(r#"{"type":"sit","table":"strip","seat":4}"#);
    bob.wait_for(|m| matches!(m, ServerMessage::Joined { seat: Some(4), .. }));
    dee.send(r#"{"type":"sit","table":"strip","seat":6}"#);
    dee.wait_for(|m| matches!(m, ServerMessage::Joined { seat: Some(6), .. }));
    cy.send(r#"{"type":"watch","table":"strip"}"#);
    cy.wait_for(|m| matches!(m, ServerMessage::Joined { seat: None, .. }));
    // A watcher can neither bet nor play.
    cy.send(r#"{"type":"bet","amount":2500}"#);
    assert_eq!(cy.refusal().0, Refusal::NotSeated);
    ann.send(r#"{"type":"bet","amount":2500}"#);
    bob.send(r#"{"type":"bet","amount":1000}"#);
    dee.send(r#"{"type":"bet","amount":5000}"#);
    pump(&mut [&mut ann, &mut bob, &mut cy, &mut dee], |c| {
        c.iter().all(|c| c.rounds_ended() >= 1)
    });

    // Everyone got the same numbered news, without gaps, from where each joined.
    let tail = |c: &Client| -> Vec<(u64, News)> {
        let first_dealt = c
            .news()
            .iter()
            .position(|(_, n)| matches!(n, News::Event(Event::RoundStarted { .. })))
            .expect("the round started");
        c.news()[first_dealt..].to_vec()
    };
    assert_eq!(tail(&ann), tail(&cy));
    assert_eq!(tail(&bob), tail(&cy));
    assert_eq!(tail(&dee), tail(&cy));
    for client in [&ann, &bob, &cy, &dee] {
        assert!(
            client.seqs.windows(2).all(|w| w[1] == w[0] + 1),
            "{:?}",
            client.seqs
        );
    }
    let round = tail(&cy);
    for seat in [0, 1, 2, 4, 5, 6] {
        assert!(
            round.iter().any(
                |(_, n)| matches!(n, News::Event(Event::Settled { seat: s, .. }) if *s == seat)
            ),
            "seat {seat} played the round"
        );
    }
    // The view each kept from the news has the chips the round's results say: the three bought in for $1,000.
    let view = cy.view.as_ref().expect("a view");
    for seat in [1, 4, 6] {
        let net: Cents = round
            .iter()
            .filter_map(|(_, n)| match n {
                News::Event(
                    Event::Settled { seat: s, net, .. }
                    | Event::InsuranceSettled { seat: s, net, .. },
                ) if *s == seat => Some(*net),
                _ => None,
            })
            .sum();
        assert_eq!(
            view.seats()[usize::from(seat)].chips(),
            Cents::units(1_000) + net
        );
    }
    assert_eq!(
        ann.view.as_ref().map(|v| v.seats().clone()),
        Some(view.seats().clone())
    );
}

fn nothing_a_client_sends_out_of_line_changes_the_table(db: &Db) {
    let running = start(db, patient());
    let mut ann = Client::connect(&running, "Ann");
    ann.autoplay = false;
    // Before a table: nothing to bet at.
    ann.send(r#"{"type":"bet","amount":2500}"#);
    assert_eq!(ann.refusal().0, Refusal::NotSeated);
    ann.send(r#"{"type":"hello","version":2,"name":"Ann"}"#);
    assert_eq!(ann.refusal().0, Refusal::NotIntroduced);
    ann.send(r#"{"type":"bet","amount":"#);
    let (code, message) = ann.refusal();
    assert_eq!(code, Refusal::BadMessage);
    assert!(message.contains("line 1"), "{message}");
    ann.send(r#"{"type":"teleport","to":"vault"}"#);
    assert_eq!(ann.refusal().0, Refusal::BadMessage);
    ann.send(&format!(
        r#"{{"type":"chat","text":"{}"}}"#,
        "x".repeat(5_000)
    ));
    assert_eq!(ann.refusal().0, Refusal::TooLarge);
    ann.ws.send(Message::binary(vec![1, 2, 3])).expect("sends");
    assert_eq!(ann.refusal().0, Refusal::BadMessage);
    ann.send(r#"{"type":"sit","table":"nowhere","seat":1}"#);
    assert_eq!(ann.refusal().0, Refusal::NoSuchTable);
    ann.send(r#"{"type":"sit","table":"strip","seat":0}"#);
    assert_eq!(ann.refusal().0, Refusal::SeatUnavailable, "Mae sits there");
    ann.send(r#"{"type":"sit","table":"strip","seat":9}"#);
    assert_eq!(ann.refusal().0, Refusal::SeatUnavailable);
    ann.send(r#"{"type":"sit","table":"strip","seat":3}"#);
    ann.wait_for(|m| matches!(m, ServerMessage::Joined { seat: Some(3), .. }));
    // Out of turn, over the limit, more than the bankroll: refused in words.
    ann.send(r#"{"type":"play","action":"Hit"}"#);
    let (code, message) = ann.refusal();
    assert_eq!(
        (code, message.as_str()),
        (Refusal::NotAllowed, "it isn't your turn")
    );
    ann.send(r#"{"type":"bet","amount":900000}"#);
    let (code, message) = ann.refusal();
    assert_eq!(code, Refusal::NotAllowed);
    assert!(message.contains("maximum"), "{message}");
    // Under the minimum is refused when bet, so it cannot stand in the circle and hold up the table's deal for
    // everyone (it was accepted, and the table never dealt again); the round below deals.
    ann.send(r#"{"type":"bet","amount":500}"#);
    let (code, message) = ann.refusal();
    assert_eq!(code, Refusal::NotAllowed);
    assert!(
        message.contains("under the table minimum of $10"),
        "{message}"
    );
    // Betting twice sets the bet twice: the chips are taken once. (Bob's seat makes the deal wait for his bet.)
    let mut bob = Client::connect(&running, "Bob");
    bob.send(r#"{"type":"sit","table":"strip","seat":4}"#);
    bob.wait_for(|m| matches!(m, ServerMessage::Joined { .. }));
    ann.send(r#"{"type":"bet","amount":1000}"#);
    ann.send(r#"{"type":"bet","amount":2000}"#);
    ann.wait_for(|m| {
        matches!(m, ServerMessage::News { news: News::Event(Event::BetSet { seat: 3, amount, .. }), .. }
            if *amount == Cents::units(20))
    });
    bob.send(r#"{"type":"bet","amount":1000}"#);
    ann.autoplay = true;
    pump(&mut [&mut ann, &mut bob], |c| c[0].rounds_ended() >= 1);
    let wagered: Vec<Cents> = ann
        .news()
        .iter()
        .filter_map(|(_, n)| match n {
            News::Event(Event::Settled { seat: 3, wager, .. }) => Some(*wager),
            _ => None,
        })
        .collect();
    assert_eq!(wagered.first(), Some(&Cents::units(20)), "{wagered:?}");
    // A wrong version and a taken name are refused too.
    let (mut other, _) =
        tungstenite::connect(format!("ws://{}/ws", running.addr)).expect("connects");
    for (hello, code) in [
        (
            r#"{"type":"hello","version":99,"name":"Zed"}"#,
            "wrong_version",
        ),
        (r#"{"type":"hello","version":2,"name":"ann"}"#, "bad_name"),
    ] {
        other.send(Message::text(hello)).expect("sends");
        let reply = other.read().expect("an answer");
        assert!(reply.to_text().expect("text").contains(code), "{reply}");
    }
}

fn a_silent_player_is_stood_by_the_clock_and_the_table_plays_on(db: &Db) {
    let running = start(
        db,
        Pace {
            bet: Duration::from_millis(300),
            turn: Duration::from_millis(300),
            companion: Duration::ZERO,
            ..Pace::default()
        },
    );
    let mut ann = Client::connect(&running, "Ann");
    ann.autoplay = false;
    ann.send(r#"{"type":"sit","table":"strip","seat":3}"#);
    ann.wait_for(|m| matches!(m, ServerMessage::Joined { .. }));
    ann.send(r#"{"type":"bet","amount":1000}"#);
    pump(&mut [&mut ann], |c| c[0].rounds_ended() >= 2);
    let news = ann.news();
    let first_round: Vec<&News> = news
        .iter()
        .map(|(_, n)| n)
        .skip_while(|n| !matches!(n, News::Event(Event::RoundStarted { round: 1 })))
        .take_while(|n| !matches!(n, News::Event(Event::RoundEnded { .. })))
        .collect();
    let stood = first_round.iter().any(|n| {
        matches!(n, News::Event(Event::Acted { seat: 3, action, .. })
            if matches!(action, Action::Stand | Action::DeclineInsurance | Action::DeclineEvenMoney))
    });
    let natural = first_round.iter().any(|n| {
        matches!(
            n,
            News::Event(Event::Blackjack { seat: 3, .. } | Event::DealerBlackjack)
        )
    });
    assert!(stood || natural, "{first_round:?}");
    // The second round was dealt without Ann's bet: she sat it out, the companions played.
    let second: Vec<&News> = news
        .iter()
        .map(|(_, n)| n)
        .skip_while(|n| !matches!(n, News::Event(Event::RoundStarted { round: 2 })))
        .collect();
    assert!(
        !second
            .iter()
            .any(|n| matches!(n, News::Event(Event::Settled { seat: 3, .. })))
    );
    assert!(
        second
            .iter()
            .any(|n| matches!(n, News::Event(Event::Settled { seat: 0, .. })))
    );
}

fn chat_reaches_the_table_as_text_and_the_lobby_counts_who_is_there(db: &Db) {
    let running = start(db, patient());
    let (mut ann, mut bob) = ann_sits_and_bob_watches(&running);
    ann.send(r#"{"type":"chat","text":"  good luck <b>all</b>\n "}"#);
    let heard = bob.wait_for(|m| matches!(m, ServerMessage::Chat { .. }));
    assert_eq!(
        heard,
        ServerMessage::Chat {
            from: "Ann".to_string(),
            text: "good luck <b>all</b>".to_string()
        }
    );
    ann.send(r#"{"type":"chat","text":"   "}"#);
    assert_eq!(ann.refusal().0, Refusal::BadChat);
    // A line cannot hide (zero-width space) or reverse (right-to-left override) what others read, nor break itself
    // in two with Unicode's line separator; one made only of such characters is refused.
    ann.send(r#"{"type":"chat","text":"I\u200B fold\u202E ton\u2028dealer: Ann wins"}"#);
    let heard = bob.wait_for(|m| matches!(m, ServerMessage::Chat { .. }));
    assert_eq!(
        heard,
        ServerMessage::Chat {
            from: "Ann".to_string(),
            text: "I fold tondealer: Ann wins".to_string()
        }
    );
    ann.send(r#"{"type":"chat","text":"\u200B\u202E\u2028"}"#);
    assert_eq!(ann.refusal().0, Refusal::BadChat);
    bob.send(r#"{"type":"lobby"}"#);
    let ServerMessage::Lobby { tables } =
        bob.wait_for(|m| matches!(m, ServerMessage::Lobby { .. }))
    else {
        unreachable!("waited for the lobby");
    };
    assert_eq!(tables.len(), 1);
    assert_eq!(
        (tables[0].people, tables[0].companions, tables[0].spectators),
        (1, 3, 1)
    );
    assert_eq!(tables[0].rules, "6D S17 DAS SP4 LS 3:2 peek");
}

fn a_dropped_connection_comes_back_to_its_seat_with_the_news_it_missed(db: &Db) {
    let running = start(db, patient());
    let mut ann = Client::connect(&running, "Ann");
    let mut bob = Client::connect(&running, "Bob");
    ann.autoplay = false;
    ann.send(r#"{"type":"sit","table":"strip","seat":3}"#);
    ann.wait_for(|m| matches!(m, ServerMessage::Joined { .. }));
    bob.send(r#"{"type":"sit","table":"strip","seat":4}"#);
    bob.wait_for(|m| matches!(m, ServerMessage::Joined { .. }));
    ann.send(r#"{"type":"bet","amount":1000}"#);
    ann.wait_for(|m| {
        matches!(
            m,
            ServerMessage::News {
                news: News::Event(Event::BetSet { seat: 3, .. }),
                ..
            }
        )
    });
    let (token, last) = (ann.token.clone(), *ann.seqs.last().expect("news"));
    drop(ann);
    // The round is dealt while Ann is away, and waits at her turn.
    bob.send(r#"{"type":"bet","amount":1000}"#);
    bob.wait_for(|m| {
        matches!(
            m,
            ServerMessage::News {
                news: News::Event(Event::Turn { seat: 3, .. }),
                ..
            }
        )
    });
    // While Ann is away her seat is held: her name too.
    let (mut zed, _) = tungstenite::connect(format!("ws://{}/ws", running.addr)).expect("connects");
    zed.send(Message::text(
        r#"{"type":"hello","version":2,"name":"ann"}"#,
    ))
    .expect("sends");
    let reply = zed.read().expect("an answer");
    assert!(
        reply.to_text().expect("text").contains("bad_name"),
        "{reply}"
    );
    zed.send(Message::text(
        r#"{"type":"hello","version":2,"name":"Zed","token":"0000"}"#,
    ))
    .expect("sends");
    let reply = zed.read().expect("an answer");
    assert!(
        reply.to_text().expect("text").contains("not known"),
        "{reply}"
    );

    let mut back = Client::hello(
        &running,
        &format!(r#"{{"type":"hello","version":2,"name":"","token":"{token}","since":{last}}}"#),
    );
    // `joined` may have come in the same read as `welcome`.
    let joined = back.find_or_wait(|m| matches!(m, ServerMessage::Joined { .. }));
    assert!(
        matches!(joined, ServerMessage::Joined { seat: Some(3), .. }),
        "{joined:?}"
    );
    pump(&mut [&mut back, &mut bob], |c| {
        c.iter().all(|c| c.rounds_ended() >= 1)
    });
    // The news she missed came again after `joined` (her own cards among it), numbered on from the last she had,
    // without gaps.
    let missed: Vec<&News> = back
        .got
        .iter()
        .filter_map(|m| match m {
            ServerMessage::Missed { news, .. } => Some(news),
            _ => None,
        })
        .collect();
    let mine = |n: &&&News| {
        matches!(
            n,
            News::Event(Event::Dealt {
                to: holecard::engine::Spot::Player { seat: 3, .. },
                ..
            })
        )
    };
    assert_eq!(missed.iter().filter(mine).count(), 2, "{missed:?}");
    assert_eq!(back.seqs.first(), Some(&(last + 1)), "{:?}", back.seqs);
    assert!(
        back.seqs.windows(2).all(|w| w[1] == w[0] + 1),
        "{:?}",
        back.seqs
    );
    // She played the round from her seat, and her view agrees with Bob's on every seat and hand.
    assert!(
        back.news()
            .iter()
            .any(|(_, n)| matches!(n, News::Event(Event::Settled { seat: 3, .. })))
    );
    let (hers, his) = (
        back.view.as_ref().expect("a view"),
        bob.view.as_ref().expect("a view"),
    );
    assert_eq!(hers.seats(), his.seats());
    assert_eq!(hers.hands(), his.hands());
}

fn a_broke_player_resets_once_an_hour_and_an_address_holds_a_few_connections(db: &Db) {
    let pace = Pace {
        bet: Duration::from_secs(10),
        turn: Duration::from_millis(200),
        companion: Duration::ZERO,
        ..Pace::default()
    };
    let running = start_with(db, pace, |config| {
        // A $10 buy-in at a $10 table: one lost hand and the player is out of chips.
        config.tables[0].1.buy_in = Cents::units(10);
        config.per_address = 3;
    });
    let mut ann = Client::connect(&running, "Ann");
    let mut bob = Client::connect(&running, "Bob");
    bob.send(r#"{"type":"watch","table":"strip"}"#);
    bob.wait_for(|m| matches!(m, ServerMessage::Joined { .. }));
    ann.send(r#"{"type":"sit","table":"strip","seat":3}"#);
    ann.wait_for(|m| matches!(m, ServerMessage::Joined { .. }));
    let notice = bob.wait_for(|m| matches!(m, ServerMessage::Notice { .. }));
    assert_eq!(
        notice,
        ServerMessage::Notice {
            text: "Ann sits down at seat 4.".to_string()
        }
    );
    ann.send(r#"{"type":"reset"}"#);
    assert_eq!(ann.refusal().0, Refusal::NoReset, "she still has her $10");
    // A fourth connection from this address is turned away; the three open ones are unharmed.
    let _cy = Client::connect(&running, "Cy");
    match tungstenite::connect(format!("ws://{}/ws", running.addr)) {
        Err(tungstenite::Error::Http(response)) => assert_eq!(response.status(), 429),
        other => panic!("a fourth connection: {:?}", other.map(|_| ())),
    }
    ann.go_broke();
    ann.send(r#"{"type":"reset"}"#);
    ann.wait_for(|m| {
        matches!(
            m,
            ServerMessage::News {
                news: News::Event(Event::Rebought { seat: 3, .. }),
                ..
            }
        )
    });
    assert_eq!(ann.chips(), Cents::units(10));
    // Broke again is not enough: once an hour.
    ann.go_broke();
    ann.send(r#"{"type":"reset"}"#);
    let (code, message) = ann.refusal();
    assert_eq!(code, Refusal::NoReset);
    assert!(message.contains("once an hour"), "{message}");
}

fn the_server_serves_the_browser_build_and_the_lobby_over_http(db: &Db) {
    let web = std::env::temp_dir().join(format!("holecard-web-{}", std::process::id()));
    std::fs::create_dir_all(&web).expect("a folder");
    // A build as scripts/build-web lays it out: the page with its Brotli'd and gzipped copies (any bytes: the server
    // sends them as they are), a module named by its hash, an asset under the assets' hashed folder.
    let hashed = web.join("assets").join("0123456789ab");
    std::fs::create_dir_all(&hashed).expect("a folder");
    std::fs::write(web.join("index.html"), "<title>Holecard</title>").expect("a page");
    std::fs::write(web.join("index.html.br"), "brotli's bytes").expect("a copy");
    std::fs::write(web.join("index.html.gz"), "gzip's bytes").expect("a copy");
    std::fs::write(web.join("holecard_bg.0123456789ab.wasm"), "a module").expect("a module");
    std::fs::write(hashed.join("felt.png"), "a picture").expect("a picture");
    let running = start_with(db, patient(), |config| config.web = Some(web.clone()));
    let ask = |path: &str, accepts: &str| -> String {
        use std::io::{Read, Write};
        let mut stream = TcpStream::connect(running.addr).expect("connects");
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .expect("a read timeout");
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: localhost\r\n{accepts}Connection: close\r\n\r\n"
        )
        .expect("asks");
        let mut answer = String::new();
        stream.read_to_string(&mut answer).expect("an answer");
        answer
    };
    let get = |path: &str| ask(path, "");
    let header = |answer: &str, name: &str| -> Option<String> {
        let head = &answer[..answer.find("\r\n\r\n").expect("a head")];
        head.lines().skip(1).find_map(|line| {
            let (key, value) = line.split_once(':')?;
            key.eq_ignore_ascii_case(name)
                .then(|| value.trim().to_string())
        })
    };
    let body = |answer: &str| answer[answer.find("\r\n\r\n").expect("a body") + 4..].to_string();
    // Compressed where the browser accepts it, Brotli first; the page is asked for again each visit.
    let brotli = ask("/", "Accept-Encoding: gzip, deflate, br\r\n");
    assert_eq!(
        header(&brotli, "content-encoding").as_deref(),
        Some("br"),
        "{brotli}"
    );
    assert_eq!(body(&brotli), "brotli's bytes");
    assert_eq!(
        header(&brotli, "vary").as_deref(),
        Some("accept-encoding"),
        "{brotli}"
    );
    assert_eq!(
        header(&brotli, "cache-control").as_deref(),
        Some("no-cache"),
        "{brotli}"
    );
    let gzip = ask("/index.html", "Accept-Encoding: gzip\r\n");
    assert_eq!(
        header(&gzip, "content-encoding").as_deref(),
        Some("gzip"),
        "{gzip}"
    );
    assert_eq!(body(&gzip), "gzip's bytes");
    // Files named by their contents are kept for good; one without a compressed copy goes out as it is.
    for path in [
        "/holecard_bg.0123456789ab.wasm",
        "/assets/0123456789ab/felt.png",
    ] {
        let answer = ask(path, "Accept-Encoding: gzip, br\r\n");
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        assert_eq!(header(&answer, "content-encoding"), None, "{answer}");
        assert_eq!(
            header(&answer, "cache-control").as_deref(),
            Some("public, max-age=31536000, immutable"),
            "{answer}"
        );
    }
    assert!(get("/assets/0123456789ab/none.png").starts_with("HTTP/1.1 404"));
    let page = get("/");
    assert_eq!(header(&page, "content-encoding"), None, "{page}");
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(page.contains("<title>Holecard</title>"), "{page}");
    assert!(
        get("/../Cargo.toml").starts_with("HTTP/1.1 4"),
        "nothing outside the folder"
    );
    // A round's link opens the page on it (the page's files are named from its root); one that is not a round is not
    // a page.
    let link = get("/hand/strip/12");
    assert!(link.starts_with("HTTP/1.1 303"), "{link}");
    assert_eq!(
        header(&link, "location").as_deref(),
        Some("/?hand=strip%2F12"),
        "{link}"
    );
    let odd = get("/hand/a%20table/3");
    assert_eq!(
        header(&odd, "location").as_deref(),
        Some("/?hand=a%20table%2F3"),
        "{odd}"
    );
    assert!(get("/hand/strip/twelve").starts_with("HTTP/1.1 404"));
    let lobby = get("/api/tables");
    assert!(lobby.contains(r#""id":"strip""#), "{lobby}");
    // Each table's exact house edge comes into the lobby once the server has worked it out (a moment, or a few
    // seconds in this unoptimised build); the Strip's is 0.333% for a chart player.
    let listed = |answer: &str| -> Vec<holecard::protocol::Listing> {
        let body = &answer[answer.find("\r\n\r\n").expect("a body") + 4..];
        serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
    };
    let mut tables = listed(&lobby);
    for _ in 0..900 {
        if tables.iter().all(|t| t.house_edge_thousandths.is_some()) {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
        tables = listed(&get("/api/tables"));
    }
    assert!(
        tables.iter().all(|t| t.house_edge_thousandths.is_some()),
        "{tables:?}"
    );
    let strip = tables.iter().find(|t| t.id == "strip").expect("the Strip");
    assert_eq!(strip.house_edge_thousandths, Some(333), "{strip:?}");
    let _ = std::fs::remove_dir_all(&web);
}

/// A table whose tray cannot cover every bet does not wait forever: it says whose bet holds the deal up, and when its
/// clock runs out it gives that bet back and deals the others.
fn a_bet_the_house_cannot_cover_is_named_and_the_table_deals_without_it(db: &Db) {
    let pace = Pace {
        bet: Duration::from_millis(1_500),
        turn: Duration::from_millis(300),
        companion: Duration::ZERO,
        ..Pace::default()
    };
    let running = start_with(db, pace, |config| {
        // Enough for the companions' bets and Bob's $10 (8 times each), not for Ann's $200 besides.
        config.tables[0].1.house_bankroll = Cents::units(1_000);
    });
    let mut ann = Client::connect(&running, "Ann");
    let mut bob = Client::connect(&running, "Bob");
    ann.send(r#"{"type":"sit","table":"strip","seat":3}"#);
    ann.wait_for(|m| matches!(m, ServerMessage::Joined { seat: Some(3), .. }));
    bob.send(r#"{"type":"sit","table":"strip","seat":4}"#);
    bob.wait_for(|m| matches!(m, ServerMessage::Joined { seat: Some(4), .. }));
    ann.send(r#"{"type":"bet","amount":20000}"#);
    bob.send(r#"{"type":"bet","amount":1000}"#);
    // Both have bet: the table says at once whose bet it cannot deal.
    let waits = notice(&mut bob, "holds it up");
    assert!(waits.contains("cannot cover"), "{waits}");
    assert!(waits.contains("Ann's $200"), "{waits}");
    assert!(!waits.contains("Bob"), "{waits}");
    // The clock runs out: Ann's bet goes back to her, and the round is dealt to the others.
    let dealt = notice(&mut ann, "dealt without");
    assert!(dealt.contains("Ann's $200"), "{dealt}");
    pump(&mut [&mut ann, &mut bob], |c| c[1].rounds_ended() >= 1);
    let round: Vec<News> = bob
        .news()
        .into_iter()
        .map(|(_, n)| n)
        .skip_while(|n| !matches!(n, News::Event(Event::RoundStarted { .. })))
        .collect();
    let settled = |seat| {
        round
            .iter()
            .any(|n| matches!(n, News::Event(Event::Settled { seat: s, .. }) if *s == seat))
    };
    assert!(settled(4), "Bob played the round: {round:?}");
    assert!(!settled(3), "Ann sat it out: {round:?}");
    assert!(
        bob.news().iter().any(|(_, n)| matches!(
            n,
            News::Event(Event::BetSet { seat: 3, amount, .. }) if *amount == Cents::ZERO
        )),
        "Ann's bet was given back"
    );
}

/// At a table dealing 21+3 and Perfect Pairs (Atlantic City), a `bet` carries its side bets: one the table does not
/// offer, one named twice, or a bet the chips cannot cover with its side bets is refused and leaves nothing on the
/// felt (a side bet put down before the bet failed is taken back, and everyone sees it go); a good one goes down
/// with the bet, is settled with the first cards, and every chip of it is accounted for in the player's stack.
fn side_bets_go_down_with_the_bet_or_not_at_all(db: &Db) {
    use holecard::engine::side::SideBet;
    let level = holecard::host::level::Level::built_in(std::path::Path::new("atlantic-city"))
        .expect("shipped")
        .expect("valid");
    let running = start_with(db, patient(), |config| {
        config.tables = vec![("ac".to_string(), level)];
    });
    let mut ann = Client::connect(&running, "Ann");
    ann.send(r#"{"type":"sit","table":"ac","seat":3}"#);
    ann.wait_for(|m| matches!(m, ServerMessage::Joined { seat: Some(3), .. }));
    let start = ann.chips();
    ann.send(r#"{"type":"bet","amount":1500,"side_bets":[{"bet":"Buster","amount":100}]}"#);
    let (code, message) = ann.refusal();
    assert_eq!(code, Refusal::NotAllowed);
    assert!(message.contains("Buster"), "{message}");
    ann.send(r#"{"type":"bet","amount":1500,"side_bets":[{"bet":"PerfectPairs","amount":100},{"bet":"PerfectPairs","amount":500}]}"#);
    let (code, message) = ann.refusal();
    assert_eq!(code, Refusal::BadMessage);
    assert!(message.contains("named twice"), "{message}");
    // All but $50 of the stack on the bet, and $100 on Perfect Pairs: the side bet goes down, the bet is refused,
    // and the side bet comes back.
    let most = start - Cents::units(50);
    ann.send(&format!(
        r#"{{"type":"bet","amount":{},"side_bets":[{{"bet":"PerfectPairs","amount":10000}}]}}"#,
        most.0
    ));
    let (code, message) = ann.refusal();
    assert_eq!(code, Refusal::NotAllowed, "{message}");
    assert!(message.contains("needs $1,950"), "{message}");
    // The table's news of it came before the refusal, on the same connection.
    let sides: Vec<Cents> = ann
        .news()
        .iter()
        .filter_map(|(_, n)| match n {
            News::Event(Event::SideBetSet {
                seat: 3, amount, ..
            }) => Some(*amount),
            _ => None,
        })
        .collect();
    assert_eq!(sides, [Cents::units(100), Cents::ZERO], "down, then back");
    assert_eq!(ann.chips(), start, "nothing left on the felt");
    assert!(
        !ann.news()
            .iter()
            .any(|(_, n)| matches!(n, News::Event(Event::BetSet { seat: 3, .. }))),
        "no bet went down"
    );
    ann.send(r#"{"type":"bet","amount":1500,"side_bets":[{"bet":"TwentyOnePlusThree","amount":100},{"bet":"PerfectPairs","amount":500}]}"#);
    pump(&mut [&mut ann], |c| c[0].rounds_ended() >= 1);
    let mut settled = Vec::new();
    let mut net = Cents::ZERO;
    for (_, news) in ann.news() {
        match news {
            News::Event(Event::SideBetSettled {
                seat: 3,
                bet,
                stake,
                net: won,
                ..
            }) => {
                settled.push((bet, stake));
                net += won;
            }
            News::Event(Event::Settled {
                seat: 3, net: won, ..
            })
            | News::Event(Event::InsuranceSettled {
                seat: 3, net: won, ..
            }) => net += won,
            _ => {}
        }
    }
    settled.sort_by_key(|(bet, _)| *bet as u8);
    assert_eq!(
        settled,
        [
            (SideBet::TwentyOnePlusThree, Cents::units(1)),
            (SideBet::PerfectPairs, Cents::units(5))
        ]
    );
    assert_eq!(
        ann.chips(),
        start + net,
        "every chip of the round in the stack"
    );
}

/// The house's tray covers every bet's worst case but not Ann's $100 on 21+3 at 100 to 1: the table names her bet as
/// the one holding the deal up (counting side bets as the deal does, or it would wait for good), and when the clock
/// runs out her bet and her side bet go back together and the others are dealt.
fn a_side_bet_the_house_cannot_cover_holds_up_its_bet_and_goes_back_with_it(db: &Db) {
    use holecard::engine::side::SideBet;
    let pace = Pace {
        bet: Duration::from_millis(1_500),
        turn: Duration::from_millis(300),
        companion: Duration::ZERO,
        ..Pace::default()
    };
    let mut level = holecard::host::level::Level::built_in(std::path::Path::new("atlantic-city"))
        .expect("shipped")
        .expect("valid");
    // The companions' bets (Vinnie's $150 and $15 on Perfect Pairs at 25 to 1, two $15s) at their worst are
    // $1,815; Ann's $15 and $100 on 21+3 at 100 to 1 would need $10,120 more.
    level.house_bankroll = Cents::units(3_000);
    let running = start_with(db, pace, |config| {
        config.tables = vec![("ac".to_string(), level)];
    });
    let mut ann = Client::connect(&running, "Ann");
    ann.send(r#"{"type":"sit","table":"ac","seat":3}"#);
    ann.wait_for(|m| matches!(m, ServerMessage::Joined { seat: Some(3), .. }));
    let start = ann.chips();
    ann.send(
        r#"{"type":"bet","amount":1500,"side_bets":[{"bet":"TwentyOnePlusThree","amount":10000}]}"#,
    );
    let waits = notice(&mut ann, "holds it up");
    assert!(waits.contains("Ann's $15"), "{waits}");
    let dealt = notice(&mut ann, "dealt without");
    assert!(dealt.contains("Ann's $15"), "{dealt}");
    pump(&mut [&mut ann], |c| c[0].rounds_ended() >= 1);
    let back = |bet: SideBet| {
        ann.news().iter().any(|(_, n)| {
            matches!(n, News::Event(Event::SideBetSet { seat: 3, bet: b, amount, .. })
                if *b == bet && *amount == Cents::ZERO)
        })
    };
    assert!(back(SideBet::TwentyOnePlusThree), "the side bet went back");
    assert_eq!(ann.chips(), start, "Ann sat the round out with every chip");
}

/// The next notice of `c`'s that says `part`.
fn notice(c: &mut Client, part: &'static str) -> String {
    match c.wait_for(move |m| matches!(m, ServerMessage::Notice { text } if text.contains(part))) {
        ServerMessage::Notice { text } => text,
        _ => unreachable!("waited for a notice"),
    }
}
