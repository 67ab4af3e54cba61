"""One phone's side of HTTP: its cookies, keep-alive connections, and reading the pages it gets.

A page is read the way its own scripts read it: the attributes of elements with an id (the
game's version is `data-version` on the board's follower, `#board-follow`), the values of a
form's inputs (the deal form's hidden `number` and `token`, the CSRF token), and the text of an
element with an id or a `role="alert"`, parsed with html.parser rather than matched with
regular expressions.
"""

from __future__ import annotations

import http.client
import random
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from html.parser import HTMLParser

TIMEOUT = 60  # seconds a client waits for an answer (50 logins queue behind each other)
IDLE_REOPEN = 5  # seconds: reopen a keep-alive connection idle this long (server keeps 10)

# Elements with no end tag: they never hold text.
VOID_ELEMENTS = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
)


class ConnectionFailed(Exception):
    """The request got no answer: refused, reset, or timed out."""


class Page(HTMLParser):
    """What the tool reads of an HTML page or partial (see the module's docstring).

    It parses only as far as each question needs, a few kilobytes at a time: the notice and the
    deal form come early in a game page, its long scoreboard last, and the clients' own CPU
    competes with the servers' on the same machine.
    """

    CHUNK = 4096  # characters parsed at a time

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.html = html
        self.parsed_to = 0  # how much of `html` has been fed to the parser
        self.elements: dict[str, dict[str, str]] = {}  # id: attributes
        self.closed: set[str] = set()  # ids of the elements whose end has been read
        self.forms: dict[str, dict[str, str]] = {}  # form id ("" for none): input name: value
        self.texts: dict[str, list[str]] = {}  # id: the text inside
        self.alerts: list[list[str]] = []  # the text of each role="alert"
        self._form = ""  # id of the form being read
        self._open: list[tuple[str, str, list[str] | None]] = []  # (tag, id, where text goes)

    def read_until(self, done: Callable[[], bool]) -> None:
        """Parse on until `done()` or the end of the page."""
        while not done() and self.parsed_to < len(self.html):
            end = self.parsed_to + self.CHUNK
            self.feed(self.html[self.parsed_to : end])
            self.parsed_to = end
            if self.parsed_to >= len(self.html):
                self.close()

    def element(self, element_id: str) -> dict[str, str] | None:
        """The attributes of the element with this id; None when the page has none."""
        self.read_until(lambda: element_id in self.elements)
        return self.elements.get(element_id)

    def inputs(self, form_id: str | None = None) -> dict[str, str]:
        """The named inputs' values of the form with this id (of every form: None)."""
        if form_id is not None:
            self.read_until(lambda: form_id in self.closed)
            return self.forms.get(form_id, {})
        self.read_until(lambda: False)
        merged: dict[str, str] = {}
        for inputs in self.forms.values():
            merged = inputs | merged
        return merged

    def text(self, element_id: str) -> str:
        """The text inside the element with this id, spaces collapsed."""
        self.read_until(lambda: element_id in self.closed)
        return " ".join("".join(self.texts.get(element_id, [])).split())

    @property
    def alert(self) -> str:
        """The first role="alert" message on the page ("" when there is none)."""
        self.read_until(lambda: False)
        return " ".join("".join(self.alerts[0]).split()) if self.alerts else ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {name: value or "" for name, value in attrs}
        element_id = attributes.get("id", "")
        if element_id:
            self.elements.setdefault(element_id, attributes)
        if tag == "form":
            self._form = element_id
            self.forms.setdefault(self._form, {})
        elif tag == "input" and attributes.get("name"):
            self.forms.setdefault(self._form, {}).setdefault(
                attributes["name"], attributes.get("value", "")
            )
        if tag in VOID_ELEMENTS:
            return
        collector = None
        if element_id:
            collector = self.texts.setdefault(element_id, [])
        elif attributes.get("role") == "alert":
            collector = []
            self.alerts.append(collector)
        self._open.append((tag, element_id, collector))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = ""
        for depth in range(len(self._open) - 1, -1, -1):
            if self._open[depth][0] == tag:
                self.closed.update(element for _, element, _ in self._open[depth:] if element)
                del self._open[depth:]
                return

    def handle_data(self, data: str) -> None:
        for _, _, collector in self._open:
            if collector is not None:
                collector.append(data)


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: str
    seconds: float

    @cached_property
    def page(self) -> Page:
        return Page(self.body)


class Browser:
    """One phone: its cookies, and a keep-alive connection to each server, used in turn."""

    def __init__(self, servers: list[tuple[str, int]]) -> None:
        self.servers = servers
        self.connections: list[http.client.HTTPConnection | None] = [None] * len(servers)
        self.last_used = [0.0] * len(servers)
        self.turn = random.randrange(len(servers))
        self.cookies: dict[str, str] = {}

    @property
    def csrf_token(self) -> str:
        return self.cookies.get("csrftoken", "")

    def request(
        self, method: str, path: str, form: dict[str, object] | None = None, htmx: bool = False
    ) -> Answer:
        index = self.turn % len(self.servers)
        self.turn += 1
        connection = self.connection(index)
        headers = {"Host": "127.0.0.1"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        if htmx:
            headers["HX-Request"] = "true"
            headers["X-CSRFToken"] = self.csrf_token
        started = time.perf_counter()
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException) as error:
            connection.close()
            self.connections[index] = None
            raise ConnectionFailed(f"{method} {path}: {error!r}") from error
        seconds = time.perf_counter() - started
        self.last_used[index] = time.monotonic()
        self.take_cookies(response.msg.get_all("Set-Cookie") or [])
        return Answer(response.status, dict(response.getheaders()), data.decode(), seconds)

    def connection(self, index: int) -> http.client.HTTPConnection:
        """The keep-alive connection to server `index`, opened again when idle too long."""
        connection = self.connections[index]
        if connection is None or time.monotonic() - self.last_used[index] > IDLE_REOPEN:
            if connection is not None:
                connection.close()
            connection = http.client.HTTPConnection(*self.servers[index], timeout=TIMEOUT)
            self.connections[index] = connection
        return connection

    def take_cookies(self, set_cookies: list[str]) -> None:
        for value in set_cookies:
            name, _, rest = value.partition("=")
            cookie_value = rest.split(";", 1)[0]
            if "max-age=0" in value.lower() or cookie_value in ('""', ""):
                self.cookies.pop(name.strip(), None)
            else:
                self.cookies[name.strip()] = cookie_value

    def close(self) -> None:
        for connection in self.connections:
            if connection is not None:
                connection.close()


# The forms a phone posts


def login_form(page: Page, username: str, password: str) -> dict[str, object] | None:
    """The login form filled in; None when the page has no CSRF token to send with it."""
    csrf = page.inputs().get("csrfmiddlewaretoken")
    if not csrf:
        return None
    return {"csrfmiddlewaretoken": csrf, "username": username, "password": password}


def deal_form(
    csrf: str, number: int, token: str, cards: list[int], shown: object = ""
) -> dict[str, object]:
    """The deal form as a phone posts it: cards left per seat, no twos, and the version its
    board shows (`shown`, "": no board yet), for an answer with only what the deal changed."""
    form: dict[str, object] = {"csrfmiddlewaretoken": csrf, "number": number, "token": token}
    form |= {f"cards_{position}": count for position, count in enumerate(cards)}
    return form | ({"shown": shown} if shown != "" else {})


def next_deal(page: Page) -> tuple[int, str] | None:
    """The next deal's number and one-time token from the page's deal form; None: no form."""
    inputs = page.inputs("deal-form")
    number, token = inputs.get("number", ""), inputs.get("token", "")
    if not (number.isdigit() and token):
        return None
    return int(number), token


def game_version(page: Page) -> str:
    """The game's version the scoreboard shows ("" when the page has no scoreboard)."""
    board = page.element("board-follow")
    return board.get("data-version", "") if board else ""


def poll_address(page: Page) -> str:
    """Where the scoreboard's poll asks (its `hx-get`, with the page's pass); "": no board."""
    board = page.element("board-follow")
    return board.get("hx-get", "") if board else ""


def game_started(location: str) -> int | None:
    """The new game's id from where starting one redirects (/games/<id>/); None: elsewhere."""
    parts = urllib.parse.urlsplit(location).path.strip("/").split("/")
    if len(parts) == 2 and parts[0] == "games" and parts[1].isdigit():
        return int(parts[1])
    return None
