"""Reading the site's answers as the page's own scripts read them, with html.parser."""

import urllib.parse
from html.parser import HTMLParser
from typing import NamedTuple


class Page(HTMLParser):
    """An HTML page's or partial's elements with an id, forms' inputs, and alerts' text."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: dict[str, dict[str, str]] = {}  # id: attributes
        self.forms: dict[str, dict[str, str]] = {}  # form id ("" for none): input name: value
        self.texts: dict[str, list[str]] = {}  # id: the text inside
        self.alerts: list[list[str]] = []  # the text of each role="alert"
        self._form = ""  # id of the form being read
        # (tag, text collector) per open element; one with no end tag (<input>) ends with its parent
        self._open: list[tuple[str, list[str] | None]] = []
        self.feed(html)
        self.close()

    def inputs(self, form_id: str | None = None) -> dict[str, str]:
        """The named inputs' values of the form with this id (of every form: None)."""
        if form_id is not None:
            return self.forms.get(form_id, {})
        return {name: value for inputs in self.forms.values() for name, value in inputs.items()}

    def text(self, element_id: str) -> str:
        """The text inside the element with this id, spaces collapsed."""
        return " ".join("".join(self.texts.get(element_id, [])).split())

    @property
    def alert(self) -> str:
        """The first role="alert" message on the page ("": none)."""
        return " ".join("".join(self.alerts[0]).split()) if self.alerts else ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {name: value or "" for name, value in attrs}
        element_id, collector = attributes.get("id", ""), None
        if element_id:
            self.elements.setdefault(element_id, attributes)
            collector = self.texts.setdefault(element_id, [])
        elif attributes.get("role") == "alert":
            collector = []
            self.alerts.append(collector)
        if tag == "form":
            self._form = element_id
        elif tag == "input" and attributes.get("name"):
            inputs = self.forms.setdefault(self._form, {})
            inputs.setdefault(attributes["name"], attributes.get("value", ""))
        self._open.append((tag, collector))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = ""
        for depth in range(len(self._open) - 1, -1, -1):
            if self._open[depth][0] == tag:
                del self._open[depth:]
                return

    def handle_data(self, data: str) -> None:
        for _, collector in self._open:
            if collector is not None:
                collector.append(data)


class Board(NamedTuple):
    """The board's follower: the version shown, where its poll asks, and its stream."""

    version: int
    poll: str  # hx-get: the poll, with the version shown
    changes: str  # data-changes: the game's event stream ("": none)


def board_of(page: Page) -> Board | None:
    """The board's follower (of a whole board, or of what a deal changed); None: there is none."""
    attributes = page.elements.get("board-follow", {})
    version = attributes.get("data-version", "")
    if not version.isdigit() or not attributes.get("hx-get"):
        return None
    return Board(int(version), attributes["hx-get"], attributes.get("data-changes", ""))


def version_said(data: str) -> int | None:
    """The version a stream's event says: its data's first line (a delta's HTML follows)."""
    first = data.split("\n", 1)[0]
    return int(first) if first.isdigit() else None


def moved_on(board: Board, version: int) -> Board:
    """The follower once the page took a delta from the stream: at `version`, its poll too."""
    address = urllib.parse.urlsplit(board.poll)
    query = urllib.parse.parse_qsl(address.query)
    query = [(name, str(version) if name == "v" else value) for name, value in query]
    poll = urllib.parse.urlunsplit(address._replace(query=urllib.parse.urlencode(query)))
    return board._replace(version=version, poll=poll)


def next_deal(page: Page) -> tuple[int, str] | None:
    """The next deal's number and one-time token from the page's deal form; None: no form."""
    inputs = page.inputs("deal-form")
    number, token = inputs.get("number", ""), inputs.get("token", "")
    return (int(number), token) if number.isdigit() and token else None


def told_recorded(page: Page, number: int) -> bool:
    """Whether the answer to recording a deal says it was: "Deal N recorded." in its notice."""
    return f"Deal {number} recorded." in page.text("live-notice")


def login_form(page: Page, username: str, password: str) -> dict[str, object] | None:
    """The login form filled in; None when the page has no CSRF token to send with it."""
    if csrf := page.inputs().get("csrfmiddlewaretoken"):
        return {"csrfmiddlewaretoken": csrf, "username": username, "password": password}
    return None


def game_started(location: str) -> int | None:
    """The new game's id from where starting one redirects (/games/<id>/); None: elsewhere."""
    parts = urllib.parse.urlsplit(location).path.strip("/").split("/")
    if len(parts) == 2 and parts[0] == "games" and parts[1].isdigit():
        return int(parts[1])
    return None
