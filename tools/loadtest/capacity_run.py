"""`python -m tools.loadtest capacity`: the run around tools/loadtest/capacity.py's phones, its
steps, and what it prints: every step, the check of the database, and
`capacity: N tables per core` last.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import resource
import shlex
import sys
import time

from tools.loadtest.capacity import (
    FALLBACK_SECONDS,
    KINDS,
    LIMIT_MS,
    POLL_SECONDS,
    Phone,
    Run,
    Table,
    follow,
)
from tools.loadtest.log import Log, percentile
from tools.loadtest.seed import seed_capacity
from tools.loadtest.servers import Environment, Servers, machine_load, own_cpu_seconds, prepare
from tools.loadtest.verify import failures, verify
from tools.loadtest.wire import Pool

SERVER_CORE, CLIENT_CORE = 0, 1
ARRIVALS_PER_SECOND = 20  # phones sitting down, each loading its game page for the first time
SETTLE_SECONDS = 15  # after the last arrival, before a step's figures start
# Then, until the last SETTLE_WINDOW seconds' p95 is under a third of the limit (at most
# SETTLE_MAX_SECONDS): the arrivals' page loads can leave a queue, and a step measures the
# tables following their games, not the tail of a queue made by their sitting down.
SETTLE_WINDOW = 5.0
SETTLE_MAX_SECONDS = 180.0


def capacity_main(options) -> int:
    command = "python -m tools.loadtest " + shlex.join(sys.argv[1:])
    summary: dict[str, object] = {"mode": "capacity", "db": options.db, "command": command}
    with Environment.for_options(options) as environment:
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
        print(raise_open_files())  # before the servers start: they inherit it
        cores = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else set()
        pin = SERVER_CORE if SERVER_CORE in cores else None
        streams = options.follow == "stream"
        servers = Servers(environment, 1, options.workers, options.threads, pin, streams)
        log = Log()
        servers.start()
        pin_to(CLIENT_CORE)
        print(servers.describe() + f"; clients on core {CLIENT_CORE}")
        print(machine_load())
        print(explain(options))
        cpu_server, cpu_own = servers.cpu_by_server(), own_cpu_seconds()
        try:
            steps = asyncio.run(ramp(options, plan, servers, log))
        finally:
            cpu = {
                name: seconds - cpu_server[name]
                for name, seconds in servers.cpu_by_server().items()
            }
            cpu_own = own_cpu_seconds() - cpu_own
            servers.stop()
        if log.errors:
            print(servers.log_tail())
        print(f"CPU: {cpu_line(cpu)}, clients {cpu_own:.1f} s; {machine_load()}")
        summary["steps"], summary["cpu_seconds"] = steps, cpu | {"clients": cpu_own}
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


def raise_open_files() -> str:
    """Every stream is a socket on both sides: open files up to the hard limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        wanted = 1 << 16 if hard == resource.RLIM_INFINITY else hard
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        soft = wanted
    return f"open files: up to {soft:,} (clients and servers)"


def cpu_line(cpu: dict[str, float]) -> str:
    if cpu.get("asgi"):
        total = cpu["wsgi"] + cpu["asgi"]
        pages, streams = cpu["wsgi"], cpu["asgi"]
        return f"server {total:.1f} s (pages, WSGI {pages:.1f} s; streams, ASGI {streams:.1f} s)"
    return f"server {cpu['wsgi']:.1f} s"


def explain(options) -> str:
    compress = options.compress
    if options.follow == "stream":
        how = (
            f"each holding its game's event stream and fetching the board when it names a newer"
            f" version, polling every {FALLBACK_SECONDS:.0f} s beside it (every"
            f" {POLL_SECONDS:.0f} s while it is down)"
        )
    else:
        how = f"each polling every {POLL_SECONDS:.0f} s with its page's pass"
    return (
        f"-- tables of 4 phones, {how}; per phone a page"
        f" load every ~{300 / compress:.0f} s and the standings every ~{600 / compress:.0f} s,"
        f" a deal per table every {60 / compress:.0f}-{120 / compress:.0f} s (time compressed"
        f" {compress:g}x for those, not for the polls); phones sit down at most"
        f" {ARRIVALS_PER_SECOND} a second, not counted; from {options.tables_start} tables,"
        f" +{options.tables_growth:.0%} every {options.step_seconds:g} s until a p95 (a stream's"
        f" answer too) passes {LIMIT_MS:.0f} ms"
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


def pin_to(cpu: int) -> None:
    """Run this process (the clients) on one core only, where it has one."""
    if hasattr(os, "sched_setaffinity") and cpu in os.sched_getaffinity(0):
        os.sched_setaffinity(0, {cpu})


def table_of(index: int, plan) -> Table:
    keeper = plan.keepers[index]
    return Table(keeper.club, keeper.game, plan.capacity_sessions[index])


async def settle(run: Run) -> float:
    """Wait until the server has caught up (see SETTLE_WINDOW); the seconds it took."""
    started = time.perf_counter()
    while time.perf_counter() - started < SETTLE_MAX_SECONDS:
        for kind in KINDS:
            run.latency[kind] = []
        await asyncio.sleep(SETTLE_WINDOW)
        answered = [seconds for values in run.latency.values() for seconds in values]
        if answered and percentile(answered, 0.95) * 1000 < LIMIT_MS / 3:
            break
    return time.perf_counter() - started


async def step_up(run: Run, plan, options, servers, started: list[asyncio.Task], tables: int):
    """Bring the tables up to `tables`, run one step, and give its figures. The new phones'
    first page loads (every phone opens its game, and its stream) are left out of the step's
    figures: a table sits down once, and then follows its game for hours. They come at most
    ARRIVALS_PER_SECOND a second: each is a page rendered anew, and hundreds at once would
    leave a queue the step would measure instead of the tables."""
    arriving = 4 * (tables - len(started) // 4)
    arrive_within = max(min(20.0, options.step_seconds / 2), arriving / ARRIVALS_PER_SECOND)
    for index in range(len(started) // 4, tables):
        table = table_of(index, plan)
        for phone_index, session in enumerate(table.sessions):
            phone = Phone(table, phone_index, {"sessionid": session})
            started.append(asyncio.create_task(follow(run, phone, arrive_within)))
    await asyncio.sleep(arrive_within + POLL_SECONDS + SETTLE_SECONDS)
    settled = await settle(run)
    for kind in KINDS:
        run.latency[kind] = []
    run.delays, run.errors, run.ended, run.on_event, run.silent = [], 0, 0, 0, 0
    cpu_before = servers.cpu_by_server()
    await asyncio.sleep(options.step_seconds)
    cpu = {name: seconds - cpu_before[name] for name, seconds in servers.cpu_by_server().items()}
    figures = {
        kind: {
            "n": len(values),
            "p95_ms": percentile(values, 0.95) * 1000,
            "per_second": len(values) / options.step_seconds,
        }
        for kind, values in run.latency.items()
        if values
    }
    worst = max((figure["p95_ms"] for figure in figures.values()), default=0.0)
    delays = sorted(run.delays)
    return {
        "tables": tables,
        "settled_s": settled,
        "requests": figures,
        "worst_p95_ms": worst,
        "delay_p95_s": percentile(delays, 0.95) if delays else None,
        "deals_followed": len(delays),
        "boards_on_event": run.on_event,
        "streams_ended": run.ended,
        "streams_silent": run.silent,
        "server_cpu_share": {name: seconds / options.step_seconds for name, seconds in cpu.items()},
        "errors": run.errors,
        "ok": worst <= LIMIT_MS and run.errors == 0,
    }


def step_line(step: dict) -> str:
    parts = []
    for kind, figure in step["requests"].items():
        parts.append(f"{kind} {figure['per_second']:.0f}/s p95 {figure['p95_ms']:.0f} ms")
    delay = step["delay_p95_s"]
    parts.append(f"deal to all 4 phones p95 {delay:.2f} s" if delay is not None else "no deal")
    share = step["server_cpu_share"]
    cpu = f"server CPU {share['wsgi']:.0%} WSGI"
    if "stream open" in step["requests"] or share["asgi"]:
        cpu += f" + {share['asgi']:.0%} ASGI"
        parts.append(f"{step['boards_on_event']} boards fetched on an event")
        parts.append(f"{step['streams_ended']} streams ended" if step["streams_ended"] else "")
        silent = step["streams_silent"]
        parts.append(f"{silent} streams dropped as silent" if silent else "")
    parts.append(cpu + " of the core")
    parts.append(f"(caught up {step['settled_s']:.0f} s after the arrivals)")
    parts.append(f"errors {step['errors']}" if step["errors"] else "")
    return f"  {step['tables']:>5} tables: " + "; ".join(part for part in parts if part)


async def ramp(options, plan, servers, log: Log) -> list[dict]:
    """Add tables step by step until a step fails or every seeded table is in."""
    pool = Pool(servers.addresses[0], options.connections)
    run = Run(pool, log, options, plan.standings, servers.stream_address)
    run.stop_at = time.monotonic() + 10**6
    started: list[asyncio.Task] = []
    steps = []
    tables = min(options.tables_start, len(plan.keepers))
    while True:
        step = await step_up(run, plan, options, servers, started, tables)
        steps.append(step)
        print(step_line(step), flush=True)
        if not step["ok"] or tables >= len(plan.keepers):
            break
        tables = min(len(plan.keepers), tables + max(1, int(tables * options.tables_growth)))
    run.stop_at = 0.0
    await asyncio.gather(*started, return_exceptions=True)
    return steps
