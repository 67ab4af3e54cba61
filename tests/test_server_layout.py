"""The server layout of docs/deploying.md, run from the files in deploy/ (tools/server_layout.py):
nginx sends pages to gunicorn and the games' streams to uvicorn, a deal recorded through
gunicorn reaches the stream uvicorn holds, through Redis, and bodies sent slowly, more of them
than gunicorn has threads, hold none of its threads.

The servers share a database of their own: a SQLite file in the test's directory, or with
DATABASE_URL a fresh database on that PostgreSQL server; REDIS_URL's Redis, or a throwaway
redis-server. Needs nginx and redis-server (skipped without them unless REQUIRE_NGINX=1).
"""

from __future__ import annotations

import http.client
import http.cookiejar
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.servers import ROOT, SERVER_COMMAND, server_environment
from tools.server_layout import (
    DEPLOY,
    NGINX,
    NGINX_SITE,
    PER_ADDRESS,
    REDIS_SERVER,
    STREAMS_UNIT,
    ServerLayout,
    free_port,
    nginx_conf,
    unit_commands,
)

BOUND = 20  # seconds: what takes a fraction of one, on a busy machine
# Every server pinned to one core, as the load tool pins them: still a whole site.
ONE_CORE = {min(os.sched_getaffinity(0))}


def test_deploying_md_holds_every_file_of_deploy_verbatim():
    documented = (ROOT / "docs" / "deploying.md").read_text(encoding="utf-8")
    files = sorted(DEPLOY.iterdir())
    assert [path.name for path in files] == [
        "bigtwo-pages.service",
        "bigtwo-streams.service",
        "nginx-site.conf",
    ]
    for path in files:
        language = "nginx" if path.suffix == ".conf" else "ini"
        assert f"```{language}\n{path.read_text(encoding='utf-8')}```" in documented, path.name


def test_the_streams_unit_starts_uvicorn_as_make_run_does():
    """With the options of `make run` (tests/bigtwo_site/test_start_up.py holds the Makefile's
    and the tests' server's together), on the streams' settings
    (tests/bigtwo_site/test_stream_server.py)."""
    (command,) = unit_commands(STREAMS_UNIT.read_text(encoding="utf-8"))
    application = "bigtwo_site.stream_asgi:application"
    assert command[command.index(application) - 1] == "uvicorn"
    options = command[command.index(application) + 1 :]
    made = SERVER_COMMAND[SERVER_COMMAND.index("bigtwo_site.asgi:application") + 1 :]
    for option in ("--lifespan", "--no-proxy-headers", "--no-server-header"):
        assert option in options and option in made
    assert options[options.index("--lifespan") + 1] == "off"
    graceful = "--timeout-graceful-shutdown"  # its open streams ended once stopped
    assert options[options.index(graceful) + 1] == made[made.index(graceful) + 1]


def test_a_load_tool_can_raise_nginxs_limits_on_connections(tmp_path):
    """Its phones all come from 127.0.0.1: deploy's limit per address is found, to be raised."""
    site = NGINX_SITE.read_text(encoding="utf-8")
    assert PER_ADDRESS.findall(site) == ["    limit_conn bigtwo_addresses"]
    conf = nginx_conf(site, tmp_path, 5000)
    assert "events {worker_connections 5000;}" in conf
    assert "events {}" in nginx_conf(site, tmp_path)  # nginx's own 512 else


def lacking() -> list[str]:
    """What the layout needs and this machine lacks: redis-server only without REDIS_URL."""
    needed = {"nginx": NGINX}
    if not os.environ.get("REDIS_URL"):
        needed["redis-server"] = REDIS_SERVER
    return [name for name, path in needed.items() if not Path(path).exists()]


@contextmanager
def own_database(var_dir: Path) -> Iterator[dict[str, str]]:
    """The servers' environment on a database of their own: with DATABASE_URL, a fresh one on
    that PostgreSQL server, dropped afterwards; else SQLite in `var_dir`."""
    admin_url = os.environ.get("DATABASE_URL", "")
    if not admin_url:
        yield server_environment(var_dir)
        return
    import psycopg

    name = f"layout_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    url = urllib.parse.urlunsplit(urllib.parse.urlsplit(admin_url)._replace(path=f"/{name}"))
    try:
        yield server_environment(var_dir, DATABASE_URL=url)
    finally:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="module")
def layout(tmp_path_factory) -> Iterator[ServerLayout]:
    if (absent := lacking()) and os.environ.get("REQUIRE_NGINX") != "1":
        pytest.skip(f"{' and '.join(absent)} isn't installed")
    var_dir = tmp_path_factory.mktemp("layout")
    with own_database(var_dir) as env:
        redis_url = os.environ.get("REDIS_URL") or None
        with ServerLayout(
            env, free_port(), redis_url=redis_url, cpus=ONE_CORE, directory=var_dir
        ) as served:
            yield served


class Phone:
    """A browser through nginx: its cookies kept, redirects followed."""

    def __init__(self, layout: ServerLayout) -> None:
        self.url, self.cookies = layout.url, http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def get(self, path: str) -> tuple[int, str]:
        with self.opener.open(self.url + path, timeout=BOUND) as answer:
            return answer.status, answer.read().decode()

    def post(self, path: str, fields: dict[str, str]) -> int:
        fields = {"csrfmiddlewaretoken": self.cookie("csrftoken"), **fields}
        data = urllib.parse.urlencode(fields).encode()
        with self.opener.open(self.url + path, data=data, timeout=BOUND) as answer:
            return answer.status

    def cookie(self, name: str) -> str:
        return next(cookie.value for cookie in self.cookies if cookie.name == name)

    def cookie_header(self) -> str:
        return "; ".join(f"{cookie.name}={cookie.value}" for cookie in self.cookies)

    def log_in(self, username: str, password: str) -> None:
        _, page = self.get("/accounts/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)[1]
        fields = {"username": username, "password": password, "csrfmiddlewaretoken": token}
        assert self.post("/accounts/login/", fields) == 200
        assert self.cookie("sessionid")


@pytest.fixture(scope="module")
def game(layout: ServerLayout) -> tuple[str, str, int]:
    """A club's owner and a game of theirs, made in the servers' database: the username, the
    password and the game's id."""
    code = (
        "from tests.factories import PASSWORD, make_club, make_game;"
        "club = make_club(); game = make_game(club);"
        "print(club.owner.username, PASSWORD, game.pk, sep='|')"
    )
    command = [sys.executable, "manage.py", "shell", "-v", "0", "-c", code]
    made = subprocess.run(command, cwd=ROOT, env=layout.env, check=True, capture_output=True)
    username, password, game_id = made.stdout.decode().strip().splitlines()[-1].split("|")
    return username, password, int(game_id)


class Stream:
    """A game's stream held open through nginx, read an event at a time."""

    def __init__(self, layout: ServerLayout, path: str, cookie: str) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", layout.port, timeout=BOUND)
        self.connection.request("GET", path, headers={"Cookie": cookie})
        self.answer = self.connection.getresponse()

    def until(self, line: str) -> list[str]:
        """Every line read until `line`; a stall fails after BOUND seconds."""
        read, deadline = [], time.monotonic() + BOUND
        while time.monotonic() < deadline:
            read.append(self.answer.readline().decode().rstrip("\n"))
            if read[-1] == line:
                return read
        raise AssertionError(f"no {line!r} within {BOUND} s: {read}")

    def close(self) -> None:
        self.connection.close()


def answered_by(layout: ServerLayout, request: str, port: int) -> bool:
    """Whether nginx logged `request` ("GET /ping/ 200") as answered on `port`; nginx writes
    its line once the answer is out, so it is waited for."""
    line, deadline = f"{request} 127.0.0.1:{port}", time.monotonic() + BOUND
    while time.monotonic() < deadline:
        if line in layout.upstreams():
            return True
        time.sleep(0.1)
    return False


def test_pages_are_served_by_gunicorn_and_streams_by_uvicorn(layout, game):
    username, password, game_id = game
    phone = Phone(layout)
    phone.log_in(username, password)
    game_page = f"/games/{game_id}/"
    assert phone.get("/ping/")[0] == 200
    assert phone.get(game_page)[0] == 200

    stream = Stream(layout, f"/games/{game_id}/changes/", phone.cookie_header())
    try:
        assert stream.answer.status == 200
        assert stream.answer.getheader("Content-Type").startswith("text/event-stream")
        assert stream.until("data: 0")[0] == "retry: 2000"
        # Recorded through gunicorn; told through Redis to the stream uvicorn holds.
        deal = {"cards_0": "0", "cards_1": "5", "cards_2": "6", "cards_3": "7", "number": "1"}
        assert phone.post(f"/games/{game_id}/deals/", deal | {"token": str(uuid.uuid4())}) == 200
        assert stream.until("data: 1")
    finally:
        stream.close()

    assert answered_by(layout, "GET /ping/ 200", layout.pages_port)
    assert answered_by(layout, f"GET {game_page} 200", layout.pages_port)
    assert answered_by(layout, f"POST /games/{game_id}/deals/ 302", layout.pages_port)
    assert answered_by(layout, f"GET /games/{game_id}/changes/ 200", layout.streams_port)


def test_a_live_views_stream_goes_to_uvicorn_too(layout):
    phone = Phone(layout)
    with pytest.raises(urllib.error.HTTPError) as refused:
        phone.get("/live/no-such-link/changes/")
    assert refused.value.code == 404
    assert answered_by(layout, "GET /live/no-such-link/changes/ 404", layout.streams_port)


def test_gunicorn_would_not_hold_a_stream(layout, game):
    """Why nginx sends the streams elsewhere: under WSGI the stream view answers 204 at once."""
    username, password, game_id = game
    phone = Phone(layout)
    phone.log_in(username, password)
    connection = http.client.HTTPConnection("127.0.0.1", layout.pages_port, timeout=BOUND)
    try:
        connection.request(
            "GET", f"/games/{game_id}/changes/", headers={"Cookie": phone.cookie_header()}
        )
        assert connection.getresponse().status == 204
    finally:
        connection.close()


def test_every_process_of_the_layout_is_named_and_pinned(layout):
    pids = layout.pids()
    assert len(pids["gunicorn"]) == 3  # its master and two workers (bigtwo-pages.service)
    assert len(pids["nginx"]) == 2  # its master and one worker
    assert len(pids["uvicorn"]) == 1
    for pid in [pid for group in pids.values() for pid in group]:
        assert os.sched_getaffinity(pid) == ONE_CORE
    assert layout.cpu_seconds()["gunicorn"] > 0  # its start, at least: Django imported


SLOW_BODIES = 12  # more than gunicorn's 2 processes of 4 threads (bigtwo-pages.service)


def send_slowly(connections: list[socket.socket], stop: threading.Event) -> None:
    """A byte of each connection's body a second, until `stop` (or one is closed)."""
    while not stop.wait(1):
        for connection in connections:
            connection.sendall(b"a")


def test_bodies_sent_slowly_hold_none_of_gunicorns_threads(layout):
    """nginx reads a request's body whole before gunicorn sees it: phones dribbling theirs to
    the login page, more of them than gunicorn has threads, leave every page answered."""
    # With a CSRF cookie, the site reads the form for its token: the body is waited for.
    head = (
        b"POST /accounts/login/ HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000\r\n"
        b"Cookie: csrftoken=" + b"a" * 32 + b"\r\n"
        b"Content-Type: application/x-www-form-urlencoded\r\n\r\nusername="
    )
    connections = [socket.create_connection(("127.0.0.1", layout.port)) for _ in range(SLOW_BODIES)]
    stop = threading.Event()
    sender = threading.Thread(target=send_slowly, args=(connections, stop))
    try:
        for connection in connections:
            connection.sendall(head)
        sender.start()
        pings = [Phone(layout).get("/ping/")[0] for _ in range(2 * SLOW_BODIES)]
        held = sender.is_alive()  # no connection was closed under it
    finally:
        stop.set()
        if sender.is_alive():
            sender.join()
        for connection in connections:
            connection.close()
    assert pings == [200] * 2 * SLOW_BODIES
    assert held
