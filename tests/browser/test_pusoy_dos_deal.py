"""Issue 29, item 2, at 390x844: a Pusoy Dos table records a deal without typing counts its
scoring never uses. The score is 1, 2, 4, 8 or 16 from the twos of the last play, so the deal
form asks who went out and those twos, nothing else; with JavaScript and without, and clean
under axe in the light and dark colour schemes."""

import pytest
from playwright.sync_api import expect

from tests.browser.a11y import assert_accessible, small_targets
from tests.browser.phone import log_in, screenshot
from tests.browser.scorekeeping import log_in_to_game, swap
from tests.factories import make_club, make_ruled_game, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PUSOY = "pusoy-dos-suits,pusoy-dos-scoring"


def pusoy_dos_game():
    return make_ruled_game(PUSOY, club=make_club(make_user("ann")))


def test_a_pusoy_dos_deal_is_who_went_out_and_the_twos_of_the_last_play(phone):
    page = phone
    game = pusoy_dos_game()
    log_in_to_game(page, game)
    expect(page.locator(".deal-fields > legend")).to_contain_text("who went out")
    expect(page.locator("input[name^=cards_]")).to_have_count(0)

    page.get_by_role("radio", name="Ben went out").check()
    expect(page.locator("#preview-0")).to_have_text("+1 → 1")
    expect(page.locator("#preview-1")).to_have_text("went out: 0")
    expect(page.locator("#deal-hint")).to_have_text(
        "Ben went out. Now say how many twos were in the last play, then tap “Record deal”."
    )
    question = page.get_by_role("group", name="How many twos were in the last play?")
    question.get_by_label("1", exact=True).check()
    expect(page.locator("#preview-2")).to_have_text("+2 → 2")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "deal-pusoy-dos-who-went-out")

    swap(page, lambda: page.get_by_role("button", name="Record deal").click())
    expect(page.locator(".scores tfoot td")).to_have_text(["2", "★ 0 (lowest)", "2", "2"])
    row = page.locator(".scores tbody tr").first
    expect(row).to_contain_text("went out on a two")
    expect(row).to_contain_text("the winner earned 2")
    # The next deal: nobody marked out yet.
    expect(page.get_by_role("radio", name="Ben went out")).not_to_be_checked()
    screenshot(page, "deal-pusoy-dos-recorded")


def test_a_pusoy_dos_deal_without_javascript(phone_without_js):
    page = phone_without_js
    game = pusoy_dos_game()
    log_in_to_game(page, game)
    # Sent without anyone marked out: the form says what is missing.
    page.get_by_role("button", name="Record deal").click()
    expect(page.get_by_role("alert")).to_contain_text("Say who went out")
    page.get_by_role("radio", name="Cy went out").check()
    page.get_by_role("group", name="How many twos were in the last play?").get_by_label(
        "2", exact=True
    ).check()
    page.get_by_role("button", name="Record deal").click()
    expect(page.get_by_text("Deal 1 recorded.")).to_be_visible()
    expect(page.locator(".scores tfoot td")).to_have_text(["4", "4", "★ 0 (lowest)", "4"])


def test_the_pusoy_dos_deal_form_passes_axe_and_fits_a_finger(a11y_phone, live_server):
    page = a11y_phone
    game = pusoy_dos_game()
    log_in(page, game.club.owner, live_server.url)
    page.goto(f"/games/{game.pk}/")
    page.get_by_role("radio", name="Dee went out").check()
    assert_accessible(page, f"Pusoy Dos deal form ({page.color_scheme})")
    assert small_targets(page) == []
    screenshot(page, f"deal-pusoy-dos-{page.color_scheme}")
