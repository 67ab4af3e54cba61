"""The capacity run: tables of four phones one core serves (docs/performance.md)."""

import asyncio
import itertools
import os
import resource
import time

from tools.loadtest import phones
from tools.loadtest.log import Log, percentile
from tools.loadtest.seed import Plan
from tools.loadtest.servers import Served, core_times, cpu_total, own_cpu_seconds
from tools.loadtest.wire import Pool

LIMIT_MS = 300.0  # the p95 every kind of request must stay under
SERVER_CORE, CLIENT_CORE = 0, 1
ARRIVALS_PER_SECOND = 20  # phones sitting down, each loading its game page for the first time
SETTLE_SECONDS = 15  # after the last arrival, before a step's figures: not the arrivals' queue
CLIENTS_BUSY = 0.9  # the clients' core busier: the phones are late, the step says nothing
SERVER_IDLE = 0.5  # a step failed with the server's core less busy: the time went elsewhere
clock = time.monotonic  # a step's wall time (a test's own clock in its place)


def prepare_machine() -> int | None:
    """Open files up to the hard limit, for every stream's sockets; the servers' core, if any."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 1 << 16 if hard == resource.RLIM_INFINITY else hard
    resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    print(f"open files: up to {wanted:,} (clients and servers)")
    return SERVER_CORE if SERVER_CORE in os.sched_getaffinity(0) else None


def capacity(options, plan: Plan, servers: Served, log: Log) -> dict:
    """Pin the clients to their core, say what a step is, run the steps, and give the figures."""
    if CLIENT_CORE in os.sched_getaffinity(0):
        os.sched_setaffinity(0, {CLIENT_CORE})
        print(f"clients pinned to core {CLIENT_CORE}")
    print(
        f"-- tables of 4 phones following their game, time compressed {options.compress:g}x"
        f" (docs/performance.md); from {options.tables_start} tables,"
        f" +{options.tables_growth:.0%} every {options.step_seconds:g} s until a p95 passes"
        f" {LIMIT_MS:.0f} ms"
    )
    cpu_server, cpu_own = cpu_total(servers), own_cpu_seconds()
    steps = asyncio.run(ramp(options, plan, servers, log))
    cpu_server, cpu_own = cpu_total(servers) - cpu_server, own_cpu_seconds() - cpu_own
    print(f"CPU: server {cpu_server:.1f} s, clients {cpu_own:.1f} s")
    return {
        "steps": steps,
        "capacity": conclude(steps),
        "cpu_seconds": {"server": cpu_server, "clients": cpu_own},
        "counts": dict(log.counts),
    }


def sit_down(run: phones.Run, plan: Plan, index: int) -> list[phones.Phone]:
    """Table `index`'s phones: its scorekeeper's first, then the club's three members'."""
    keeper = plan.keepers[index]
    sessions = [keeper.session, *plan.viewer_sessions[index :: len(plan.keepers)]]
    table = phones.Table(keeper.club, keeper.game)
    return [
        phones.Phone(run, table, f"table {index} phone {n}", {"sessionid": s}, scorekeeper=n == 0)
        for n, s in enumerate(sessions)
    ]


async def ramp(options, plan: Plan, servers: Served, log: Log) -> list[dict]:
    """Add tables step by step until a step fails or every seeded table is in."""
    following: list[asyncio.Task] = []
    steps: list[dict] = []
    seated, tables = 0, min(options.tables_start, len(plan.keepers))
    async with Pool(servers.addresses) as pool:
        run = phones.Run(pool, log, plan.standings, compress=options.compress)
        try:
            while True:
                arriving = [p for i in range(seated, tables) for p in sit_down(run, plan, i)]
                spread = max(
                    min(20.0, options.step_seconds / 2), len(arriving) / ARRIVALS_PER_SECOND
                )
                following += [asyncio.create_task(phones.follow(p, spread)) for p in arriving]
                seated = tables
                await asyncio.sleep(spread + min(SETTLE_SECONDS, options.step_seconds))
                steps.append(step := await measure(options, servers, log, tables))
                if not step["ok"] or tables >= len(plan.keepers):
                    return steps
                tables = min(
                    len(plan.keepers), tables + max(1, int(tables * options.tables_growth))
                )
        finally:
            run.stop_at = 0.0
            await asyncio.gather(*following, return_exceptions=True)


async def measure(options, servers: Served, log: Log, tables: int) -> dict:
    """One step's figures over `--step-seconds` (the server's own p95s by Server-Timing metric)."""
    marks = {kind: len(values) for kind, values in log.latency.items()}
    server_marks = {key: len(values) for key, values in log.server_time.items()}
    errors, delays, counts = len(log.errors), len(log.delays), log.counts.copy()
    cpu, own, started, cores = servers.cpu_seconds(), own_cpu_seconds(), clock(), core_times()
    await asyncio.sleep(options.step_seconds)
    wall, cores_after = clock() - started, core_times()
    spent = {name: now - cpu.get(name, 0.0) for name, now in servers.cpu_seconds().items()}
    figures = {
        kind: {
            "n": len(taken),
            "p95_ms": percentile(taken, 0.95) * 1000,
            "per_second": len(taken) / wall,
            "server_p95_ms": {
                metric: percentile(times[server_marks.get((timed, metric), 0) :], 0.95) * 1000
                for (timed, metric), times in log.server_time.items()
                if timed == kind and len(times) > server_marks.get((timed, metric), 0)
            },
        }
        for kind, values in log.latency.items()
        if (taken := values[marks.get(kind, 0) :])
    }
    step_delays = log.delays[delays:]
    step = {
        "tables": tables,
        "requests": figures,
        "worst_p95_ms": max((figure["p95_ms"] for figure in figures.values()), default=0.0),
        "delay_p95_s": percentile(step_delays, 0.95) if step_delays else None,
        "deals_followed": len(step_delays),
        "counts": dict(log.counts - counts),
        "server_cpu_share": cpu_share(sum(spent.values()), wall),
        # Where the server's core went: each server's share (gunicorn, uvicorn, nginx, Redis).
        "server_cpu_by_process": {
            name: cpu_share(seconds, wall) for name, seconds in spent.items()
        },
        "clients_cpu_share": cpu_share(own_cpu_seconds() - own, wall),
        # How busy each core was with everything on it, others' work too (None: not known).
        "server_core_busy": core_busy(cores, cores_after, SERVER_CORE),
        "clients_core_busy": core_busy(cores, cores_after, CLIENT_CORE),
        "errors": len(log.errors) - errors,
    }
    step["limited_by"] = limited_by(step)
    step["ok"] = step["limited_by"] is None
    print_step(step)
    return step


def cpu_share(cpu_seconds: float, wall_seconds: float) -> float:
    """How busy a core was: its processes' CPU time over the wall time (1.0: all of it)."""
    return cpu_seconds / wall_seconds if wall_seconds > 0 else 0.0


def core_busy(before: dict, after: dict, core: int) -> float | None:
    """The share of `core`'s time it was busy between two readings of `core_times()`."""
    if core not in before or core not in after or after[core][1] == before[core][1]:
        return None
    return (after[core][0] - before[core][0]) / (after[core][1] - before[core][1])


def limited_by(step: dict) -> str | None:
    """What stopped the step (None: a pass): the load generator (its core busy), or the server."""
    if step["clients_cpu_share"] > CLIENTS_BUSY:
        return "load generator"
    if step["worst_p95_ms"] > LIMIT_MS or step["errors"]:
        return "server"
    return None


def print_step(step: dict) -> None:
    """The step's line; where the time went, if it failed with the server's core under half busy."""
    parts = [
        f"{kind} {figure['per_second']:.0f}/s p95 {figure['p95_ms']:.0f} ms"
        for kind, figure in step["requests"].items()
    ]
    delay = step["delay_p95_s"]
    parts.append(f"deal to all 4 phones p95 {delay:.2f} s" if delay is not None else "no deal")
    parts += [f"{count} {name}" for name, count in step["counts"].items()]
    each = step["server_cpu_by_process"]
    by_process = ", ".join(f"{name} {share:.0%}" for name, share in each.items())
    parts.append(
        f"CPU: server {step['server_cpu_share']:.0%} of its core{in_all(step['server_core_busy'])}"
        + (f" ({by_process})" if len(each) > 1 else "")
        + f", clients {step['clients_cpu_share']:.0%} of theirs{in_all(step['clients_core_busy'])}"
    )
    if step["errors"]:
        parts.append(f"errors {step['errors']}")
    if step["limited_by"] == "load generator":
        parts.append("limited by the load generator: no pass")
    print(f"  {step['tables']:>5} tables: " + "; ".join(parts), flush=True)
    if not step["ok"] and step["server_cpu_share"] < SERVER_IDLE:
        print("\n".join(where_the_time_went(step)), flush=True)


def in_all(busy: float | None) -> str:
    return "" if busy is None else f" (busy {busy:.0%} in all)"


def where_the_time_went(step: dict) -> list[str]:
    """Per kind of request, the p95 the phones saw against the server's own (Server-Timing)."""
    lines = [
        f"  the step failed with the server {step['server_cpu_share']:.0%} busy on its core"
        f"{in_all(step['server_core_busy'])}; p95 the phones saw / of Django's whole handling"
        " (middleware, thread hops, view) / of the view (with its wait for Django's thread):"
    ]
    for kind, figure in step["requests"].items():
        seen, own = figure["p95_ms"], figure["server_p95_ms"]
        if "app" not in own:
            lines.append(f"    {kind}: {seen:.0f} ms seen; the server gave no timing")
            continue
        view = f" / {own['view']:.0f} ms" if "view" in own else ""
        lines.append(
            f"    {kind}: {seen:.0f} ms / {own['app']:.0f} ms{view}:"
            f" {seen - own['app']:.0f} ms outside Django (queues, network, event loops)"
        )
    return lines


def conclude(steps: list[dict]) -> int:
    """The tables of the last step that passed before any failed; printed, what stopped the ramp."""
    passed = list(itertools.takewhile(lambda step: step["ok"], steps))
    if passed:
        print(f"last step under {LIMIT_MS:.0f} ms: {passed[-1]['tables']} tables (its line above)")
    if len(passed) == len(steps):
        print("every seeded table was served: raise --max-tables to find the limit")
    elif (failed := steps[len(passed)])["limited_by"] == "load generator":
        print(
            f"stopped at {failed['tables']} tables, limited by the load generator: that step is"
            " no pass, and the capacity below is a floor: give the clients a core of their own"
        )
    else:
        print(f"stopped at {failed['tables']} tables: a p95 over the limit, or an error")
    return passed[-1]["tables"] if passed else 0
