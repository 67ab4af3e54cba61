"""Playwright against the system Chromium, at phone size (390x844): the fixtures.

The phone itself (where Chromium is, its size, screenshots, signing in) is tests/browser/phone.py.
"""

import datetime
import os
import re
import threading
from decimal import Decimal

import pytest
from django.core.signals import request_finished, request_started
from playwright.sync_api import expect

from rules.ruleset import parse_rules
from scoring import services
from tests.browser.a11y import SCHEMES
from tests.browser.page_errors import CONSOLE_ERRORS
from tests.browser.phone import BROWSER_MISSING, CHROMIUM, CHROMIUM_ARGS, PHONE, open_phone
from tests.factories import make_club, make_game, make_member, make_user, record

# What a test expects of a page is waited for up to 10 s, as everything a page does (its
# default timeout, below): a stall, not a slow machine. Nothing is expected within less.
expect.set_options(timeout=10_000)


def allowed_console_errors(item) -> list[re.Pattern[str]]:
    """The console errors (or CSP violations, "CSP violation: ...") a test causes on purpose:
    `@pytest.mark.console_errors(*patterns, reason=...)`, each mark saying why (the test takes
    the phone offline, say)."""
    allowed = []
    for mark in item.iter_markers("console_errors"):
        if not mark.kwargs.get("reason"):
            pytest.fail(f"{item.nodeid}: console_errors(...) without a reason", pytrace=False)
        allowed += [re.compile(pattern) for pattern in mark.args]
    return allowed


class WatchedBrowser:
    """The session's Chromium, whose every new context is watched for console errors and CSP
    violations."""

    def __init__(self, browser) -> None:
        self._browser = browser

    def new_context(self, **options):
        context = self._browser.new_context(**options)
        CONSOLE_ERRORS.watch(context)
        return context

    def __getattr__(self, name: str):
        return getattr(self._browser, name)


@pytest.fixture(scope="session")
def browser():
    if BROWSER_MISSING:
        pytest.fail(f"REQUIRE_BROWSER=1 but Chromium is not at {CHROMIUM}")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; the tests' own ORM calls
    # are still synchronous and safe.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield WatchedBrowser(browser)
        browser.close()


@pytest.fixture(autouse=True)
def console_errors(request):
    """Fails a browser test whose pages logged an error on the console, threw one or met a
    Content Security Policy violation: in normal use no page does. Set up before the test's
    pages and torn down after them (autouse), so what their contexts said as they closed is
    counted too."""
    allowed = allowed_console_errors(request.node)
    yield CONSOLE_ERRORS.start()
    unexpected = CONSOLE_ERRORS.unexpected(allowed)
    if unexpected and not getattr(request.node, "call_failed", False):
        pytest.fail("the pages logged errors:\n  " + "\n  ".join(unexpected), pytrace=False)


class RequestsUnderWay:
    """How many requests this process's servers (the live server's threads, a test's uvicorn)
    are answering now, by Django's own request_started and request_finished signals."""

    def __init__(self) -> None:
        self.count = 0
        self.changed = threading.Condition()

    def started(self, **kwargs: object) -> None:
        with self.changed:
            self.count += 1

    def finished(self, **kwargs: object) -> None:
        with self.changed:
            self.count -= 1
            self.changed.notify_all()

    def none_within(self, seconds: float) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: self.count <= 0, seconds)


@pytest.fixture(scope="session")
def requests_under_way():
    under_way = RequestsUnderWay()
    request_started.connect(under_way.started)
    request_finished.connect(under_way.finished)
    yield under_way
    request_started.disconnect(under_way.started)
    request_finished.disconnect(under_way.finished)


@pytest.fixture(autouse=True)
def answers_done_before_the_database_is_emptied(requests_under_way):
    """A test's pages closed, what they last asked is still being answered in the server's
    threads: a read in a transaction there, meeting the flush that empties the database after
    the test (TRUNCATE of every table, one lock after another), deadlocked with it on
    PostgreSQL (CI once), and the next test found the last one's rows. Torn down after the
    test's pages and before the database (pytest-django's fixture is set up first)."""
    yield
    if not requests_under_way.none_within(10):
        pytest.fail("the server was still answering 10 s after the test's end", pytrace=False)


def describe_if_failed(request, page) -> None:
    """After a failed test, what the page showed and said: CI keeps only the printed output,
    and a race seen once in a hundred runs must be told from it."""
    if not getattr(request.node, "call_failed", False):
        return
    print(f"--- the page at the failure: {page.url}; what it said and where it went:")
    for line in page.console_lines:
        print(f"  {line}")
    try:
        print(page.evaluate(LAYOUT_OF_FIRST_INPUT))
        print(page.locator("main").evaluate("element => element.outerHTML", timeout=2_000)[:6_000])
    except Exception as error:  # a closed or navigating page: say so rather than fail again
        print(f"(the page couldn't be read: {error})")


# Playwright's "element is not visible" means an empty box or `visibility: hidden`; the HTML
# alone doesn't say which ancestor made it so. Once seen in CI (the house-rules offline test).
LAYOUT_OF_FIRST_INPUT = """() => {
  const lines = [`document ${document.visibilityState}, window ${innerWidth}x${innerHeight}`];
  let element = document.querySelector("main input:not([type=hidden])");
  for (; element; element = element.parentElement) {
    const box = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    const name = element.tagName.toLowerCase() + (element.id ? "#" + element.id : "");
    lines.push(`  ${name}: ${Math.round(box.width)}x${Math.round(box.height)} at ` +
      `${Math.round(box.x)},${Math.round(box.y)}, display ${style.display}, ` +
      `visibility ${style.visibility}${element.hidden ? ", hidden" : ""}`);
  }
  return lines.join("\\n");
}"""


@pytest.fixture
def phone(request, browser, live_server):
    """A fresh phone-size browser context on the live test server."""
    context = browser.new_context(viewport=PHONE, base_url=live_server.url, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.console_lines = []
    page.on("console", lambda message: page.console_lines.append(f"{message.type}: {message.text}"))
    page.on("pageerror", lambda error: page.console_lines.append(f"error: {error}"))
    page.on("framenavigated", lambda frame: page.console_lines.append(f"went to {frame.url}"))
    yield page
    describe_if_failed(request, page)
    context.close()


@pytest.fixture
def phone_without_js(browser, live_server):
    context = browser.new_context(
        viewport=PHONE, base_url=live_server.url, java_script_enabled=False
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.fixture(params=SCHEMES)
def a11y_phone(request, browser, live_server):
    """A phone-size page that axe-core can be injected into (see a11y.py), once in the light
    and once in the dark colour scheme."""
    page = open_phone(browser, live_server, request.param)
    page.color_scheme = request.param  # for messages and screenshot names
    yield page
    page.context.close()


@pytest.fixture
def site(live_server):
    """A club with a game in progress, a finished game, two seasons, a member besides its owner,
    a player who never sat in a game and a club history; another club to join."""
    sam = make_user("sam")
    club = make_club(sam)
    season = services.start_season(
        club=club, name="Spring", starts_on=datetime.date.today(), by=sam
    )
    finished = make_game(club)
    for _ in range(3):
        record(finished, 0, 13, 13, 13)
    playing = make_game(club)
    record(playing, 0, 5, 3, 2)
    record(playing, 4, 0, 6, 1)
    share_token = services.share_game(game=playing, by=sam)
    bo = make_member(club, "bo")
    # A player whose only game was deleted (a name typed wrong), then renamed; a member who
    # came and went: the roster's "Remove" and the club's history have something to show.
    services.delete_game(game=make_game(club, ("Zedd", "Ann", "Ben", "Cy")), by=sam)
    services.rename_player(player=club.players.get(name="Zedd"), name="Zed", by=sam)
    services.leave_club(club=club, user=make_member(club, "cyd"))
    olga = make_user("olga")
    other_club = make_club(olga, name="Olga's table")
    # House rules, a stake and a match ended by hand: the twos fields and the settling up.
    manila = make_club(sam, name="Manila nights")
    services.start_season(
        club=manila,
        name="Pusoy Dos",
        starts_on=datetime.date.today(),
        rules=parse_rules("pusoy-dos,twos-double-each,open-ended"),
        stake=Decimal("0.50"),
        currency="PHP",
        by=sam,
    )
    banked = make_game(manila)
    record(banked, 0, 9, 4, 1, out_on_twos=True, twos_held=[0, 2, 0, 0])
    services.end_match(game=banked, by=sam)
    twos_game = make_game(manila)
    empty = make_club(sam, name="New table")
    return {
        "empty_season": empty.seasons.get(),
        "banked": banked,
        "twos_game": twos_game,
        "url": live_server.url,
        "sam": sam,
        "bo": bo,
        "club": club,
        "season": season,
        "finished": finished,
        "playing": playing,
        "ann": finished.seats.get(position=1).player,
        "other_club": other_club,
        "share_token": share_token,
    }
