//! `holecard-server`: the casino server. `holecard-server` serves every table in `levels/` on 127.0.0.1:8080.

use clap::Parser;
use holecard::server::{self, Config, table::Pace};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Parser)]
#[command(
    name = "holecard-server",
    version,
    about = "The Holecard casino server"
)]
struct Cli {
    /// Where to listen. Put a TLS-terminating proxy in front of it to serve beyond this machine.
    #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// The folder of table levels (default: `levels`, else the tables built in).
    #[arg(long, value_name = "DIR", default_value = "levels")]
    levels: PathBuf,
    /// Seed for the tables' shoes and companions (default: fresh from the operating system).
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// Seconds the table waits for bets.
    #[arg(long, value_name = "S", default_value_t = 20)]
    bet_seconds: u64,
    /// Seconds a person has to act before the table stands for them.
    #[arg(long, value_name = "S", default_value_t = 30)]
    turn_seconds: u64,
    /// The browser build to serve at `/` (made by `scripts/build-web`).
    #[arg(long, value_name = "DIR", default_value = "web/dist")]
    web: PathBuf,
    /// Connections one address may hold at once (raise it for a load test from one machine).
    #[arg(long, value_name = "N", default_value_t = 32)]
    per_address: usize,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let tables = match server::tables_in(&cli.levels) {
        Ok(tables) => tables,
        Err(e) => {
            eprintln!("holecard-server: {e}");
            return ExitCode::from(2);
        }
    };
    let seed = match cli.seed.map_or_else(holecard::engine::os_seed_number, Ok) {
        Ok(seed) => seed,
        Err(e) => {
            eprintln!("holecard-server: {e}; pass --seed N");
            return ExitCode::from(2);
        }
    };
    let config = Config {
        tables,
        seed,
        pace: Pace {
            bet: Duration::from_secs(cli.bet_seconds),
            turn: Duration::from_secs(cli.turn_seconds),
            ..Pace::default()
        },
        per_address: cli.per_address,
        web: Some(cli.web.clone()),
    };
    let page = if cli.web.join("index.html").is_file() {
        format!("the game at http://{}/", cli.listen)
    } else {
        format!(
            "no browser build in {} (scripts/build-web makes it)",
            cli.web.display()
        )
    };
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("holecard-server: {e}");
            return ExitCode::FAILURE;
        }
    };
    let served = runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(cli.listen)
            .await
            .map_err(|e| format!("listening on {}: {e}", cli.listen))?;
        println!(
            "holecard-server: {} tables on http://{} (lobby /api/tables, play /ws); {page}",
            config.tables.len(),
            cli.listen
        );
        let stop = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        server::serve(listener, config, stop).await
    });
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("holecard-server: {e}");
            ExitCode::FAILURE
        }
    }
}
