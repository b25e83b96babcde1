#!/usr/bin/env python3
"""Simulator speed: holecard-lab beside freebj 1.2.2 on equivalent rules, in the same run.

Rules for both: 6 decks, dealer stands on soft 17, double any two cards, double after split, split to 4 hands,
no resplitting or hitting split aces, no surrender, 3:2, dealer peeks, 75% penetration. One seat, flat bet.

Each trial times both programs at 1 thread and at 2 threads (whole-process wall time for the same number of
rounds), alternating which goes first; the report uses the median of the trials. freebj is installed from crates.io
(`cargo install freebj --version 1.2.2`) into the build cache the first time.

    python3 scripts/bench_sim.py [--rounds 20000000] [--trials 5]
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
FREEBJ_ROOT = Path(os.environ.get("FREEBJ_ROOT", TARGET / "freebj-1.2.2"))
FREEBJ = FREEBJ_ROOT / "bin" / "freebj"
HOLECARD = TARGET / "dist" / "holecard-lab"


def build():
    subprocess.run(
        ["cargo", "build", "--profile", "dist", "--locked", "--no-default-features", "--bin", "holecard-lab"],
        cwd=ROOT,
        check=True,
    )
    if not FREEBJ.exists():
        subprocess.run(
            ["cargo", "install", "freebj", "--version", "1.2.2", "--locked", "--root", str(FREEBJ_ROOT)],
            check=True,
        )


def holecard_cmd(rounds, threads):
    return [
        str(HOLECARD), "simulate", "--json", "--rounds", str(rounds), "--threads", str(threads), "--seed", "1",
        "--decks", "6", "--s17", "--das", "--double", "any", "--split-hands", "4", "--surrender", "none",
        "--bj", "3:2", "--penetration", "0.75",
    ]


def freebj_cmd(rounds, threads):
    return [
        str(FREEBJ), "--ahc", "--s17", "--das", "--db-any2", "--max-splits", "4", "--no-playAA", "--no-surr",
        "-d", "6", "-p", "75%", "-n", str(rounds), "-j", str(threads),
    ]


def timed(cmd):
    start = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return time.perf_counter() - start, json.loads(out)


def concurrent_pair(cmd, rounds):
    """Two independent copies at once: their combined rate is the most any two-thread run can reach here."""
    start = time.perf_counter()
    procs = [subprocess.Popen(cmd, stdout=subprocess.DEVNULL) for _ in range(2)]
    for proc in procs:
        if proc.wait() != 0:
            sys.exit(f"{cmd[0]} failed")
    return 2 * rounds / (time.perf_counter() - start)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20_000_000)
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--skip-build", action="store_true")
    args = parser.parse_args()
    if not args.skip_build:
        build()
    if not shutil.which(str(FREEBJ)) and not FREEBJ.exists():
        sys.exit(f"freebj not found at {FREEBJ}")

    rates = {(tool, t): [] for tool in ("holecard", "freebj") for t in (1, 2)}
    pair_rates = []
    edges = {"holecard": [], "freebj": []}
    for trial in range(args.trials):
        for threads in (1, 2):
            order = [("holecard", holecard_cmd), ("freebj", freebj_cmd)]
            if trial % 2:
                order.reverse()
            for tool, make in order:
                seconds, report = timed(make(args.rounds, threads))
                rates[(tool, threads)].append(args.rounds / seconds)
                edge = report["house_edge_pct"] if tool == "holecard" else -100.0 * report["ev"]
                edges[tool].append(edge)
        pair_rates.append(concurrent_pair(holecard_cmd(args.rounds, 1), args.rounds))
        print(f"trial {trial + 1}/{args.trials} done", file=sys.stderr)

    median = {key: statistics.median(values) for key, values in rates.items()}
    per_thread = median[("holecard", 1)] / median[("freebj", 1)]
    both_threads = median[("holecard", 2)] / median[("freebj", 2)]
    scaling = median[("holecard", 2)] / median[("holecard", 1)]
    freebj_scaling = median[("freebj", 2)] / median[("freebj", 1)]
    ceiling = statistics.median(pair_rates) / median[("holecard", 1)]
    print(f"rules: 6D S17 DAS DOA SP4 noRSA noHSA noLS 3:2 peek, 75% penetration; {args.rounds:,} rounds per run,"
          f" median of {args.trials} trials")
    print(f"{'':10} {'1 thread':>16} {'2 threads':>16}")
    for tool in ("holecard", "freebj"):
        print(f"{tool:10} {median[(tool, 1)] / 1e6:>10.2f} M r/s {median[(tool, 2)] / 1e6:>10.2f} M r/s")
    print(f"holecard / freebj, one thread:   {per_thread:.2f}x  (target >= 2.5x)")
    print(f"holecard / freebj, two threads:  {both_threads:.2f}x")
    print(f"holecard two threads / one:      {scaling:.2f}x  (target >= 1.8x; freebj {freebj_scaling:.2f}x)")
    print(f"two separate 1-thread processes: {ceiling:.2f}x  (what this machine gives two busy cores)")
    print(f"house edge: holecard {statistics.mean(edges['holecard']):.3f}%, freebj {statistics.mean(edges['freebj']):.3f}%")
    print(json.dumps({
        "rounds": args.rounds,
        "trials": args.trials,
        "rounds_per_sec": {f"{tool}_{t}t": rate for (tool, t), rate in median.items()},
        "ratio_per_thread": per_thread,
        "ratio_two_threads": both_threads,
        "holecard_scaling_1_to_2": scaling,
        "freebj_scaling_1_to_2": freebj_scaling,
        "two_processes_over_one": ceiling,
    }))


if __name__ == "__main__":
    main()
