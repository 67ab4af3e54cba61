"""The command line: `python -m tools.loadtest [run|crash|capacity] [options]`."""

import argparse
import asyncio
import json
import os
import shlex
import signal
import sys
import time
from pathlib import Path

import tools.loadtest
from tools.loadtest import capacity, phases
from tools.loadtest.log import Log
from tools.loadtest.seed import seed
from tools.loadtest.servers import SERVERS, Environment, collect_static, machine_load
from tools.loadtest.verify import failures, verify


def option_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tools.loadtest",
        description=tools.loadtest.__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("mode", nargs="?", choices=["run", "crash", "capacity"], default="run")
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--servers", type=int, choices=[1, 2], default=1, help="make run's uvicorn")
    parser.add_argument("--redis", action="store_true", help="a throwaway Redis, shared")
    parser.add_argument("--layout", choices=SERVERS, default="run", help="make run, or run-server")
    parser.add_argument("--seconds", type=float, help="phase A (60) or the crash run (30)")
    parser.add_argument("--scorekeepers", type=int, default=50)
    parser.add_argument("--viewers", type=int, default=200, help="phase A's (a crash: one a table)")
    parser.add_argument("--season-games", type=int, help="games in the big season (1000)")
    parser.add_argument("--bench-seconds", type=float, default=10, help="phase B, each kind")
    parser.add_argument("--bench-clients", type=int, default=8)
    parser.add_argument("--bench-games", type=int, default=60, help="seeded games per client")
    group = parser.add_argument_group("capacity")
    group.add_argument("--tables-start", type=int, default=100, help="first step's tables")
    group.add_argument("--max-tables", type=int, default=1500, help="tables seeded")
    group.add_argument("--tables-growth", type=float, default=0.5, help="+50%% a step")
    group.add_argument("--step-seconds", type=float, default=40)
    group.add_argument("--compress", type=float, default=1, help="deals, pages C x as often")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    return parser


def parse_options(argv: list[str] | None = None) -> argparse.Namespace:
    """The options, with the defaults that depend on the mode filled in."""
    parser = option_parser()
    options = parser.parse_args(argv)
    if options.servers == 2 and options.db != "postgres":
        parser.error("two servers share one database: add --db postgres")
    if options.servers == 2 and not (options.redis or os.environ.get("REDIS_URL")):
        parser.error("two servers share Redis: add --redis (a throwaway one) or set REDIS_URL")
    if options.layout == "server" and (options.servers != 1 or options.redis):
        parser.error("--layout server has deploy/'s workers and Redis: drop --servers and --redis")
    options.crash = options.mode == "crash"
    options.seconds = options.seconds or (30 if options.crash else 60)
    if options.season_games is None:
        options.season_games = 0 if options.crash else 1000
    if options.mode == "capacity":
        options.scorekeepers, options.viewers = options.max_tables, 3 * options.max_tables
    elif options.crash:
        options.viewers = options.scorekeepers
    options.bench = options.mode == "run" and min(options.bench_clients, options.bench_seconds) > 0
    return options


def serve_and_play(options, environment: Environment, summary: dict) -> dict:
    """Seed, start the servers, run the mode, stop them, and check the database."""
    plan = seed(options)
    pin = capacity.prepare_machine() if options.mode == "capacity" else None
    servers, log = SERVERS[options.layout](environment, options.servers, pin), Log()
    kills: list[float] = []  # when the servers were killed (a crash run)
    try:
        with servers:
            print(servers.describe())
            print(machine_load())
            if options.mode == "capacity":
                summary |= capacity.capacity(options, plan, servers, log)
            else:
                kills = asyncio.run(phases.play(options, plan, servers, log, summary))
    except BaseException:
        print(servers.log_tail())
        raise
    if log.errors:
        print(servers.log_tail())
    clubs = [f"Table {index}" for index in range(len(plan.keepers))] + ["Bench"]
    return verify(log, clubs, kills)


def main(argv: list[str] | None = None) -> int:
    options = parse_options(argv)
    # Stopped by SIGTERM, it unwinds too: its Redis, database and directory go.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))
    command = "python -m tools.loadtest " + shlex.join(sys.argv[1:] if argv is None else argv)
    summary: dict[str, object] = {"mode": options.mode, "db": options.db, "command": command}
    print(f"== {options.mode}: {command}")
    started = time.perf_counter()
    with (
        Environment(options.db, options.keep, options.redis, options.layout) as environment,
        environment.fresh_database(),
    ):
        print(environment.describe())
        summary["redis"] = environment.env.get("REDIS_URL", "")
        collect_static()
        print(f"database and static files made in {time.perf_counter() - started:.1f} s")
        summary["check"] = check = serve_and_play(options, environment, summary)
    summary["passed"] = passed = not failures(check)
    print(machine_load())
    print("RESULT:", "PASS — nothing lost, doubled, half-written or errored" if passed else "FAIL")
    if options.mode == "capacity":
        print(f"capacity: {summary['capacity']} tables per core")
    if options.json:
        options.json.write_text(json.dumps(summary, indent=2, default=str))
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
