"""The season's standings in Chromium at 390x844: open, sort, open a player."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.phone import screenshot
from tests.factories import PASSWORD, make_club, make_game, make_user, record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(page, username: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()


def test_open_the_standings_sort_by_a_column_and_open_a_player(phone):
    club = make_club(make_user("sam"))
    tables = [
        (("Ann", "Ben", "Cy", "Dee"), (0, 13, 13, 13)),
        (("Ben", "Ann", "Cy", "Eve"), (0, 13, 13, 13)),
        (("Ann", "Ben", "Cy", "Dee"), (1, 13, 0, 13)),
    ]
    for names, deal in tables:
        game = make_game(club, names)
        for _ in range(3):
            record(game, *deal)
    season = club.seasons.get()

    page = phone
    log_in(page, "sam")
    page.goto(f"/seasons/{season.pk}/")
    rows = page.locator("#standings tbody tr")
    expect(rows).to_have_count(5)
    expect(rows.first.locator("th")).to_have_text("Ann")
    screenshot(page, "standings")

    page.get_by_role("link", name="Points").click()
    expect(page).to_have_url(re.compile(r"sort=penalty"))
    # A first tap on "Points" puts the fewest first: Eve's 117.
    expect(rows.first.locator("th")).to_have_text("Eve")
    expect(page.locator("th[aria-sort='ascending']")).to_contain_text("Points")
    page.get_by_role("link", name=re.compile("^Points")).click()
    expect(page.locator("th[aria-sort='descending']")).to_contain_text("Points")
    expect(rows.last.locator("th")).to_have_text("Eve")

    page.get_by_role("link", name="Ann", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Ann")
    expect(page.get_by_role("img", name="Average penalty per deal, game by game")).to_be_visible()
    expect(page.locator(".game-list li")).to_have_count(3)
    screenshot(page, "player")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the player page is {width}px wide on a 390px screen"
