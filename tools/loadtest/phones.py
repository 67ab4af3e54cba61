"""The tool's phones, each following a game as its page does (static/js/game-page.js)."""

from __future__ import annotations

import asyncio
import contextlib
import math
import random
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tools.loadtest import page as pages
from tools.loadtest.log import Log, Told
from tools.loadtest.seed import SEAT_NAMES
from tools.loadtest.wire import FAILURES, Event, Pool, Reply, events

if TYPE_CHECKING:
    from tools.loadtest.handover import HandOver

POLL_SECONDS = 2.0  # the board's poll while its stream is down
FALLBACK_SECONDS = 300.0  # the board's poll beside a stream that speaks
SILENT_PERIODS = 2.5  # a stream quiet for this many of its "alive" periods is taken for dead
RETRY_SECONDS = 2.0  # a stream refused or ended is opened again after this (its `retry`)
PAGE_SECONDS, STANDINGS_SECONDS, DEAL_SECONDS = 300.0, 600.0, (60.0, 120.0)  # the model's pace
NO_ANSWER_BEHIND = {502, 504}  # nginx's Bad Gateway and Gateway Timeout: none from behind it


class Failed(Exception):
    """An answer the phone can't go on from, or none in time: already in the log's errors."""


@dataclass(eq=False)
class Table:
    """One game and the phones at its table: its scorekeeper's and those following it."""

    club: int
    game: int
    phones: list[Phone] = field(default_factory=list)  # each once it has opened the game
    recorded: dict[int, float] = field(default_factory=dict)  # version: when told recorded

    def new_game(self, game: int) -> None:
        self.game = game
        self.recorded.clear()


@dataclass(eq=False)
class Run:
    """What the phones share: the pool, the log, when to stop, and the model's pace, compressed."""

    pool: Pool
    log: Log
    standings: str
    compress: float
    crash: bool = False  # a request without an answer is expected, around a kill
    rng: random.Random = field(default_factory=lambda: random.Random(1))
    stop_at: float = math.inf
    handover: HandOver | None = None  # a crash run's, once the servers are back

    def every(self, seconds: float) -> float:
        """A wait of about `seconds` of the model's time, compressed."""
        return self.rng.uniform(0.5, 1.5) * seconds / self.compress


@dataclass(eq=False)
class Phone:
    """One phone: its cookies, what its game page shows, and its stream."""

    run: Run
    table: Table
    name: str
    cookies: dict[str, str]
    scorekeeper: bool = False
    streams: bool = True  # its game page holds a stream
    give_up: float | None = None  # send again while unanswered until then (a scorekeeper's)
    resend_seconds: float = 0.25  # how soon (a waiting deal's resend; a page's poll: its 2 s)
    game: int = 0
    board: pages.Board | None = None  # what it shows
    deal: tuple[int, str] | None = None  # the deal form's number and token
    retried: bool = False  # the last request needed more than one try
    listener: asyncio.Task | None = None  # the page's EventSource
    streaming: bool = False  # its stream is open
    heard_at: float = 0.0  # when its stream last said anything
    silent_seconds: float = 50.0  # a silence this long means a dead stream
    next_poll: float = 0.0

    def error(self, text: str) -> Failed:
        """`text` in the log's errors; the Failed to raise where the phone can't go on."""
        self.run.log.errors.append(f"{self.name}: {text}")
        return Failed(text)

    async def send(self, kind: str, method: str, path: str, form=None, htmx=False) -> Reply:
        """The request, timed; with `give_up`, sent again while unanswered (waiting-deals.js)."""
        self.retried = False
        while True:
            try:
                reply = await self.send_once(kind, method, path, form, htmx)
                if reply.status < 500 or self.give_up is None:
                    return reply
                self.refused(f"{method} {path}", reply.status)
            except FAILURES as error:
                if self.give_up is None:
                    raise
                self.no_answer(f"{method} {path}: {error!r}")
            if time.monotonic() > self.give_up:
                raise self.error(f"gave up on {method} {path}")
            if not self.retried:
                self.retried = True
                self.run.log.counts["requests sent again"] += 1
            await asyncio.sleep(self.resend_seconds)

    def refused(self, what: str, status: int) -> None:
        """An answer of `status` it can't go on from: nginx's word of none, or the site's error."""
        what = f"{what} answered {status}"
        (self.no_answer if status in NO_ANSWER_BEHIND else self.error)(what)

    def no_answer(self, what: str) -> None:
        """A try without an answer: noted with its time in a crash run, an error in any other."""
        if self.run.crash:
            self.run.log.interrupted.append((time.monotonic(), f"{self.name}: {what}"))
        else:
            self.error(what)

    async def send_once(self, kind: str, method: str, path: str, form, htmx: bool) -> Reply:
        headers = {"HX-Request": "true", "X-CSRFToken": self.cookies.get("csrftoken", "")}
        log = self.run.log
        log.in_flight += 1
        started = time.perf_counter()
        try:
            pool = self.run.pool
            reply = await pool.request(method, path, self.cookies, form, headers if htmx else None)
        finally:
            log.in_flight -= 1
        if reply.status not in NO_ANSWER_BEHIND:  # the site's answer, not nginx's word of none
            log.latency[kind].append(time.perf_counter() - started)
        log.note_server_timing(kind, reply.headers.get("server-timing", ""))
        return reply

    async def get(self, path: str, status: int = 200, htmx: bool = False, kind: str = "") -> None:
        """GET `path`, timed under `kind` (or "GET <path>"); any answer but `status` fails."""
        kind = kind or f"GET {path}"
        reply = await self.send(kind, "GET", path, htmx=htmx)
        if reply.status != status:
            raise self.error(f"{kind} answered {reply.status}")

    def listen(self) -> None:
        self.listener = asyncio.create_task(listen(self))

    def hang_up(self) -> None:
        """Close the page's stream, as leaving the page does."""
        if self.listener is not None:
            self.listener.cancel()
        self.listener, self.streaming = None, False


async def guarded(phone: Phone, action: Awaitable[object]) -> bool:
    """Do `action`: whether it went through. A failure is the log's, and the phone goes on."""
    try:
        await action
    except Failed:
        return False
    except FAILURES as error:
        phone.error(repr(error))
        return False
    return True


async def follow(phone: Phone, arrive_within: float) -> None:
    """Follow the game as the page does until the run stops, sitting down within `arrive_within`."""
    run = phone.run
    await asyncio.sleep(run.rng.uniform(0, arrive_within))
    # Each at a random point of its interval: the phones are at their steady rate at once.
    now = time.monotonic()
    next_page = now + run.rng.random() * run.every(PAGE_SECONDS)
    next_standings = now + run.rng.random() * run.every(STANDINGS_SECONDS)
    next_deal = now + run.rng.random() * run.every(sum(DEAL_SECONDS) / 2)
    try:
        await guarded(phone, load_page(phone))
        while time.monotonic() < run.stop_at:
            await asyncio.sleep(POLL_SECONDS)
            now = time.monotonic()
            if phone.game != phone.table.game or now >= next_page:
                next_page = now + run.every(PAGE_SECONDS)
                await guarded(phone, load_page(phone))
            elif now >= next_standings:
                next_standings = now + run.every(STANDINGS_SECONDS)
                await guarded(phone, phone.get(run.standings, kind="standings"))
            elif phone.scorekeeper and now >= next_deal:
                next_deal = now + run.rng.uniform(*DEAL_SECONDS) / run.compress
                await guarded(phone, next_move(phone))
            elif polls_now(phone, now):
                await guarded(phone, poll(phone))
    finally:
        phone.hang_up()


def polls_now(phone: Phone, now: float) -> bool:
    """Whether to poll now; a stream silent too long is dropped and another opened."""
    if not phone.streaming:
        return True
    if now - phone.heard_at > phone.silent_seconds:
        phone.run.log.counts["streams dropped as silent"] += 1
        phone.hang_up()
        phone.listen()
        return True
    if now < phone.next_poll:
        return False
    phone.next_poll = now + FALLBACK_SECONDS
    return True


def shows(phone: Phone, board: pages.Board) -> None:
    """The phone now shows `board`: a deal every phone of the table now shows has its delay."""
    phone.board = board
    table = phone.table
    shown = [p.board.version if p.board and p.game == table.game else -1 for p in table.phones]
    for version in [v for v in table.recorded if v <= min(shown, default=board.version)]:
        phone.run.log.delays.append(time.monotonic() - table.recorded.pop(version))
    if phone.run.handover:
        phone.run.handover.showing(phone, board)


async def load_page(phone: Phone) -> None:
    """Open the game page (again): a new page, a new stream."""
    phone.hang_up()
    phone.game, phone.board = phone.table.game, None
    reply = await phone.send("game page", "GET", f"/games/{phone.game}/")
    page = pages.Page(reply.body)
    if reply.status != 200 or (board := pages.board_of(page)) is None:
        raise phone.error(f"game page {phone.game} answered {reply.status}")
    phone.deal = pages.next_deal(page)
    if phone not in phone.table.phones:
        phone.table.phones.append(phone)
    shows(phone, board)
    if phone.streams and board.changes:
        phone.next_poll = time.monotonic() + FALLBACK_SECONDS
        phone.listen()


async def listen(phone: Phone) -> None:
    """The page's EventSource: its stream, opened again 2 s after it is refused or ends."""
    while True:
        try:
            await stream(phone)
        except FAILURES as error:
            phone.no_answer(f"stream: {error!r}")
        phone.streaming = False
        await asyncio.sleep(RETRY_SECONDS)


async def stream(phone: Phone) -> None:
    """One stream, until the server ends it; its answer is timed as a "stream open"."""
    log, path = phone.run.log, phone.board.changes if phone.board else ""
    started = time.perf_counter()
    async with phone.run.pool.stream(path, phone.cookies) as answer:
        log.latency["stream open"].append(time.perf_counter() - started)
        log.note_server_timing("stream open", answer.headers.get("server-timing", ""))
        if answer.status != 200:
            log.counts["streams refused"] += 1
            return phone.refused(f"stream {path}", answer.status)
        phone.streaming, phone.heard_at = True, time.monotonic()
        async for event in events(answer.content):
            await heard(phone, event)
        log.counts["streams ended"] += 1


async def heard(phone: Phone, event: Event) -> None:
    """A stream's event: a delta one version on is taken, the board fetched on any newer one."""
    phone.heard_at = time.monotonic()
    if event.type == "alive":
        phone.silent_seconds = float(event.data) * SILENT_PERIODS
        return
    version, board, counts = pages.version_said(event.data), phone.board, phone.run.log.counts
    if version is None or board is None or version <= board.version:
        return
    if event.type == "delta" and version == board.version + 1:
        counts["deltas taken from the stream"] += 1
        shows(phone, pages.moved_on(board, version))
    else:
        counts["boards fetched on an event"] += 1
        await guarded(phone, poll(phone))


async def poll(phone: Phone) -> None:
    """Fetch the board, as its `hx-get` does: 204 when the version shown is the game's."""
    path = phone.board.poll if phone.board else f"/games/{phone.game}/board/"
    reply = await phone.send("poll", "GET", path, htmx=True)
    if reply.status == 200 and (board := pages.board_of(pages.Page(reply.body))):
        shows(phone, board)
    elif reply.status != 204:
        raise phone.error(f"poll {path} answered {reply.status}")


async def keep_score(
    phone: Phone, think: tuple[float, float], deadline: float, grace: float
) -> None:
    """Record deals `think` s apart until `deadline`; a request is resent until `grace` after."""
    phone.give_up = deadline + grace
    with contextlib.suppress(Failed):
        await load_page(phone)
        while time.monotonic() < min(deadline, phone.run.stop_at):
            await asyncio.sleep(phone.run.rng.uniform(*think))
            await next_move(phone)


async def next_move(phone: Phone) -> None:
    """The scorekeeper records the next deal, or starts a new game when the last one ended."""
    await (new_game(phone) if phone.deal is None else record(phone))


async def record(phone: Phone) -> None:
    """Record the next deal, random cards: the answer is the board, and the next deal's form."""
    from scoring.services.demo import random_deal

    assert phone.deal is not None
    number, token = phone.deal
    cards = random_deal(phone.run.rng)
    form = {"csrfmiddlewaretoken": phone.cookies.get("csrftoken", ""), "number": number}
    form |= {"token": token} | {f"cards_{seat}": count for seat, count in enumerate(cards)}
    if phone.board:  # the version it shows, for an answer with only what the deal changed
        form["shown"] = phone.board.version
    game = phone.game
    reply = await phone.send("record a deal", "POST", f"/games/{game}/deals/", form, htmx=True)
    page = pages.Page(reply.body)
    board = pages.board_of(page)
    if reply.status != 200 or not pages.told_recorded(page, number) or board is None:
        why = page.alert or reply.body[:120]
        raise phone.error(f"deal {number} of game {game} answered {reply.status}: {why}")
    phone.run.log.told.append(Told(game, number, cards, token, phone.name, phone.retried))
    if game == phone.table.game:
        phone.table.recorded[board.version] = time.monotonic()
        if phone.run.handover:
            phone.run.handover.recorded(phone.table, game, board.version)
    shows(phone, board)
    phone.deal = pages.next_deal(page)


async def new_game(phone: Phone) -> None:
    """Start the table's next game with the same four players, and open its page."""
    form = {"csrfmiddlewaretoken": phone.cookies.get("csrftoken", "")}
    form |= {f"seat_{position}": name for position, name in enumerate(SEAT_NAMES, start=1)}
    reply = await phone.send("new game", "POST", f"/clubs/{phone.table.club}/games/new/", form)
    game = pages.game_started(reply.headers.get("location", ""))
    if reply.status != 302 or game is None:
        raise phone.error(f"new game answered {reply.status}")
    phone.table.new_game(game)
    await load_page(phone)
