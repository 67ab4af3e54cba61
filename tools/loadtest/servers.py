"""The tool's own settings, database and Redis (Environment), and the site's servers."""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import os
import resource
import secrets
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

from tools.bench.throwaway import start_django, throwaway_database
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
    """A DJANGO_VAR_DIR, maybe a throwaway Redis, the servers' environment, and Django on them."""

    def __init__(self, db: str, keep: bool, redis: bool = False, layout: str = "run") -> None:
        self.db, self.redis, self.layout = db, redis, layout
        self.scratch = tempfile.TemporaryDirectory(prefix="bigtwo-loadtest-", delete=not keep)
        self.var = Path(self.scratch.name)
        self.redis_process: subprocess.Popen | None = None
        self.database = ""
        self.admin_url = os.environ.get("DATABASE_URL", "") if db == "postgres" else ""
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
        } | ({"DATABASE_URL": self.admin_url} if self.admin_url else {})

    def __enter__(self) -> Environment:
        # Each thing made is undone by `cleanup`, also when what follows it fails.
        with contextlib.ExitStack() as cleanup:
            cleanup.enter_context(self.scratch)
            if self.db == "postgres":
                postgres_ready(self.admin_url)
            if self.redis:
                self.redis_process, self.env["REDIS_URL"] = start_redis(directory=self.var)
                cleanup.callback(stop_groups, [self.redis_process])
            os.environ.clear()
            os.environ.update(self.env)
            start_django()
            self.cleanup = cleanup.pop_all()
        return self

    def __exit__(self, *exc) -> None:
        self.cleanup.close()

    @contextlib.contextmanager
    def fresh_database(self) -> Iterator[None]:
        """A throwaway database for the block (tools/bench/throwaway.py), the servers' too."""
        from django.db import connection

        with throwaway_database(f"loadtest_{os.getpid()}"):
            name = self.database = connection.settings_dict["NAME"]
            url = urllib.parse.urlsplit(self.admin_url)._replace(path=f"/{name}").geturl()
            self.env["DATABASE_URL"] = url if self.admin_url else f"sqlite:///{name}"
            yield

    def describe(self) -> str:
        """The database, what the servers share, and the limit of streams raised."""
        if url := self.env.get("REDIS_URL", ""):
            given = "a throwaway" if self.redis else "REDIS_URL's"
            shared = f"{given} Redis at {url} (cache, sessions, streams), shared by every server"
        elif self.layout == "server":
            shared = "the server layout's own throwaway Redis (cache, sessions, streams)"
        else:
            shared = "no Redis: the cache and the streams' channel layer in the server's memory"
        return (
            f"directory {self.var}; database: {self.db} ({self.database}); {shared};"
            f" DJANGO_STREAMS_PER_ADDRESS={STREAMS_PER_ADDRESS} (every phone is 127.0.0.1)"
        )


def postgres_ready(admin_url: str) -> None:
    """Refuse --db postgres without a PostgreSQL server's DATABASE_URL or without psycopg."""
    if not admin_url.startswith(("postgres://", "postgresql://")):
        raise SystemExit("--db postgres needs DATABASE_URL=postgres://… of a server")
    if importlib.util.find_spec("psycopg") is None:
        raise SystemExit('--db postgres needs psycopg: pip install -e ".[postgres]"')


class Servers:
    """`count` uvicorn processes as `make run` starts it, one a port, pinned to `pin` if given."""

    def __init__(self, environment: Environment, count: int, pin: int | None = None) -> None:
        self.environment, self.pin = environment, pin
        self.ports = [free_port() for _ in range(count)]
        self.addresses = [("127.0.0.1", port) for port in self.ports]
        self.processes: list[subprocess.Popen] = []

    def describe(self) -> str:
        where = ", ".join(f"http://127.0.0.1:{port}/" for port in self.ports)
        pinned = f", pinned to core {self.pin}" if self.pin is not None else ""
        return f"{len(self.ports)} server(s), `make run`'s uvicorn{pinned}: {where}"

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
        """SIGTERM every server (SIGKILL: `kill`): whether they were gone in STOPPING_SECONDS."""
        return stop_groups(self.processes, kill=kill)

    stop = halt

    def cpu_seconds(self) -> dict[str, float]:
        return {"uvicorn": sum(process_cpu_seconds(process.pid) for process in self.processes)}

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


class LayoutServers(ServerLayout):
    """The server layout as the load tool's servers (`count` is deploy/'s), pinned to `pin`."""

    def __init__(self, environment: Environment, count: int, pin: int | None = None) -> None:
        # Every phone is 127.0.0.1: nginx's limits raised as far as the open files allow.
        connections, self.pin = resource.getrlimit(resource.RLIMIT_NOFILE)[0], pin
        place = {"cpus": None if pin is None else {pin}, "directory": environment.var}
        redis_url = environment.env.get("REDIS_URL") or None
        super().__init__(
            environment.env, free_port(), redis_url=redis_url, connections=connections, **place
        )
        self.addresses = [(self.host, self.port)]

    def halt(self, *names: str, kill: bool = False) -> bool:
        """By default SIGTERM uvicorn, or SIGKILL gunicorn and uvicorn (`kill`); nginx and Redis
        stay up, as on a machine whose units systemd starts again."""
        names = names or (("gunicorn", "uvicorn") if kill else ("uvicorn",))
        return super().halt(*names, kill=kill)

    def describe(self) -> str:
        counts = ", ".join(f"{name} {len(pids)}" for name, pids in self.pids().items())
        pinned = f", every process pinned to core {self.pin}" if self.pin is not None else ""
        return (
            f"the server layout at {self.url}/: nginx sends pages to gunicorn and the games'"
            f" streams to uvicorn, Redis at {self.redis_url}; processes: {counts}{pinned}"
        )

    def log_tail(self) -> str:
        """The last 20 lines of each server's log (nginx's errors; its access log left out)."""
        nginx = self.nginx_prefix
        return log_tail([*sorted(nginx.parent.glob("*.log")), nginx / "error.log"])


# What the load tool uses of its servers, whichever layout (--layout) runs them.
Served = Servers | LayoutServers
SERVERS: dict[str, type[Served]] = {"run": Servers, "server": LayoutServers}


def cpu_total(servers: Served) -> float:
    """The CPU time so far of every process of the servers."""
    return sum(servers.cpu_seconds().values())


def collect_static() -> None:
    from django.core.management import call_command

    call_command("collectstatic", verbosity=0, interactive=False)


def machine_load() -> str:
    """The machine's load average: other work on the same cores skews every figure."""
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"


def core_times() -> dict[int, tuple[int, int]]:
    """Each core's busy and total ticks so far (/proc/stat), whoever's work it was."""
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
