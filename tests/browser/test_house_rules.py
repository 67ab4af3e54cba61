"""A club that plays Pusoy Dos with the twos rule, for money, at 390x844."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.phone import log_in, screenshot
from tests.browser.scorekeeping import swap
from tests.factories import PLAYERS, make_club, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_season_of_pusoy_dos_with_the_twos_rule_played_for_money(phone, live_server):
    page = phone
    owner = make_user("tess")
    club = make_club(owner, name="Manila nights")
    log_in(page, owner, live_server.url)

    page.goto(f"/clubs/{club.pk}/seasons/new/")
    page.get_by_label("Name").fill("Pusoy Dos season")
    page.get_by_label("Starts on").fill("2027-01-01")
    page.get_by_text("Customise", exact=True).click()  # every house rule, behind a <details>
    page.get_by_role("radio", name=re.compile(r"^Pusoy Dos suits")).check()
    page.get_by_role("radio", name=re.compile(r"^Twos rule doubled")).check()
    page.get_by_role("radio", name=re.compile(r"^Open-ended")).check()
    page.get_by_label("Stake a point (optional)").fill("0.50")
    page.get_by_label("Currency (optional)").fill("PHP")
    screenshot(page, "new-season-house-rules")
    page.get_by_role("button", name="Start season").click()
    expect(page.get_by_text("New games are played by:")).to_contain_text("Pusoy Dos")

    page.goto(f"/clubs/{club.pk}/games/new/")
    for seat, name in enumerate(PLAYERS, start=1):
        page.get_by_label(f"Seat {seat}").fill(name)
    page.get_by_role("button", name="Start game").click()
    expect(page.get_by_text("Played by:")).to_contain_text("Pusoy Dos")

    # The seed's example: nine cards holding two twos, the winner out on a two: 72.
    page.get_by_label("Ben", exact=True).fill("9")
    page.get_by_label("Twos in Ben's hand").fill("2")
    page.get_by_label("Cy", exact=True).fill("4")
    page.get_by_label("Dee", exact=True).fill("1")
    page.get_by_label("Went out on twos?").check()
    page.get_by_role("button", name="Ann went out").click()
    expect(page.get_by_label("Ann", exact=True)).to_have_value("0")
    expect(page.get_by_label("Went out on twos?")).to_be_checked()
    expect(page.get_by_label("Twos in Ben's hand")).to_have_value("2")
    screenshot(page, "game-twos-rule")
    swap(page, lambda: page.get_by_role("button", name="Record deal").click())
    totals = page.locator(".scores tfoot td")
    expect(totals).to_have_text(["★ 0 (lowest)", "72", "8", "2"])

    page.get_by_role("button", name="End match").click()
    expect(page.get_by_role("heading", name="Ann wins with 0")).to_be_visible()
    expect(page.get_by_text("Ann wins 41.00 PHP")).to_be_visible()
    expect(page.get_by_text("Ben pays Ann 41.00 PHP")).to_be_visible()
    screenshot(page, "game-settled-up")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
