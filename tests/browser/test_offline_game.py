"""A whole game without a signal (issue 15): in Chromium at 390x844, deal after deal recorded
offline is scored on the phone from the rule set's scoring sheet, shown as not yet sent,
kept through a reload, and sent in order, once each, when the signal returns; a deal another
phone recorded meanwhile is shown beside the waiting one for the scorekeeper to choose."""

import re

import pytest
from playwright.sync_api import expect

from scoring.models import Game
from tests.browser.phone import screenshot
from tests.browser.scorekeeping import fill, log_in_to_game, recorded
from tests.factories import PASSWORD, make_club, make_game, make_ruled_game, make_user, record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Ben takes 39 twice, then 20 in deal 5: 100, the target; Ann is lowest alone on 5 and wins.
FIVE_DEALS = [[0, 13, 2, 3], [1, 13, 0, 4], [0, 2, 3, 5], [4, 0, 1, 2], [0, 10, 1, 1]]
NAMES = ("Ann", "Ben", "Cy", "Dee")
WAITING = re.compile(r"(\d+) deals? waiting to send")


def status(page):
    return page.locator("#live-notice")


def record_deal(page, cards: list[int]) -> None:
    fill(page, dict(zip(NAMES, map(str, cards), strict=True)))
    page.get_by_role("button", name="Record deal").click()


def waiting_totals(page) -> list[str]:
    return page.locator("tfoot tr.waiting td").all_inner_texts()


def open_offline(page, game) -> None:
    """Open the game page, let the service worker take it over, then lose the signal."""
    log_in_to_game(page, game)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.context.set_offline(True)


@pytest.fixture
def game():
    return make_game(make_club(make_user("ann")))


def test_a_whole_game_offline_is_kept_through_a_reload_and_sent_once_in_order(phone, game):
    page = phone
    open_offline(page, game)
    for number, cards in enumerate(FIVE_DEALS, start=1):
        expect(page.locator(".deal-no")).to_have_text(f"Deal {number}")
        record_deal(page, cards)
        expect(status(page)).to_contain_text(
            f"{number} deal{'s' if number > 1 else ''} waiting to send"
        )
    expect(page.locator("tbody tr.waiting")).to_have_count(5)
    assert waiting_totals(page) == ["5", "100", "7", "15"]
    expect(page.get_by_role("heading", name="Ann wins with 5")).to_be_visible()
    expect(page.locator("#deal-form")).to_be_hidden()  # the game is over on the phone
    assert recorded(game) == []
    screenshot(page, "offline-game-over")

    page.reload()  # still offline: the service worker has the page, the phone its deals
    expect(status(page)).to_contain_text("5 deals waiting to send")
    expect(page.get_by_role("heading", name="Ann wins with 5")).to_be_visible()
    assert waiting_totals(page) == ["5", "100", "7", "15"]

    page.context.set_offline(False)
    expect(page.locator("tr.waiting")).to_have_count(0, timeout=15_000)
    expect(page.locator(".banner-finished h2")).to_have_text("Ann wins with 5")
    assert recorded(game) == FIVE_DEALS
    game = Game.objects.get(pk=game.pk)
    assert game.is_finished
    totals = [seat.total for seat in game.seats.order_by("position")]
    assert totals == [5, 100, 7, 15]
    kept = "Object.keys(localStorage).filter(key => key.startsWith('bigtwo:waiting:'))"
    assert page.evaluate(kept) == []  # nothing kept once it is sent


def test_a_waiting_deal_is_undone_and_changed_offline(phone, game):
    page = phone
    record(game, 0, 1, 2, 3)
    open_offline(page, game)
    record_deal(page, [0, 5, 6, 7])
    record_deal(page, [3, 0, 1, 2])
    expect(status(page)).to_contain_text("2 deals waiting to send")

    page.get_by_role("button", name="Undo deal 3").click()
    expect(status(page)).to_contain_text("1 deal waiting to send")
    expect(page.locator(".deal-no")).to_have_text("Deal 3")
    expect(page.get_by_label("Ann", exact=True)).to_have_value("3")  # back in the form

    page.get_by_role("button", name="Change waiting deal 2").click()
    expect(page.get_by_label("Ben", exact=True)).to_have_value("5")
    fill(page, {"Ben": "4"})
    page.get_by_role("button", name="Record deal").click()
    expect(status(page)).to_contain_text("1 deal waiting to send")
    assert waiting_totals(page) == ["0", "5", "8", "10"]

    page.context.set_offline(False)
    expect(page.locator("tr.waiting")).to_have_count(0, timeout=15_000)
    assert recorded(game) == [[0, 1, 2, 3], [0, 4, 6, 7]]


def test_a_deal_the_phone_cannot_score_is_not_kept(phone, game):
    page = phone
    open_offline(page, game)
    record_deal(page, [0, 0, 2, 3])
    expect(page.get_by_role("alert")).to_contain_text("Deal 1 can't be kept")
    expect(page.locator("tr.waiting")).to_have_count(0)


def conflict(page, game) -> None:
    """Offline, this phone records deal 2 as Ann 0, Ben 5, Cy 6, Dee 7, while another phone
    records deal 2 online as Ann 9, Ben 0, Cy 1, Dee 2; the signal returns."""
    record(game, 0, 1, 2, 3)
    open_offline(page, game)
    record_deal(page, [0, 5, 6, 7])
    expect(status(page)).to_contain_text("1 deal waiting to send")
    record(game, 9, 0, 1, 2)  # the other phone
    page.context.set_offline(False)
    expect(status(page)).to_contain_text("Deal 2 was recorded on another phone")
    both = page.locator("#live-notice table")
    expect(both.locator("tbody tr").nth(0)).to_contain_text("On the server")
    expect(both.locator("tbody tr").nth(1)).to_contain_text("Yours")
    expect(both.locator("tbody tr").nth(1)).to_contain_text("+5")


def test_the_server_s_deal_is_kept(phone, game):
    conflict(phone, game)
    screenshot(phone, "offline-conflict")
    phone.get_by_role("button", name="Keep the server's deal 2").click()
    expect(phone.locator("#live-notice table")).to_have_count(0)
    expect(phone.locator(".deal-no")).to_have_text("Deal 3")
    assert recorded(game) == [[0, 1, 2, 3], [9, 0, 1, 2]]


def test_mine_goes_in_as_the_next_deal(phone, game):
    conflict(phone, game)
    phone.get_by_role("button", name="Put mine in as deal 3").click()
    expect(phone.locator("#game-board tbody tr:not(.waiting)")).to_have_count(3, timeout=15_000)
    expect(phone.locator(".deal-no")).to_have_text("Deal 4")
    assert recorded(game) == [[0, 1, 2, 3], [9, 0, 1, 2], [0, 5, 6, 7]]


def test_mine_is_dropped(phone, game):
    conflict(phone, game)
    phone.get_by_role("button", name="Drop mine").click()
    expect(phone.locator("#live-notice table")).to_have_count(0)
    expect(phone.locator(".deal-no")).to_have_text("Deal 3")
    assert recorded(game) == [[0, 1, 2, 3], [9, 0, 1, 2]]


def test_house_rules_the_phone_cannot_score_keep_one_deal_and_say_why(phone):
    game = make_ruled_game("dragon", club=make_club(make_user("ann")))
    page = phone
    open_offline(page, game)
    record_deal(page, [0, 5, 6, 7])
    expect(status(page)).to_contain_text("keeps one deal at a time")
    expect(page.locator("tr.waiting")).to_have_count(0)


def test_a_phone_signed_out_meanwhile_says_so_and_sends_once_logged_in_again(phone, game):
    """The session ended while the deals waited: the phone says why they don't go and how to
    send them, and they go after logging in again, back on the game page."""
    page = phone
    open_offline(page, game)
    record_deal(page, FIVE_DEALS[0])
    record_deal(page, FIVE_DEALS[1])
    expect(status(page)).to_contain_text("2 deals waiting to send")
    page.context.clear_cookies(name="sessionid")  # signed out: on another phone, or it expired
    page.context.set_offline(False)
    expect(status(page)).to_contain_text("You're signed out", timeout=15_000)
    expect(status(page)).to_contain_text("2 deals waiting to send")  # still kept
    screenshot(page, "offline-signed-out")
    assert recorded(game) == []
    log_in = page.get_by_role("link", name="Log in to send them")
    assert log_in.get_attribute("href") == f"/accounts/login/?next=/games/{game.pk}/"
    page.wait_for_timeout(2500)  # a poll and a penalty preview meanwhile leave the page be
    log_in.click()
    page.get_by_label("Username").fill("ann")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator("tr.waiting")).to_have_count(0, timeout=15_000)
    assert recorded(game) == FIVE_DEALS[:2]
