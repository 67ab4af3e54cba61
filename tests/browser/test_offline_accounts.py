"""The game pages the service worker keeps for opening offline are one account's: whoever is
signed in next in the same browser never gets them (templates/pwa/sw.js). Before, logging out
emptied them, but deleting the account and another signing up did not: offline, the new account
opened the other club's game page, scores and names.

In Chromium at 390x844, on the live test server; the game page is kept by the worker once it has
taken the page over, as tests/browser/test_offline_game.py relies on.
"""

import pytest
from playwright.sync_api import expect

from bigtwo_site.pwa import signed_in_as
from tests.browser.phone import log_in
from tests.browser.scorekeeping import fill, log_in_to_game
from tests.factories import PASSWORD, make_club, make_game, make_member, make_user, record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NEW_PASSWORD = "bo's own passphrase 7"
KEPT_PAGES = """async () => {
    const pages = await caches.open("game-pages");
    return (await pages.keys()).map((request) => new URL(request.url).pathname);
}"""
KEPT_FOR = """async (path) => {
    const kept = await caches.match(path, { cacheName: "game-pages" });
    return kept.headers.get("X-Signed-In-As");
}"""


@pytest.fixture
def game():
    """A game of Sam's club, which Ann, a member, follows (a member may delete her account)."""
    club = make_club(make_user("sam"), name="Friday table")
    make_member(club, "ann")
    game = make_game(club)
    record(game, 0, 5, 10, 13)
    return game


def kept_offline(page, game) -> None:
    """Ann opens her game page until the worker keeps a copy of it."""
    log_in_to_game(page, game)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # the worker now controls the page, and keeps what the network sends
    path = f"/games/{game.pk}/"
    page.wait_for_function(f"({KEPT_PAGES})().then((kept) => kept.includes({path!r}))")


def delete_account(page) -> None:
    page.goto("/accounts/delete/")
    page.get_by_label("Your password").fill(PASSWORD)
    page.get_by_role("button", name="Delete my account").click()
    expect(page.get_by_role("status")).to_contain_text("Your account is deleted.")


def sign_up(page, username: str) -> None:
    page.goto("/accounts/signup/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill(NEW_PASSWORD)
    page.get_by_label("Password confirmation").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_role("status")).to_contain_text(f"Welcome, {username}!")


def offline_shows_no_game(page, game) -> None:
    page.context.set_offline(True)
    page.goto(f"/games/{game.pk}/")
    expect(page.get_by_role("heading", level=1)).to_have_text("You're offline")
    expect(page.get_by_text("Friday table")).to_have_count(0)
    expect(page.locator(".scores")).to_have_count(0)


@pytest.mark.parametrize("how", ["deleted, then another signs up", "another signs up"])
def test_an_account_signed_up_in_the_same_browser_never_gets_anothers_game_offline(
    phone, game, how
):
    page = phone
    kept_offline(page, game)
    if how.startswith("deleted"):
        delete_account(page)
    sign_up(page, "bo")
    offline_shows_no_game(page, game)


def test_another_account_signed_in_by_any_way_never_gets_the_game_offline(phone, game, live_server):
    """However the session changed hands (here a session handed to the browser, as a login
    the worker never saw would), the first page from the network says whose it is."""
    page = phone
    kept_offline(page, game)
    page.context.clear_cookies()
    log_in(page, make_user("bo"), live_server.url)
    page.goto("/clubs/")
    offline_shows_no_game(page, game)


def test_the_same_account_keeps_its_game_offline(phone, game):
    """What the worker keeps is still there for the account it was kept for."""
    page = phone
    kept_offline(page, game)
    page.goto("/clubs/")
    page.context.set_offline(True)
    page.goto(f"/games/{game.pk}/")
    expect(page.locator(".scores tfoot")).to_contain_text("39")


@pytest.mark.console_errors(
    r"status of 40[34] \((Forbidden|Not Found)\) \(http://[^)]+/games/\d+/board/",
    r"^console error: Response Status Error Code 40[34] from /games/\d+/board/",
    reason="Ann's tab, left open, asks for its board signed out, then as Bo: not Bo's game",
)
def test_a_stale_tab_of_another_account_never_keeps_its_game_for_the_one_signed_in(phone, game):
    """Ann's game page stays open in one tab while Bo signs in in another. Ann's tab, without a
    signal, records a deal and keeps the page as it shows it (static/js/waiting-deals.js): that
    copy was made for Ann, and is never kept for Bo, who is signed in now. Before, it was put
    among Bo's pages, and Bo, offline, was shown Ann's club's game."""
    page = phone
    kept_offline(page, game)
    make_user("bo")
    other_tab = page.context.new_page()
    other_tab.set_default_timeout(10_000)
    other_tab.goto("/clubs/")
    other_tab.get_by_role("button", name="Log out").click()
    other_tab.get_by_role("link", name="Log in").first.click()
    other_tab.get_by_label("Username").fill("bo")
    other_tab.get_by_label("Password").fill(PASSWORD)
    other_tab.get_by_role("button", name="Log in").click()
    expect(other_tab.get_by_role("button", name="Log out")).to_be_visible()
    page.context.set_offline(True)
    fill(page, {"Ann": "0", "Ben": "1", "Cy": "2", "Dee": "3"})
    page.get_by_role("button", name="Record deal").click()
    expect(page.locator("#live-notice")).to_contain_text("1 deal waiting to send")
    # Bo's sign-in threw the kept pages away: the copy kept now is Ann's tab's.
    path = f"/games/{game.pk}/"
    page.wait_for_function(f"({KEPT_PAGES})().then((kept) => kept.includes({path!r}))")
    offline_shows_no_game(other_tab, game)
    ann = game.club.memberships.get(user__username="ann").user
    assert page.evaluate(KEPT_FOR, path) == signed_in_as(ann.pk)  # and says it is hers
