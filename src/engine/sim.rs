//! The simulator: one seat playing basic strategy with a flat bet, on many threads.
//!
//! Rounds are played by [`Solo`], the engine's single-seat fast path, which is checked round by round against the
//! table's state machine (`tests/solo_matches_table.rs`).

use super::event::Outcome;
use super::money::Cents;
use super::rng::{Seed, seed_from_number};
use super::rules::{RuleError, Rules};
use super::solo::Solo;
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
    /// Every round from a freshly shuffled shoe instead of to the cut card: the full shoe's value, as the exact
    /// engine works it out (src/engine/exact).
    pub fresh_shoe: bool,
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
}

/// The flat bet: the table minimum, which is what [`Solo`] bets every round.
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

/// Plays `rounds` rounds on one fresh single-seat table; `progress` counts rounds done, in batches.
pub fn simulate_rounds(
    rules: &Rules,
    seed: Seed,
    rounds: u64,
    fresh_shoe: bool,
    progress: &AtomicU64,
) -> Result<Tally, SimError> {
    let mut table = Solo::new(rules.clone(), seed)?;
    if fresh_shoe {
        table = table.with_fresh_shoe_each_round();
    }
    let mut tally = Tally::default();
    // Counted by outcome, indexed by the enum's discriminant: cheaper than a branch per hand.
    let mut outcomes = [0u64; Outcome::ALL.len()];
    const BATCH: u64 = 1 << 16;
    for round in 0..rounds {
        let net = i128::from(table.play_round().0);
        tally.rounds += 1;
        tally.net_cents += net;
        tally.net_squared += net * net;
        tally.splits += table.hands().len() as u64 - 1;
        for hand in table.hands() {
            tally.doubles += u64::from(hand.doubled);
            if let Some(outcome) = hand.outcome() {
                outcomes[outcome as usize] += 1;
            }
        }
        if round % BATCH == BATCH - 1 {
            progress.fetch_add(BATCH, Ordering::Relaxed);
        }
    }
    progress.fetch_add(rounds % BATCH, Ordering::Relaxed);
    let count = |outcome: Outcome| outcomes[outcome as usize];
    tally.hands = outcomes.iter().sum();
    tally.wins = count(Outcome::Win);
    tally.losses = count(Outcome::Lose);
    tally.pushes = count(Outcome::Push);
    tally.blackjacks = count(Outcome::Blackjack);
    tally.busts = count(Outcome::Bust);
    tally.surrenders = count(Outcome::Surrender);
    Ok(tally)
}

/// Tells the reporting thread a worker has stopped, however it stops (a panic included), when dropped.
struct Finished(std::sync::mpsc::Sender<()>);

impl Drop for Finished {
    fn drop(&mut self) {
        // The receiver lives until every worker is joined, so this cannot fail while anyone listens.
        let _ = self.0.send(());
    }
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
    let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
    let results: Vec<Result<Tally, SimError>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|thread| {
                let rounds = per_thread + u64::from(u64::from(thread) < extra);
                let (rules, progress) = (&config.rules, &progress);
                let done = Finished(done_tx.clone());
                scope.spawn(move || {
                    let _done = done;
                    simulate_rounds(
                        rules,
                        thread_seed(config.seed, thread),
                        rounds,
                        config.fresh_shoe,
                        progress,
                    )
                })
            })
            .collect();
        // Report progress until every worker has said it is done, waking at once when the last one finishes.
        let mut finished = 0;
        while finished < threads {
            match done_rx.recv_timeout(std::time::Duration::from_millis(100)) {
                Ok(()) => finished += 1,
                Err(_) => on_progress(progress.load(Ordering::Relaxed)),
            }
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
