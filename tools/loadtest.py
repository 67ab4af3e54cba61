"""A league night on one small server: load, a throughput yardstick, and a crash.

    python tools/loadtest.py [--db sqlite|postgres] [--seconds 60] [--scorekeepers 50]
                             [--viewers 200] [--servers 1|2]
    python tools/loadtest.py crash [--db sqlite|postgres] [--servers 1|2] [--seconds 30]

Everything it needs it makes and removes itself: a fresh database (a SQLite file in a temporary
DJANGO_VAR_DIR, or a `loadtest_<pid>` database on the PostgreSQL server DATABASE_URL names,
dropped at the end), migrated and seeded through scoring.services; then gunicorn on 127.0.0.1
(with `--servers 2`, two servers on two ports sharing the PostgreSQL database, every client
alternating its requests between them). Clients are threads speaking HTTP/1.1 with the
standard library, one keep-alive connection per server each.

Run (the default):
  logging in   every scorekeeper opens the login page and posts its password (not timed in
               the load: each login costs one password hash, about 1.5 s of CPU here)
  phase A      for --seconds: scorekeepers record random deals of their own game with htmx,
               0.5-1.5 s apart, starting a new game when one ends; viewers follow a game's
               poll every ~2 s, reloading the whole game page every ~5th time and the
               standings of the 1,000-game season every ~10th
  phase B      closed loop, --bench-threads threads, --bench-seconds per page: /ping/ (the
               bare view through the whole middleware: the yardstick), the game page's poll
               answering 204 (the floor of any members-only page: session, user, one query),
               a game page, recording a deal, the season's standings; each as a share of
               /ping/'s throughput
Crash: scorekeepers record deals with little think time while every server is killed with
SIGKILL (master and workers, the whole process group) and started again; a client whose
request died sends it again with the same token, as the phone does.

Afterwards the database is checked against what the clients were told: every deal a client was
told was recorded is there once with the cards it sent, no deal is there that no client was
told about, every deal has its four scores and its line of history, stored totals are the sum
of the penalties (rules.penalties.replay), and services.recompute would change nothing.
The exit status is 1 when anything was lost, doubled, half-written or answered with an error.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import random
import re
import resource
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PASSWORD = "league night 2 of clubs"
SEAT_NAMES = ("Ann", "Ben", "Cat", "Dev")
LEAGUE_NAMES = ("Alice", "Ben", "Chloe", "Dan", "Emma", "Frank", "Grace", "Hannah")
TIMEOUT = 60  # seconds a client waits for an answer (50 logins queue behind each other)
IDLE_REOPEN = 5  # seconds: reopen a keep-alive connection idle this long (server keeps 10)
TARGETS = {"game page": 0.50, "record a deal": 0.25, "standings": 0.10}

NUMBER_RE = re.compile(r'name="number" value="(\d+)"')
TOKEN_RE = re.compile(r'name="token" value="([0-9a-f-]{36})"')
CSRF_RE = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
VERSION_RE = re.compile(r"/board/\?v=(\d+)")
GAME_RE = re.compile(r"/games/(\d+)/$")


# HTTP


class ConnectionFailed(Exception):
    """The request got no answer: refused, reset, or timed out."""


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: str
    seconds: float


class Browser:
    """One phone: its cookies, and a keep-alive connection to each server, used in turn."""

    def __init__(self, servers: list[tuple[str, int]]) -> None:
        self.servers = servers
        self.connections: list[http.client.HTTPConnection | None] = [None] * len(servers)
        self.last_used = [0.0] * len(servers)
        self.turn = random.randrange(len(servers))
        self.cookies: dict[str, str] = {}

    def request(
        self, method: str, path: str, form: dict[str, object] | None = None, htmx: bool = False
    ) -> Answer:
        index = self.turn % len(self.servers)
        self.turn += 1
        connection = self.connections[index]
        if connection is None or time.monotonic() - self.last_used[index] > IDLE_REOPEN:
            if connection is not None:
                connection.close()
            connection = http.client.HTTPConnection(*self.servers[index], timeout=TIMEOUT)
            self.connections[index] = connection
        headers = {"Host": "127.0.0.1"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        if htmx:
            headers["HX-Request"] = "true"
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        started = time.perf_counter()
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException) as error:
            connection.close()
            self.connections[index] = None
            raise ConnectionFailed(f"{method} {path}: {error!r}") from error
        seconds = time.perf_counter() - started
        self.last_used[index] = time.monotonic()
        for value in response.msg.get_all("Set-Cookie") or []:
            name, _, rest = value.partition("=")
            cookie_value = rest.split(";", 1)[0]
            if "max-age=0" in value.lower() or cookie_value in ('""', ""):
                self.cookies.pop(name.strip(), None)
            else:
                self.cookies[name.strip()] = cookie_value
        return Answer(response.status, dict(response.getheaders()), data.decode(), seconds)

    def close(self) -> None:
        for connection in self.connections:
            if connection is not None:
                connection.close()


# What the clients saw


@dataclass
class Told:
    """A deal a client was told was recorded."""

    game: int
    number: int
    cards: list[int]
    token: str
    client: str
    retried: bool = False  # the first try got no answer (crash runs)


class Log:
    """Latencies per kind of request, errors, and every deal told recorded; thread-safe."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.statuses: Counter[tuple[str, int]] = Counter()
        self.requests = 0
        self.errors: list[str] = []
        self.interrupted: list[tuple[float, str]] = []  # (when, what): crash runs only
        self.told: list[Told] = []
        self.games_started: list[int] = []
        self.in_flight = 0
        self.retried_requests = 0  # requests that needed more than one try

    def answer(self, kind: str, answer: Answer) -> None:
        with self.lock:
            self.requests += 1
            self.latency[kind].append(answer.seconds)
            self.statuses[(kind, answer.status)] += 1

    def error(self, text: str) -> None:
        with self.lock:
            self.errors.append(text)

    def recorded(self, told: Told) -> None:
        with self.lock:
            self.told.append(told)


def percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(share * len(ordered) + 0.5) - 1))]


def latency_lines(log: Log, kinds: list[str]) -> list[str]:
    lines = []
    for kind in kinds:
        values = log.latency.get(kind) or []
        if not values:
            lines.append(f"  {kind:<16} n=0")
            continue
        p50, p95, p99 = (percentile(values, share) * 1000 for share in (0.50, 0.95, 0.99))
        lines.append(
            f"  {kind:<16} n={len(values):<6} p50 {p50:7.1f} ms   p95 {p95:7.1f} ms"
            f"   p99 {p99:7.1f} ms"
        )
    return lines


# Clients


@dataclass
class Keeper:
    """A scorekeeper's account, club and game (ids), as seeded."""

    username: str
    club: int
    game: int


class Stop(Exception):
    """The client's time is up."""


class Scorekeeper:
    """Logs in, then records random deals of its own game; a new game when one ends.

    Every answer is checked: a record must come back 200 with "Deal N recorded."; anything else
    is an error. A request that gets no answer is sent again, the same (same token), as the
    phone's deal-retry.js does; in a crash run that is expected while the server is down.
    """

    def __init__(
        self,
        name: str,
        keeper: Keeper,
        servers,
        log: Log,
        *,
        seed: int,
        think: tuple[float, float],
        crash: bool,
    ) -> None:
        from scoring.demo import random_deal

        self.name = name
        self.keeper = keeper
        self.game = keeper.game
        self.browser = Browser(servers)
        self.log = log
        self.rng = random.Random(seed)
        self.random_deal = random_deal
        self.think = think
        self.crash = crash
        self.number = 0
        self.token = ""
        self.deadline = 0.0  # stop starting new work after this
        self.give_up = 0.0  # stop retrying after this
        self.retried = False

    def send(self, kind: str, method: str, path: str, form=None, htmx=False) -> Answer:
        """Send until answered (5xx is an error, and sent again); raise Stop when out of time."""
        self.retried = False
        while True:
            with self.log.lock:
                self.log.in_flight += 1
            answer = None
            try:
                answer = self.browser.request(method, path, form, htmx)
            except ConnectionFailed as error:
                if self.crash:
                    with self.log.lock:
                        self.log.interrupted.append((time.monotonic(), f"{self.name}: {error}"))
                else:
                    self.log.error(f"{self.name}: {error}")
            finally:
                with self.log.lock:
                    self.log.in_flight -= 1
            if answer is not None:
                self.log.answer(kind, answer)
                if answer.status < 500:
                    return answer
                self.log.error(f"{self.name}: {method} {path} answered {answer.status}")
            if not self.retried:
                self.retried = True
                with self.log.lock:
                    self.log.retried_requests += 1
            if time.monotonic() > self.give_up:
                self.log.error(f"{self.name}: gave up on {method} {path}")
                raise Stop
            time.sleep(0.25)

    def login(self) -> None:
        page = self.send("login page", "GET", "/accounts/login/")
        match = CSRF_RE.search(page.body)
        if page.status != 200 or not match:
            self.log.error(f"{self.name}: login page answered {page.status}")
            raise Stop
        form = {
            "csrfmiddlewaretoken": match[1],
            "username": self.keeper.username,
            "password": PASSWORD,
        }
        answer = self.send("log in", "POST", "/accounts/login/", form)
        if answer.status != 302 or "sessionid" not in self.browser.cookies:
            self.log.error(f"{self.name}: logging in answered {answer.status}")
            raise Stop

    def open_game(self) -> None:
        answer = self.send("game page", "GET", f"/games/{self.game}/")
        if answer.status != 200 or not self.read_form(answer.body):
            self.log.error(f"{self.name}: game {self.game} page answered {answer.status}")
            raise Stop

    def read_form(self, body: str) -> bool:
        """Take the next deal's number and token from the page; False when there's no form."""
        number, token = NUMBER_RE.search(body), TOKEN_RE.search(body)
        if not (number and token):
            return False
        self.number, self.token = int(number[1]), token[1]
        return True

    def record(self) -> bool:
        """Record the next deal; False when that ended the game."""
        cards = self.random_deal(self.rng)
        form = {"csrfmiddlewaretoken": self.browser.cookies.get("csrftoken", "")}
        form |= {"number": self.number, "token": self.token}
        form |= {f"cards_{position}": count for position, count in enumerate(cards)}
        path = f"/games/{self.game}/deals/"
        answer = self.send("record a deal", "POST", path, form, htmx=True)
        if answer.status != 200 or f"Deal {self.number} recorded." not in answer.body:
            refusal = re.search(r'role="alert">([^<]*)<', answer.body)
            why = refusal[1] if refusal else answer.body[:120]
            self.log.error(f"{self.name}: deal {self.number} answered {answer.status}: {why}")
            raise Stop
        told = Told(self.game, self.number, cards, self.token, self.name, self.retried)
        self.log.recorded(told)
        return self.read_form(answer.body)

    def new_game(self) -> None:
        form = {"csrfmiddlewaretoken": self.browser.cookies.get("csrftoken", "")}
        form |= {f"seat_{position}": name for position, name in enumerate(SEAT_NAMES, start=1)}
        answer = self.send("new game", "POST", f"/clubs/{self.keeper.club}/games/new/", form)
        started = GAME_RE.search(answer.headers.get("Location", ""))
        if answer.status != 302 or not started:
            self.log.error(f"{self.name}: new game answered {answer.status}")
            raise Stop
        self.game = int(started[1])
        with self.log.lock:
            self.log.games_started.append(self.game)
        self.open_game()

    def play(self) -> None:
        with contextlib.suppress(Stop):
            self.open_game()
            while time.monotonic() < self.deadline:
                time.sleep(self.rng.uniform(*self.think))
                if not self.record() and time.monotonic() < self.deadline:
                    self.new_game()
        self.browser.close()


class Viewer:
    """Follows a scorekeeper's game the way the game page does: the poll every ~2 s, which
    answers 204 until something changed; now and then the whole page, or the standings."""

    def __init__(
        self,
        name: str,
        session: str,
        follows: Scorekeeper,
        servers,
        log: Log,
        *,
        seed: int,
        standings: str,
        poll: bool,
    ) -> None:
        self.name = name
        self.browser = Browser(servers)
        self.browser.cookies["sessionid"] = session
        self.follows = follows
        self.log = log
        self.rng = random.Random(seed)
        self.standings = standings
        self.poll = poll
        self.game = 0
        self.version = ""
        self.deadline = 0.0

    def get(self, kind: str, path: str, ok: tuple[int, ...] = (200,)) -> Answer | None:
        try:
            answer = self.browser.request("GET", path, htmx=kind == "poll")
        except ConnectionFailed as error:
            self.log.error(f"{self.name}: {error}")
            return None
        self.log.answer(kind, answer)
        if answer.status not in ok:
            self.log.error(f"{self.name}: GET {path} answered {answer.status}")
            return None
        return answer

    def page(self) -> None:
        self.game = self.follows.game
        answer = self.get("game page", f"/games/{self.game}/")
        if answer is not None and (found := VERSION_RE.search(answer.body)):
            self.version = found[1]

    def watch(self) -> None:
        turn = self.rng.randrange(10)
        self.page()
        while time.monotonic() < self.deadline:
            time.sleep(self.rng.uniform(1.5, 2.5))
            turn += 1
            if self.follows.game != self.game or not self.poll or turn % 5 == 0:
                self.page()
            elif turn % 10 == 3:
                self.get("standings", self.standings)
            else:
                answer = self.get("poll", f"/games/{self.game}/board/?v={self.version}", (200, 204))
                if answer is not None and answer.status == 200:
                    found = VERSION_RE.search(answer.body)
                    self.version = found[1] if found else ""
        self.browser.close()


def run_threads(targets, seconds_after_deadline: float) -> None:
    threads = [threading.Thread(target=target, daemon=True) for target in targets]
    for thread in threads:
        thread.start()
    limit = time.monotonic() + seconds_after_deadline
    for thread in threads:
        thread.join(timeout=max(0.1, limit - time.monotonic()))
    stuck = sum(thread.is_alive() for thread in threads)
    if stuck:
        raise RuntimeError(f"{stuck} client threads did not stop in time")


# The database, the seed and the servers


@dataclass
class Plan:
    """What the seed made, for the clients."""

    keepers: list[Keeper]
    viewer_sessions: list[str]
    standings: str  # the 1,000-game season's standings page
    season_games: int
    bench_sessions: list[str] = field(default_factory=list)
    bench_games: list[list[int]] = field(default_factory=list)  # per bench thread
    bench_game_page: str = ""


class Environment:
    """A temporary DJANGO_VAR_DIR and a fresh database, Django set up on it in this process."""

    def __init__(self, db: str, keep: bool) -> None:
        self.db = db
        self.keep = keep
        self.var = Path(tempfile.mkdtemp(prefix="bigtwo-loadtest-"))
        self.admin_url = ""
        self.database = ""
        self.env = {
            key: value
            for key, value in os.environ.items()
            if key not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE")
        }
        self.env |= {
            "DJANGO_SETTINGS_MODULE": "bigtwo_site.settings",
            "DJANGO_VAR_DIR": str(self.var),
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),  # the same for every server
            "DJANGO_DEBUG": "0",
            "DJANGO_HTTPS": "0",
            "DJANGO_LOG_LEVEL": "WARNING",
            "PYTHONUNBUFFERED": "1",
        }

    def __enter__(self) -> Environment:
        if self.db == "postgres":
            self.admin_url = os.environ.get("DATABASE_URL", "")
            if not self.admin_url.startswith(("postgres://", "postgresql://")):
                raise SystemExit("--db postgres needs DATABASE_URL=postgres://… of a server")
            import psycopg

            self.database = f"loadtest_{os.getpid()}"
            with psycopg.connect(self.admin_url, autocommit=True) as admin:
                admin.execute(f'CREATE DATABASE "{self.database}"')
            parts = urllib.parse.urlsplit(self.admin_url)
            self.env["DATABASE_URL"] = urllib.parse.urlunsplit(
                parts._replace(path=f"/{self.database}")
            )
        else:
            self.database = str(self.var / "db.sqlite3")
        os.environ.clear()
        os.environ.update(self.env)
        import django

        django.setup()
        return self

    def __exit__(self, *exc) -> None:
        from django.db import connections

        connections.close_all()
        if self.db == "postgres":
            import psycopg

            with psycopg.connect(self.admin_url, autocommit=True) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')
        if self.keep:
            print(f"kept {self.var}")
        else:
            shutil.rmtree(self.var, ignore_errors=True)


def prepare(environment: Environment) -> float:
    from django.core.management import call_command

    started = time.perf_counter()
    call_command("migrate", verbosity=0, interactive=False)
    call_command("collectstatic", verbosity=0, interactive=False)
    return time.perf_counter() - started


def seed(
    *,
    keepers: int,
    viewers: int,
    season_games: int,
    bench_threads: int,
    bench_games_each: int,
    rng: random.Random,
) -> Plan:
    """Users, clubs and games through scoring.services; the big season by seed_season.

    Scorekeepers get one password hash between them (hashing it 50 times would take a
    minute); viewers and the benchmark's clients get sessions made here, as if they had logged
    in last week, since logging 200 phones in at once is not what a league night does.
    """
    import datetime

    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.db import transaction
    from django.urls import reverse
    from django.utils import timezone

    from scoring import services
    from scoring.demo import random_game, seed_season
    from scoring.models import Membership, Season

    User = get_user_model()
    password = make_password(PASSWORD)
    with transaction.atomic():
        owner = User.objects.create_user(username="league")
        league = services.create_club(name="League", owner=owner)
        season = league.seasons.get(is_current=True)
        Season.objects.filter(pk=season.pk).update(
            starts_on=timezone.localdate() - datetime.timedelta(days=365)
        )
        season.refresh_from_db()
    if season_games:
        seed_season(season=season, by=owner, games=season_games, rng=rng, player_names=LEAGUE_NAMES)

    plan = Plan(keepers=[], viewer_sessions=[], standings="", season_games=season_games)
    plan.standings = reverse("scoring:season", args=[season.pk])
    with transaction.atomic():
        for index in range(keepers):
            user = User.objects.create(username=f"keeper{index}", password=password)
            club = services.create_club(name=f"Table {index}", owner=user)
            Membership.objects.create(club=league, user=user)
            game = services.start_game(club=club, seat_names=SEAT_NAMES, by=user)
            plan.keepers.append(Keeper(user.username, club.pk, game.pk))
        for index in range(viewers):
            user = User.objects.create_user(username=f"viewer{index}")
            Membership.objects.create(club_id=plan.keepers[index % keepers].club, user=user)
            Membership.objects.create(club=league, user=user)
            plan.viewer_sessions.append(session_for(user))
        if bench_threads:
            user = User.objects.create_user(username="bench")
            club = services.create_club(name="Bench", owner=user)
            Membership.objects.create(club=league, user=user)
            showcase = services.create_club(name="Showcase", owner=user)
            shown = services.start_game(club=showcase, seat_names=SEAT_NAMES, by=user)
            deals = random_game(rng)
            for number, cards in enumerate(deals[: min(12, len(deals) - 1)], start=1):
                services.record_deal(
                    game=shown, number=number, cards_left=cards, token=uuid.uuid4(), by=user
                )
            plan.bench_game_page = reverse("scoring:game", args=[shown.pk])
            for _ in range(bench_threads):
                plan.bench_sessions.append(session_for(user))
                plan.bench_games.append(
                    [
                        services.start_game(club=club, seat_names=SEAT_NAMES, by=user).pk
                        for _ in range(bench_games_each)
                    ]
                )
    return plan


def session_for(user) -> str:
    """A session of `user`, as `login` would store it."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    return session.session_key


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Servers:
    """gunicorn on 127.0.0.1, one or more; each in its own process group, so that SIGKILL to
    the group kills the master and its workers at once."""

    def __init__(self, environment: Environment, count: int, workers: int, threads: int) -> None:
        self.environment = environment
        self.ports = [free_port() for _ in range(count)]
        self.workers = workers
        self.threads = threads
        self.processes: list[subprocess.Popen] = []

    @property
    def addresses(self) -> list[tuple[str, int]]:
        return [("127.0.0.1", port) for port in self.ports]

    def describe(self) -> str:
        kind = f"gthread, {self.workers} workers x {self.threads} threads"
        if self.threads <= 1:
            kind = f"sync, {self.workers} workers"
        where = ", ".join(f"http://127.0.0.1:{port}/" for port in self.ports)
        return f"{len(self.ports)} gunicorn server(s) ({kind} each): {where}"

    def start(self) -> None:
        self.processes = []
        for port in self.ports:
            command = [
                sys.executable,
                "-m",
                "gunicorn",
                "bigtwo_site.wsgi",
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                str(self.workers),
                "--keep-alive",
                "10",
                "--backlog",
                "2048",
                "--no-control-socket",
                "--error-logfile",
                str(self.environment.var / f"gunicorn-{port}.log"),
            ]
            if self.threads > 1:
                command += ["--worker-class", "gthread", "--threads", str(self.threads)]
            self.processes.append(
                subprocess.Popen(
                    command,
                    cwd=ROOT,
                    env=self.environment.env,
                    start_new_session=True,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
        for port in self.ports:
            self.wait_ready(port)

    def wait_ready(self, port: int) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                connection.request("GET", "/ping/")
                if connection.getresponse().status == 200:
                    connection.close()
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"gunicorn on port {port} did not answer /ping/ in 60 s")

    def kill(self) -> None:
        """SIGKILL every server's whole process group: master and workers, mid-request."""
        for process in self.processes:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
        for process in self.processes:
            process.wait(timeout=10)

    def stop(self) -> None:
        for process in self.processes:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=10)

    def cpu_seconds(self) -> float:
        """User and system CPU so far of every server process (master and workers)."""
        total = 0.0
        tick = os.sysconf("SC_CLK_TCK")
        for process in self.processes:
            pids = [process.pid]
            with contextlib.suppress(OSError):
                children = Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text()
                pids += [int(pid) for pid in children.split()]
            for pid in pids:
                with contextlib.suppress(OSError, ValueError, IndexError):
                    stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                    total += (int(stat[11]) + int(stat[12])) / tick
        return total

    def log_tail(self, lines: int = 30) -> str:
        text = []
        for port in self.ports:
            path = self.environment.var / f"gunicorn-{port}.log"
            if path.exists():
                content = path.read_text(errors="replace").splitlines()
                interesting = [line for line in content if "Booting worker" not in line]
                text += [f"--- {path.name}", *interesting[-lines:]]
        return "\n".join(text)


def machine_load() -> str:
    """The machine's load average: other work on the same cores skews every figure."""
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"


def own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


# Phases


def log_in(scorekeepers: list[Scorekeeper], log: Log) -> list[Scorekeeper]:
    """Log every scorekeeper in at once; the ones that made it."""
    for keeper in scorekeepers:
        keeper.give_up = time.monotonic() + 300
    started = time.perf_counter()
    done: list[Scorekeeper] = []

    def one(keeper: Scorekeeper) -> None:
        with contextlib.suppress(Stop):
            keeper.login()
            done.append(keeper)

    run_threads([lambda k=keeper: one(k) for keeper in scorekeepers], 400)
    seconds = time.perf_counter() - started
    print(f"-- logging in: {len(done)} of {len(scorekeepers)} scorekeepers in {seconds:.1f} s")
    print("\n".join(latency_lines(log, ["login page", "log in"])))
    return done


def phase_a(options, plan: Plan, servers: Servers, everyone, scorekeepers, log: Log) -> dict:
    """Viewer i follows the game of scorekeeper i % n (a member of that club)."""
    from django.urls import NoReverseMatch, reverse

    try:
        reverse("scoring:board", args=[1])
        poll = True
    except NoReverseMatch:
        poll = False
    viewers = [
        Viewer(
            f"viewer{index}",
            session,
            everyone[index % len(everyone)],
            servers.addresses,
            log,
            seed=options.seed * 100_000 + 50_000 + index,
            standings=plan.standings,
            poll=poll,
        )
        for index, session in enumerate(plan.viewer_sessions)
    ]
    print(
        f"-- phase A: {options.seconds:g} s, {len(scorekeepers)} scorekeepers (think 0.5-1.5 s),"
        f" {len(viewers)} viewers (every ~2 s: {'the poll, ' if poll else ''}the game page,"
        f" the standings of a {plan.season_games:,}-game season)"
    )
    requests_before = log.requests
    cpu_server, cpu_own = servers.cpu_seconds(), own_cpu_seconds()
    started = time.monotonic()
    deadline = started + options.seconds
    for client in [*scorekeepers, *viewers]:
        client.deadline = deadline
    for keeper in scorekeepers:
        keeper.give_up = deadline + 30
    run_threads([client.play for client in scorekeepers] + [v.watch for v in viewers], 200)
    wall = time.monotonic() - started
    requests = log.requests - requests_before
    cpu_server, cpu_own = servers.cpu_seconds() - cpu_server, own_cpu_seconds() - cpu_own
    kinds = ["record a deal", "game page", "poll", "standings", "new game"]
    print(f"requests: {requests:,} in {wall:.1f} s = {requests / wall:.1f} requests/s")
    print("\n".join(latency_lines(log, kinds)))
    polls = {status: count for (kind, status), count in log.statuses.items() if kind == "poll"}
    if polls:
        print(f"  polls answered: {', '.join(f'{n:,} x {s}' for s, n in sorted(polls.items()))}")
    print(
        f"CPU: servers {cpu_server:.1f} s, load generator {cpu_own:.1f} s"
        f" (in {wall:.1f} s on {os.cpu_count()} cores)"
    )
    return {
        "requests_per_second": requests / wall,
        "latency_ms": {
            kind: {
                f"p{int(share * 100)}": percentile(log.latency[kind], share) * 1000
                for share in (0.50, 0.95, 0.99)
            }
            for kind in kinds
            if log.latency.get(kind)
        },
    }


def phase_b(options, plan: Plan, servers: Servers, log: Log) -> dict:
    """Closed loop: each page hammered by every thread for a while, throughput compared."""
    threads, seconds = options.bench_threads, options.bench_seconds
    print(f"-- phase B: closed loop, {threads} threads, {seconds:g} s per page")
    browsers = []
    for session in plan.bench_sessions:
        browser = Browser(servers.addresses)
        browser.cookies["sessionid"] = session
        browsers.append(browser)
    # A CSRF cookie for each, from a page with a form on it.
    for browser in browsers:
        answer = browser.request("GET", plan.bench_game_page)
        if answer.status != 200 or "csrftoken" not in browser.cookies:
            raise RuntimeError(f"the benchmark's game page answered {answer.status}")

    from scoring.demo import random_deal

    class Recorder:
        def __init__(self, index: int) -> None:
            self.games = list(plan.bench_games[index])
            self.rng = random.Random(options.seed * 1000 + index)
            self.game = self.games.pop(0)
            self.number = 1

        def __call__(self, browser: Browser) -> tuple[bool, str]:
            cards = random_deal(self.rng)
            token = str(uuid.uuid4())  # what the page's form would carry: a fresh uuid4
            form = {"csrfmiddlewaretoken": browser.cookies["csrftoken"]}
            form |= {"number": self.number, "token": token}
            form |= {f"cards_{position}": count for position, count in enumerate(cards)}
            answer = browser.request("POST", f"/games/{self.game}/deals/", form, htmx=True)
            ok = answer.status == 200 and f"Deal {self.number} recorded." in answer.body
            if not ok:
                return False, f"deal {self.number} of game {self.game} answered {answer.status}"
            log.recorded(Told(self.game, self.number, cards, token, "bench"))
            if 'id="deal-form"' in answer.body:
                self.number += 1
            elif self.games:
                self.game, self.number = self.games.pop(0), 1
            else:
                return False, "out of seeded games: raise --bench-games"
            return True, ""

    def getter(path: str, status: int = 200):
        def get(browser: Browser) -> tuple[bool, str]:
            answer = browser.request("GET", path)
            return answer.status == status, f"GET {path} answered {answer.status}"

        return get

    # The least a members-only page can do: the game page's poll finding nothing new (204)
    # costs a session, a user and one indexed query. No page of the site can be cheaper.
    from scoring.models import Game

    shown = Game.objects.get(pk=int(plan.bench_game_page.strip("/").rsplit("/", 1)[-1]))
    poll = f"{plan.bench_game_page}board/?v={shown.version}"

    pages = [
        ("/ping/", [getter("/ping/")] * threads),
        ("poll, no news", [getter(poll, status=204)] * threads),
        ("game page", [getter(plan.bench_game_page)] * threads),
        ("record a deal", [Recorder(index) for index in range(threads)]),
        ("standings", [getter(plan.standings)] * threads),
    ]
    results: dict[str, float] = {}
    cpu_per_request: dict[str, float] = {}
    for name, actions in pages:
        # Warm up every worker (templates compile once per process), then measure.
        closed_loop(name, actions, browsers, min(1.0, seconds / 5), log)
        cpu = servers.cpu_seconds()
        done, elapsed = closed_loop(name, actions, browsers, seconds, log)
        results[name] = done / elapsed
        cpu_per_request[name] = (servers.cpu_seconds() - cpu) / max(done, 1)
    base = results["/ping/"]
    for name, rate in results.items():
        line = (
            f"  {name:<16} {rate:8.1f} requests/s  {rate / base:6.1%} of /ping/"
            f"  ({cpu_per_request[name] * 1000:5.1f} ms server CPU each)"
        )
        if name in TARGETS:
            target = TARGETS[name]
            verdict = "PASS" if rate / base >= target else "FAIL"
            line += f"   target >= {target:.0%}  {verdict}"
        print(line)
    for browser in browsers:
        browser.close()
    return {
        "requests_per_second": results,
        "share_of_ping": {name: rate / base for name, rate in results.items()},
        "targets_met": {name: results[name] / base >= t for name, t in TARGETS.items()},
    }


def closed_loop(name: str, actions, browsers, seconds: float, log: Log) -> tuple[int, float]:
    """Each thread does its action over and over for `seconds`: (successes, seconds taken)."""
    threads = len(actions)
    counts = [0] * threads
    finished = [0.0] * threads
    barrier = threading.Barrier(threads + 1)

    def loop(index: int) -> None:
        barrier.wait()
        stop_at = time.monotonic() + seconds
        action, browser = actions[index], browsers[index]
        while time.monotonic() < stop_at:
            try:
                ok, why = action(browser)
            except ConnectionFailed as error:
                ok, why = False, str(error)
            if ok:
                counts[index] += 1
            else:
                log.error(f"phase B {name}: {why}")
                if "out of seeded games" in why:
                    break
        finished[index] = time.monotonic()

    threads_ = [threading.Thread(target=loop, args=(i,), daemon=True) for i in range(threads)]
    for thread in threads_:
        thread.start()
    barrier.wait()
    started = time.monotonic()
    for thread in threads_:
        thread.join(timeout=seconds + 60)
    return sum(counts), max(finished) - started


def crash_phase(options, servers: Servers, scorekeepers, log: Log) -> dict:
    """Scorekeepers keep recording while every server is SIGKILLed and started again."""
    print(
        f"-- crash: {options.seconds:g} s, {len(scorekeepers)} scorekeepers"
        f" (think 0-0.3 s), {options.kills} kill(s) of every server"
    )
    started = time.monotonic()
    deadline = started + options.seconds
    for keeper in scorekeepers:
        keeper.deadline = deadline
        keeper.give_up = deadline + 60
    threads = [threading.Thread(target=keeper.play, daemon=True) for keeper in scorekeepers]
    for thread in threads:
        thread.start()
    windows, kills = [], []
    for kill in range(options.kills):
        time.sleep(
            max(
                0.0, started + options.seconds * (kill + 1) / (options.kills + 1) - time.monotonic()
            )
        )
        with log.lock:
            in_flight, told_before = log.in_flight, len(log.told)
        killed_at, killed_wall = time.monotonic(), time.time()
        servers.kill()
        print(
            f"  SIGKILL at {killed_at - started:.1f} s: {in_flight} requests in flight,"
            f" {told_before} deals told recorded so far"
        )
        time.sleep(1.0)
        servers.start()
        back_at = time.monotonic()
        print(f"  started again, answering /ping/ {back_at - killed_at:.1f} s after the kill")
        windows.append((killed_at, back_at))
        kills.append(killed_wall)
    limit = deadline + 90
    for thread in threads:
        thread.join(timeout=max(0.1, limit - time.monotonic()))
    if any(thread.is_alive() for thread in threads):
        raise RuntimeError("client threads did not stop in time")
    # A request that died at the kill is expected; one that died any other time is an error.
    outside = [
        what
        for when, what in log.interrupted
        if not any(killed - 0.5 <= when <= back + 5 for killed, back in windows)
    ]
    for what in outside:
        log.error(f"interrupted away from a kill: {what}")
    print(
        f"requests: {log.requests:,}; {log.retried_requests} got no answer around a kill and"
        f" were sent again, the same ({len(log.interrupted)} tries without an answer);"
        f" {len(log.told):,} deals told recorded"
    )
    print("\n".join(latency_lines(log, ["record a deal", "game page", "new game"])))
    return {"kills": kills, "interrupted": len(log.interrupted)}


# Checking the database against what the clients were told


def verify(log: Log, club_names: list[str], kills: list[float]) -> dict:
    """Compare every deal of the load test's clubs with what the clients were told."""
    from django.db import transaction
    from django.db.models import Count

    from rules.penalties import replay
    from scoring import services
    from scoring.models import Deal, Game, GameChange, Seat

    told: dict[tuple[int, int], list[Told]] = defaultdict(list)
    for item in log.told:
        told[(item.game, item.number)].append(item)
    games = list(Game.objects.filter(club__name__in=club_names).order_by("pk"))
    deals = {
        (deal.game_id, deal.number): deal
        for deal in Deal.objects.filter(game__in=games)
        .annotate(scores_count=Count("scores"))
        .prefetch_related("scores__seat")
    }
    problems: dict[str, list[str]] = defaultdict(list)
    # Told twice about one deal number of a game must be one token, told again (a retry).
    for key, items in told.items():
        if len({item.token for item in items}) > 1:
            problems["doubled"].append(f"game {key[0]} deal {key[1]} told {len(items)} times")
    for key, items in told.items():
        deal = deals.get(key)
        if deal is None:
            problems["lost"].append(f"game {key[0]} deal {key[1]} ({items[0].client})")
            continue
        cards = [s.cards_left for s in sorted(deal.scores.all(), key=lambda s: s.seat.position)]
        if cards != items[0].cards or str(deal.token) != items[0].token:
            problems["wrong cards"].append(f"game {key[0]} deal {key[1]}: {cards}")
    for key, deal in deals.items():
        if key not in told:
            problems["unexpected (doubled)"].append(f"game {key[0]} deal {key[1]}")
        if deal.scores_count != 4:
            problems["half-written"].append(f"game {key[0]} deal {key[1]}: {deal.scores_count}")
    recorded_lines = Counter(
        GameChange.objects.filter(game__in=games, action=GameChange.Action.RECORD).values_list(
            "game_id", flat=True
        )
    )
    by_game: dict[int, dict[int, list[int]]] = defaultdict(dict)
    for (game_id, number), deal in deals.items():
        by_game[game_id][number] = [
            s.cards_left for s in sorted(deal.scores.all(), key=lambda s: s.seat.position)
        ]
    seats = defaultdict(list)
    for seat in Seat.objects.filter(game__in=games).order_by("position"):
        seats[seat.game_id].append(seat)
    for game in games:
        numbers = sorted(by_game[game.pk])
        if numbers != list(range(1, len(numbers) + 1)):
            problems["gaps"].append(f"game {game.pk}: deals {numbers}")
        replayed = replay([by_game[game.pk][n] for n in numbers], game.ruleset, players=4)
        stored = [seat.total for seat in seats[game.pk]]
        if list(replayed.totals) != stored:
            problems["totals wrong"].append(f"game {game.pk}: {stored} != {replayed.totals}")
        finished = replayed.finished_after is not None
        if finished != game.is_finished or replayed.ends_before_last_deal:
            problems["status wrong"].append(f"game {game.pk}: {game.status}")
        if recorded_lines[game.pk] != len(numbers):
            problems["history wrong"].append(
                f"game {game.pk}: {recorded_lines[game.pk]} lines for {len(numbers)} deals"
            )
    # services.recompute, run on every game and rolled back, must find nothing to change.
    fields = ["total", "deals_played", "deals_won", "thirteens"]
    with transaction.atomic():
        for game in games:
            before = (game.status, game.winner_id, game.finished_at)
            before_seats = [[getattr(s, f) for f in fields] for s in seats[game.pk]]
            locked = Game.objects.select_for_update().get(pk=game.pk)
            services.recompute(locked)
            after_seats = [
                [getattr(s, f) for f in fields]
                for s in Seat.objects.filter(game=game).order_by("position")
            ]
            if before != (locked.status, locked.winner_id, locked.finished_at) or (
                before_seats != after_seats
            ):
                problems["recompute changes"].append(f"game {game.pk}")
        transaction.set_rollback(True)
    # Deals whose answer died with the server although their transaction had committed: the
    # retry with the same token was told of the deal already there.
    answer_lost = sum(
        1
        for key, items in told.items()
        if items[0].retried
        and key in deals
        and any(deals[key].recorded_at.timestamp() < killed for killed in kills)
    )
    empty = [g.pk for g in games if not by_game[g.pk] and g.pk in log.games_started]
    kinds = [
        "lost",
        "doubled",
        "unexpected (doubled)",
        "wrong cards",
        "half-written",
        "gaps",
        "totals wrong",
        "status wrong",
        "history wrong",
        "recompute changes",
    ]
    print(
        f"-- checked against the database: {len(games)} games, {len(deals):,} deals,"
        f" {sum(len(v) for v in by_game.values()):,} with 4 scores each expected;"
        f" {len(told):,} deals told recorded ({len(log.told):,} answers)"
    )
    print("  " + ", ".join(f"{kind}: {len(problems[kind])}" for kind in kinds))
    print(f"  errors: {len(log.errors)}")
    if kills:
        print(
            f"  deals committed before a kill whose answer died with the server, told on the"
            f" retry with the same token: {answer_lost}"
        )
    if empty:
        print(f"  games started but never dealt (a new game is started at the end): {len(empty)}")
    for kind in kinds:
        for line in problems[kind][:5]:
            print(f"  !! {kind}: {line}")
    for line in log.errors[:10]:
        print(f"  !! error: {line}")
    return {
        "games": len(games),
        "deals": len(deals),
        "told": len(told),
        "answer_lost_then_found": answer_lost,
        "errors": len(log.errors),
        "error_samples": log.errors[:20],
        **{kind: len(problems[kind]) for kind in kinds},
    }


# Main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python tools/loadtest.py",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("mode", nargs="?", choices=["run", "crash"], default="run")
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--seconds", type=float, help="phase A (60) or the crash run (30)")
    parser.add_argument("--scorekeepers", type=int, default=50)
    parser.add_argument("--viewers", type=int, help="viewers (200; 0 in a crash run)")
    parser.add_argument("--servers", type=int, choices=[1, 2], default=1)
    parser.add_argument("--workers", type=int, help="gunicorn workers per server (3, or 2 x 2)")
    parser.add_argument("--threads", type=int, default=4, help="threads per worker (4; 1: sync)")
    parser.add_argument("--season-games", type=int, help="games in the big season (1000)")
    parser.add_argument("--bench-seconds", type=float, default=10)
    parser.add_argument("--bench-threads", type=int, default=8)
    parser.add_argument("--bench-games", type=int, default=60, help="seeded games per thread")
    parser.add_argument("--kills", type=int, default=1, help="crash: times the servers die")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    options = parser.parse_args(argv)
    crash = options.mode == "crash"
    if options.servers == 2 and options.db != "postgres":
        parser.error("two servers share one database: use --db postgres")
    options.seconds = options.seconds or (30 if crash else 60)
    options.viewers = (0 if crash else 200) if options.viewers is None else options.viewers
    if options.season_games is None:
        options.season_games = 0 if crash else 1000
    options.workers = options.workers or (3 if options.servers == 1 else 2)
    if crash:
        options.bench_threads = 0
    bench = options.bench_threads > 0 and options.bench_seconds > 0 and not crash

    summary: dict[str, object] = {"mode": options.mode, "db": options.db}
    with Environment(options.db, options.keep) as environment:
        print(
            f"== {'crash' if crash else 'load'} test on {options.db}"
            f" ({environment.database}), {options.servers} server(s)"
        )
        print(f"migrated and collected static files in {prepare(environment):.1f} s")
        started = time.perf_counter()
        plan = seed(
            keepers=options.scorekeepers,
            viewers=options.viewers,
            season_games=options.season_games,
            bench_threads=options.bench_threads if bench else 0,
            bench_games_each=options.bench_games,
            rng=random.Random(options.seed),
        )
        print(
            f"seeded {options.scorekeepers} scorekeepers (own club, game in progress),"
            f" {options.viewers} viewers, a season of {options.season_games:,} finished games"
            f" in {time.perf_counter() - started:.1f} s"
        )
        (environment.var / "loadtest-plan.json").write_text(
            json.dumps({"password": PASSWORD, **plan.__dict__}, default=lambda o: o.__dict__)
        )
        from django.db import connections

        connections.close_all()
        log = Log()
        servers = Servers(environment, options.servers, options.workers, options.threads)
        think = (0.0, 0.3) if crash else (0.5, 1.5)
        scorekeepers = [
            Scorekeeper(
                f"keeper{index}",
                keeper,
                servers.addresses,
                log,
                seed=options.seed * 100_000 + index,
                think=think,
                crash=crash,
            )
            for index, keeper in enumerate(plan.keepers)
        ]
        kills: list[float] = []
        try:
            servers.start()
            print(servers.describe())
            print(machine_load())
            playing = log_in(scorekeepers, log)
            if crash:
                summary["crash"] = result = crash_phase(options, servers, playing, log)
                kills = result["kills"]
            else:
                summary["phase_a"] = phase_a(options, plan, servers, scorekeepers, playing, log)
                if bench:
                    summary["phase_b"] = phase_b(options, plan, servers, log)
        except BaseException:
            print(servers.log_tail())
            raise
        finally:
            servers.stop()
        if log.errors:
            print(servers.log_tail())
        clubs = [f"Table {index}" for index in range(options.scorekeepers)] + ["Bench"]
        summary["check"] = check = verify(log, clubs, kills)
    failed = sum(
        value
        for key, value in check.items()
        if isinstance(value, int)
        and key not in ("games", "deals", "told", "answer_lost_then_found")
    )
    summary["passed"] = not failed
    print(machine_load())
    print("RESULT:", "PASS — nothing lost, doubled or errored" if not failed else "FAIL")
    if options.json:
        options.json.write_text(json.dumps(summary, indent=2, default=str))
    return 0 if not failed else 1


if __name__ == "__main__":
    sys.exit(main())
