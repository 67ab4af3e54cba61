"""The site served as `make run` serves it: uvicorn on the ASGI application, in a process of its
own, on a free loopback port, from a fresh DJANGO_VAR_DIR made by the set-up step, as `make run`'s
(SQLite, migrated on request)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.fresh_settings import prepare_var

ROOT = Path(__file__).resolve().parents[1]
# `make run`'s server and its options (the Makefile's `run` target;
# tests/bigtwo_site/test_start_up.py holds the two together).
SERVER_COMMAND = [
    "-m",
    "uvicorn",
    "bigtwo_site.asgi:application",
    "--lifespan",
    "off",
    "--no-proxy-headers",
    "--no-server-header",
    "--timeout-graceful-shutdown",
    "3",
]


@dataclass
class Server:
    """The site served as `make run` serves it, on one port: `restart` starts another process
    there, as stopping `make run` and running it again does."""

    host: str
    port: int
    log: Path
    command: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    processes: list[subprocess.Popen] = field(default_factory=list)  # the last one serves

    def url(self, path: str) -> str:
        return f"http://{self.host}:{self.port}{path}"

    def logged(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    @property
    def process(self) -> subprocess.Popen:
        return self.processes[-1]

    def start(self) -> None:
        """A new server process on the port, once it listens."""
        with self.log.open("a") as output:
            self.processes.append(
                subprocess.Popen(self.command, cwd=ROOT, env=self.env, stdout=output, stderr=output)
            )
        wait_until_listening(self, self.process)

    def restart(self, *, stopped_first: bool = False) -> subprocess.Popen:
        """SIGTERM the server, and start another on its port as soon as the port is free (the
        old one closes it at once), or, `stopped_first`, once the old one has ended, as
        `systemctl restart` does (a stall fails after 30 s): the old process, maybe still
        finishing what it holds, for the caller to wait for."""
        old = self.process
        old.terminate()
        if stopped_first:
            try:
                old.wait(30)
            except subprocess.TimeoutExpired:
                raise AssertionError("the server was still running 30 s after SIGTERM") from None
        wait_until_not_listening(self)
        self.start()
        return old

    def stop(self) -> None:
        """SIGTERM every process left, killing any still there 10 s later."""
        for process in self.processes:
            stop(process)


def server_environment(var_dir: Path, **environ: str) -> dict[str, str]:
    """The environment of a server on one machine with SQLite and no Redis, the test run's own
    database, cache and settings left out."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("REDIS_URL", "DATABASE_URL", "DJANGO_SETTINGS_MODULE")
    }
    return env | {
        "DJANGO_SETTINGS_MODULE": "bigtwo_site.settings",
        "DJANGO_VAR_DIR": str(var_dir),
        "DJANGO_SECRET_KEY": "not a secret",
        **environ,
    }


def on_the_test_database() -> dict[str, str]:
    """What a server needs to serve this test's database (a test that commits): its address,
    and the secret key the sessions a test signs in with are hashed under."""
    from django.conf import settings
    from django.db import connection

    database = connection.settings_dict
    if connection.vendor == "sqlite":
        url = f"sqlite:///{database['NAME']}"
    else:
        who = urllib.parse.quote(database["USER"] or "")
        if database["PASSWORD"]:
            who += ":" + urllib.parse.quote(database["PASSWORD"])
        where = f"{database['HOST'] or 'localhost'}:{database['PORT'] or 5432}"
        url = f"postgres://{who}@{where}/{database['NAME']}"
    return {"DATABASE_URL": url, "DJANGO_SECRET_KEY": settings.SECRET_KEY}


def stale_static(collected: Path) -> list[str]:
    """The site's own static files (static/) changed since they were collected into
    `collected`, or never collected."""
    stale = []
    for source in sorted((ROOT / "static").rglob("*")):
        copy = collected / source.relative_to(ROOT / "static")
        if source.is_file() and (
            not copy.exists() or copy.stat().st_mtime < source.stat().st_mtime
        ):
            stale.append(str(source.relative_to(ROOT)))
    return stale


def fail_unless_static_collected() -> None:
    """Fail the test unless the scripts its pages run, served by the site's application in the
    test's process, are those of static/ now, as `make setup` collects them (`make test` runs
    it first): a test of yesterday's script would pass or fail for nothing (a page without its
    script waits for a stream that never opens)."""
    from django.conf import settings

    stale = stale_static(Path(settings.STATIC_ROOT))
    if stale:
        pytest.fail(
            f"{stale[0]} (and {len(stale) - 1} more) changed since `make static` collected it, "
            f"or was never collected: run `make static`",
            pytrace=False,
        )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def collect_static(var_dir: Path) -> Path:
    """The static files collected as `make run` collects them (hashed names and their
    manifest), into `var_dir`; where they are. Pages render only with them."""
    env = server_environment(var_dir)
    prepare_var(env)
    manage = [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"]
    subprocess.run(manage, cwd=ROOT, env=env, check=True)
    return var_dir / "static"


@contextmanager
def served(
    var_dir: Path, *, migrate: bool = False, static: Path | None = None, **environ: str
) -> Iterator[Server]:
    """The site served by `make run`'s server until the block ends; with `static`, the static
    files `collect_static` collected, shared (without them, a page renders as a 500)."""
    env = server_environment(var_dir, **environ)
    prepare_var(env)
    if migrate:
        manage = [sys.executable, "manage.py", "migrate", "--noinput", "-v0"]
        subprocess.run(manage, cwd=ROOT, env=env, check=True)
    if static is not None:
        (var_dir / "static").symlink_to(static, target_is_directory=True)
    port = free_port()
    command = [sys.executable, *SERVER_COMMAND, "--host", "127.0.0.1", "--port", str(port)]
    server = Server("127.0.0.1", port, var_dir / "server.log", command, env)
    server.log.write_text("")
    try:
        server.start()
        yield server
    finally:
        server.stop()


def stop(process: subprocess.Popen) -> None:
    """Ask `process` to end (SIGTERM), and kill it if it hasn't within 10 s."""
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def wait_until_listening(server: Server, process: subprocess.Popen, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server stopped:\n{server.logged()}")
        try:
            with socket.create_connection((server.host, server.port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"the server didn't listen within {seconds} s:\n{server.logged()}")


def wait_until_not_listening(server: Server, seconds: float = 30) -> None:
    """Return once nothing listens on the server's port."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((server.host, server.port), timeout=1):
                time.sleep(0.05)
        except OSError:
            return
    raise RuntimeError(f"the server still listened {seconds} s after SIGTERM:\n{server.logged()}")
