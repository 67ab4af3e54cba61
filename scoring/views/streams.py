"""A game's stream of changes (server-sent events), which the game page's script follows
(static/js/game-page.js), and so does the shared live view's.

`GET /games/<id>/changes/` (a member's) and `GET /live/<token>/changes/` (anyone with the live
view link) answer `text/event-stream`: a `retry`, the game's version now, then each new version
as the game changes (scoring/live.py says them through Channels' channel layer), and `event:
alive` every `KEEPALIVE_SECONDS` while nothing changes. A version one past the last one said
that a deal made by adding a row comes as `event: delta`: its first data line the version, the
rest what the deal changed on the board (templates/scoring/_board_delta_stream.html, the part
of a board fetch's answer every phone at the table shares, rendered in the request's language
for a member's page or, on the live view's stream, for the live view), so that a phone showing
the version before takes it without fetching the board. It is rendered once per deal, kind and
language in each server process (`delta_of`), whichever stream asks first. On any other
version newer than its board's, the page fetches the board as a poll would, and that read checks
the member's access (or the link) again.

A stream ends after `STREAM_SECONDS` (EventSource opens another after the `retry`, so a
connection that died without a word is never held for long), when the phone hangs up, when its
game is deleted (after saying a last version, so the page finds it gone), and when what let it
be opened is gone: a member's, when they are let go from the club (`scoring.live.member_let_go`)
or their session logs out; a live view's, when its link stops (sharing stopped, or shared again
under a new link). It is an async view: under the ASGI server of `make run` thousands of them
wait in one process for a few bytes each.

Only an ASGI server (`make run`'s uvicorn) holds streams. Served through WSGI (gunicorn, or
the test suite's live server), a stream would hold a worker thread for its whole life and be sent
only once it ended, so the view answers 204 No Content at once: EventSource stops asking, and the
page polls.

Each server holds at most `settings.STREAMS_PER_MEMBER` streams of one member, and
`STREAMS_PER_ADDRESS` from one client address (live views' too); one more is refused with 429,
and the page polls instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connections
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.utils.translation import get_language
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.csp import csp_override
from django.views.decorators.http import require_GET

from common.client_address import client_address
from scoring import live, selectors
from scoring.models import Game
from scoring.views.live import stream_delta

logger = logging.getLogger(__name__)

# How EventSource waits before it opens a stream again, once one has ended.
RETRY_MILLISECONDS = 2000
# A quiet stream says `alive` this often: proxies (nginx: 60 s) keep it open, and the phone
# knows it has missed nothing.
KEEPALIVE_SECONDS = 20
# The longest a stream is held; the phone opens the next one by itself.
STREAM_SECONDS = 600


@dataclass(frozen=True)
class Following:
    """What one stream follows: `games`, the game as its asker may see it (found through the
    member's clubs, or by the live view's link); the layer's `groups` it listens to; the
    messages after which it checks `games` again, ending if the game is no longer there; the
    game's id, whether it is the live view's (`shared`), and the language its deltas are in."""

    games: QuerySet[Game]
    groups: tuple[str, ...]
    check_again_on: frozenset[str]
    game_id: int
    shared: bool
    language: str


# A stream is no document: the page's policies (CSP, framing) would only be more bytes on the
# game page's first load, as for the web app's manifest (bigtwo_site/pwa.py).
@require_GET
@csp_override({})
@xframe_options_exempt
async def changes(request: HttpRequest, game_id: int) -> HttpResponse:
    """The game's stream for a member of its club; 403 signed out, 404 for anyone else's game,
    429 past the limits, 204 under WSGI (see the module's docstring)."""
    user = await request.auser()
    if not user.is_authenticated:
        return HttpResponse(status=403)
    games = selectors.member_games(user).filter(pk=game_id)
    if not await games.aexists():
        return HttpResponse(status=404)
    groups = [live.game_group(game_id), live.member_group(user.pk)]
    if request.session.session_key:
        groups.append(live.session_group(request.session.session_key))
    following = Following(
        games, tuple(groups), frozenset({live.MEMBER_LET_GO}), game_id, False, get_language()
    )
    return await stream(request, following, member=str(user.pk))


@require_GET
@csp_override({})
@xframe_options_exempt
async def shared_changes(request: HttpRequest, token: str) -> HttpResponse:
    """The stream of the game whose live view link carries `token`, for anyone with it; 404
    for a wrong or stopped link, 429 past the address's limit, 204 under WSGI."""
    games = selectors.shared_games(token)
    game_id = await games.values_list("pk", flat=True).afirst()
    if game_id is None:
        return HttpResponse(status=404)
    groups = (live.game_group(game_id),)
    following = Following(
        games, groups, frozenset({live.SHARE_CHANGED}), game_id, True, get_language()
    )
    return await stream(request, following, member=None)


async def stream(request: HttpRequest, following: Following, *, member: str | None) -> HttpResponse:
    if not isinstance(request, ASGIRequest):
        return HttpResponse(status=204)
    await let_connections_go()
    give_back = OPEN_STREAMS.take(member=member, address=client_address(request) or "")
    if give_back is None:
        return HttpResponse(status=429, headers={"Retry-After": str(KEEPALIVE_SECONDS)})
    return EventStream(events(following, give_back=give_back), on_close=give_back)


async def events(following: Following, *, give_back: Callable[[], None]) -> AsyncIterator[str]:
    """The stream's events, from the version now until its time is up or it ends."""
    layer = get_channel_layer()
    channel = await layer.new_channel()
    receiving: asyncio.Future | None = None
    try:
        for group in following.groups:
            await layer.group_add(group, channel)
        # Read once listening, so that no change falls between the two.
        shown = await following.games.values_list("version", flat=True).afirst()
        await let_connections_go()
        if shown is None:
            return
        yield f"retry: {RETRY_MILLISECONDS}\n\ndata: {shown}\n\n"
        ends_at = time.monotonic() + STREAM_SECONDS
        receiving = asyncio.ensure_future(layer.receive(channel))
        while (left := ends_at - time.monotonic()) > 0:
            done, _ = await asyncio.wait({receiving}, timeout=min(KEEPALIVE_SECONDS, left))
            if not done:
                if left > KEEPALIVE_SECONDS:  # else the stream's time is up
                    yield f"event: alive\ndata: {KEEPALIVE_SECONDS}\n\n"
                continue
            message = receiving.result()
            receiving = asyncio.ensure_future(layer.receive(channel))
            version, goes_on = await heard(message, following, shown)
            if version > shown:
                yield await said(message, following, shown, version)
                shown = version
            if not goes_on:
                return
    except Exception:
        # The layer not answering (Redis restarting): the stream ends, the page polls, and
        # EventSource tries again after the retry.
        logger.exception("A game's stream failed")
    finally:
        give_back()
        if receiving is not None:
            receiving.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await receiving
        for group in following.groups:
            with contextlib.suppress(Exception):
                await layer.group_discard(group, channel)


async def heard(message: dict, following: Following, shown: int) -> tuple[int, bool]:
    """What a message of the layer means to the stream: the version to say (`shown` if none
    is newer), and whether the stream goes on."""
    kind = message["type"]
    if kind in (live.GAME_CHANGED, live.GAME_DELETED):
        return max(shown, message["version"]), kind == live.GAME_CHANGED
    if kind == live.SESSION_ENDED:
        return shown, False
    if kind in following.check_again_on:
        still_there = await following.games.aexists()
        await let_connections_go()
        return shown, still_there
    return shown, True


async def said(message: dict, following: Following, shown: int, version: int) -> str:
    """The event that says `version`, newer than the `shown` one said last: what the deal
    changed when it is the one change since, else the version alone."""
    if message["type"] == live.GAME_CHANGED and version == shown + 1:
        fragment = await delta_of(
            following.game_id, version, shared=following.shared, language=following.language
        )
        if fragment is not None:
            return delta_event(version, fragment)
    return f"data: {version}\n\n"


def delta_event(version: int, fragment: str) -> str:
    """`event: delta`: the version, then each line of the fragment, each a data line of its
    own (EventSource joins them with newlines). A carriage return would end a line too: none is
    left."""
    lines = [str(version), *fragment.replace("\r", "").split("\n")]
    return "event: delta\n" + "".join(f"data: {line}\n" for line in lines) + "\n"


# The deltas being rendered in this process, by game, version, kind and language: the streams
# of a game that hear of one deal wait for the one render. Each is removed once done.
RENDERING: dict[tuple[int, int, bool, str], asyncio.Future[str | None]] = {}


async def delta_of(game_id: int, version: int, *, shared: bool, language: str) -> str | None:
    """`stream_delta`, rendered in a worker thread once for all the streams asking it at once."""
    key = (game_id, version, shared, language)
    rendering = RENDERING.get(key)
    if rendering is None:
        render = sync_to_async(rendered, thread_sensitive=False)
        rendering = asyncio.ensure_future(render(game_id, version, shared, language))
        RENDERING[key] = rendering
        rendering.add_done_callback(lambda _: RENDERING.pop(key, None))
    # One stream hanging up doesn't cancel the render the others wait for.
    return await asyncio.shield(rendering)


def rendered(game_id: int, version: int, shared: bool, language: str) -> str | None:
    """`stream_delta`, its database connection given back after it; None if it fails (the
    phones then fetch the board, and the stream goes on)."""
    try:
        return stream_delta(game_id, version, shared=shared, language=language)
    except Exception:
        logger.exception("A deal's delta couldn't be rendered for its stream")
        return None
    finally:
        connections.close_all()


async def let_connections_go() -> None:
    """Give the database connection back (to PostgreSQL's pool) between a stream's reads: a
    request keeps its connection until it ends, and a stream lasts minutes."""
    await sync_to_async(connections.close_all)()


class EventStream(StreamingHttpResponse):
    """Server-sent events: never cached, nor held back by a proxy's buffer. `on_close` runs
    once the server is done with the response, whether or not it was ever sent."""

    def __init__(self, content: AsyncIterator[str], *, on_close: Callable[[], None]) -> None:
        super().__init__(content, content_type="text/event-stream")
        self["Cache-Control"] = "no-store"
        self["X-Accel-Buffering"] = "no"
        self.on_close = on_close

    def close(self) -> None:
        try:
            self.on_close()
        finally:
            super().close()


class OpenStreams:
    """How many streams this server holds for each member and each client address."""

    def __init__(self) -> None:
        self.lock = threading.Lock()  # taken on the event loop, given back from a thread too
        self.counts: Counter[str] = Counter()

    def take(self, *, member: str | None, address: str) -> Callable[[], None] | None:
        """A place for one more stream of `member` (None: a live view's, of no member) from
        `address`, and how to give it back (once, however often it is called); None if either
        has all its streams open."""
        keys = (f"address:{address}", *([f"member:{member}"] if member is not None else []))
        with self.lock:
            if self.counts[keys[0]] >= settings.STREAMS_PER_ADDRESS or (
                len(keys) > 1 and self.counts[keys[1]] >= settings.STREAMS_PER_MEMBER
            ):
                return None
            self.counts.update(keys)
        given_back = threading.Event()

        def give_back() -> None:
            with self.lock:
                if given_back.is_set():
                    return
                given_back.set()
                self.counts.subtract(keys)
                for key in keys:
                    if self.counts[key] <= 0:
                        del self.counts[key]

        return give_back


OPEN_STREAMS = OpenStreams()
