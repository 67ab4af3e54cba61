"""Telling the phones that follow a game the moment it changes (server-sent events).

Polling every two seconds costs a table two requests a second, changed or not, and that is what
capped how many tables one core could follow. So a game page holds one stream open instead
(`GET /games/N/changes/?t=PASS`, static/js/live-board.js), and the server writes the game's new
version down it when the game changes; the phone then asks for the board, the long way, as a
poll with news always did. The stream says only "version N": a member who has lost access is
refused by that board read, never shown anything by the stream.

Every stream of a server process is served by one watcher: a task that reads, every
`TICK_SECONDS`, the versions of the games followed (and now and then the pass series of their
followers) from the `shared` cache (scoring/caching.py keeps the versions there,
scoring/poll_tokens.py the series). It costs one cache read per tick whatever the number of
phones (from Redis one MGET; from the machine's files, only the entries written since the last
tick are read again: common/shared_cache.py, `WatchedKeys`), and nothing at all in the
database. A follower whose pass series changed (they left the club, or were removed) is let
go: their stream ends.

A quiet stream says `alive` every `KEEPALIVE_SECONDS`, but only while its watcher is reading:
"alive" means "nothing has changed that I haven't told you". A phone that hears nothing for a
while (a connection dead without a word, as between networks, or a watcher that has stopped)
polls and opens a new stream, and a phone that hears it needs no poll of its own besides a
rare one (static/js/live-board.js). Most of a league night's requests were those polls.

Streams need an ASGI server (`gunicorn -k uvicorn_worker.UvicornWorker bigtwo_site.asgi`,
README "Deploying"), where one process holds thousands of them. A WSGI worker would be held by
each, so there the stream is refused at once (204: EventSource gives up) and the page goes on
polling every two seconds, as before.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncGenerator
from dataclasses import dataclass, field

from django.core.cache import caches

from common.shared_cache import WatchedKeys
from scoring import caching, poll_tokens

logger = logging.getLogger(__name__)

TICK_SECONDS = 0.5
# The passes' series are read every this many ticks: a table's four phones may be four members,
# so there are more series than games, and a member let go learns nothing from the stream
# meanwhile (it says only version numbers; every board read checks their membership).
SERIES_EVERY_TICKS = 10
# A quiet stream says `alive` this often: it keeps proxies and phones from closing it (nginx:
# 60 s), and tells the phone it has missed nothing.
KEEPALIVE_SECONDS = 20.0
# The watcher counts as reading while its last read is at most this old (ticks are 0.5 s).
READ_LATELY_SECONDS = 5.0
# How long EventSource waits before it reconnects a dropped stream.
RETRY_MILLISECONDS = 2000


@dataclass(eq=False)
class Follower:
    """One open stream: a member following one game."""

    game_id: int
    series_key: str
    series: str
    shown: object = None  # the last version written down the stream
    news: asyncio.Queue = field(default_factory=asyncio.Queue)


class Watcher:
    """The process's one reader of the versions of every followed game (see the module doc)."""

    def __init__(self) -> None:
        self.followers: set[Follower] = set()
        self.task: asyncio.Task | None = None
        self.versions, self.series = WatchedKeys(), WatchedKeys()
        self.read_at = float("-inf")  # time.monotonic() of the last read that worked
        self.failed_at = float("-inf")  # of the last read that failed

    def follow(self, follower: Follower) -> None:
        self.followers.add(follower)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self.run())

    def leave(self, follower: Follower) -> None:
        self.followers.discard(follower)

    async def run(self) -> None:
        tick = 0
        while self.followers:
            await asyncio.sleep(TICK_SECONDS)
            tick += 1
            with_series = tick % SERIES_EVERY_TICKS == 0
            versions = list({caching.game_version_key(f.game_id) for f in self.followers})
            series = list({f.series_key for f in self.followers}) if with_series else []
            try:
                # The cache's client is blocking (Redis, or files): off the event loop.
                known = await asyncio.to_thread(self.read, versions, series)
            except Exception:
                # A cache that doesn't answer (Redis restarting): the streams stop saying
                # "alive", so their phones poll, and the next tick tries again. Logged once,
                # not twice a second.
                if self.read_at >= self.failed_at:
                    logger.exception("The streams' watcher can't read the shared cache")
                self.failed_at = time.monotonic()
                continue
            self.read_at = time.monotonic()
            self.tell(known, with_series=with_series)

    def reading(self) -> bool:
        """Whether the watcher has read lately: what a stream's "alive" vouches for."""
        running = self.task is not None and not self.task.done()
        return running and time.monotonic() - self.read_at <= READ_LATELY_SECONDS

    def read(self, versions: list[str], series: list[str]) -> dict[str, object]:
        """What the cache holds under these keys: each kind by a reader of its own, which is
        asked for the same keys each time (WatchedKeys)."""
        cache = caches["shared"]
        known = self.versions.read(cache, versions)
        if series:
            known |= self.series.read(cache, series)
        return known

    def tell(self, known: dict[str, object], *, with_series: bool) -> None:
        for follower in list(self.followers):
            if with_series and known.get(follower.series_key) != follower.series:
                follower.news.put_nowait(None)
                self.leave(follower)
                continue
            version = known.get(caching.game_version_key(follower.game_id))
            # Unknown (not in the cache): nothing is said; the page's slow poll still asks.
            if version is not None and version != follower.shown:
                follower.shown = version
                follower.news.put_nowait(version)


WATCHER = Watcher()


def follower_for(token: str, game_id: int) -> Follower | None:
    """The follower a good pass for this game makes (see poll_tokens.pass_good); else None."""
    held = poll_tokens.pass_holder(token, game_id)
    if held is None:
        return None
    series_key, series = held
    return Follower(game_id=game_id, series_key=series_key, series=series)


async def stream(follower: Follower) -> AsyncGenerator[bytes]:
    """The event stream of one follower: each new version as `data: N`, until they are let go
    or the phone hangs up (scoring/live_route.py, which serves it, then cancels this
    generator)."""
    watcher = WATCHER
    watcher.follow(follower)
    try:
        yield f"retry: {RETRY_MILLISECONDS}\n\n".encode()
        while True:
            try:
                version = await asyncio.wait_for(follower.news.get(), KEEPALIVE_SECONDS)
            except TimeoutError:
                yield alive(watcher)
                continue
            if version is None:
                return
            yield f"data: {version}\n\n".encode()
    finally:
        watcher.leave(follower)


def alive(watcher: Watcher) -> bytes:
    """What a quiet stream says every `KEEPALIVE_SECONDS`: "alive", with that period, while the
    watcher reads; a comment otherwise, which keeps the connection open and vouches for nothing
    (the phone, hearing no "alive", polls and opens another stream)."""
    if watcher.reading():
        return f"event: alive\ndata: {KEEPALIVE_SECONDS:g}\n\n".encode()
    return b": still here\n\n"
