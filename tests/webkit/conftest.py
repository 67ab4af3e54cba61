"""The WebKit suite's fixtures: one X display and one WebKit for the whole run, the site served
as `make run` serves it for each test, and the phone, whose pages must say nothing went wrong.

Without WebKit (tests/webkit/phone.py says where it is looked for) the suite is skipped, and
says why; with REQUIRE_BROWSER=1 (CI) it fails instead.
"""

from __future__ import annotations

import os
import re

import pytest

from tests.webkit.phone import Phone, missing, webkit, x_display
from tests.webkit.server import ThreadedSite

WEBKIT_MISSING = missing()
REQUIRED = os.environ.get("REQUIRE_BROWSER") == "1"

WARNINGS_NOT_OURS = [
    # WhiteNoise's static files, served under ASGI as under `make run`.
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous iterators"),
    # Selenium's WebKitGTK driver, connecting to WebKitWebDriver the way it deprecates itself.
    pytest.mark.filterwarnings("ignore:setting remote_server_addr in RemoteConnection"),
]


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "webkit" not in item.keywords:
            continue
        for mark in WARNINGS_NOT_OURS:
            item.add_marker(mark)
        if WEBKIT_MISSING and not REQUIRED:  # with REQUIRE_BROWSER=1, `webkit_driver` fails
            item.add_marker(pytest.mark.skip(reason=WEBKIT_MISSING))
            config.webkit_skipped = True


def pytest_terminal_summary(terminalreporter, config):
    if getattr(config, "webkit_skipped", False):
        terminalreporter.write_sep("!", "WEBKIT TESTS SKIPPED", red=True, bold=True)
        terminalreporter.write_line(
            f"{WEBKIT_MISSING}. No page was tried in WebKit, the engine of every iPhone "
            "browser; REQUIRE_BROWSER=1 turns this into a failure.",
            red=True,
        )


@pytest.fixture(scope="session")
def webkit_driver(tmp_path_factory):
    if WEBKIT_MISSING:
        pytest.fail(f"REQUIRE_BROWSER=1 but {WEBKIT_MISSING}")
    log = tmp_path_factory.mktemp("webkit") / "webkit.log"
    with x_display() as display, webkit(display, log) as driver:
        yield driver


@pytest.fixture
def site(static_collected, transactional_db):
    """The site served as `make run` serves it, on the test's database, for one test (a port, and
    so an origin, of its own: nothing a page keeps reaches the next test)."""
    served = ThreadedSite()
    served.start()
    yield served
    served.stop()


def allowed_errors(item) -> list[re.Pattern[str]]:
    """The errors a test causes on purpose: `@pytest.mark.console_errors(*patterns, reason=...)`,
    as in the Chromium suite, each mark saying why."""
    marks = list(item.iter_markers("console_errors"))
    if any(not mark.kwargs.get("reason") for mark in marks):
        pytest.fail(f"{item.nodeid}: console_errors(...) without a reason", pytrace=False)
    return [re.compile(pattern) for mark in marks for pattern in mark.args]


@pytest.fixture
def phone(request, webkit_driver, site):
    """WebKit's window on the site; after the test, it fails if a page logged or threw an
    error, or broke the CSP, that the test didn't cause on purpose."""
    phone = Phone(webkit_driver, site.url)
    yield phone
    failed = getattr(request.node, "call_failed", False)
    if failed:
        print(phone.describe())
        phone.screenshot(re.sub(r"\W+", "-", request.node.name))
    seen = phone.errors()
    phone.reset()
    allowed = allowed_errors(request.node)
    unexpected = [line for line in seen if not any(ok.search(line) for ok in allowed)]
    if unexpected and not failed:
        pytest.fail("the pages said something went wrong:\n  " + "\n  ".join(unexpected))
