"""An evening at the table, in order, on phones at 390x844 (issue 13's "Done when"): Ann signs
up through the invite Sam shows her, scans from the share panel's QR code; she plays a game to
its end and taps "Play again"; Dee's name was typed "Dea" last week and is merged into Dee; Sam
removes Bo, whose open page then gets a 404; Ann forgets her password and gets back in with
Sam's "Password reset link"; the standings show what decides the rank without a sideways
swipe. Screenshots of each step land in test-artifacts/screenshots/ (evening-*.png)."""

import re

import pytest
from playwright.sync_api import expect

from scoring.models import Game, Membership
from tests.browser.phone import PHONE, SCREENSHOTS, log_in, screenshot
from tests.browser.scorekeeping import fill, swap
from tests.factories import PASSWORD, make_club, make_game, make_member, make_user, record
from tests.qr import decode_svg

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NEW_PASSWORD = "ann's new passphrase 5"
TONIGHT = ("Ann", "Ben", "Cy", "Dee")
# What ranks a player (scoring.selectors.standings.Standing.rank_key), with the rank and the player.
DECIDING = ["Rank", "Player", "Won", "Per deal", "Went out"]


def new_phone(browser, live_server):
    context = browser.new_context(viewport=PHONE, base_url=live_server.url, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    return page


def log_in_with_the_form(page, username: str, password: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()


def scan_the_svg(page, panel) -> str:
    """The link in the panel's QR code, read from the SVG the server drew for it (as the
    browser fetches it, with the page's session)."""
    panel.get_by_text("Show the QR code").click()
    code = panel.get_by_role("img")
    expect(code).to_be_visible()
    svg = page.request.get(code.get_attribute("src"))
    assert svg.ok and svg.headers["content-type"].startswith("image/svg+xml")
    (found,) = decode_svg(svg.body())
    return found


def phone_screen(page, name: str, start) -> None:
    """What the phone's screen shows with `start` at its top (not the whole page): the README's
    screenshots (docs/screenshots/, copied from test-artifacts/screenshots/)."""
    start.evaluate("element => element.scrollIntoView({block: 'start'})")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def within_the_screen(cell) -> bool:
    box = cell.bounding_box()
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]


def test_an_evening_at_the_table(browser, live_server):
    sam = make_user("sam")
    club = make_club(sam)
    bo = make_member(club, "bo")
    last_week = make_game(club, ("Ben", "Cy", "Dea", "Eve"))  # Dee's name, typed wrong
    for _ in range(3):
        record(last_week, 13, 13, 0, 13)

    # Sam shows the invite's QR code; Ann's phone reads it.
    owner = new_phone(browser, live_server)
    log_in(owner, sam, live_server.url)
    owner.goto(f"/clubs/{club.pk}/")
    panel = owner.locator("[data-share-panel]")
    link = panel.get_by_label("Invite link").input_value()
    assert link == f"{live_server.url}/join/{club.invite_token}/"
    assert scan_the_svg(owner, panel) == link
    screenshot(owner, "evening-1-invite-shown")
    phone_screen(owner, "share-panel-phone", owner.locator(".panel.invite"))

    ann = new_phone(browser, live_server)
    ann.goto(link)
    expect(ann.get_by_role("heading", level=1)).to_have_text("Join Friday table: sign up or log in")
    screenshot(ann, "evening-2-invite-signed-out")
    ann.get_by_role("link", name="Sign up").last.click()
    ann.get_by_label("Username").fill("ann")
    ann.get_by_label("Password", exact=True).fill(PASSWORD)
    ann.get_by_label("Password confirmation").fill(PASSWORD)
    ann.get_by_role("button", name="Sign up").click()
    expect(ann).to_have_url(f"{live_server.url}/clubs/{club.pk}/")
    expect(ann.get_by_role("status")).to_contain_text("You're a member of Friday table.")

    # A game to its end, then "Play again": the same four in the same seats.
    ann.get_by_role("link", name="New game").click()
    for seat, name in enumerate(TONIGHT, start=1):
        ann.get_by_label(f"Seat {seat}").fill(name)
    ann.get_by_role("button", name="Start game").click()
    expect(ann.locator(".deal-no")).to_have_text("Deal 1")
    for _ in range(3):
        fill(ann, dict(zip(TONIGHT, ("0", "13", "13", "13"), strict=True)))
        swap(ann, lambda: ann.get_by_role("button", name="Record deal").click())
    expect(ann.get_by_role("heading", name="Ann wins with 0")).to_be_visible()
    screenshot(ann, "evening-3-game-won")
    ann.get_by_role("button", name="Play again").click()
    expect(ann.locator(".deal-no")).to_have_text("Deal 1")
    expect(ann.get_by_role("heading", level=1)).to_have_text("Ann · Ben · Cy · Dee")
    fill(ann, {"Ann": "4", "Ben": "0", "Cy": "7", "Dee": "2"})
    swap(ann, lambda: ann.get_by_role("button", name="Record deal").click())
    assert Game.objects.filter(club=club).count() == 3

    # The home page starts with the game to continue.
    ann.goto("/")
    expect(ann.get_by_role("link", name=re.compile("^Continue: "))).to_have_text(
        re.compile(r"Continue: Ann · Ben · Cy · Dee, deal 2\s+Friday table")
    )
    screenshot(ann, "evening-4-home")
    phone_screen(ann, "home-returning", ann.locator("body"))

    # "Dea" was Dee: merged, Dee has last week's game too.
    ann.goto(f"/clubs/{club.pk}/")
    ann.get_by_role("region", name="Players").get_by_role("link", name="Dea").click()
    ann.get_by_role("link", name="Merge into…").click()
    ann.get_by_label("Merge into").select_option(label="Dee")
    ann.get_by_role("button", name="Merge").click()
    expect(ann.get_by_role("heading", level=1)).to_have_text("Dee")
    expect(ann.get_by_role("status")).to_contain_text("Dea is merged into Dee.")
    expect(ann.locator(".game-list li")).to_have_count(3)
    screenshot(ann, "evening-5-merged")

    # Sam removes Bo, whose open club page is a 404 from the next request on.
    bo_phone = new_phone(browser, live_server)
    log_in(bo_phone, bo, live_server.url)
    assert bo_phone.goto(f"/clubs/{club.pk}/").status == 200
    owner.goto(f"/clubs/{club.pk}/")
    owner.get_by_role("link", name="Remove bo").click()
    owner.get_by_role("button", name="Remove bo").click()
    expect(owner.locator(".messages")).to_contain_text("bo is no longer a member of Friday table.")
    assert bo_phone.reload().status == 404
    screenshot(bo_phone, "evening-6-removed-404")
    assert not Membership.objects.filter(user=bo).exists()

    # Ann has forgotten her password: Sam's link, on a phone she has never signed in on.
    owner.goto(f"/clubs/{club.pk}/")
    owner.get_by_role("button", name="Password reset link for ann").click()
    reset_link = owner.get_by_label("The link").input_value()
    ann.context.close()
    ann = new_phone(browser, live_server)
    ann.goto(reset_link)
    ann.get_by_label("New password", exact=True).fill(NEW_PASSWORD)
    ann.get_by_label("New password confirmation").fill(NEW_PASSWORD)
    ann.get_by_role("button", name="Set password").click()
    expect(ann.get_by_role("heading", level=1)).to_have_text("Your password is set")
    log_in_with_the_form(ann, "ann", NEW_PASSWORD)
    expect(ann).to_have_url(re.compile(r"/clubs/$"))
    screenshot(ann, "evening-7-back-in")

    # The standings: rank, player, games won, per deal and went out, all on the screen.
    ann.goto(f"/seasons/{club.seasons.get().pk}/")
    expect(ann.locator("#standings tbody tr")).to_have_count(5)
    first = ann.locator("#standings tbody tr").first
    expect(first.locator("th")).to_have_text("Ann")
    headings = ann.locator("#standings thead th").all()
    on_screen = [
        re.sub(r"[▲▼]", "", th.inner_text()).strip() for th in headings if within_the_screen(th)
    ]
    assert on_screen[:5] == DECIDING, on_screen  # short names leave room for more
    assert all(within_the_screen(cell) for cell in first.locator("th, td").all()[:5])
    cells = [cell.inner_text().split("\n")[0] for cell in first.locator("th, td").all()[:5]]
    assert cells == ["1", "Ann", "1", "0.00", "3"]  # (the rank's "(leader)" is for screen readers)
    dee = ann.locator("#standings tbody tr").filter(has=ann.get_by_role("rowheader", name="Dee"))
    assert dee.locator(".col-wins").inner_text() == "1"  # won last week, as "Dea"
    assert ann.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(ann, "evening-8-standings")
    phone_screen(ann, "standings-phone", ann.locator("#standings-title"))

    for page in (owner, ann, bo_phone):
        page.context.close()
