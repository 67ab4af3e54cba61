"""At 390x844: a club night's game with a clock. The page says when the round ends and counts the
minutes down; when the time comes it says, without a reload, that the next deal is the last; and
that deal, recorded, ends the game with the lowest total winning. The phone's time is moved on by
Playwright's clock (`hold_the_clock`), never waited for."""

import datetime

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from scoring.models import Game
from tests.browser.a11y import assert_accessible
from tests.browser.phone import hold_the_clock, screenshot
from tests.browser.scorekeeping import fill, log_in_to_game, swap
from tests.factories import make_club, make_game, make_user, record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAST_DEAL = "Last deal: time is up."
TIME_UP_HINT = (
    "Tap “Went out” for the player who played their last card. Time is up: the game ends with"
    " this deal."
)


def test_the_clock_runs_out_on_the_page_and_the_next_deal_ends_the_game(phone):
    page = phone
    # The phone's clock stands a minute on from now (`hold_the_clock`): ten minutes left are nine.
    game = make_game(
        make_club(make_user("ann")), closes_at=timezone.now() + datetime.timedelta(minutes=10)
    )
    record(game, 0, 5, 5, 5)
    hold_the_clock(page)
    log_in_to_game(page, game)

    ends = page.locator("[data-clock-before]")
    expect(ends).to_be_visible()
    expect(ends).to_contain_text("Round ends at")
    expect(ends).to_contain_text("9 min left")
    last = page.get_by_role("status").filter(has_text=LAST_DEAL)
    expect(last).to_be_hidden()
    hint = page.locator("#deal-hint")
    expect(hint).to_contain_text("The game ends once anyone reaches 100.")

    page.clock.run_for(5 * 60 * 1000)
    expect(ends).to_contain_text("4 min left")
    page.clock.run_for(5 * 60 * 1000)
    expect(last).to_be_visible()
    expect(ends).to_be_hidden()
    expect(hint).to_have_text(TIME_UP_HINT)  # not "once anyone reaches 100"
    screenshot(page, "game-last-deal")

    # The server's own time decides: by now its clock has run out too.
    Game.objects.filter(pk=game.pk).update(closes_at=timezone.now())
    page.get_by_role("button", name="Ben went out").click()
    fill(page, {"Ann": "9", "Cy": "9", "Dee": "9"})
    swap(page, lambda: page.get_by_role("button", name="Record deal").click())
    expect(page.get_by_role("heading", name="Ben wins with 5")).to_be_visible()
    expect(page.locator("[data-closes-at]")).to_have_count(0)
    game.refresh_from_db()
    assert (game.is_finished, game.last_deal) == (True, 2)


def test_the_last_deal_notice_is_accessible(a11y_phone):
    page = a11y_phone
    game = make_game(
        make_club(make_user("ann")), closes_at=timezone.now() - datetime.timedelta(minutes=1)
    )
    log_in_to_game(page, game)
    expect(page.get_by_role("status").filter(has_text=LAST_DEAL)).to_be_visible()
    assert_accessible(page, f"game-last-deal-{page.color_scheme}")
