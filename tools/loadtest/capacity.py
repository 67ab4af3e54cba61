"""The capacity run: how many tables one core serves with the p95 of every request <= 300 ms.

The servers are pinned to one core (`taskset`), the clients to another: gunicorn for the
pages, and beside it (`--follow stream`, the default) the ASGI gunicorn that serves the games'
event streams, as nginx would route `/games/<id>/changes/` to it. A table is four phones
following one game as the real page does: they load the whole game page every ~5 minutes and
the standings of the big season every ~10; one of them, the scorekeeper, records a deal every
60-120 s (the answer brings the board, as htmx swaps it in). How a phone learns of a deal:

  stream (the page today)  each phone holds one event stream (`data-changes` on the board, its
                           own connection) and, when an event names a version newer than the
                           one it shows, fetches the board's poll (with its version and pass):
                           that fetch is a "poll"; it also polls every 5 minutes as a
                           fallback. A stream that says nothing (no version, no "alive") for
                           2.5 of the periods it states is dropped, the phone polling, and
                           opened again. A stream refused or ended is opened again after 2 s
                           (as EventSource does), the phone polling every 2 s meanwhile; a page
                           load opens a new one. The time to a stream's answer is a "stream
                           open".
  poll (the page before)   each phone asks the board's poll every 2 s.

Tables are added in steps of `--step-seconds` until the p95 of any kind of request (a stream
open included) passes 300 ms, or anything errs; the capacity is the last step that stayed
under it.

Time compression (`--compress C`, 1 by default; printed with the figures): deals, page loads
and standings come C times as often as the model says; the polls keep their 2 s and 5 min, as
the page's. So a step is as busy as the model or busier (the rare requests are the costly
ones): the figure errs low.

The clients are coroutines on one event loop speaking HTTP/1.1 (tools/loadtest/wire.py) over a
pool of keep-alive connections (thousands of phones can't each hold a thread), and one
connection per stream; each phone keeps its own cookies. Every phone notes when it first shows
each deal: the time from the scorekeeper being told "recorded" to the last phone of the table
having fetched it is the delay.
"""

from __future__ import annotations

import asyncio
import random
import time
import urllib.parse
from dataclasses import dataclass, field
from typing import NamedTuple

from tools.loadtest.client import Page, deal_form, next_deal
from tools.loadtest.log import Log, Told
from tools.loadtest.seed import SEAT_NAMES
from tools.loadtest.wire import EventStream, Pool, Reply, body_parts, read_head, request_bytes

LIMIT_MS = 300.0  # the p95 every kind of request must stay under
POLL_SECONDS = 2.0  # the page's poll without a stream (hx-trigger="every 2s" before)
FALLBACK_SECONDS = 300.0  # the page's poll beside a stream that speaks
SILENT_PERIODS = 2.5  # a stream quiet for this many of its "alive" periods is taken for dead
RETRY_SECONDS = 2.0  # a stream refused or ended is opened again after this (its `retry`)
KINDS = ("poll", "stream open", "game page", "record a deal", "standings", "new game")
FAILURES = (OSError, asyncio.IncompleteReadError, ValueError)


class Board(NamedTuple):
    version: int
    poll: str  # its hx-get: the poll's address, with the version shown and the pass
    changes: str  # its data-changes: the game's event stream, with the pass ("": none)


def board_of(page: Page) -> Board | None:
    """The board's version, poll and stream (with the pass), read as the page's scripts read
    them: the attributes of the board's follower, `#board-follow`, in whatever order, entities
    unescaped (a whole board, or only what a deal changed on it)."""
    attributes = page.element("board-follow") or {}
    version = attributes.get("data-version", "")
    if not version.isdigit() or not attributes.get("hx-get"):
        return None
    return Board(int(version), attributes["hx-get"], attributes.get("data-changes", ""))


@dataclass
class Table:
    """One game's four phones: the scorekeeper first."""

    club: int
    game: int
    sessions: list[str]
    deals: dict[int, tuple[float, int]] = field(default_factory=dict)  # version: (told, game)
    seen: dict[int, set[int]] = field(default_factory=dict)  # version: phones showing it


class Run:
    """The phones, their figures, and the step they are in. `streams`: where the event streams
    are served (None: the phones poll every 2 s)."""

    def __init__(self, pool: Pool, log: Log, options, standings: str, streams=None) -> None:
        self.pool = pool
        self.log = log
        self.standings = standings
        self.streams: tuple[str, int] | None = streams
        self.compress = options.compress
        self.rng = random.Random(options.seed)
        self.stop_at = 0.0
        self.latency: dict[str, list[float]] = {kind: [] for kind in KINDS}
        self.delays: list[float] = []
        self.errors = 0
        self.ended = 0  # streams the server ended (opened again)
        self.on_event = 0  # boards fetched because a stream named a newer version
        self.silent = 0  # streams dropped for saying nothing too long (opened again)

    async def send(self, phone: Phone, kind: str, method: str, path: str, form=None) -> Reply:
        headers = {"Cookie": phone.cookie_header()}
        body = b""
        if form is not None:
            body = urllib.parse.urlencode(form).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        if kind in ("poll", "record a deal"):
            headers |= {"HX-Request": "true", "X-CSRFToken": phone.cookies.get("csrftoken", "")}
        started = time.perf_counter()
        reply = await self.pool.request(method, path, headers, body)
        self.note(kind, time.perf_counter() - started, reply.status)
        for cookie in filter(None, reply.headers["set-cookie"].split("\n")):
            name, _, rest = cookie.partition("=")
            phone.cookies[name.strip()] = rest.split(";", 1)[0]
        return reply

    def note(self, kind: str, seconds: float, status: int) -> None:
        self.latency[kind].append(seconds)
        with self.log.lock:
            self.log.requests += 1
            self.log.latency[kind].append(seconds)
            self.log.statuses[(kind, status)] += 1

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
    changes: str = ""
    deal: tuple[int, str] | None = None
    listener: asyncio.Task | None = None  # the page's EventSource
    streaming: bool = False  # its stream is open
    heard_at: float = 0.0  # when its stream last said anything
    silent_seconds: float = 50.0  # how long a silence means a dead stream (until it says)
    next_poll: float = 0.0

    def cookie_header(self) -> str:
        return "; ".join(f"{name}={value}" for name, value in self.cookies.items())

    def hang_up(self) -> None:
        """Close the page's stream, as leaving the page does."""
        if self.listener is not None:
            self.listener.cancel()
        self.listener, self.streaming = None, False


async def follow(run: Run, phone: Phone, arrive_within: float) -> None:
    """One phone, as the game page has it, until the run stops. Phones sit down at their
    tables over `arrive_within` seconds, not all in the same instant."""
    await asyncio.sleep(run.rng.uniform(0, arrive_within))
    await load_page(run, phone)
    # Each at a random point of its interval: a step sees them at their steady rate at once.
    next_page = time.monotonic() + run.rng.random() * run.every(300)
    next_standings = time.monotonic() + run.rng.random() * run.every(600)
    next_deal = time.monotonic() + run.rng.random() * run.every(90)
    try:
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
                elif polls_now(run, phone, now):
                    await poll(run, phone)
            except FAILURES as error:
                run.error(f"table of game {phone.table.game}, phone {phone.index}: {error!r}")
    finally:
        phone.hang_up()


def polls_now(run: Run, phone: Phone, now: float) -> bool:
    """Every 2 s without a stream (or while it is down), every 5 minutes beside one; a stream
    silent too long is dropped and another opened, as static/js/live-board.js does."""
    if run.streams is None or not phone.streaming:
        return True
    if now - phone.heard_at > phone.silent_seconds:
        run.silent += 1
        phone.hang_up()
        phone.listener = asyncio.create_task(listen(run, phone))
        return True
    if now < phone.next_poll:
        return False
    phone.next_poll = now + FALLBACK_SECONDS
    return True


def shows(run: Run, phone: Phone, board: Board) -> None:
    """The phone now shows `board`: note when it first showed each deal."""
    phone.version, phone.poll_path = board.version, board.poll
    phone.changes = board.changes or phone.changes
    table = phone.table
    for recorded, (told, game) in list(table.deals.items()):
        if (
            game == phone.game
            and recorded <= board.version
            and phone.index not in table.seen[recorded]
        ):
            table.seen[recorded].add(phone.index)
            if len(table.seen[recorded]) == 4:
                run.delays.append(time.monotonic() - told)
                del table.deals[recorded], table.seen[recorded]


async def load_page(run: Run, phone: Phone) -> None:
    """Open the game page (again): a new page, a new stream."""
    phone.hang_up()
    phone.game = phone.table.game
    reply = await run.send(phone, "game page", "GET", f"/games/{phone.game}/")
    page = Page(reply.body)
    board = board_of(page) if reply.status == 200 else None
    if board is None:
        run.error(f"game page {phone.game} answered {reply.status}")
        return
    phone.deal = next_deal(page)
    phone.changes = board.changes
    shows(run, phone, board)
    if run.streams is not None and board.changes:
        phone.next_poll = time.monotonic() + FALLBACK_SECONDS
        phone.listener = asyncio.create_task(listen(run, phone))


async def listen(run: Run, phone: Phone) -> None:
    """The page's EventSource: its stream, opened again 2 s after it is refused or ends."""
    while True:
        try:
            if await stream(run, phone):
                run.ended += 1
        except FAILURES as error:
            run.error(f"stream of game {phone.game}, phone {phone.index}: {error!r}")
        phone.streaming = False
        await asyncio.sleep(RETRY_SECONDS)


async def stream(run: Run, phone: Phone) -> bool:
    """One stream until the server ends it (True) or refuses it (False, an error): the board
    is fetched whenever an event names a newer version than the phone shows."""
    assert run.streams is not None
    path = phone.changes
    started = time.perf_counter()
    reader, writer = await asyncio.open_connection(*run.streams)
    try:
        headers = {"Accept": "text/event-stream", "Cache-Control": "no-cache"}
        writer.write(request_bytes("GET", path, headers | {"Cookie": phone.cookie_header()}))
        status, answer = await read_head(reader)
        run.note("stream open", time.perf_counter() - started, status)
        if status != 200:
            run.error(f"stream {path} answered {status}")
            return False
        phone.streaming, phone.heard_at = True, time.monotonic()
        events = EventStream()
        async for part in body_parts(reader, answer):
            for event in events.feed(part):
                phone.heard_at = time.monotonic()
                data = event.data
                if event.type == "alive":
                    phone.silent_seconds = float(data) * SILENT_PERIODS
                elif data.isdigit() and int(data) > phone.version:
                    run.on_event += 1
                    await fetch_board(run, phone)
        return True
    finally:
        writer.close()


async def fetch_board(run: Run, phone: Phone) -> None:
    try:
        await poll(run, phone)
    except FAILURES as error:
        run.error(f"board of game {phone.game}, phone {phone.index}: {error!r}")


async def poll(run: Run, phone: Phone) -> None:
    reply = await run.send(phone, "poll", "GET", phone.poll_path)
    if reply.status == 200 and (board := board_of(Page(reply.body))):
        shows(run, phone, board)
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
    form = deal_form(phone.cookies.get("csrftoken", ""), number, token, cards, phone.version)
    game = phone.game
    reply = await run.send(phone, "record a deal", "POST", f"/games/{game}/deals/", form)
    page = Page(reply.body)
    board = board_of(page)
    if reply.status != 200 or f"Deal {number} recorded." not in reply.body or board is None:
        run.error(f"deal {number} of game {game} answered {reply.status}")
        return
    run.log.recorded(Told(game, number, cards, token, f"table {phone.table.club}"))
    phone.table.deals[board.version] = (time.monotonic(), game)
    phone.table.seen[board.version] = set()
    phone.deal = next_deal(page)
    shows(run, phone, board)


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
