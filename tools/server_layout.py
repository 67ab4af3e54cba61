"""The server layout of docs/deploying.md on one machine, started from the files in deploy/:
gunicorn for the pages and uvicorn for the games' streams, each with its unit's own command
lines, Redis between them (a throwaway one unless given), and nginx in front with the site as
deploy/nginx-site.conf has it. Only the addresses change: `on_ports` puts free loopback ports in
place of the ones the files are written with; and, for a load tool, nginx's limits on connections.

`python -m tools.server_layout` (`make run-server`) serves the site so until Ctrl-C; the tests
(tests/test_server_layout.py) and the load tool use `ServerLayout`, and `start_redis` for a
throwaway Redis.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from types import TracebackType

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
NGINX_SITE = DEPLOY / "nginx-site.conf"
PAGES_UNIT = DEPLOY / "bigtwo-pages.service"
STREAMS_UNIT = DEPLOY / "bigtwo-streams.service"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
# What each server's address is in deploy/: nginx's `listen`, and the loopback ports of the
# pages (gunicorn) and the streams (uvicorn), as `--bind 127.0.0.1:8001`, `--port 8002` and the
# upstreams' `server 127.0.0.1:…;`.
LISTEN = re.compile(r"^(\s*)listen 80;$", re.MULTILINE)
PER_ADDRESS = re.compile(r"^(\s*limit_conn \w+) \d+;$", re.MULTILINE)
PAGES_PORT, STREAMS_PORT = "8001", "8002"
STARTING_SECONDS = 60  # a loaded machine takes seconds to import Django in each process
# How long a server stopped with SIGTERM may take to finish before it is killed. uvicorn's own
# `--timeout-graceful-shutdown` (3 s) ends its open streams well within it.
STOPPING_SECONDS = 20
NGINX_TEMP_PATHS = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")


def on_ports(text: str, *, pages: int, streams: int, listen: str | None = None) -> str:
    """A file of deploy/ with the pages and streams on ports `pages` and `streams`, and nginx
    listening on `listen` ("127.0.0.1:8080") if given."""
    text = re.sub(rf"(?<=127\.0\.0\.1:){PAGES_PORT}\b", str(pages), text)
    text = re.sub(
        rf"(?<=127\.0\.0\.1:){STREAMS_PORT}\b|(?<=--port ){STREAMS_PORT}\b", str(streams), text
    )
    return text if listen is None else LISTEN.sub(rf"\g<1>listen {listen};", text)


def unit_commands(unit: str, key: str = "ExecStart") -> list[list[str]]:
    """The command lines of a systemd unit's `key` lines, continued lines joined, each run by
    this Python: `/srv/…/bin/python` is this interpreter, `/srv/…/bin/gunicorn` its module."""
    commands = []
    for line in re.findall(rf"^{key}=(.*)$", unit.replace("\\\n", " "), re.MULTILINE):
        program, *arguments = shlex.split(line)
        name = Path(program).name
        here = [sys.executable] if name.startswith("python") else [sys.executable, "-m", name]
        commands.append([*here, *arguments])
    return commands


def nginx_conf(site: str, prefix: Path, connections: int | None = None) -> str:
    """A whole nginx.conf serving `site`, everything it writes kept under `prefix`, its worker
    holding up to `connections` at once if given (nginx's 512 else); its access log names the
    upstream that answered each request."""
    user = "user root;\n" if os.geteuid() == 0 else ""  # else its workers can't write `prefix`
    temp = "".join(f"{kind}_temp_path {prefix}/{kind};\n" for kind in NGINX_TEMP_PATHS)
    events = f"worker_connections {connections};" if connections else ""
    return (
        f"{user}worker_processes 1;\nerror_log {prefix}/error.log;\npid {prefix}/nginx.pid;\n"
        f"events {{{events}}}\nhttp {{\n"
        "log_format upstreams '$request_method $uri $status $upstream_addr';\n"
        f"access_log {prefix}/access.log upstreams;\n{temp}{site}\n}}\n"
    )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def answers_ping(port: int, path: str = "/ping/") -> bool:
    with contextlib.closing(http.client.HTTPConnection("127.0.0.1", port, timeout=5)) as connection:
        connection.request("GET", path)
        return connection.getresponse().status == 200


def redis_pong(port: int) -> bool:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as connection:
        connection.sendall(b"PING\r\n")
        return connection.recv(16).startswith(b"+PONG")


def process_cpu_seconds(pid: int) -> float:
    """The user and system CPU time so far of process `pid`; 0 once it is gone."""
    with contextlib.suppress(OSError, IndexError, ValueError):
        stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")
    return 0.0


def answers(ready: Callable[[], bool], process: subprocess.Popen, seconds: float) -> bool:
    """Whether `ready()` (polled) comes true within `seconds` while `process` runs."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and process.poll() is None:
        with contextlib.suppress(OSError, http.client.HTTPException):
            if ready():
                return True
        time.sleep(0.1)
    return False


def spawn(
    name: str,
    command: list[str],
    ready: Callable[[], bool],
    *,
    env: dict[str, str] | None = None,
    cpus: set[int] | None = None,
    directory: Path | None = None,
) -> subprocess.Popen:
    """`command` started as `name` in a process group of its own, pinned to the cores `cpus` if
    given, its output in `<name>.log` in `directory` if given (else this process's), once
    `ready()`; killed, and a RuntimeError, if it stops or isn't ready in STARTING_SECONDS."""
    if cpus is not None:
        command = ["taskset", "--cpu-list", ",".join(map(str, sorted(cpus))), *command]
    with contextlib.ExitStack() as files:
        log = None
        if directory is not None:
            log = files.enter_context((directory / f"{name}.log").open("ab"))
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, start_new_session=True, stdout=log, stderr=log
        )
    try:
        if answers(ready, process, STARTING_SECONDS):
            return process
        where = f"{directory}/{name}.log" if directory else "its output above"
        what = "stopped" if process.poll() is not None else f"no answer in {STARTING_SECONDS} s"
        raise RuntimeError(f"{name}: {what} ({where}): {shlex.join(command)}")
    except BaseException:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        raise


def stop_groups(processes: Iterable[subprocess.Popen], *, kill: bool = False) -> bool:
    """SIGTERM the process group of each of `processes`, or SIGKILL (`kill`), and wait for each,
    killing what is still there STOPPING_SECONDS after: whether they were all gone by then."""
    processes = list(processes)
    for process in processes:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL if kill else signal.SIGTERM)
    deadline, in_time = time.monotonic() + STOPPING_SECONDS, True
    for process in processes:
        try:
            process.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            in_time = False
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    return in_time


def start_redis(
    *, cpus: set[int] | None = None, directory: Path | None = None
) -> tuple[subprocess.Popen, str]:
    """A throwaway redis-server on a free loopback port, keeping nothing on disk and saying only
    its warnings, started as `spawn` starts a server: its process and its URL."""
    if not Path(REDIS_SERVER).exists():
        raise SystemExit("a throwaway Redis needs redis-server: apt-get install redis-server")
    port = free_port()
    command = [REDIS_SERVER, "--bind", "127.0.0.1", "--port", str(port), "--save", ""]
    command += ["--loglevel", "warning"]
    process = spawn("redis", command, lambda: redis_pong(port), cpus=cpus, directory=directory)
    return process, f"redis://127.0.0.1:{port}/0"


class ServerLayout:
    """A throwaway redis-server (unless `redis_url` is given), gunicorn after its unit's
    ExecStartPre (prepare_var, migrate, collectstatic), uvicorn and nginx on `host`:`port`,
    started in that order with `env` as their environment, each once it answers, and stopped
    together when the block ends, or as soon as one fails to start; `halt` stops or crashes some
    of them, and `start` starts them again. Each runs in a process group of its own, pinned to
    the cores `cpus` if given; `pids()` names every process of each, and `cpu_seconds()` adds up
    their CPU time.
    Their output goes to `<name>.log` in `directory` if given, else to this process's.
    `connections` raises nginx's limits, from one address (deploy's `limit_conn`) and in all,
    for a load tool whose phones all come from 127.0.0.1."""

    def __init__(
        self,
        env: dict[str, str],
        port: int,
        *,
        host: str = "127.0.0.1",
        redis_url: str | None = None,
        cpus: set[int] | None = None,
        directory: Path | None = None,
        connections: int | None = None,
    ) -> None:
        self.env, self.host, self.port, self.cpus = dict(env), host, port, cpus
        self.directory, self.redis_url, self.connections = directory, redis_url, connections
        self.pages_port, self.streams_port = free_port(), free_port()
        self.processes: dict[str, subprocess.Popen] = {}
        self.work = Path(tempfile.mkdtemp(prefix="bigtwo-layout-"))

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def __enter__(self) -> ServerLayout:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def start(self) -> None:
        """Start each server not running, in order: its own Redis (none with `redis_url`),
        gunicorn, uvicorn, nginx; all of them at first, and after `halt` those it stopped."""
        if self.redis_url is None:
            self.processes["redis"], self.redis_url = start_redis(
                cpus=self.cpus, directory=self.directory
            )
        self.env["REDIS_URL"] = self.redis_url
        if "gunicorn" not in self.processes:
            self.start_pages()
        if "uvicorn" not in self.processes:
            (uvicorn,) = unit_commands(self.unit(STREAMS_UNIT))
            self.start_server("uvicorn", uvicorn, lambda: answers_ping(self.streams_port))
        if "nginx" not in self.processes:
            self.start_nginx()

    def start_pages(self) -> None:
        """gunicorn, as its unit starts it: after its ExecStartPre (prepare_var, migrate,
        collectstatic)."""
        pages = self.unit(PAGES_UNIT)
        with contextlib.ExitStack() as files:
            log = None
            if self.directory is not None:
                log = files.enter_context((self.directory / "prepare.log").open("ab"))
            for command in unit_commands(pages, "ExecStartPre"):
                subprocess.run(command, cwd=ROOT, env=self.env, check=True, stdout=log, stderr=log)
        (gunicorn,) = unit_commands(pages)
        self.start_server("gunicorn", gunicorn, lambda: answers_ping(self.pages_port))

    def start_nginx(self) -> None:
        """nginx with deploy's site on this layout's ports, its limits raised by `connections`."""
        prefix = self.nginx_prefix
        site = self.unit(NGINX_SITE, listen=f"{self.host}:{self.port}")
        if self.connections is not None:
            site = PER_ADDRESS.sub(rf"\g<1> {self.connections};", site)
        (prefix / "nginx.conf").write_text(nginx_conf(site, prefix, self.connections))
        nginx = [NGINX, "-p", str(prefix), "-c", str(prefix / "nginx.conf"), "-g", "daemon off;"]
        self.start_server("nginx", nginx, lambda: answers_ping(self.port))

    @property
    def nginx_prefix(self) -> Path:
        prefix = (self.directory or self.work) / "nginx"
        prefix.mkdir(exist_ok=True)
        return prefix

    def unit(self, path: Path, listen: str | None = None) -> str:
        """A file of deploy/ on this layout's ports."""
        text = path.read_text(encoding="utf-8")
        return on_ports(text, pages=self.pages_port, streams=self.streams_port, listen=listen)

    def start_server(self, name: str, command: list[str], ready: Callable[[], bool]) -> None:
        """`spawn` the server `name` with this layout's environment, cores and directory."""
        self.processes[name] = spawn(
            name, command, ready, env=self.env, cpus=self.cpus, directory=self.directory
        )

    def halt(self, *names: str, kill: bool = False) -> bool:
        """Stop every process of the servers `names` (gunicorn's workers too), the others left
        running: SIGTERM, as systemd stops a unit, or SIGKILL (`kill`), as a power cut or the OOM
        killer would, mid-request. Wait until none is left, killing what is still there
        STOPPING_SECONDS after SIGTERM; their ports are free then, and `start()` starts them
        again. Whether they were gone within STOPPING_SECONDS."""
        for name in names:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.processes[name].pid, signal.SIGKILL if kill else signal.SIGTERM)
        deadline, in_time = time.monotonic() + STOPPING_SECONDS, True
        while any(self.pids()[name] for name in names):  # a group's last ones, still exiting
            if in_time and time.monotonic() > deadline:
                in_time = False
                for name in names:
                    with contextlib.suppress(ProcessLookupError):
                        os.killpg(self.processes[name].pid, signal.SIGKILL)
            time.sleep(0.05)
        for name in names:
            self.processes.pop(name).wait()
        return in_time

    def stop(self) -> None:
        """Stop every server at once (`stop_groups`)."""
        stop_groups(self.processes.values())
        self.processes.clear()
        shutil.rmtree(self.work, ignore_errors=True)

    def pids(self) -> dict[str, list[int]]:
        """Every live process of each server (gunicorn's and nginx's workers too), by its group;
        a process exited but not yet reaped (a zombie) is none."""
        groups = {process.pid: name for name, process in self.processes.items()}
        found: dict[str, list[int]] = {name: [] for name in self.processes}
        for stat in Path("/proc").glob("[0-9]*/stat"):
            with contextlib.suppress(OSError, IndexError, ValueError):
                state, _, group = stat.read_text().rsplit(")", 1)[1].split()[:3]
                if int(group) in groups and state != "Z":
                    found[groups[int(group)]].append(int(stat.parent.name))
        return found

    def cpu_seconds(self) -> dict[str, float]:
        """The user and system CPU time so far of each server's live processes."""
        return {name: sum(map(process_cpu_seconds, pids)) for name, pids in self.pids().items()}

    def upstreams(self) -> list[str]:
        """nginx's access log: `METHOD path status upstream` a line, the oldest first."""
        log = self.nginx_prefix / "access.log"
        return log.read_text().splitlines() if log.exists() else []


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1", help="where nginx listens")
    parser.add_argument("--port", type=int, default=8000)
    arguments = parser.parse_args()
    # SIGTERM ends the block as Ctrl-C does, so the servers stop together either way.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    environment = {"DJANGO_SETTINGS_MODULE": "bigtwo_site.settings", **os.environ}
    redis_url = os.environ.get("REDIS_URL") or None
    with ServerLayout(
        environment, arguments.port, host=arguments.host, redis_url=redis_url
    ) as layout:
        redis = "REDIS_URL" if redis_url else "a throwaway redis-server"
        print(
            f"Serving on {layout.url}/ -- nginx in front of gunicorn (pages, port"
            f" {layout.pages_port}) and uvicorn (streams, port {layout.streams_port}), {redis}"
            " between them. Ctrl-C stops them all.",
            flush=True,
        )
        if arguments.host == "0.0.0.0":
            print(
                "From a phone on the same Wi-Fi, open"
                f" http://<this computer's address>:{layout.port}/"
            )
        with contextlib.suppress(KeyboardInterrupt):
            while all(process.poll() is None for process in layout.processes.values()):
                time.sleep(1)
        stopped = [name for name, process in layout.processes.items() if process.poll() is not None]
        if stopped:
            print(f"{', '.join(stopped)} stopped: stopping the others", file=sys.stderr)


if __name__ == "__main__":
    main()
