"""At the table, on a 390x844 phone: the phone's Enter key goes box by box and records the deal
from the last."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.phone import screenshot
from tests.browser.scorekeeping import fill, log_in_to_game, recorded, swap
from tests.factories import make_club, make_game, make_ruled_game, make_user, record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def game():
    """Deal 1 in."""
    game = make_game(make_club(make_user("ann")))
    record(game, 0, 1, 2, 3)
    return game


# The phone's Enter key


def test_enter_goes_box_by_box_and_records_the_deal_from_the_last(phone, game):
    page = phone
    log_in_to_game(page, game)
    hints = page.locator(".deal-rows input[type=number]").evaluate_all(
        "boxes => boxes.map((box) => box.getAttribute('enterkeyhint'))"
    )
    assert hints == ["next", "next", "next", "done"]

    page.get_by_label("Ann", exact=True).click()
    for name, count in (("Ann", "3"), ("Ben", "0"), ("Cy", "5")):
        page.keyboard.type(count)
        page.keyboard.press("Enter")
        assert recorded(game) == [[0, 1, 2, 3]], f"Enter in {name}'s box sent the deal"
    expect(page.get_by_label("Dee", exact=True)).to_be_focused()
    page.keyboard.type("7")
    screenshot(page, "enter-next-done")

    swap(page, lambda: page.keyboard.press("Enter"))

    expect(page.get_by_role("status").filter(has_text="Deal 2 recorded.")).to_be_visible()
    assert recorded(game) == [[0, 1, 2, 3], [3, 0, 5, 7]]


def test_under_the_twos_rule_the_last_player_out_makes_their_cards_box_the_last(phone):
    """Their twos box goes as their 0 is typed: Enter there records the deal."""
    game = make_ruled_game("twos-double-each", club=make_club(make_user("ann")))
    page = phone
    log_in_to_game(page, game)
    dee = page.get_by_label("Dee", exact=True)
    expect(dee).to_have_attribute("enterkeyhint", "next")
    expect(page.get_by_label("Twos in Dee's hand")).to_have_attribute("enterkeyhint", "done")
    fill(page, {"Ann": "3", "Ben": "5", "Cy": "7", "Dee": "0"})

    expect(dee).to_have_attribute("enterkeyhint", "done")
    swap(page, lambda: dee.press("Enter"))

    expect(page.get_by_role("status").filter(has_text="Deal 1 recorded.")).to_be_visible()
    assert recorded(game) == [[3, 5, 7, 0]]
