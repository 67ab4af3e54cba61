"""Keeping the score of a whole game in Chromium at 390x844, as a newcomer would."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.phone import arrive, screenshot
from tests.browser.scorekeeping import swap
from tests.factories import PASSWORD, PLAYERS, make_club, make_game, make_user, record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def enter_deal(page, cards: dict[str, int], went_out: str | None = None) -> None:
    """Type each player's cards left; tap "Went out" for `went_out` instead of typing 0."""
    for name, count in cards.items():
        page.get_by_label(name, exact=True).fill(str(count))
    if went_out:
        # Filled in on the phone, no request (the server does it only without JavaScript).
        page.get_by_role("button", name=f"{went_out} went out").click()
        expect(page.get_by_label(went_out, exact=True)).to_have_value("0")
    swap(page, lambda: page.get_by_role("button", name="Record deal").click())


def test_score_a_game_from_sign_up_to_the_winner(phone):
    page = phone
    # Scripts refused by the Content Security Policy would mean broken htmx: like any other
    # error on the console, the `console_errors` fixture (tests/browser/conftest.py) fails it.
    page.goto("/")
    page.get_by_role("link", name="Sign up").first.click()
    screenshot(page, "signup")
    page.get_by_label("Username").fill("ann")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()

    page.get_by_label("Name").fill("Friday table")
    page.get_by_role("button", name="Create club").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Friday table")

    screenshot(page, "club")
    page.get_by_role("link", name="New game").click()
    for seat, name in enumerate(PLAYERS, start=1):
        page.get_by_label(f"Seat {seat}").fill(name)
    screenshot(page, "new-game")
    page.get_by_role("button", name="Start game").click()
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    expect(page.locator(".deal-no")).to_have_text("Deal 1")
    # The whole deal form fits on the phone's screen.
    record_button = page.get_by_role("button", name="Record deal")
    assert record_button.bounding_box()["y"] + record_button.bounding_box()["height"] <= 844

    # The penalty shows before saving: ten cards cost twenty.
    page.get_by_label("Cy", exact=True).fill("10")
    expect(page.locator("#preview-2")).to_have_text("+20 → 20")

    enter_deal(page, {"Ben": 13, "Cy": 13, "Dee": 5}, went_out="Ann")
    expect(page.locator(".deal-no")).to_have_text("Deal 2")
    expect(page.get_by_role("status").filter(has_text="Deal 1 recorded.")).to_be_visible()

    # Two players at 0 is refused, the typed values stay.
    enter_deal(page, {"Ann": 0, "Ben": 13, "Cy": 13, "Dee": 0})
    expect(page.get_by_role("alert")).to_contain_text(
        "Only one player can go out in a deal — Ann and Dee both have 0"
    )
    expect(page.get_by_label("Ben", exact=True)).to_have_value("13")
    screenshot(page, "deal-refused")
    enter_deal(page, {"Ann": 5, "Ben": 13, "Cy": 13}, went_out="Dee")

    enter_deal(page, {"Ann": 1, "Cy": 13, "Dee": 1}, went_out="Ben")
    expect(page.locator(".banner-tied")).to_have_text(
        "Ann and Dee are tied for lowest on 6 — play another deal"
    )
    expect(page.get_by_role("button", name="Record deal")).to_be_visible()
    screenshot(page, "game-in-progress")

    # A slip: Dee marked as out instead of Ann, which ends the game with the wrong winner.
    enter_deal(page, {"Ann": 2, "Ben": 1, "Cy": 1}, went_out="Dee")
    expect(page.locator(".banner-finished h2")).to_contain_text("Dee wins with 6")
    expect(page.get_by_role("button", name="Record deal")).to_have_count(0)

    # Undo it, with a confirmation first.
    page.get_by_role("link", name="Undo deal 4").click()
    expect(page.get_by_role("button", name="Yes, undo deal 4")).to_be_visible()
    screenshot(page, "undo-confirm")
    swap(page, lambda: page.get_by_role("button", name="Yes, undo deal 4").click())
    expect(page.get_by_role("status").filter(has_text="Deal 4 undone.")).to_be_visible()
    expect(page.locator(".banner-tied")).to_be_visible()

    enter_deal(page, {"Ben": 1, "Cy": 1, "Dee": 2}, went_out="Ann")
    expect(page.locator(".banner-finished h2")).to_contain_text("Ann wins with 6")

    # Fix deal 1. Dee holding 4, not 5, would have ended the game after deal 3: refused.
    page.get_by_role("link", name="Edit deal 1").click()
    expect(page.get_by_label("Dee", exact=True)).to_have_value("5")
    page.get_by_label("Dee", exact=True).fill("4")
    page.get_by_role("button", name="Save changes").click()
    expect(page.get_by_role("alert")).to_contain_text(
        "With this change the game would have ended after deal 3, but 4 deals are recorded"
    )
    screenshot(page, "edit-refused")
    # The real slip: Ben had 12 cards left, not 13.
    page.get_by_label("Dee", exact=True).fill("5")
    page.get_by_label("Ben", exact=True).fill("12")
    page.get_by_role("button", name="Save changes").click()
    expect(page.get_by_text("Deal 1 changed.")).to_be_visible()

    expect(page.locator(".banner-finished")).to_contain_text("Ann wins with 6")
    expect(page.locator(".banner-finished")).to_contain_text(
        "Final totals: Ann 6, Ben 64, Cy 118, Dee 8"
    )
    expect(page.get_by_role("img", name="Running totals after each deal")).to_be_visible()
    history = page.locator(".history-list")
    expect(history).to_contain_text("ann changed deal 1 from 0 13 13 5 to 0 12 13 5")
    expect(history).to_contain_text("ann undid deal 4")
    screenshot(page, "game-finished")


def test_a_deal_is_recorded_with_javascript_off(phone_without_js):
    page = phone_without_js
    game = make_game(make_club(make_user("ben"), name="Sunday table"))

    page.goto(f"/games/{game.pk}/")
    expect(page).to_have_url(re.compile(r"/accounts/login/\?next="))
    page.get_by_label("Username").fill("ben")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    arrive(page, f"/games/{game.pk}/")

    page.get_by_label("Ann", exact=True).fill("3")
    page.get_by_label("Ben", exact=True).fill("10")
    # "Went out" reloads the form with Cy at 0 and the other numbers kept; nothing is saved.
    page.get_by_role("button", name="Cy went out").click()
    expect(page.get_by_label("Cy", exact=True)).to_have_value("0")
    expect(page.get_by_label("Ben", exact=True)).to_have_value("10")
    expect(page.locator("#preview-1")).to_have_text("+20 → 20")
    page.get_by_label("Dee", exact=True).fill("13")
    page.get_by_role("button", name="Record deal").click()

    expect(page).to_have_url(re.compile(rf"/games/{game.pk}/$"))
    expect(page.get_by_text("Deal 1 recorded.")).to_be_visible()
    expect(page.locator(".deal-no")).to_have_text("Deal 2")
    expect(page.locator(".scores tfoot td")).to_have_text(["3", "20", "★ 0 (lowest)", "39"])
    assert game.deals.count() == 1


def test_long_names_and_a_long_game_still_fit_the_phone_width(phone):
    page = phone
    club = make_club(make_user("cy"), name="A club with a rather long name indeed")
    names = [
        "Maximilian Alexander von Habsburg-Lothri",
        "Bartholomew",
        "Cy",
        "Wilhelmina Featherstonehaugh",
    ]
    game = make_game(club, names)
    for number in range(1, 15):
        cards = [1, 2, 3, 4]
        cards[number % 4] = 0
        record(game, *cards)

    page.goto(f"/accounts/login/?next=/games/{game.pk}/")
    page.get_by_label("Username").fill("cy")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".deal-no")).to_have_text("Deal 15")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    record_button = page.get_by_role("button", name="Record deal")
    assert record_button.bounding_box()["y"] + record_button.bounding_box()["height"] <= 844
    screenshot(page, "game-long-names")


def test_what_the_page_said_on_loading_goes_once_a_deal_is_recorded(phone):
    """ "Deal 1 changed." is over once deal 2 is recorded: it doesn't sit above its notice."""
    page = phone
    club = make_club(make_user("cy"))
    game = make_game(club)
    record(game, 0, 5, 10, 13)
    page.goto(f"/accounts/login/?next=/games/{game.pk}/deals/1/edit/")
    page.get_by_label("Username").fill("cy")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.get_by_label(PLAYERS[3], exact=True).fill("12")
    page.get_by_role("button", name="Save changes").click()
    arrive(page, f"/games/{game.pk}/")
    expect(page.locator(".messages")).to_have_text("Deal 1 changed.")

    enter_deal(page, {PLAYERS[0]: 3, PLAYERS[2]: 1, PLAYERS[3]: 2}, went_out=PLAYERS[1])
    expect(page.get_by_role("status").filter(has_text="Deal 2 recorded.")).to_be_visible()
    expect(page.locator(".messages")).to_have_count(0)
    expect(page.get_by_text("Deal 1 changed.")).to_have_count(0)
