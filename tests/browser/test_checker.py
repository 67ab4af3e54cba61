"""The hand checker in Chromium at 390x844."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.phone import screenshot

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
    reason = phone.locator(".verdict p").inner_text()
    phone.reload()
    expect(phone.locator(".verdict h2")).to_have_text("B beats A")
    expect(phone.locator(".verdict p")).to_have_text(reason)


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
