"""The capacity run: how many tables one core serves with the p95 of every request <= 300 ms.

One gunicorn server is pinned to one core (`taskset`), the clients to another. A table is
four phones following one game as the real page does: each asks the board's poll (with the
page's pass) every 2 s, loads the whole game page every ~5 minutes and the standings of the
big season every ~10; one of them, the scorekeeper, records a deal every 60-120 s (the answer
brings the board, as htmx swaps it in). Tables are added in steps of `--step-seconds` until the
p95 of any kind of request passes 300 ms (or anything errs); the capacity is the last step
that stayed under it.

Time compression (`--compress C`, 1 by default; printed with the figures): deals, page loads
and standings come C times as often as the model says; the polls keep their 2 s, as the
page's. So a step is as busy as the model or busier (the rare requests are the costly ones):
the figure errs low.

The clients are coroutines on one event loop speaking HTTP/1.1 over a pool of keep-alive
connections (thousands of phones can't each hold a thread); each phone keeps its own cookies.
Every phone that follows a game notes when it first shows each deal: the time from the
scorekeeper being told "recorded" to the last phone of the table showing it is the delay.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import time
import urllib.parse
from dataclasses import dataclass, field

from tools.loadtest.client import deal_form
from tools.loadtest.log import Log, Told, percentile
from tools.loadtest.seed import SEAT_NAMES

LIMIT_MS = 300.0  # the p95 every kind of request must stay under
POLL_SECONDS = 2.0  # the page's hx-trigger="every 2s"
KINDS = ("poll", "game page", "record a deal", "standings", "new game")

BOARD = re.compile(r'<div id="game-board"[^>]*?data-version="(\d+)"[^>]*?hx-get="([^"]*)"')
NUMBER = re.compile(r'name="number" value="(\d+)"')
TOKEN = re.compile(r'name="token" value="([0-9a-f-]{36})"')


def board_of(body: str) -> tuple[int, str] | None:
    """The board's version and its poll's address (with the pass), read as htmx reads it."""
    found = BOARD.search(body)
    if found is None:
        return None
    return int(found.group(1)), found.group(2).replace("&amp;", "&")


def deal_of(body: str) -> tuple[int, str] | None:
    """The deal form's next number and one-time token; None: the game is over."""
    number, token = NUMBER.search(body), TOKEN.search(body)
    return (int(number.group(1)), token.group(1)) if number and token else None


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: str


class Pool:
    """Keep-alive connections to one server, shared by every phone (one request each at once)."""

    def __init__(self, address: tuple[str, int], size: int) -> None:
        self.address = address
        self.idle: asyncio.LifoQueue = asyncio.LifoQueue()
        for _ in range(size):
            self.idle.put_nowait(None)

    async def request(self, method: str, path: str, headers: dict[str, str], body: bytes) -> Reply:
        connection = await self.idle.get()
        try:
            for attempt in (1, 2):  # a connection the server closed meanwhile: once more
                if connection is None:
                    connection = await asyncio.open_connection(*self.address)
                try:
                    reply = await exchange(connection, method, path, headers, body)
                    if reply.headers.get("connection", "").lower() == "close":
                        connection[1].close()
                        connection = None
                    return reply
                except (OSError, asyncio.IncompleteReadError, ValueError):
                    connection[1].close()
                    connection = None
                    if attempt == 2:
                        raise
            raise AssertionError("unreachable")
        finally:
            self.idle.put_nowait(connection)


async def exchange(connection, method: str, path: str, headers: dict[str, str], body: bytes):
    reader, writer = connection
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    lines.append(f"Content-Length: {len(body)}")
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
    head = await reader.readuntil(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    status = int(status_line.split()[1])
    answer: dict[str, str] = {}
    cookies = []
    for line in header_lines:
        if ":" in line:
            name, value = line.split(":", 1)
            answer[name.strip().lower()] = value.strip()
            if name.lower() == "set-cookie":
                cookies.append(value.strip())
    answer["set-cookie"] = "\n".join(cookies)
    length = int(answer.get("content-length", "0"))
    data = await reader.readexactly(length) if length else b""
    return Reply(status, answer, data.decode())


@dataclass
class Table:
    """One game's four phones: the scorekeeper first."""

    club: int
    game: int
    sessions: list[str]
    deals: dict[int, tuple[float, int]] = field(default_factory=dict)  # version: (told, game)
    seen: dict[int, set[int]] = field(default_factory=dict)  # version: phones showing it


class Run:
    """The phones, their figures, and the step they are in."""

    def __init__(self, pool: Pool, log: Log, standings: str, compress: float, seed: int) -> None:
        self.pool = pool
        self.log = log
        self.standings = standings
        self.compress = compress
        self.rng = random.Random(seed)
        self.stop_at = 0.0
        self.latency: dict[str, list[float]] = {kind: [] for kind in KINDS}
        self.delays: list[float] = []
        self.errors = 0

    async def send(self, phone: Phone, kind: str, method: str, path: str, form=None) -> Reply:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in phone.cookies.items())}
        body = b""
        if form is not None:
            body = urllib.parse.urlencode(form).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        if kind in ("poll", "record a deal"):
            headers |= {"HX-Request": "true", "X-CSRFToken": phone.cookies.get("csrftoken", "")}
        started = time.perf_counter()
        reply = await self.pool.request(method, path, headers, body)
        seconds = time.perf_counter() - started
        self.latency[kind].append(seconds)
        for cookie in filter(None, reply.headers["set-cookie"].split("\n")):
            name, _, rest = cookie.partition("=")
            phone.cookies[name.strip()] = rest.split(";", 1)[0]
        with self.log.lock:
            self.log.requests += 1
            self.log.latency[kind].append(seconds)
            self.log.statuses[(kind, reply.status)] += 1
        return reply

    def error(self, text: str) -> None:
        self.errors += 1
        self.log.error(text)

    def every(self, seconds: float) -> float:
        """A wait of about `seconds` of the model's time, compressed."""
        return self.rng.uniform(0.5, 1.5) * seconds / self.compress


@dataclass
class Phone:
    table: Table
    index: int  # 0: the scorekeeper
    cookies: dict[str, str]
    game: int = 0
    version: int = -1
    poll_path: str = ""
    deal: tuple[int, str] | None = None


async def follow(run: Run, phone: Phone, arrive_within: float) -> None:
    """One phone, as the game page has it, until the run stops. Phones sit down at their
    tables over `arrive_within` seconds, not all in the same instant."""
    await asyncio.sleep(run.rng.uniform(0, arrive_within))
    await load_page(run, phone)
    next_page = time.monotonic() + run.every(300)
    next_standings = time.monotonic() + run.every(600)
    next_deal = time.monotonic() + run.every(90)
    while time.monotonic() < run.stop_at:
        await asyncio.sleep(POLL_SECONDS)
        now = time.monotonic()
        try:
            if phone.game != phone.table.game or now >= next_page:
                next_page = now + run.every(300)
                await load_page(run, phone)
            elif now >= next_standings:
                next_standings = now + run.every(600)
                await standings(run, phone)
            elif phone.index == 0 and now >= next_deal:
                next_deal = now + run.rng.uniform(60, 120) / run.compress
                await record(run, phone)
            else:
                await poll(run, phone)
        except (OSError, asyncio.IncompleteReadError, ValueError) as error:
            run.error(f"table of game {phone.table.game}, phone {phone.index}: {error!r}")


def shows(run: Run, phone: Phone, version: int, poll_path: str) -> None:
    """The phone now shows the board at `version`: note when it first showed each deal."""
    phone.version, phone.poll_path = version, poll_path
    table = phone.table
    for recorded, (told, game) in list(table.deals.items()):
        if game == phone.game and recorded <= version and phone.index not in table.seen[recorded]:
            table.seen[recorded].add(phone.index)
            if len(table.seen[recorded]) == 4:
                run.delays.append(time.monotonic() - told)
                del table.deals[recorded], table.seen[recorded]


async def load_page(run: Run, phone: Phone) -> None:
    phone.game = phone.table.game
    reply = await run.send(phone, "game page", "GET", f"/games/{phone.game}/")
    board = board_of(reply.body) if reply.status == 200 else None
    if board is None:
        run.error(f"game page {phone.game} answered {reply.status}")
        return
    phone.deal = deal_of(reply.body)
    shows(run, phone, *board)


async def poll(run: Run, phone: Phone) -> None:
    reply = await run.send(phone, "poll", "GET", phone.poll_path)
    if reply.status == 200 and (board := board_of(reply.body)):
        shows(run, phone, *board)
    elif reply.status != 204:
        run.error(f"poll {phone.poll_path} answered {reply.status}")


async def standings(run: Run, phone: Phone) -> None:
    reply = await run.send(phone, "standings", "GET", run.standings)
    if reply.status != 200:
        run.error(f"standings answered {reply.status}")


async def record(run: Run, phone: Phone) -> None:
    """The scorekeeper records the next deal; the answer's board is what their phone shows."""
    from scoring.demo import random_deal

    if phone.deal is None:
        await new_game(run, phone)
        return
    number, token = phone.deal
    cards = random_deal(run.rng)
    form = deal_form(phone.cookies.get("csrftoken", ""), number, token, cards)
    game = phone.game
    reply = await run.send(phone, "record a deal", "POST", f"/games/{game}/deals/", form)
    board = board_of(reply.body)
    if reply.status != 200 or f"Deal {number} recorded." not in reply.body or board is None:
        run.error(f"deal {number} of game {game} answered {reply.status}")
        return
    run.log.recorded(Told(game, number, cards, token, f"table {phone.table.club}"))
    phone.table.deals[board[0]] = (time.monotonic(), game)
    phone.table.seen[board[0]] = set()
    phone.deal = deal_of(reply.body)
    shows(run, phone, *board)


async def new_game(run: Run, phone: Phone) -> None:
    form = {"csrfmiddlewaretoken": phone.cookies.get("csrftoken", "")}
    form |= {f"seat_{position}": name for position, name in enumerate(SEAT_NAMES, start=1)}
    path = f"/clubs/{phone.table.club}/games/new/"
    reply = await run.send(phone, "new game", "POST", path, form)
    parts = urllib.parse.urlsplit(reply.headers.get("location", "")).path.strip("/").split("/")
    if reply.status != 302 or len(parts) != 2 or not parts[1].isdigit():
        run.error(f"new game at table {phone.table.club} answered {reply.status}")
        return
    with run.log.lock:
        run.log.games_started.append(int(parts[1]))
    phone.table.game = int(parts[1])
    phone.table.deals.clear()
    phone.table.seen.clear()
    await load_page(run, phone)


def pin_to(cpu: int) -> None:
    """Run this process (the clients) on one core only, where it has one."""
    if hasattr(os, "sched_setaffinity") and cpu in os.sched_getaffinity(0):
        os.sched_setaffinity(0, {cpu})


def table_of(index: int, plan) -> Table:
    keeper = plan.keepers[index]
    return Table(keeper.club, keeper.game, plan.capacity_sessions[index])


async def step_up(run: Run, plan, options, started: list[asyncio.Task], tables: int) -> dict:
    """Bring the tables up to `tables`, run one step, and give its figures. The new phones'
    first page loads (every phone opens its game at once) are left out of the step's figures:
    a table sits down once, and then follows its game for hours."""
    arrive_within = min(20.0, options.step_seconds / 2)
    for index in range(len(started) // 4, tables):
        table = table_of(index, plan)
        for phone_index, session in enumerate(table.sessions):
            phone = Phone(table, phone_index, {"sessionid": session})
            started.append(asyncio.create_task(follow(run, phone, arrive_within)))
    await asyncio.sleep(arrive_within + POLL_SECONDS)
    for kind in KINDS:
        run.latency[kind] = []
    run.delays, run.errors = [], 0
    await asyncio.sleep(options.step_seconds)
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
        "requests": figures,
        "worst_p95_ms": worst,
        "delay_p95_s": percentile(delays, 0.95) if delays else None,
        "deals_followed": len(delays),
        "errors": run.errors,
        "ok": worst <= LIMIT_MS and run.errors == 0,
    }


def step_line(step: dict) -> str:
    parts = []
    for kind, figure in step["requests"].items():
        parts.append(f"{kind} {figure['per_second']:.0f}/s p95 {figure['p95_ms']:.0f} ms")
    delay = step["delay_p95_s"]
    parts.append(f"deal to all 4 phones p95 {delay:.2f} s" if delay is not None else "no deal")
    parts.append(f"errors {step['errors']}" if step["errors"] else "")
    return f"  {step['tables']:>5} tables: " + "; ".join(part for part in parts if part)


async def ramp(options, plan, servers, log: Log) -> list[dict]:
    """Add tables step by step until a step fails or every seeded table is in."""
    run = Run(
        Pool(servers.addresses[0], options.connections),
        log,
        plan.standings,
        options.compress,
        options.seed,
    )
    run.stop_at = time.monotonic() + 10**6
    started: list[asyncio.Task] = []
    steps = []
    tables = min(options.tables_start, len(plan.keepers))
    while True:
        step = await step_up(run, plan, options, started, tables)
        steps.append(step)
        print(step_line(step), flush=True)
        if not step["ok"] or tables >= len(plan.keepers):
            break
        tables = min(len(plan.keepers), tables + max(1, int(tables * options.tables_growth)))
    run.stop_at = 0.0
    await asyncio.gather(*started, return_exceptions=True)
    return steps
