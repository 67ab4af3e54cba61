"""A whole club night at 390x844: 13 players drawn for 3 rounds, round 1 played table by table
while the room's TV follows, a latecomer drawn into the rounds to come, and the night's
standings checked against its games."""

from __future__ import annotations

import re
import threading

import pytest
from playwright.sync_api import expect

from nights.models import Night
from scoring.models import Game, Seat
from tests.browser.a11y import assert_accessible, small_targets
from tests.browser.phone import (
    SCREENSHOTS,
    arrive,
    hold_the_clock,
    log_in,
    requests_reported,
    screenshot,
)
from tests.browser.scorekeeping import fill, swap
from tests.factories import finish, make_club, make_player, make_user, record
from tests.nights.helpers import NAMES, draw, games_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def on_another_phone(write) -> None:
    """A write by another phone: in a thread of its own, as the server's are, away from
    Playwright's event loop (the services tell the streams through async_to_sync)."""
    thread = threading.Thread(target=write)
    thread.start()
    thread.join(timeout=60)
    assert not thread.is_alive(), "the other phone's write never ended"


def play_to_the_end(page, game: Game) -> None:
    """Seat 1 goes out every deal and the others are caught with 13: over after 3 deals."""
    page.goto(f"/games/{game.pk}/")
    names = [seat.player.name for seat in game.seats.order_by("position").select_related("player")]
    for _deal in range(3):
        page.get_by_role("button", name=f"{names[0]} went out").click()
        fill(page, dict.fromkeys(names[1:], "13"))
        swap(page, lambda: page.get_by_role("button", name="Record deal").click())
    expect(page.get_by_text("Final totals")).to_be_visible()


def test_a_whole_club_night(phone, browser, live_server):
    page = phone
    club = make_club(make_user("ann"))
    for name in NAMES:
        make_player(club, name)
    log_in(page, club.owner, live_server.url)

    # 1. 13 players and 3 rounds.
    page.goto(f"/clubs/{club.pk}/")
    page.get_by_role("link", name="Club night").click()
    for name in NAMES:
        page.get_by_label(name, exact=True).check()
    page.get_by_label("Rounds").fill("3")
    assert not small_targets(page)
    page.get_by_role("button", name="Draw the seats").click()
    night = Night.objects.get()
    arrive(page, f"/nights/{night.pk}/")
    for number in (1, 2, 3):
        section = page.locator(f"#round-{number}")
        expect(section).to_contain_text(re.compile(r"Table 1: \w+, \w+, \w+, \w+"))
        expect(section).to_contain_text(re.compile(r"Sitting out: \w+"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "night-drawn")

    # The room's TV, opened by its link with no account.
    page.get_by_role("button", name="Show on a TV").click()
    link = page.locator(".share-link a").get_attribute("href")
    tv_screen = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        follow_the_night(page, tv_screen.new_page(), link, night)
    finally:
        tv_screen.close()


def follow_the_night(page, tv, link: str, night: Night) -> None:
    tv.goto(link)
    expect(tv.get_by_role("heading", level=1)).to_contain_text("Next: round 1")

    # 2. Round 1 started and played table by table; the TV follows each deal.
    page.get_by_role("button", name="Start round 1").click()
    expect(page.locator("#round-1")).to_contain_text("playing")
    expect(tv.get_by_role("heading", level=1)).to_contain_text("Round 1")
    games = games_of(night, 1)
    for table, game in enumerate(games[:-1]):
        play_to_the_end(page, game)
        winner = game.seats.get(position=0).player.name
        expect(tv.locator(".tv-table").nth(table)).to_contain_text(f"won by {winner}")
        expect(tv.locator(".tv-table").nth(table)).to_contain_text("117")
    # The last game ends the round: the TV moves on to the next round's seats.
    play_to_the_end(page, games[-1])
    expect(tv.get_by_role("heading", level=1)).to_contain_text("Next: round 2")
    tv.screenshot(path=str(screenshot(page, "night-phone-after-round-1").with_name("night-tv.png")))

    # 3. A latecomer: the rounds to come are drawn again, round 1 stays as played.
    page.goto(f"/nights/{night.pk}/")
    round_1 = page.locator("#round-1").inner_text()
    page.get_by_label("New players").fill("Zed")
    page.get_by_role("button", name="Redraw the rounds to come").click()
    expect(page.locator("#round-2")).to_contain_text("Zed")
    expect(page.locator("#round-3")).to_contain_text("Zed")
    assert page.locator("#round-1").inner_text() == round_1

    # 4. The rest of the night, and its standings against its games.
    for number in (2, 3):
        page.get_by_role("button", name=f"Start round {number}").click()
        expect(page.locator(f"#round-{number}")).to_contain_text("playing")
        on_another_phone(lambda number=number: [finish(game) for game in games_of(night, number)])
        page.goto(f"/nights/{night.pk}/")
    expect(page.get_by_text("The night is over: every round has been played.")).to_be_visible()
    seats = Seat.objects.filter(game__night_table__round__night=night).select_related("player")
    rows = page.locator(".night-standings tbody tr")
    expect(rows).to_have_count(14)
    for row in rows.all():
        name = row.locator("th").inner_text()
        # Rank, won, a deal, went out, games, points.
        _rank, won, _a_deal, _went_out, games, points = [
            c.inner_text() for c in row.locator("td").all()
        ]
        theirs = [seat for seat in seats if seat.player.name == name]
        assert [games, won, points] == [
            str(len(theirs)),
            str(sum(seat.won for seat in theirs)),
            str(sum(seat.total for seat in theirs)),
        ], name
    expect(tv.get_by_role("heading", level=1)).to_contain_text("the night is over")
    screenshot(page, "night-over")


# A room of 26: six tables of four and two sitting out, names short, long and in Chinese.
ROOM = [
    *NAMES,
    "Christopher Wong",
    "陳大文",
    "Margaret Lau Siu Ming",
    "Oli",
    "Priya",
    "Quentin Ho",
    "黃小玲",
    "Rosalind Cheung",
    "Sam",
    "Tam Ka Wai",
    "Uma",
    "Victor",
    "Wing",
]


def night_of_six_tables(club):
    """Round 1 played (24 players in the standings), round 2 being played with its clock and a
    deal at table 1: the fullest board a TV shows."""
    from nights import services

    night = draw(club, count=len(ROOM), rounds=3, round_minutes=30)
    services.start_round(night=night, number=1, by=club.owner)
    for game in games_of(night, 1):
        finish(game)
    services.start_round(night=night, number=2, by=club.owner)
    record(games_of(night, 2)[0], 0, 5, 7, 13)
    return night, services.show_on_tv(night=night, by=club.owner)


def test_the_night_pages_pass_axe_and_the_tv_fits_its_screens(a11y_phone, live_server):
    """Nobody scrolls a TV: at 1280x720 and 1920x1080 the board of six tables of four, the two
    sitting out, the clock, the standings and the code all show on the screen. Before, three
    tables already ran 899-962 px tall at 1280x720 while two thirds of its width stayed empty."""
    page = a11y_phone
    club = make_club(make_user("ann"))
    for name in ROOM:
        make_player(club, name)
    night, token = night_of_six_tables(club)
    log_in(page, club.owner, live_server.url)
    for address in (f"/clubs/{club.pk}/nights/new/", f"/nights/{night.pk}/"):
        page.goto(address)
        assert_accessible(page, f"{address} ({page.color_scheme})")
        assert not small_targets(page)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for width, height in ((1280, 720), (1920, 1080)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"/tv/{token}/")
        expect(page.locator(".tv-table")).to_have_count(6)
        expect(page.locator(".tv .sitting-out")).to_contain_text("Sitting out")
        expect(page.locator(".tv-table").first).to_contain_text("39")
        page.screenshot(path=str(SCREENSHOTS / f"night-tv-{width}-{page.color_scheme}.png"))
        assert_accessible(page, f"TV {width}x{height} ({page.color_scheme})")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert page.evaluate("document.documentElement.scrollHeight") <= height
        for shown in (".tv-qr img", ".tv .sitting-out", ".tv-side tbody tr:last-child"):
            assert page.locator(shown).bounding_box()["y"] + 1 <= height, shown


def test_a_stopped_tv_says_so_and_stops_asking(browser, live_server):
    """Before, a stopped link's board answered 404, which htmx leaves alone: the TV kept asking
    twice a second all night, and the screen kept the last board as if it were live."""
    from nights import services

    club = make_club(make_user("ann"))
    for name in NAMES[:4]:
        make_player(club, name)
    night = draw(club, count=4, rounds=2)
    token = services.show_on_tv(night=night, by=club.owner)
    screen = browser.new_context(viewport={"width": 1280, "height": 720}, base_url=live_server.url)
    try:
        tv = screen.new_page()
        hold_the_clock(tv)
        tv.goto(f"/tv/{token}/")
        asked = []
        tv.on(
            "request",
            lambda request: asked.append(request.url) if "/board/" in request.url else None,
        )
        on_another_phone(lambda: services.stop_tv(night=night, by=club.owner))
        tv.clock.run_for(600)
        expect(tv.get_by_role("status")).to_contain_text("This TV link has been stopped")
        screenshot(tv, "night-tv-stopped")
        tv.clock.run_for(5000)  # ten polls and more, were the board still asking
        requests_reported(tv)
        assert len(asked) == 1
    finally:
        screen.close()
