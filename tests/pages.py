"""Reading the site's pages and filling in its forms, as the tests' HTTP client does.

A helper module (neither a test file nor a conftest): import what a test needs from it.
"""

from __future__ import annotations

import html
import json
import re
import uuid

from scoring.models import Game

# The headers htmx sends when the deal form posts into the game's live part.
HTMX = {"HX-Request": "true", "HX-Target": "game-live"}

# The season form's fields for Pusoy Dos suit order with the twos rule (doubled), to 100.
PUSOY_TWOS = {
    "suits": "pusoy-dos-suits",
    "straights": "standard-straights",
    "flushes": "suit-first-flushes",
    "penalties": "standard-penalties",
    "twos": "twos-double",
    "players": "4",
    "finish": "target",
    "target": "100",
    "deals": "10",
}


def deal_post(game: Game, *cards: int, number: int | None = None, token=None, **extra) -> dict:
    """The deal form as posted: each seat's cards left, the next deal's number (unless given)
    and a fresh one-time token (unless given); `extra` fields on top (twos, went out)."""
    data = {f"cards_{seat}": str(count) for seat, count in enumerate(cards)}
    data["number"] = str(number or game.deals.count() + 1)
    data["token"] = str(token or uuid.uuid4())
    return data | extra


def text(response) -> str:
    """The response's HTML with runs of white space made one space, for `in` checks."""
    return re.sub(r"\s+", " ", response.content.decode())


def who_is_asking() -> int:
    """The queries a signed-in request makes to know who is asking: the account, which Django's
    auth reads on each request (the session comes from the cache)."""
    return 1


def embedded(html: str, element_id: str) -> object:
    """The JSON of a `json_script` element, or None if the page has none."""
    found = re.search(rf'<script id="{element_id}" type="application/json">(.*?)</script>', html)
    return json.loads(found.group(1)) if found else None


def poll_address(response) -> str:
    """Where the board on a game page polls (its `hx-get`)."""
    found = re.search(r'id="board-follow"[^>]*hx-get="([^"]+)"', response.content.decode(), re.S)
    return html.unescape(found[1])
