"""The scoreboard's rows as HTML, kept in the `shared` cache under the board's version, so that
the board rendered after a deal costs that deal's row, not every row again.

A deal recorded at the end of a game changes no row before it (each row's running totals and
notes are of its own deal and those before), and the version it makes is marked as that append
(scoring/caching.py, `deal_appended`). So the rows of that version are the rows of the version
before with the new row after them, and the same holds back along any run of appends. The game
page opened after a deal or several (each phone opens it every few minutes; a deal comes every
minute or two) renders only the rows added since the last rows kept; before, it rendered every
row, the largest part of the page (issue 16). Any other change (an edit, an undo, a rename)
makes a version that is no append: its rows are rendered whole, once, and kept.

Every row comes from the one partial, `_board.html#row`, which the answer with only what a
deal changed uses too (templates/scoring/_board_delta.html): tests/scoring/presenters/test_rows.py
renders a board from kept rows and again whole, and compares them.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.core.cache import caches
from django.template.loader import get_template
from django.utils.safestring import SafeString, mark_safe

from scoring import caching
from scoring.presenters.board import Board, Line

ROW_TEMPLATE = "scoring/_board.html#row"
# As long as the board's own fragments (templates/scoring/_board.html).
ROWS_SECONDS = 86400
# How many appends back the rows kept are looked for: one cache read each.
APPENDS_BACK = 30


def board_rows(board: Board, *, shared: bool) -> SafeString:
    """Every row of the board: those kept for this version, or those kept before a run of deals
    appended with the rows of those deals, or all rendered; kept under this version."""
    game = board.game
    cache = caches["shared"]
    key = caching.rows_key(game, game.version, shared=shared)
    rows = cache.get(key)
    if rows is None:
        kept, since = _kept_before_appends(board, shared=shared)
        rows = kept + _rendered(board, board.lines_after(since), shared=shared)
        cache.set(key, rows, ROWS_SECONDS)
    return mark_safe(rows)  # noqa: S308 (rendered here, by the row's own template)


def _kept_before_appends(board: Board, *, shared: bool) -> tuple[str, int]:
    """The rows kept for the latest version before this one that differs from it only by deals
    appended, and the number of its last deal; ("", 0) if there are none."""
    game, last = board.game, board.last_number or 0
    cache = caches["shared"]
    for back in range(1, APPENDS_BACK + 1):
        # The version `back` - 1 changes ago must be deal `last` - `back` + 1 appended.
        if caching.appended_deal(game.pk, game.version - back + 1) != last - back + 1:
            break
        kept = cache.get(caching.rows_key(game, game.version - back, shared=shared))
        if kept is not None:
            return kept, last - back
    return "", 0


def _rendered(board: Board, lines: Iterable[Line], *, shared: bool) -> str:
    row = get_template(ROW_TEMPLATE)
    return "".join(
        row.render({"game": board.game, "line": line, "shared": shared}) for line in lines
    )
