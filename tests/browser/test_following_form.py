"""At 390x844, a member's phone following a game another phone scores: a deal form nobody typed
in follows the game to its end, and one being typed keeps what is typed, told above its "Record
deal" that the game has moved on. The deals are recorded here, not on a phone: the live server
declines streams, so the follower's board finds them by its poll, as a phone without a stream
does (the stream's delta brings the same notice: tests/browser/test_live_stream.py)."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.phone import screenshot, wait_until
from tests.browser.scorekeeping import fill, game_with_deal_1, log_in_to_game
from tests.factories import record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def game():
    """Deal 1 in; kim follows on her phone."""
    return game_with_deal_1("kim", 0, 5, 3, 2)


def test_a_form_nobody_typed_in_follows_the_game_to_its_end(phone, game):
    page = phone
    log_in_to_game(page, game, "kim")
    page.get_by_label("Cy", exact=True).focus()  # about to type, nothing typed yet
    expect(page.locator(".deal-no")).to_have_text("Deal 2")

    record(game, 4, 0, 6, 1)
    expect(page.locator(".deal-no")).to_have_text("Deal 3")
    expect(page.locator("#score-rows tr")).to_have_count(2)
    expect(page.locator(".stale-form")).to_have_count(0)
    record(game, 0, 13, 13, 13)
    expect(page.locator(".deal-no")).to_have_text("Deal 4")

    record(game, 0, 13, 13, 13)
    record(game, 0, 13, 13, 13)  # Ben's 122 ends it
    expect(page.get_by_role("heading", name="Ann wins with 4")).to_be_visible()
    expect(page.locator("#deal-form")).to_have_count(0)
    expect(page.locator(".stale-form")).to_have_count(0)


def test_a_form_being_typed_keeps_its_values_with_the_notice_above_record_deal(phone, game):
    page = phone
    log_in_to_game(page, game, "kim")
    fill(page, {"Ann": "3", "Ben": "0"})

    record(game, 4, 0, 6, 1)

    notice = page.locator("#deal-form .stale-form")
    expect(notice).to_contain_text("the next deal is deal 3")
    expect(page.locator("#score-rows tr")).to_have_count(2)
    expect(page.locator(".deal-no")).to_have_text("Deal 2")
    expect(page.get_by_label("Ann", exact=True)).to_have_value("3")
    expect(page.get_by_label("Ben", exact=True)).to_have_value("0")
    record_deal = page.get_by_role("button", name="Record deal", exact=True)
    notice_box, button_box = notice.bounding_box(), record_deal.bounding_box()
    assert notice_box["y"] + notice_box["height"] <= button_box["y"], "not above Record deal"
    record_deal.scroll_into_view_if_needed()
    screenshot(page, "stale-form-above-record-deal")


# `window.linkAnswered` is set once htmx is done with the answer to the stale-form notice's link
# (swapped in, or let go): told on the link itself, which a swap may have taken off the page.
LINK_ANSWERED = """() => document.querySelector(".stale-form a").addEventListener(
    "htmx:afterRequest", () => { window.linkAnswered = true; })"""


def test_typing_begun_while_the_current_form_is_fetched_keeps_the_form_as_typed(phone, game):
    page = phone
    log_in_to_game(page, game, "kim")
    held = []
    page.route(re.compile(rf"/games/{game.pk}/$"), lambda route: held.append(route))

    record(game, 4, 0, 6, 1)
    wait_until(page, lambda: held, "the current form was never asked for")
    fill(page, {"Ann": "3"})
    page.evaluate(LINK_ANSWERED)
    held[0].continue_()
    wait_until(page, lambda: page.evaluate("window.linkAnswered"), "the answer never came")

    expect(page.locator(".deal-no")).to_have_text("Deal 2")
    expect(page.get_by_label("Ann", exact=True)).to_have_value("3")
    expect(page.locator("#deal-form .stale-form")).to_contain_text("the next deal is deal 3")
