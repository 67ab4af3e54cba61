"""A club's members and roster in Chromium at 390x844: a player typed wrong is merged into the
right one; the owner removes a member, whose open game page then gets 404s; without JavaScript
the owner hands the club on and leaves."""

import re

import pytest
from playwright.sync_api import expect

from scoring.models import Game, Membership
from tests.browser.phone import PHONE, log_in, screenshot
from tests.factories import make_club, make_game, make_member, make_user, record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CAUGHT = (0, 13, 13, 13)  # the first seat goes out three times and wins; the rest reach 117


def finish(game: Game) -> None:
    for _ in range(3):
        record(game, *CAUGHT)


def standing(page, player: str, heading: str) -> str:
    """What the standings table shows in `player`'s row under `heading`."""
    headings = [text.strip() for text in page.locator("#standings thead th").all_inner_texts()]
    column = next(n for n, text in enumerate(headings) if text.startswith(heading))
    row = page.locator("#standings tbody tr").filter(
        has=page.get_by_role("rowheader", name=player, exact=True)
    )
    return row.locator("th, td").nth(column).inner_text().strip()


def fits_the_screen(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url} is {width}px wide on a 390px screen"


def test_a_player_typed_wrong_is_merged_into_the_right_one(phone, live_server):
    sam = make_user("sam")
    club = make_club(sam)
    finish(make_game(club, ("Ann", "Ben", "Cy", "Dee")))
    finish(make_game(club, ("Anne", "Ben", "Cy", "Eve")))  # Ann won this one, as "Anne"
    season = club.seasons.get()
    page = phone
    log_in(page, sam, live_server.url)

    page.goto(f"/seasons/{season.pk}/")
    assert (standing(page, "Ann", "Won"), standing(page, "Anne", "Won")) == ("1", "1")
    page.goto(f"/clubs/{club.pk}/")
    screenshot(page, "members-club-page")
    fits_the_screen(page)
    page.get_by_role("region", name="Players").get_by_role("link", name="Anne").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Anne")
    page.get_by_role("heading", name="On the roster").scroll_into_view_if_needed()
    screenshot(page, "members-player-roster-actions")
    page.get_by_role("link", name="Merge into…").click()

    # Ben sat at Anne's table: the two are two people, and the page says which game shows it.
    page.get_by_label("Merge into").select_option(label="Ben")
    page.get_by_role("button", name="Merge").click()
    expect(page.locator(".errorlist")).to_contain_text("Anne and Ben both sat in the game of")
    expect(page.get_by_role("link", name="See that game")).to_be_visible()
    screenshot(page, "members-merge-refused")
    fits_the_screen(page)

    page.get_by_label("Merge into").select_option(label="Ann")
    screenshot(page, "members-merge-player")
    page.get_by_role("button", name="Merge").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Ann")
    expect(page.locator(".messages[role=status]")).to_contain_text("Anne is merged into Ann.")
    expect(page.locator(".game-list li")).to_have_count(2)
    screenshot(page, "members-merged")
    # The season's table adds up as if the name had been right: Ann won both games.
    page.goto(f"/seasons/{season.pk}/")
    expect(page.get_by_role("rowheader", name="Anne", exact=True)).to_have_count(0)
    assert (standing(page, "Ann", "Games"), standing(page, "Ann", "Won")) == ("2", "2")
    assert standing(page, "Ann", "Deals") == "6"
    page.goto(f"/clubs/{club.pk}/history/")
    expect(page.locator(".history-list li").first).to_contain_text(
        "sam merged the player Anne into Ann"
    )
    screenshot(page, "members-club-history")


@pytest.mark.console_errors(
    r"status of 404 \(Not Found\) \(http://[^)]+/board/",
    r"^console error: Response Status Error Code 404 from /games/\d+/board/",
    reason="bo is removed from the club with the game open: his board's poll is refused",
)
def test_a_removed_member_gets_404_on_the_game_page_they_had_open(phone, browser, live_server):
    sam = make_user("sam")
    club = make_club(sam)
    bo = make_member(club, "bo")
    game = make_game(club)
    record(game, 0, 5, 3, 2)
    bo_context = browser.new_context(viewport=PHONE, base_url=live_server.url, is_mobile=True)
    bo_phone = bo_context.new_page()
    bo_phone.set_default_timeout(10_000)
    log_in(bo_phone, bo, live_server.url)
    bo_phone.goto(f"/games/{game.pk}/")
    with bo_phone.expect_response(lambda r: "/board/" in r.url) as polled:
        pass
    assert polled.value.status == 204  # following the game: nothing new yet

    page = phone
    log_in(page, sam, live_server.url)
    page.goto(f"/clubs/{club.pk}/")
    page.get_by_role("heading", name="Members").scroll_into_view_if_needed()
    screenshot(page, "members-list-as-owner")
    page.get_by_role("link", name="Remove bo").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Remove bo from Friday table?")
    screenshot(page, "members-remove-member")
    fits_the_screen(page)
    page.get_by_role("button", name="Remove bo").click()

    expect(page.locator(".messages[role=status]")).to_contain_text(
        "bo is no longer a member of Friday table."
    )
    expect(page.locator(".member-name")).to_have_count(1)
    screenshot(page, "members-member-removed")
    assert not Membership.objects.filter(user=bo).exists()
    # bo's page asks again within two seconds, and is told "not found".
    with bo_phone.expect_response(lambda r: "/board/" in r.url and r.status == 404):
        pass
    response = bo_phone.reload()
    assert response.status == 404
    screenshot(bo_phone, "members-removed-member-404")
    bo_phone.goto("/clubs/")
    expect(bo_phone.get_by_text("Friday table")).to_have_count(0)
    bo_context.close()


def test_without_javascript_the_owner_hands_the_club_on_and_leaves(phone_without_js, live_server):
    sam = make_user("sam")
    club = make_club(sam)
    make_member(club, "bo")
    page = phone_without_js
    log_in(page, sam, live_server.url)

    page.goto(f"/clubs/{club.pk}/leave/")
    expect(page.get_by_text("make another member the owner first")).to_be_visible()
    screenshot(page, "members-owner-cannot-leave")
    page.goto(f"/clubs/{club.pk}/")
    page.get_by_role("link", name="Make owner bo").click()
    screenshot(page, "members-make-owner")
    page.get_by_role("button", name="Make owner bo").click()
    expect(page.locator(".messages[role=status]")).to_contain_text("bo now owns Friday table.")
    expect(page.get_by_role("link", name="Remove bo")).to_have_count(0)

    page.get_by_role("link", name="Leave club").click()
    screenshot(page, "members-leave-club")
    page.get_by_role("button", name="Leave club").click()

    expect(page).to_have_url(re.compile(r"/clubs/$"))
    expect(page.locator(".messages[role=status]")).to_contain_text("You have left Friday table.")
    assert page.goto(f"/clubs/{club.pk}/").status == 404
