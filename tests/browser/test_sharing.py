"""Sharing at the table in Chromium at 390x844: the invite's QR code read by "another phone",
which signs up from it, lands in the club, plays a game and taps "Play again"; the live view's
code in dark mode; the share panel without JavaScript."""

import re

import pytest
from playwright.sync_api import expect

from scoring.models import Game, Membership
from tests.browser.phone import PHONE, SCREENSHOTS, log_in, screenshot
from tests.browser.scorekeeping import swap
from tests.factories import PASSWORD, PLAYERS, make_club, make_game, make_user, record
from tests.qr import decode_png

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def scan(page, panel) -> str:
    """Open the panel's QR code and read it from a screenshot of what the browser drew, as
    another phone's camera would; dark-on-light only (an inverted code counts as unreadable)."""
    details = panel.locator("details")
    if details.get_attribute("open") is None:
        panel.get_by_text("Show the QR code").click()
    code = panel.get_by_role("img")
    code.scroll_into_view_if_needed()
    expect(code).to_be_visible()
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=code.element_handle())
    found = decode_png(code.screenshot())
    assert len(found) == 1, found
    return found[0]


def watch_csp(page) -> list[str]:
    """What the Content Security Policy refused on the page, as the console reports it."""
    refused: list[str] = []
    page.on(
        "console",
        lambda m: (
            "Content Security Policy" in m.text
            and "inline style" not in m.text
            and refused.append(m.text)
        ),
    )
    return refused


def test_a_newcomer_scans_the_invite_signs_up_plays_and_plays_again(browser, live_server):
    sam = make_user("sam")
    club = make_club(sam)
    owner = browser.new_context(viewport=PHONE, base_url=live_server.url, is_mobile=True)
    owner.grant_permissions(["clipboard-read", "clipboard-write"])
    page = owner.new_page()
    refused = watch_csp(page)
    log_in(page, sam, live_server.url)
    page.goto(f"/clubs/{club.pk}/")

    panel = page.locator("[data-share-panel]")
    link = panel.get_by_label("Invite link").input_value()
    assert link == f"{live_server.url}/join/{club.invite_token}/"
    assert scan(page, panel) == link
    expect(panel.get_by_role("img", name="QR code for the invite link")).to_be_visible()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(".panel.invite").screenshot(path=str(SCREENSHOTS / "share-panel.png"))

    panel.get_by_role("button", name="Copy link").click()
    expect(panel.get_by_role("status")).to_have_text("Link copied")
    assert page.evaluate("navigator.clipboard.readText()") == link
    # "Share" only where the browser has a share sheet (desktop Linux Chromium has none).
    has_share_sheet = page.evaluate("'share' in navigator")
    expect(panel.get_by_role("button", name="Share")).to_be_visible(visible=has_share_sheet)
    assert refused == []
    owner.close()

    # Another phone, signed out, opens what the camera read.
    newcomer = browser.new_context(viewport=PHONE, base_url=live_server.url, is_mobile=True)
    page = newcomer.new_page()
    page.set_default_timeout(10_000)
    page.goto(link)
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Join Friday table: sign up or log in"
    )
    page.get_by_role("link", name="Sign up").last.click()
    expect(page.get_by_text("Signing up makes you a member of Friday table.")).to_be_visible()
    page.get_by_label("Username").fill("ann")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    expect(page).to_have_url(f"{live_server.url}/clubs/{club.pk}/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Friday table")
    expect(page.get_by_role("status")).to_contain_text("You're a member of Friday table.")
    assert Membership.objects.filter(club=club, user__username="ann").exists()

    # A game to the end, then "Play again".
    page.get_by_role("link", name="New game").click()
    for seat, name in enumerate(PLAYERS, start=1):
        page.get_by_label(f"Seat {seat}").fill(name)
    page.get_by_role("button", name="Start game").click()
    expect(page.locator(".deal-no")).to_have_text("Deal 1")
    first = Game.objects.get(club=club)
    for _ in range(3):
        for name, count in zip(PLAYERS, (0, 13, 13, 13), strict=True):
            page.get_by_label(name, exact=True).fill(str(count))
        swap(page, lambda: page.get_by_role("button", name="Record deal").click())
    expect(page.get_by_role("heading", name="Ann wins with 0")).to_be_visible()
    screenshot(page, "game-finished-play-again")
    page.get_by_role("button", name="Play again").dblclick()  # a double tap

    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    expect(page.locator(".deal-no")).to_have_text("Deal 1")
    rematch = Game.objects.exclude(pk=first.pk).get(club=club)  # one new game, not two
    assert page.url == f"{live_server.url}/games/{rematch.pk}/"
    expect(page.get_by_role("heading", level=1)).to_have_text("Ann · Ben · Cy · Dee")

    page.goto("/")
    expect(page.get_by_role("link", name=re.compile("^Continue: "))).to_have_text(
        re.compile(r"Continue: Ann · Ben · Cy · Dee, deal 1\s+Friday table")
    )
    screenshot(page, "home-signed-in")
    newcomer.close()


def test_the_live_view_code_reads_in_dark_mode_too(browser, live_server):
    game = make_game(make_club(make_user("sam")))
    record(game, 0, 3, 5, 7)
    context = browser.new_context(
        viewport=PHONE, base_url=live_server.url, is_mobile=True, color_scheme="dark"
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    log_in(page, game.club.owner, live_server.url)
    page.goto(f"/games/{game.pk}/")
    page.get_by_role("button", name="Share a live view").click()
    panel = page.locator("#share [data-share-panel]")
    link = panel.get_by_label("Live view link").input_value()
    assert re.fullmatch(rf"{live_server.url}/live/[\w-]+/", link)
    assert scan(page, panel) == link
    # The page around it is dark; the code keeps its white quiet zone.
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(18, 20, 18)"
    context.close()


def test_without_javascript_the_link_is_there_to_copy_and_the_code_still_shows(
    phone_without_js, live_server
):
    page = phone_without_js
    sam = make_user("sam")
    club = make_club(sam)
    log_in(page, sam, live_server.url)
    page.goto(f"/clubs/{club.pk}/")
    panel = page.locator("[data-share-panel]")
    expect(panel.get_by_label("Invite link")).to_have_value(
        f"{live_server.url}/join/{club.invite_token}/"
    )
    expect(panel.get_by_role("button")).to_have_count(0)  # Copy and Share need the script
    assert scan(page, panel) == f"{live_server.url}/join/{club.invite_token}/"


def test_the_qr_code_is_not_loaded_until_asked_for(phone, live_server):
    """The game page's first load stays within its weight budget: the code is fetched only
    when "Show the QR code" is opened."""
    game = make_game(make_club(make_user("sam")))
    page = phone
    fetched: list[str] = []
    page.on("request", lambda r: "qr.svg" in r.url and fetched.append(r.url))
    log_in(page, game.club.owner, live_server.url)
    page.goto(f"/games/{game.pk}/")
    page.get_by_role("button", name="Share a live view").click()
    expect(page.get_by_text("Show the QR code")).to_be_visible()
    page.wait_for_load_state("networkidle")
    assert fetched == []
    # Waited for as a request: the image can show its box before the request is reported.
    with page.expect_request(lambda request: "qr.svg" in request.url):
        page.get_by_text("Show the QR code").click()
    expect(page.get_by_role("img", name="QR code for the live view link")).to_be_visible()
    assert len(fetched) == 1
