"""A deal filling in, as every phone of a game played with own counts shows it (a member's
game page, the shared live view): each figure sent so far, who the table still waits for, in
words, and what is wrong with a deal whose figures are all in but make no valid deal."""

from __future__ import annotations

from dataclasses import dataclass

from scoring import selectors
from scoring.forms.deal_values import sent_values
from scoring.presenters.board import Board
from scoring.presenters.wording import names_and


@dataclass(frozen=True, slots=True)
class FillingShown:
    """Deal `number` as its players have sent it: (name, figure) for each seat that sent, the
    names still waited for ("" once all are in), the problems of a deal that can't be, and
    what was sent as the whole-table deal form's values (name, value), which the game page's
    script puts in the form's boxes as they come (static/js/own-counts.js)."""

    number: int
    figures: tuple[tuple[str, int | None], ...]
    waiting: str
    problems: tuple[str, ...]
    form_values: tuple[tuple[str, object], ...] = ()


def filling_shown(board: Board, filling: selectors.Filling | None) -> FillingShown | None:
    """What templates/scoring/_board.html#filling shows for the board's game with `filling`
    (selectors.deal_filling: None before anyone sends); None for a game kept on one phone or
    over."""
    game = board.game
    if not game.own_counts or game.is_finished:
        return None
    if filling is None:
        return FillingShown(board.next_number, (), names_and(board.names), ())
    return FillingShown(
        number=filling.number,
        figures=tuple((name, figure) for name, figure in filling.figures if figure is not None),
        waiting=names_and(list(filling.waiting)) if filling.waiting else "",
        problems=filling.problems,
        form_values=tuple(sent_values(filling.sent).items()),
    )


def read_filling(board: Board) -> FillingShown | None:
    """`filling_shown` with the deal filling read (one query; none for a game kept on one
    phone)."""
    game = board.game
    if not game.own_counts or game.is_finished:
        return None
    return filling_shown(board, selectors.deal_filling(game, board.seats))
