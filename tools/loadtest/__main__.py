"""The command line: `python -m tools.loadtest [crash] [options]` (see the package's docstring)."""

from __future__ import annotations

import argparse
import json
import random
import shlex
import sys
import time
from pathlib import Path

import tools.loadtest
from tools.loadtest.actors import Scorekeeper
from tools.loadtest.log import Log
from tools.loadtest.phases import crash_phase, log_in, phase_a, phase_b
from tools.loadtest.seed import PASSWORD, Plan, seed
from tools.loadtest.servers import Environment, Servers, machine_load, prepare
from tools.loadtest.verify import failures, verify


def parse_options(argv: list[str] | None) -> argparse.Namespace:
    """The options, with the defaults that depend on the mode filled in."""
    parser = argparse.ArgumentParser(
        prog="python -m tools.loadtest",
        description=tools.loadtest.__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("mode", nargs="?", choices=["run", "crash", "capacity"], default="run")
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--seconds", type=float, help="phase A (60) or the crash run (30)")
    parser.add_argument("--scorekeepers", type=int, default=50)
    parser.add_argument("--viewers", type=int, help="viewers (200; 0 in a crash run)")
    parser.add_argument("--servers", type=int, choices=[1, 2], default=1)
    parser.add_argument("--redis", action="store_true", help="share a throwaway Redis it starts")
    parser.add_argument("--cache-in-memory", action="store_true", help="caches' files in /dev/shm")
    parser.add_argument("--workers", type=int, help="gunicorn workers per server (3, or 2 x 2)")
    parser.add_argument("--threads", type=int, default=4, help="threads per worker (4; 1: sync)")
    parser.add_argument("--season-games", type=int, help="games in the big season (1000)")
    parser.add_argument("--bench-seconds", type=float, default=10)
    parser.add_argument("--bench-threads", type=int, default=8)
    parser.add_argument("--bench-games", type=int, default=60, help="seeded games per thread")
    parser.add_argument("--kills", type=int, default=1, help="crash: times the servers die")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    add_capacity_options(parser)
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    options = parser.parse_args(argv)
    options.crash = options.mode == "crash"
    if options.mode == "capacity":
        options.season_games = 1000 if options.season_games is None else options.season_games
        options.workers = options.workers or 2
        options.bench_threads = options.viewers = 0
    if options.servers == 2 and options.db != "postgres":
        parser.error("two servers share one database: use --db postgres")
    if options.redis and options.cache_in_memory:
        parser.error("--cache-in-memory is for the caches of files, without Redis: drop --redis")
    options.seconds = options.seconds or (30 if options.crash else 60)
    if options.viewers is None:
        options.viewers = 0 if options.crash else 200
    if options.season_games is None:
        options.season_games = 0 if options.crash else 1000
    options.workers = options.workers or (3 if options.servers == 1 else 2)
    if options.crash:
        options.bench_threads = 0
    options.bench = options.bench_threads > 0 and options.bench_seconds > 0 and not options.crash
    return options


def add_capacity_options(parser: argparse.ArgumentParser) -> None:
    capacity = parser.add_argument_group("capacity")
    capacity.add_argument("--tables-start", type=int, default=100, help="first step's tables")
    capacity.add_argument("--max-tables", type=int, default=1500, help="tables seeded (1500)")
    capacity.add_argument("--tables-growth", type=float, default=0.5, help="+50%% a step")
    capacity.add_argument("--step-seconds", type=float, default=40)
    capacity.add_argument(
        "--compress", type=float, default=1, help="deals, pages, standings C x as often (1)"
    )
    capacity.add_argument("--connections", type=int, default=64, help="keep-alive connections")
    capacity.add_argument(
        "--follow",
        choices=["stream", "poll"],
        default="stream",
        help="how phones learn of a deal: an event stream each (the page today) or a poll"
        " every 2 s (before)",
    )


def seed_plan(options: argparse.Namespace, environment: Environment) -> Plan:
    """Seed the fresh database, and leave the plan (with the password) beside it."""
    started = time.perf_counter()
    plan = seed(
        keepers=options.scorekeepers,
        viewers=options.viewers,
        season_games=options.season_games,
        bench_threads=options.bench_threads if options.bench else 0,
        bench_games_each=options.bench_games,
        rng=random.Random(options.seed),
    )
    print(
        f"seeded {options.scorekeepers} scorekeepers (own club, game in progress),"
        f" {options.viewers} viewers, a season of {options.season_games:,} finished games"
        f" in {time.perf_counter() - started:.1f} s"
    )
    (environment.var / "loadtest-plan.json").write_text(
        json.dumps({"password": PASSWORD, **plan.__dict__}, default=lambda o: o.__dict__)
    )
    return plan


def run_phases(options, plan: Plan, servers: Servers, log: Log, summary: dict) -> list[float]:
    """Log the scorekeepers in, then the crash or phases A and B; the kills' times."""
    think = (0.0, 0.3) if options.crash else (0.5, 1.5)
    scorekeepers = [
        Scorekeeper(
            f"keeper{index}",
            keeper,
            servers.addresses,
            log,
            seed=options.seed * 100_000 + index,
            think=think,
            crash=options.crash,
        )
        for index, keeper in enumerate(plan.keepers)
    ]
    servers.start()
    print(servers.describe())
    print(machine_load())
    playing = log_in(scorekeepers, log)
    if options.crash:
        summary["crash"] = result = crash_phase(options, servers, playing, log)
        return result["kills"]
    summary["phase_a"] = phase_a(options, plan, servers, scorekeepers, playing, log)
    if options.bench:
        summary["phase_b"] = phase_b(options, plan, servers, log)
    return []


def main(argv: list[str] | None = None) -> int:
    options = parse_options(argv)
    if options.mode == "capacity":
        from tools.loadtest.capacity_run import capacity_main

        return capacity_main(options)
    summary: dict[str, object] = {"mode": options.mode, "db": options.db}
    with Environment.for_options(options) as environment:
        print(
            f"== {'crash' if options.crash else 'load'} test on {options.db}"
            f" ({environment.database}), {options.servers} server(s):"
            f" python -m tools.loadtest {shlex.join(sys.argv[1:])}"
        )
        print(environment.describe_cache())
        summary["cache"] = environment.env.get("REDIS_URL") or environment.cache_place
        print(f"migrated and collected static files in {prepare(environment):.1f} s")
        plan = seed_plan(options, environment)
        from django.db import connections

        connections.close_all()
        log = Log()
        servers = Servers(environment, options.servers, options.workers, options.threads)
        try:
            kills = run_phases(options, plan, servers, log, summary)
        except BaseException:
            print(servers.log_tail())
            raise
        finally:
            servers.stop()
        if log.errors:
            print(servers.log_tail())
        if figures := environment.cache_figures():
            print(figures)
        clubs = [f"Table {index}" for index in range(options.scorekeepers)] + ["Bench"]
        summary["check"] = check = verify(log, clubs, kills)
    failed = failures(check)
    summary["passed"] = not failed
    print(machine_load())
    print("RESULT:", "PASS — nothing lost, doubled or errored" if not failed else "FAIL")
    if options.json:
        options.json.write_text(json.dumps(summary, indent=2, default=str))
    return 0 if not failed else 1


if __name__ == "__main__":
    sys.exit(main())
