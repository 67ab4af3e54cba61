"""Ratings in Chromium at 390x844: the Rating column, the "Not yet ranked" group and the
chances before a game's first deal, axe-clean in light and dark."""

import datetime
import re

import pytest
from playwright.sync_api import expect

from scoring import services
from scoring.selectors import ratings
from tests.browser.a11y import assert_accessible
from tests.browser.phone import PHONE, log_in, screenshot
from tests.browser.scorekeeping import fill, swap
from tests.factories import make_club, make_game, make_user, record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Three games among five players: Eve sits in one, fewer than the season's two.
GAMES = (
    (("Ann", "Ben", "Cy", "Dee"), (0, 13, 12, 13)),
    (("Ann", "Ben", "Cy", "Eve"), (0, 13, 13, 12)),
    (("Ann", "Ben", "Cy", "Dee"), (13, 0, 12, 13)),
)


def test_ratings_show_in_the_table_and_the_chances_before_deal_one(a11y_phone, live_server):
    page = a11y_phone
    sam = make_user("sam")
    club = make_club(sam)
    season = services.start_season(
        club=club, name="Spring", starts_on=datetime.date.today(), by=sam, min_games=2
    )
    for names, deal in GAMES:
        game = make_game(club, names)
        for _ in range(3):
            record(game, *deal)
    shown = {line["player"]: f"{line['rating']:.1f}" for line in ratings.table(club.pk)}
    log_in(page, sam, live_server.url)

    page.goto(f"/seasons/{season.pk}/")
    rows = page.locator("#standings tbody tr")
    expect(rows).to_have_count(4)
    ann = page.get_by_role("row", name=re.compile("Ann"))
    expect(ann.locator(".col-rating")).to_have_text(shown["Ann"])
    expect(page.get_by_role("heading", name="Not yet ranked")).to_be_visible()
    expect(page.locator("ul.unranked li")).to_have_text([re.compile(r"^Eve — 1 game")])
    page.get_by_role("link", name="Rating", exact=True).click()
    expect(page.locator("th[aria-sort='descending']")).to_contain_text("Rating")
    best = max(shown[name] for name in ("Ann", "Ben", "Cy", "Dee"))
    expect(rows.first.locator(".col-rating")).to_have_text(best)
    page.get_by_role("heading", name="Not yet ranked").scroll_into_view_if_needed()
    screenshot(page, f"ratings-not-yet-ranked-{page.color_scheme}")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert_accessible(page, f"season with ratings ({page.color_scheme})")

    game = make_game(club, ("Ann", "Ben", "Cy", "Eve"))
    page.goto(f"/games/{game.pk}/")
    chances = page.get_by_role("region", name="Chances of winning")
    expect(chances).to_be_visible()
    percents = [
        int(text.rstrip("%")) for text in chances.locator(".chance-percent").all_inner_texts()
    ]
    assert len(percents) == 4 and sum(percents) == 100
    screenshot(page, f"ratings-chances-{page.color_scheme}")
    assert_accessible(page, f"game before deal 1 ({page.color_scheme})")
    record(game, 0, 5, 5, 5)
    page.reload()
    expect(page.get_by_role("region", name="Chances of winning")).to_have_count(0)


def test_three_games_among_five_players_played_at_the_table(phone, live_server):
    """The issue's own check, played through the deal form: three games among five players,
    then the Rating column, the player page's head-to-head and nemesis, the chances before deal
    1 adding up to 100, and the "Not yet ranked" group."""
    page = phone
    sam = make_user("sam")
    club = make_club(sam)
    season = services.start_season(
        club=club, name="Spring", starts_on=datetime.date.today(), by=sam, min_games=2
    )
    log_in(page, sam, live_server.url)
    for number, (names, deal) in enumerate(GAMES, start=1):
        game = make_game(club, names)
        page.goto(f"/games/{game.pk}/")
        chances = page.get_by_role("region", name="Chances of winning")
        percents = [
            int(text.rstrip("%")) for text in chances.locator(".chance-percent").all_inner_texts()
        ]
        assert len(percents) == 4 and sum(percents) == 100, percents
        if number == 3:
            # Ann has won both games so far: the model now rates her chance highest.
            assert percents[0] == max(percents) and percents[0] > 25, percents
            screenshot(page, "ratings-chances-at-the-table")
        for _ in range(3):
            fill(page, dict(zip(names, map(str, deal), strict=True)))
            swap(page, lambda: page.get_by_role("button", name="Record deal").click())
        winner = names[deal.index(0)]
        expect(page.locator(".banner")).to_contain_text(f"{winner} wins")
        expect(page.get_by_role("region", name="Chances of winning")).to_have_count(0)

    shown = {line["player"]: f"{line['rating']:.1f}" for line in ratings.table(club.pk)}
    page.goto(f"/seasons/{season.pk}/")
    rows = page.locator("#standings tbody tr")
    expect(rows).to_have_count(4)
    for name in ("Ann", "Ben", "Cy", "Dee"):
        row = page.get_by_role("row", name=re.compile(name))
        expect(row.locator(".col-rating")).to_have_text(shown[name])
    expect(page.get_by_role("heading", name="Not yet ranked")).to_be_visible()
    expect(page.locator("ul.unranked li")).to_have_text([re.compile(r"^Eve — 1 game")])

    # Ben sat with Ann in all three games, and she finished ahead of him in two.
    page.get_by_role("link", name="Ben", exact=True).first.click()
    nemesis = page.locator("dt", has_text="Nemesis").locator("+ dd")
    expect(nemesis).to_contain_text("Ann")
    expect(nemesis).to_contain_text("finished ahead of Ben in 2 of 3 games")
    head_to_head = page.get_by_role("region", name="Head-to-head").first
    expect(head_to_head.get_by_role("row", name="Ann").get_by_role("cell").first).to_have_text("3")
    expect(page.get_by_text(shown["Ben"], exact=True).first).to_be_visible()
    screenshot(page, "ratings-player-head-to-head")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
