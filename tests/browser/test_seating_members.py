"""Seating a new game at 390x844: the club's members are offered beside the roster, with and
without JavaScript, and a member seated by their name is linked to their player."""

import pytest
from playwright.sync_api import expect

from tests.browser.a11y import assert_accessible
from tests.browser.phone import PHONE, arrive, log_in, screenshot
from tests.factories import make_club, make_game, make_member, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def offered(page) -> dict[str, str]:
    """Each name the seats suggest, and how it is marked ("Member" or nothing)."""
    options = page.locator("datalist#roster option")
    return {
        option.get_attribute("value"): option.get_attribute("label") or ""
        for option in options.all()
    }


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_friends_who_joined_are_offered_as_seats_and_linked_when_seated(
    browser, live_server, javascript
):
    sam = make_user("sam")
    club = make_club(sam)
    make_game(club, ("Ann", "Ben", "sam", "Dee"))
    make_member(club, "bo")
    context = browser.new_context(
        viewport=PHONE, base_url=live_server.url, is_mobile=True, java_script_enabled=javascript
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    log_in(page, sam, live_server.url)

    page.goto(f"/clubs/{club.pk}/games/new/")
    assert offered(page) == {"Ann": "", "Ben": "", "bo": "Member", "Dee": "", "sam": ""}
    expect(page.get_by_text("Members not on the roster yet: bo.")).to_be_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    screenshot(page, f"new-game-members-{'js' if javascript else 'no-js'}")

    for seat, name in enumerate(("bo", "Ann", "Ben", "Dee"), start=1):
        page.get_by_label(f"Seat {seat}", exact=True).fill(name)
    page.get_by_role("button", name="Start game").click()
    page.wait_for_url("**/games/*/")

    page.goto(f"/clubs/{club.pk}/history/")
    expect(page.get_by_text("sam seated bo as the player bo")).to_be_visible()
    assert club.players.get(name="bo").member.user.username == "bo"
    context.close()


def test_the_new_game_page_with_members_is_accessible(a11y_phone, live_server):
    sam = make_user("sam")
    club = make_club(sam)
    make_member(club, "bo")
    log_in(a11y_phone, sam, live_server.url)
    a11y_phone.goto(f"/clubs/{club.pk}/games/new/")
    arrive(a11y_phone, f"/clubs/{club.pk}/games/new/")
    assert_accessible(a11y_phone, "new-game-members")
