"""The scoreboard (scoring/presenters/board.py): a deal recorded brings a board only its own
line (`Board.last_line`), which must be the line the whole scoreboard shows for it, under
every kind of rules, with the totals, tie and chart worked out from the replay alone."""

from __future__ import annotations

import random

import pytest

from scoring.models import Game
from scoring.presenters.board import load_board
from tests.factories import make_ruled_game, record_facts
from tests.scoring.random_facts import RULES, next_facts

pytestmark = pytest.mark.django_db


def board_of(game: Game):
    return load_board(game.pk)


@pytest.mark.parametrize("rules", RULES)
def test_the_last_line_alone_is_the_scoreboard_s_last_line(rules):
    game = make_ruled_game(rules)
    rng = random.Random(rules)
    for _ in range(12):
        game.refresh_from_db()
        if game.is_finished:
            break
        record_facts(game, **next_facts(rng, game))
        alone, whole = board_of(game), board_of(game)
        assert alone.last_line == whole.lines[-1]
        assert [cell.notes for cell in alone.last_line.cells] == [
            cell.notes for cell in whole.lines[-1].cells
        ]


def test_the_delta_s_parts_need_no_line_but_the_last(owner, club):
    """Totals, the tie, the next deal and the chart come from the replay: a board asked for
    them and its last line explains no other deal."""
    game = make_ruled_game("standard", club=club)
    for cards in ((0, 3, 5, 2), (4, 0, 1, 1), (2, 2, 0, 6)):
        record_facts(game, cards_left=cards)
    board = board_of(game)
    board.totals, board.tied_text, board.next_deal_text, board.chart(), board.last_line
    assert "lines" not in board.__dict__  # cached_property: never worked out
    assert board.last_line.number == 3


def test_a_board_without_deals_has_no_last_line(club):
    board = board_of(make_ruled_game("standard", club=club))
    assert board.last_line is None and board.lines == [] and board.chart() is None
    assert [total.lowest for total in board.totals] == [False] * 4
