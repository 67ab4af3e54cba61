"""The load and crash tool, run small: what the phones were told is what the database holds.

The tests marked `loadtest` run `python -m tools.loadtest` in a subprocess, as the README does
(it makes its own database, settings and servers), for a few seconds each. Timings are printed,
never asserted. The others check that the tool reads the pages as they are rendered today, and
its own parts: options, percentiles, event streams.
"""

import asyncio
import json
import os
import shutil
import socket
import subprocess
import sys
import urllib.parse
import uuid
from pathlib import Path

import pytest

from tests.factories import make_club, make_game, record
from tools.loadtest import Failure, phones, wire
from tools.loadtest.__main__ import parse_options
from tools.loadtest.log import Log, Told, percentile
from tools.loadtest.page import (
    Board,
    Page,
    board_of,
    game_started,
    login_form,
    next_deal,
    told_recorded,
)
from tools.loadtest.verify import failures
from tools.loadtest.wire import Event, Pool, events

ROOT = Path(__file__).resolve().parents[2]
NOTHING_WRONG = dict.fromkeys(Failure, 0)


def run_loadtest(tmp_path: Path, *args: str, env: dict[str, str] | None = None):
    """The tool's exit status, what it printed, and its JSON summary."""
    report = tmp_path / "loadtest.json"
    command = [sys.executable, "-m", "tools.loadtest", *args, "--json", str(report)]
    finished = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, timeout=300, check=False, env=env
    )
    assert finished.returncode == 0, finished.stdout[-3000:] + finished.stderr[-3000:]
    return finished.stdout, json.loads(report.read_text())


LAYOUT_PROGRAMS = ("nginx", "redis-server")
# `make run`'s uvicorn, and the server layout of docs/deploying.md with a Redis of its own.
LAYOUTS = [
    "run",
    pytest.param(
        "server",
        marks=pytest.mark.skipif(
            not all(shutil.which(program) for program in LAYOUT_PROGRAMS),
            reason="nginx or redis-server not installed",
        ),
    ),
]


def without_redis_url() -> dict[str, str]:
    """This environment, but for REDIS_URL: the server layout starts a Redis of its own."""
    return {key: value for key, value in os.environ.items() if key != "REDIS_URL"}


def environment_for(layout: str) -> dict[str, str] | None:
    """The tool's environment: this one, without REDIS_URL in the server layout."""
    return without_redis_url() if layout == "server" else None


def told_by_stream(counts: dict[str, int]) -> bool:
    """Whether a stream told the phones of a deal: its delta taken, or the board fetched."""
    return (
        counts.get("deltas taken from the stream", 0) + counts.get("boards fetched on an event", 0)
        > 0
    )


@pytest.mark.loadtest
@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_load_run_on_sqlite_loses_and_doubles_nothing_and_measures_phase_b(tmp_path, layout):
    printed, summary = run_loadtest(
        tmp_path,
        *("--layout", layout, "--seconds", "4", "--scorekeepers", "2", "--viewers", "4"),
        *("--season-games", "10", "--bench-seconds", "0.5", "--bench-clients", "2"),
        *("--bench-games", "10"),
        env=environment_for(layout),
    )
    check = summary["check"]
    assert check["told"] > 0
    assert {kind: check[kind] for kind in Failure} == NOTHING_WRONG
    assert check["deals"] == check["told"]
    assert "DJANGO_STREAMS_PER_ADDRESS=1000000" in printed
    # Deals after a game's first come on the stream itself: the phones fetch no board for them.
    assert summary["phase_a"]["per_deal"]["deltas taken"] > 0
    assert summary["phase_a"]["latency_ms"]["stream open"]["p95"] > 0
    assert set(summary["phase_b"]["share_of_ping"]) == {
        "/ping/",
        "poll, no news",
        "game page",
        "record a deal",
        "standings",
    }
    assert printed.strip().splitlines()[-1].startswith("RESULT: PASS")


@pytest.mark.loadtest
@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_server_killed_mid_load_leaves_every_told_deal_once_and_none_half_written(
    tmp_path, layout
):
    """In the server layout the site's servers are killed, gunicorn and uvicorn: nginx stays up
    and answers 502 for them until they are back, and the phones send those requests again.
    Restarted and killed, the servers hand the pages following a game over to the new ones:
    each shows the next deal (before, a restart left each page on the old process's stream,
    which held the process for up to its 10 minutes)."""
    printed, summary = run_loadtest(
        tmp_path,
        *("crash", "--layout", layout, "--seconds", "5", "--scorekeepers", "3"),
        env=environment_for(layout),
    )
    check = summary["check"]
    assert check["told"] > 0
    assert {kind: check[kind] for kind in Failure} == NOTHING_WRONG
    # Requests died with the servers, and were sent again.
    assert summary["crash"]["interrupted"] > 0
    assert summary["crash"]["restart"]["pages"] == summary["crash"]["kill"]["pages"] == 3
    assert printed.strip().splitlines()[-1].startswith("RESULT: PASS")


@pytest.mark.loadtest
@pytest.mark.skipif(shutil.which("redis-server") is None, reason="redis-server not installed")
@pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")),
    reason="needs DATABASE_URL naming a PostgreSQL server",
)
def test_two_servers_on_postgresql_sharing_a_throwaway_redis_lose_nothing_when_killed(tmp_path):
    """--redis: the servers share a Redis the tool starts, and stops after."""
    _, summary = run_loadtest(
        tmp_path,
        *("crash", "--db", "postgres", "--servers", "2", "--redis"),
        *("--seconds", "5", "--scorekeepers", "3"),
    )
    check = summary["check"]
    assert check["told"] > 0
    assert {kind: check[kind] for kind in Failure} == NOTHING_WRONG
    host, port = urllib.parse.urlsplit(summary["redis"]).netloc.split(":")
    with pytest.raises(OSError):  # stopped with the run
        socket.create_connection((host, int(port)), timeout=1).close()


@pytest.mark.loadtest
@pytest.mark.skipif(shutil.which("taskset") is None, reason="taskset not installed")
def test_the_capacity_run_adds_tables_and_says_how_many_one_core_served(tmp_path):
    """Two short steps, of one table and of two: the figures behind the capacity, and the
    database holds every deal the scorekeepers were told was recorded."""
    printed, summary = run_loadtest(
        tmp_path,
        *("capacity", "--max-tables", "2", "--tables-start", "1", "--tables-growth", "1"),
        *("--step-seconds", "2", "--compress", "60", "--season-games", "10"),
    )
    last = printed.strip().splitlines()[-1]
    assert last == f"capacity: {summary['capacity']} tables per core"
    tables = [step["tables"] for step in summary["steps"]]
    assert tables == [1, 2] or (tables == [1] and not summary["steps"][0]["ok"])  # a busy machine
    for step in summary["steps"]:  # the phones' core beside the server's, each a share of one
        assert {"server_cpu_share", "clients_cpu_share"} <= set(step)
        assert all(
            kind["server_p95_ms"].keys() == {"app", "view"} for kind in step["requests"].values()
        )
    assert told_by_stream(summary["counts"])
    check = summary["check"]
    assert {kind: check[kind] for kind in Failure} == NOTHING_WRONG
    assert check["deals"] == check["told"]


@pytest.mark.loadtest
@pytest.mark.skipif(
    not all(shutil.which(program) for program in ("taskset", *LAYOUT_PROGRAMS)),
    reason="taskset, nginx or redis-server not installed",
)
def test_the_capacity_run_measures_the_server_layout_too(tmp_path):
    """nginx, gunicorn, uvicorn and Redis on one core, two short steps: a deal recorded
    through gunicorn reaches the phones' streams on uvicorn, and every deal told recorded is
    in the database."""
    printed, summary = run_loadtest(
        tmp_path,
        *("capacity", "--layout", "server", "--max-tables", "2", "--tables-start", "1"),
        *("--tables-growth", "1", "--step-seconds", "2", "--compress", "60"),
        *("--season-games", "10"),
        env=without_redis_url(),
    )
    assert "nginx sends pages to gunicorn and the games' streams to uvicorn" in printed
    for step in summary["steps"]:  # the server's core, server by server
        assert {"gunicorn", "uvicorn", "nginx", "redis"} == step["server_cpu_by_process"].keys()
    assert printed.strip().splitlines()[-1] == f"capacity: {summary['capacity']} tables per core"
    for step in summary["steps"]:  # each answer timed by the server that gave it
        assert all(
            kind["server_p95_ms"].keys() == {"app", "view"} for kind in step["requests"].values()
        )
    assert summary["cpu_seconds"]["server"] > 0
    assert told_by_stream(summary["counts"])  # a stream told of a deal
    check = summary["check"]
    assert {kind: check[kind] for kind in Failure} == NOTHING_WRONG
    assert check["deals"] == check["told"]


def test_two_servers_need_postgresql_and_a_redis(monkeypatch, capsys):
    monkeypatch.delenv("REDIS_URL", raising=False)
    with pytest.raises(SystemExit):
        parse_options(["--servers", "2", "--redis"])
    assert "--db postgres" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        parse_options(["crash", "--servers", "2", "--db", "postgres"])
    assert "add --redis (a throwaway one) or set REDIS_URL" in capsys.readouterr().err
    assert parse_options(["--servers", "2", "--db", "postgres", "--redis"]).servers == 2
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:6379/0")
    assert parse_options(["crash", "--servers", "2", "--db", "postgres"]).servers == 2


def test_the_modes_fill_in_their_own_defaults():
    run = parse_options([])
    assert (run.seconds, run.viewers, run.season_games, run.bench) == (60, 200, 1000, True)
    crash = parse_options(["crash"])
    assert (crash.seconds, crash.viewers, crash.season_games, crash.bench) == (30, 50, 0, False)
    capacity = parse_options(["capacity", "--max-tables", "7"])
    assert (capacity.scorekeepers, capacity.viewers, capacity.bench) == (7, 21, False)


def test_percentiles_are_nearest_rank():
    values = [float(n) for n in range(1, 101)]
    assert percentile(values, 0.95) == 95
    assert percentile(values, 0.5) == 50
    assert percentile([3.0], 0.99) == 3
    assert percentile([2.0, 1.0], 0.95) == 2


def test_every_kind_of_failure_fails_the_run(db):
    from tools.loadtest.verify import verify

    assert failures(verify(Log(), ["no such club"], [])) == 0
    for failure in Failure:
        assert failures({**NOTHING_WRONG, failure.value: 1}) == 1


def test_a_deal_told_recorded_but_not_in_the_database_is_lost(db, capsys):
    from tools.loadtest.verify import verify

    game = make_game()
    log = Log(told=[Told(game.pk, 1, [0, 2, 3, 4], str(uuid.uuid4()), "keeper0")])
    check = verify(log, [game.club.name], [])
    assert check[Failure.LOST.value] == 1
    assert failures(check) == 1
    assert "!! lost: game" in capsys.readouterr().out


def test_a_deal_nobody_was_told_of_is_unexpected(db):
    from tools.loadtest.verify import verify

    game = make_game()
    record(game, 0, 3, 5, 7)
    check = verify(Log(), [game.club.name], [])
    assert check[Failure.UNEXPECTED.value] == 1
    assert check[Failure.LOST.value] == 0


def test_the_tool_reads_the_next_deal_and_the_board_from_the_game_page(db, client):
    game = make_game()
    record(game, 0, 3, 5, 7)
    game.refresh_from_db()
    client.force_login(game.club.owner)

    page = Page(client.get(f"/games/{game.pk}/").text)

    number, token = next_deal(page)
    assert (number, uuid.UUID(token).version) == (2, 4)
    version, poll, changes = board_of(page)
    assert version == game.version
    assert poll == f"/games/{game.pk}/board/?v={game.version}&deal=2"
    assert client.get(poll, headers={"HX-Request": "true"}).status_code == 204
    assert changes == f"/games/{game.pk}/changes/"


def test_the_tool_reads_what_recording_a_deal_answers(db, client):
    game = make_game()
    client.force_login(game.club.owner)
    number, token = next_deal(Page(client.get(f"/games/{game.pk}/").text))
    form = {"number": number, "token": token, "cards_0": 0, "cards_1": 2, "cards_2": 3}
    answer = client.post(
        f"/games/{game.pk}/deals/", form | {"cards_3": 4}, headers={"HX-Request": "true"}
    )

    answered = Page(answer.text)
    assert told_recorded(answered, 1)
    assert next_deal(answered)[0] == 2
    game.refresh_from_db()
    assert board_of(answered).version == game.version
    assert answered.alert == ""

    again = client.post(
        f"/games/{game.pk}/deals/", form | {"cards_3": 9}, headers={"HX-Request": "true"}
    )
    assert Page(again.text).alert  # the same token with other cards is refused, and says why


def test_the_tool_finds_the_login_forms_token_and_the_new_games_address(db, client):
    club = make_club()
    form = login_form(Page(client.get("/accounts/login/").text), "owner", "secret")
    assert form["csrfmiddlewaretoken"]
    assert (form["username"], form["password"]) == ("owner", "secret")

    client.force_login(club.owner)
    seats = {f"seat_{n}": name for n, name in enumerate(("Ann", "Ben", "Cy", "Dee"), start=1)}
    answer = client.post(f"/clubs/{club.pk}/games/new/", seats)
    assert game_started(answer.headers["Location"]) == club.games.get().pk
    assert game_started("/clubs/1/") is None


def test_the_tool_reads_the_boards_follower_in_any_order():
    tag = (
        '<p>x</p><div hx-get="/games/7/board/?v=3&amp;deal=4" hidden'
        ' data-changes="/games/7/changes/" hx-trigger="every 2s, changed"'
        ' id="board-follow" data-version="3"><input type="hidden" name="shown"></div>'
    )
    assert board_of(Page(tag)) == (3, "/games/7/board/?v=3&deal=4", "/games/7/changes/")
    assert board_of(Page(tag.replace(' data-changes="/games/7/changes/"', "")))[2] == ""
    assert board_of(Page("<div id='other'></div>")) is None


async def served(handler, action, size: int = 2):
    """`action(pool)` against a server answering every request with `handler`, through the pool
    the phones share."""
    from aiohttp import web
    from aiohttp.test_utils import TestServer

    app = web.Application()
    app.router.add_route("*", "/{path:.*}", handler)
    async with (
        TestServer(app, host="127.0.0.1") as server,
        Pool([(server.host, server.port)], size) as pool,
    ):
        return await action(pool)


def test_each_phone_sends_its_own_cookies_and_keeps_what_its_answers_set_or_delete():
    """One pool for every phone, each phone's cookies its own: an answer's Set-Cookie adds or
    replaces one of them, a deletion (as Django's: empty, expired) drops it; a form goes as a
    browser posts it. No compression is asked for: the answers cost the server what they did
    when the figures in docs/performance.md were taken."""
    from aiohttp import web

    async def answer(request):
        assert "Accept-Encoding" not in request.headers
        response = web.Response(
            text=f"{request.headers.get('Cookie')} {dict(await request.post())}"
        )
        response.set_cookie("csrftoken", "new")
        response.del_cookie("sessionid")
        return response

    async def two_phones(pool):
        kim, lee = {"sessionid": "k", "theme": "dark"}, {"sessionid": "l"}
        sent = await pool.request("POST", "/games/1/deals/", kim, {"number": 3, "cards_0": 0})
        return kim, lee, sent.status, sent.body

    kim, lee, status, body = asyncio.run(served(answer, two_phones))
    assert (status, body) == (200, "sessionid=k; theme=dark {'number': '3', 'cards_0': '0'}")
    assert kim == {"theme": "dark", "csrftoken": "new"}
    assert lee == {"sessionid": "l"}


def test_a_request_queued_for_a_connection_is_late_not_failed(monkeypatch):
    """The bound on a request is its answer's, once sent: one waiting longer than that for the
    pool's connection, held by an answer still coming, gets its answer (at 587 tables on a busy
    machine, the wait in the queue failed hundreds of phones, and deals recorded for them were
    found in the database that none was told of); a server silent that long fails it."""
    from aiohttp import web

    monkeypatch.setattr(wire, "ANSWER_SECONDS", 1.0)

    async def answer(request):
        if request.path == "/silent/":
            await asyncio.Event().wait()  # never answered
        stream = web.StreamResponse()
        await stream.prepare(request)
        if request.path == "/coming/":  # three times the bound, a bit every tenth of a second
            for _ in range(30):
                await stream.write(b".")
                await asyncio.sleep(0.1)
        return stream

    async def queued(pool):  # a pool of one connection a server
        coming = asyncio.create_task(pool.request("GET", "/coming/", {}))
        await asyncio.sleep(0)  # it takes the connection first
        quick = await pool.request("GET", "/quick/", {})
        with pytest.raises(TimeoutError):
            await pool.request("GET", "/silent/", {})
        return (await coming).body, quick.status

    assert asyncio.run(served(answer, queued, size=1)) == ("." * 30, 200)


def test_a_phones_stream_brings_each_event_as_it_is_sent():
    from aiohttp import web

    async def changes(request):
        stream = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await stream.prepare(request)
        for part in (b"retry: 2000\n\nevent: alive\ndata: 20\n\n", b"data: 5\n", b"\n"):
            await stream.write(part)
        return stream

    async def follow(pool):
        async with pool.stream("/games/1/changes/", {"sessionid": "k"}) as answer:
            return answer.status, [event async for event in events(answer.content)]

    assert asyncio.run(served(changes, follow)) == (200, [("alive", "20"), ("message", "5")])


def test_the_phones_read_server_sent_events_as_eventsource_does():
    """From a stream's lines as they come, however the body was cut into chunks."""

    async def read(*chunks: bytes) -> list[Event]:
        lines = asyncio.StreamReader()  # line by line, as aiohttp's body reads
        for chunk in chunks:
            lines.feed_data(chunk)
        lines.feed_eof()
        return [event async for event in events(lines)]

    assert asyncio.run(read(b"retry: 2000\n\ndata: 1", b"2\n", b"\n")) == [("message", "12")]
    assert asyncio.run(read(b"data: 1\n")) == []  # an event ends only at a blank line
    assert asyncio.run(read(b": still here\n\ndata:13\r", b"\n\r\n")) == [("message", "13")]
    assert asyncio.run(read(b"data: a\r\ndata: b\n\n")) == [("message", "a\nb")]
    assert asyncio.run(read(b"event: x\nid: 4\n\n")) == []  # no data: no event
    assert asyncio.run(read(b"event: alive\ndata: 20\n\ndata: 14\n\n")) == [
        ("alive", "20"),
        ("message", "14"),  # the type is the event's own
    ]


def test_the_phones_take_a_delta_one_version_on_and_fetch_the_board_on_any_other(monkeypatch):
    """As the page does: a delta one past the board's version moves the follower on with no
    request; a delta further on, or a version alone, fetches the board."""
    fetched = []

    async def poll(phone):
        fetched.append(phone.board.poll)

    monkeypatch.setattr(phones, "poll", poll)
    run = phones.Run(None, Log(), "", compress=1)
    phone = phones.Phone(run, phones.Table(club=1, game=7), "kim", {}, game=7)
    phone.table.phones.append(phone)
    phone.board = Board(3, "/games/7/board/?v=3&deal=4", "/games/7/changes/")

    asyncio.run(phones.heard(phone, Event("delta", '4\n<template><tr id="deal-3">')))
    assert phone.board == (4, "/games/7/board/?v=4&deal=4", "/games/7/changes/")
    assert fetched == []
    asyncio.run(phones.heard(phone, Event("delta", "6\n<tr>")))
    asyncio.run(phones.heard(phone, Event("message", "7")))
    assert len(fetched) == 2
    asyncio.run(phones.heard(phone, Event("message", "4")))  # not newer: nothing
    assert len(fetched) == 2
    assert run.log.counts == {"deltas taken from the stream": 1, "boards fetched on an event": 2}
