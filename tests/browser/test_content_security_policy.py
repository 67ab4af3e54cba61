"""The site's strict Content Security Policy (no inline style or script) and the browser tests
that hold it: every page of every test listens for `securitypolicyviolation` (CSP_WATCH in
tests/browser/page_errors.py), and a violation fails the test as a console error does, unless
the test marks it as caused on purpose."""

import pytest

from tests.browser.page_errors import unexpected_lines
from tests.browser.phone import wait_until

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
