"""The tool's own database, settings and Redis (Environment), and the site's servers: uvicorn as
`make run` starts it, one process on a port of its own each, pages and streams alike (Servers),
or the server layout of docs/deploying.md behind nginx (LayoutServers, tools/server_layout.py)."""

from __future__ import annotations

import contextlib
import functools
import os
import resource
import secrets
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

from tools.server_layout import (
    ServerLayout,
    answers_ping,
    free_port,
    process_cpu_seconds,
    spawn,
    start_redis,
    stop_groups,
)

STREAMS_PER_ADDRESS = 1_000_000  # every phone comes from 127.0.0.1: the servers' limit, raised


class Environment:
    """A temporary DJANGO_VAR_DIR, a fresh database, maybe a throwaway Redis (`redis`; else any
    REDIS_URL is passed on), the servers' environment, and Django set up on them in this process."""

    def __init__(self, db: str, keep: bool, redis: bool = False, layout: str = "run") -> None:
        self.db, self.redis, self.layout = db, redis, layout
        self.scratch = tempfile.TemporaryDirectory(prefix="bigtwo-loadtest-", delete=not keep)
        self.var = Path(self.scratch.name)
        self.admin_url, self.database = "", str(self.var / "db.sqlite3")
        self.redis_process: subprocess.Popen | None = None
        self.cleanup = contextlib.ExitStack()
        self.env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
        self.env |= {
            "DJANGO_SETTINGS_MODULE": "bigtwo_site.settings",
            "DJANGO_VAR_DIR": str(self.var),
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),  # the same for every server
            "DJANGO_DEBUG": "0",
            "DJANGO_HTTPS": "0",
            "DJANGO_STREAMS_PER_ADDRESS": str(STREAMS_PER_ADDRESS),
            "DJANGO_SERVER_TIMING": "1",  # each answer's own time, beside what the phones saw
            "PYTHONUNBUFFERED": "1",
        }

    def __enter__(self) -> Environment:
        # Each thing made is undone by `cleanup`, also when what follows it fails.
        with contextlib.ExitStack() as cleanup:
            cleanup.enter_context(self.scratch)
            if self.db == "postgres":
                self.create_postgres_database()
                drop = f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)'
                cleanup.callback(self.on_postgres, drop)
            if self.redis:
                self.redis_process, self.env["REDIS_URL"] = start_redis(directory=self.var)
                cleanup.callback(stop_groups, [self.redis_process])
            os.environ.clear()
            os.environ.update(self.env)
            import django

            from bigtwo_site.prepare_var import prepare

            prepare()  # the var directory's database, as `make setup` makes it; the key is given
            django.setup()
            from django.db import connections

            cleanup.callback(connections.close_all)  # first, before the database is dropped
            self.cleanup = cleanup.pop_all()
        return self

    def create_postgres_database(self) -> None:
        """`loadtest_<pid>` on the server DATABASE_URL names; the servers get its URL."""
        self.admin_url = os.environ.get("DATABASE_URL", "")
        if not self.admin_url.startswith(("postgres://", "postgresql://")):
            raise SystemExit("--db postgres needs DATABASE_URL=postgres://… of a server")
        self.database = f"loadtest_{os.getpid()}"
        self.on_postgres(f'CREATE DATABASE "{self.database}"')
        parts = urllib.parse.urlsplit(self.admin_url)
        self.env["DATABASE_URL"] = urllib.parse.urlunsplit(parts._replace(path=f"/{self.database}"))

    def __exit__(self, *exc) -> None:
        self.cleanup.close()

    def on_postgres(self, statement: str) -> None:
        """Run `statement` on the PostgreSQL server DATABASE_URL names, outside a transaction."""
        try:
            import psycopg
        except ImportError:
            raise SystemExit('--db postgres needs psycopg: pip install -e ".[postgres]"') from None
        with psycopg.connect(self.admin_url, autocommit=True) as admin:
            admin.execute(statement)

    def describe(self) -> str:
        """The database, what the servers share, and the limit of streams raised."""
        url, what = self.env.get("REDIS_URL", ""), "(cache, sessions, streams)"
        if self.redis:
            shared = f"a throwaway Redis at {url} {what}, shared by every server"
        elif url:
            shared = f"the Redis at REDIS_URL ({url}) {what}, shared"
        elif self.layout == "server":
            shared = f"the server layout's own throwaway Redis {what}"
        else:
            shared = "no Redis: the cache and the streams' channel layer in the server's memory"
        return (
            f"directory {self.var}; database: {self.db} ({self.database}); {shared};"
            f" DJANGO_STREAMS_PER_ADDRESS={STREAMS_PER_ADDRESS} (every phone is 127.0.0.1)"
        )


class Servers:
    """`count` uvicorn processes as `make run` starts it, one a port, each started by `spawn`
    (pinned to core `pin` if given, logging to `server-<port>.log` in the var directory)."""

    def __init__(self, environment: Environment, count: int, pin: int | None = None) -> None:
        self.environment, self.pin = environment, pin
        self.ports = [free_port() for _ in range(count)]
        self.addresses = [("127.0.0.1", port) for port in self.ports]
        self.processes: list[subprocess.Popen] = []

    def describe(self) -> str:
        where = ", ".join(f"http://127.0.0.1:{port}/" for port in self.ports)
        pinned = f", pinned to core {self.pin}" if self.pin is not None else ""
        return (
            f"{len(self.ports)} server(s), `make run`'s uvicorn, one process each{pinned}: {where}"
        )

    def command(self, port: int) -> list[str]:
        return [
            *(sys.executable, "-m", "uvicorn", "bigtwo_site.asgi:application"),
            *("--host", "127.0.0.1", "--port", str(port), "--workers", "1"),
            *("--lifespan", "off", "--no-proxy-headers", "--no-server-header"),
            *("--timeout-graceful-shutdown", "3"),
        ]

    def start(self) -> None:
        """Start every server, each once it answers /ping/."""
        self.processes, cpus = [], None if self.pin is None else {self.pin}
        where = {"env": self.environment.env, "cpus": cpus, "directory": self.environment.var}
        for port in self.ports:
            ready = functools.partial(answers_ping, port)
            self.processes.append(spawn(f"server-{port}", self.command(port), ready, **where))

    def __enter__(self) -> Servers:
        try:  # stopped again if they don't all answer
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def halt(self, kill: bool = False) -> bool:
        """SIGTERM every server, as stopping `make run` does, or SIGKILL (`kill`: a crash,
        mid-request): whether they were gone within STOPPING_SECONDS (`stop_groups`)."""
        return stop_groups(self.processes, kill=kill)

    stop = halt

    def cpu_seconds(self) -> float:
        return sum(process_cpu_seconds(process.pid) for process in self.processes)

    def cpu_by_server(self) -> dict[str, float]:
        return {"uvicorn": self.cpu_seconds()}

    def log_tail(self) -> str:
        """The last 20 lines of every server's log, but for its access log's."""
        logs = [self.environment.var / f"server-{port}.log" for port in self.ports]
        return log_tail(logs, lambda line: " uvicorn.access: " not in line)


def log_tail(paths: list[Path], kept=lambda line: True) -> str:
    """The last 20 lines `kept` of each log that exists, under its name."""
    text = []
    for path in filter(Path.exists, paths):
        logged = path.read_text(errors="replace").splitlines()
        text += [f"--- {path}", *list(filter(kept, logged))[-20:]]
    return "\n".join(text)


class LayoutServers:
    """The server layout (tools/server_layout.py) as the load tool's servers, every process
    pinned to core `pin` if given."""

    def __init__(self, environment: Environment, count: int, pin: int | None = None) -> None:
        if count != 1:
            raise ValueError("the server layout runs gunicorn's workers as deploy/ gives them")
        self.pin, self.directory = pin, environment.var
        # Every phone is 127.0.0.1: nginx's limit of connections from one address is raised as
        # DJANGO_STREAMS_PER_ADDRESS is, up to the open files every process may hold.
        connections = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        self.layout = ServerLayout(
            environment.env,
            free_port(),
            redis_url=environment.env.get("REDIS_URL") or None,
            cpus=None if pin is None else {pin},
            directory=environment.var,
            connections=connections,
        )
        self.addresses = [(self.layout.host, self.layout.port)]

    def __enter__(self) -> LayoutServers:
        self.layout.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        self.layout.stop()

    def start(self) -> None:
        self.layout.start()

    def halt(self, kill: bool = False) -> bool:
        """SIGTERM the streams' uvicorn, as `systemctl restart bigtwo-streams` does, or SIGKILL
        gunicorn and uvicorn (`kill`), as a power cut would; nginx and Redis stay up, as on a
        machine whose units systemd starts again. Whether they were gone in STOPPING_SECONDS."""
        return self.layout.halt(*(("gunicorn", "uvicorn") if kill else ("uvicorn",)), kill=kill)

    def describe(self) -> str:
        counts = ", ".join(f"{name} {len(pids)}" for name, pids in self.layout.pids().items())
        pinned = f", every process pinned to core {self.pin}" if self.pin is not None else ""
        return (
            f"the server layout (docs/deploying.md) at {self.layout.url}/: nginx sends pages to"
            f" gunicorn and the games' streams to uvicorn, Redis at {self.layout.redis_url}"
            f" between them; processes: {counts}{pinned}"
        )

    def cpu_seconds(self) -> float:
        return sum(self.layout.cpu_seconds().values())

    def cpu_by_server(self) -> dict[str, float]:
        return self.layout.cpu_seconds()

    def log_tail(self) -> str:
        """The last 20 lines of each server's log (nginx's errors; its access log left out)."""
        return log_tail([*sorted(self.directory.glob("*.log")), self.directory / "nginx/error.log"])


# What the load tool uses of its servers, whichever layout (--layout) runs them.
Served = Servers | LayoutServers
SERVERS: dict[str, type[Served]] = {"run": Servers, "server": LayoutServers}


def prepare() -> float:
    """Migrate the fresh database and collect the static files; the seconds it took."""
    from django.core.management import call_command

    started = time.perf_counter()
    call_command("migrate", verbosity=0, interactive=False)
    call_command("collectstatic", verbosity=0, interactive=False)
    return time.perf_counter() - started


def machine_load() -> str:
    """The machine's load average: other work on the same cores skews every figure."""
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"


def core_times() -> dict[int, tuple[int, int]]:
    """Each core's busy and total time so far, in ticks (/proc/stat), whoever's work it was:
    the tool's processes' own CPU time doesn't show what else ran on their core."""
    cores = {}
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/stat").read_text().splitlines():
            name, *fields = line.split()
            if name.startswith("cpu") and name[3:].isdigit():
                user, nice, system, idle, iowait, irq, softirq, steal = map(int, fields[:8])
                busy = user + nice + system + irq + softirq + steal
                cores[int(name[3:])] = (busy, busy + idle + iowait)
    return cores


own_cpu_seconds = time.process_time  # the tool's own CPU time, every thread's
