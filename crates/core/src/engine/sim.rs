//! The simulator: one seat playing basic strategy with a flat bet, or counting cards, on many threads.
//!
//! Rounds are played by [`Solo`], the engine's single-seat fast path, which is checked round by round against the
//! table's state machine (`tests/solo_matches_table.rs`).

use super::counter::{Counter, Plan};
use super::event::Outcome;
use super::money::Cents;
use super::rng::{Seed, seed_from_number};
use super::rules::{RuleError, Rules};
use super::solo::{Bettor, Solo};
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
    /// engine works it out (crates/core/src/engine/exact).
    pub fresh_shoe: bool,
    /// A card counter in the seat instead of a flat bettor.
    pub counter: Option<CounterConfig>,
}

/// A counter to simulate: the plan, and the bankroll its risk of ruin is worked out for.
#[derive(Clone, Debug)]
pub struct CounterConfig {
    /// Count, ramp and index plays.
    pub plan: Plan,
    /// The bankroll, in units (table minimums).
    pub bankroll_units: u32,
}

/// A counter's numbers, in units of the table minimum.
#[derive(Clone, Debug, Serialize)]
pub struct CounterReport {
    /// The count.
    pub system: String,
    /// The ramp, as text.
    pub ramp: String,
    /// Index plays made.
    pub index_plays: usize,
    /// The player's edge: net result over the initial bets, percent (positive: the player's).
    pub edge_pct: f64,
    /// The average initial bet, in units.
    pub average_bet_units: f64,
    /// Units won per 100 rounds.
    pub win_per_100: f64,
    /// Standard error of `win_per_100`.
    pub win_per_100_error: f64,
    /// Standard deviation of 100 rounds, in units.
    pub std_dev_per_100: f64,
    /// N0: the rounds after which the expected win equals one standard deviation, (SD / EV)² per round.
    pub n0_rounds: f64,
    /// SCORE: units won per 100 rounds scaled to a bankroll of 10,000 units at optimal betting, 10⁶ (EV / SD)².
    pub score: f64,
    /// The bankroll the risk of ruin is for, in units.
    pub bankroll_units: u32,
    /// Risk of ruin with that bankroll playing for ever: exp(−2 · EV · bankroll / variance), per round.
    pub risk_of_ruin: f64,
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
    /// Sum of the rounds' initial bets, in cents.
    pub initial_cents: i128,
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
        self.initial_cents += other.initial_cents;
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
    /// A counter's numbers, when the seat counted.
    pub counter: Option<CounterReport>,
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
    counter: Option<&Plan>,
    progress: &AtomicU64,
) -> Result<Tally, SimError> {
    let mut table = Solo::new(rules.clone(), seed)?;
    if fresh_shoe {
        table = table.with_fresh_shoe_each_round();
    }
    Ok(match counter {
        Some(plan) => play_rounds(
            table.with_counter(Counter::new(plan.clone(), rules.decks)),
            rounds,
            progress,
        ),
        None => play_rounds(table, rounds, progress),
    })
}

/// Plays `rounds` rounds at `table` and counts what happened.
fn play_rounds<B: Bettor>(mut table: Solo<B>, rounds: u64, progress: &AtomicU64) -> Tally {
    let mut tally = Tally::default();
    // Counted by outcome, indexed by the enum's discriminant: cheaper than a branch per hand.
    let mut outcomes = [0u64; Outcome::ALL.len()];
    const BATCH: u64 = 1 << 16;
    for round in 0..rounds {
        let net = i128::from(table.play_round().0);
        tally.rounds += 1;
        tally.net_cents += net;
        tally.net_squared += net * net;
        tally.initial_cents += i128::from(table.initial_bet().0);
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
    tally
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
                        config.counter.as_ref().map(|c| &c.plan),
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
        counter: config
            .counter
            .as_ref()
            .map(|c| counter_report(c, &tally, mean, variance, n, bet)),
    }
}

/// A counter's numbers from the tally: per-round mean and variance in units of `bet`, over `n` rounds.
fn counter_report(
    config: &CounterConfig,
    tally: &Tally,
    mean: f64,
    variance: f64,
    n: f64,
    bet: f64,
) -> CounterReport {
    let plan = &config.plan;
    let bankroll = f64::from(config.bankroll_units);
    let risk_of_ruin = if mean <= 0.0 {
        1.0
    } else {
        (-2.0 * mean * bankroll / variance.max(f64::MIN_POSITIVE)).exp()
    };
    CounterReport {
        system: plan.system.name.clone(),
        ramp: plan.ramp.to_string(),
        index_plays: plan.deviations.len(),
        edge_pct: 100.0 * tally.net_cents as f64 / (tally.initial_cents as f64).max(1.0),
        average_bet_units: tally.initial_cents as f64 / n / bet,
        win_per_100: 100.0 * mean,
        win_per_100_error: 100.0 * (variance / n).sqrt(),
        std_dev_per_100: 10.0 * variance.sqrt(),
        n0_rounds: variance / (mean * mean).max(f64::MIN_POSITIVE),
        score: 1e6 * mean * mean / variance.max(f64::MIN_POSITIVE) * mean.signum(),
        bankroll_units: config.bankroll_units,
        risk_of_ruin,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::count::hi_lo;
    use crate::engine::counter::{Deviations, Ramp};
    use crate::engine::exact::indices::{PLAYS, indices_on};
    use crate::engine::rules::Surrender;

    fn config(rounds: u64, counter: Option<CounterConfig>) -> SimConfig {
        SimConfig {
            rules: Rules {
                surrender: Surrender::Late,
                ..Rules::default()
            },
            rounds,
            seed: 7,
            threads: 2,
            fresh_shoe: false,
            counter,
        }
    }

    #[test]
    fn a_counter_who_never_raises_and_never_deviates_plays_the_flat_bettors_game() {
        let flat = simulate(&config(200_000, None), |_| {}).expect("valid rules");
        let plan = Plan {
            system: hi_lo(),
            ramp: Ramp::new(Vec::new()),
            deviations: Deviations::default(),
        };
        let counting = CounterConfig {
            plan,
            bankroll_units: 100,
        };
        let idle = simulate(&config(200_000, Some(counting)), |_| {}).expect("valid rules");
        assert_eq!(idle.tally, flat.tally, "same cards, same plays, same bets");
        let numbers = idle.counter.expect("a counter's numbers");
        assert!((numbers.edge_pct + flat.house_edge_pct).abs() < 1e-9);
        assert!((numbers.average_bet_units - 1.0).abs() < 1e-12);
    }

    #[test]
    fn hi_lo_with_a_one_to_eight_ramp_and_its_indices_beats_the_house() {
        let rules = config(1, None).rules;
        let indices = indices_on(&rules, hi_lo(), &PLAYS, 2).expect("Hi-Lo is balanced");
        let plan = Plan {
            system: hi_lo(),
            ramp: Ramp::one_to_eight(),
            deviations: Deviations::of(&indices),
        };
        let counting = CounterConfig {
            plan,
            bankroll_units: 1000,
        };
        let report = simulate(&config(4_000_000, Some(counting)), |_| {}).expect("valid rules");
        let numbers = report.counter.expect("a counter's numbers");
        // About +0.65% (docs/engineering.md, "Counting"); one standard error here is about 0.08 points.
        assert!(numbers.edge_pct > 0.3, "{numbers:?}");
        assert!(numbers.average_bet_units > 1.2 && numbers.average_bet_units < 2.0);
        let per_round_sd = numbers.std_dev_per_100 / 10.0;
        let ev = numbers.win_per_100 / 100.0;
        assert!((numbers.n0_rounds - (per_round_sd / ev).powi(2)).abs() / numbers.n0_rounds < 1e-9);
        assert!(numbers.risk_of_ruin > 0.0 && numbers.risk_of_ruin < 0.5);
    }
}
