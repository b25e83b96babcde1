//! The casino as two processes behind nginx on one PostgreSQL ledger, started by `scripts/casino-cluster`, for the
//! tests that play it through nginx as players would.

use super::{Db, TABLES_OF_LEVELS};
use std::io::{BufRead, BufReader};
use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The cluster's script as a process: stopped with SIGTERM (then everything it started stops) when dropped.
pub struct Cluster {
    script: Child,
    run: PathBuf,
    /// nginx: the one address players use.
    pub addr: SocketAddr,
    /// What the script said when the casino was up.
    pub up: String,
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
    /// The cluster on `db` (PostgreSQL), its servers given the tests' tables and `more`: up, its lobby listing
    /// both processes' tables. None (saying so) where nginx is not installed, which CI does not allow.
    pub fn start(db: &Db, name: &str, more: &[&str]) -> Option<Cluster> {
        if !nginx_here() {
            return None;
        }
        let ports = free_ports(3);
        let run = std::env::temp_dir().join(format!("holecard-{name}-{}", std::process::id()));
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
                .args(more)
                .current_dir(env!("CARGO_MANIFEST_DIR"))
                .stdout(Stdio::piped())
                .stderr(Stdio::inherit())
                .spawn()
                .expect("scripts/casino-cluster runs");
        let stdout = script.stdout.take().expect("its output");
        let addr = format!("127.0.0.1:{}", ports[0])
            .parse()
            .expect("an address");
        let mut cluster = Cluster {
            script,
            run,
            addr,
            up: String::new(),
        };
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        cluster.up = rx
            .recv_timeout(Duration::from_secs(90))
            .expect("the cluster says it is up");
        assert!(cluster.up.contains("the casino on"), "{}", cluster.up);
        cluster.wait_for_both_lobbies([ports[1], ports[2]]);
        Some(cluster)
    }

    /// Waits (at most 30 s) until each server's lobby lists every table of both. A server lists its own tables at
    /// once and the other's as the ledger has them, and each of its tables writes its line there on its own as it
    /// opens: the script's first answer through nginx naming both servers can list only some of them (after a busy
    /// test before this one, once, one table short). Both lists agree once both servers' lines are all written.
    fn wait_for_both_lobbies(&self, ports: [u16; 2]) {
        let until = Instant::now() + Duration::from_secs(30);
        loop {
            let lists = ports.map(|port| {
                let addr = SocketAddr::from(([127, 0, 0, 1], port));
                tables_by_route(&super::http(addr, "GET", "/api/tables", None, None))
            });
            if let [Some(a), Some(b)] = &lists
                && a == b
                && a.len() == 2
            {
                return;
            }
            assert!(
                Instant::now() < until,
                "the two servers' lobbies did not list the same tables in 30 s: {lists:?}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// A process's pid, from the run folder.
    pub fn pid(&self, name: &str) -> Option<u32> {
        std::fs::read_to_string(self.run.join(format!("{name}.pid")))
            .ok()
            .and_then(|p| p.trim().parse().ok())
    }

    /// A process's log (every run of it).
    pub fn log(&self, name: &str) -> String {
        std::fs::read_to_string(self.run.join(format!("{name}.log"))).unwrap_or_default()
    }

    /// SIGKILL to the process `name` (the script starts it again): whether it was sent.
    pub fn kill(&self, name: &str) -> bool {
        self.pid(name).is_some_and(|pid| {
            Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .status()
                .is_ok_and(|s| s.success())
        })
    }

    /// Waits (at most 60 s) until the process `name` has started `times` times in all, its tables open.
    pub fn wait_started(&self, name: &str, times: usize) {
        let until = Instant::now() + Duration::from_secs(60);
        while self.log(name).matches("tables on http").count() < times {
            assert!(
                Instant::now() < until,
                "{name} did not come back: {}",
                self.log(name)
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

/// How many tables a lobby's answer lists at each server's route (`ws`), if it is a 200 with a list of tables.
fn tables_by_route(
    (status, body): &(u16, String),
) -> Option<std::collections::BTreeMap<String, usize>> {
    if *status != 200 {
        return None;
    }
    let tables: Vec<serde_json::Value> = serde_json::from_str(body).ok()?;
    let mut routes = std::collections::BTreeMap::new();
    for table in &tables {
        let route = table.get("ws")?.as_str()?.to_string();
        *routes.entry(route).or_insert(0) += 1;
    }
    Some(routes)
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
