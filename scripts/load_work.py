#!/usr/bin/env python3
"""The server's work a command under load, for builds side by side: each run starts a server build as
scripts/load-curve's `single` setup does (a fresh PostgreSQL database, 105 tables) and plays `holecard-lab load`
against it, reading from /proc every 0.1 s the CPU time the server and PostgreSQL's processes spend while the bots
play (the setup's registrations left out). The builds take turns, run after run, so the machine's drift through the
hour falls on all of them; the report gives each build's medians.

The load curve's p99 and commands a second move more between two runs of one build than between builds on this
machine (docs/server-load.md); the CPU time a command is steadier, and says what a change costs the tables.

    python3 scripts/load_work.py --build before=DIR --build after=DIR [--build 'off=DIR --keep-replays-days 0']
        [--runs 5] [--clients 1000] [--rounds 10] [--out FILE]

DIR is a folder holding both holecard-server and holecard-lab (a release build's target/release); words after DIR
are given to that build's server. Needs this machine's PostgreSQL (`scripts/local-postgres`).
"""

import argparse
import json
import os
import shlex
import statistics
import subprocess
import time
import urllib.request

PORT = 18090
DATABASE = "holecard_load_work"
ADMIN = {"PGPASSWORD": "holecard"}


def psql(sql, database="postgres"):
    """One statement on this machine's PostgreSQL; what it printed."""
    return subprocess.run(
        ["psql", "-h", "127.0.0.1", "-U", "holecard", "-d", database, "-Atqc", sql],
        env={**os.environ, **ADMIN},
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()


def cpu_ticks(pid):
    """User and system time of a process, in clock ticks; 0 once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])
    except (OSError, IndexError, ValueError):
        return 0


def postgres_ticks():
    """The CPU time of every PostgreSQL process now."""
    total = 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/comm") as comm:
                if comm.read().strip() == "postgres":
                    total += cpu_ticks(pid)
        except OSError:
            pass
    return total


def one_run(tag, folder, extra, clients, rounds):
    """A fresh database, the build's server, the bots: the run's report with the work a command."""
    psql(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
    psql(f"CREATE DATABASE {DATABASE}")
    url = f"postgres://holecard:holecard@127.0.0.1:5432/{DATABASE}"
    server = subprocess.Popen(
        [f"{folder}/holecard-server", "--listen", f"127.0.0.1:{PORT}", "--database", url,
         "--per-address", "100000", "--registrations-per-address", "1000000", "--tables-per-level", "15",
         "--bet-seconds", "5", "--turn-seconds", "5", "--companion-ms", "100", *extra],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(300):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{PORT}/api/tables", timeout=2) as lobby:
                    if b'"id"' in lobby.read():
                        break
            except OSError:
                pass
            time.sleep(0.2)
        else:
            raise SystemExit(f"load_work: {tag}'s server did not answer on port {PORT}")
        bots = subprocess.Popen(
            [f"{folder}/holecard-lab", "load", "--server", f"ws://127.0.0.1:{PORT}", "--clients", str(clients),
             "--tables", "100", "--rounds", str(rounds), "--database", url, "--json"],
            stdout=subprocess.PIPE,
        )
        samples = []
        deadline = time.monotonic() + 900
        while bots.poll() is None and time.monotonic() < deadline:
            samples.append((time.monotonic(), cpu_ticks(server.pid), postgres_ticks()))
            time.sleep(0.1)
        if bots.poll() is None:
            bots.kill()
            raise SystemExit(f"load_work: {tag}'s bots did not finish in 15 minutes")
        ended = time.monotonic()
        report = json.loads(bots.stdout.read().decode())
    finally:
        server.terminate()
        server.wait()
    # The play began play_seconds before the bots ended: the sample nearest that moment, and the last.
    began = ended - report["play_seconds"]
    first = min(samples, key=lambda s: abs(s[0] - began))
    last = samples[-1]
    tick = os.sysconf("SC_CLK_TCK")
    commands = max(report["commands"], 1)
    server_ms = 1000 * (last[1] - first[1]) / tick / commands
    postgres_ms = 1000 * (last[2] - first[2]) / tick / commands
    return {
        "build": tag,
        "clients": clients,
        "commands": report["commands"],
        "server_ms_a_command": round(server_ms, 4),
        "postgres_ms_a_command": round(postgres_ms, 4),
        "work_ms_a_command": round(server_ms + postgres_ms, 4),
        "latency_p99_ms": report["latency_p99_ms"],
        "commands_per_sec": round(report["commands_per_sec"]),
        "errors": report["errors"],
        "error_samples": report.get("error_samples", [])[:3],
        "ledger_balanced": report["ledger_balanced"],
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", action="append", required=True, help="NAME=DIR [server arguments]")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--out", default="/tmp/load-work.jsonl")
    args = parser.parse_args()
    builds = []
    for build in args.build:
        name, _, rest = build.partition("=")
        words = shlex.split(rest)
        if not name or not words:
            parser.error(f"--build {build!r}: NAME=DIR [server arguments]")
        builds.append((name, words[0], words[1:]))
    reports = []
    with open(args.out, "w") as out:
        for _ in range(args.runs):
            for name, folder, extra in builds:
                report = one_run(name, folder, extra, args.clients, args.rounds)
                print(json.dumps(report), flush=True)
                out.write(json.dumps(report) + "\n")
                reports.append(report)
    print()
    print("| build | runs | work a command, ms (server + PostgreSQL) | server | PostgreSQL | p99 ms | commands/s | errors |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for name, _, _ in builds:
        mine = [r for r in reports if r["build"] == name]
        median = lambda key: statistics.median(r[key] for r in mine)
        print(
            f"| {name} | {len(mine)} | {median('work_ms_a_command'):.3f} | {median('server_ms_a_command'):.3f} | "
            f"{median('postgres_ms_a_command'):.3f} | {median('latency_p99_ms'):.1f} | "
            f"{median('commands_per_sec'):.0f} | {sum(r['errors'] for r in mine)} |"
        )


if __name__ == "__main__":
    main()
