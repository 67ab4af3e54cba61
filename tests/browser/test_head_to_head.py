"""Head-to-head in Chromium at 390x844: the player page's table and nemesis, and the club's
matrix fitting the phone, axe-clean in light and dark (the club of tests/scoring/rivals.py)."""

import pytest
from playwright.sync_api import expect

from tests.browser.a11y import assert_accessible, small_targets
from tests.browser.phone import PHONE, log_in, screenshot
from tests.factories import finish, make_club, make_game, make_user, record
from tests.scoring.rivals import a_club_of_rivals

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG_NAME = "Maximiliana Wolfeschlegelsteinhausenberg"


def page_width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


def test_the_player_page_shows_head_to_head_and_nemesis_on_a_phone(a11y_phone, live_server):
    page = a11y_phone
    sam = make_user("sam")
    club, games = a_club_of_rivals(sam)
    log_in(page, sam, live_server.url)
    page.goto(f"/players/{club.players.get(name='Ann').pk}/")

    section = page.get_by_role("region", name="Head-to-head").first
    expect(page.get_by_role("heading", name="Head-to-head")).to_be_visible()
    nemesis = page.locator("dt", has_text="Nemesis").locator("+ dd")
    expect(nemesis).to_contain_text("Cy")
    expect(nemesis).to_contain_text("finished ahead of Ann in 2 of 4 games")
    expect(page.locator("dt", has_text="Favourite opponent").locator("+ dd")).to_contain_text("Dee")
    ben = section.get_by_role("row", name="Ben")
    expect(ben.get_by_role("cell")).to_have_text(["4", "3", "1", "+276"])
    expect(page.locator("dt", has_text="Longest run of games won").locator("+ dd")).to_have_text(
        "2"
    )
    best = page.locator("dt", has_text="Best game").locator("+ dd").get_by_role("link")
    expect(best).to_have_attribute("href", f"/games/{games['A'].pk}/")
    page.locator("#h2h-title").scroll_into_view_if_needed()
    screenshot(page, f"head-to-head-player-{page.color_scheme}")
    assert page_width(page) <= PHONE["width"], "the player page scrolls sideways"
    assert_accessible(page, f"player page ({page.color_scheme})")
    assert not small_targets(page)


def test_the_head_to_head_matrix_fits_a_phone(a11y_phone, live_server):
    page = a11y_phone
    sam = make_user("sam")
    club, _games = a_club_of_rivals(sam)
    # Four more players, one with the longest name there may be: nine columns on a phone.
    game = make_game(club, (LONG_NAME, "Fay", "Gus", "Hal"))
    for _ in range(3):
        record(game, 13, 0, 13, 13)
    log_in(page, sam, live_server.url)
    page.goto(f"/clubs/{club.pk}/")
    page.get_by_role("link", name="Head-to-head").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Head-to-head")

    ann = page.get_by_role("row", name="Ann")
    expect(ann.get_by_role("cell")).to_have_text(
        ["—", "3–1", "2–2", "3–0", "1–0", "—", "—", "—", "—"]
    )
    # Column 2 is Ben for a screen reader, though it shows only his number.
    expect(page.get_by_role("columnheader", name="Ben")).to_have_text("2 Ben")
    screenshot(page, f"head-to-head-matrix-{page.color_scheme}")
    assert page_width(page) <= PHONE["width"], "the matrix page scrolls sideways"

    # The table scrolls inside its frame, the players' names staying put on the left.
    region = page.locator("[role=region]", has=page.locator("table.h2h-matrix"))
    assert region.evaluate("r => r.scrollWidth > r.clientWidth")
    name_cell = ann.get_by_role("rowheader")
    before = name_cell.bounding_box()
    region.evaluate("r => r.scrollTo({left: r.scrollWidth})")
    assert region.evaluate("r => r.scrollLeft") > 0
    assert name_cell.bounding_box()["x"] == before["x"]
    assert page_width(page) <= PHONE["width"]
    assert_accessible(page, f"head-to-head matrix ({page.color_scheme})")
    assert not small_targets(page)


def test_a_big_clubs_matrix_fits_a_phone_and_adds_any_other_players_row(a11y_phone, live_server):
    """Fifteen players: the dozen with the most games in the matrix, and the others' rows a
    choice away, without JavaScript's help."""
    page = a11y_phone
    sam = make_user("sam")
    club = make_club(sam)
    names = [f"Player {number:02}" for number in range(1, 16)]
    for start in range(15):
        finish(make_game(club, [names[(start + seat) % 15] for seat in range(4)]))
    finish(make_game(club, names[:4]))
    log_in(page, sam, live_server.url)
    page.goto(f"/clubs/{club.pk}/head-to-head/")

    table = page.locator("table.h2h-matrix")
    expect(table.locator("thead th")).to_have_count(1 + 12)
    expect(
        page.get_by_text("The 12 players with the most finished games, of the club's 15.")
    ).to_be_visible()
    choice = page.get_by_label("Another player")
    expect(choice.locator("option")).to_have_text(["Player 13", "Player 14", "Player 15"])
    choice.select_option(label="Player 14")
    page.get_by_role("button", name="Add their row").click()
    asked = page.get_by_role("row", name="Player 14")
    expect(asked).to_be_visible()
    expect(asked.get_by_role("cell")).to_have_count(12)
    expect(page.get_by_label("Another player")).to_have_value(
        str(club.players.get(name="Player 14").pk)
    )
    screenshot(page, f"head-to-head-big-club-{page.color_scheme}")
    assert page_width(page) <= PHONE["width"], "the matrix page scrolls sideways"
    assert_accessible(page, f"head-to-head of a big club ({page.color_scheme})")
    assert not small_targets(page)
