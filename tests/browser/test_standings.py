"""The season's standings in Chromium at 390x844: open, sort, open a player."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.phone import add_style, open_phone, screenshot
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


# What ranks a player (scoring.selectors.standings.Standing.rank_key): games won, then the average
# penalty per deal, then deals won. With the rank and the player, a phone shows these first.
DECIDING = ["Rank", "Player", "Won", "Per deal", "Went out"]
DECIDING_ON_THE_PLAYER_PAGE = ["Season", "Won", "Per deal", "Went out"]

# Where each heading of the table stands on the screen, with the page's and the table's own
# sideways scroll: what a phone shows without a swipe.
_HEADINGS_JS = """
table => ({
  pageScroll: scrollX,
  tableScroll: table.closest('[role=region]').scrollLeft,
  headings: [...table.tHead.rows[0].cells].map(cell => {
    const box = cell.getBoundingClientRect();
    return {text: cell.innerText.replace(/[▲▼]/g, '').trim(), left: box.left, right: box.right};
  }),
})
"""


def on_screen_headings(page) -> tuple[list[str], list[str]]:
    """The table's headings wholly on the 390 px screen, and those not."""
    seen = page.locator("table.standings").evaluate(_HEADINGS_JS)
    assert seen["pageScroll"] == 0 and seen["tableScroll"] == 0
    shown = [h["text"] for h in seen["headings"] if h["left"] >= 0 and h["right"] <= 390]
    hidden = [h["text"] for h in seen["headings"] if h["text"] not in shown]
    return shown, hidden


def a_season_with_long_names() -> tuple[object, object]:
    """A season whose players have names up to the 40 characters a name may have."""
    club = make_club(make_user("sam"))
    names = ("Maximiliana Wolfeschlegelsteinhausenberg", "Ben", "Cy", "Dee")
    game = make_game(club, names)
    for _ in range(3):
        record(game, 1, 13, 0, 13)
    record(make_game(club, names), 0, 13, 13, 13)  # one in progress: counts for nothing
    return club.seasons.get(), club.players.get(name="Cy")


def test_a_phone_shows_what_decides_the_rank_without_a_sideways_swipe(phone):
    season, cy = a_season_with_long_names()
    page = phone
    log_in(page, "sam")
    page.goto(f"/seasons/{season.pk}/")
    shown, hidden = on_screen_headings(page)
    assert shown == DECIDING, f"on screen: {shown}"
    assert "Points" in hidden and "Games" in hidden
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # The first line, as a phone shows it: Cy won the one finished game, 3 deals out of 3.
    first = page.locator("#standings tbody tr").first
    expect(first.locator("th")).to_have_text("Cy")
    for cell in first.locator("td, th").all()[:5]:
        box = cell.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, cell.inner_text()

    # There is more, and the page says so: a hint in words and a fade on the right edge.
    hint = page.get_by_text("Swipe the table sideways")
    expect(hint).to_be_visible()
    fade = page.locator(".scroll-shade")
    assert fade.evaluate("e => getComputedStyle(e, '::after').opacity") == "1"

    # Swiped to its end: the rank and the player stay put, the last columns come in, the
    # fade goes (nothing more to the right).
    region = page.locator("#standings [role=region]")
    player_box = first.locator("th").bounding_box()
    region.evaluate("r => r.scrollTo({left: r.scrollWidth})")
    expect(page.locator("th.col-best")).to_be_in_viewport(ratio=1)
    assert first.locator("th").bounding_box() == player_box
    assert first.locator("td.col-rank").bounding_box()["x"] >= 0
    page.wait_for_function(
        "() => getComputedStyle(document.querySelector('.scroll-shade'), '::after').opacity < 0.1"
    )


def test_the_hint_goes_when_the_whole_table_fits(browser, live_server):
    season, _cy = a_season_with_long_names()
    page = open_phone(browser, live_server)  # lets the test's own style in, past the CSP
    log_in(page, "sam")
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(f"/seasons/{season.pk}/")
    # As wide as a desktop's main column can hold the table: the hint would say what isn't so.
    add_style(page, "main { max-width: none; }")
    expect(page.get_by_text("Swipe the table sideways")).to_be_hidden()
    fade = page.locator(".scroll-shade")
    assert float(fade.evaluate("e => getComputedStyle(e, '::after').opacity")) == 0
    page.context.close()


def test_the_player_page_shows_what_decides_the_rank_on_a_phone(phone):
    _season, cy = a_season_with_long_names()
    page = phone
    log_in(page, "sam")
    page.goto(f"/players/{cy.pk}/")
    shown, hidden = on_screen_headings(page)
    assert shown[:4] == DECIDING_ON_THE_PLAYER_PAGE, f"on screen: {shown}"
    assert "Points" in hidden
    expect(page.get_by_text("Swipe the table sideways")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
