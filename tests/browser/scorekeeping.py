"""Keeping score on the game page in Chromium: logging in by the form, typing a deal, waiting
for htmx's swap, and what the database then holds. A helper module for the browser tests."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scoring.models import DealScore
from tests.browser.phone import arrive
from tests.factories import PASSWORD, make_club, make_game, make_member, make_user, record

DEALS = re.compile(r"/games/\d+/deals/$")  # where a deal is recorded
PREVIEWS = re.compile(r"/games/\d+/deals/preview/")  # the penalties of what is typed
OFFLINE = "No connection — your deal is kept and will be sent when you're back online."
# Where deals wait: the queue's key, and the one-deal key of the script before it (read once).
PENDING_KEYS = (
    "Object.keys(localStorage).filter(key => /^bigtwo:(waiting|pending-deal):/.test(key))"
)
WAITING_KEYS = "Object.keys(localStorage).filter(key => key.startsWith('bigtwo:waiting:'))"

# A test that cuts a deal's request or its answer on the way (`route.abort`), or has the page
# call off a send that hangs: Chromium reports the request that failed, and htmx its own error
# events for it. The page keeps the deal and says so, which is what such a test checks.
NETWORK_CUT = pytest.mark.console_errors(
    r"^console error: Failed to load resource: net::ERR_(INTERNET_DISCONNECTED|CONNECTION_RESET)",
    r"^console error: htmx:(sendError|sendAbort|afterRequest), ",
    reason="the test cuts a deal's request or its answer on the way",
)


def requests_to(page, address: re.Pattern[str], method: str = "POST") -> list[str]:
    """What each request `page` sends from now on to `address` by `method` carries (a POST's
    form, a GET's address), in order; whole after `requests_reported(page)`."""
    sent: list[str] = []

    def seen(request) -> None:
        if request.method == method and address.search(request.url):
            sent.append(request.post_data if method == "POST" else request.url)

    page.on("request", seen)
    return sent


def log_in_to_game(page, game, username: str = "ann") -> None:
    """Log in by the login form, as `username` (with the factories' password), and land on
    `game`'s page."""
    page.goto(f"/accounts/login/?next=/games/{game.pk}/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    arrive(page, f"/games/{game.pk}/")


def fill(page, cards: dict[str, str]) -> None:
    """Type each player's cards left into the deal form."""
    for name, count in cards.items():
        page.get_by_label(name, exact=True).fill(count)


def swap(page, action) -> None:
    """Do `action` and wait until htmx has swapped in the game's deal area anew: with the
    whole live part, or alone with what a deal changed on the board, and has settled it: the
    page's scripts take in the new part (htmx:load) as it settles, a moment after the swap."""
    page.locator("#deal-area").evaluate("element => element.setAttribute('data-stale', '')")
    action()
    expect(page.locator("#deal-area")).not_to_have_attribute("data-stale", "")
    expect(page.locator(".htmx-settling")).to_have_count(0)


def recorded(game) -> list[list[int]]:
    """Each recorded deal's cards left, in seat order."""
    by_deal: dict[int, list[int]] = {}
    scores = DealScore.objects.filter(deal__game=game).order_by("deal__number", "seat__position")
    for number, cards in scores.values_list("deal__number", "cards_left"):
        by_deal.setdefault(number, []).append(cards)
    return list(by_deal.values())


def game_with_deal_1(member: str, *cards_left: int):
    """A game of ann's club (she keeps score) with deal 1 in (`cards_left`), where `member`
    plays at the table too, on a phone of their own."""
    club = make_club(make_user("ann"))
    make_member(club, member)
    game = make_game(club)
    record(game, *cards_left)
    return game


# A deal as the game page's script before the one queue kept it, alone under a key of its own.
KEEP_THE_OLD_WAY = """([game, deal]) => localStorage.setItem(
    `bigtwo:pending-deal:${game}:${deal.token}`,
    JSON.stringify({ number: deal.number, token: deal.token, at: Date.now(), values: deal })
)"""
