"""The site's strict Content Security Policy (no inline style or script) and the browser tests
that hold it: every page of every test listens for `securitypolicyviolation` (CSP_WATCH in
tests/browser/page_errors.py), and a violation fails the test as a console error does, unless
the test marks it as caused on purpose.

Issue 47: after "Record deal", 72 "Applying inline style violates ... style-src 'self'" in
bursts of 6. htmx, settling a swap, copied each old element's `style` attribute onto the new
element of the same id (its `attributesToSettle`), and the policy refused each copy: six
fields of the deal form, whenever something had set an inline style on them (a screenshot's
hidden caret, a password manager's icon), through the CSSOM, which the policy allows.
"""

import pytest
from playwright.sync_api import expect

from tests.browser.page_errors import unexpected_lines
from tests.browser.phone import wait_until
from tests.browser.scorekeeping import fill, log_in_to_game, swap
from tests.factories import make_club, make_game, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.console_errors(
    r"^CSP violation: style-src-attr refused inline",
    reason="the test sets an inline style, to see the violation fail a test that doesn't mark it",
)
def test_an_inline_style_fails_a_browser_test_that_does_not_mark_it(phone, console_errors):
    page = phone
    page.goto("/")
    page.evaluate("document.querySelector('main').setAttribute('style', 'color: red')")
    wait_until(page, lambda: bool(console_errors), "the violation reported")
    [(line, _)] = console_errors
    assert line.startswith("CSP violation: style-src-attr refused inline at ")
    assert '<main id="main" style="color: red">' in line
    assert unexpected_lines(console_errors, set(), allowed=[]) == [line]


def test_inline_styles_set_on_the_deal_form_are_not_copied_onto_the_next_one(phone):
    """Styles set through the CSSOM (allowed) stay on the old fields; htmx's swap brings the
    new form as the server sent it, and the policy refuses nothing."""
    page = phone
    game = make_game(make_club(make_user("ann")))
    log_in_to_game(page, game)
    page.evaluate(
        "document.querySelectorAll('#deal-area [id]').forEach((e) => { e.style.outline = '0'; })"
    )
    fill(page, {"Ann": "0", "Ben": "13", "Cy": "2", "Dee": "3"})
    swap(page, lambda: page.get_by_role("button", name="Record deal").click())
    expect(page.locator(".deal-no")).to_have_text("Deal 2")
    expect(page.locator("#deal-area [style]")).to_have_count(0)
