"""A game's history on its board (who recorded, undid or corrected what, and when) as HTML, kept
under the board's version (scoring/presenters/kept.py).

Each deal recorded adds one line at the top: the board after a run of deals appended renders
only their lines above the lines kept before them, where it rendered all of them (up to
`HISTORY_SHOWN`), for every answer to a deal and every game page opened after one (issue 16).
After any other change the history is read and rendered whole, once, and kept.
"""

from __future__ import annotations

from django.template.loader import get_template
from django.utils.safestring import SafeString, mark_safe

from scoring import caching, selectors, table_reads
from scoring.models import Game, GameChange
from scoring.presenters.board import Board
from scoring.presenters.kept import kept_across_appends

LINE_TEMPLATE = "scoring/_board.html#history-line"


def board_history(board: Board) -> SafeString:
    """The history's lines, newest first: kept for this version, or the lines of a run of deals
    appended above the lines kept before them, or all rendered; kept under this version."""
    game = board.game
    lines = kept_across_appends(
        game,
        board.last_number or 0,
        lambda version: caching.history_key(game, version),
        extended=lambda kept, appended: _after_appends(board, kept, appended),
        whole=lambda: _rendered(selectors.recent_changes(game)),
    )
    return mark_safe("".join(lines))  # noqa: S308 (rendered here, by the line's own template)


def _after_appends(board: Board, kept: list[str], appended: int) -> list[str] | None:
    """The lines of the `appended` deals recorded since `kept`, above them; None if the newest
    changes are not those deals recorded (a history written by hand)."""
    newest = _newest_changes(board.game, appended)
    last = board.last_number or 0
    recorded = [(change.action, change.deal_number) for change in newest]
    expected = [(GameChange.Action.RECORD, last - n) for n in range(appended)]
    if recorded != expected:
        return None
    return (_rendered(newest) + kept)[: selectors.HISTORY_SHOWN]


def _newest_changes(game: Game, count: int) -> list[GameChange]:
    if count == 1:  # most often: the deal just recorded, asked again and again
        return table_reads.newest_change(game_id=game.pk)
    return list(selectors.recent_changes(game)[:count])


def _rendered(changes) -> list[str]:
    line = get_template(LINE_TEMPLATE)
    return [line.render({"change": change}) for change in changes]
