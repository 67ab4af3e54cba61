"""A phone following its game by the server's word: the game page served by uvicorn, as `make run`
serves it, where the board's stream (scoring/views/streams.py) stays open.

While the stream is open and speaks the board doesn't poll; a deal recorded on another phone
reaches this one by the stream, at once. A stream gone silent is dropped: the board polls and
opens another. A stream the server ends is opened again. The shared live view follows its game by
a stream of its own. The rest of the suite runs on
pytest-django's WSGI live server, which declines streams (204), so its pages poll.

Nothing is timed. The following phone's clock is held still (`hold_the_clock`): its board polls
only when the test moves the clock on, so a deal it shows came by the stream, however slow the
machine; and the page's time passes, between the stream's words, as the test says.
"""

import socket
import threading
import time
from urllib.parse import urlsplit

import pytest
import uvicorn
from playwright.sync_api import Page, expect

from bigtwo_site.asgi import application
from scoring import services
from scoring.views import streams
from tests.browser.phone import PHONE, hold_the_clock, log_in, requests_reported, wait_until
from tests.browser.scorekeeping import fill
from tests.factories import make_club, make_game, make_member, make_user
from tests.live_support import own_channel_layer

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    # WhiteNoise's static files, served under ASGI as under `make run`.
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous iterators"),
]


@pytest.fixture
def asgi_server(live_server, static_collected):
    """uvicorn serving the site in a thread, on the test database (`live_server` sets that up
    for a second thread). Each server gets a channel layer of its own, as a process of `make run`
    has: a Redis layer receives on one event loop only, and each server runs its own loop."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(
            application, host="127.0.0.1", port=port, log_level="warning", lifespan="off"
        )
    )
    with own_channel_layer():
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        deadline = time.monotonic() + 30
        while not server.started:
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
        server.should_exit = True
        thread.join(10)


# Counts the stream's "alive" words the page has heard (in `window.aliveHeard`).
ALIVE_COUNTED = """(() => {
  window.aliveHeard = 0;
  const Native = window.EventSource;
  window.EventSource = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("alive", () => { window.aliveHeard += 1; });
    }
  };
})();"""


def phone_on(
    browser, asgi_server, user, game, *, clock_held: bool = False
) -> tuple[Page, list[str]]:
    """A phone signed in as `user` on `game`'s page, served by uvicorn, its stream open, and
    every address it has asked since; with `clock_held`, the page's clock held still."""
    context = browser.new_context(viewport=PHONE, base_url=asgi_server, is_mobile=True)
    page = context.new_page()
    if clock_held:
        page.add_init_script(ALIVE_COUNTED)
        hold_the_clock(page)
    log_in(page, user, asgi_server)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    with page.expect_response(lambda answer: answer.url.endswith("/changes/")):
        page.goto(f"/games/{game.pk}/")
    expect(page.locator(".deal-no")).to_have_text(f"Deal {game.deals.count() + 1}")
    return page, asked


def two_phones(browser, asgi_server) -> tuple[Page, list[str], Page]:
    """A member's phone following a new game, its clock held still, and its scorekeeper's."""
    owner = make_user("sam")
    club = make_club(owner=owner)
    game = make_game(club, by=owner)
    member = make_member(club, "kim")
    follower, asked = phone_on(browser, asgi_server, member, game, clock_held=True)
    scorekeeper, _ = phone_on(browser, asgi_server, owner, game)
    return follower, asked, scorekeeper


def boards(asked: list[str]) -> list[str]:
    return [url for url in asked if "/board/" in url]


def streams_opened(asked: list[str]) -> int:
    return len([url for url in asked if "/changes/" in url])


def record_on(scorekeeper: Page, cards: dict[str, str] | None = None, total: str = "39") -> None:
    fill(scorekeeper, cards or {"Ann": "0", "Ben": "5", "Cy": "10", "Dee": "13"})
    scorekeeper.get_by_role("button", name="Record deal").click()
    expect(scorekeeper.locator("#game-board tfoot")).to_contain_text(total)


DEAL_2 = {"Ann": "3", "Ben": "0", "Cy": "2", "Dee": "1"}
# The board as each phone shows it alike: the next deal, the rows and totals, the history.
SCOREBOARD = "#board-next, .scoreboard, #board-history"


def scoreboard(page: Page) -> list[str]:
    return [part.inner_text() for part in page.locator(SCOREBOARD).all()]


def as_loaded(page: Page, path: str) -> list[str]:
    """The scoreboard as a page of `path` opened now, beside `page`, shows it."""
    fresh = page.context.new_page()
    fresh.goto(path)
    shown = scoreboard(fresh)
    fresh.close()
    return shown


def test_a_deal_recorded_on_one_phone_reaches_another_by_the_stream_with_no_poll(
    browser, asgi_server
):
    """Deal 1 makes the board's table: the stream's word of it fetches the whole board. Deal 2
    comes on the stream itself (`event: delta`): the follower shows its row with no request at
    all, and then shows what a page opened now shows. Before, every deal was fetched."""
    follower, asked, scorekeeper = two_phones(browser, asgi_server)
    fill(follower, {"Ann": "3"})  # typed in, its form stays for deal 1 as the game goes on

    follower.clock.run_for(5000)  # two polls and more, were the board still polling
    requests_reported(follower)
    assert boards(asked) == []
    assert streams_opened(asked) == 1

    record_on(scorekeeper)
    # Its clock held still, the follower can't have polled: the stream's word brought it.
    expect(follower.locator("#game-board tfoot")).to_contain_text("39")
    assert len(boards(asked)) == 1

    record_on(scorekeeper, DEAL_2, "40")
    expect(follower.locator("#score-rows tr")).to_have_count(2)
    expect(follower.locator("#history-lines li").first).to_contain_text("sam recorded deal 2")
    requests_reported(follower)
    assert len(boards(asked)) == 1  # deal 2: no fetch
    game_path = urlsplit(follower.url).path
    assert scoreboard(follower) == as_loaded(scorekeeper, game_path)
    version = scorekeeper.locator("#board-follow").get_attribute("data-version")
    following = follower.locator("#board-follow")
    expect(following).to_have_attribute("data-version", version)
    assert f"v={version}&deal=1" in following.get_attribute("hx-get")
    expect(following.locator("input[name=shown]")).to_have_value(version)
    # Its form is still for deal 1: the notice a fetch would show, for the next deal now.
    expect(follower.locator("#board-stale")).to_contain_text("the next deal is deal 3")

    # htmx asks for the board from the version the delta brought.
    follower.evaluate("() => htmx.trigger(document.getElementById('board-follow'), 'changed')")
    wait_until(follower, lambda: len(boards(asked)) == 2, "the board never asked")
    assert f"v={version}&deal=1" in boards(asked)[-1]
    follower.context.close()
    scorekeeper.context.close()


def test_a_phone_whose_form_is_for_the_deal_just_recorded_is_told_so_by_the_delta(
    browser, asgi_server
):
    """Two followers' forms are for deal 2, and the scorekeeper records deal 2: the delta brings
    each the stale-form notice a fetch of the board would have shown, with no fetch of the
    board. Kim has typed in hers: it stays as typed, the notice above its "Record deal". Lee
    hasn't: the notice's link brings her the form for deal 3."""
    owner = make_user("sam")
    club = make_club(owner=owner)
    game = make_game(club, by=owner)
    scorekeeper, _ = phone_on(browser, asgi_server, owner, game)
    record_on(scorekeeper)
    typing, asked = phone_on(browser, asgi_server, make_member(club, "kim"), game, clock_held=True)
    idle, idle_asked = phone_on(browser, asgi_server, make_member(club, "lee"), game)
    fill(typing, {"Ann": "3"})
    expect(typing.locator("#board-stale")).to_have_text("")

    record_on(scorekeeper, DEAL_2, "40")

    expect(typing.locator("#score-rows tr")).to_have_count(2)
    notice = typing.locator("#deal-form #board-stale .stale-form")
    expect(notice).to_have_text(
        "The scoreboard has changed since this form was opened: the next deal is deal 3."
        " Get the form for deal 3"
    )
    expect(typing.get_by_label("Ann", exact=True)).to_have_value("3")
    expect(idle.locator(".deal-no")).to_have_text("Deal 3")
    expect(idle.locator("#score-rows tr")).to_have_count(2)
    expect(idle.locator("#board-stale")).to_have_text("")
    for page, seen in ((typing, asked), (idle, idle_asked)):
        requests_reported(page)
        assert boards(seen) == []
    for page in (typing, idle, scorekeeper):
        page.context.close()


def test_a_stream_gone_silent_is_dropped_and_the_board_polls_until_another_speaks(
    browser, asgi_server, monkeypatch
):
    monkeypatch.setattr(streams, "KEEPALIVE_SECONDS", 1)  # the page waits 2.5 s of silence
    page, asked, scorekeeper = two_phones(browser, asgi_server)
    # Six seconds of the page's time, a poll due every two, the stream's "alive" heard before
    # each: the stream is taken for alive, and the board doesn't poll.
    for _ in range(3):
        heard = page.evaluate("window.aliveHeard")
        wait_until(page, lambda n=heard: page.evaluate("window.aliveHeard") > n, "no alive heard")
        page.clock.run_for(2000)
    requests_reported(page)
    assert boards(asked) == []
    assert streams_opened(asked) == 1

    monkeypatch.setattr(streams, "KEEPALIVE_SECONDS", 3600)  # open, but silent
    for _ in range(4):  # past 2.5 s with no word (one may have been on its way), a poll
        page.clock.run_for(2500)
        requests_reported(page)
        if boards(asked):
            break
    assert boards(asked), "the board never polled beside a silent stream"
    assert streams_opened(asked) >= 2

    record_on(scorekeeper)
    expect(page.locator("#game-board tfoot")).to_contain_text("39")  # by the new stream
    page.context.close()


def test_a_stream_the_server_ends_is_opened_again(browser, asgi_server, monkeypatch):
    monkeypatch.setattr(streams, "STREAM_SECONDS", 1)  # each stream ends after a second
    monkeypatch.setattr(streams, "RETRY_MILLISECONDS", 100)  # and EventSource is back soon
    page, asked, scorekeeper = two_phones(browser, asgi_server)
    wait_until(page, lambda: streams_opened(asked) >= 3, "the stream wasn't opened again", 30)
    record_on(scorekeeper)
    # Its clock held still, the page polled never: a stream opened again brought the deal.
    expect(page.locator("#game-board tfoot")).to_contain_text("39")
    assert len(boards(asked)) == 1
    page.context.close()


def test_a_deal_reaches_the_shared_live_view_by_its_stream(browser, asgi_server):
    """The live view (no account) opens the game's stream as a member's page does, and a deal
    comes to it on the stream's word: deal 1 by one fetch of the board, deal 2 on the stream
    itself, and no poll. Before, the live view had no stream and polled every 2 s."""
    owner = make_user("sam")
    game = make_game(make_club(owner=owner), by=owner)
    token = services.share_game(game=game, by=owner)
    viewer = browser.new_context(viewport=PHONE, base_url=asgi_server, is_mobile=True).new_page()
    hold_the_clock(viewer)  # its poll never falls due: only the stream can bring a deal
    fetched: list[str] = []
    viewer.on("request", lambda request: "/board/" in request.url and fetched.append(request.url))
    with viewer.expect_response(lambda answer: answer.url.endswith(f"/live/{token}/changes/")):
        viewer.goto(f"/live/{token}/")
    scorekeeper, _ = phone_on(browser, asgi_server, owner, game)

    record_on(scorekeeper)

    expect(viewer.locator("#game-board tfoot")).to_contain_text("39")
    assert fetched == [f"{asgi_server}/live/{token}/board/?v=0"]

    # Deal 2 comes on the stream itself, as the live view shows it: no fetch.
    record_on(scorekeeper, DEAL_2, "40")
    expect(viewer.locator("#score-rows tr")).to_have_count(2)
    assert scoreboard(viewer) == as_loaded(viewer, f"/live/{token}/")
    assert not viewer.locator("#history-lines").count()
    assert fetched == [f"{asgi_server}/live/{token}/board/?v=0"]
    viewer.context.close()
    scorekeeper.context.close()


def record_deal(page: Page, number: int, cards: dict[str, str]) -> None:
    """Type deal `number` on `page` and record it; back once the form asks for the next."""
    fill(page, cards)
    page.get_by_role("button", name="Record deal").click()
    expect(page.locator(".deal-no")).to_have_text(f"Deal {number + 1}")


def test_the_scorekeeper_s_own_deals_bring_the_board_without_asking_for_it_again(
    browser, asgi_server
):
    """The answer to a deal is the board as it left it: the stream's word of that deal, which
    comes first, doesn't fetch the board a second time, whose out-of-band parts then found no
    place on the page (nine console errors a deal; the `console_errors` fixture fails on any).
    Another phone's deal, told by the same stream after them, comes on the stream itself."""
    owner = make_user("sam")
    club = make_club(owner=owner)
    game = make_game(club, by=owner)
    page, asked = phone_on(browser, asgi_server, owner, game)
    for number in range(1, 5):
        record_deal(page, number, {"Ann": "0", "Ben": "1", "Cy": "2", "Dee": "3"})
    other, _ = phone_on(browser, asgi_server, make_member(club, "kim"), game)
    record_deal(other, 5, {"Ann": "1", "Ben": "0", "Cy": "1", "Dee": "1"})

    expect(page.locator("#game-board tbody tr")).to_have_count(5)
    # Each deal's history line put first, once: deal 1's with the whole board, the next three
    # by the deals' own answers, deal 5's by the stream.
    expect(page.locator("#history-lines li")).to_have_count(5)
    expect(page.locator("#history-lines li").first).to_contain_text("kim recorded deal 5")
    requests_reported(page)
    assert [url for url in asked if "/board/" in url] == []
    other.context.close()
    page.context.close()


def test_a_board_fetch_overtaken_by_the_scorekeeper_s_own_deal_is_let_go(browser, asgi_server):
    """The board asks for itself (a poll, or the stream's word of an earlier change) just before
    the scorekeeper records deal 2, and its request reaches the server after the deal: its
    answer is what deal 2 changed, out of band, and arrives after the deal's own answer has
    replaced the board's follower that asked. That answer is let go, not swapped into parts no
    longer on the page (nine console errors), and the board shows each deal once."""
    owner = make_user("sam")
    game = make_game(make_club(owner=owner), by=owner)
    page, _asked = phone_on(browser, asgi_server, owner, game)
    page.evaluate(FOLLOWER_READY)
    record_deal(page, 1, {"Ann": "0", "Ben": "1", "Cy": "1", "Dee": "1"})
    page.wait_for_function("() => window.followerReady")  # htmx has taken the new one in hand
    held = []
    page.route("**/board/**", lambda route: held.append(route))
    page.evaluate(ANSWER_COUNTED)
    page.evaluate("() => htmx.trigger(document.getElementById('board-follow'), 'changed')")
    wait_until(page, lambda: held, "the board didn't ask for itself")

    record_deal(page, 2, {"Ann": "2", "Ben": "0", "Cy": "2", "Dee": "2"})
    held[0].continue_()
    page.wait_for_function("() => window.boardAnswers === 1")

    expect(page.locator("#game-board tbody tr")).to_have_count(2)
    expect(page.locator("#game-board tfoot td").first).to_have_text("2")
    expect(page.locator("#history-lines li")).to_have_count(2)
    page.context.close()


def test_a_change_told_while_this_phone_s_deal_was_on_its_way_back_is_fetched_after_it(
    browser, asgi_server
):
    """The scorekeeper's deal 1 is recorded, and its answer held on the way back; meanwhile
    another phone corrects deal 1 and the stream says so. Once the deal's answer is in, the
    board asks for that correction itself (the stream, already past it, won't say it again)."""
    owner = make_user("sam")
    club = make_club(owner=owner)
    game = make_game(club, by=owner)
    page, _asked = phone_on(browser, asgi_server, owner, game)
    other, _ = phone_on(browser, asgi_server, make_member(club, "kim"), game)
    held = []  # the deal's request, answered by the server, and that answer held back

    def hold(route) -> None:
        held.append((route, route.fetch()))

    page.route("**/deals/", hold)
    fill(page, {"Ann": "0", "Ben": "1", "Cy": "1", "Dee": "1"})
    page.get_by_role("button", name="Record deal").click()
    wait_until(page, lambda: held, "the deal wasn't sent")
    other.goto(f"/games/{game.pk}/deals/1/edit/")
    other.get_by_label("Dee", exact=True).fill("3")
    other.get_by_role("button", name="Save changes").click()
    expect(other.get_by_text("Deal 1 changed.")).to_be_visible()

    route, answer = held[0]
    route.fulfill(response=answer)

    expect(page.locator(".deal-no")).to_have_text("Deal 2")
    expect(page.locator("#game-board tfoot td").last).to_have_text("3")
    other.context.close()
    page.context.close()


# Whether htmx has taken in hand the board's follower swapped in by a deal's answer.
FOLLOWER_READY = """() => {
  window.followerReady = false;
  document.addEventListener("htmx:load", (event) => {
    if (event.detail.elt.querySelector?.("#board-follow")) window.followerReady = true;
  });
}"""

# Counts the answers to the board's follower that asked, as htmx finishes with each: told to
# the follower itself, which by then is no longer on the page.
ANSWER_COUNTED = """() => {
  window.boardAnswers = 0;
  document.getElementById("board-follow").addEventListener("htmx:afterOnLoad", () => {
    window.boardAnswers += 1;
  });
}"""
