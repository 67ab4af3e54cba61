"""What can I play? and Split a hand, in Chromium at 390x844."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.a11y import serious_violations, small_targets
from tests.browser.phone import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HAND = "3d 4c 5h 6s 7d 7c 9h 9s jd qd kc 2s 2h"


def fits_the_phone(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways: {width}px wide"


def test_typing_a_hand_and_a_table_play_lists_what_beats_it(phone):
    phone.goto("/play/")
    phone.get_by_role("textbox", name="Your hand").fill(HAND)
    phone.get_by_role("textbox", name="On the table").fill("8d 8s")
    expect(phone.locator(".answer-summary")).to_have_text("2 plays beat that pair of 8s")
    expect(phone.locator(".play-groups h3")).to_have_text(["Pairs (2)"])
    expect(phone.locator(".play-link")).to_have_count(2)
    fits_the_phone(phone)
    screenshot(phone, "play")
    # Tapping a play puts it into the hand checker, against the table.
    phone.locator(".play-link").first.click()
    expect(phone).to_have_url(re.compile(r"/check/\?a=9H\+9S&b=8D\+8S$"))
    expect(phone.get_by_role("textbox", name="Hand A")).to_have_value("9H 9S")
    expect(phone.get_by_role("textbox", name="Hand B")).to_have_value("8D 8S")
    expect(phone.locator(".verdict h2")).to_have_text("A beats B")


def test_a_lead_lists_every_kind_and_the_house_rules_change_the_answer(phone):
    phone.goto("/play/?hand=9d+5c&table=9s")
    expect(phone.locator(".answer-summary")).to_have_text(
        "Nothing in your hand beats that 9♠: pass"
    )
    phone.locator(".house-rules summary").click()
    phone.get_by_label("Suit order").select_option("pusoy-dos-suits")
    expect(phone.locator(".answer-summary")).to_have_text("1 play beats that 9♠")
    expect(phone).to_have_url(re.compile(r"rules=pusoy-dos-suits"))
    expect(phone.locator(".rules-in-force")).to_contain_text("Pusoy Dos suits")
    # The link into the checker keeps the rules, and the checker agrees.
    phone.locator(".play-link").first.click()
    expect(phone.locator(".verdict h2")).to_have_text("A beats B")
    expect(phone.locator(".verdict-reason")).to_contain_text("Pusoy Dos order")
    expect(phone.get_by_label("Suit order")).to_have_value("pusoy-dos-suits")


def test_picking_a_hand_and_a_table_without_javascript(phone_without_js):
    page = phone_without_js
    page.goto("/play/")
    for code in ("9H", "9S", "2D"):
        page.locator(f"#pick-{code}").click()
        expect(page.locator(f"#pick-{code}")).to_have_attribute("aria-pressed", "true")
    page.get_by_text("The table", exact=True).click()
    page.get_by_role("button", name="Show my plays").click()
    for code in ("8D", "8C"):
        page.locator(f"#pick-{code}").click()
    expect(page).to_have_url(re.compile(r"/play/\?hand=9H\+9S\+2D&table=8D\+8C&into=table$"))
    expect(page.locator(".play-groups h3")).to_have_text(["Pairs (1)"])
    # A card in your hand can't be put on the table too.
    expect(page.locator("#pick-9H")).to_be_disabled()
    page.locator(".play-link").first.click()
    expect(page.locator(".verdict h2")).to_have_text("A beats B")


def test_a_thirteen_card_hand_splits_a_way_per_goal(phone):
    """Keep the pair of 2s and leave a 7 alone, or spend a 2 in the straight and leave no low
    card: two ways, each saying what it is good for and what it leaves, in words."""
    phone.goto("/split/")
    phone.get_by_role("textbox", name="Your 13 cards").fill(HAND)
    expect(phone.locator(".arrangement h2")).to_have_text(
        ["Way 1: Fewest plays · Keep your 2s and aces", "Way 2: Fewest low singles"]
    )
    expect(phone.locator(".way-facts").first).to_have_text(
        "7 plays · 4 singles: 1 low (7♣), 3 high · Kept for control: 2♥ 2♠"
        " · 5 cards in five-card hands: straight"
    )
    expect(phone.locator(".scoring-notes")).to_contain_text("What each way is after")
    fits_the_phone(phone)
    screenshot(phone, "split")


def test_tapping_the_thirteenth_card_splits_the_hand(phone):
    phone.goto("/split/?hand=3d+4c+5h+6s+7d+7c+9h+9s+jd+qd+kc+2s")
    expect(phone.locator(".answer-summary")).to_have_text("You have 12 cards: a hand is 13 — add 1")
    phone.locator("#pick-2H").click()
    expect(phone.locator(".arrangement")).to_have_count(2)
    expect(phone.get_by_role("textbox", name="Your 13 cards")).to_have_value(
        "3D 4C 5H 6S 7D 7C 9H 9S JD QD KC 2S 2H"
    )


def test_the_house_rules_open_on_the_checker_and_fit_the_phone(phone):
    phone.goto("/check/?a=9d&b=9s&rules=pusoy-dos")
    expect(phone.locator(".house-rules")).to_have_attribute("open", "")
    expect(phone.locator(".verdict h2")).to_have_text("A beats B")
    fits_the_phone(phone)
    screenshot(phone, "checker-house-rules")


@pytest.mark.parametrize(
    "path",
    [
        "/play/?hand=3d+4c+5h+6s+7d+7c+9h+9s+jd+qd+kc+2s+2h&table=8d+8s&rules=pusoy-dos",
        "/play/?hand=4c&first=1",
        "/split/?hand=3d+4c+5h+6s+7d+7c+9h+9s+jd+qd+kc+2s+2h",
        "/split/?hand=3d+zz",
    ],
)
def test_the_helpers_pass_the_accessibility_checks(a11y_phone, path):
    a11y_phone.goto(path)
    a11y_phone.evaluate("document.querySelector('.house-rules').open = true")  # check them too
    name = f"{path} ({a11y_phone.color_scheme})"
    assert serious_violations(a11y_phone, name) == []
    assert small_targets(a11y_phone) == []
    fits_the_phone(a11y_phone)
