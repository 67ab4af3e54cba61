"""The site served as `make run` serves it: uvicorn on the ASGI application, in a process of its
own, on a free loopback port, from a fresh DJANGO_VAR_DIR (SQLite, migrated on request)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

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
]


@dataclass
class Server:
    host: str
    port: int
    log: Path

    def url(self, path: str) -> str:
        return f"http://{self.host}:{self.port}{path}"

    def logged(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")


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


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def collect_static(var_dir: Path) -> Path:
    """The static files collected as `make run` collects them (hashed names and their
    manifest), into `var_dir`; where they are. Pages render only with them."""
    env = server_environment(var_dir)
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
    if migrate:
        manage = [sys.executable, "manage.py", "migrate", "--noinput", "-v0"]
        subprocess.run(manage, cwd=ROOT, env=env, check=True)
    if static is not None:
        (var_dir / "static").symlink_to(static, target_is_directory=True)
    port = free_port()
    log = var_dir / "server.log"
    command = [sys.executable, *SERVER_COMMAND, "--host", "127.0.0.1", "--port", str(port)]
    with log.open("w") as output:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=output, stderr=output)
    server = Server("127.0.0.1", port, log)
    try:
        wait_until_listening(server, process)
        yield server
    finally:
        stop(process)


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
