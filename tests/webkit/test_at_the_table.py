"""Keeping score in WebKit, the engine of every iPhone browser: a deal recorded and undone, the
keyboard's Next and Done, and a deal kept while the server is down (through a reload, too) and
sent once it is back."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.keys import Keys

from tests.browser.scorekeeping import PENDING_KEYS, WAITING_KEYS, recorded
from tests.factories import make_club, make_game, make_user, record

pytestmark = [pytest.mark.webkit, pytest.mark.django_db(transaction=True)]

DEAL = {"Ann": "0", "Ben": "5", "Cy": "10", "Dee": "13"}


@pytest.fixture
def game():
    return make_game(make_club(make_user("ann")))


def on_the_game(phone, game) -> None:
    phone.log_in(game.club.owner)
    phone.open(f"/games/{game.pk}/")
    phone.shows(".deal-no", f"Deal {game.deals.count() + 1}")


def test_a_deal_is_recorded_and_undone(phone, game):
    on_the_game(phone, game)
    phone.fill(DEAL)
    phone.tap("Record deal")
    phone.shows("[role=status]", "Deal 1 recorded.")
    phone.shows("#game-board tfoot", "39")
    assert recorded(game) == [[0, 5, 10, 13]]
    phone.shows(".deal-no", "Deal 2")
    phone.screenshot("deal-recorded")

    phone.tap("Undo deal 1")
    phone.tap("Yes, undo deal 1")
    phone.shows("[role=status]", "Deal 1 undone.")
    phone.shows(".deal-no", "Deal 1")
    assert recorded(game) == []


def enter(phone, count: str) -> None:
    """Type `count` in the box with the focus, and press the keyboard's Enter (Next or Done)."""
    phone.driver.switch_to.active_element.send_keys(count, Keys.ENTER)


def test_next_goes_box_by_box_and_done_in_the_last_box_records_the_deal(phone, game):
    record(game, 0, 1, 2, 3)
    on_the_game(phone, game)
    phone.box("Ann").click()
    for name, count, after in (("Ann", "3", "Ben"), ("Ben", "0", "Cy"), ("Cy", "5", "Dee")):
        enter(phone, count)
        phone.until(
            lambda after=after: phone.focused() == phone.box(after).get_attribute("id"),
            f"Next in {name}'s box moving to {after}'s",
        )
        assert recorded(game) == [[0, 1, 2, 3]], f"Enter in {name}'s box sent the deal"
    enter(phone, "7")
    phone.shows("[role=status]", "Deal 2 recorded.")
    assert recorded(game) == [[0, 1, 2, 3], [3, 0, 5, 7]]


def test_after_done_records_a_deal_the_cursor_is_in_the_first_box_of_the_new_form(phone, game):
    on_the_game(phone, game)
    phone.box("Ann").click()
    for count in ("0", "5", "10", "13"):
        enter(phone, count)
    phone.shows("[role=status]", "Deal 1 recorded.")
    phone.shows(".deal-no", "Deal 2")
    phone.until(
        lambda: phone.focused() == phone.box("Ann").get_attribute("id"),
        "the cursor in Ann's box of deal 2",
    )
    enter(phone, "4")
    assert phone.box("Ann").get_attribute("value") == "4"
    assert recorded(game) == [[0, 5, 10, 13]]


def kept_while_the_server_is_down(phone, site) -> None:
    site.stop()
    phone.fill(DEAL)
    phone.tap("Record deal")
    phone.shows("#live-notice", "1 deal waiting to send")
    phone.shows(".deal-no", "Deal 2")  # the table plays on meanwhile


def sent_once_it_is_back(phone, game, site) -> None:
    site.start()
    # The page tries again every 4 s.
    phone.until(lambda: not phone.find_all("tr.waiting"), "the waiting deal sent", seconds=20)
    phone.shows("#game-board tfoot", "39")
    assert recorded(game) == [[0, 5, 10, 13]]
    kept = phone.driver.execute_script(f"return [...{PENDING_KEYS}, ...{WAITING_KEYS}]")
    assert kept == []  # nothing left to send again


SERVER_DOWN = pytest.mark.console_errors(
    r"^console error: htmx:(sendError|afterRequest), ",
    reason="the server is down: the page's requests to it fail, and htmx says so",
)


@SERVER_DOWN
def test_a_deal_kept_while_the_server_is_down_is_sent_once_it_is_back(phone, game, site):
    on_the_game(phone, game)
    kept_while_the_server_is_down(phone, site)
    phone.screenshot("deal-kept-server-down")
    assert recorded(game) == []
    sent_once_it_is_back(phone, game, site)


@SERVER_DOWN
def test_a_deal_typed_offline_is_kept_through_a_reload_and_sent_once_when_it_is_back(
    phone, game, site
):
    """The offline queue in WebKit: the deal waits on the phone (localStorage), the page
    opened again while the server is still down comes from the service worker with the deal
    still waiting, and once the server is back the deal is recorded, once."""
    on_the_game(phone, game)
    # The service worker keeps the game page as it comes: the next load goes through it.
    phone.driver.execute_async_script(
        "navigator.serviceWorker.ready.then(() => arguments[arguments.length - 1](true))"
    )
    on_the_game(phone, game)
    kept_while_the_server_is_down(phone, site)

    phone.driver.refresh()  # still no server: the worker has the page, the phone its deal
    phone.watch()
    phone.shows("#live-notice", "1 deal waiting to send")
    phone.shows("tr.waiting th", "1")
    phone.shows(".deal-no", "Deal 2")
    assert recorded(game) == []
    sent_once_it_is_back(phone, game, site)
