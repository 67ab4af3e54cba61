"""Replacing a recorded deal with one typed on another phone for the same number: a correction
with a check that the deal is still the one the scorekeeper was shown. Changed on another phone
meanwhile, nothing is written and the scorekeeper is told; replaced already (a double tap, an
answer lost and the choice sent again), nothing more is written."""

from __future__ import annotations

from functools import partial

import pytest

from rules.deal_checks import DealResult
from scoring import services
from scoring.models import Game, GameChange
from tests.concurrency import at_once, needs_postgres
from tests.factories import make_club, make_game, record

SHOWN = DealResult(cards_left=(0, 5, 7, 9))
MINE = DealResult(cards_left=(0, 6, 7, 9))


def cards(game: Game, number: int) -> list[int]:
    deal = game.deals.get(number=number)
    return [score.cards_left for score in deal.scores.order_by("seat__position")]


def edits(game: Game) -> int:
    return GameChange.objects.filter(game=game, action=GameChange.Action.EDIT).count()


@pytest.fixture
def game(db):
    game = make_game(make_club())
    record(game, *SHOWN.cards_left)
    return game


def test_the_deal_shown_is_replaced_by_mine(game):
    services.edit_deal(game=game, number=1, by=game.club.owner, facts=MINE, replacing=SHOWN)

    assert cards(game, 1) == [0, 6, 7, 9]
    assert [seat.total for seat in game.seats.order_by("position")] == [0, 6, 7, 9]


def test_a_deal_changed_since_it_was_shown_is_not_replaced(game):
    owner = game.club.owner
    services.edit_deal(game=game, number=1, by=owner, cards_left=[0, 1, 1, 1])

    with pytest.raises(services.DealChanged, match="Deal 1 was changed on another phone"):
        services.edit_deal(game=game, number=1, by=owner, facts=MINE, replacing=SHOWN)

    assert cards(game, 1) == [0, 1, 1, 1]
    assert edits(game) == 1


def test_replacing_twice_replaces_once(game):
    owner = game.club.owner
    for _ in range(2):
        services.edit_deal(game=game, number=1, by=owner, facts=MINE, replacing=SHOWN)

    assert cards(game, 1) == [0, 6, 7, 9]
    assert edits(game) == 1


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_two_phones_replacing_the_deal_at_once_replace_it_once():
    game = make_game(make_club())
    record(game, *SHOWN.cards_left)
    owner = game.club.owner

    def replace(facts: DealResult) -> None:
        services.edit_deal(
            game=Game.objects.get(pk=game.pk), number=1, by=owner, facts=facts, replacing=SHOWN
        )

    theirs = DealResult(cards_left=(0, 8, 7, 9))
    outcomes = at_once(partial(replace, MINE), partial(replace, theirs))

    assert sorted(outcomes)[0] == "done: None", outcomes
    assert sorted(outcomes)[1].startswith("refused: Deal 1 was changed on another phone"), outcomes
    assert cards(game, 1) in ([0, 6, 7, 9], [0, 8, 7, 9])
    assert edits(game) == 1
