"""The site as `make run` serves it (uvicorn on the ASGI application, its options as the
Makefile's), in a thread of the test's process and so on the test's database: the game pages'
streams stay open on it, which pytest-django's live server declines. It can fall over, as a
server does, and come back on the same address.

Its scripts and styles are the ones `make setup` collected (minified, as phones get them), which
the site's application found when it was loaded: the `static_collected` fixture (tests/conftest.py)
fails a test when one is older than the file it was collected from."""

from __future__ import annotations

import threading
import time
from contextlib import ExitStack

import uvicorn

from bigtwo_site.asgi import application
from tests.live_support import own_channel_layer
from tests.servers import free_port


class ThreadedSite:
    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._layer = ExitStack()

    def config(self) -> uvicorn.Config:
        """`make run`'s options (tests/webkit/test_server.py holds them together), and
        `timeout_graceful_shutdown=0`: once told to stop, the server waits for nothing (open
        streams, answers under way) and is gone at once, as one that falls over."""
        return uvicorn.Config(
            application,
            host="127.0.0.1",
            port=self.port,
            lifespan="off",
            proxy_headers=False,
            server_header=False,
            log_level="warning",
            timeout_graceful_shutdown=0,
        )

    def start(self) -> None:
        # A channel layer of each server's own, as each process of `make run` has one.
        self._layer.enter_context(own_channel_layer())
        self._server = uvicorn.Server(self.config())
        self._thread = threading.Thread(target=self._server.run, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 30
        while not self._server.started:
            assert self._thread.is_alive(), "uvicorn stopped as it started"
            assert time.monotonic() < deadline, "uvicorn didn't start within 30 s"
            time.sleep(0.02)

    def stop(self) -> None:
        """At once, as a server falls over; nothing if it is down already."""
        if self._thread is not None and self._thread.is_alive():
            self._server.should_exit = True
            self._thread.join(30)
            assert not self._thread.is_alive(), "uvicorn didn't stop within 30 s"
        self._layer.close()
