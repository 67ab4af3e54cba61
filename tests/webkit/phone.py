"""WebKit, the engine of every iPhone browser, as the WebKit suite drives it: Debian's MiniBrowser
(webkit2gtk) through WebKitWebDriver and Selenium, on an X display of the suite's own (Xvfb);
and the phone a test holds: pages of the site opened, boxes and buttons found by the names a
person reads, waits for the thing itself, and what the pages said went wrong.

A helper module, not a conftest: its fixtures are in conftest.py.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait
from selenium.webdriver.webkitgtk.options import Options
from selenium.webdriver.webkitgtk.service import Service

from tests.browser.phone import SCREENSHOTS, session_cookie
from tests.servers import stop

WEBKIT_DRIVER = (
    os.environ.get("WEBKIT_DRIVER") or shutil.which("WebKitWebDriver") or "/usr/bin/WebKitWebDriver"
)
MINIBROWSER = (
    os.environ.get("MINIBROWSER") or "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
)
XVFB = shutil.which("Xvfb") or "/usr/bin/Xvfb"
# MiniBrowser's window is never narrower than about 450 px (its toolbar), so each page's body is
# held to the phone's width by script instead; the site's CSS has no breakpoint in between.
PHONE_WIDTH = 390
WINDOW = (450, 844)
TV = (1280, 720)
# What a test waits for, it waits for up to 10 s: a stall, not a slow machine.
STALL = 10
T = TypeVar("T")


def missing() -> str:
    """Which of WebKit's parts this machine lacks, and how to get them; empty if none."""
    lacking = [part for part in (WEBKIT_DRIVER, MINIBROWSER, XVFB) if not os.access(part, os.X_OK)]
    if not lacking:
        return ""
    return (
        f"WebKit or its display not found ({', '.join(lacking)}): apt-get install "
        "webkit2gtk-driver xvfb xauth, or set WEBKIT_DRIVER and MINIBROWSER"
    )


@contextmanager
def x_display() -> Iterator[str]:
    """An X server of the suite's own (Xvfb) until the block ends, on a display number it finds
    free itself and tells (`-displayfd`), so two runs side by side never take the same one."""
    told, tell = os.pipe()
    command = [XVFB, "-displayfd", str(tell), "-screen", "0", "1400x1000x24", "-nolisten", "tcp"]
    process = subprocess.Popen(
        command,
        pass_fds=(tell,),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(tell)
    try:
        number = b""
        while not number.endswith(b"\n"):
            ready, _, _ = select.select([told], [], [], 30)
            chunk = os.read(told, 16) if ready else b""
            if not chunk:
                raise RuntimeError(f"Xvfb told no display number (exit status {process.poll()})")
            number += chunk
        yield f":{number.decode().strip()}"
    finally:
        os.close(told)
        stop(process)


@contextmanager
def webkit(display: str, log: Path) -> Iterator[webdriver.WebKitGTK]:
    """One MiniBrowser driven by WebKitWebDriver on `display`, for the whole run: starting one
    takes seconds. What the driver and the browser print goes to `log`."""
    options = Options()
    options.binary_location = MINIBROWSER
    options.add_argument("--automation")
    service = Service(
        executable_path=WEBKIT_DRIVER, env={**os.environ, "DISPLAY": display}, log_output=str(log)
    )
    driver = webdriver.WebKitGTK(options=options, service=service)
    try:
        driver.set_page_load_timeout(30)
        driver.set_window_size(*WINDOW)
        yield driver
    finally:
        driver.quit()


# WebKitWebDriver hands no console to the test, so each page gets a watcher as soon as it has
# loaded (and again on every wait, for a page loaded since): uncaught errors, a resource that
# failed to load, console.error (where htmx says what went wrong) and CSP violations, each kept
# in the tab's sessionStorage, which outlives the page's own navigations. The body is held to
# the phone's width here too (on a phone, not on the TV).
WATCHER = """
if (!window.webkitSuiteWatching) {
  window.webkitSuiteWatching = true;
  const KEY = "webkit-suite:errors";
  const note = (line) => {
    const seen = JSON.parse(sessionStorage.getItem(KEY) || "[]");
    sessionStorage.setItem(KEY, JSON.stringify([...seen, `${line} (${location.pathname})`]));
  };
  addEventListener("error", (event) => {
    const failed = event.target !== window && (event.target.src || event.target.href);
    const where = `${event.filename}:${event.lineno}`;
    note(failed ? `resource failed: ${failed}` : `page error: ${event.message} ${where}`);
  }, true);
  addEventListener("unhandledrejection", (event) => note(`page error: ${event.reason}`));
  document.addEventListener("securitypolicyviolation", (event) => note(
    `CSP violation: ${event.violatedDirective} ${event.blockedURI || "inline"} ` +
    `${event.sourceFile}:${event.lineNumber}`));
  const error = console.error;
  console.error = (...said) => {
    note(`console error: ${said.join(" ")}`);
    error.apply(console, said);
  };
}
if (document.body) document.body.style.maxWidth = arguments[0] ? `${arguments[0]}px` : "";
"""
SEEN = "return JSON.parse(sessionStorage.getItem('webkit-suite:errors') || '[]')"


class Phone:
    """The suite's one WebKit window (and any other it opens) on the site at `base_url`."""

    def __init__(self, driver: webdriver.WebKitGTK, base_url: str) -> None:
        self.driver, self.base_url = driver, base_url
        self.width: int | None = PHONE_WIDTH  # the body's, held by script; None: the window's

    def as_tv(self) -> None:
        """The window at a TV's size, 1280x720, its page as wide."""
        self.driver.set_window_size(*TV)
        self.width = None

    def open(self, path: str) -> None:
        self.driver.get(self.base_url + path)
        self.watch()

    def log_in(self, user) -> None:
        """Sign `user` in with a session cookie (WebDriver sets one only from a page of the
        site: /ping/ answers with next to nothing)."""
        self.open("/ping/")
        self.driver.add_cookie({**session_cookie(user), "path": "/"})

    def watch(self) -> None:
        if self.driver.current_url.startswith(self.base_url):
            self.driver.execute_script(WATCHER, self.width)

    def until(self, done: Callable[[], T], what: str, seconds: float = STALL) -> T:
        """Wait until `done()` is truthy, and return it; a stall fails after `seconds`, saying
        `what` never happened. An element gone while looked at is looked for again."""

        def check(_driver) -> T:
            self.watch()
            return done()

        waiting = WebDriverWait(
            self.driver,
            seconds,
            poll_frequency=0.05,
            ignored_exceptions=(NoSuchElementException, StaleElementReferenceException),
        )
        return waiting.until(check, message=f"{what}: not within {seconds:g} s")

    def find(self, css: str) -> WebElement:
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def click(self, css: str) -> None:
        """Tap the element at `css`: found again if htmx swaps it out as it is tapped."""
        self.until(lambda: self.find(css).click() or True, f"{css} tapped")

    def find_all(self, css: str) -> list[WebElement]:
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def text(self, css: str) -> str:
        """What the elements at `css` show, one line each (empty if there are none)."""
        return "\n".join(element.text.strip() for element in self.find_all(css))

    def shows(self, css: str, text: str) -> str:
        return self.until(lambda: text in self.text(css) and text, f"{css} showing {text!r}")

    def box(self, name: str) -> WebElement:
        """The input a label reading exactly `name` names by its `for`."""
        label = self.driver.find_element(By.XPATH, f"//label[normalize-space()={quoted(name)}]")
        return self.driver.find_element(By.ID, label.get_attribute("for"))

    def choice(self, name: str) -> WebElement:
        """The radio button or tick held by a label reading exactly `name`."""
        held = "input[@type='radio' or @type='checkbox']"
        label = f"//label[normalize-space()={quoted(name)}]"
        return self.driver.find_element(By.XPATH, f"{label}//{held}")

    def button(self, name: str) -> WebElement:
        """The button (or link drawn as one) a person sees named `name`, by its text or
        aria-label: not one hidden from them (the deal form's first, for the Enter key)."""
        named = f"[normalize-space()={quoted(name)} or @aria-label={quoted(name)}]"
        seen = "[not(ancestor-or-self::*[@aria-hidden='true'])]"
        found = self.driver.find_elements(By.XPATH, f"//*[self::button or self::a]{named}{seen}")
        shown = [element for element in found if element.is_displayed()]
        if not shown:
            raise NoSuchElementException(f"no button {name!r} in sight")
        return shown[0]

    def fill(self, counts: dict[str, str]) -> None:
        for name, count in counts.items():
            box = self.box(name)
            box.clear()
            box.send_keys(count)

    def tap(self, name: str) -> None:
        self.until(lambda: self.button(name).click() or True, f"a button {name!r} tapped")

    def focused(self) -> str:
        """The id of the element that has the focus."""
        return self.driver.execute_script("return document.activeElement.id")

    def new_window(self) -> str:
        """Another window of the same browser (the same cookies), switched to; its handle."""
        self.driver.switch_to.new_window("window")
        self.driver.set_window_size(*WINDOW)
        return self.driver.current_window_handle

    def errors(self) -> list[str]:
        """What every window's pages said went wrong, window by window."""
        seen = []
        for handle in self.driver.window_handles:
            self.driver.switch_to.window(handle)
            if self.driver.current_url.startswith(self.base_url):
                seen += self.driver.execute_script(SEEN)
        return seen

    def screenshot(self, name: str) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"webkit-{name}.png"
        self.driver.save_screenshot(str(path))
        return path

    def describe(self) -> str:
        """The window's address and its main part, for a test that failed: CI keeps only the
        printed output."""
        try:
            main = self.driver.execute_script("return document.querySelector('main')?.outerHTML")
        except Exception as error:  # a page mid-navigation: say so rather than fail again
            main = f"(the page couldn't be read: {error})"
        return f"--- WebKit at {self.driver.current_url}:\n{(main or '')[:6_000]}"

    def reset(self) -> None:
        """Back to one phone-size window on a blank page, signed out: for the next test."""
        handles = self.driver.window_handles
        for handle in handles[1:]:
            self.driver.switch_to.window(handle)
            self.driver.close()
        self.driver.switch_to.window(handles[0])
        if self.driver.current_url.startswith(self.base_url):
            self.driver.delete_all_cookies()
        self.driver.set_window_size(*WINDOW)
        self.driver.get("about:blank")


def quoted(text: str) -> str:
    """`text` as an XPath string literal (JSON's quoting, for names without a double quote)."""
    assert '"' not in text, text
    return json.dumps(text)
