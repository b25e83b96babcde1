//! `holecard-lab`: the engine's command-line tools. `simulate` plays basic strategy for many rounds and reports the
//! house edge; `play` is the terminal table; `load` (built with the `server` feature) puts bot clients on a server.

mod terminal;

use clap::{Args, Parser, Subcommand, ValueEnum};
use holecard::engine::counter::{Deviations, Plan, Ramp};
use holecard::engine::exact;
use holecard::engine::money::group_thousands;
use holecard::engine::sim::{CounterConfig, SimConfig, SimReport, simulate};
use holecard::engine::{DoubleOn, EnhcLoss, HoleCard, Payout, Rules, Soft17, Surrender};
use holecard::host::level::Level;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "holecard-lab",
    version,
    about = "Holecard's blackjack engine tools"
)]
struct Cli {
    #[command(subcommand)]
    command: Tool,
}

#[derive(Subcommand)]
enum Tool {
    /// Play one seat of basic strategy with a flat bet for many rounds and report the house edge.
    Simulate(SimulateArgs),
    /// Sit at a table in the terminal; Enter takes the default answer (the basic-strategy play).
    Play(PlayArgs),
    /// Every play's exact value for a hand against an up card, on the shoe less the cards seen.
    Ev(EvArgs),
    /// The exact value of a round on a full (or depleted) shoe: the table's house edge, by up card too.
    Edge(EdgeArgs),
    /// The strategy chart for a rule set, by two-card hand: basic strategy's, or with --exact the
    /// composition-dependent one on the full (or depleted) shoe, cells where it differs from basic strategy marked.
    Chart(ChartArgs),
    /// A side bet's exact value on a full (or depleted) shoe: the chance of each paying hand and the house edge.
    Sidebet(SidebetArgs),
    /// Times the live question (every play of one hand, splits included) for every two-card hand against every up
    /// card on a shoe: the worst, the median and the total.
    LiveTimes(LiveTimesArgs),
    /// Put bot clients on a running server: accounts made on the fly, basic strategy, one JSON report.
    #[cfg(feature = "server")]
    Load(LoadArgs),
    /// Check a casino's shoes: watch a table and check each shoe, card for card, against the seed revealed when it
    /// is done (--server, built with the `server` feature); or deal a shoe again from a revealed seed (--seed).
    Verify(VerifyArgs),
}

#[derive(Args)]
struct VerifyArgs {
    /// The casino's WebSocket, `ws://HOST:PORT/ws`: watch a table and check its shoes as they are revealed.
    #[arg(long, value_name = "URL", conflicts_with = "seed")]
    server: Option<String>,
    /// With --server: the table's id (the lobby's `id`).
    #[arg(long, value_name = "ID")]
    table: Option<String>,
    /// With --server: the shoes to check (a shoe already under way is checked from the cards dealt after the watch
    /// began).
    #[arg(long, value_name = "N", default_value_t = 1)]
    shoes: usize,
    /// With --server: the most the watch may take, in seconds.
    #[arg(long, value_name = "S", default_value_t = 3_600)]
    timeout: u64,
    /// A shoe's revealed seed (64 hex digits): deal the shoe again and print its cards in order.
    #[arg(long, value_name = "HEX")]
    seed: Option<String>,
    /// With --seed: the commitment announced before the shoe (its seed's SHA-256), checked against the seed.
    #[arg(long, value_name = "HEX", requires = "seed")]
    sha256: Option<String>,
    /// With --seed: the shoe's decks.
    #[arg(long, value_name = "N", default_value_t = 6)]
    decks: u8,
}

fn verify(args: &VerifyArgs) -> ExitCode {
    use holecard::host::fair;
    if let Some(seed) = &args.seed {
        return answer((|| {
            let seed = fair::seed_from_hex(seed).map_err(|e| e.to_string())?;
            if !(1..=holecard::engine::card::MAX_DECKS).contains(&args.decks) {
                return Err(format!(
                    "--decks {}: a shoe holds 1 to {} decks",
                    args.decks,
                    holecard::engine::card::MAX_DECKS
                ));
            }
            let made = fair::commitment(&seed);
            let mut said = String::new();
            if let Some(committed) = &args.sha256 {
                if !made.eq_ignore_ascii_case(committed.trim()) {
                    return Err(format!(
                        "the seed's SHA-256 is {made}, not the {} announced: this is not that shoe's seed",
                        committed.trim()
                    ));
                }
                said += "The seed's SHA-256 is the commitment announced.\n";
            }
            let cards = holecard::engine::shoe_from_seed(args.decks, seed);
            said += &format!(
                "The shoe of {} decks this seed deals, in order:\n",
                args.decks
            );
            for (row, cards) in cards.chunks(13).enumerate() {
                let line: Vec<String> = cards.iter().map(|c| format!("{c:>3}")).collect();
                said += &format!("{:>4}  {}\n", row * 13 + 1, line.join(" "));
            }
            Ok(said.trim_end().to_string())
        })());
    }
    let (Some(server), Some(table)) = (&args.server, &args.table) else {
        eprintln!(
            "holecard-lab verify: give --server URL --table ID (watch a table), or --seed HEX"
        );
        return ExitCode::from(2);
    };
    watch(server, table, args)
}

#[cfg(feature = "server")]
fn watch(server: &str, table: &str, args: &VerifyArgs) -> ExitCode {
    let timeout = std::time::Duration::from_secs(args.timeout);
    let watched = tokio::runtime::Runtime::new()
        .map_err(|e| e.to_string())
        .and_then(|runtime| {
            runtime.block_on(holecard::server::verify::watch_shoes(
                server, table, args.shoes, timeout,
            ))
        });
    match watched {
        Ok(checked) => {
            for shoe in &checked {
                println!("{}", shoe.words());
            }
            if checked.iter().all(|shoe| shoe.outcome.is_ok()) {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(e) => {
            eprintln!("holecard-lab verify: {e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(not(feature = "server"))]
fn watch(_: &str, _: &str, _: &VerifyArgs) -> ExitCode {
    eprintln!(
        "holecard-lab verify: watching a table needs the server feature (cargo build --features server)"
    );
    ExitCode::from(2)
}

#[cfg(feature = "server")]
#[derive(Args)]
struct LoadArgs {
    /// The server, `ws://HOST:PORT`.
    #[arg(long, value_name = "URL", default_value = "ws://127.0.0.1:8080")]
    server: String,
    /// Bot clients, each with its own account.
    #[arg(long, value_name = "N", default_value_t = 100)]
    clients: usize,
    /// Tables to spread them over (the lobby's first ones); bots sit where a seat is free and watch otherwise.
    #[arg(long, value_name = "N", default_value_t = 10)]
    tables: usize,
    /// Rounds each bot plays or watches.
    #[arg(long, value_name = "N", default_value_t = 10)]
    rounds: u64,
    /// The server's database (`sqlite://PATH` or `postgres://…`): check the ledger's sums afterwards.
    #[arg(long, value_name = "URL")]
    database: Option<String>,
    /// The most the run may take, in seconds.
    #[arg(long, value_name = "S", default_value_t = 900)]
    timeout: u64,
    /// Print one JSON object (otherwise a few lines of text).
    #[arg(long)]
    json: bool,
}

#[cfg(feature = "server")]
fn load(args: &LoadArgs) -> ExitCode {
    use holecard::server::load::{LoadConfig, run};
    let config = LoadConfig {
        server: args.server.clone(),
        clients: args.clients,
        tables: args.tables,
        rounds: args.rounds,
        database: args.database.clone(),
        timeout: std::time::Duration::from_secs(args.timeout),
    };
    let ran = tokio::runtime::Runtime::new()
        .map_err(|e| e.to_string())
        .and_then(|runtime| runtime.block_on(run(&config)));
    let report = match ran {
        Ok(report) => report,
        Err(e) => {
            eprintln!("holecard-lab load: {e}");
            return ExitCode::from(2);
        }
    };
    if args.json {
        match serde_json::to_string(&report) {
            Ok(json) => println!("{json}"),
            Err(e) => eprintln!("holecard-lab load: {e}"),
        }
    } else {
        println!(
            "{} clients at {} tables ({} seated), {} rounds: {} commands, {:.0} a second; latency p50 {:.2} ms, \
             p99 {:.2} ms, max {:.2} ms; {} late, {} errors; ledger balanced: {:?}",
            report.clients,
            report.tables,
            report.seated,
            report.rounds,
            report.commands,
            report.commands_per_sec,
            report.latency_p50_ms,
            report.latency_p99_ms,
            report.latency_max_ms,
            report.late,
            report.errors,
            report.ledger_balanced
        );
        for e in &report.error_samples {
            println!("  {e}");
        }
    }
    if report.errors == 0 && report.ledger_balanced != Some(false) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

#[derive(Args)]
struct PlayArgs {
    /// The table to sit at (default: the Las Vegas Strip table).
    #[arg(long, value_name = "FILE")]
    level: Option<PathBuf>,
    /// Seed for the shoe (default: fresh from the operating system).
    #[arg(long)]
    seed: Option<u64>,
}

fn play(args: &PlayArgs) -> ExitCode {
    let level = match Level::load_or_default(args.level.as_deref()) {
        Ok(level) => level,
        Err(e) => {
            eprintln!("holecard-lab: {e}");
            return ExitCode::from(2);
        }
    };
    let stdin = std::io::stdin();
    match terminal::play(&level, args.seed, stdin.lock(), std::io::stdout()) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("holecard-lab: {e}");
            ExitCode::FAILURE
        }
    }
}

#[derive(Args)]
struct SimulateArgs {
    #[command(flatten)]
    table: RuleArgs,
    /// Rounds to play (accepts 1e8, 100M, 10k).
    #[arg(long, default_value = "10M", value_parser = parse_count)]
    rounds: u64,
    /// Seed; the same seed and thread count give the same result.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: every core).
    #[arg(long)]
    threads: Option<u32>,
    /// Deal every round from a freshly shuffled shoe (no cut card): the full shoe's value, which `edge` works out
    /// exactly.
    #[arg(long)]
    fresh_shoe: bool,
    /// Count cards with this system (Hi-Lo, KO, Hi-Opt II, Omega II, Zen, Wong Halves; short names HL, KO, HO2,
    /// O2, Zen, WH), betting by --ramp and making the index plays of --indices.
    #[arg(long, value_name = "SYSTEM")]
    count: Option<String>,
    /// The counter's bet by true count: true count:units steps, one unit below the first.
    #[arg(long, default_value = "2:2,3:4,4:6,5:8", requires = "count")]
    ramp: String,
    /// The counter's index plays: the Illustrious 18 and Fab 4 worked out for these rules by the exact engine
    /// (`computed`), or none.
    #[arg(long, value_enum, default_value = "computed", requires = "count")]
    indices: IndicesFlag,
    /// The bankroll the counter's risk of ruin is given for, in units (table minimums).
    #[arg(long, default_value_t = 1000, requires = "count")]
    bankroll: u32,
    /// Print one JSON object instead of the summary.
    #[arg(long)]
    json: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum IndicesFlag {
    Computed,
    None,
}

/// The counter a simulation's flags ask for, its indices worked out for `rules`.
fn counter_config(args: &SimulateArgs, rules: &Rules) -> Result<Option<CounterConfig>, String> {
    let Some(name) = &args.count else {
        return Ok(None);
    };
    let system = holecard::engine::count::system(name).ok_or_else(|| {
        let names: Vec<&str> = holecard::engine::count::systems()
            .iter()
            .map(|s| s.name.as_str())
            .collect();
        format!(
            "--count {name}: no such system; there are {}",
            names.join(", ")
        )
    })?;
    let ramp = Ramp::parse(&args.ramp).map_err(|e| format!("--ramp: {e}"))?;
    let deviations = match args.indices {
        IndicesFlag::None => Deviations::default(),
        IndicesFlag::Computed => {
            let indices =
                exact::indices::indices_on(rules, system, &exact::indices::PLAYS, exact::threads())
                    .map_err(|e| format!("--indices computed: {e} (use --indices none)"))?;
            Deviations::of(&indices)
        }
    };
    Ok(Some(CounterConfig {
        plan: Plan {
            system,
            ramp,
            deviations,
        },
        bankroll_units: args.bankroll,
    }))
}

/// The table's rules: from a level file, the plain table, and single rules changed by flags.
#[derive(Args)]
struct RuleArgs {
    /// Take the rules from a level file; rule flags below override single rules.
    #[arg(long, value_name = "FILE")]
    level: Option<PathBuf>,
    /// Decks in the shoe (1–8).
    #[arg(long, value_name = "N")]
    decks: Option<u8>,
    /// Dealer stands on soft 17.
    #[arg(long, conflicts_with = "h17")]
    s17: bool,
    /// Dealer hits soft 17.
    #[arg(long)]
    h17: bool,
    /// Double after split allowed.
    #[arg(long, conflicts_with = "no_das")]
    das: bool,
    /// No double after split.
    #[arg(long)]
    no_das: bool,
    /// Which two-card totals may double.
    #[arg(long, value_enum, value_name = "WHICH")]
    double: Option<DoubleFlag>,
    /// Most hands one seat may hold by splitting (1–4).
    #[arg(long, value_name = "N")]
    split_hands: Option<u8>,
    /// Resplit aces.
    #[arg(long)]
    rsa: bool,
    /// Hit split aces.
    #[arg(long)]
    hsa: bool,
    /// Surrender rule.
    #[arg(long, value_enum, value_name = "WHEN")]
    surrender: Option<SurrenderFlag>,
    /// Blackjack payout.
    #[arg(long, value_enum, value_name = "ODDS")]
    bj: Option<PayoutFlag>,
    /// Fraction of the shoe dealt before the cut card.
    #[arg(long, value_name = "FRACTION")]
    penetration: Option<f64>,
    /// European no hole card: a dealer blackjack takes doubles and splits too.
    #[arg(long, conflicts_with = "enhc_obo")]
    enhc: bool,
    /// European no hole card, original bets only lost to a dealer blackjack.
    #[arg(long)]
    enhc_obo: bool,
    /// Burn a card after each shuffle.
    #[arg(long)]
    burn: bool,
}

#[derive(Args)]
struct EvArgs {
    /// The player's cards: `A,7`, `T 6`, `88` (A, 2–9, T/10, J, Q, K).
    hand: String,
    /// The dealer's up card.
    up: String,
    /// Cards seen since the shuffle besides the hand and the up card (other hands, the discards).
    #[arg(long, value_name = "CARDS", default_value = "")]
    seen: String,
    /// Values before the dealer's peek (by default, with an ace or a ten up, after it: no dealer blackjack).
    #[arg(long)]
    before_peek: bool,
    #[command(flatten)]
    table: RuleArgs,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct EdgeArgs {
    /// Cards already out of the shoe (the full shoe when empty).
    #[arg(long, value_name = "CARDS", default_value = "")]
    seen: String,
    /// The post-split strategy: CDZ- (`cdz`), CDP1 or CDP.
    #[arg(long, value_enum, default_value = "cdz")]
    split: SplitFlag,
    /// Threads to share the work (the default: two where there are two cores).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Play every hand by the basic-strategy chart instead of as well as the shoe allows: the edge a chart player
    /// faces (what `simulate --fresh-shoe` measures).
    #[arg(long)]
    chart: bool,
    /// Work it out a piece at a time on one thread, as the browser does a frame a piece, and say how long the
    /// longest piece took.
    #[arg(long, conflicts_with_all = ["chart", "threads"])]
    pieces: bool,
    /// Work out CDZ- alone, as the game asks between rounds: several times faster; the other strategies' values are
    /// left out (null in the JSON).
    #[arg(long, conflicts_with_all = ["chart", "split"])]
    cdz_only: bool,
    #[command(flatten)]
    table: RuleArgs,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct ChartArgs {
    /// Each play's exact value on the shoe instead of the published chart.
    #[arg(long)]
    exact: bool,
    /// Cards already out of the shoe (with --exact).
    #[arg(long, value_name = "CARDS", default_value = "", requires = "exact")]
    seen: String,
    /// The post-split strategy a split is valued by (with --exact).
    #[arg(long, value_enum, default_value = "cdz")]
    split: SplitFlag,
    #[command(flatten)]
    table: RuleArgs,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct LiveTimesArgs {
    /// Cards already out of the shoe (the full shoe when empty).
    #[arg(long, value_name = "CARDS", default_value = "")]
    seen: String,
    #[command(flatten)]
    table: RuleArgs,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum SplitFlag {
    Cdz,
    Cdp1,
    Cdp,
}

/// The exact engine's rules and the shoe before the seen cards, from the rule flags.
fn exact_table(table: &RuleArgs) -> Result<(Rules, exact::ExactRules, exact::Ranks), String> {
    let rules = table.rules()?;
    Ok((
        rules.clone(),
        exact::ExactRules::of(&rules),
        exact::full_shoe(rules.decks),
    ))
}

fn ev(args: &EvArgs) -> ExitCode {
    let run = || -> Result<String, String> {
        let (rules, exact_rules, shoe) = exact_table(&args.table)?;
        let hand = exact::points_of(&args.hand).map_err(|e| format!("the hand: {e}"))?;
        let up = match exact::points_of(&args.up).map_err(|e| format!("the up card: {e}"))?[..] {
            [up] => up,
            _ => return Err(format!("the up card is one card, not `{}`", args.up)),
        };
        let seen = exact::points_of(&args.seen).map_err(|e| format!("--seen: {e}"))?;
        let all: Vec<u8> = seen
            .iter()
            .chain(&hand)
            .chain([up].iter())
            .copied()
            .collect();
        let unseen = exact::unseen(shoe, &all).map_err(|e| {
            format!(
                "{e} ({} deck(s), the hand, the up card and --seen)",
                rules.decks
            )
        })?;
        let peek = matches!(rules.hole_card, HoleCard::Peek) && !args.before_peek;
        let question = exact::Question {
            rules: exact_rules,
            unseen,
            hand: hand.clone(),
            up,
            peeked: peek && (up == 1 || up == 10),
            split_hand: false,
        };
        let values = exact::evaluate(&question).map_err(|e| e.to_string())?;
        let mut plays: Vec<(&str, f64)> = vec![("stand", values.stand), ("hit", values.hit)];
        plays.extend(values.double.map(|v| ("double", v)));
        if let Some(split) = values.split {
            plays.push(("split (CDZ-)", split.cdz));
            plays.push(("split (CDP1)", split.cdp1));
            plays.push(("split (CDP)", split.cdp));
        }
        plays.extend(values.surrender.map(|v| ("surrender", v)));
        let best = match values.best(exact::PostSplit::Cdz).0 {
            exact::Best::Stand => "stand",
            exact::Best::Hit => "hit",
            exact::Best::Double => "double",
            exact::Best::Split => "split (CDZ-)",
            exact::Best::Surrender => "surrender",
        };
        if args.json {
            let mut json = serde_json::json!({
                "rules": rules.to_string(),
                "hand": hand,
                "up": up,
                "unseen": unseen,
                "conditioned_on_no_dealer_blackjack": question.peeked,
                "stand": values.stand,
                "hit": values.hit,
                "double": values.double,
                "surrender": values.surrender,
                "insurance": values.insurance,
                "best": best,
            });
            if let Some(split) = values.split {
                json["split"] =
                    serde_json::json!({"cdz": split.cdz, "cdp1": split.cdp1, "cdp": split.cdp});
            }
            return Ok(json.to_string());
        }
        let mut text = format!(
            "{} vs {} on {} ({} cards unseen){}\n",
            args.hand,
            args.up,
            rules,
            unseen.iter().map(|&n| u32::from(n)).sum::<u32>(),
            if question.peeked {
                ", after the peek"
            } else {
                ""
            }
        );
        for (name, value) in &plays {
            let mark = if *name == best { "  <- best" } else { "" };
            text += &format!("  {name:<13} {value:+.6}{mark}\n");
        }
        if let Some(insurance) = values.insurance {
            text += &format!("  insurance     {insurance:+.6} (the side bet alone)\n");
        }
        Ok(text.trim_end().to_string())
    };
    answer(run())
}

fn edge(args: &EdgeArgs) -> ExitCode {
    let run = || -> Result<String, String> {
        let (rules, exact_rules, shoe) = exact_table(&args.table)?;
        let seen = exact::points_of(&args.seen).map_err(|e| format!("--seen: {e}"))?;
        let shoe = exact::unseen(shoe, &seen).map_err(|e| format!("--seen: {e}"))?;
        if shoe.iter().map(|&n| u32::from(n)).sum::<u32>() < 20 {
            return Err(
                "--seen leaves fewer than 20 cards: too few to play a round out".to_string(),
            );
        }
        let mode = match args.split {
            SplitFlag::Cdz => exact::PostSplit::Cdz,
            SplitFlag::Cdp1 => exact::PostSplit::Cdp1,
            SplitFlag::Cdp => exact::PostSplit::Cdp,
        };
        let started = std::time::Instant::now();
        let (threads, pieces) = if args.pieces {
            (1, Some(Vec::new()))
        } else {
            (args.threads.unwrap_or_else(exact::threads).max(1), None)
        };
        let chart = holecard::engine::strategy::BasicStrategy::for_rules(&rules);
        let (table, pieces) = match pieces {
            Some(mut pieces) => {
                let mut steps = if args.cdz_only {
                    exact::RoundSteps::cdz(exact_rules, shoe)
                } else {
                    exact::RoundSteps::new(exact_rules, shoe)
                };
                loop {
                    let piece = std::time::Instant::now();
                    let done = steps.step().cloned();
                    pieces.push(piece.elapsed().as_secs_f64());
                    if let Some(table) = done {
                        break (table, Some(pieces));
                    }
                }
            }
            None if args.cdz_only => (exact::table_cdz(exact_rules, shoe, threads), None),
            None => (
                exact::table_with(exact_rules, shoe, args.chart.then_some(&chart), threads),
                None,
            ),
        };
        let (value, by_up) = (table.value(mode), table.by_up[mode.index()]);
        let seconds = started.elapsed().as_secs_f64();
        let longest = pieces
            .as_ref()
            .map(|p: &Vec<f64>| (p.len(), p.iter().copied().fold(0.0, f64::max)));
        if args.json {
            return Ok(serde_json::json!({
                "rules": rules.to_string(),
                "split": mode.name(),
                "value": value,
                "house_edge_pct": -100.0 * value,
                "by_up": by_up,
                "values_by_split": exact::PostSplit::ALL
                    .iter()
                    .map(|m| (m.name(), table.value(*m)))
                    .collect::<std::collections::BTreeMap<_, _>>(),
                "threads": threads,
                "chart": args.chart,
                "seconds": seconds,
                "pieces": longest.map(|(n, _)| n),
                "longest_piece_seconds": longest.map(|(_, s)| s),
            })
            .to_string());
        }
        if args.chart {
            return Ok(format!(
                "{rules}, every hand by the basic-strategy chart: the player's exact value {value:+.9} a round, \
                 house edge {:.4}%\n  computed in {:.1} ms",
                -100.0 * value,
                seconds * 1000.0
            ));
        }
        let mut text = format!(
            "{} ({} splits): the player's exact value {value:+.9} a round, house edge {:.4}%\n",
            rules,
            mode.name(),
            -100.0 * value
        );
        for other in exact::PostSplit::ALL
            .into_iter()
            .filter(|m| !table.value(*m).is_nan())
        {
            text += &format!("  {:<5} splits: {:+.9}\n", other.name(), table.value(other));
        }
        for (up, v) in by_up.iter().enumerate() {
            let name = exact::name_of(up as u8 + 1);
            text += &format!("  vs {name:<2} {v:+.6}\n");
        }
        text += &format!(
            "  computed in {:.1} ms on {threads} thread{}",
            seconds * 1000.0,
            if threads == 1 { "" } else { "s" }
        );
        if let Some((n, longest)) = longest {
            text += &format!(" in {n} pieces, the longest {:.1} ms", longest * 1000.0);
        }
        Ok(text)
    };
    answer(run())
}

#[derive(Args)]
struct SidebetArgs {
    /// The side bet.
    #[arg(value_enum)]
    bet: SideBetFlag,
    /// Its pay table, to one, best hand first (21+3: suited trips, straight flush, three of a kind, straight,
    /// flush; Perfect Pairs: perfect, one colour, mixed; Lucky Ladies: two queens of hearts and a dealer blackjack,
    /// two queens of hearts, matched, suited, any 20; Buster: eight cards or more, 7, 6, 5, 4, 3). The default: the
    /// level's, else the usual (100,40,30,10,5; 25,12,6; 1000,125,19,9,4; 250,50,12,4,2,2).
    #[arg(long, value_name = "LIST")]
    pays: Option<String>,
    /// Cards already out of the shoe, with their suits ("Qh 10s 7c"); the full shoe when empty.
    #[arg(long, value_name = "CARDS", default_value = "")]
    seen: String,
    #[command(flatten)]
    table: RuleArgs,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum SideBetFlag {
    #[value(name = "21+3")]
    TwentyOnePlusThree,
    PerfectPairs,
    LuckyLadies,
    Buster,
}

fn sidebet(args: &SidebetArgs) -> ExitCode {
    use holecard::engine::exact::side::{Suited, cards_of, price};
    use holecard::engine::side::SideBet;
    let run = || -> Result<String, String> {
        let mut rules = args.table.rules()?;
        let bet = match args.bet {
            SideBetFlag::TwentyOnePlusThree => SideBet::TwentyOnePlusThree,
            SideBetFlag::PerfectPairs => SideBet::PerfectPairs,
            SideBetFlag::LuckyLadies => SideBet::LuckyLadies,
            SideBetFlag::Buster => SideBet::Buster,
        };
        if let Some(list) = &args.pays {
            let pays = list
                .split(|c: char| c == ',' || c.is_whitespace())
                .filter(|word| !word.is_empty())
                .map(|word| {
                    word.parse::<u32>()
                        .map_err(|_| format!("--pays: `{word}` is not a whole number"))
                })
                .collect::<Result<Vec<u32>, String>>()?;
            rules
                .side_bets
                .offer_paying(bet, &pays)
                .map_err(|e| format!("--pays: {e}"))?;
        } else if !rules.side_bets.offers(bet) {
            rules.side_bets.offer(bet);
        }
        rules
            .side_bets
            .check(rules.bet_unit, rules.max_bet)
            .map_err(|e| format!("--pays: {e}"))?;
        let seen = cards_of(&args.seen).map_err(|e| format!("--seen: {e}"))?;
        let shoe = Suited::unseen(rules.decks, &seen).map_err(|e| format!("--seen: {e}"))?;
        let started = std::time::Instant::now();
        let priced = price(bet, &rules, &shoe).ok_or_else(|| {
            format!(
                "--seen leaves {} cards: too few to deal a round",
                shoe.len()
            )
        })?;
        let seconds = started.elapsed().as_secs_f64();
        let value = priced.value();
        if args.json {
            let hands: Vec<_> = priced
                .chances
                .iter()
                .map(|(win, pays, p)| {
                    serde_json::json!({ "hand": win.name(), "pays": pays, "chance": p })
                })
                .collect();
            return Ok(serde_json::json!({
                "bet": bet.name(),
                "decks": rules.decks,
                "h17": rules.soft_17 == Soft17::Hit,
                "cards_left": shoe.len(),
                "hands": hands,
                "wins": priced.wins(),
                "value": value,
                "house_edge_pct": -100.0 * value,
                "std_dev": priced.variance().sqrt(),
                "seconds": seconds,
            })
            .to_string());
        }
        let mut text = format!(
            "{bet} on {} cards of {} deck{}{}:\n",
            shoe.len(),
            rules.decks,
            if rules.decks == 1 { "" } else { "s" },
            if bet == SideBet::Buster {
                if rules.soft_17 == Soft17::Hit {
                    ", the dealer hitting soft 17"
                } else {
                    ", the dealer standing on soft 17"
                }
            } else {
                ""
            }
        );
        for (win, pays, p) in &priced.chances {
            let name = win.name();
            text += &format!("  {name:<52} pays {pays:>4} to 1  chance {p:.6}\n");
        }
        text += &format!(
            "  the player's exact value {value:+.6} a unit bet, house edge {:.4}%\n  computed in {:.2} ms",
            -100.0 * value,
            seconds * 1000.0
        );
        Ok(text)
    };
    answer(run())
}

#[derive(Clone, Copy, ValueEnum)]
enum DoubleFlag {
    Any,
    #[value(name = "9-11")]
    NineToEleven,
    #[value(name = "10-11")]
    TenToEleven,
    None,
}

#[derive(Clone, Copy, ValueEnum)]
enum SurrenderFlag {
    None,
    Late,
    Early,
}

#[derive(Clone, Copy, ValueEnum)]
enum PayoutFlag {
    #[value(name = "3:2")]
    ThreeToTwo,
    #[value(name = "6:5")]
    SixToFive,
    #[value(name = "2:1")]
    TwoToOne,
    #[value(name = "1:1")]
    OneToOne,
}

/// "100M", "1e8", "10k", "250000" → a count.
fn parse_count(text: &str) -> Result<u64, String> {
    let text = text.trim().replace('_', "");
    let (digits, scale) = match text.chars().last() {
        Some('k' | 'K') => (&text[..text.len() - 1], 1_000),
        Some('M') => (&text[..text.len() - 1], 1_000_000),
        Some('G') => (&text[..text.len() - 1], 1_000_000_000),
        _ => (text.as_str(), 1),
    };
    let value: f64 = digits
        .parse()
        .map_err(|_| format!("`{text}` is not a count (try 1e8, 100M or 250000)"))?;
    let count = value * scale as f64;
    if !(1.0..=1e15).contains(&count) || count.fract() != 0.0 {
        return Err(format!(
            "`{text}` must be a whole number of rounds from 1 to 10^15"
        ));
    }
    Ok(count as u64)
}

/// The rules a flag-only run starts from: 6 decks S17 DAS, double any two, split to 4, no surrender, 3:2, peek,
/// 75% penetration, no burn card.
fn plain_rules() -> Rules {
    Rules {
        surrender: Surrender::None,
        burn_card: false,
        min_bet: holecard::engine::Cents::units(1),
        ..Rules::default()
    }
}

impl RuleArgs {
    fn rules(&self) -> Result<Rules, String> {
        let mut rules = match &self.level {
            Some(path) => Level::load(path).map_err(|e| e.to_string())?.rules.rules(),
            None => plain_rules(),
        };
        if let Some(decks) = self.decks {
            rules.decks = decks;
        }
        if self.s17 {
            rules.soft_17 = Soft17::Stand;
        }
        if self.h17 {
            rules.soft_17 = Soft17::Hit;
        }
        if self.das {
            rules.double_after_split = true;
        }
        if self.no_das {
            rules.double_after_split = false;
        }
        if let Some(double) = self.double {
            rules.double_on = match double {
                DoubleFlag::Any => DoubleOn::AnyTwo,
                DoubleFlag::NineToEleven => DoubleOn::NineToEleven,
                DoubleFlag::TenToEleven => DoubleOn::TenToEleven,
                DoubleFlag::None => DoubleOn::Never,
            };
            if rules.double_on == DoubleOn::Never {
                rules.double_after_split = false;
            }
        }
        if let Some(hands) = self.split_hands {
            rules.max_split_hands = hands;
            if hands == 1 {
                rules.double_after_split = false;
                rules.resplit_aces = false;
            }
        }
        rules.resplit_aces |= self.rsa;
        rules.hit_split_aces |= self.hsa;
        if let Some(surrender) = self.surrender {
            rules.surrender = match surrender {
                SurrenderFlag::None => Surrender::None,
                SurrenderFlag::Late => Surrender::Late,
                SurrenderFlag::Early => Surrender::Early,
            };
        }
        if let Some(bj) = self.bj {
            rules.blackjack_pays = match bj {
                PayoutFlag::ThreeToTwo => Payout::ThreeToTwo,
                PayoutFlag::SixToFive => Payout::SixToFive,
                PayoutFlag::TwoToOne => Payout::TwoToOne,
                PayoutFlag::OneToOne => Payout::OneToOne,
            };
        }
        if let Some(penetration) = self.penetration {
            rules.penetration = penetration;
        }
        if self.enhc {
            rules.hole_card = HoleCard::NoHoleCard {
                blackjack_takes: EnhcLoss::AllBets,
            };
        }
        if self.enhc_obo {
            rules.hole_card = HoleCard::NoHoleCard {
                blackjack_takes: EnhcLoss::OriginalBetOnly,
            };
        }
        rules.burn_card |= self.burn;
        rules
            .validate()
            .map_err(|e| format!("these rules don't work together: {e}"))?;
        Ok(rules)
    }
}

fn print_summary(report: &SimReport) {
    println!(
        "Holecard simulation: {} ({:.0}% penetration)",
        report.rules_summary,
        report.rules.penetration * 100.0
    );
    println!(
        "  rounds       {} on {} thread(s), seed {}",
        group_thousands(report.rounds),
        report.threads,
        report.seed
    );
    println!("  hands        {}", group_thousands(report.hands));
    // A counter's bets vary: its edge and swings are below, in units, instead.
    if report.counter.is_none() {
        println!(
            "  house edge   {:.4}% ± {:.4}% (one standard error; positive favours the house)",
            report.house_edge_pct, report.std_error_pct
        );
        println!(
            "  std dev      {:.4} bets per round",
            report.std_dev_per_round
        );
    }
    let t = &report.tally;
    let per_hand = |n: u64| 100.0 * n as f64 / report.hands.max(1) as f64;
    println!(
        "  hands won {:.2}%  lost {:.2}%  pushed {:.2}%  blackjack {:.2}%  bust {:.2}%",
        per_hand(t.wins),
        per_hand(t.losses),
        per_hand(t.pushes),
        per_hand(t.blackjacks),
        per_hand(t.busts)
    );
    println!(
        "  doubled {:.2}%  split {:.2}%  surrendered {:.2}%",
        per_hand(t.doubles),
        per_hand(t.splits),
        per_hand(t.surrenders)
    );
    if let Some(c) = &report.counter {
        println!(
            "  counter      {}, {} index plays; bets {} (average {:.2} units)",
            c.system, c.index_plays, c.ramp, c.average_bet_units
        );
        println!(
            "  edge         {:+.3}% of the initial bets; {:+.3} ± {:.3} units per 100 rounds",
            c.edge_pct, c.win_per_100, c.win_per_100_error
        );
        println!(
            "  swings       {:.2} units SD per 100 rounds; N0 {} rounds; SCORE {:.1}",
            c.std_dev_per_100,
            group_thousands(c.n0_rounds.round() as u64),
            c.score
        );
        println!(
            "  ruin         {:.2}% with a bankroll of {} units",
            100.0 * c.risk_of_ruin,
            c.bankroll_units
        );
    }
    println!(
        "  speed        {:.2} M rounds/s in {:.2} s",
        report.rounds_per_sec / 1e6,
        report.seconds
    );
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Tool::Play(args) => play(&args),
        Tool::Ev(args) => ev(&args),
        Tool::Edge(args) => edge(&args),
        Tool::Sidebet(args) => sidebet(&args),
        Tool::Verify(args) => verify(&args),
        Tool::LiveTimes(args) => live_times(&args),
        Tool::Chart(args) => chart(&args),
        #[cfg(feature = "server")]
        Tool::Load(args) => load(&args),
        Tool::Simulate(args) => {
            let rules = match args.table.rules() {
                Ok(rules) => rules,
                Err(message) => {
                    eprintln!("holecard-lab: {message}");
                    return ExitCode::from(2);
                }
            };
            let threads = args.threads.unwrap_or_else(|| {
                std::thread::available_parallelism()
                    .map_or(1, |n| u32::try_from(n.get()).unwrap_or(1))
            });
            let counter = match counter_config(&args, &rules) {
                Ok(counter) => counter,
                Err(message) => {
                    eprintln!("holecard-lab: {message}");
                    return ExitCode::from(2);
                }
            };
            let config = SimConfig {
                rules,
                rounds: args.rounds,
                seed: args.seed,
                threads,
                fresh_shoe: args.fresh_shoe,
                counter,
            };
            let bar = if args.json || args.rounds < 1_000_000 {
                ProgressBar::hidden()
            } else {
                ProgressBar::new(args.rounds)
            };
            bar.set_style(
                ProgressStyle::with_template(
                    "{bar:40} {percent:>3}% {human_pos}/{human_len} rounds, eta {eta}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            let result = simulate(&config, |done| bar.set_position(done));
            bar.finish_and_clear();
            match result {
                Ok(report) => {
                    if args.json {
                        match serde_json::to_string(&report) {
                            Ok(json) => println!("{json}"),
                            Err(e) => {
                                eprintln!("holecard-lab: could not write JSON: {e}");
                                return ExitCode::FAILURE;
                            }
                        }
                    } else {
                        print_summary(&report);
                    }
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("holecard-lab: {e}");
                    ExitCode::FAILURE
                }
            }
        }
    }
}

fn live_times(args: &LiveTimesArgs) -> ExitCode {
    let run = || -> Result<String, String> {
        let (rules, exact_rules, shoe) = exact_table(&args.table)?;
        let seen = exact::points_of(&args.seen).map_err(|e| format!("--seen: {e}"))?;
        let unseen = exact::unseen(shoe, &seen).map_err(|e| format!("--seen: {e}"))?;
        let mut times = Vec::new();
        for up in 1..=10u8 {
            for first in 1..=10u8 {
                for second in first..=10u8 {
                    let mut left = unseen;
                    let mut ok = true;
                    for card in [up, first, second] {
                        let rank = usize::from(card - 1);
                        if left[rank] == 0 {
                            ok = false;
                            break;
                        }
                        left[rank] -= 1;
                    }
                    if !ok {
                        continue;
                    }
                    let question = exact::Question {
                        rules: exact_rules,
                        unseen: left,
                        hand: vec![first, second],
                        up,
                        peeked: true,
                        split_hand: false,
                    };
                    let started = std::time::Instant::now();
                    exact::evaluate(&question).map_err(|e| e.to_string())?;
                    times.push((started.elapsed().as_secs_f64(), first, second, up));
                }
            }
        }
        if times.is_empty() {
            return Err("no two-card hand can be dealt from that shoe".to_string());
        }
        let total: f64 = times.iter().map(|t| t.0).sum();
        times.sort_by(|a, b| a.0.total_cmp(&b.0));
        let median = times[times.len() / 2].0;
        let (worst, a, b, up) = times[times.len() - 1];
        let name = exact::name_of;
        let hand = format!("{},{} vs {}", name(a), name(b), name(up));
        if args.json {
            return Ok(serde_json::json!({
                "rules": rules.to_string(),
                "questions": times.len(),
                "worst_ms": worst * 1000.0,
                "worst_hand": hand,
                "median_ms": median * 1000.0,
                "total_ms": total * 1000.0,
            })
            .to_string());
        }
        Ok(format!(
            "{rules}: {} live questions, worst {:.2} ms ({hand}), median {:.3} ms, all {:.1} ms",
            times.len(),
            worst * 1000.0,
            median * 1000.0,
            total * 1000.0
        ))
    };
    answer(run())
}

fn chart(args: &ChartArgs) -> ExitCode {
    use holecard::engine::card::Card;
    use holecard::engine::command::Action;
    use holecard::engine::hand::Cards;
    use holecard::engine::strategy::BasicStrategy;
    let run = || -> Result<String, String> {
        let (rules, exact_rules, shoe) = exact_table(&args.table)?;
        let basic = BasicStrategy::for_rules(&rules);
        let card = Card::of_points;
        let chart_play = |a: u8, b: u8, up: u8| -> char {
            let mut cards = Cards::default();
            cards.push(card(a));
            cards.push(card(b));
            let allowed = |action: Action| match action {
                Action::Surrender => rules.surrender != Surrender::None,
                Action::Double => rules.double_on.allows(cards.total().value()),
                _ => true,
            };
            match basic.play(&cards, card(up), allowed) {
                Action::Stand => 'S',
                Action::Double => 'D',
                Action::Split => 'P',
                Action::Surrender => 'R',
                _ => 'H',
            }
        };
        let mode = match args.split {
            SplitFlag::Cdz => exact::PostSplit::Cdz,
            SplitFlag::Cdp1 => exact::PostSplit::Cdp1,
            SplitFlag::Cdp => exact::PostSplit::Cdp,
        };
        let table = if args.exact {
            let seen = exact::points_of(&args.seen).map_err(|e| format!("--seen: {e}"))?;
            let shoe = exact::unseen(shoe, &seen).map_err(|e| format!("--seen: {e}"))?;
            if shoe.iter().map(|&n| u32::from(n)).sum::<u32>() < 20 {
                return Err(
                    "--seen leaves fewer than 20 cards: too few to play a round out".to_string(),
                );
            }
            Some(exact::table(exact_rules, shoe))
        } else {
            None
        };
        // The rows: pairs, soft hands, then hard hands by total, each two-card hand once.
        let mut rows: Vec<(u8, u8)> = (1..=10).rev().map(|p| (p, p)).collect();
        rows.extend((2..=9).rev().map(|b| (1, b)));
        for total in (5..=20).rev() {
            for a in 2..=9u8 {
                let b = total - a;
                if b > a && b <= 10 {
                    rows.push((a, b));
                }
            }
        }
        let ups = [2u8, 3, 4, 5, 6, 7, 8, 9, 10, 1];
        let mut cells = Vec::new();
        let mut text = format!(
            "{rules}: {}\n hand   {}\n",
            if args.exact {
                format!(
                    "the exact composition-dependent chart (splits {}), * where it differs from basic strategy",
                    mode.name()
                )
            } else {
                "basic strategy".to_string()
            },
            ups.iter()
                .map(|&u| format!("{:>3}", exact::name_of(u)))
                .collect::<String>()
        );
        let mut differ = 0;
        for &(a, b) in &rows {
            text += &format!(
                " {:<6}",
                format!("{},{}", exact::name_of(a), exact::name_of(b))
            );
            for &up in &ups {
                let chart = chart_play(a, b, up);
                let (letter, value) = match &table {
                    Some(table) => {
                        let deal = table.deals.iter().find(|d| d.up == up && d.cards == [a, b]);
                        match deal {
                            Some(deal) => {
                                let (best, value) = deal.values.best(mode);
                                (best.letter(), Some(value))
                            }
                            None => ('-', None),
                        }
                    }
                    None => (chart, None),
                };
                let mark = if args.exact && letter != '-' && letter != chart {
                    differ += 1;
                    '*'
                } else {
                    ' '
                };
                text += &format!(" {letter}{mark}");
                cells.push(serde_json::json!({
                    "hand": [a, b], "up": up, "play": letter.to_string(), "chart": chart.to_string(), "value": value,
                }));
            }
            text += "\n";
        }
        if args.exact {
            text += &format!("{differ} cells differ from basic strategy");
        }
        if args.json {
            return Ok(serde_json::json!({
                "rules": rules.to_string(),
                "exact": args.exact,
                "split": mode.name(),
                "cells": cells,
                "differ": differ,
            })
            .to_string());
        }
        Ok(text.trim_end().to_string())
    };
    answer(run())
}

/// Prints a tool's answer, or its error on standard error with exit status 2.
fn answer(result: Result<String, String>) -> ExitCode {
    match result {
        Ok(text) => {
            println!("{text}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("holecard-lab: {message}");
            ExitCode::from(2)
        }
    }
}
