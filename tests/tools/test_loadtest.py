"""The load and crash tool, run small: what the clients were told is what the database holds.

The slow tests run `python -m tools.loadtest` as the README does, in a subprocess (it makes its
own database, settings and gunicorn), on SQLite with one server. Timings are printed, never
asserted. The quick ones check that the tool reads the pages as they are rendered today.
"""

import asyncio
import json
import shutil
import socket
import subprocess
import sys
import urllib.parse
import uuid
from pathlib import Path

import pytest

from tests.factories import make_club, make_game, record
from tools.loadtest import Failure
from tools.loadtest.capacity import board_of
from tools.loadtest.client import Page, game_started, game_version, login_form, next_deal
from tools.loadtest.servers import Environment
from tools.loadtest.wire import EventStream, body_parts

ROOT = Path(__file__).resolve().parents[2]


def run_loadtest(tmp_path: Path, *args: str) -> dict:
    report = tmp_path / "loadtest.json"
    command = [sys.executable, "-m", "tools.loadtest", *args]
    command += ["--db", "sqlite", "--json", str(report)]
    finished = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, timeout=300, check=False
    )
    assert finished.returncode == 0, finished.stdout[-3000:] + finished.stderr[-3000:]
    return json.loads(report.read_text())


@pytest.mark.slow
def test_scorekeepers_and_viewers_under_load_lose_and_double_nothing(tmp_path):
    summary = run_loadtest(
        tmp_path,
        *("--seconds", "5", "--scorekeepers", "3", "--viewers", "3", "--season-games", "20"),
        *("--bench-seconds", "1", "--bench-threads", "2", "--bench-games", "20"),
    )
    check = summary["check"]
    assert check["told"] > 0
    assert {kind: check[kind] for kind in Failure} == dict.fromkeys(Failure, 0)
    assert check["deals"] == check["told"]
    assert set(summary["phase_b"]["share_of_ping"]) == {
        "/ping/",
        "poll, no news",
        "game page",
        "record a deal",
        "record, no JS",
        "standings",
    }


@pytest.mark.slow
def test_a_server_killed_mid_load_leaves_every_told_deal_once_and_none_half_written(tmp_path):
    summary = run_loadtest(tmp_path, "crash", "--seconds", "6", "--scorekeepers", "3")
    check = summary["check"]
    assert check["told"] > 0
    assert {kind: check[kind] for kind in Failure} == dict.fromkeys(Failure, 0)
    assert len(summary["crash"]["kills"]) == 1


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("taskset") is None, reason="taskset not installed")
def test_the_capacity_run_adds_tables_and_says_how_many_one_core_served(tmp_path):
    """Two steps of a few tables each: the figures behind the capacity, and the database holds
    every deal the scorekeepers were told was recorded."""
    report = tmp_path / "capacity.json"
    command = [sys.executable, "-m", "tools.loadtest", "capacity", "--json", str(report)]
    command += ["--max-tables", "4", "--tables-start", "2", "--tables-growth", "1"]
    command += ["--step-seconds", "6", "--compress", "30", "--season-games", "10"]
    finished = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, timeout=300, check=False
    )
    assert finished.returncode == 0, finished.stdout[-3000:] + finished.stderr[-3000:]
    lines = finished.stdout.strip().splitlines()
    assert lines[-1].startswith("capacity: ") and lines[-1].endswith(" tables per core")
    summary = json.loads(report.read_text())
    assert [step["tables"] for step in summary["steps"]][:1] == [2]
    assert summary["steps"][0]["requests"]["poll"]["n"] > 0
    assert summary["capacity"] == int(lines[-1].split()[1])
    check = summary["check"]
    assert {kind: check[kind] for kind in Failure} == dict.fromkeys(Failure, 0)
    assert check["deals"] == check["told"]


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("redis-server") is None, reason="redis-server not installed")
def test_servers_sharing_a_redis_the_tool_started_lose_nothing_when_killed(tmp_path):
    """--redis: the servers share a throwaway Redis (cache, sessions, accounts), stopped after."""
    summary = run_loadtest(tmp_path, "crash", "--seconds", "6", "--scorekeepers", "3", "--redis")
    check = summary["check"]
    assert check["told"] > 0
    assert {kind: check[kind] for kind in Failure} == dict.fromkeys(Failure, 0)
    host, port = urllib.parse.urlsplit(summary["cache"]).netloc.split(":")
    assert host == "127.0.0.1"
    with pytest.raises(OSError):  # stopped with the run
        socket.create_connection((host, int(port)), timeout=1).close()


@pytest.mark.slow
def test_servers_keeping_their_caches_in_memory_lose_nothing_when_killed(tmp_path):
    """--cache-in-memory: the caches' files in a directory of the run's own on a tmpfs (what
    DJANGO_CACHE_DIR names on a server), which survives the servers' deaths and goes after."""
    summary = run_loadtest(
        tmp_path, "crash", "--seconds", "6", "--scorekeepers", "3", "--cache-in-memory"
    )
    assert summary["cache"].startswith("in memory (/dev/shm/bigtwo-loadtest-cache-")
    check = summary["check"]
    assert check["told"] > 0
    assert {kind: check[kind] for kind in Failure} == dict.fromkeys(Failure, 0)
    assert not Path(summary["cache"].removeprefix("in memory (").removesuffix(")")).exists()


@pytest.mark.parametrize(
    ("cache_dir", "place"),
    [(None, "beside the database ({var})"), ("/run/bigtwo", "in DJANGO_CACHE_DIR (/run/bigtwo)")],
)
def test_the_tool_says_where_the_servers_caches_of_files_are(monkeypatch, cache_dir, place):
    """An operator's DJANGO_CACHE_DIR is the servers' too, and the report names it."""
    monkeypatch.delenv("DJANGO_CACHE_DIR", raising=False)
    if cache_dir:
        monkeypatch.setenv("DJANGO_CACHE_DIR", cache_dir)
    environment = Environment("sqlite", keep=False)
    try:
        assert environment.cache_place == place.format(var=environment.var)
        assert environment.env.get("DJANGO_CACHE_DIR") == cache_dir
    finally:
        shutil.rmtree(environment.var)


def test_the_tool_reads_the_next_deal_and_the_version_from_the_game_page(db, client):
    game = make_game()
    record(game, 0, 3, 5, 7)
    game.refresh_from_db()
    client.force_login(game.club.owner)

    page = Page(client.get(f"/games/{game.pk}/").text)

    number, token = next_deal(page)
    assert number == 2
    assert uuid.UUID(token).version == 4
    assert game_version(page) == str(game.version)


def test_the_tool_reads_what_recording_a_deal_answers(db, client):
    game = make_game()
    client.force_login(game.club.owner)
    number, token = next_deal(Page(client.get(f"/games/{game.pk}/").text))
    form = {"number": number, "token": token, "cards_0": 0, "cards_1": 2, "cards_2": 3}
    answer = client.post(
        f"/games/{game.pk}/deals/", form | {"cards_3": 4}, headers={"HX-Request": "true"}
    )

    answered = Page(answer.text)
    assert "Deal 1 recorded." in answered.text("live-notice")
    assert next_deal(answered)[0] == 2
    game.refresh_from_db()
    assert game_version(answered) == str(game.version)
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


def test_the_capacity_run_reads_the_board_and_the_deal_form_as_the_page_has_them(db, client):
    game = make_game()
    record(game, 0, 3, 5, 7)
    game.refresh_from_db()
    client.force_login(game.club.owner)
    html = client.get(f"/games/{game.pk}/").text

    version, poll, changes = board_of(Page(html))
    number, token = next_deal(Page(html))

    assert version == game.version
    assert poll.startswith(f"/games/{game.pk}/board/?v={game.version}&deal=2&t=")
    assert client.get(poll, headers={"HX-Request": "true"}).status_code == 204
    assert changes.startswith(f"/games/{game.pk}/changes/?t=")
    assert "&amp;" not in poll + changes
    assert (number, uuid.UUID(token).version) == (2, 4)


def test_the_capacity_run_reads_the_boards_attributes_in_any_order():
    tag = (
        '<p>x</p><div hx-get="/games/7/board/?v=3&amp;t=a%2Bb" hidden'
        ' data-changes="/games/7/changes/?t=a%2Bb" hx-trigger="every 2s [a > b]"'
        ' id="board-follow" data-version="3"><input type="hidden" name="shown"></div>'
    )
    assert board_of(Page(tag)) == (
        3,
        "/games/7/board/?v=3&t=a%2Bb",
        "/games/7/changes/?t=a%2Bb",
    )
    assert board_of(Page(tag.replace(' data-changes="/games/7/changes/?t=a%2Bb"', "")))[2] == ""
    assert board_of(Page("<div id='other'></div>")) is None


def test_the_capacity_runs_phones_read_server_sent_events_as_eventsource_does():
    events = EventStream()
    assert events.feed(b"retry: 2000\n\ndata: 1") == []
    assert events.retry_ms == 2000
    assert events.feed(b"2\n") == []  # an event ends only at a blank line
    assert events.feed(b"\n: still here\n\ndata:13\r") == [("message", "12")]
    assert events.feed(b"\n\r\ndata: a\ndata: b\r\r") == [("message", "13")]  # half "\r\n"?
    assert events.feed(b"\n") == [("message", "a\nb")]
    assert events.feed(b"event: x\nid: 4\n\n") == []  # no data: no event
    assert events.feed(b"event: alive\ndata: 20\n\ndata: 14\n\n") == [
        ("alive", "20"),
        ("message", "14"),  # the type is the event's own
    ]


def test_the_capacity_runs_phones_read_a_chunked_stream_as_it_comes():
    async def parts(raw: bytes, headers: dict[str, str]) -> list[bytes]:
        reader = asyncio.StreamReader()
        reader.feed_data(raw)
        reader.feed_eof()
        return [part async for part in body_parts(reader, headers)]

    chunked = {"transfer-encoding": "chunked"}
    raw = b"d\r\nretry: 2000\n\n\r\n9\r\ndata: 5\n\n\r\n0\r\n\r\n"
    assert asyncio.run(parts(raw, chunked)) == [b"retry: 2000\n\n", b"data: 5\n\n"]
    assert b"".join(asyncio.run(parts(b"data: 5\n\n", {}))) == b"data: 5\n\n"
