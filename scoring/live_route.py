"""The games' streams (scoring/live_changes.py) served straight from the ASGI server, in front of
Django's handler: bigtwo_site/asgi.py sends `GET /games/<id>/changes/` here, all else to Django.

A stream needs none of what Django's middleware does for a page (a session, an account, CSRF,
the language, the headers that guard HTML): the pass it carries says who may follow
(scoring/poll_tokens.py). Through Django's handler, opening one cost 2.7 ms of CPU, most of it
the hops between the event loop and the one thread where Django runs synchronous middleware, one
opening after another; at 950 tables on a core the openings' p95 was the first to pass 300 ms
(issue 16). The host is still checked: one ALLOWED_HOSTS doesn't name goes to Django, which
refuses it as it refuses any other.

The view `scoring.views.live.changes` keeps the address (pages name it with `{% url %}`), and
answers where there is no ASGI server: 204, and the page polls.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncGenerator, Awaitable, Callable
from typing import Any
from urllib.parse import parse_qs

from django.conf import settings
from django.http.request import split_domain_port, validate_host

from scoring import live_changes

type Scope = dict[str, Any]
type Receive = Callable[[], Awaitable[dict[str, Any]]]
type Send = Callable[[dict[str, Any]], Awaitable[None]]
type ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

STREAM_PATH = re.compile(r"/games/(\d+)/changes/")
HEADERS = [
    (b"content-type", b"text/event-stream"),
    (b"cache-control", b"no-store"),
    # nginx would otherwise hold the events back in its buffer.
    (b"x-accel-buffering", b"no"),
    (b"x-content-type-options", b"nosniff"),
]


def streams_first(django: ASGIApp) -> ASGIApp:
    """The site's ASGI application: a game's stream served here, anything else by `django`."""

    async def application(scope: Scope, receive: Receive, send: Send) -> None:
        game_id = stream_asked(scope)
        if game_id is None:
            await django(scope, receive, send)
        else:
            await serve(scope, receive, send, game_id)

    return application


def stream_asked(scope: Scope) -> int | None:
    """The game whose stream a request asks for, from an allowed host; None for anything else."""
    if scope["type"] != "http" or scope["method"] != "GET":
        return None
    path, root = scope["path"], scope.get("root_path", "")
    found = STREAM_PATH.fullmatch(path.removeprefix(root) if root else path)
    if found is None or not host_allowed(scope):
        return None
    return int(found.group(1))


def host_allowed(scope: Scope) -> bool:
    """Whether the Host header names a host ALLOWED_HOSTS allows, as Django's `get_host` checks
    it (with DEBUG and no ALLOWED_HOSTS, the local names)."""
    host = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
    allowed = settings.ALLOWED_HOSTS
    if settings.DEBUG and not allowed:
        allowed = [".localhost", "127.0.0.1", "[::1]"]
    domain, _ = split_domain_port(host)
    return bool(domain) and validate_host(domain, allowed)


async def serve(scope: Scope, receive: Receive, send: Send, game_id: int) -> None:
    """The stream for the pass in the query string (`t`), until the phone hangs up or the
    member is let go; 403 for a pass that isn't good for this game."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    token = query.get("t", [""])[-1]
    # The pass's series is read from the shared cache, whose client blocks.
    follower = await asyncio.to_thread(live_changes.follower_for, token, game_id)
    if follower is None:
        await send({"type": "http.response.start", "status": 403, "headers": []})
        await send({"type": "http.response.body", "body": b""})
        return
    await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
    writing = asyncio.create_task(_write(send, live_changes.stream(follower)))
    hanging_up = asyncio.create_task(_hung_up(receive))
    try:
        await asyncio.wait({writing, hanging_up}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        # Either the phone hung up (the stream's generator is cancelled: its follower leaves
        # the watcher) or the stream ended; or the server is stopping, and both are cancelled.
        writing.cancel()
        hanging_up.cancel()
        await asyncio.gather(writing, hanging_up, return_exceptions=True)


async def _write(send: Send, chunks: AsyncGenerator[bytes]) -> None:
    try:
        async for chunk in chunks:
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
        await send({"type": "http.response.body", "body": b""})  # the member was let go
    finally:
        await chunks.aclose()  # cancelled while sending: its follower leaves the watcher now


async def _hung_up(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass
