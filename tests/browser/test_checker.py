"""The hand checker in Chromium at 390x844."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.phone import open_phone, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def tap(page, code: str) -> None:
    page.locator(f"#pick-{code}").click()
    expect(page.locator(f"#pick-{code}")).to_have_attribute("aria-pressed", "true")


def test_tap_a_flush_and_a_straight_and_see_the_verdict(phone):
    phone.goto("/check/")
    for code in ("3H", "5H", "6H", "7H", "9H"):
        tap(phone, code)
    phone.get_by_role("radio", name="Hand B").check()
    for code in ("4C", "5D", "6S", "7C", "8D"):
        tap(phone, code)
    expect(phone.locator("#hand-a-status")).to_contain_text("Flush")
    expect(phone.locator("#hand-b-status")).to_contain_text("Straight")
    expect(phone.locator(".verdict h2")).to_have_text("A beats B")
    # A card already in hand A can't be picked for hand B.
    expect(phone.locator("#pick-3H")).to_be_disabled()
    assert "a=3H" in phone.url
    screenshot(phone, "checker")


def test_typing_a_hand_changes_its_name(phone):
    phone.goto("/check/")
    field = phone.get_by_role("textbox", name="Hand A")
    field.fill("9s")
    expect(phone.locator("#hand-a-status")).to_contain_text("Single")
    field.type(" 9d")
    expect(phone.locator("#hand-a-status")).to_contain_text("Pair")
    field.type(" 4c 4h")
    expect(phone.locator("#hand-a-status")).to_contain_text("Not a play")
    # The field being typed in is never replaced, so the typing is never interrupted.
    expect(field).to_be_focused()
    expect(field).to_have_value("9s 9d 4c 4h")


def test_a_shared_url_reloads_to_the_same_verdict(phone):
    phone.goto("/check/?a=AS+2D+3C+4H+5D&b=2C+3D+4S+5H+6C")
    expect(phone.locator(".verdict h2")).to_have_text("B beats A")
    reason = phone.locator(".verdict-reason").inner_text()
    phone.reload()
    expect(phone.locator(".verdict h2")).to_have_text("B beats A")
    expect(phone.locator(".verdict-reason")).to_have_text(reason)


def test_the_checker_works_without_javascript(phone_without_js):
    page = phone_without_js
    page.goto("/check/")
    page.get_by_role("textbox", name="Hand A").fill("5d 5c 5h 5s 2s")
    page.get_by_role("textbox", name="Hand B").fill("6d 6c 6h 6s 3d")
    page.get_by_role("button", name="Check").click()
    expect(page.locator(".verdict h2")).to_have_text("B beats A")
    # 3♦ is in hand B, so it cannot be tapped into hand A.
    expect(page.locator("#pick-3D")).to_be_disabled()
    page.get_by_role("textbox", name="Hand A").fill("")
    page.get_by_role("textbox", name="Hand B").fill("")
    page.get_by_role("button", name="Check").click()
    # Tapping a card reloads the page at a shareable address.
    page.locator("#pick-9S").click()
    expect(page).to_have_url(re.compile(r"/check/\?a=9S$"))
    expect(page.locator("#hand-a-status")).to_contain_text("Single")


def in_viewport(box: dict, height: int = 844) -> bool:
    return box["y"] > -1 and box["y"] + box["height"] < height + 1  # to the pixel


def test_tapping_cards_moves_nothing_and_keeps_the_verdict_in_sight(phone):
    """At 390x844: with the picker scrolled into view, every tap leaves it where it was (no
    jump to find the next card), and what the hands are and which beats which stay on screen
    beside it."""
    page = phone
    page.goto("/check/")
    page.locator("#picker").evaluate("p => p.scrollIntoView({block: 'start'})")
    place = page.locator("#picker").bounding_box()
    assert in_viewport(place), place
    taps = [("a", code) for code in ("3H", "5H", "6H", "7H", "9H")]
    taps += [("b", code) for code in ("4C", "5D", "6S", "7C", "8D")]
    for hand, code in taps:
        if hand == "b" and page.get_by_role("radio", name="Hand A").is_checked():
            page.get_by_role("radio", name="Hand B").check()
        tap(page, code)
        box = page.locator("#picker").bounding_box()
        assert abs(box["y"] - place["y"]) < 1 and box["height"] == place["height"], (
            f"the picker moved at {code}: {place} → {box}"
        )
        bar = page.locator(".verdict-bar")
        expect(bar).to_be_in_viewport(ratio=1)
        expect(page.locator(f"#hand-{hand}-status")).not_to_contain_text("No cards yet")
    expect(page.locator(".verdict h2")).to_have_text("A beats B")
    expect(page.locator(".verdict h2")).to_be_in_viewport(ratio=1)
    screenshot(page, "checker-tapping")


def test_the_verdict_bar_stays_in_sight_while_the_picker_runs_below_the_screen(phone):
    """Without scrolling first, the picker's lower rows are below the screen: the verdict bar
    keeps to the bottom of the screen, over them, until the picker is scrolled up."""
    page = phone
    page.goto("/check/?a=3H+5H+6H+7H+9H")
    page.get_by_role("radio", name="Hand B").check()
    for code in ("4C", "3D"):  # in the rows on the screen
        tap(page, code)
    assert page.evaluate("scrollY") == 0
    picker = page.locator("#picker").bounding_box()
    assert picker["y"] < 844 < picker["y"] + picker["height"], picker
    bar = page.locator(".verdict-bar")
    expect(bar).to_be_in_viewport(ratio=1)
    expect(bar).to_contain_text("Flush")
    expect(bar).to_contain_text("Not a play")


def test_with_text_at_200_percent_the_bar_stays_under_the_picker(browser, live_server):
    """There the bar would cover most of the screen and most of the cards: it keeps its place
    under the picker instead."""
    page = open_phone(browser, live_server)  # lets the test's own style in, past the CSP
    page.goto("/check/?a=3H+5H+6H+7H+9H&b=4C+5D+6S+7C+8D")
    page.add_style_tag(content="html { font-size: 200% !important; }")
    page.locator("#picker").evaluate("p => p.scrollIntoView({block: 'start'})")
    picker = page.locator("#picker").bounding_box()
    bar = page.locator(".verdict-bar").bounding_box()
    assert bar["y"] >= picker["y"] + picker["height"], (picker, bar)
    page.context.close()
