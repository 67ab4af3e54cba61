"""What the tests of the games' streams share (scoring/views/streams.py): a request to the site's
ASGI application as the server makes it, and what it sends back."""

from __future__ import annotations

import asyncio
import contextlib
import html
import re
from collections.abc import Iterator

from asgiref.sync import sync_to_async
from channels import DEFAULT_CHANNEL_LAYER
from channels.layers import channel_layers
from django.db import connections

from bigtwo_site.asgi import application


@contextlib.contextmanager
def own_channel_layer() -> Iterator[None]:
    """A channel layer of its own for one event loop, as each process of `make run` has: a Redis
    layer receives on one loop only, and a test's loop or server lives shorter than the process."""
    previous = channel_layers[DEFAULT_CHANNEL_LAYER]
    channel_layers.set(DEFAULT_CHANNEL_LAYER, channel_layers.make_backend(DEFAULT_CHANNEL_LAYER))
    try:
        yield
    finally:
        channel_layers.set(DEFAULT_CHANNEL_LAYER, previous)


class Phone:
    """One request to the site's ASGI application (or `app`), as an ASGI server makes it: what
    it sent back, message by message, and a way to hang up."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        path: str,
        *,
        cookie: str = "",
        method: str = "GET",
        headers: list[tuple[bytes, bytes]] | None = None,
        client: str = "127.0.0.1",
        app=application,
    ) -> None:
        self.loop, self.sent = loop, asyncio.Queue()
        self.incoming: asyncio.Queue = asyncio.Queue()
        self.incoming.put_nowait({"type": "http.request", "body": b"", "more_body": False})
        address, _, query = path.partition("?")
        sent_headers = headers if headers is not None else [(b"host", b"testserver")]
        if cookie:
            sent_headers = [*sent_headers, (b"cookie", cookie.encode())]
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": address,
            "raw_path": address.encode(),
            "root_path": "",
            "query_string": query.encode(),
            "headers": sent_headers,
            "client": (client, 50000),
            "server": ("testserver", 80),
        }
        self.task = loop.create_task(app(scope, self.incoming.get, self.sent.put))

    def next(self, seconds: float = 10.0) -> dict:
        """What the application sends next; a stall fails after `seconds`."""
        return self.loop.run_until_complete(asyncio.wait_for(self.sent.get(), seconds))

    def status(self) -> int:
        return self.next()["status"]

    def said(self, seconds: float = 10.0) -> str | None:
        """What the stream writes next; None once it has ended."""
        message = self.next(seconds)
        return message["body"].decode() if message.get("more_body") else None

    def hang_up(self) -> None:
        self.incoming.put_nowait({"type": "http.disconnect"})
        self.loop.run_until_complete(asyncio.wait_for(self.task, 10))


def session_cookie(client) -> str:
    """The Cookie header of a test client's session (after `force_login`)."""
    return "; ".join(f"{name}={morsel.value}" for name, morsel in client.cookies.items())


def stream_address(client, game) -> str:
    """The address of the game's stream on the game page `client` opens, as its script reads it."""
    page = client.get(f"/games/{game.pk}/").content.decode()
    return html.unescape(re.search(r'id="board-follow"[^>]*data-changes="([^"]*)"', page)[1])


def signed_in(client, user) -> str:
    client.force_login(user)
    return session_cookie(client)


def done(loop, work, *args, **kwargs):
    """A write as a view makes it, in a thread beside the event loop the streams run on, which
    lets its database connection go afterwards, as a request does."""

    def write():
        try:
            return work(*args, **kwargs)
        finally:
            connections.close_all()

    return loop.run_until_complete(sync_to_async(write)())


def opened(loop, path: str, cookie: str, **request) -> Phone:
    phone = Phone(loop, path, cookie=cookie, **request)
    assert phone.status() == 200
    return phone
