//! The simulator: one seat playing basic strategy with a flat bet, through the real round engine, on many threads.

use super::command::{Command, CommandError, Phase};
use super::event::{Ignore, Outcome};
use super::money::Cents;
use super::rng::{Seed, seed_from_number};
use super::rules::{RuleError, Rules};
use super::strategy::BasicStrategy;
use super::table::Table;
use serde::Serialize;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;
use thiserror::Error;

/// What to simulate.
#[derive(Clone, Debug)]
pub struct SimConfig {
    /// The table's rules.
    pub rules: Rules,
    /// Rounds to play in all.
    pub rounds: u64,
    /// Seed; with the thread count it fixes every result.
    pub seed: u64,
    /// Worker threads (at least 1).
    pub threads: u32,
}

/// Counts from the simulated rounds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// Rounds played.
    pub rounds: u64,
    /// Hands played, splits included.
    pub hands: u64,
    /// Sum of each round's net result, in cents.
    pub net_cents: i128,
    /// Sum of the squares of each round's net result, in cents².
    pub net_squared: i128,
    /// Hands won (blackjacks not included).
    pub wins: u64,
    /// Hands lost to the dealer (busts not included).
    pub losses: u64,
    /// Hands pushed.
    pub pushes: u64,
    /// Player blackjacks paid.
    pub blackjacks: u64,
    /// Player hands that busted.
    pub busts: u64,
    /// Hands doubled.
    pub doubles: u64,
    /// Splits made.
    pub splits: u64,
    /// Hands surrendered.
    pub surrenders: u64,
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.rounds += other.rounds;
        self.hands += other.hands;
        self.net_cents += other.net_cents;
        self.net_squared += other.net_squared;
        self.wins += other.wins;
        self.losses += other.losses;
        self.pushes += other.pushes;
        self.blackjacks += other.blackjacks;
        self.busts += other.busts;
        self.doubles += other.doubles;
        self.splits += other.splits;
        self.surrenders += other.surrenders;
    }
}

/// A finished simulation.
#[derive(Clone, Debug, Serialize)]
pub struct SimReport {
    /// Rounds played.
    pub rounds: u64,
    /// Hands played.
    pub hands: u64,
    /// Expected loss per initial bet, percent (positive = house advantage).
    pub house_edge_pct: f64,
    /// Standard error of `house_edge_pct`, percentage points.
    pub std_error_pct: f64,
    /// Standard deviation of one round's result, in initial bets.
    pub std_dev_per_round: f64,
    /// Rounds per second of wall time.
    pub rounds_per_sec: f64,
    /// Wall time, seconds.
    pub seconds: f64,
    /// Threads used.
    pub threads: u32,
    /// The seed.
    pub seed: u64,
    /// The rules in shorthand.
    pub rules_summary: String,
    /// The rules in full.
    pub rules: Rules,
    /// The raw counts.
    pub tally: Tally,
}

/// A simulation that could not run.
#[derive(Debug, Error)]
pub enum SimError {
    #[error("invalid rules: {0}")]
    Rules(#[from] RuleError),
    #[error("the engine refused a basic-strategy command {command:?}: {error}")]
    Refused {
        command: Command,
        error: CommandError,
    },
    #[error("the round is waiting in {0} but basic strategy has nothing to do")]
    Stuck(Phase),
}

/// The flat bet: one unit of the table's currency, within the table's limits.
fn flat_bet(rules: &Rules) -> Cents {
    rules.min_bet
}

/// The seed of worker `thread`: the run's seed with the thread number folded into the key.
fn thread_seed(seed: u64, thread: u32) -> Seed {
    let mut key = seed_from_number(seed);
    for (byte, extra) in key[24..].iter_mut().zip(u64::from(thread).to_le_bytes()) {
        *byte ^= extra;
    }
    key
}

/// Plays `rounds` rounds on one fresh table; `progress` counts rounds done, in batches.
pub fn simulate_rounds(
    rules: &Rules,
    seed: Seed,
    rounds: u64,
    progress: &AtomicU64,
) -> Result<Tally, SimError> {
    let strategy = BasicStrategy::for_rules(rules);
    let bank = Cents(i64::MAX / 16);
    let mut table = Table::new(rules.clone(), seed, bank)?;
    let run = |table: &mut Table, command: Command| {
        table
            .apply_to(command, &mut Ignore)
            .map_err(|error| SimError::Refused { command, error })
    };
    run(
        &mut table,
        Command::Join {
            seat: 0,
            buy_in: bank,
        },
    )?;
    let bet = flat_bet(rules);
    let mut tally = Tally::default();
    const BATCH: u64 = 1 << 16;
    for round in 0..rounds {
        let before = table.seats()[0].bankroll;
        run(
            &mut table,
            Command::Bet {
                seat: 0,
                amount: bet,
            },
        )?;
        run(&mut table, Command::Deal)?;
        while table.phase() != Phase::Betting {
            let command = strategy
                .decide(&table, 0)
                .ok_or(SimError::Stuck(table.phase()))?;
            run(&mut table, command)?;
        }
        let net = i128::from((table.seats()[0].bankroll - before).0);
        tally.rounds += 1;
        tally.net_cents += net;
        tally.net_squared += net * net;
        tally.splits += table.hands().len() as u64 - 1;
        for hand in table.hands() {
            tally.hands += 1;
            tally.doubles += u64::from(hand.doubled);
            match hand.outcome() {
                Some(Outcome::Win) => tally.wins += 1,
                Some(Outcome::Lose) => tally.losses += 1,
                Some(Outcome::Push) => tally.pushes += 1,
                Some(Outcome::Blackjack) => tally.blackjacks += 1,
                Some(Outcome::Bust) => tally.busts += 1,
                Some(Outcome::Surrender) => tally.surrenders += 1,
                Some(Outcome::EvenMoney) | None => {}
            }
        }
        if round % BATCH == BATCH - 1 {
            progress.fetch_add(BATCH, Ordering::Relaxed);
        }
    }
    progress.fetch_add(rounds % BATCH, Ordering::Relaxed);
    Ok(tally)
}

/// Runs a simulation on `config.threads` threads. `on_progress` is called from the calling thread with the rounds
/// done so far, a few times a second.
pub fn simulate(
    config: &SimConfig,
    mut on_progress: impl FnMut(u64),
) -> Result<SimReport, SimError> {
    config.rules.validate()?;
    let threads = config.threads.max(1);
    let progress = AtomicU64::new(0);
    let started = Instant::now();
    let per_thread = config.rounds / u64::from(threads);
    let extra = config.rounds % u64::from(threads);
    let results: Vec<Result<Tally, SimError>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|thread| {
                let rounds = per_thread + u64::from(u64::from(thread) < extra);
                let (rules, progress) = (&config.rules, &progress);
                scope.spawn(move || {
                    simulate_rounds(rules, thread_seed(config.seed, thread), rounds, progress)
                })
            })
            .collect();
        while workers.iter().any(|w| !w.is_finished()) {
            on_progress(progress.load(Ordering::Relaxed));
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        workers
            .into_iter()
            .map(|w| {
                w.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    });
    let seconds = started.elapsed().as_secs_f64();
    on_progress(config.rounds);
    let mut tally = Tally::default();
    for result in results {
        tally.add(&result?);
    }
    Ok(report(config, threads, tally, seconds))
}

fn report(config: &SimConfig, threads: u32, tally: Tally, seconds: f64) -> SimReport {
    let bet = flat_bet(&config.rules).0 as f64;
    let n = tally.rounds.max(1) as f64;
    let mean = tally.net_cents as f64 / n / bet;
    let mean_square = tally.net_squared as f64 / n / (bet * bet);
    let variance = (mean_square - mean * mean).max(0.0) * n / (n - 1.0).max(1.0);
    let std_dev = variance.sqrt();
    SimReport {
        rounds: tally.rounds,
        hands: tally.hands,
        house_edge_pct: -mean * 100.0,
        std_error_pct: std_dev / n.sqrt() * 100.0,
        std_dev_per_round: std_dev,
        rounds_per_sec: tally.rounds as f64 / seconds.max(1e-9),
        seconds,
        threads,
        seed: config.seed,
        rules_summary: config.rules.to_string(),
        rules: config.rules.clone(),
        tally,
    }
}
