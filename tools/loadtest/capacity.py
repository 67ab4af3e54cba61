"""The capacity run (`python -m tools.loadtest capacity`): how many tables of four phones one
core serves with the p95 of every kind of request at most 300 ms.

The servers are pinned to core 0 (`taskset`), the clients to core 1. A table is a game and its
four phones, following it as the game page does (tools/loadtest/phones.py): a stream each, the
board fetched on each new version, a poll every 5 minutes besides, the whole page about every 5
minutes and the big season's standings every 10; the scorekeeper records a deal every 60-120 s.
Tables are added in steps until the p95 of any kind of request (a stream's answer too) passes
300 ms, or anything errs: the capacity is the last step under it. Each step also gives the p95
delay from a deal told recorded to every phone of its table showing it (a target: at most 1 s).

`--compress C` brings deals, page loads and standings C times as often (the polls keep their
pace): a step is then as busy as the model or busier, and the figure errs low.
"""

from __future__ import annotations

import asyncio
import os
import resource

from tools.loadtest.log import Log, percentile
from tools.loadtest.phones import (
    DEAL_SECONDS,
    PAGE_SECONDS,
    STANDINGS_SECONDS,
    Phone,
    Run,
    Table,
    follow,
)
from tools.loadtest.seed import Plan
from tools.loadtest.servers import Servers, own_cpu_seconds
from tools.loadtest.wire import Pool

LIMIT_MS = 300.0  # the p95 every kind of request must stay under
SERVER_CORE, CLIENT_CORE = 0, 1
ARRIVALS_PER_SECOND = 20  # phones sitting down, each loading its game page for the first time
# After the last arrival, before a step's figures start (at most --step-seconds): a step
# measures the tables following their games, not the tail of a queue their sitting down left.
SETTLE_SECONDS = 15


def server_core() -> int | None:
    """The core the servers are pinned to, where this machine has it."""
    return SERVER_CORE if SERVER_CORE in os.sched_getaffinity(0) else None


def raise_open_files() -> str:
    """Every stream is a socket on both sides: open files up to the hard limit (the servers,
    started after, inherit it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 1 << 16 if hard == resource.RLIM_INFINITY else hard
    resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    return f"open files: up to {wanted:,} (clients and servers)"


def capacity(options, plan: Plan, servers: Servers, log: Log) -> dict:
    """Pin the clients to their core, run the steps, and give the summary's figures."""
    if CLIENT_CORE in os.sched_getaffinity(0):
        os.sched_setaffinity(0, {CLIENT_CORE})
        print(f"clients pinned to core {CLIENT_CORE}")
    print(explain(options))
    cpu_server, cpu_own = servers.cpu_seconds(), own_cpu_seconds()
    steps = asyncio.run(ramp(options, plan, servers, log))
    cpu_server, cpu_own = servers.cpu_seconds() - cpu_server, own_cpu_seconds() - cpu_own
    print(f"CPU: server {cpu_server:.1f} s, clients {cpu_own:.1f} s")
    return {
        "steps": steps,
        "capacity": conclude(steps),
        "cpu_seconds": {"server": cpu_server, "clients": cpu_own},
        "counts": dict(log.counts),
    }


def explain(options) -> str:
    c = options.compress
    return (
        f"-- tables of 4 phones following their game (see tools/loadtest/capacity.py), time"
        f" compressed {c:g}x: per phone a page every ~{PAGE_SECONDS / c:.0f} s, the standings"
        f" every ~{STANDINGS_SECONDS / c:.0f} s, a deal per table every {DEAL_SECONDS[0] / c:.0f}"
        f"-{DEAL_SECONDS[1] / c:.0f} s; phones sit down {ARRIVALS_PER_SECOND} a second at most,"
        f" not counted; from {options.tables_start} tables, +{options.tables_growth:.0%} every"
        f" {options.step_seconds:g} s until a p95 passes {LIMIT_MS:.0f} ms"
    )


def sit_down(run: Run, plan: Plan, index: int) -> list[Phone]:
    """Table `index`'s phones: its scorekeeper's first, then the club's three members'."""
    keeper = plan.keepers[index]
    sessions = [keeper.session, *plan.viewer_sessions[index :: len(plan.keepers)]]
    table = Table(keeper.club, keeper.game)
    return [
        Phone(run, table, f"table {index} phone {n}", {"sessionid": s}, scorekeeper=n == 0)
        for n, s in enumerate(sessions)
    ]


async def ramp(options, plan: Plan, servers: Servers, log: Log) -> list[dict]:
    """Add tables step by step until a step fails or every seeded table is in."""
    pool = Pool(servers.addresses, options.connections)
    run = Run(pool, log, plan.standings, compress=options.compress)
    following: list[asyncio.Task] = []
    steps: list[dict] = []
    seated, tables = 0, min(options.tables_start, len(plan.keepers))
    try:
        while True:
            arriving = [
                phone for index in range(seated, tables) for phone in sit_down(run, plan, index)
            ]
            arrive_within = max(
                min(20.0, options.step_seconds / 2), len(arriving) / ARRIVALS_PER_SECOND
            )
            following += [asyncio.create_task(follow(phone, arrive_within)) for phone in arriving]
            seated = tables
            await asyncio.sleep(arrive_within + min(SETTLE_SECONDS, options.step_seconds))
            steps.append(step := await measure(options, servers, log, tables))
            print(step_line(step), flush=True)
            if not step["ok"] or tables >= len(plan.keepers):
                return steps
            tables = min(len(plan.keepers), tables + max(1, int(tables * options.tables_growth)))
    finally:
        run.stop_at = 0.0
        await asyncio.gather(*following, return_exceptions=True)


async def measure(options, servers: Servers, log: Log, tables: int) -> dict:
    """One step: its figures over `--step-seconds`."""
    marks = {kind: len(values) for kind, values in log.latency.items()}
    errors, delays, counts = len(log.errors), len(log.delays), log.counts.copy()
    cpu = servers.cpu_seconds()
    await asyncio.sleep(options.step_seconds)
    seconds = options.step_seconds
    figures = {
        kind: {
            "n": len(taken),
            "p95_ms": percentile(taken, 0.95) * 1000,
            "per_second": len(taken) / seconds,
        }
        for kind, values in log.latency.items()
        if (taken := values[marks.get(kind, 0) :])
    }
    worst = max((figure["p95_ms"] for figure in figures.values()), default=0.0)
    step_delays = log.delays[delays:]
    return {
        "tables": tables,
        "requests": figures,
        "worst_p95_ms": worst,
        "delay_p95_s": percentile(step_delays, 0.95) if step_delays else None,
        "deals_followed": len(step_delays),
        "counts": dict(log.counts - counts),
        "server_cpu_share": (servers.cpu_seconds() - cpu) / seconds,
        "errors": len(log.errors) - errors,
        "ok": worst <= LIMIT_MS and len(log.errors) == errors,
    }


def step_line(step: dict) -> str:
    parts = [
        f"{kind} {figure['per_second']:.0f}/s p95 {figure['p95_ms']:.0f} ms"
        for kind, figure in step["requests"].items()
    ]
    delay = step["delay_p95_s"]
    parts.append(f"deal to all 4 phones p95 {delay:.2f} s" if delay is not None else "no deal")
    parts += [f"{count} {name}" for name, count in step["counts"].items()]
    parts.append(f"server CPU {step['server_cpu_share']:.0%} of the core")
    if step["errors"]:
        parts.append(f"errors {step['errors']}")
    return f"  {step['tables']:>5} tables: " + "; ".join(parts)


def conclude(steps: list[dict]) -> int:
    """The most tables of a step that kept every p95 under the limit, with what stopped it."""
    passed = [step for step in steps if step["ok"]]
    failed = next((step for step in steps if not step["ok"]), None)
    if passed:
        best, delay = passed[-1], passed[-1]["delay_p95_s"]
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
    return passed[-1]["tables"] if passed else 0
