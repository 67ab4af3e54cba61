"""The hand checker in Chromium at 390x844."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.phone import add_style, open_phone, screenshot, wait_until

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


def test_a_card_tapped_before_the_hand_chosen_is_heard_back_stays_in_that_hand(phone):
    """On a slow signal a thumb chooses "Hand B" and taps a card before the page has heard
    back: the tap waits for that answer, so a late answer can't take the card back out, and
    the card lands in B."""
    page = phone
    page.goto("/check/?a=3H+5H+6H+7H+9H")
    page.evaluate(SENDS_COUNTED)
    held = []  # every question to the server, kept back until the test lets it go
    page.route(re.compile(r"/check/\?"), lambda route: held.append(route))
    page.get_by_role("radio", name="Hand B").check()
    wait_until(page, lambda: len(held) == 1, "choosing hand B asked the server")
    page.locator("#pick-4C").click()
    assert page.evaluate("window.sends") == 1, "the tap was sent beside the unanswered choice"
    held[0].continue_()
    wait_until(page, lambda: len(held) == 2, "the tap asked the server once the choice was in")
    held[1].continue_()
    expect(page.locator("#pick-4C")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#hand-b-status")).to_contain_text("4♣")
    expect(page.locator("#hand-a-status")).to_contain_text("Flush")


# How many requests htmx has sent from now on, counted as each goes (`window.sends`).
SENDS_COUNTED = """() => {
    window.sends = 0;
    document.addEventListener("htmx:beforeSend", () => { window.sends += 1; });
}"""


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
    # Tapping a card reloads the page at a shareable address, opened at the cards.
    page.locator("#pick-9S").click()
    expect(page).to_have_url(re.compile(r"/check/\?a=9S#feedback$"))
    expect(page.locator("#hand-a-status")).to_contain_text("Single")


def in_viewport(box: dict, height: int = 844) -> bool:
    return box["y"] > -1 and box["y"] + box["height"] < height + 1  # to the pixel


def overlaps(one: dict, other: dict) -> bool:
    return (
        one["x"] < other["x"] + other["width"]
        and other["x"] < one["x"] + one["width"]
        and one["y"] < other["y"] + other["height"]
        and other["y"] < one["y"] + one["height"]
    )


def covered_cards(page, over: list[dict]) -> list[str]:
    """The cards of the picker on the screen that any of the boxes `over` lies across."""
    covered = []
    for card in page.locator(".pick").all():
        box = card.bounding_box()
        if box["y"] < 844 and box["y"] + box["height"] > 0 and any(overlaps(box, o) for o in over):
            covered.append(card.get_attribute("id"))
    return covered


def assert_verdict_and_reason_in_sight_over_no_card(page, verdict: str) -> None:
    expect(page.locator(".verdict h2")).to_have_text(verdict)
    heading, reason = page.locator(".verdict h2"), page.locator(".verdict-reason")
    expect(heading).to_be_in_viewport(ratio=1)
    expect(reason).to_be_in_viewport(ratio=1)
    boxes = [heading.bounding_box(), reason.bounding_box()]
    assert not covered_cards(page, boxes), f"the verdict lies over {covered_cards(page, boxes)}"


FLUSH_AND_STRAIGHT = "/check/?a=3H+5H+6H+7H+9H&b=4C+5D+6S+7C+8D"


def test_on_a_phone_the_verdict_and_its_reason_show_together_over_no_card(phone):
    """At 390x844, as a shared link opens and once the picker is scrolled into view: which beats
    which and why are on the screen together, and neither lies over a card."""
    page = phone
    page.goto(FLUSH_AND_STRAIGHT)
    assert_verdict_and_reason_in_sight_over_no_card(page, "A beats B")
    page.locator("#picker").evaluate("p => p.scrollIntoView({block: 'end'})")
    for card in page.locator(".pick").all():
        expect(card).to_be_in_viewport(ratio=1)
    assert_verdict_and_reason_in_sight_over_no_card(page, "A beats B")
    screenshot(page, "checker-verdict-and-reason")


def test_tapping_cards_moves_nothing_and_keeps_the_verdict_in_sight(phone):
    """At 390x844: with the picker scrolled into view, every tap leaves it where it was (no
    jump to find the next card), though what the hands are grows above it; once both hands
    are picked, which beats which and why are on the screen beside it."""
    page = phone
    page.goto("/check/")
    page.locator("#picker").evaluate("p => p.scrollIntoView({block: 'end'})")
    place = page.locator("#picker").bounding_box()
    assert in_viewport(place), place
    taps = [("a", code) for code in ("3H", "5H", "6H", "7H", "9H")]
    taps += [("b", code) for code in ("4C", "5D", "6S", "7C", "8D")]
    for hand, code in taps:
        if hand == "b" and page.get_by_role("radio", name="Hand A").is_checked():
            page.get_by_role("radio", name="Hand B").check()
        tap(page, code)
        expect(page.locator(f"#hand-{hand}-status")).not_to_contain_text("No cards yet")
        box = page.locator("#picker").bounding_box()
        assert abs(box["y"] - place["y"]) < 1 and box["height"] == place["height"], (
            f"the picker moved at {code}: {place} → {box}"
        )
    assert_verdict_and_reason_in_sight_over_no_card(page, "A beats B")
    screenshot(page, "checker-tapping")


def test_clear_and_swap_change_the_hands(phone):
    page = phone
    page.goto(FLUSH_AND_STRAIGHT)
    page.get_by_role("button", name="Swap A and B").click()
    expect(page.locator(".verdict h2")).to_have_text("B beats A")
    expect(page.locator("#hand-a-status")).to_contain_text("Straight")
    expect(page.locator("#hand-b-status")).to_contain_text("Flush")
    expect(page).to_have_url(re.compile(r"/check/\?a=4C\+5D\+6S\+7C\+8D&b=3H\+5H\+6H\+7H\+9H$"))
    page.get_by_role("button", name="Clear hand A").click()
    expect(page.locator("#hand-a-status")).to_contain_text("No cards yet")
    expect(page.locator("#hand-b-status")).to_contain_text("Flush")
    expect(page.locator(".verdict")).to_have_count(0)
    expect(page.get_by_role("textbox", name="Hand A")).to_have_value("")
    expect(page).to_have_url(re.compile(r"/check/\?b=3H\+5H\+6H\+7H\+9H$"))
    # Nothing left in A to clear; B still has its cards.
    expect(page.get_by_role("button", name="Clear hand A")).to_be_disabled()
    page.get_by_role("button", name="Clear hand B").click()
    expect(page.locator("#hand-b-status")).to_contain_text("No cards yet")
    expect(page.get_by_role("button", name="Swap A and B")).to_be_disabled()


def test_clear_and_swap_work_without_javascript(phone_without_js):
    page = phone_without_js
    page.goto(FLUSH_AND_STRAIGHT)
    page.get_by_role("button", name="Swap A and B").click()
    expect(page.locator(".verdict h2")).to_have_text("B beats A")
    # Back at the picker, with the verdict above it: the page doesn't open at its top again.
    assert page.evaluate("scrollY") > 0
    assert_verdict_and_reason_in_sight_over_no_card(page, "B beats A")
    page.get_by_role("button", name="Clear hand B").click()
    expect(page.locator("#hand-b-status")).to_contain_text("No cards yet")
    expect(page.locator("#hand-a-status")).to_contain_text("Straight")


def test_a_card_in_the_other_hand_says_where_it_is(phone):
    """Greyed out, it says why: "in A" on its face, "in hand A" in its name."""
    page = phone
    page.goto("/check/?a=3H+5H+6H+7H+9H&into=b")
    card = page.locator("#pick-3H")
    expect(card).to_be_disabled()
    expect(card).to_have_accessible_name("3 of hearts, in hand A")
    expect(card.locator(".holder")).to_have_text("in A")
    expect(card.locator(".holder")).to_be_visible()
    assert card.locator(".holder").evaluate("e => getComputedStyle(e).opacity") == "1"
    expect(page.locator(".held-elsewhere-note")).to_have_text(
        "Cards marked “in A” are in hand A: choose Hand A above to take one out."
    )
    expect(page.locator("#pick-4C")).to_be_enabled()
    screenshot(page, "checker-card-in-the-other-hand")


def test_with_text_at_200_percent_nothing_covers_the_cards(browser, live_server):
    """The verdict keeps its own place above the picker, however large the text."""
    page = open_phone(browser, live_server)  # lets the test's own style in, past the CSP
    page.goto(FLUSH_AND_STRAIGHT)
    add_style(page, "html { font-size: 200% !important; }")
    for block in ("start", "end"):
        page.locator("#picker").evaluate(f"p => p.scrollIntoView({{block: '{block}'}})")
        verdict = page.locator(".verdict").bounding_box()
        assert not covered_cards(page, [verdict]), covered_cards(page, [verdict])
    page.context.close()
