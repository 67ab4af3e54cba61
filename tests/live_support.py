"""What the tests of the games' streams share (scoring/live_changes.py)."""

import asyncio
import html
import re

from bigtwo_site.asgi import application
from scoring.live_changes import Watcher


class CacheOutage:
    """The streams' watcher failing every read while `down` is set, as it does while the shared
    cache doesn't answer (a Redis restarting)."""

    def __init__(self, monkeypatch, watcher: Watcher) -> None:
        self.down = False
        reads = watcher.read

        def read(*keys):
            if self.down:
                raise ConnectionError("the cache is down")
            return reads(*keys)

        monkeypatch.setattr(watcher, "read", read)


class Phone:
    """One request to the application, as an ASGI server makes it: what it sent back, message
    by message, and a way to hang up."""

    def __init__(self, loop, path: str, *, method: str = "GET", host: str = "testserver"):
        self.loop, self.sent = loop, asyncio.Queue()
        self.incoming: asyncio.Queue = asyncio.Queue()
        self.incoming.put_nowait({"type": "http.request", "body": b"", "more_body": False})
        address, _, query = path.partition("?")
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
            "headers": [(b"host", host.encode())],
            "client": ("127.0.0.1", 50000),
            "server": ("testserver", 80),
        }
        self.task = loop.create_task(application(scope, self.incoming.get, self.sent.put))

    def next(self, seconds: float = 2.0) -> dict:
        return self.loop.run_until_complete(asyncio.wait_for(self.sent.get(), seconds))

    def body(self) -> str:
        return self.next()["body"].decode()

    def said(self, seconds: float = 2.0) -> str | None:
        """What the stream writes next; None once it has ended."""
        message = self.next(seconds)
        return message["body"].decode() if message.get("more_body") else None

    def hang_up(self) -> None:
        self.incoming.put_nowait({"type": "http.disconnect"})
        self.loop.run_until_complete(asyncio.wait_for(self.task, 2))


def stream_address(client, game) -> str:
    """The address of the game's stream on the game page `client` opens, as its script reads it."""
    page = client.get(f"/games/{game.pk}/").content.decode()
    return html.unescape(re.search(r'id="board-follow"[^>]*data-changes="([^"]*)"', page)[1])


def status_of(loop, path: str, **request) -> int:
    """The status of the application's whole answer to `path` (`request`: as for `Phone`)."""
    phone = Phone(loop, path, **request)
    status = phone.next()["status"]
    phone.hang_up()
    return status
