"""Clients that send slowly, or nothing, can't stall the site.

`make run`'s server is asynchronous (uvicorn): a connection dribbling its request holds no
worker, and everyone else is answered meanwhile. Before, three sockets sending a header line a
second stalled `make run` (gunicorn's sync workers) for 30 s at a time. No answer is timed: a
ping must come while the slow connections are still open and unfinished (its client gives up
after 10 s, a third of such a stall). uvicorn itself never closes a connection that is silent
or half-sent; a site open to strangers has the proxy of docs/deploying.md in front, which does,
and that proxy is run here with the site configuration deployed, deploy/nginx-site.conf (needs
nginx: `apt-get install nginx`; CI installs it).
"""

from __future__ import annotations

import os
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.servers import Server, free_port, served
from tools.server_layout import NGINX, NGINX_SITE, nginx_conf, on_ports


class Dribbler(threading.Thread):
    """A request's header sent a line every `gap` seconds, never finished, until `stop`.
    `sending` is set once its first lines are out; `closed`, if the other side hangs up."""

    def __init__(self, address: tuple[str, int], stop: threading.Event, gap: float = 1.0):
        super().__init__()
        self.address, self.stop, self.gap = address, stop, gap
        self.sending, self.closed = threading.Event(), threading.Event()

    def run(self) -> None:
        try:
            with socket.create_connection(self.address) as connection:
                connection.sendall(b"GET /ping/ HTTP/1.1\r\nHost: localhost\r\n")
                self.sending.set()
                line = 0
                while not self.stop.wait(self.gap):
                    connection.sendall(b"X-Slow-%d: yes\r\n" % line)
                    line += 1
        except OSError:
            self.closed.set()
        finally:
            self.sending.set()


def ping(url: str) -> int:
    """The status of /ping/ at `url`; a stall fails it after 10 s."""
    with urllib.request.urlopen(url, timeout=10) as answer:
        return answer.status


def test_slow_senders_dont_stall_make_runs_server(tmp_path):
    stop = threading.Event()
    with served(tmp_path) as server:
        senders = [Dribbler((server.host, server.port), stop) for _ in range(3)]
        for sender in senders:
            sender.start()
        try:
            for sender in senders:
                assert sender.sending.wait(10)
            statuses = [ping(server.url("/ping/")) for _ in range(10)]
            # Answered while every slow sender still held its connection, its request unfinished.
            held = [sender.is_alive() and not sender.closed.is_set() for sender in senders]
        finally:
            stop.set()
            for sender in senders:
                sender.join()
    assert statuses == [200] * 10
    assert held == [True] * 3


def nginx_in_front(tmp_path: Path, server: Server, port: int) -> subprocess.Popen:
    """nginx on `port` with the site of deploy/nginx-site.conf, its pages and its streams both
    passed to `server` (`make run`'s uvicorn serves either)."""
    site = NGINX_SITE.read_text(encoding="utf-8")
    site = on_ports(site, pages=server.port, streams=server.port, listen=f"127.0.0.1:{port}")
    prefix = tmp_path / "nginx"
    prefix.mkdir()
    conf = prefix / "nginx.conf"
    conf.write_text(nginx_conf(site, prefix))
    process = subprocess.Popen([NGINX, "-p", str(prefix), "-c", str(conf), "-g", "daemon off;"])
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError((prefix / "error.log").read_text())


def closed_within(
    address: tuple[str, int], seconds: float, send: bytes = b"", sent: threading.Event | None = None
) -> float | None:
    """How long until the other side closes a connection that sent `send` (then a header line
    every second, if it sent anything) and never finished its request; None if it didn't.
    `sent` is set once the connection is open and `send` is out."""
    started = time.monotonic()
    with socket.create_connection(address) as connection:
        connection.settimeout(1)
        connection.sendall(send)
        if sent is not None:
            sent.set()
        while time.monotonic() - started < seconds:
            try:
                if connection.recv(1024) == b"":
                    return time.monotonic() - started
            except TimeoutError:
                if send:
                    try:
                        connection.sendall(b"X-Slow: yes\r\n")
                    except OSError:
                        return time.monotonic() - started
            except OSError:
                return time.monotonic() - started
    return None


@pytest.mark.skipif(
    not Path(NGINX).exists() and os.environ.get("REQUIRE_NGINX") != "1",
    reason="nginx isn't installed",
)
def test_the_documented_proxy_closes_silent_and_half_sent_connections(tmp_path):
    port = free_port()
    with served(tmp_path) as server:
        nginx = nginx_in_front(tmp_path, server, port)
        try:
            results: dict[str, float | None] = {}
            attempts = {
                "silent": b"",
                "half-sent": b"GET /ping/ HTTP/1.1\r\nHost: bigtwo.example.org\r\n",
            }
            sent = {name: threading.Event() for name in attempts}
            threads = [
                threading.Thread(
                    target=lambda name=name, send=send: results.update(
                        {name: closed_within(("127.0.0.1", port), 20, send, sent[name])}
                    )
                )
                for name, send in attempts.items()
            ]
            for thread in threads:
                thread.start()
            for event in sent.values():
                assert event.wait(10)
            assert ping(f"http://127.0.0.1:{port}/ping/") == 200
            answered_while_held = dict(results)  # nginx holds them 10 s (client_header_timeout)
            for thread in threads:
                thread.join()
        finally:
            nginx.terminate()
            nginx.wait(10)
    assert answered_while_held == {}
    # client_header_timeout 10s: closed then, not held for as long as they please.
    assert results["silent"] is not None and results["silent"] < 13
    assert results["half-sent"] is not None and results["half-sent"] < 13


def status_of_post(url: str, size: int) -> int:
    """The status a POST of `size` bytes gets (a 4xx is an answer here, not an error)."""
    request = urllib.request.Request(url, data=b"x" * size, method="POST")
    request.add_header("Content-Type", "application/octet-stream")
    try:
        with urllib.request.urlopen(request, timeout=20) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


@pytest.mark.skipif(
    not Path(NGINX).exists() and os.environ.get("REQUIRE_NGINX") != "1",
    reason="nginx isn't installed",
)
def test_the_documented_proxy_lets_score_files_through_to_the_import_page_only(tmp_path):
    port = free_port()
    with served(tmp_path) as server:
        nginx = nginx_in_front(tmp_path, server, port)
        try:
            elsewhere = status_of_post(f"http://127.0.0.1:{port}/accounts/login/", 5_000_000)
            import_page = status_of_post(f"http://127.0.0.1:{port}/clubs/1/import/", 5_000_000)
            logged = server.logged()
        finally:
            nginx.terminate()
            nginx.wait(10)
    # Bodies over 1 MB stop at the proxy, but for a score file, which reaches the site (to
    # be refused there, for a stranger: what matters here is that it gets there).
    assert elsewhere == 413
    assert '"POST /accounts/login/ HTTP/1.1"' not in logged
    assert import_page != 413
    assert '"POST /clubs/1/import/ HTTP/1.1"' in logged
