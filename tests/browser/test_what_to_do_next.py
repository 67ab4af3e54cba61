"""Issue 29 at 390x844: "Went out" shows whom it marked, and the hint what to do next, as the
phone marks a player itself (item 4); a tie is said above the deal form, where the scorekeeper
looks, and the hint no longer says the game ends at a target already passed (item 9)."""

import pytest
from playwright.sync_api import expect

from tests.browser.a11y import assert_accessible
from tests.browser.phone import log_in, screenshot
from tests.browser.scorekeeping import log_in_to_game
from tests.factories import make_club, make_game, make_user, record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def a_game():
    return make_game(make_club(make_user("ann")))


def tick(page, name: str) -> str:
    """What is drawn before the words of a player's "Went out" (CSS ::before)."""
    button = page.get_by_role("button", name=f"{name} went out")
    return button.evaluate("b => getComputedStyle(b, '::before').content")


def test_went_out_shows_whom_it_marked_and_what_comes_next(phone):
    page = phone
    game = a_game()
    log_in_to_game(page, game)
    hint = page.locator("#deal-hint")
    expect(hint).to_have_text(
        "Tap “Went out” for the player who played their last card. The game ends once anyone"
        " reaches 100."
    )
    page.get_by_label("Ann", exact=True).fill("4")
    page.get_by_role("button", name="Ben went out").click()
    expect(page.get_by_label("Ben", exact=True)).to_have_value("0")
    expect(page.get_by_role("button", name="Ben went out")).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(page.get_by_role("button", name="Ann went out")).to_have_attribute(
        "aria-pressed", "false"
    )
    assert "✓" in tick(page, "Ben") and "✓" not in tick(page, "Ann")  # not colour alone
    expect(hint).to_have_text(
        "Ben went out. Now type the cards left by the others, then tap “Record deal”."
    )
    screenshot(page, "deal-went-out-marked")
    # A 0 typed for Cy instead: the mark and the hint follow.
    page.get_by_label("Ben", exact=True).fill("3")
    page.get_by_label("Cy", exact=True).fill("0")
    expect(page.get_by_role("button", name="Cy went out")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_role("button", name="Ben went out")).to_have_attribute(
        "aria-pressed", "false"
    )
    expect(hint).to_contain_text("Cy went out. Now type the cards left by the others")


def test_went_out_without_javascript_says_the_same(phone_without_js):
    page = phone_without_js
    game = a_game()
    log_in_to_game(page, game)
    page.get_by_role("button", name="Dee went out").click()
    expect(page.get_by_label("Dee", exact=True)).to_have_value("0")
    expect(page.get_by_role("button", name="Dee went out")).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(page.locator("#deal-hint")).to_have_text(
        "Dee went out. Now type the cards left by the others, then tap “Record deal”."
    )


def tied_past_the_target():
    """Ben and Cy tied for lowest on 40, Dee on 117: past the target, play goes on."""
    game = a_game()
    record(game, 13, 0, 1, 13)
    record(game, 13, 1, 0, 13)
    record(game, 0, 13, 13, 13)
    return game


def test_a_tie_is_said_above_the_form(phone):
    page = phone
    game = tied_past_the_target()
    log_in_to_game(page, game)
    banner = page.get_by_role("status").filter(has_text="are tied for lowest")
    expect(banner).to_have_text("Ben and Cy are tied for lowest on 40 — play another deal")
    expect(page.locator(".banner-tied")).to_have_count(1)
    form = page.locator("#deal-form")
    assert banner.bounding_box()["y"] < form.bounding_box()["y"]
    # Seen on the first screen, before any scrolling.
    assert banner.bounding_box()["y"] + banner.bounding_box()["height"] <= 844
    hint = page.locator("#deal-hint")
    expect(hint).not_to_contain_text("reaches 100")
    expect(hint).to_have_text(
        "Tap “Went out” for the player who played their last card. The game ends after the"
        " first deal that leaves one player lowest alone."
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "game-tied-banner-above-the-form")


def test_the_tied_game_page_passes_axe(a11y_phone, live_server):
    page = a11y_phone
    game = tied_past_the_target()
    log_in(page, game.club.owner, live_server.url)
    page.goto(f"/games/{game.pk}/")
    expect(page.locator(".banner-tied")).to_be_visible()
    assert_accessible(page, f"tied game ({page.color_scheme})")
