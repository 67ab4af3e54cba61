"""Issue 29, item 3, at 390x844: the new-season form offers named presets first, each house
rule behind "Customise"; the start date is today, and the form says which rules it starts
from. With JavaScript a preset sets the rules at once; the page passes axe light and dark."""

import datetime
import re

import pytest
from playwright.sync_api import expect

from tests.browser.a11y import assert_accessible, small_targets
from tests.browser.phone import log_in, screenshot
from tests.factories import make_club, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_season_starts_from_a_preset_in_a_screen_or_two(phone, live_server):
    page = phone
    owner = make_user("tess")
    club = make_club(owner)
    log_in(page, owner, live_server.url)
    page.goto(f"/clubs/{club.pk}/seasons/new/")
    expect(page.get_by_label("Starts on")).to_have_value(datetime.date.today().isoformat())
    starting = page.locator("#starting-point")
    expect(starting).to_have_text(
        "Starting from: this club's current season, Season 1 (Standard rules)"
    )
    # Was about 6,400 px of radio buttons: now the presets, "Customise" closed, the stake.
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height < 3 * 844, height
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "new-season-presets")

    page.get_by_role("radio", name=re.compile(r"^Pusoy Dos \(Philippines\)")).check()
    expect(starting).to_contain_text("Starting from: Pusoy Dos (Philippines)")
    page.get_by_text("Customise", exact=True).click()
    expect(page.get_by_role("radio", name=re.compile(r"^Pusoy Dos scoring"))).to_be_checked()
    expect(page.get_by_role("radio", name=re.compile(r"^Pusoy Dos suits"))).to_be_checked()
    expect(page.get_by_role("spinbutton", name="Target score")).to_have_value("15")
    page.get_by_label("Name").fill("Manila nights")
    page.get_by_role("button", name="Start season").click()
    expect(page.get_by_text("New games are played by:")).to_contain_text(
        "Pusoy Dos suits (♣ < ♠ < ♥ < ♦), Pusoy Dos scoring, to 15 points"
    )


def test_without_javascript_a_preset_is_shown_before_it_starts(phone_without_js, live_server):
    page = phone_without_js
    owner = make_user("tess")
    club = make_club(owner)
    log_in(page, owner, live_server.url)
    page.goto(f"/clubs/{club.pk}/seasons/new/")
    page.get_by_label("Name").fill("Taipei")
    page.get_by_role("radio", name=re.compile(r"^Taiwan")).check()
    page.get_by_role("button", name="Start season").click()
    expect(page.get_by_role("status")).to_contain_text("Not started yet")
    expect(page.locator("#starting-point")).to_contain_text("Starting from: Taiwan")
    expect(page.get_by_label("Name")).to_have_value("Taipei")
    page.get_by_role("button", name="Start season").click()
    expect(page.get_by_text("New games are played by:")).to_contain_text("Bridge suits")


def test_the_new_season_form_passes_axe(a11y_phone, live_server):
    page = a11y_phone
    owner = make_user("tess")
    club = make_club(owner)
    log_in(page, owner, live_server.url)
    page.goto(f"/clubs/{club.pk}/seasons/new/")
    assert_accessible(page, f"new season ({page.color_scheme})")
    assert small_targets(page) == []
    page.get_by_text("Customise", exact=True).click()
    assert_accessible(page, f"new season, customising ({page.color_scheme})")
