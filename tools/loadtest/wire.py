"""HTTP as the tool's phones speak it, through aiohttp: requests and event streams."""

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
    """`size` kept connections a server, one for each stream, opened with `async with`."""

    def __init__(self, addresses: list[Address], size: int = 64) -> None:
        self.servers = itertools.cycle([f"http://{host}:{port}" for host, port in addresses])
        self.size = size

    async def __aenter__(self) -> Pool:
        # Cookies are each phone's own; no compression asked for, as the answers were measured.
        own = {"cookie_jar": aiohttp.DummyCookieJar(), "skip_auto_headers": ["Accept-Encoding"]}
        kept = aiohttp.TCPConnector(
            limit=0, limit_per_host=self.size, keepalive_timeout=IDLE_SECONDS
        )
        # The bound is on the answer, not the wait for a connection: a queued phone is late.
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
        """Send the request with `cookies`, which keep what its answer sets or deletes."""
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
        """The event stream at `path` on a connection of its own, for `async with`."""
        headers = {"Accept": "text/event-stream", "Cookie": cookie_header(cookies)}
        return self.streams.get(next(self.servers) + path, headers=headers)


def cookie_header(cookies: dict[str, str]) -> str:
    return "; ".join(f"{name}={value}" for name, value in cookies.items())


class Event(NamedTuple):
    """One server-sent event: its type ("message" unless it names one) and its data."""

    type: str
    data: str


async def events(lines: AsyncIterable[bytes]) -> AsyncIterator[Event]:
    """Server-sent events read from a stream's lines as EventSource reads them: each event's type
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
