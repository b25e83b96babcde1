//! The casino as two processes behind nginx on one PostgreSQL ledger, started by `scripts/casino-cluster` and played
//! through nginx only, as players would: an account plays at a table of process A, gets up and sits at a table of
//! process B; A is killed with SIGKILL in the middle of another account's round while B plays on; the script starts A
//! again, which refunds the round; that account comes back through nginx to its seat; a logout through nginx ends a
//! session held by the other process; and `--check-ledger` balances. Needs nginx and PostgreSQL (both installed by
//! `.ci/run`; required on CI, skipped elsewhere when missing, saying so).

mod serving;

use holecard::engine::{Cents, Event};
use holecard::host::News;
use holecard::server::protocol::{Listing, ServerMessage};
use serving::cluster::Cluster;
use serving::{Backend, Client, Db, account, check_ledger, http, pump};
use std::net::SocketAddr;
use std::time::Duration;

/// The lobby through nginx.
fn lobby(addr: SocketAddr) -> Vec<Listing> {
    let (status, body) = http(addr, "GET", "/api/tables", None, None);
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

fn with_token(addr: SocketAddr, path: &str, token: &str) -> Client {
    Client::hello_url(
        &format!("ws://{addr}{path}"),
        &format!(r#"{{"type":"hello","version":2,"token":"{token}"}}"#),
    )
}

/// Plays one round from the client's seat at the table's minimum (the safe choice whenever the clock waits for it).
fn play_a_round(client: &mut Client) {
    let ended = client.rounds_ended();
    client.send(&format!(
        r#"{{"type":"bet","amount":{}}}"#,
        client.min_bet().0
    ));
    pump(&mut [&mut *client], |c| c[0].rounds_ended() > ended);
}

#[test]
fn two_servers_behind_nginx_share_one_ledger_and_outlive_a_kill() {
    let Some(db) = Db::on(Backend::Postgres) else {
        return;
    };
    let Some(cluster) = Cluster::start(
        &db,
        "cluster",
        &[
            "--bet-seconds",
            "2",
            "--turn-seconds",
            "60",
            "--companion-ms",
            "0",
            "--hold-seconds",
            "60",
        ],
    ) else {
        return;
    };
    assert!(
        !cluster.up.contains(":holecard@"),
        "the ledger's password is not shown: {}",
        cluster.up
    );
    let addr = cluster.addr;

    // One lobby lists every table of both processes, each with where to play at it.
    let tables = lobby(addr);
    let levels = std::fs::read_dir("levels").expect("levels/").count();
    assert_eq!(tables.len(), levels, "{tables:?}");
    let at = |route: &str| -> Vec<Listing> {
        tables
            .iter()
            .filter(|t| t.ws.as_deref() == Some(route))
            .cloned()
            .collect()
    };
    let (on_a, on_b) = (at("/ws/a"), at("/ws/b"));
    assert_eq!(on_a.len() + on_b.len(), levels, "{tables:?}");
    assert!(!on_a.is_empty() && !on_b.is_empty(), "{tables:?}");
    let (table_a, table_b) = (on_a[0].id.clone(), on_b[0].id.clone());

    // Ann plays a round at A, gets up, and sits at B with what she has.
    let ann = account(addr, "Ann", "correct horse");
    let mut ann_a = with_token(addr, "/ws/a", &ann);
    let seat = ann_a.sit_anywhere(&table_a);
    play_a_round(&mut ann_a);
    let after_a = ann_a.chips();
    ann_a.send(r#"{"type":"stand"}"#);
    ann_a.wait_for(
        |m| matches!(m, ServerMessage::News { news: News::GotUp { seat: s }, .. } if *s == seat),
    );
    let mut ann_b = with_token(addr, "/ws/b", &ann);
    ann_b.sit_anywhere(&table_b);
    assert_eq!(
        ann_b.chips(),
        after_a,
        "her chips came with her from A to B"
    );

    // Bob at A, in a round that waits for him.
    let bob = account(addr, "Bob", "battery staple");
    let mut bob_a = with_token(addr, "/ws/a", &bob);
    bob_a.autoplay = false;
    let bob_seat = bob_a.sit_anywhere(&table_a);
    let (mut waiting, mut before) = (false, Cents::ZERO);
    for _ in 0..10 {
        // What he has between rounds: what the round, refunded, leaves him.
        before = bob_a.chips();
        bob_a.send(r#"{"type":"bet","amount":2500}"#);
        let clock = bob_a.wait_for(|m| {
            matches!(m, ServerMessage::Clock(t) if t.seat == Some(bob_seat))
                || matches!(
                    m,
                    ServerMessage::News {
                        news: News::Event(Event::RoundEnded { .. }),
                        ..
                    }
                )
        });
        if matches!(clock, ServerMessage::Clock(_)) {
            waiting = true;
            break;
        }
    }
    assert!(waiting, "a round waited for Bob");
    let refunded = bob_a.last_round_started().expect("Bob's round was dealt");
    // The table writes the round down as dealt right after dealing it (a kill before that leaves nothing to refund,
    // rightly: no chip moves until a round settles); the kill comes once it has.
    std::thread::sleep(Duration::from_millis(300));

    // A is killed with SIGKILL mid-round; B plays on meanwhile.
    assert!(cluster.kill("a"), "A was killed");
    play_a_round(&mut ann_b);
    // The script starts A again: it refunds the round and holds Bob's seat for him.
    cluster.wait_started("a", 2);
    let log = cluster.log("a");
    assert!(log.contains("was dealt but never settled"), "{log}");
    assert!(log.contains("sits at seat"), "{log}");
    drop(bob_a);
    let mut bob_back = with_token(addr, "/ws/a", &bob);
    let joined = bob_back.find_or_wait(|m| matches!(m, ServerMessage::Joined { .. }));
    assert!(
        matches!(&joined, ServerMessage::Joined { table, seat: Some(s), .. } if *table == table_a && *s == bob_seat),
        "Bob is back in his seat: {joined:?}"
    );
    // His bet of the refunded round is his again: nothing was won or lost.
    assert_eq!(bob_back.chips(), before);
    bob_back.autoplay = true;
    play_a_round(&mut bob_back);
    // The table counts on past the refunded round (its number is never dealt again), and the number Bob is told
    // is the one the ledger keeps.
    let next = bob_back.last_round_started().expect("a round was dealt");
    assert!(
        next > refunded,
        "round {refunded} was refunded and dealt again as {next}"
    );
    let (_, hands) = http(addr, "GET", "/api/history", None, Some(&bob));
    assert_eq!(serving::json(&hands)[0]["round"], next, "{hands}");

    // A logout through nginx (either process answers it) ends Ann's session at B.
    let (status, body) = http(addr, "POST", "/api/logout", None, Some(&ann));
    assert_eq!(status, 204, "{body}");
    ann_b.until_the_session_ends();

    // Password attempts are limited per player's address in nginx (the servers see only nginx's): guesses at names
    // that are nobody's, past 30 at once, are answered 429 with Retry-After.
    let mut limited = None;
    for i in 0..40 {
        let body = format!(r#"{{"name":"Nobody{i}","password":"guess guess"}}"#);
        let (status, head, _) =
            serving::http_with_head(addr, "POST", "/api/login", Some(&body), None);
        if status == 429 {
            limited = Some((i, head));
            break;
        }
        assert_eq!(status, 401, "{head}");
    }
    let (after, head) = limited.expect("nginx limits password attempts per address");
    assert!(after >= 30, "limited after {after}");
    assert!(
        head.to_ascii_lowercase().contains("retry-after: 2"),
        "{head}"
    );

    drop(bob_back);
    drop(cluster);
    let report = check_ledger(&db);
    let rounds = report["report"]["rounds"].as_u64().unwrap_or_default();
    assert!(rounds >= 3, "{report}");
}
