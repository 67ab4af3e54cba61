"""The load test's own database, cache and settings (Environment), and gunicorn on 127.0.0.1
(Servers): WSGI for the pages, and with `streams` one ASGI worker beside it for the games'
event streams (`/games/<id>/changes/`), as nginx would route them."""

from __future__ import annotations

import contextlib
import http.client
import os
import resource
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


class Environment:
    """A temporary DJANGO_VAR_DIR and a fresh database, Django set up on it in this process;
    with `cache_in_memory`, a temporary DJANGO_CACHE_DIR on /dev/shm too."""

    def __init__(
        self, db: str, keep: bool, redis: bool = False, cache_in_memory: bool = False
    ) -> None:
        self.db = db
        self.keep = keep
        self.var = Path(tempfile.mkdtemp(prefix="bigtwo-loadtest-"))
        self.cache: Path | None = None
        if cache_in_memory:
            if not Path("/dev/shm").is_dir():
                raise SystemExit("--cache-in-memory needs a tmpfs at /dev/shm")
            # mkdtemp makes it the run's own (mode 700), as bigtwo_site/cache_dir.py asks.
            self.cache = Path(tempfile.mkdtemp(prefix="bigtwo-loadtest-cache-", dir="/dev/shm"))
        self.admin_url = ""
        self.database = ""
        self.redis = ThrowawayRedis(self.var) if redis else None
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
        if self.cache is not None:
            # The caches of files are what it measures: not a Redis the environment names.
            self.env.pop("REDIS_URL", None)
            self.env["DJANGO_CACHE_DIR"] = str(self.cache)

    @classmethod
    def for_options(cls, options) -> Environment:
        return cls(options.db, options.keep, options.redis, options.cache_in_memory)

    @property
    def cache_place(self) -> str:
        """Where the machine's caches of files are (when there is no Redis)."""
        if self.cache is not None:
            return f"in memory ({self.cache})"
        if named := self.env.get("DJANGO_CACHE_DIR"):
            return f"in DJANGO_CACHE_DIR ({named})"  # the environment's, as a server's would be
        return f"beside the database ({self.var})"

    def __enter__(self) -> Environment:
        if self.db == "postgres":
            self.create_postgres_database()
        else:
            self.database = str(self.var / "db.sqlite3")
        if self.redis is not None:
            self.env["REDIS_URL"] = self.redis.start()
        os.environ.clear()
        os.environ.update(self.env)
        import django

        django.setup()
        return self

    def create_postgres_database(self) -> None:
        """`loadtest_<pid>` on the server DATABASE_URL names; the servers get its URL."""
        self.admin_url = os.environ.get("DATABASE_URL", "")
        if not self.admin_url.startswith(("postgres://", "postgresql://")):
            raise SystemExit("--db postgres needs DATABASE_URL=postgres://… of a server")
        import psycopg

        self.database = f"loadtest_{os.getpid()}"
        with psycopg.connect(self.admin_url, autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{self.database}"')
        parts = urllib.parse.urlsplit(self.admin_url)
        self.env["DATABASE_URL"] = urllib.parse.urlunsplit(parts._replace(path=f"/{self.database}"))

    def __exit__(self, *exc) -> None:
        from django.db import connections

        connections.close_all()
        if self.redis is not None:
            self.redis.stop()
        if self.db == "postgres":
            import psycopg

            with psycopg.connect(self.admin_url, autocommit=True) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')
        if self.keep:
            print(f"kept {self.var}" + (f" and {self.cache}" if self.cache else ""))
        else:
            shutil.rmtree(self.var, ignore_errors=True)
            if self.cache is not None:
                shutil.rmtree(self.cache, ignore_errors=True)

    def describe_cache(self) -> str:
        """Which cache the servers share, if any (with the servers' own REDIS_URL, if set)."""
        url = self.env.get("REDIS_URL", "")
        if self.redis is not None:
            return f"cache: a throwaway Redis at {url}, shared by every server"
        if url:
            return f"cache: the Redis at REDIS_URL ({url}), shared by every server"
        return (
            f"cache: files {self.cache_place}, read by every worker: the `shared` cache"
            " (versions, passes, sessions) and the `rendered` one (pages, fragments)"
            " (no REDIS_URL; --redis starts one; --cache-in-memory puts them on a tmpfs)"
        )

    def cache_figures(self) -> str:
        """What the shared cache did: its keys, hits and misses (empty without one)."""
        url = self.env.get("REDIS_URL", "")
        if not url:
            return ""
        import redis

        client = redis.Redis.from_url(url)
        stats = client.info("stats")
        hits, misses = stats["keyspace_hits"], stats["keyspace_misses"]
        return (
            f"Redis: {client.dbsize():,} keys, {hits:,} hits, {misses:,} misses"
            f" ({hits / max(1, hits + misses):.0%} of reads hit)"
        )


class ThrowawayRedis:
    """redis-server on a free port of 127.0.0.1 (--redis), keeping nothing on disk; stopped with
    the run."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.process: subprocess.Popen | None = None

    def start(self) -> str:
        """Start it, wait until it answers, and give its URL."""
        binary = shutil.which("redis-server")
        if binary is None:
            raise SystemExit("--redis needs redis-server: apt-get install redis-server")
        port = free_port()
        self.process = subprocess.Popen(
            [
                *(binary, "--bind", "127.0.0.1", "--port", str(port)),
                *("--save", "", "--appendonly", "no", "--dir", str(self.directory)),
                *("--logfile", str(self.directory / "redis.log")),
            ],
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if answers_ping(port):
                return f"redis://127.0.0.1:{port}/0"
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"redis-server on port {port} did not answer PING in 10 s")

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)


def answers_ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as connection:
            connection.sendall(b"PING\r\n")
            return connection.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def prepare(environment: Environment) -> float:
    """Migrate the fresh database and collect the static files; the seconds it took."""
    from django.core.management import call_command

    started = time.perf_counter()
    call_command("migrate", verbosity=0, interactive=False)
    call_command("collectstatic", verbosity=0, interactive=False)
    return time.perf_counter() - started


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Servers:
    """gunicorn on 127.0.0.1, one or more; each in its own process group, so that SIGKILL to
    the group kills the master and its workers at once."""

    def __init__(
        self,
        environment: Environment,
        count: int,
        workers: int,
        threads: int,
        pin: int | None = None,
        streams: bool = False,
    ) -> None:
        self.environment = environment
        self.pin = pin  # the one core every server process runs on (taskset), if any
        self.ports = [free_port() for _ in range(count)]
        self.stream_port = free_port() if streams else None  # the ASGI server's
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
        if self.pin is not None:
            kind += f", pinned to core {self.pin}"
        where = ", ".join(f"http://127.0.0.1:{port}/" for port in self.ports)
        text = f"{len(self.ports)} gunicorn server(s) ({kind} each): {where}"
        if self.stream_port is not None:
            text += (
                f"; the event streams: gunicorn, 1 uvicorn worker (ASGI) at"
                f" http://127.0.0.1:{self.stream_port}/ on the same core"
            )
        return text

    @property
    def stream_address(self) -> tuple[str, int] | None:
        return None if self.stream_port is None else ("127.0.0.1", self.stream_port)

    def stream_command(self, port: int) -> list[str]:
        """The ASGI server: one uvicorn worker holds every stream (thousands of connections)."""
        command = [
            *(sys.executable, "-m", "gunicorn", "bigtwo_site.asgi:application"),
            *("--worker-class", "uvicorn_worker.UvicornWorker", "--workers", "1"),
            *("--bind", f"127.0.0.1:{port}", "--keep-alive", "10", "--backlog", "4096"),
            *("--graceful-timeout", "5", "--no-control-socket"),
            *("--error-logfile", str(self.environment.var / f"gunicorn-{port}.log")),
        ]
        if self.pin is not None:
            command = ["taskset", "--cpu-list", str(self.pin), *command]
        return command

    def command(self, port: int) -> list[str]:
        command = [
            *(sys.executable, "-m", "gunicorn", "bigtwo_site.wsgi"),
            *("--bind", f"127.0.0.1:{port}", "--workers", str(self.workers)),
            *("--keep-alive", "10", "--backlog", "2048", "--no-control-socket"),
            *("--error-logfile", str(self.environment.var / f"gunicorn-{port}.log")),
        ]
        if self.threads > 1:
            command += ["--worker-class", "gthread", "--threads", str(self.threads)]
        if self.pin is not None:
            command = ["taskset", "--cpu-list", str(self.pin), *command]
        return command

    def start(self) -> None:
        """Start every server and wait until each answers /ping/."""
        commands = [self.command(port) for port in self.ports]
        if self.stream_port is not None:
            commands.append(self.stream_command(self.stream_port))
        self.processes = [
            subprocess.Popen(
                command,
                cwd=ROOT,
                env=self.environment.env,
                start_new_session=True,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for command in commands
        ]
        for port in self.all_ports:
            self.wait_ready(port)

    @property
    def all_ports(self) -> list[int]:
        return self.ports + ([self.stream_port] if self.stream_port is not None else [])

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
        return sum(self.cpu_by_server().values())

    def cpu_by_server(self) -> dict[str, float]:
        """The CPU so far of each server: "wsgi" (every WSGI server's) and "asgi"."""
        split = {"wsgi": 0.0, "asgi": 0.0}
        for process, port in zip(self.processes, self.all_ports, strict=True):
            split["asgi" if port == self.stream_port else "wsgi"] += process_cpu(process)
        return split

    def log_tail(self, lines: int = 30) -> str:
        text = []
        for port in self.all_ports:
            path = self.environment.var / f"gunicorn-{port}.log"
            if path.exists():
                content = path.read_text(errors="replace").splitlines()
                interesting = [line for line in content if "Booting worker" not in line]
                text += [f"--- {path.name}", *interesting[-lines:]]
        return "\n".join(text)


def process_cpu(process: subprocess.Popen) -> float:
    """User and system CPU so far of a gunicorn master and its workers."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    pids = [process.pid]
    with contextlib.suppress(OSError):
        children = Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text()
        pids += [int(pid) for pid in children.split()]
    for pid in pids:
        with contextlib.suppress(OSError, ValueError, IndexError):
            stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(stat[11]) + int(stat[12])) / tick
    return total


def machine_load() -> str:
    """The machine's load average: other work on the same cores skews every figure."""
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"


def own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime
