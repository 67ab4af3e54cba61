"""At 390x844: an open-ended match tied for lowest, ended by the table with the win shared.
"End match" on the tie brings the choice ("Play one more deal", or "End match: Ann and Ben share
the win"); with scripts or without, the second ends the match and the page says who shares the
win."""

import pytest
from playwright.sync_api import expect

from tests.browser.a11y import assert_accessible, small_targets
from tests.browser.phone import log_in, screenshot
from tests.browser.scorekeeping import fill, log_in_to_game, swap
from tests.factories import make_club, make_ruled_game, make_user, record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHARE = "End match: Ann and Ben share the win"


def an_open_match():
    """An open-ended match after one deal: Ann 0, Ben, Cy and Dee 5 each."""
    game = make_ruled_game("open-ended", club=make_club(make_user("ann")))
    record(game, 0, 5, 5, 5)
    return game


def test_a_tied_match_ended_with_the_win_shared(phone):
    page = phone
    game = an_open_match()
    log_in_to_game(page, game)
    expect(page.get_by_role("button", name="End match", exact=True)).to_be_visible()

    # Deal 2: Ben goes out, Ann holds 5: Ann and Ben on 5, Cy and Dee on 10.
    page.get_by_role("button", name="Ben went out").click()
    fill(page, {"Ann": "5", "Cy": "5", "Dee": "5"})
    swap(page, lambda: page.get_by_role("button", name="Record deal").click())

    end = page.get_by_role("button", name="End match", exact=True)
    expect(end).to_be_visible()  # while it is played, a tie is no concern of End match
    end.click()

    choice = page.locator(".end-match")
    expect(choice).to_contain_text("Ann and Ben are tied for lowest on 5.")
    share = page.get_by_role("button", name=SHARE)
    expect(share).to_have_accessible_description(
        "Ann and Ben are tied for lowest on 5. Ending the match now shares the win between"
        " them; one more deal may settle it."
    )
    expect(share).to_be_in_viewport()  # the choice opens the answer, above the deal form
    screenshot(page, "game-tied-end-match-choice")
    assert not small_targets(page)

    # "Play one more deal" ends nothing: it goes back to the deal form.
    page.get_by_role("link", name="Play one more deal").click()
    expect(page.get_by_role("button", name="Record deal")).to_be_in_viewport()
    game.refresh_from_db()
    assert not game.is_finished

    page.get_by_role("button", name="End match", exact=True).click()
    share.click()
    expect(page.get_by_role("heading", name="Ann and Ben share the win with 5")).to_be_visible()
    expect(page.get_by_text("The match is over.")).to_be_visible()
    expect(page.locator("#deal-form")).to_have_count(0)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "game-win-shared")
    game.refresh_from_db()
    assert game.is_finished and game.win_shared


def test_without_javascript_the_tie_is_ended_with_the_win_shared(phone_without_js):
    page = phone_without_js
    game = an_open_match()
    record(game, 5, 0, 5, 5)
    log_in_to_game(page, game)

    page.get_by_role("button", name="End match", exact=True).click()
    expect(page.locator(".end-match")).to_contain_text("Ann and Ben are tied for lowest on 5.")
    page.get_by_role("button", name=SHARE).click()

    expect(page.get_by_role("heading", name="Ann and Ben share the win with 5")).to_be_visible()
    page.goto(f"/clubs/{game.club_id}/")
    expect(page.get_by_text("Ann and Ben shared the win")).to_be_visible()


def test_the_choice_and_the_shared_win_pass_axe(a11y_phone, live_server):
    page = a11y_phone
    game = an_open_match()
    record(game, 5, 0, 5, 5)
    log_in(page, game.club.owner, live_server.url)
    page.goto(f"/games/{game.pk}/")
    page.get_by_role("button", name="End match", exact=True).click()
    expect(page.get_by_role("button", name=SHARE)).to_be_visible()
    assert_accessible(page, f"tied open-ended match ({page.color_scheme})")
    page.get_by_role("button", name=SHARE).click()
    expect(page.get_by_text("The match is over.")).to_be_visible()
    # Shown again without the one-time notice, whose list base.html marks role="status".
    page.reload()
    expect(page.get_by_role("heading", name="Ann and Ben share the win with 5")).to_be_visible()
    assert_accessible(page, f"win shared ({page.color_scheme})")
