"""At the table in Chromium (390x844): a deal survives a dropped connection, and other phones
follow the game live."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.phone import PHONE, requests_reported, screenshot
from tests.browser.scorekeeping import (
    DEALS,
    NETWORK_CUT,
    WAITING_KEYS,
    fill,
    log_in_to_game,
    recorded,
    requests_to,
)
from tests.factories import make_club, make_game, make_user, record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DEAL = {"Ann": "0", "Ben": "5", "Cy": "10", "Dee": "13"}
# Where the phone scores the rules (these are the standard ones), a deal that can't be sent
# waits in its queue (static/js/waiting-deals.js).
WAITING = "1 deal waiting to send"


@pytest.fixture
def game():
    return make_game(make_club(make_user("ann")))


# A deal typed is never lost


def test_a_deal_recorded_offline_is_sent_when_back_online_and_recorded_once(phone, game):
    page = phone
    page.clock.install()
    log_in_to_game(page, game)
    sent = requests_to(page, DEALS)
    fill(page, DEAL)

    page.context.set_offline(True)
    page.get_by_role("button", name="Record deal").click()
    expect(page.get_by_role("status")).to_contain_text(WAITING)
    expect(page.locator(".scores tbody tr.waiting:has(th) td")).to_have_text(
        ["0 went out = 0", "+5 5 left = 5", "+20 10 left = 20", "+39 13 left = 39"],
        use_inner_text=True,
    )
    expect(page.locator(".deal-no")).to_have_text("Deal 2")  # the next deal can be typed
    assert recorded(game) == []
    assert len(page.evaluate(WAITING_KEYS)) == 1
    screenshot(page, "deal-kept-offline")

    page.context.set_offline(False)
    expect(page.locator(".scores tfoot td")).to_have_text(["★ 0 (lowest)", "5", "20", "39"])
    expect(page.locator(".scores tr.waiting")).to_have_count(0)
    expect(page.locator(".deal-no")).to_have_text("Deal 2")
    # Another round of the periodic resend (every 5 s): nothing more is sent.
    page.clock.run_for(5500)
    requests_reported(page)
    assert len(sent) == 1
    assert recorded(game) == [[0, 5, 10, 13]]
    assert page.evaluate(WAITING_KEYS) == []


@NETWORK_CUT
def test_a_deal_whose_answer_was_lost_is_sent_again_and_still_recorded_once(phone, game):
    """The server recorded it but the phone never heard back: the resend carries the same
    token, so the server answers with the deal it has instead of recording a second one."""
    page = phone
    log_in_to_game(page, game)
    lost = []

    def lose_the_first_answer(route):
        if route.request.method == "POST" and not lost:
            lost.append(route.fetch().status)  # the request reaches the server...
            route.abort("connectionreset")  # ...and its answer is lost on the way back
        else:
            route.continue_()

    page.route(DEALS, lose_the_first_answer)
    fill(page, DEAL)
    page.get_by_role("button", name="Record deal").click()
    # Taken into the queue of waiting deals and sent again at once, as the browser is online.
    expect(page.locator(".scores tfoot td")).to_have_text(["★ 0 (lowest)", "5", "20", "39"])
    assert lost == [200]
    expect(page.locator(".scores tr.waiting")).to_have_count(0)
    expect(page.locator(".scores tfoot td")).to_have_text(["★ 0 (lowest)", "5", "20", "39"])
    expect(page.locator(".deal-no")).to_have_text("Deal 2")
    assert recorded(game) == [[0, 5, 10, 13]]


@NETWORK_CUT
def test_a_deal_that_could_not_be_sent_survives_closing_the_page(phone, game):
    page = phone
    log_in_to_game(page, game)
    # This page never reaches the server again (a closing page may yet run a moment longer).
    page.route(DEALS, lambda route: route.abort("internetdisconnected"))
    fill(page, DEAL)
    page.get_by_role("button", name="Record deal").click()
    expect(page.get_by_role("status")).to_contain_text(WAITING)
    context = page.context
    page.close()
    assert recorded(game) == []

    # Opened again, the game page sends the deal that waits.
    page = context.new_page()
    page.goto(f"/games/{game.pk}/")
    expect(page.locator(".scores tr.waiting")).to_have_count(0)
    expect(page.locator(".scores tfoot td")).to_have_text(["★ 0 (lowest)", "5", "20", "39"])
    assert recorded(game) == [[0, 5, 10, 13]]
    assert page.evaluate(WAITING_KEYS) == []


# Live at the table


def test_a_phone_on_the_share_link_follows_the_game(browser, live_server, phone, game, request):
    page = phone
    log_in_to_game(page, game)
    page.get_by_role("button", name="Share a live view").click()
    share_url = page.get_by_label("Live view link").input_value()
    assert re.fullmatch(rf"{live_server.url}/live/[\w-]{{43}}/", share_url)

    # Someone at the table, with no account, opens the link on their own phone.
    context = browser.new_context(viewport=PHONE, is_mobile=True)
    request.addfinalizer(context.close)
    guest = context.new_page()
    guest.set_default_timeout(10_000)
    guest.goto(share_url)
    expect(guest.get_by_text("No deals yet.")).to_be_visible()
    expect(guest.locator("main form")).to_have_count(0)

    page.goto(f"/games/{game.pk}/")
    fill(page, DEAL)
    page.get_by_role("button", name="Record deal").click()
    expect(page.locator(".deal-no")).to_have_text("Deal 2")
    expect(guest.locator(".scores tfoot td")).to_have_text(["★ 0 (lowest)", "5", "20", "39"])
    expect(guest.locator(".scores tbody th")).to_have_text(["1"])
    screenshot(guest, "live-view")

    # Another phone records deal 2 while this one is typing it: the scoreboard catches up by
    # its poll, and what is typed stays, with word that the form is behind.
    fill(page, {"Ann": "3", "Ben": "0"})
    record(game, 1, 0, 2, 3)
    expect(page.get_by_role("link", name="Edit deal 2")).to_be_visible()
    expect(page.get_by_label("Ann", exact=True)).to_have_value("3")
    expect(page.get_by_label("Ben", exact=True)).to_have_value("0")
    expect(page.locator(".stale-form")).to_contain_text("the next deal is deal 3")
    expect(guest.locator(".scores tbody th")).to_have_text(["1", "2"])
    page.get_by_role("link", name="Get the form for deal 3").click()
    expect(page.locator(".deal-no")).to_have_text("Deal 3")
    expect(page.get_by_label("Ann", exact=True)).to_have_value("")

    # Stopping sharing ends the link at once.
    page.get_by_role("button", name="Stop sharing").click()
    expect(page.get_by_role("button", name="Share a live view")).to_be_visible()
    assert guest.goto(share_url).status == 404
