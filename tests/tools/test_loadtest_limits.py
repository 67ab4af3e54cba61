"""The load tool knows its own limits: a step its clients' core couldn't keep up with is no
pass, a step failed with the server's core idle says where the time went, what the tool
makes (a Redis, a database, a directory) goes again whatever fails after it, and the server
layout's servers are killed and started again as a crash run needs."""

import asyncio
import os
import shutil
import socket
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from tools.loadtest import capacity
from tools.loadtest.__main__ import parse_options
from tools.loadtest.log import Log
from tools.loadtest.servers import SERVERS, Environment, Servers, cpu_total
from tools.server_layout import answers_ping


def make_step(tables: int, p95_ms: float = 100, clients: float = 0.5, server: float = 0.6) -> dict:
    step = {
        "tables": tables,
        "requests": {
            "poll": {"n": 9, "p95_ms": p95_ms, "per_second": 3.0, "server_p95_ms": {}},
        },
        "worst_p95_ms": p95_ms,
        "delay_p95_s": 0.05,
        "deals_followed": 4,
        "counts": {},
        "server_cpu_share": server,
        "server_cpu_by_process": {"uvicorn": server},
        "clients_cpu_share": clients,
        "server_core_busy": None,
        "clients_core_busy": None,
        "errors": 0,
    }
    step["limited_by"] = capacity.limited_by(step)
    step["ok"] = step["limited_by"] is None
    return step


def test_a_cores_share_is_its_cpu_time_over_the_wall_time():
    assert capacity.cpu_share(3.0, 4.0) == 0.75
    assert capacity.cpu_share(1.0, 0.0) == 0.0


def test_a_cores_busy_share_counts_everything_on_it():
    before, after = {0: (10, 100), 1: (0, 100)}, {0: (60, 200), 1: (0, 100)}
    assert capacity.core_busy(before, after, 0) == 0.5
    assert capacity.core_busy(before, after, 1) is None  # no time went by: unknown
    assert capacity.core_busy({}, after, 0) is None  # not read (no /proc/stat)


class FakeServers:
    """The server layout's processes, which used `per_step` CPU seconds between two readings:
    gunicorn three fifths of it, uvicorn the rest."""

    def __init__(self, per_step: float) -> None:
        self.by_server = iter(
            [
                {"gunicorn": 6.0, "uvicorn": 4.0},
                {"gunicorn": 6.0 + 0.6 * per_step, "uvicorn": 4.0 + 0.4 * per_step},
            ]
        )

    def cpu_seconds(self) -> dict[str, float]:
        return next(self.by_server)


def test_a_step_gives_the_clients_cpu_share_beside_the_servers(monkeypatch, capsys):
    """10 s of a step: the server used 5 s of CPU, the phones 9.5 s: limited by the phones."""
    monkeypatch.setattr(capacity, "clock", iter([100.0, 110.0]).__next__)
    monkeypatch.setattr(capacity, "own_cpu_seconds", iter([1.0, 10.5]).__next__)
    cores = [{0: (0, 100), 1: (0, 100)}, {0: (80, 200), 1: (100, 200)}]
    monkeypatch.setattr(capacity, "core_times", iter(cores).__next__)
    options = SimpleNamespace(step_seconds=0)

    step = asyncio.run(capacity.measure(options, FakeServers(5.0), Log(), 30))

    assert (step["server_cpu_share"], step["clients_cpu_share"]) == (0.5, 0.95)
    assert (step["limited_by"], step["ok"]) == ("load generator", False)
    printed = capsys.readouterr().out
    assert step["server_cpu_by_process"] == {"gunicorn": 0.3, "uvicorn": 0.2}
    assert (
        "CPU: server 50% of its core (busy 80% in all) (gunicorn 30%, uvicorn 20%),"
        " clients 95% of theirs (busy 100%" in printed
    )
    assert "limited by the load generator: no pass" in printed


def test_a_step_with_the_clients_core_95_percent_busy_is_no_pass(capsys):
    """Its p95 under the limit counts for nothing: the capacity is the last real pass."""
    steps = [make_step(100), make_step(150), make_step(225, clients=0.95)]

    assert capacity.conclude(steps) == 150
    printed = capsys.readouterr().out
    assert "stopped at 225 tables, limited by the load generator" in printed
    assert "the capacity below is a floor" in printed
    assert capacity.conclude([make_step(100, clients=0.95)]) == 0


def test_a_step_over_the_limit_is_the_servers():
    assert make_step(100, p95_ms=301)["limited_by"] == "server"
    assert make_step(100, p95_ms=300)["ok"]


def test_a_step_failed_with_the_servers_core_under_half_busy_says_where_the_time_went(capsys):
    step = make_step(150, p95_ms=400, server=0.3)
    step["requests"]["poll"]["server_p95_ms"] = {"app": 30.0, "view": 10.0}
    step["requests"]["standings"] = step["requests"]["poll"] | {"server_p95_ms": {}}

    capacity.print_step(step)

    printed = capsys.readouterr().out
    assert "the step failed with the server 30% busy on its core" in printed
    assert "poll: 400 ms / 30 ms / 10 ms: 370 ms outside Django" in printed
    assert "standings: 400 ms seen; the server gave no timing" in printed
    capacity.print_step(make_step(150, p95_ms=400, server=0.8))  # busy: the server's limit
    assert "outside Django" not in capsys.readouterr().out
    capacity.print_step(make_step(150, clients=0.95, server=0.3))  # the phones' limit, idle server
    assert "the step failed with the server 30% busy on its core" in capsys.readouterr().out


def test_the_phones_keep_the_servers_own_times_by_kind():
    log = Log()
    log.note_server_timing("poll", "view;dur=1.5, app;dur=12.0")
    log.note_server_timing("poll", "")  # a server without the timing
    assert log.server_time == {("poll", "view"): [0.0015], ("poll", "app"): [0.012]}


def test_postgres_without_psycopg_says_which_extra_to_install(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "postgres://postgres@127.0.0.1:1/none")
    monkeypatch.setitem(sys.modules, "psycopg", None)  # importing it fails, as uninstalled
    environment = Environment("postgres", keep=False)
    with pytest.raises(SystemExit, match=r'needs psycopg: pip install -e "\.\[postgres\]"'):
        environment.__enter__()
    assert not environment.var.exists()  # the directory it made went too


@pytest.fixture
def environ_kept(monkeypatch):
    """The environment, put back after Environment replaced it; Django is already set up."""
    import django

    monkeypatch.setattr(django, "setup", lambda: None)
    saved = os.environ.copy()
    yield
    os.environ.clear()
    os.environ.update(saved)


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="redis-server not installed")
def test_servers_that_fail_to_start_leave_no_redis_running(environ_kept, monkeypatch):
    failing = [sys.executable, "-c", "raise SystemExit(3)"]
    monkeypatch.setattr(Servers, "command", lambda self, port: failing)

    with (
        pytest.raises(RuntimeError, match=r"server-\d+: stopped"),
        Environment("sqlite", keep=False, redis=True) as environment,
        Servers(environment, 1),
    ):
        pass

    redis = environment.redis_process
    assert redis is not None
    assert redis.poll() is not None  # stopped, and waited for
    port = int(environment.env["REDIS_URL"].rsplit(":", 1)[1].split("/")[0])
    with pytest.raises(OSError):  # nothing answers on its port
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    assert not environment.var.exists()


@pytest.mark.parametrize("mode", ["run", "crash", "capacity"])
def test_every_mode_runs_the_server_layout_with_its_own_workers_and_redis(mode, capsys):
    assert parse_options([mode, "--layout", "server"]).layout == "server"
    for refused in (["--servers", "2", "--redis"], ["--redis"]):
        with pytest.raises(SystemExit):
            parse_options([mode, *refused, "--layout", "server", "--db", "postgres"])
        assert "drop --servers and --redis" in capsys.readouterr().err


@pytest.mark.skipif(
    shutil.which("nginx") is None or shutil.which("redis-server") is None,
    reason="nginx or redis-server not installed",
)
def test_the_server_layouts_servers_say_what_they_are_and_count_every_process(
    environ_kept, monkeypatch
):
    """nginx, gunicorn's master and workers, uvicorn and the layout's own Redis, each pinned to
    the server's core, and the CPU time of them all is the servers'."""
    monkeypatch.delenv("REDIS_URL", raising=False)
    core = min(os.sched_getaffinity(0))
    with (
        Environment("sqlite", keep=False, layout="server") as environment,
        SERVERS["server"](environment, 1, core) as servers,
    ):
        described, pids = servers.describe(), servers.pids()
        every = [pid for group in pids.values() for pid in group]
        unpinned = [pid for pid in every if os.sched_getaffinity(pid) != {core}]
        before = servers.cpu_seconds()
        total = cpu_total(servers)
        after = servers.cpu_seconds()
    assert "nginx sends pages to gunicorn and the games' streams to uvicorn" in described
    assert f"every process pinned to core {core}" in described
    assert "the server layout's own throwaway Redis" in environment.describe()
    assert pids.keys() == {"redis", "gunicorn", "uvicorn", "nginx"}
    assert len(pids["gunicorn"]) > 1  # its workers too
    assert unpinned == []
    assert before.keys() == pids.keys()
    assert sum(before.values()) <= total <= sum(after.values())
    assert before["gunicorn"] > 0 and before["uvicorn"] > 0  # Django imported, at least


@pytest.mark.skipif(
    shutil.which("nginx") is None or shutil.which("redis-server") is None,
    reason="nginx or redis-server not installed",
)
def test_a_crash_kills_the_server_layouts_gunicorn_and_uvicorn_and_starts_them_again(
    environ_kept, monkeypatch
):
    """Every process of gunicorn (master and workers) and uvicorn SIGKILLed, as a power cut or
    the OOM killer would; nginx and Redis stay up, as on a machine whose units systemd starts
    again; and started again, the site answers through nginx."""
    monkeypatch.delenv("REDIS_URL", raising=False)
    with (
        Environment("sqlite", keep=False, layout="server") as environment,
        SERVERS["server"](environment, 1) as servers,
    ):
        before = servers.pids()
        servers.halt(kill=True)
        killed = servers.pids()
        gone = [pid for name in ("gunicorn", "uvicorn") for pid in before[name] if alive(pid)]
        servers.start()
        after = servers.pids()
        answered = answers_ping(servers.port)  # through nginx
    assert killed.keys() == {"redis", "nginx"}
    assert gone == []
    assert (killed["redis"], killed["nginx"]) == (before["redis"], before["nginx"])
    assert (after["redis"], after["nginx"]) == (before["redis"], before["nginx"])
    assert len(after["gunicorn"]) == len(before["gunicorn"]) > 1  # its workers too
    assert set(after["gunicorn"]).isdisjoint(before["gunicorn"])
    assert len(after["uvicorn"]) == 1 and after["uvicorn"] != before["uvicorn"]
    assert answered


def alive(pid: int) -> bool:
    """Whether process `pid` runs (a zombie, exited but not reaped, doesn't)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False
