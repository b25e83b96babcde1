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
use serving::{Backend, Client, Db, TABLES_OF_LEVELS, account, check_ledger, http, pump};
use std::io::{BufRead, BufReader};
use std::net::{SocketAddr, TcpListener};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The cluster's script as a process: stopped with SIGTERM (then everything it started stops) when dropped.
struct Cluster {
    script: Child,
    run: std::path::PathBuf,
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.script.id().to_string()])
            .status();
        let until = Instant::now() + Duration::from_secs(20);
        while Instant::now() < until {
            if matches!(self.script.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.script.kill();
        let _ = self.script.wait();
    }
}

impl Cluster {
    /// A process's pid, from the run folder.
    fn pid(&self, name: &str) -> Option<u32> {
        std::fs::read_to_string(self.run.join(format!("{name}.pid")))
            .ok()
            .and_then(|p| p.trim().parse().ok())
    }

    fn log(&self, name: &str) -> String {
        std::fs::read_to_string(self.run.join(format!("{name}.log"))).unwrap_or_default()
    }
}

/// Ports free on 127.0.0.1 now.
fn free_ports(n: usize) -> Vec<u16> {
    let held: Vec<TcpListener> = (0..n)
        .map(|_| TcpListener::bind("127.0.0.1:0").expect("a free port"))
        .collect();
    held.iter()
        .map(|l| l.local_addr().expect("its address").port())
        .collect()
}

fn nginx_here() -> bool {
    let there = Path::new("/usr/sbin/nginx").is_file();
    if !there {
        assert!(
            std::env::var_os("CI").is_none(),
            "on CI, nginx must be installed (.ci/run installs nginx-light)"
        );
        eprintln!("nginx is not installed: the cluster test is skipped here");
    }
    there
}

/// The lobby through nginx.
fn lobby(addr: SocketAddr) -> Vec<Listing> {
    let (status, body) = http(addr, "GET", "/api/tables", None, None);
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

fn with_token(addr: SocketAddr, path: &str, token: &str) -> Client {
    Client::hello_url(
        &format!("ws://{addr}{path}"),
        &format!(r#"{{"type":"hello","version":1,"token":"{token}"}}"#),
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
    if !nginx_here() {
        return;
    }
    let ports = free_ports(3);
    let run = std::env::temp_dir().join(format!("holecard-cluster-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&run);
    let mut script =
        Command::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/casino-cluster"))
            .args(["--port", &ports[0].to_string()])
            .args(["--server-ports", &format!("{},{}", ports[1], ports[2])])
            .args(["--database", &db.url])
            .args(["--server", env!("CARGO_BIN_EXE_holecard-server")])
            .arg("--run-dir")
            .arg(&run)
            .arg("--")
            .args(TABLES_OF_LEVELS)
            .args([
                "--bet-seconds",
                "2",
                "--turn-seconds",
                "60",
                "--companion-ms",
                "0",
            ])
            .args(["--hold-seconds", "60"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("scripts/casino-cluster runs");
    let stdout = script.stdout.take().expect("its output");
    let cluster = Cluster { script, run };
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let up = rx
        .recv_timeout(Duration::from_secs(90))
        .expect("the cluster says it is up");
    assert!(up.contains("the casino on"), "{up}");
    assert!(
        !up.contains(":holecard@"),
        "the ledger's password is not shown: {up}"
    );
    let addr: SocketAddr = format!("127.0.0.1:{}", ports[0])
        .parse()
        .expect("an address");

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
    // The table writes the round down as dealt right after dealing it (a kill before that leaves nothing to refund,
    // rightly: no chip moves until a round settles); the kill comes once it has.
    std::thread::sleep(Duration::from_millis(300));

    // A is killed with SIGKILL mid-round; B plays on meanwhile.
    let pid_a = cluster.pid("a").expect("A's pid");
    let killed = Command::new("kill")
        .args(["-KILL", &pid_a.to_string()])
        .status();
    assert!(killed.is_ok_and(|s| s.success()));
    play_a_round(&mut ann_b);
    // The script starts A again: it refunds the round and holds Bob's seat for him.
    let until = Instant::now() + Duration::from_secs(60);
    while cluster.log("a").matches("tables on http").count() < 2 {
        assert!(
            Instant::now() < until,
            "A did not come back: {}",
            cluster.log("a")
        );
        std::thread::sleep(Duration::from_millis(100));
    }
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
