"""HTTP as the tool's phones speak it, through aiohttp: a pool of keep-alive connections for
their requests, each phone's cookies sent and kept (Pool.request), and a connection of its own
for each game's event stream (Pool.stream), read as EventSource reads it (`events`)."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterable, AsyncIterator, Mapping
from typing import NamedTuple

import aiohttp

FAILURES = (aiohttp.ClientError, OSError)  # no answer: refused, reset, cut, timed out
IDLE_SECONDS = 4.0  # a kept connection idle this long is opened anew: uvicorn closes it at 5 s
ANSWER_SECONDS = 60.0  # the longest a request waits for its answer, once sent
Address = tuple[str, int]


class Reply(NamedTuple):
    """An answer, read whole."""

    status: int
    headers: Mapping[str, str]  # any case
    body: str


class Pool:
    """`size` keep-alive connections to each server, shared by every phone, and a connection of
    its own for each stream; requests and streams take the servers in turn. Open it with
    `async with`: aiohttp's sessions live on the running event loop."""

    def __init__(self, addresses: list[Address], size: int = 64) -> None:
        self.servers = itertools.cycle([f"http://{host}:{port}" for host, port in addresses])
        self.size = size

    async def __aenter__(self) -> Pool:
        # Cookies are each phone's own; no compression asked for, as the answers were measured.
        own = {"cookie_jar": aiohttp.DummyCookieJar(), "skip_auto_headers": ["Accept-Encoding"]}
        kept = aiohttp.TCPConnector(
            limit=0, limit_per_host=self.size, keepalive_timeout=IDLE_SECONDS
        )
        # The bound is on the answer, not on the wait for a connection: a phone queued behind a
        # busy server is late, which its request's time shows, not failed.
        timeout = aiohttp.ClientTimeout(total=None, sock_read=ANSWER_SECONDS)
        self.requests = aiohttp.ClientSession(connector=kept, timeout=timeout, **own)
        alone = aiohttp.TCPConnector(limit=0, force_close=True)
        timeout = aiohttp.ClientTimeout(total=None)
        self.streams = aiohttp.ClientSession(connector=alone, timeout=timeout, **own)
        return self

    async def __aexit__(self, *exc) -> None:
        await self.requests.close()
        await self.streams.close()

    async def request(
        self, method: str, path: str, cookies: dict[str, str], form=None, headers=None
    ) -> Reply:
        """Send the request with `cookies`, which keep what its answer sets (and lose what it
        deletes); `form` is sent as a form's fields are."""
        headers = {"Cookie": cookie_header(cookies), **(headers or {})}
        async with self.requests.request(
            method, next(self.servers) + path, headers=headers, data=form, allow_redirects=False
        ) as response:
            body = await response.read()
        for name, morsel in response.cookies.items():
            if morsel.value and morsel["max-age"] != "0":
                cookies[name] = morsel.value
            else:
                cookies.pop(name, None)
        return Reply(response.status, response.headers, body.decode())

    def stream(self, path: str, cookies: dict[str, str]):
        """A connection of its own asking for the event stream at `path`, for `async with`: its
        answer, the body yet to come."""
        headers = {"Accept": "text/event-stream", "Cookie": cookie_header(cookies)}
        return self.streams.get(next(self.servers) + path, headers=headers)


def cookie_header(cookies: dict[str, str]) -> str:
    return "; ".join(f"{name}={value}" for name, value in cookies.items())


class Event(NamedTuple):
    """One server-sent event: its type ("message" unless it names one) and its data."""

    type: str
    data: str


async def events(lines: AsyncIterable[bytes]) -> AsyncIterator[Event]:
    """Server-sent events read as EventSource reads them from a stream's lines (aiohttp's
    reading, each line ending "\\n", "\\r\\n" too, as the site writes them): each event's type
    and data (lines joined by "\\n"); comments, `id` and `retry` skipped."""
    data: list[str] = []
    kind = ""
    async for raw in lines:
        line = raw.decode("utf-8", "replace").removesuffix("\n").removesuffix("\r")
        name, _, value = line.partition(":")
        if not line and data:
            yield Event(kind or "message", "\n".join(data))
        if not line:
            data, kind = [], ""
        elif name == "data":
            data.append(value.removeprefix(" "))
        elif name == "event":
            kind = value.removeprefix(" ")
