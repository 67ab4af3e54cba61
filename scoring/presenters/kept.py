"""What a board keeps across the deals appended to it: its rows (scoring/presenters/rows.py)
and its history (scoring/presenters/history.py), each kept in the `rendered` cache under the
board's version.

A deal recorded at the end of a game changes nothing a board showed before it but adds a row
and a line of history, and the version it makes is marked as that append (scoring/caching.py,
`deal_appended`). So what is kept for an earlier version stays good for a later one across any
run of appends, with the appended deals' own parts added; any other change (an edit, an undo,
a rename) ends the run.
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.cache import caches

from scoring import caching
from scoring.models import Game

# How many appends back a kept part is looked for: one cache read each.
APPENDS_BACK = 30
# As long as the board's own fragments (templates/scoring/_board.html).
KEPT_SECONDS = 86400


def kept_across_appends[Part](
    game: Game,
    last_number: int,
    key_of: Callable[[int], str],
    *,
    extended: Callable[[Part, int], Part | None],
    whole: Callable[[], Part],
) -> Part:
    """The part of the board kept under `key_of(game.version)`; else, if a part is kept for a
    version before a run of deals appended, `extended(kept, appended)` (None: it can't be), or
    `whole()`; kept under this version either way. `last_number` is the game's last deal now."""
    cache = caches["rendered"]
    key = key_of(game.version)
    part = cache.get(key)
    if part is None:
        found = _kept_before_appends(game, last_number, key_of)
        part = extended(*found) if found is not None else None
        if part is None:
            part = whole()
        cache.set(key, part, KEPT_SECONDS)
    return part


def _kept_before_appends(
    game: Game, last_number: int, key_of: Callable[[int], str]
) -> tuple[object, int] | None:
    """What is kept under `key_of(version)` for the latest version of `game` before this one
    that differs from it only by deals appended, and how many deals were appended since; None
    if nothing is."""
    cache = caches["rendered"]
    for back in range(1, APPENDS_BACK + 1):
        # The version `back` - 1 changes ago must be deal `last_number` - `back` + 1 appended.
        if caching.appended_deal(game.pk, game.version - back + 1) != last_number - back + 1:
            return None
        kept = cache.get(key_of(game.version - back))
        if kept is not None:
            return kept, back
    return None
