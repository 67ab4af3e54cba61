"""`python -m tools.loadtest capacity`: the run around tools/loadtest/capacity.py's steps, and
what it prints: every step, the check of the database, and `capacity: N tables per core` last.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import shlex
import sys
import time

from tools.loadtest.capacity import LIMIT_MS, pin_to, ramp
from tools.loadtest.log import Log
from tools.loadtest.seed import seed_capacity
from tools.loadtest.servers import Environment, Servers, machine_load, own_cpu_seconds, prepare
from tools.loadtest.verify import failures, verify

SERVER_CORE, CLIENT_CORE = 0, 1


def capacity_main(options) -> int:
    command = "python -m tools.loadtest " + shlex.join(sys.argv[1:])
    summary: dict[str, object] = {"mode": "capacity", "db": options.db, "command": command}
    with Environment(options.db, options.keep, redis=options.redis) as environment:
        print(f"== capacity on {options.db} ({environment.database}): {command}")
        print(environment.describe_cache())
        print(f"migrated and collected static files in {prepare(environment):.1f} s")
        started = time.perf_counter()
        plan = seed_capacity(
            tables=options.max_tables,
            season_games=options.season_games,
            rng=random.Random(options.seed),
        )
        print(
            f"seeded {options.max_tables} tables (a club, a game, 4 signed-in phones each) and"
            f" a season of {options.season_games:,} games in {time.perf_counter() - started:.0f} s"
        )
        from django.db import connections

        connections.close_all()
        cores = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else set()
        pin = SERVER_CORE if SERVER_CORE in cores else None
        servers = Servers(environment, 1, options.workers, options.threads, pin=pin)
        log = Log()
        servers.start()
        pin_to(CLIENT_CORE)
        print(servers.describe() + f"; clients on core {CLIENT_CORE}")
        print(machine_load())
        print(explain(options))
        cpu_server, cpu_own = servers.cpu_seconds(), own_cpu_seconds()
        try:
            steps = asyncio.run(ramp(options, plan, servers, log))
        finally:
            cpu = servers.cpu_seconds() - cpu_server, own_cpu_seconds() - cpu_own
            servers.stop()
        print(f"CPU: server {cpu[0]:.1f} s, clients {cpu[1]:.1f} s; {machine_load()}")
        summary["steps"] = steps
        clubs = [f"Table {index}" for index in range(options.max_tables)]
        summary["check"] = check = verify(log, clubs, [])
    failed = failures(check)
    summary["passed"] = not failed
    summary["capacity"] = capacity = conclude(steps)
    print("RESULT:", "PASS — nothing lost, doubled or errored" if not failed else "FAIL")
    print(f"capacity: {capacity} tables per core")
    if options.json:
        options.json.write_text(json.dumps(summary, indent=2, default=str))
    return 0 if not failed else 1


def explain(options) -> str:
    compress = options.compress
    return (
        f"-- tables of 4 phones, each polling every 2 s with its page's pass; per phone a page"
        f" load every ~{300 / compress:.0f} s and the standings every ~{600 / compress:.0f} s,"
        f" a deal per table every {60 / compress:.0f}-{120 / compress:.0f} s (time compressed"
        f" {compress:g}x for those, not for the polls); from {options.tables_start} tables,"
        f" +{options.tables_growth:.0%} every {options.step_seconds:g} s until a p95 passes"
        f" {LIMIT_MS:.0f} ms"
    )


def conclude(steps: list[dict]) -> int:
    """The most tables of a step that kept every p95 under the limit, with what stopped it."""
    passed = [step for step in steps if step["ok"]]
    best = passed[-1] if passed else None
    failed = next((step for step in steps if not step["ok"]), None)
    if best is not None:
        delay = best["delay_p95_s"]
        print(
            f"last step under {LIMIT_MS:.0f} ms: {best['tables']} tables, worst p95"
            f" {best['worst_p95_ms']:.0f} ms; a deal reached all 4 phones of its table in"
            + (f" {delay:.2f} s (p95 of {best['deals_followed']})" if delay is not None else " —")
        )
    if failed is not None:
        print(
            f"stopped at {failed['tables']} tables: worst p95 {failed['worst_p95_ms']:.0f} ms,"
            f" {failed['errors']} errors"
        )
    else:
        print("every seeded table was served: raise --max-tables to find the limit")
    return best["tables"] if best is not None else 0
