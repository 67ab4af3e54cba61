"""The load run's phases and the crash run, as the package's docstring tells them."""

import asyncio
import contextlib
import math
import os
import time
import uuid
from collections.abc import Awaitable, Callable
from functools import partial

from tools.loadtest.handover import HandOver
from tools.loadtest.log import Log, latency_figures, percentile, print_latencies
from tools.loadtest.page import Page, board_of, login_form
from tools.loadtest.phones import (
    POLL_SECONDS,
    Failed,
    Phone,
    Run,
    Table,
    follow,
    guarded,
    keep_score,
    record,
)
from tools.loadtest.seed import PASSWORD, Plan
from tools.loadtest.servers import Served, cpu_total, own_cpu_seconds
from tools.loadtest.wire import Pool
from tools.server_layout import STOPPING_SECONDS

LOGINS_AT_ONCE = 8  # each a password hash holding a connection: phones arrive over minutes
PHASE_A_KINDS = ["record a deal", "game page", "poll", "stream open", "standings", "new game"]
PHASE_A_COMPRESS = 30  # phase A's viewers load pages and standings 30 times the model's pace
Action = Callable[[Phone], Awaitable[None]]


async def play(options, plan: Plan, servers: Served, log: Log, summary: dict) -> list[float]:
    """Log the scorekeepers in, then phases A and B, or the crash: when the servers stopped."""
    async with Pool(servers.addresses) as pool:
        # A crash's followers keep their page, at the model's pace: none opens another at once.
        compress = 1 if options.crash else PHASE_A_COMPRESS
        run = Run(pool, log, plan.standings, compress=compress, crash=options.crash)
        tables = [Table(keeper.club, keeper.game) for keeper in plan.keepers]
        keepers = [
            Phone(run, table, keeper.username, {}, scorekeeper=True, streams=False)
            for table, keeper in zip(tables, plan.keepers, strict=True)
        ]
        keepers = await log_in(keepers, log)
        viewers = [  # viewer i is a member of scorekeeper i % n's club
            Phone(run, tables[index % len(tables)], f"viewer{index}", {"sessionid": session})
            for index, session in enumerate(plan.viewer_sessions)
        ]
        if options.crash:
            summary["crash"] = result = await crash(options, servers, keepers, viewers, log)
            return result["stopped_at"]
        summary["phase_a"] = await phase_a(options, run, servers, keepers, viewers)
        if options.bench:
            summary["phase_b"] = await phase_b(options, plan, run, servers)
        return []


async def log_in(keepers: list[Phone], log: Log) -> list[Phone]:
    """Log the scorekeepers in as their phones do, LOGINS_AT_ONCE at a time; those that did."""
    at_once = asyncio.Semaphore(LOGINS_AT_ONCE)

    async def one(phone: Phone) -> Phone | None:
        phone.give_up = time.monotonic() + 300
        async with at_once:
            with contextlib.suppress(Failed):
                reply = await phone.send("login page", "GET", "/accounts/login/")
                form = login_form(Page(reply.body), phone.name, PASSWORD)
                if reply.status != 200 or form is None:
                    raise phone.error(f"login page answered {reply.status}")
                reply = await phone.send("log in", "POST", "/accounts/login/", form)
                if reply.status != 302 or "sessionid" not in phone.cookies:
                    raise phone.error(f"logging in answered {reply.status}")
                return phone
        return None

    started = time.perf_counter()
    done = [phone for phone in await asyncio.gather(*map(one, keepers)) if phone is not None]
    print(
        f"-- logging in, {LOGINS_AT_ONCE} at a time: {len(done)} of {len(keepers)} scorekeepers"
        f" in {time.perf_counter() - started:.1f} s"
    )
    print_latencies(log, ["login page", "log in"])
    return done


async def phase_a(options, run: Run, servers: Served, keepers, viewers) -> dict:
    """Scorekeepers record deals 0.5-1.5 s apart while the viewers follow their games."""
    print(
        f"-- phase A: {options.seconds:g} s, {len(keepers)} scorekeepers (think 0.5-1.5 s),"
        f" {len(viewers)} viewers following their games as the page does (a stream each; the"
        f" page every ~10 s, the standings of a {options.season_games:,}-game season every ~20 s)"
    )
    log = run.log
    requests, cpu = log.requests, (cpu_total(servers), own_cpu_seconds())
    counts, told = log.counts.copy(), len(log.told)
    started = time.monotonic()
    run.stop_at = deadline = started + options.seconds
    playing = [keep_score(phone, (0.5, 1.5), deadline, 30) for phone in keepers]
    playing += [follow(phone, min(5.0, options.seconds / 4)) for phone in viewers]
    await asyncio.wait_for(asyncio.gather(*playing), options.seconds + 120)
    wall = time.monotonic() - started
    requests = log.requests - requests
    server_cpu, own_cpu = cpu_total(servers) - cpu[0], own_cpu_seconds() - cpu[1]
    print(f"requests: {requests:,} in {wall:.1f} s = {requests / wall:.1f} requests/s")
    print_latencies(log, PHASE_A_KINDS)
    print("  " + ", ".join(f"{name}: {count:,}" for name, count in sorted(log.counts.items())))
    if log.delays:
        print(
            f"a deal recorded reached every phone of its table in"
            f" {percentile(log.delays, 0.95):.2f} s (p95 of {len(log.delays):,})"
        )
    print(
        f"CPU: servers {server_cpu:.1f} s, load generator {own_cpu:.1f} s"
        f" (in {wall:.1f} s on {os.cpu_count()} cores)"
    )
    each, counts, deals = {}, log.counts - counts, len(log.told) - told
    if deals:
        each["boards fetched"] = counts["boards fetched on an event"] / deals
        each["deltas taken"] = counts["deltas taken from the stream"] / deals
        each["server_cpu_ms"] = server_cpu / deals * 1000
        print(
            f"per deal recorded: {each['boards fetched']:.2f} boards fetched on an event,"
            f" {each['deltas taken']:.2f} deltas taken from the stream,"
            f" servers' CPU {each['server_cpu_ms']:.1f} ms"
        )
    return {
        "requests_per_second": requests / wall,
        "latency_ms": latency_figures(log, PHASE_A_KINDS),
        "delay_p95_s": percentile(log.delays, 0.95) if log.delays else None,
        "per_deal": each,
    }


async def crash(options, servers: Served, keepers: list[Phone], followers, log: Log) -> dict:
    """The crash run: the streams' servers restarted a third of the way in, killed at two."""
    print(
        f"-- crash: {options.seconds:g} s, {len(keepers)} scorekeepers (think 0-0.3 s) and"
        f" {len(followers)} pages following their games; restarted at a third, killed at two"
    )
    run, started = keepers[0].run, time.monotonic()
    for phone in followers:  # a page asks again, at its poll's pace, while the server is away
        phone.give_up, phone.resend_seconds = math.inf, POLL_SECONDS
    playing = asyncio.gather(
        *(keep_score(phone, (0.0, 0.3), math.inf, 60) for phone in keepers),
        *(follow(phone, 0.5) for phone in followers),
    )
    result: dict = {"stopped_at": []}
    windows = []  # (stopped, answering again): when a request may go unanswered
    for how in ("restart", "kill"):
        await asyncio.sleep(options.seconds / 3)
        result[how], window = await bring_back(servers, run, followers, kill=how == "kill")
        windows.append(window)
        result["stopped_at"].append(time.time() - (time.monotonic() - window[0]))
    await asyncio.sleep(options.seconds / 3)
    run.stop_at = time.monotonic()
    await asyncio.wait_for(playing, 90)
    # A request that died around a stop is expected; one that died any other time is an error.
    for when, what in log.interrupted:
        if not any(stopped - 0.5 <= when <= back + 5 for stopped, back in windows):
            log.errors.append(f"interrupted away from a restart or kill: {what}")
    print(
        f"requests: {log.requests:,} in {time.monotonic() - started:.1f} s;"
        f" {log.counts['requests sent again']} got no answer around the stops and were sent"
        f" again, the same ({len(log.interrupted)} tries without an answer);"
        f" {len(log.told):,} deals told recorded"
    )
    print_latencies(log, ["record a deal", "game page", "new game"])
    return result | {"interrupted": len(log.interrupted)}


async def bring_back(servers: Served, run: Run, followers, *, kill: bool):
    """Stop and start the servers, and wait for every follower to show its table's next deal."""
    how = "SIGKILL" if kill else "SIGTERM"
    log = run.log
    print(f"  {how}: {log.in_flight} requests in flight, {len(log.told)} deals told so far")
    stopped = time.monotonic()
    if not await asyncio.to_thread(servers.halt, kill=kill):
        log.errors.append(f"the servers were still running {STOPPING_SECONDS} s after {how}")
    gone = time.monotonic() - stopped
    await asyncio.sleep(1.0)
    await asyncio.to_thread(servers.start)
    back = time.monotonic()
    run.handover = handover = HandOver(back, followers)
    log.errors += await handover.waited()
    run.handover = None
    figures = handover.figures() | {"stopped_s": gone, "answering_s": back - stopped}
    print(
        f"  {how}: the servers were gone {gone:.1f} s after it and answered /ping/ again"
        f" {back - stopped:.1f} s after it; {len(handover.shown)} of {len(followers)} pages showed"
        f" their table's next deal within {figures.get('max_s', math.nan):.2f} s of that"
        f" (median {figures.get('p50_s', math.nan):.2f} s)"
    )
    return figures, (stopped, back)


async def phase_b(options, plan: Plan, run: Run, servers: Served) -> dict:
    """Phase B: each kind of request's closed-loop throughput, and its share of /ping/'s."""
    print(
        f"-- phase B: closed loop, {options.bench_clients} clients,"
        f" {options.bench_seconds:g} s for each kind of request"
    )
    phones = [
        Phone(run, Table(0, 0), "bench", {"sessionid": session}, streams=False)
        for session in plan.bench_sessions
    ]
    for phone in phones:  # a CSRF cookie each, from a page with a form
        reply = await phone.send("bench page", "GET", plan.bench_game_page)
        board = board_of(Page(reply.body))
        if reply.status != 200 or "csrftoken" not in phone.cookies or board is None:
            raise RuntimeError(f"phase B's game page answered {reply.status}")
    games = dict(zip(phones, plan.bench_games, strict=True))

    async def record_next(phone: Phone) -> None:
        """The next deal of one of the client's seeded games, a fresh one when that ends."""
        if phone.deal is None:
            if not games[phone]:
                raise phone.error("out of seeded games: raise --bench-games")
            phone.game = games[phone].pop()
            phone.table.new_game(phone.game)
            phone.board, phone.deal = None, (1, str(uuid.uuid4()))
        await record(phone)

    actions: dict[str, Action] = {
        "/ping/": partial(Phone.get, path="/ping/"),
        "poll, no news": partial(Phone.get, path=board.poll, status=204, htmx=True),
        "game page": partial(Phone.get, path=plan.bench_game_page),
        "record a deal": record_next,
        "standings": partial(Phone.get, path=plan.standings),
    }
    rates, cpu_each = {}, {}
    for name, action in actions.items():
        await closed_loop(action, phones, min(1.0, options.bench_seconds / 5))  # warm up
        cpu = cpu_total(servers)
        done, elapsed = await closed_loop(action, phones, options.bench_seconds)
        rates[name] = done / elapsed
        cpu_each[name] = (cpu_total(servers) - cpu) / max(done, 1)
    for name, rate in rates.items():
        print(
            f"  {name:<14} {rate:8.1f} requests/s  {rate / rates['/ping/']:6.1%} of /ping/"
            f"  ({cpu_each[name] * 1000:5.1f} ms server CPU each)"
        )
    return {
        "requests_per_second": rates,
        "share_of_ping": {name: rate / rates["/ping/"] for name, rate in rates.items()},
    }


async def closed_loop(action: Action, phones: list[Phone], seconds: float) -> tuple[int, float]:
    """Each phone does `action` over and over for `seconds`: how many times, in how long."""
    stop_at = time.monotonic() + seconds

    async def loop(phone: Phone) -> int:
        done = 0
        while time.monotonic() < stop_at and await guarded(phone, action(phone)):
            done += 1
        return done

    started = time.monotonic()
    done = sum(await asyncio.gather(*map(loop, phones)))
    return done, time.monotonic() - started
