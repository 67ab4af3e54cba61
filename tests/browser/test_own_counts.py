"""A game played with own counts at 390x844: a player's own form on the game page, sent, and
the page saying whose figures are in and who the table waits for. (The phones following each
other's figures live, and a whole game played so, are the phone side's.)"""

import pytest
from playwright.sync_api import expect

from tests.browser.a11y import assert_accessible
from tests.browser.phone import arrive, log_in, screenshot
from tests.scoring.own.helpers import member, own_game, send

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_sends_their_own_cards_from_the_game_page(a11y_phone, live_server):
    game = own_game()
    send(game, 2, 7)
    log_in(a11y_phone, member(game, 0), live_server.url)
    a11y_phone.goto(f"/games/{game.pk}/")
    arrive(a11y_phone, f"/games/{game.pk}/")
    assert_accessible(a11y_phone, "own-counts-form")
    a11y_phone.get_by_label("Your cards left").fill("5")
    a11y_phone.get_by_role("button", name="Send", exact=True).click()
    expect(a11y_phone.get_by_text("Waiting for ben and dee")).to_be_visible()
    expect(a11y_phone.get_by_text("ann: 5")).to_be_visible()
    assert_accessible(a11y_phone, "own-counts-sent")
    screenshot(a11y_phone, "own-counts-sent")
