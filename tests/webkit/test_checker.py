"""The hand checker in WebKit, the engine of every iPhone browser: cards tapped into two hands,
each named as it grows, and which beats which."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.webkit, pytest.mark.django_db(transaction=True)]


def tap(phone, code: str) -> None:
    """Tap a card, and wait until the page's answer shows it in the hand."""
    phone.click(f"#pick-{code}")
    phone.until(
        lambda: phone.find(f"#pick-{code}").get_attribute("aria-pressed") == "true",
        f"{code} in the hand",
    )


def test_tap_a_flush_and_a_straight_and_see_which_beats_which(phone):
    phone.open("/check/")
    for code in ("3H", "5H", "6H", "7H", "9H"):
        tap(phone, code)
    phone.shows("#hand-a-status", "Flush")
    phone.choice("Hand B").click()
    # The server's answer: hand A's cards can't be picked for B.
    phone.until(lambda: not phone.find("#pick-3H").is_enabled(), "hand B chosen")
    for code in ("4C", "5D", "6S", "7C", "8D"):
        tap(phone, code)
    phone.shows("#hand-b-status", "Straight")
    phone.shows(".verdict h2", "A beats B")
    assert "a=3H" in phone.driver.current_url
    phone.screenshot("checker")
