"""The scoreboard's rows as HTML, kept under the board's version (scoring/presenters/kept.py),
so that the board rendered after a deal costs that deal's row, not every row again.

The game page opened after a deal or several (each phone opens it every few minutes; a deal
comes every minute or two) renders only the rows of the deals appended since the rows last
kept; before, it rendered every row, the largest part of the page (issue 16). After any other
change (an edit, an undo, a rename) the rows are rendered whole, once, and kept.

Every row comes from the one partial, `_board.html#row`, which the answer with only what a
deal changed uses too (templates/scoring/_board_delta.html): tests/scoring/presenters/test_rows.py
renders a board from kept rows and again whole, and compares them.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.template.loader import get_template
from django.utils.safestring import SafeString, mark_safe

from scoring import caching
from scoring.presenters.board import Board, Line
from scoring.presenters.kept import kept_across_appends

ROW_TEMPLATE = "scoring/_board.html#row"


def board_rows(board: Board, *, shared: bool) -> SafeString:
    """Every row of the board: those kept for this version, or those kept before a run of deals
    appended with the rows of those deals, or all rendered; kept under this version."""
    game, last = board.game, board.last_number or 0
    rows = kept_across_appends(
        game,
        last,
        lambda version: caching.rows_key(game, version, shared=shared),
        extended=lambda kept, appended: (
            kept + _rendered(board, board.lines_after(last - appended), shared=shared)
        ),
        whole=lambda: _rendered(board, board.lines, shared=shared),
    )
    return mark_safe(rows)  # noqa: S308 (rendered here, by the row's own template)


def _rendered(board: Board, lines: Iterable[Line], *, shared: bool) -> str:
    row = get_template(ROW_TEMPLATE)
    return "".join(
        row.render({"game": board.game, "line": line, "shared": shared}) for line in lines
    )
