"""At the table in Chromium (390x844): a deal recorded brings each phone only what it changed on
the board (templates/scoring/_board_delta.html), and the board it leaves is the one a fresh load
of the page shows."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.scorekeeping import fill, log_in_to_game, swap
from tests.factories import make_club, make_game, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DEALS = [
    {"Ann": "0", "Ben": "5", "Cy": "10", "Dee": "13"},
    {"Ann": "3", "Ben": "0", "Cy": "2", "Dee": "1"},
    {"Ann": "1", "Ben": "12", "Cy": "0", "Dee": "4"},
    {"Ann": "6", "Ben": "2", "Cy": "9", "Dee": "0"},
]
BOARD_TEXT = "element => element.innerText"


@pytest.fixture
def game():
    return make_game(make_club(make_user("ann")))


def fresh_board(page, game) -> str:
    """The board's text as a page opened now shows it."""
    fresh = page.context.new_page()
    fresh.goto(f"/games/{game.pk}/")
    shown = fresh.locator("#game-board").evaluate(BOARD_TEXT)
    fresh.close()
    return shown


def test_each_deal_after_the_first_brings_only_its_row_and_leaves_the_board_a_load_shows(
    phone, game
):
    page = phone
    log_in_to_game(page, game)
    for number, deal in enumerate(DEALS, start=1):
        fill(page, deal)
        with page.expect_response(lambda r: r.request.method == "POST") as posted:
            swap(page, lambda: page.get_by_role("button", name="Record deal").click())
        expect(page.locator(".deal-no")).to_have_text(f"Deal {number + 1}")
        answer = posted.value
        # The first deal makes the table: the whole live part. Each later one, what it changed.
        assert (answer.headers.get("hx-retarget") == "#deal-area") == (number > 1)
        if number > 1:
            assert len(re.findall(r'<tr id="deal-', answer.text())) == 1
        expect(page.locator("#score-rows tr")).to_have_count(number)
        assert page.locator("#game-board").evaluate(BOARD_TEXT) == fresh_board(page, game)
    assert page.locator("#board-follow").get_attribute("data-version") == str(
        game.__class__.objects.get(pk=game.pk).version
    )
    assert not [line for line in page.console_lines if line.startswith(("error", "warning"))]


def test_the_same_deal_brought_twice_is_shown_once(phone, game):
    """The scorekeeper's own answer and the board's fetch on the stream's word can both bring
    the deal just recorded: the second one adds no second row."""
    page = phone
    log_in_to_game(page, game)
    for deal in DEALS[:2]:
        fill(page, deal)
        swap(page, lambda: page.get_by_role("button", name="Record deal").click())
    before = page.locator("#game-board").evaluate(BOARD_TEXT)
    version = int(page.locator("#board-follow").get_attribute("data-version"))

    # The board's fetch from the version before the last deal, answered after the deal's own
    # (htmx's promise settles once the answer is swapped in).
    page.evaluate(
        "address => htmx.ajax('GET', address, {target: '#game-board', swap: 'none'})",
        f"/games/{game.pk}/board/?v={version - 1}&deal=3",
    )

    expect(page.locator("#score-rows tr")).to_have_count(2)
    assert page.locator("#game-board").evaluate(BOARD_TEXT) == before


def test_another_phone_follows_deal_by_deal_and_shows_what_a_load_shows(
    phone, browser, live_server, game
):
    page = phone
    log_in_to_game(page, game)
    other = browser.new_context(viewport=page.viewport_size, base_url=live_server.url).new_page()
    log_in_to_game(other, game)
    answers = []
    other.on(
        "response",
        lambda r: (
            "/board/" in r.url and r.status == 200 and answers.append(r.headers.get("hx-reswap"))
        ),
    )
    for number, deal in enumerate(DEALS, start=1):
        fill(page, deal)
        swap(page, lambda: page.get_by_role("button", name="Record deal").click())
        expect(other.locator("#score-rows tr")).to_have_count(number)
        # Its form was for that deal, and nothing was typed in it: the next deal's replaces it.
        expect(other.locator(".deal-no")).to_have_text(f"Deal {number + 1}")
        other.reload()
    # Each fetch after the first deal was of only what changed (and the reloads, whole pages).
    assert answers == [None, "none", "none", "none"]
    assert other.locator("#game-board").evaluate(BOARD_TEXT) == fresh_board(page, game)
    other.context.close()
