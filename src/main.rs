//! `holecard`: the casino table. Opens the game in a window; `--headless --rounds N` plays the whole ECS game with AI
//! in every seat and no window, and prints one JSON line; `--headless --autoplay --rounds N` plays N rounds of the
//! player's own sitting (resuming the saved one) with the AI in the player's seat, and keeps it and its hands.

use clap::{Parser, ValueEnum};
use holecard::game::model::table::Speed;
use holecard::game::platform::{headless, window};
use holecard::game::{AppPlugin, Display};
use holecard::host::level::Level;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "holecard", version, about = "A casino blackjack table")]
struct Cli {
    /// The table to open (default: the Las Vegas Strip table).
    #[arg(long, value_name = "FILE")]
    level: Option<PathBuf>,
    /// Seed for the shoe and the companions (default: fresh from the operating system).
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// An AI plays the player's seat too. With --headless: only the player's seat, kept like a person's (the saved
    /// sitting resumed and saved again, every hand in the history).
    #[arg(long)]
    autoplay: bool,
    /// With --headless --autoplay: say each journal entry on stdout as it is written and synced, and where the run
    /// resumed (for the kill test).
    #[arg(long, requires = "autoplay")]
    trace_journal: bool,
    /// How fast cards and chips move (default: as last set in Settings, else normal).
    #[arg(long, value_enum)]
    speed: Option<Pace>,
    /// Run N frames after loading (the clock stepping 16 ms a frame), save the window to this PNG, and exit.
    #[arg(long, value_name = "PATH", requires = "frames")]
    screenshot: Option<PathBuf>,
    /// Frames to run before the screenshot.
    #[arg(long, value_name = "N")]
    frames: Option<u32>,
    /// The screen to open on after loading (default: the table with --autoplay or --screenshot, else the title).
    #[arg(long, value_enum)]
    start: Option<window::Start>,
    /// Open with the advisor on (each legal play's exact value beside the buttons), whatever Settings last said.
    #[arg(long)]
    advisor: bool,
    /// Open with the coach on (a play off the chart is stopped once and priced), whatever Settings last said.
    #[arg(long)]
    coach: bool,
    /// Log what the pages laid out each time it changes (target `holecard::layout`, one JSON line: the layout check's
    /// faults and every widget with its rectangle).
    #[arg(long)]
    layout: bool,
    /// With --screenshot: bet this many dollars each round and deal, the decisions waiting for a person, so that the
    /// picture can show one.
    #[arg(long, value_name = "DOLLARS", requires = "screenshot", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    bet: Option<u32>,
    /// With --bet: also put this many dollars on each side bet the table offers, each round.
    #[arg(long, value_name = "DOLLARS", requires = "bet", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    side_bet: Option<u32>,
    /// Window size, WIDTHxHEIGHT in logical pixels.
    #[arg(long, value_name = "WxH", default_value = "1280x720", value_parser = parse_size)]
    size: (u32, u32),
    /// Run without a window or GPU, AI in every seat, and print a JSON report.
    #[arg(long, requires = "rounds")]
    headless: bool,
    /// Rounds to play in a headless run.
    #[arg(long, value_name = "N")]
    rounds: Option<u64>,
    /// In a headless run, also run the table's look at normal speed: every glide, flip, chip flight and banner.
    #[arg(long, requires = "headless")]
    animated: bool,
    /// Play online at this casino (`ws://HOST:PORT`, or `wss://HOST` behind TLS): the Title opens on its login page.
    /// Without it, Play online goes to ws://127.0.0.1:8080. In the browser, the page's own server is the casino.
    #[cfg(not(target_arch = "wasm32"))]
    #[arg(long, value_name = "URL")]
    server: Option<String>,
    /// Watch again a round the casino kept (the one --server names; in the browser, the page's own): TABLE/ROUND, as
    /// in its link `/hand/TABLE/ROUND`.
    #[arg(long, value_name = "TABLE/ROUND", value_parser = parse_hand)]
    hand: Option<(String, u64)>,
    /// Write the hands kept in the history to FILE (`.csv`: a header row and a row a hand; `.json`: every hand
    /// with its cards and decisions, and the totals) and exit.
    #[cfg(not(target_arch = "wasm32"))]
    #[arg(long, value_name = "FILE")]
    export_history: Option<PathBuf>,
}

#[derive(Clone, Copy, ValueEnum)]
enum Pace {
    Normal,
    Fast,
    Instant,
}

fn parse_hand(text: &str) -> Result<(String, u64), String> {
    let (table, round) = text
        .rsplit_once('/')
        .ok_or_else(|| format!("`{text}` is not TABLE/ROUND, e.g. las-vegas-strip/12"))?;
    let round = round
        .parse::<u64>()
        .map_err(|_| format!("`{round}` in `{text}` is not a round's number"))?;
    if table.is_empty() {
        return Err(format!("`{text}` names no table: TABLE/ROUND"));
    }
    Ok((table.to_string(), round))
}

fn parse_size(text: &str) -> Result<(u32, u32), String> {
    let (w, h) = text
        .split_once('x')
        .ok_or_else(|| format!("`{text}` is not WIDTHxHEIGHT, e.g. 1280x720"))?;
    let number = |s: &str| {
        s.parse::<u32>()
            .ok()
            .filter(|n| (320..=7680).contains(n))
            .ok_or_else(|| format!("`{s}` in `{text}` is not a size from 320 to 7680"))
    };
    Ok((number(w)?, number(h)?))
}

/// The command line; in the browser, the page address's query string (`?seed=7&speed=fast`).
fn command_line() -> Cli {
    #[cfg(target_arch = "wasm32")]
    {
        Cli::try_parse_from(holecard::game::platform::web::arguments()).unwrap_or_else(|e| {
            holecard::game::platform::web::warn(&format!(
                "the page address: {e}; opening with the defaults"
            ));
            Cli::parse_from(["holecard"])
        })
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        Cli::parse()
    }
}

/// Says why the game cannot go on where the player will see it: the terminal, or the page.
fn complain(message: &str) {
    #[cfg(target_arch = "wasm32")]
    holecard::game::platform::web::fail(message);
    #[cfg(not(target_arch = "wasm32"))]
    eprintln!("holecard: {message}");
}

fn main() -> ExitCode {
    let cli = command_line();
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(to) = &cli.export_history {
        return match holecard::game::keep::history::export(to) {
            Ok(hands) => {
                println!("holecard: wrote {hands} hands to {}", to.display());
                ExitCode::SUCCESS
            }
            Err(e) => {
                complain(&e);
                ExitCode::FAILURE
            }
        };
    }
    let level = match Level::load_or_default(cli.level.as_deref()) {
        Ok(level) => level,
        Err(e) => {
            complain(&e.to_string());
            return ExitCode::from(2);
        }
    };
    let seed = match cli.seed {
        Some(seed) => seed,
        None => match holecard::engine::os_seed_number() {
            Ok(number) => number,
            Err(e) => {
                complain(&format!("{e}; pass --seed N"));
                return ExitCode::from(2);
            }
        },
    };
    #[cfg(not(target_arch = "wasm32"))]
    if cli.headless && cli.autoplay {
        return match headless::sitting_run(level, seed, cli.rounds.unwrap_or(0), cli.trace_journal)
        {
            Ok(report) => match serde_json::to_string(&report) {
                Ok(json) => {
                    println!("{json}");
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    complain(&e.to_string());
                    ExitCode::FAILURE
                }
            },
            Err(e) => {
                complain(&e);
                ExitCode::FAILURE
            }
        };
    }
    if cli.headless {
        return headless_run(level, seed, cli.rounds.unwrap_or(0), cli.animated);
    }
    let speed = cli.speed.map(|pace| match pace {
        Pace::Normal => Speed::Normal,
        Pace::Fast => Speed::Fast,
        Pace::Instant => Speed::Instant,
    });
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(given) = &cli.server
        && let Err(problem) = holecard::game::online::link::Address::parse(given)
    {
        complain(&format!("--server: {problem}"));
        return ExitCode::from(2);
    }
    let display = Display::Window(window::WindowOptions {
        screenshot: cli.screenshot,
        frames: cli.frames.unwrap_or(0),
        start: cli.start,
        size: cli.size,
        #[cfg(not(target_arch = "wasm32"))]
        server: cli.server,
        #[cfg(target_arch = "wasm32")]
        server: None,
        advisor: cli.advisor,
        coach: cli.coach,
        layout: cli.layout,
        hand: cli.hand,
        bet: cli
            .bet
            .map(|dollars| holecard::engine::Cents::units(i64::from(dollars))),
        side_bet: cli
            .side_bet
            .map(|dollars| holecard::engine::Cents::units(i64::from(dollars))),
    });
    let game = match AppPlugin::new(level, seed, cli.autoplay, display) {
        Ok(game) => game,
        Err(e) => {
            complain(&e.to_string());
            return ExitCode::from(2);
        }
    };
    let game = match speed {
        Some(speed) => game.at(speed),
        None => game,
    };
    if bevy::app::App::new().add_plugins(game).run().is_success() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn headless_run(level: Level, seed: u64, rounds: u64, animated: bool) -> ExitCode {
    match headless::run(level, seed, rounds, animated) {
        Ok(report) => match serde_json::to_string(&report) {
            Ok(json) => {
                println!("{json}");
                if report.passed() {
                    ExitCode::SUCCESS
                } else {
                    eprintln!("holecard: the headless run failed its checks (see the JSON line)");
                    ExitCode::FAILURE
                }
            }
            Err(e) => {
                eprintln!("holecard: {e}");
                ExitCode::FAILURE
            }
        },
        Err(e) => {
            eprintln!("holecard: {e}");
            ExitCode::from(2)
        }
    }
}
