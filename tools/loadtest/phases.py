"""The load run's phases and the crash run (see the package's docstring): the scorekeepers log
in, then play phase A and phase B, or the crash."""

from __future__ import annotations

import asyncio
import os
import time
import uuid
from collections.abc import Awaitable, Callable

from tools.loadtest.log import Log, latency_figures, latency_lines, percentile
from tools.loadtest.page import Page, board_of, login_form
from tools.loadtest.phones import Failed, Phone, Run, Table, follow, load_page, next_move, record
from tools.loadtest.seed import PASSWORD, Plan
from tools.loadtest.servers import Servers, own_cpu_seconds
from tools.loadtest.wire import FAILURES, Pool

# Logins under way at once: phones arriving over a few minutes, not in the same second (each is a
# password hash, and holds a database connection meanwhile).
LOGINS_AT_ONCE = 8
PHASE_A_KINDS = ["record a deal", "game page", "poll", "stream open", "standings", "new game"]
# Phase A's pace for the viewers' page loads and standings: the model's, 30 times as often.
PHASE_A_COMPRESS = 30
Action = Callable[[Phone], Awaitable[None]]


async def play(options, plan: Plan, servers: Servers, log: Log, summary: dict) -> list[float]:
    """Log the scorekeepers in, then phases A and B, or the crash; when the servers were killed."""
    pool = Pool(servers.addresses, size=64)
    run = Run(pool, log, plan.standings, compress=PHASE_A_COMPRESS, crash=options.crash)
    tables = [Table(keeper.club, keeper.game) for keeper in plan.keepers]
    keepers = [
        Phone(run, table, keeper.username, {}, scorekeeper=True, streams=False)
        for table, keeper in zip(tables, plan.keepers, strict=True)
    ]
    keepers = await log_in(keepers, log)
    if options.crash:
        summary["crash"] = result = await crash(options, servers, keepers, log)
        return [result["killed_at"]]
    viewers = [  # viewer i is a member of scorekeeper i % n's club
        Phone(run, tables[index % len(tables)], f"viewer{index}", {"sessionid": session})
        for index, session in enumerate(plan.viewer_sessions)
    ]
    summary["phase_a"] = await phase_a(options, plan, servers, keepers, viewers, log)
    if options.bench:
        summary["phase_b"] = await phase_b(options, plan, run, servers)
    return []


async def log_in(keepers: list[Phone], log: Log) -> list[Phone]:
    """Log the scorekeepers in as their phones do, the login page then the password,
    LOGINS_AT_ONCE at a time; the ones that made it."""
    at_once = asyncio.Semaphore(LOGINS_AT_ONCE)

    async def one(phone: Phone) -> Phone | None:
        phone.give_up = time.monotonic() + 300
        async with at_once:
            try:
                reply = await phone.send("login page", "GET", "/accounts/login/")
                form = login_form(Page(reply.body), phone.name, PASSWORD)
                if reply.status != 200 or form is None:
                    raise phone.fail(f"login page answered {reply.status}")
                reply = await phone.send("log in", "POST", "/accounts/login/", form)
                if reply.status != 302 or "sessionid" not in phone.cookies:
                    raise phone.fail(f"logging in answered {reply.status}")
            except Failed:
                return None
        return phone

    started = time.perf_counter()
    done = [phone for phone in await asyncio.gather(*map(one, keepers)) if phone is not None]
    print(
        f"-- logging in, {LOGINS_AT_ONCE} at a time: {len(done)} of {len(keepers)} scorekeepers"
        f" in {time.perf_counter() - started:.1f} s"
    )
    print("\n".join(latency_lines(log, ["login page", "log in"])))
    return done


async def keep_score(phone: Phone, think: tuple[float, float], deadline: float) -> None:
    """Record deals of the scorekeeper's game, `think` seconds apart, a new game when one ends."""
    try:
        await load_page(phone)
        while time.monotonic() < deadline:
            await asyncio.sleep(phone.run.rng.uniform(*think))
            await next_move(phone)
    except Failed:
        pass


async def phase_a(options, plan: Plan, servers: Servers, keepers, viewers, log: Log) -> dict:
    """Scorekeepers record deals 0.5-1.5 s apart while the viewers follow their games."""
    print(
        f"-- phase A: {options.seconds:g} s, {len(keepers)} scorekeepers (think 0.5-1.5 s),"
        f" {len(viewers)} viewers following their games as the page does (a stream each, the"
        f" board on each new version; the page every ~10 s, the standings of a"
        f" {plan.season_games:,}-game season every ~20 s)"
    )
    requests, cpu = log.requests, (servers.cpu_seconds(), own_cpu_seconds())
    started = time.monotonic()
    deadline = started + options.seconds
    for phone in keepers:
        phone.give_up = deadline + 30
    for phone in viewers:
        phone.run.stop_at = deadline
    arrive_within = min(5.0, options.seconds / 4)
    playing = [keep_score(phone, (0.5, 1.5), deadline) for phone in keepers]
    playing += [follow(phone, arrive_within) for phone in viewers]
    await asyncio.wait_for(asyncio.gather(*playing), options.seconds + 120)
    wall = time.monotonic() - started
    requests = log.requests - requests
    server_cpu, own_cpu = servers.cpu_seconds() - cpu[0], own_cpu_seconds() - cpu[1]
    print(f"requests: {requests:,} in {wall:.1f} s = {requests / wall:.1f} requests/s")
    print("\n".join(latency_lines(log, PHASE_A_KINDS)))
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
    return {
        "requests_per_second": requests / wall,
        "latency_ms": latency_figures(log, PHASE_A_KINDS),
        "delay_p95_s": percentile(log.delays, 0.95) if log.delays else None,
    }


async def crash(options, servers: Servers, keepers: list[Phone], log: Log) -> dict:
    """Scorekeepers record deals with little think time while, halfway, every server is
    SIGKILLed and started again; a request that died is sent again, the same, as the phone
    does."""
    print(f"-- crash: {options.seconds:g} s, {len(keepers)} scorekeepers (think 0-0.3 s)")
    started = time.monotonic()
    deadline = started + options.seconds
    for phone in keepers:
        phone.give_up = deadline + 60
    playing = asyncio.gather(*(keep_score(phone, (0.0, 0.3), deadline) for phone in keepers))
    await asyncio.sleep(options.seconds / 2)
    print(
        f"  SIGKILL at {time.monotonic() - started:.1f} s: {log.in_flight} requests in flight,"
        f" {len(log.told)} deals told recorded so far"
    )
    killed_at, killed_wall = time.monotonic(), time.time()
    await asyncio.to_thread(servers.stop, kill=True)
    await asyncio.sleep(1.0)
    await asyncio.to_thread(servers.start)
    back_at = time.monotonic()
    print(f"  started again, answering /ping/ {back_at - killed_at:.1f} s after the kill")
    await asyncio.wait_for(playing, deadline + 90 - time.monotonic())
    # A request that died at the kill is expected; one that died any other time is an error.
    for when, what in log.interrupted:
        if not killed_at - 0.5 <= when <= back_at + 5:
            log.errors.append(f"interrupted away from the kill: {what}")
    print(
        f"requests: {log.requests:,}; {log.counts['requests sent again']} got no answer around"
        f" the kill and were sent again, the same ({len(log.interrupted)} tries without an"
        f" answer); {len(log.told):,} deals told recorded"
    )
    print("\n".join(latency_lines(log, ["record a deal", "game page", "new game"])))
    return {"killed_at": killed_wall, "interrupted": len(log.interrupted)}


async def phase_b(options, plan: Plan, run: Run, servers: Servers) -> dict:
    """Closed loop: each kind of request sent by every client, over and over, for a while;
    its throughput as a share of /ping/'s (the bare view through the whole middleware)."""
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
                raise phone.fail("out of seeded games: raise --bench-games")
            phone.game = games[phone].pop()
            phone.table.new_game(phone.game)
            phone.board, phone.deal = None, (1, str(uuid.uuid4()))
        await record(phone)

    actions: dict[str, Action] = {
        "/ping/": getter("/ping/"),
        "poll, no news": getter(board.poll, status=204, htmx=True),
        "game page": getter(plan.bench_game_page),
        "record a deal": record_next,
        "standings": getter(plan.standings),
    }
    rates, cpu_each = {}, {}
    for name, action in actions.items():
        await closed_loop(action, phones, min(1.0, options.bench_seconds / 5))  # warm up
        cpu = servers.cpu_seconds()
        done, elapsed = await closed_loop(action, phones, options.bench_seconds)
        rates[name] = done / elapsed
        cpu_each[name] = (servers.cpu_seconds() - cpu) / max(done, 1)
    for name, rate in rates.items():
        print(
            f"  {name:<14} {rate:8.1f} requests/s  {rate / rates['/ping/']:6.1%} of /ping/"
            f"  ({cpu_each[name] * 1000:5.1f} ms server CPU each)"
        )
    return {
        "requests_per_second": rates,
        "share_of_ping": {name: rate / rates["/ping/"] for name, rate in rates.items()},
    }


def getter(path: str, status: int = 200, htmx: bool = False) -> Action:
    """Phase B's action of getting a page, expecting `status`."""

    async def get(phone: Phone) -> None:
        reply = await phone.send("phase B", "GET", path, htmx=htmx)
        if reply.status != status:
            raise phone.fail(f"GET {path} answered {reply.status}")

    return get


async def closed_loop(action: Action, phones: list[Phone], seconds: float) -> tuple[int, float]:
    """Each phone does `action` over and over for `seconds` (until one fails: it is in the
    log's errors): how many were done, in how long."""
    stop_at = time.monotonic() + seconds

    async def loop(phone: Phone) -> int:
        done = 0
        while time.monotonic() < stop_at:
            try:
                await action(phone)
            except Failed:
                break
            except FAILURES as error:
                phone.error(repr(error))
                break
            done += 1
        return done

    started = time.monotonic()
    done = sum(await asyncio.gather(*map(loop, phones)))
    return done, time.monotonic() - started
