//! Moderating a casino, over real sockets on SQLite and PostgreSQL: roles given by the operator's `--grant`; a player
//! who cannot moderate (at the table or over the API); a muted player's chat refused until the mute runs out; a banned
//! account's and address's hello refused until the ban runs out; a timeout and a kick that send a player away from
//! the tables; a blocked player's chat hidden from whoever blocked it (an account's block kept across sessions); a
//! report kept with the chat before it, read by moderators only; every action in the moderation log and counted in
//! the figures; the chat swept after its time.

mod serving;

use holecard::server::ledger::Role;
use holecard::server::protocol::{Refusal, ServerMessage};
use serving::*;
use std::net::IpAddr;
use std::time::Duration;

fn chat_from(from: &str, text: &str) -> impl Fn(&ServerMessage) -> bool {
    let (from, text) = (from.to_string(), text.to_string());
    move |m| matches!(m, ServerMessage::Chat { from: f, text: t } if *f == from && *t == text)
}

fn notice_with(words: &str) -> impl Fn(&ServerMessage) -> bool {
    let words = words.to_string();
    move |m| matches!(m, ServerMessage::Notice { text } if text.contains(&words))
}

/// Says a chat line and waits for it to come back (every member hears a line, its sayer too).
fn say(client: &mut Client, name: &str, text: &str) {
    client.send(&format!(r#"{{"type":"chat","text":"{text}"}}"#));
    client.wait_for(chat_from(name, text));
}

/// An account connected by token, watching `strip`.
fn watching(addr: std::net::SocketAddr, token: &str) -> Client {
    let mut client = Client::with_token(addr, token);
    client.send(r#"{"type":"watch","table":"strip"}"#);
    client.wait_for(|m| matches!(m, ServerMessage::Joined { .. }));
    client
}

/// A guest watching `strip`.
fn guest_watching(running: &holecard::server::Running, name: &str) -> Client {
    let mut client = Client::connect(running, name);
    client.send(r#"{"type":"watch","table":"strip"}"#);
    client.wait_for(|m| matches!(m, ServerMessage::Joined { .. }));
    client
}

/// Runs `f` on the ledger of `db` as a tool beside the server keeping it (as `--grant` opens it).
fn beside<T>(db: &Db, f: impl AsyncFnOnce(&holecard::server::ledger::Store) -> T) -> T {
    block_on(async {
        let store = holecard::server::ledger::Store::open_tool(&db.url)
            .await
            .expect("the ledger opens");
        f(&store).await
    })
}

fn grant(db: &Db, name: &str, role: Role) {
    let name = name.to_string();
    beside(db, async move |store| store.grant(&name, role).await).expect("the role given");
}

/// A moderator's action asked at the table: the answer (what was done, or the refusal), past the table's notices.
fn moderate(client: &mut Client, order: &str) -> ServerMessage {
    client.send(&format!(r#"{{"type":"moderate",{order}}}"#));
    let done = [
        " is muted ",
        " is timed out ",
        " is kept from ",
        " is banned ",
        " is pardoned.",
    ];
    client.wait_for(move |m| match m {
        ServerMessage::Notice { text } => done.iter().any(|d| text.contains(d)),
        ServerMessage::Refused { .. } => true,
        _ => false,
    })
}

/// A moderator's action asked at the table, and refused as not allowed.
fn not_allowed(client: &mut Client, order: &str) {
    let refused = moderate(client, order);
    assert!(
        matches!(
            refused,
            ServerMessage::Refused {
                code: Refusal::NotAllowed,
                ..
            }
        ),
        "{refused:?}"
    );
}

/// The moderation log as a moderator's token reads it: each line's action and name.
fn log_of(addr: std::net::SocketAddr, token: &str) -> Vec<(String, String)> {
    let (status, body) = http(addr, "GET", "/api/moderation/log", None, Some(token));
    assert_eq!(status, 200, "{body}");
    json(&body)
        .as_array()
        .expect("a list")
        .iter()
        .map(|line| {
            (
                line["action"].as_str().unwrap_or_default().to_string(),
                line["name"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

fn a_player_cannot_moderate_and_a_muted_player_waits(db: &Db) {
    let running = start(db, patient());
    let addr = running.addr;
    let mona = account(addr, "Mona", "moderator password");
    let pat = account(addr, "Pat", "player password");
    let max = account(addr, "Max", "another moderator");
    let mut pat_at = watching(addr, &pat);
    let mut gus = guest_watching(&running, "Gus");
    let mut bob = guest_watching(&running, "Bob");

    // A player cannot moderate: at the table, nor over the API, nor read the log or the reports.
    let refused = moderate(&mut pat_at, r#""action":"mute","name":"Gus","seconds":60"#);
    assert!(
        matches!(&refused, ServerMessage::Refused { code: Refusal::NotAllowed, message } if message == "only a moderator can do that"),
        "{refused:?}"
    );
    let body = r#"{"action":"ban","name":"Gus","reason":"no"}"#;
    let (status, said) = http(addr, "POST", "/api/moderation", Some(body), Some(&pat));
    assert_eq!(status, 403, "{said}");
    for path in ["/api/moderation/log", "/api/moderation/reports"] {
        let (status, said) = http(addr, "GET", path, None, Some(&pat));
        assert_eq!(status, 403, "{path}: {said}");
    }
    let (status, _) = http(addr, "POST", "/api/moderation", Some(body), None);
    assert_eq!(status, 401);
    // A guest cannot either.
    not_allowed(&mut bob, r#""action":"mute","name":"Gus""#);
    say(&mut gus, "Gus", "still here");

    // The operator makes Mona and Max moderators; a moderator mutes a guest for two seconds.
    grant(db, "Mona", Role::Moderator);
    grant(db, "max", Role::Moderator);
    let mut mona_at = watching(addr, &mona);
    let done = moderate(
        &mut mona_at,
        r#""action":"mute","name":"gus","seconds":2,"reason":"shouting""#,
    );
    assert!(
        matches!(&done, ServerMessage::Notice { text } if text == "gus is muted for 2 seconds."),
        "{done:?}"
    );
    gus.find_or_wait(notice_with("A moderator has muted you for"));
    gus.send(r#"{"type":"chat","text":"you cannot mute me"}"#);
    let (code, why) = gus.refusal();
    assert_eq!(code, Refusal::Muted, "{why}");
    assert!(
        why.contains("muted you for") && why.ends_with(": shouting"),
        "{why}"
    );
    // The line reached nobody: Bob hears his own next line and nothing of Gus's before it.
    say(&mut bob, "Bob", "quiet now");
    assert!(
        !bob.got.iter().any(chat_from("Gus", "you cannot mute me")),
        "{:?}",
        bob.got
    );
    // A moderator cannot mute a moderator.
    let refused = moderate(&mut mona_at, r#""action":"mute","name":"Max""#);
    assert!(
        matches!(&refused, ServerMessage::Refused { code: Refusal::NotAllowed, message } if message.starts_with("Max is a moderator")),
        "{refused:?}"
    );
    drop(max);
    // Once the mute runs out, Gus speaks again.
    std::thread::sleep(Duration::from_millis(2_100));
    say(&mut gus, "Gus", "back");
    bob.wait_for(chat_from("Gus", "back"));
    // A moderator made a player again moderates no more: the statement that would act checks the role.
    grant(db, "Mona", Role::Player);
    not_allowed(&mut mona_at, r#""action":"mute","name":"Gus""#);
    grant(db, "Mona", Role::Admin);
    let log = log_of(addr, &mona);
    for wanted in [
        ("grant", "Mona"),
        ("grant", "Max"),
        ("mute", "gus"),
        ("grant", "Mona"),
    ] {
        assert!(
            log.contains(&(wanted.0.to_string(), wanted.1.to_string())),
            "{wanted:?} in {log:?}"
        );
    }
    assert_eq!(
        log.iter().filter(|(action, _)| action == "mute").count(),
        1,
        "a refused action is not in the log: {log:?}"
    );
}

fn a_banned_account_and_address_wait_for_the_expiry(db: &Db) {
    let running = start(db, patient());
    let addr = running.addr;
    let mona = account(addr, "Mona", "moderator password");
    grant(db, "Mona", Role::Moderator);
    let pat = account(addr, "Pat", "player password");
    let there: IpAddr = "127.0.0.2".parse().expect("an address");
    let hello = |token: &str| format!(r#"{{"type":"hello","version":2,"token":"{token}"}}"#);
    let mut pat_at = match hello_from(there, addr, "/ws", &hello(&pat)) {
        Ok(client) => client,
        Err(e) => panic!("{e:?}"),
    };
    let seat = pat_at.sit_anywhere("strip");
    let mut bob = guest_watching(&running, "Bob");

    // Banned over the API for three seconds, the address too: Pat's connection is told and closed.
    let body = r#"{"action":"ban","name":"PAT","seconds":3,"reason":"cheating","address":true}"#;
    let (status, said) = http(addr, "POST", "/api/moderation", Some(body), Some(&mona));
    assert_eq!(status, 200, "{said}");
    assert_eq!(
        json(&said)["done"],
        "PAT is banned for 3 seconds (their address too)."
    );
    let last = pat_at.until_closed();
    assert!(
        last.iter().any(|m| matches!(m, ServerMessage::Refused { code: Refusal::Banned, message } if message.ends_with(": cheating."))),
        "{last:?}"
    );
    bob.find_or_wait(|m| matches!(m, ServerMessage::Notice { text } if text.to_lowercase() == "a moderator has banned pat."));
    bob.until_empty(seat);
    // The ban ended the account's sessions; logging in again, its hello is refused while the ban lasts.
    let (status, _) = http(addr, "GET", "/api/me", None, Some(&pat));
    assert_eq!(status, 401);
    let again = account(addr, "Pat", "player password");
    let (code, why) = hello_refused(addr, &hello(&again));
    assert_eq!(code, Refusal::Banned, "{why}");
    // A guest from the banned address is refused; one from elsewhere is welcome; so is a moderator from there.
    let guest = r#"{"type":"hello","version":2,"name":"Newcomer"}"#;
    match hello_from(there, addr, "/ws", guest) {
        Err(NotWelcomed::Refused(Refusal::Banned, why)) => {
            assert!(why.contains("banned this name or address"), "{why}");
        }
        other => panic!("{:?}", other.map(|_| "welcomed")),
    }
    let mona_token = mona.clone();
    assert!(hello_from(there, addr, "/ws", &hello(&mona_token)).is_ok());
    let _welcome = Client::connect(&running, "Elsewhere");
    // Once it runs out, both come back.
    std::thread::sleep(Duration::from_millis(3_100));
    assert!(try_hello(addr, &hello(&again)).is_ok());
    assert!(hello_from(there, addr, "/ws", guest).is_ok());
    let log = log_of(addr, &mona);
    assert!(
        log.contains(&("ban".to_string(), "PAT".to_string())),
        "{log:?}"
    );

    // A guest at no table is closed too, and its name is free again once the ban runs out. A connection from
    // 127.0.0.1 that says nothing of whom it forwards is a proxy's: no address of its is kept, or banned.
    let mut lou = Client::connect(&running, "Lou");
    let order = r#""action":"ban","name":"Lou","seconds":1,"address":true"#;
    let mut mona_at = Client::with_token(addr, &mona);
    let done = moderate(&mut mona_at, order);
    assert!(
        matches!(&done, ServerMessage::Notice { text } if text == "Lou is banned for 1 second (no address of theirs is known: the name only)."),
        "{done:?}"
    );
    lou.until_closed_saying(Refusal::Banned);
    std::thread::sleep(Duration::from_millis(1_100));
    let _lou_again = Client::connect(&running, "Lou");

    // A banned moderator moderates no more, even logged in again: an admin bans Max, a moderator, for a while.
    let ada = account(addr, "Ada", "an admin's password");
    grant(db, "Ada", Role::Admin);
    account(addr, "Max", "another moderator");
    grant(db, "Max", Role::Moderator);
    let body = r#"{"action":"ban","name":"Max","seconds":600}"#;
    let (status, said) = http(addr, "POST", "/api/moderation", Some(body), Some(&mona));
    assert_eq!(status, 409, "a moderator cannot ban a moderator: {said}");
    let (status, said) = http(addr, "POST", "/api/moderation", Some(body), Some(&ada));
    assert_eq!(status, 200, "{said}");
    let max = account(addr, "Max", "another moderator");
    let mute = r#"{"action":"mute","name":"Newcomer"}"#;
    let (status, said) = http(addr, "POST", "/api/moderation", Some(mute), Some(&max));
    assert_eq!(status, 403, "{said}");
    let (status, said) = http(addr, "GET", "/api/moderation/reports", None, Some(&max));
    assert_eq!(status, 403, "{said}");
}

fn a_timeout_and_a_kick_send_a_player_away_until_pardoned(db: &Db) {
    let running = start(db, patient());
    let addr = running.addr;
    let mona = account(addr, "Mona", "moderator password");
    grant(db, "Mona", Role::Moderator);
    let mut mona_at = watching(addr, &mona);
    let mut pat = Client::connect(&running, "Pat");
    let seat = pat.sit_anywhere("strip");

    let done = moderate(
        &mut mona_at,
        r#""action":"timeout","name":"Pat","seconds":2,"reason":"slow play""#,
    );
    assert!(matches!(&done, ServerMessage::Notice { .. }), "{done:?}");
    let (code, why) = pat.refusal();
    assert_eq!(code, Refusal::SentAway, "{why}");
    assert!(
        why.contains("timed you out") && why.ends_with(": slow play."),
        "{why}"
    );
    mona_at.find_or_wait(notice_with(
        "A moderator has sent Pat away from the tables.",
    ));
    mona_at.until_empty(seat);
    // No seat while it lasts (watching is allowed), then a seat again.
    pat.send(&format!(
        r#"{{"type":"sit","table":"strip","seat":{seat}}}"#
    ));
    let (code, why) = pat.refusal();
    assert_eq!(code, Refusal::SentAway, "{why}");
    pat.send(r#"{"type":"watch","table":"strip"}"#);
    pat.wait_for(|m| matches!(m, ServerMessage::Joined { seat: None, .. }));
    pat.send(r#"{"type":"chat","text":"let me play"}"#);
    assert_eq!(pat.refusal().0, Refusal::Muted);
    std::thread::sleep(Duration::from_millis(2_100));
    assert_eq!(pat.sit_anywhere("strip"), seat);

    // Kicked from the table for ten minutes (the table the moderator is at), then pardoned.
    let done = moderate(&mut mona_at, r#""action":"kick","name":"Pat""#);
    assert!(
        matches!(&done, ServerMessage::Notice { text } if text == "Pat is kept from this table for 10 minutes."),
        "{done:?}"
    );
    assert_eq!(pat.refusal().0, Refusal::SentAway);
    pat.send(r#"{"type":"watch","table":"strip"}"#);
    let (code, why) = pat.refusal();
    assert_eq!(code, Refusal::SentAway, "{why}");
    assert!(why.contains("removed you from this table"), "{why}");
    let done = moderate(
        &mut mona_at,
        r#""action":"pardon","name":"Pat","reason":"sorry""#,
    );
    assert!(
        matches!(&done, ServerMessage::Notice { text } if text == "Pat is pardoned."),
        "{done:?}"
    );
    mona_at.until_empty(seat);
    assert_eq!(pat.sit_anywhere("strip"), seat);
    // Nothing left to pardon.
    let refused = moderate(&mut mona_at, r#""action":"pardon","name":"Pat""#);
    assert!(
        matches!(&refused, ServerMessage::Refused { message, .. } if message == "nothing is imposed on Pat now"),
        "{refused:?}"
    );

    // Every action is in the log, and in the figures.
    let log = log_of(addr, &mona);
    for action in ["timeout", "kick", "pardon"] {
        assert!(
            log.contains(&(action.to_string(), "Pat".to_string())),
            "{action} in {log:?}"
        );
    }
    let (_, figures) = http(addr, "GET", "/metrics", None, None);
    for action in ["timeout", "kick", "pardon"] {
        let line = format!("holecard_moderation_actions_total{{action=\"{action}\"}} 1");
        assert!(figures.contains(&line), "{line} in {figures}");
    }
}

fn a_blocked_player_is_not_heard_and_a_report_keeps_its_context(db: &Db) {
    let running = start(db, patient());
    let addr = running.addr;
    let dee = account(addr, "Dee", "a password of hers");
    let mona = account(addr, "Mona", "moderator password");
    grant(db, "Mona", Role::Moderator);
    let mut ann = guest_watching(&running, "Ann");
    let mut bob = guest_watching(&running, "Bob");
    let mut cid = guest_watching(&running, "Cid");
    let mut dee_at = watching(addr, &dee);

    ann.send(r#"{"type":"block","name":"bob"}"#);
    ann.wait_for(notice_with("You will not see bob's chat."));
    dee_at.send(r#"{"type":"block","name":"BOB"}"#);
    dee_at.wait_for(notice_with("You will not see BOB's chat."));
    say(&mut bob, "Bob", "you all play badly");
    cid.wait_for(chat_from("Bob", "you all play badly"));
    // Ann's and Dee's own lines come back after Bob's; Bob's never came.
    say(&mut ann, "Ann", "anyone there");
    say(&mut dee_at, "Dee", "hello");
    for (who, got) in [("Ann", &ann.got), ("Dee", &dee_at.got)] {
        assert!(
            !got.iter()
                .any(|m| matches!(m, ServerMessage::Chat { from, .. } if from == "Bob")),
            "{who} heard Bob: {got:?}"
        );
    }
    // An account's block is kept: a new session of Dee's still does not hear Bob.
    drop(dee_at);
    let mut dee_again = watching(addr, &dee);
    say(&mut bob, "Bob", "still bad");
    say(&mut dee_again, "Dee", "back");
    assert!(
        !dee_again
            .got
            .iter()
            .any(|m| matches!(m, ServerMessage::Chat { from, .. } if from == "Bob")),
        "{:?}",
        dee_again.got
    );
    // Unblocked, Ann hears him again.
    ann.send(r#"{"type":"unblock","name":"Bob"}"#);
    ann.wait_for(notice_with("You will see Bob's chat again."));
    say(&mut bob, "Bob", "sorry");
    ann.wait_for(chat_from("Bob", "sorry"));

    // Cid reports Bob: the report keeps the chat before it; Bob is told nothing, and only a moderator reads it.
    cid.send(r#"{"type":"report","name":"Bob","reason":"insults"}"#);
    cid.wait_for(notice_with(
        "Thank you: the moderators will read your report about Bob",
    ));
    let (status, said) = http(addr, "GET", "/api/moderation/reports", None, Some(&dee));
    assert_eq!(status, 403, "{said}");
    let (status, said) = http(addr, "GET", "/api/moderation/reports", None, Some(&mona));
    assert_eq!(status, 200, "{said}");
    let reports = json(&said);
    let report = &reports[0];
    assert_eq!(report["by"], "Cid", "{report}");
    assert_eq!(report["name"], "Bob", "{report}");
    assert_eq!(report["reason"], "insults", "{report}");
    assert_eq!(report["table"], "strip", "{report}");
    let chat: Vec<&str> = report["chat"]
        .as_array()
        .expect("the chat")
        .iter()
        .filter_map(|line| line.as_str())
        .collect();
    assert_eq!(
        chat,
        [
            "Bob: you all play badly",
            "Ann: anyone there",
            "Dee: hello",
            "Bob: still bad",
            "Dee: back",
            "Bob: sorry"
        ],
        "{report}"
    );
    say(&mut bob, "Bob", "what did I miss");
    assert!(
        !bob.got
            .iter()
            .any(|m| matches!(m, ServerMessage::Notice { text } if text.contains("report"))),
        "{:?}",
        bob.got
    );
    // The chat past its time is swept; the report keeps its copy.
    let swept = beside(db, async |store| {
        store
            .forget_chat_before(holecard::server::ledger::now_ms() + 1)
            .await
    })
    .expect("the chat swept");
    assert_eq!(swept, 7);
    let (_, said) = http(addr, "GET", "/api/moderation/reports", None, Some(&mona));
    assert_eq!(json(&said)[0]["chat"].as_array().map(Vec::len), Some(6));
}

/// `holecard-server --grant NAME ROLE` gives the role while a server keeps the ledger; a name with no account, or a
/// role that is none, is refused with why.
fn the_operator_grants_a_role_from_the_command_line(db: &Db) {
    let running = start(db, patient());
    let addr = running.addr;
    let mona = account(addr, "Mona", "moderator password");
    let server = env!("CARGO_BIN_EXE_holecard-server");
    let run = |name: &str, role: &str| {
        std::process::Command::new(server)
            .args(["--database", &db.url, "--grant", name, role])
            .output()
            .expect("holecard-server runs")
    };
    let given = run("mona", "moderator");
    assert!(given.status.success(), "{given:?}");
    assert_eq!(
        String::from_utf8_lossy(&given.stdout).trim(),
        "holecard-server: Mona is moderator now"
    );
    let (status, said) = http(addr, "GET", "/api/moderation/log", None, Some(&mona));
    assert_eq!(status, 200, "{said}");
    assert_eq!(json(&said)[0]["action"], "grant");
    assert_eq!(json(&said)[0]["reason"], "moderator");
    let nobody = run("Nobody", "admin");
    assert_eq!(nobody.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&nobody.stderr).contains("no such account"));
    let king = run("Mona", "king");
    assert_eq!(king.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&king.stderr).contains("\"king\" is not a role"));
}

on_both!(
    a_player_cannot_moderate_and_a_muted_player_waits,
    a_banned_account_and_address_wait_for_the_expiry,
    a_timeout_and_a_kick_send_a_player_away_until_pardoned,
    a_blocked_player_is_not_heard_and_a_report_keeps_its_context,
    the_operator_grants_a_role_from_the_command_line,
);

/// Two servers on one PostgreSQL ledger: a moderator on one times out a player seated at the other's table and bans a
/// guest watching there, and the other server carries both out at once (the player sent away from the seat and the
/// guest's connection closed, each told why), as the server the moderator is on does for its own tables; a kick
/// names the other server's table as its lobby lists it.
#[test]
fn a_moderators_action_on_one_server_is_carried_out_on_another() {
    let Some(db) = Db::on(Backend::Postgres) else {
        return;
    };
    let a = start(&db, patient());
    let b = start_with(&db, patient(), |config| {
        config.tables[0].0 = "strip-b".to_string();
    });
    let mona = account(a.addr, "Mona", "moderator password");
    grant(&db, "Mona", Role::Moderator);
    let mut mona_at = watching(a.addr, &mona);
    let mut pat = Client::connect_at(b.addr, "Pat");
    let seat = pat.sit_anywhere("strip-b");
    let mut gus = Client::connect_at(b.addr, "Gus");
    gus.send(r#"{"type":"watch","table":"strip-b"}"#);
    gus.wait_for(|m| matches!(m, ServerMessage::Joined { .. }));

    let done = moderate(
        &mut mona_at,
        r#""action":"timeout","name":"Pat","seconds":60,"reason":"slow play""#,
    );
    assert!(
        matches!(&done, ServerMessage::Notice { text } if text.contains("Pat is timed out")),
        "{done:?}"
    );
    let (code, why) = pat.refusal();
    assert_eq!(code, Refusal::SentAway, "{why}");
    assert!(why.ends_with(": slow play."), "{why}");
    gus.find_or_wait(notice_with(
        "A moderator has sent Pat away from the tables.",
    ));
    gus.until_empty(seat);
    pat.send(r#"{"type":"watch","table":"strip-b"}"#);
    pat.wait_for(|m| matches!(m, ServerMessage::Joined { seat: None, .. }));

    let done = moderate(&mut mona_at, r#""action":"ban","name":"Gus","seconds":60"#);
    assert!(matches!(&done, ServerMessage::Notice { .. }), "{done:?}");
    gus.until_closed_saying(Refusal::Banned);
    pat.find_or_wait(notice_with("A moderator has banned Gus."));

    // A kick of the other server's table, from the HTTP API: its lobby lists the table (the tests' servers publish
    // no lobby line, so it is put there as a cluster's server would).
    block_on(async {
        let store = holecard::server::ledger::Store::open_tool(&db.url)
            .await
            .expect("the ledger opens");
        let listing = holecard::server::protocol::Listing {
            id: "strip-b".to_string(),
            name: "Strip B".to_string(),
            rules: String::new(),
            min_bet: holecard::engine::Cents::units(10),
            max_bet: holecard::engine::Cents::units(500),
            people: 0,
            companions: 0,
            spectators: 0,
            house_edge_thousandths: None,
            ws: None,
        };
        store.publish(&listing, "/ws/b").await.expect("listed");
    });
    let order = r#"{"action":"kick","name":"Pat","table":"strip-b"}"#;
    let (status, said) = http(a.addr, "POST", "/api/moderation", Some(order), Some(&mona));
    assert_eq!(status, 200, "{said}");
    let (code, why) = pat.refusal();
    assert_eq!(code, Refusal::SentAway, "{why}");
    assert!(why.contains("removed you from this table"), "{why}");
    let order = r#"{"action":"kick","name":"Pat","table":"nowhere"}"#;
    let (status, said) = http(a.addr, "POST", "/api/moderation", Some(order), Some(&mona));
    assert_eq!(status, 400, "{said}");
    assert!(said.contains("there is no table"), "{said}");
}
