"""HTTP/1.1 as the tool's phones speak it, on raw asyncio streams: a pool of keep-alive
connections for their requests (Pool), and a connection of its own for each game's event stream
(`open_stream`, `body_parts`, EventStream). Raw streams rather than a client library, so that one
core of clients holds thousands of phones and their streams."""

import asyncio
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import NamedTuple

FAILURES = (OSError, asyncio.IncompleteReadError, ValueError)  # no answer: refused, reset, cut
IDLE_SECONDS = 4.0  # a kept connection idle this long is opened anew: uvicorn closes it at 5 s
ANSWER_SECONDS = 60.0  # the longest a request waits for its answer (TimeoutError: an OSError)
Address = tuple[str, int]


@dataclass
class Reply:
    """An answer, read whole."""

    status: int
    headers: dict[str, str]  # lower-case names; every Set-Cookie joined by newlines
    body: str


class Connection:
    """One keep-alive connection to a server."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.used = time.monotonic()

    async def exchange(self, method: str, path: str, headers: dict[str, str], body: bytes):
        self.writer.write(request_bytes(method, path, headers, body))
        status, answer = await read_head(self.reader)
        data = b"".join([part async for part in body_parts(self.reader, answer)])
        self.used = time.monotonic()
        return Reply(status, answer, data.decode())


class Pool:
    """`size` keep-alive connections to each server, one request at a time on each, shared by
    every phone; requests, and streams, take the servers in turn."""

    def __init__(self, addresses: list[Address], size: int) -> None:
        self.addresses = addresses
        self.idle = [asyncio.LifoQueue[Connection | None]() for _ in addresses]
        for queue in self.idle:
            for _ in range(size):
                queue.put_nowait(None)
        self.turn = 0

    def next_server(self) -> int:
        self.turn += 1
        return self.turn % len(self.addresses)

    async def request(
        self, method: str, path: str, headers: dict[str, str], body: bytes = b""
    ) -> Reply:
        server = self.next_server()
        connection = await self.idle[server].get()
        try:
            if connection is None or time.monotonic() - connection.used > IDLE_SECONDS:
                if connection is not None:
                    connection.writer.close()
                connection = None
                connection = Connection(*await asyncio.open_connection(*self.addresses[server]))
            async with asyncio.timeout(ANSWER_SECONDS):
                reply = await connection.exchange(method, path, headers, body)
            if reply.headers.get("connection", "").lower() == "close":
                connection.writer.close()
                connection = None
            return reply
        except BaseException:  # cancelled too: an answer half read
            if connection is not None:
                connection.writer.close()
            connection = None
            raise
        finally:
            self.idle[server].put_nowait(connection)

    async def open_stream(self, path: str, headers: dict[str, str]):
        """A connection of its own asking for `path`: (status, headers, reader, writer)."""
        reader, writer = await asyncio.open_connection(*self.addresses[self.next_server()])
        try:
            writer.write(request_bytes("GET", path, headers))
            status, answer = await read_head(reader)
        except BaseException:
            writer.close()
            raise
        return status, answer, reader, writer


def request_bytes(method: str, path: str, headers: dict[str, str], body: bytes = b"") -> bytes:
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    if method != "GET" or body:
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


async def read_head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    """An answer's status and headers."""
    head = await reader.readuntil(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    answer: dict[str, str] = {"set-cookie": ""}
    for line in header_lines:
        name, colon, value = line.partition(":")
        if colon:
            name, value = name.strip().lower(), value.strip()
            joined = answer.get(name) if name == "set-cookie" else ""
            answer[name] = f"{joined}\n{value}" if joined else value
    return int(status_line.split()[1]), answer


async def body_parts(reader: asyncio.StreamReader, headers: dict[str, str]) -> AsyncIterator[bytes]:
    """The body as it comes: chunk by chunk (chunked, as a stream is sent), or all of it."""
    if "chunked" not in headers.get("transfer-encoding", "").lower():
        if length := int(headers.get("content-length", "0")):  # none: no body (204)
            yield await reader.readexactly(length)
        return
    while size := int((await reader.readuntil(b"\r\n")).split(b";", 1)[0], 16):
        yield (await reader.readexactly(size + 2))[:-2]
    await reader.readuntil(b"\r\n")  # the end, with no trailers


class Event(NamedTuple):
    """One server-sent event: its type ("message" unless it names one) and its data."""

    type: str
    data: str


@dataclass
class EventStream:
    """Server-sent events read as EventSource reads them, from the body's bytes as they come:
    each event's type and data (lines joined by "\\n"); comments, `id` and `retry` skipped."""

    pending: bytes = b""  # a line not ended yet
    data: list[str] = field(default_factory=list)
    type: str = ""

    def feed(self, chunk: bytes) -> list[Event]:
        buffer, held = self.pending + chunk, b""
        if buffer.endswith(b"\r"):  # maybe the first half of a "\r\n": wait for the next byte
            buffer, held = buffer[:-1], b"\r"
        *lines, rest = buffer.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
        self.pending = rest + held
        events = []
        for line in (raw.decode("utf-8", "replace") for raw in lines):
            if not line:
                if self.data:
                    events.append(Event(self.type or "message", "\n".join(self.data)))
                self.data, self.type = [], ""
                continue
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if name == "data":
                self.data.append(value)
            elif name == "event":
                self.type = value
        return events
