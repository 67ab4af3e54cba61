"""The capacity run's HTTP/1.1 on raw asyncio streams: a pool of keep-alive connections for the
requests (Pool), and one connection per phone for its game's event stream (read_head,
body_parts, EventStream), kept cheap so one core of clients holds thousands of them.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import NamedTuple


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
                except BaseException as error:  # cancelled too: an answer half read
                    connection[1].close()
                    connection = None
                    retry = isinstance(error, (OSError, asyncio.IncompleteReadError, ValueError))
                    if attempt == 2 or not retry:
                        raise
            raise AssertionError("unreachable")
        finally:
            self.idle.put_nowait(connection)


def request_bytes(method: str, path: str, headers: dict[str, str], body: bytes = b"") -> bytes:
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    if method != "GET" or body:
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


async def read_head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    """An answer's status and headers (lower-case names; every Set-Cookie joined by newlines)."""
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
    return status, answer


async def exchange(connection, method: str, path: str, headers: dict[str, str], body: bytes):
    reader, writer = connection
    writer.write(request_bytes(method, path, headers, body))
    status, answer = await read_head(reader)
    if "chunked" in answer.get("transfer-encoding", "").lower():
        data = b"".join([part async for part in body_parts(reader, answer)])
    else:
        length = int(answer.get("content-length", "0"))
        data = await reader.readexactly(length) if length else b""
    return Reply(status, answer, data.decode())


async def body_parts(reader: asyncio.StreamReader, headers: dict[str, str]) -> AsyncIterator[bytes]:
    """The body as it comes, chunk by chunk (chunked), or as read until the server closes."""
    if "chunked" not in headers.get("transfer-encoding", "").lower():
        while data := await reader.read(65536):
            yield data
        return
    while True:
        size = int((await reader.readuntil(b"\r\n")).split(b";", 1)[0], 16)
        if size == 0:
            await reader.readuntil(b"\r\n")  # no trailers are sent
            return
        data = await reader.readexactly(size + 2)
        yield data[:-2]


class Event(NamedTuple):
    """One server-sent event: its type ("message" unless it names one) and its data."""

    type: str
    data: str


class EventStream:
    """The server-sent events parser, as EventSource reads `text/event-stream`: fed the body's
    bytes as they come, it gives each event a blank line ends, with its type and its `data`
    (lines joined by "\\n"); comments (`:`) are skipped; `retry` is kept."""

    def __init__(self) -> None:
        self.pending = b""  # a line not ended yet
        self.data: list[str] = []
        self.type = ""
        self.retry_ms: int | None = None

    def feed(self, chunk: bytes) -> list[Event]:
        buffer, held = self.pending + chunk, b""
        if buffer.endswith(b"\r"):  # maybe the first half of a "\r\n": wait for the next byte
            buffer, held = buffer[:-1], b"\r"
        *lines, rest = buffer.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
        self.pending = rest + held
        events = []
        for raw in lines:
            line = raw.decode("utf-8", "replace")
            if not line:
                if self.data:
                    events.append(Event(self.type or "message", "\n".join(self.data)))
                self.data, self.type = [], ""
                continue
            if line.startswith(":"):
                continue
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if name == "data":
                self.data.append(value)
            elif name == "event":
                self.type = value
            elif name == "retry" and value.isdigit():
                self.retry_ms = int(value)
        return events
