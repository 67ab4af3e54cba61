"""The phone the browser tests drive: where Chromium is, its size and flags, pages opened on
the live server, signing in without the login form, and screenshots.

A helper module, not a conftest: its fixtures are in conftest.py, which uses these.
"""

from __future__ import annotations

import datetime
import os
import shutil
import time
from collections.abc import Callable
from importlib import import_module
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import Error as PlaywrightError

# Chromium's headless shell (Debian's chromium-headless-shell: the same build, without the
# windowed browser around the page), as Playwright itself runs headless Chromium: it draws
# each page with about half the CPU of `chromium --headless`, the rest of the browser. Without
# it, the system Chromium.
CHROMIUM = (
    os.environ.get("CHROMIUM")
    or shutil.which("chromium-headless-shell")
    or shutil.which("chromium")
    or "/usr/bin/chromium"
)
BROWSER_MISSING = not os.path.exists(CHROMIUM)
PHONE = {"width": 390, "height": 844}
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def open_phone(browser, live_server, color_scheme: str = "light", **options):
    """A phone-size page in `color_scheme`, for axe-core (tests/browser/a11y.py); `options`
    for its context (Playwright's `new_context`)."""
    context = browser.new_context(
        viewport=PHONE,
        base_url=live_server.url,
        is_mobile=True,
        color_scheme=color_scheme,
        **options,
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    return page


def session_cookie(user) -> dict[str, str]:
    """A session of `user`'s, signed in, as the cookie that carries it (no login form to fill):
    for Playwright here, and for WebKit's WebDriver (tests/webkit/phone.py)."""
    # Imported here: tests/conftest.py imports this module before Django is set up.
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.save()
    return {"name": settings.SESSION_COOKIE_NAME, "value": store.session_key}


def log_in(page, user, base_url: str) -> None:
    """Sign `user` in by handing the browser a session cookie."""
    page.context.add_cookies([{**session_cookie(user), "url": base_url}])


def arrive(page, path: str) -> None:
    """Wait until the page is at `path` (the address's path alone: a login page's ?next=/games/5/
    is not the game) and has loaded, its deferred scripts run: a tap before then would miss
    them."""
    page.wait_for_url(lambda url: urlsplit(url).path == path, wait_until="load")


def hold_the_clock(page) -> None:
    """Playwright's clock on `page`, held still: none of its timers (htmx's polls, the page's
    resends) fires until the test moves it on (`page.clock.run_for(...)`). What needs no timer
    still comes: answers, a stream's words. Before the page is opened; htmx's settling then
    waits for the clock too, so a test reads what was swapped in, not what htmx makes of it."""
    now = datetime.datetime.now()
    page.clock.install(time=now)
    page.clock.pause_at(now + datetime.timedelta(minutes=1))  # nothing runs on a blank page


def wait_until(page, done: Callable[[], bool], what: str, seconds: float = 10) -> None:
    """Let Playwright hand the test the page's events (requests seen, routes held) until
    `done()`; a stall fails after `seconds`, saying `what` never happened."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, f"{what}: not within {seconds:g} s"
        page.wait_for_timeout(20)


def requests_reported(page) -> None:
    """Return once Playwright has reported every request `page` has started so far, so that a
    list kept by `page.on("request")` is whole: the page asks for /ping/, and the test waits
    to see that request, which Chromium reports after every one started before it. With
    `page.clock.run_for(...)` first, "nothing was sent" is known without waiting to see."""
    with page.expect_request(lambda request: request.url.endswith("/ping/?reported")):
        page.evaluate("() => { fetch('/ping/?reported'); }")


def add_style(page, css: str) -> None:
    """Style the page as it is now with `css` as well, by a style sheet built in the CSSOM, which
    the site's Content Security Policy allows (Playwright's add_style_tag is a <style>, refused)."""
    page.evaluate(
        """css => {
            const sheet = new CSSStyleSheet();
            sheet.replaceSync(css);
            document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
        }""",
        css,
    )


def screenshot(page, name: str) -> Path:
    """The whole page as a PNG in test-artifacts/screenshots, for people to look at. Chromium now
    and then refuses a capture on a busy machine ("Unable to capture screenshot", CI once): a
    picture is no check of the test's, so it is asked for again, then the screen alone kept."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    for whole in (True, True, False):
        try:
            page.screenshot(path=str(path), full_page=whole)
            break
        except PlaywrightError as error:
            if "Unable to capture screenshot" not in str(error) or not whole:
                raise
    return path
