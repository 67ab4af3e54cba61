"""A phone following its game by the server's word: the game page served by uvicorn, as in
production, where the board's stream (scoring/live_changes.py) stays open.

While the stream is open and speaks the board doesn't poll; a deal recorded on another phone
reaches this one by the stream, at once. A stream gone silent is dropped: the board polls and
opens another. The rest of the suite runs on pytest-django's WSGI live server,
where there is no stream and the board polls, as without this change.
"""

import socket
import threading
import time

import pytest
import uvicorn
from playwright.sync_api import Page, expect

from bigtwo_site.asgi import application
from scoring import live_changes
from scoring.models import Game
from tests.browser.phone import PHONE, log_in
from tests.factories import make_club, make_game, make_user, record
from tests.live_support import CacheOutage

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    # WhiteNoise's static files, served here by uvicorn too; in production it serves only streams.
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous iterators"),
]


@pytest.fixture
def asgi_server(live_server, monkeypatch):
    """uvicorn serving the site in a thread, on the test database (`live_server` sets that up
    for a second thread, and serves the log-in page)."""
    # A watcher of its own: one left from another test's server runs on that server's loop.
    monkeypatch.setattr(live_changes, "WATCHER", live_changes.Watcher())
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(
            application, host="127.0.0.1", port=port, log_level="warning", lifespan="off"
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


def following_a_game(browser, asgi_server) -> tuple[Page, Game, list[str]]:
    """A phone on a new game's page, served by uvicorn, and every address it has asked since."""
    owner = make_user("sam")
    game = make_game(make_club(owner=owner), by=owner)
    context = browser.new_context(viewport=PHONE, base_url=asgi_server, is_mobile=True)
    page = context.new_page()
    log_in(page, owner, asgi_server)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(f"/games/{game.pk}/")
    expect(page.locator(".deal-no")).to_have_text("Deal 1")
    return page, game, asked


def test_a_deal_recorded_elsewhere_arrives_by_the_stream_and_the_board_does_not_poll(
    browser, asgi_server
):
    page, game, asked = following_a_game(browser, asgi_server)

    time.sleep(5)  # two polls and more, were the board still polling
    boards = [url for url in asked if "/board/" in url]
    assert boards == [], boards
    assert any("/changes/" in url for url in asked)

    record(game, 0, 5, 10, 13)
    expect(page.locator("#game-board tfoot")).to_contain_text("39", timeout=1_500)
    assert len([url for url in asked if "/board/" in url]) == 1
    page.context.close()


def test_a_stream_gone_silent_is_dropped_and_the_board_polls_until_another_speaks(
    browser, asgi_server, monkeypatch
):
    monkeypatch.setattr(live_changes, "KEEPALIVE_SECONDS", 0.4)  # the page waits 1 s of silence
    monkeypatch.setattr(live_changes, "READ_LATELY_SECONDS", 0.3)
    outage = CacheOutage(monkeypatch, live_changes.WATCHER)
    page, game, asked = following_a_game(browser, asgi_server)
    time.sleep(4)  # "alive" every 0.4 s: no poll
    assert [url for url in asked if "/board/" in url] == []
    assert len([url for url in asked if "/changes/" in url]) == 1

    outage.down = True  # the stream stays open but vouches for nothing
    deadline = time.monotonic() + 6
    while not any("/board/" in url for url in asked):
        assert time.monotonic() < deadline, "the board never polled beside a silent stream"
        page.wait_for_timeout(100)
    # It opened another stream too (the server's watcher tries again on every tick).
    assert len([url for url in asked if "/changes/" in url]) >= 2

    outage.down = False
    record(game, 0, 5, 10, 13)
    expect(page.locator("#game-board tfoot")).to_contain_text("39", timeout=3_000)
    page.context.close()
