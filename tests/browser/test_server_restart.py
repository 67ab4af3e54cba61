"""A phone's game page across a restart of `make run`'s server: the site served as `make run`
serves it (tests/servers.py), on this test's database, stopped with the page open and another
process started on its port, as stopping `make run` and running it again does.

The page's stream was held by the old process, which ends it once stopped
(`--timeout-graceful-shutdown`); the page opens it again on the new process, which says the
game's version, and a deal recorded there shows. Before, the old process kept the stream open
for up to its 10 minutes, saying "alive" to a page that, trusting it, didn't poll: the deal
never showed. Nothing is timed: the deal is waited for, a stall failing after STALL seconds.
"""

import pytest
from playwright.sync_api import expect

from tests.browser.phone import PHONE, log_in, screenshot
from tests.browser.scorekeeping import fill
from tests.factories import make_club, make_game, make_member, make_user
from tests.servers import collect_static, on_the_test_database, served

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    # While the port changes hands, the page's poll and its stream find nobody there, and the
    # old process cuts the stream it held: Chromium reports each, and the page carries on.
    pytest.mark.console_errors(
        r"^console error: Failed to load resource: net::ERR_(CONNECTION_REFUSED|"
        r"INCOMPLETE_CHUNKED_ENCODING|CONNECTION_RESET|EMPTY_RESPONSE)",
        r"^console error: htmx:(sendError|afterRequest), ",
        reason="the test restarts the server under the open page",
    ),
]

STALL = 60  # seconds: for what takes the old process's few seconds of grace, and a retry


@pytest.fixture(scope="module")
def static(tmp_path_factory):
    return collect_static(tmp_path_factory.mktemp("collected"))


def game_page(browser, server, user, game):
    """A phone signed in as `user` on `game`'s page, its stream open."""
    context = browser.new_context(viewport=PHONE, base_url=server.url(""), is_mobile=True)
    page = context.new_page()
    log_in(page, user, server.url("/"))
    with page.expect_response(lambda answer: answer.url.endswith("/changes/")):
        page.goto(f"/games/{game.pk}/")
    return page


@pytest.mark.parametrize("stopped_first", [False, True], ids=["at once", "stopped first"])
def test_an_open_game_page_shows_a_deal_recorded_after_the_server_restarts(
    browser, tmp_path, static, stopped_first
):
    """The new process started as soon as the old one has closed its port, or only once the
    old one has ended, as `systemctl restart` does: meanwhile the page's stream and its poll
    find nobody there, and try again."""
    owner = make_user("sam")
    club = make_club(owner=owner)
    game = make_game(club, by=owner)
    member = make_member(club, "kim")
    with served(tmp_path, static=static, **on_the_test_database()) as server:
        follower = game_page(browser, server, member, game)

        old = server.restart(stopped_first=stopped_first)
        scorekeeper = game_page(browser, server, owner, game)
        fill(scorekeeper, {"Ann": "0", "Ben": "5", "Cy": "10", "Dee": "13"})
        scorekeeper.get_by_role("button", name="Record deal").click()
        expect(scorekeeper.locator("#game-board tfoot")).to_contain_text("39")

        expect(follower.locator("#game-board tfoot")).to_contain_text("39", timeout=STALL * 1000)
        expect(follower.locator("#score-rows tr")).to_have_count(1)
        screenshot(follower, f"restart-follower-{'stopped-first' if stopped_first else 'at-once'}")
        old.wait(STALL)
        follower.context.close()
        scorekeeper.context.close()
