"""Recording a deal adds it to the seats' stored figures (`recompute_appended`) instead of
replaying the whole game: what it stores must be what replaying every deal stores, under
every kind of rules, deal after deal until the game ends."""

from __future__ import annotations

import random

import pytest
from django.db import transaction

from scoring.models import Game
from scoring.services.totals import SEAT_FIGURES, lock_game, recompute
from tests.factories import make_ruled_game, record_facts
from tests.scoring.random_facts import RULES, next_facts


def stored(game: Game) -> tuple[object, ...]:
    game = Game.objects.get(pk=game.pk)
    seats = [
        tuple(getattr(seat, name) for name in SEAT_FIGURES)
        for seat in game.seats.order_by("position")
    ]
    return game.status, game.winner_id, game.finished_at, seats


def replayed(game: Game) -> tuple[object, ...]:
    """What `recompute`, replaying every deal, stores."""
    with transaction.atomic():
        recompute(lock_game(game))
    return stored(game)


@pytest.mark.parametrize("rules", RULES)
def test_each_recorded_deal_stores_what_replaying_the_game_stores(db, rules):
    game = make_ruled_game(rules)
    rng = random.Random(rules)
    for _ in range(60):
        record_facts(game, **next_facts(rng, game))
        assert stored(game) == replayed(game)
        if Game.objects.get(pk=game.pk).is_finished:
            break
    assert Game.objects.get(pk=game.pk).is_finished, "the game should have ended by now"


@pytest.mark.django_db(transaction=True)
def test_a_game_is_locked_only_in_a_transaction_and_only_while_it_exists():
    game = make_ruled_game(RULES[0])
    with pytest.raises(transaction.TransactionManagementError):
        lock_game(game)  # the lock would end with the statement: a write would race
    with transaction.atomic():
        assert lock_game(game).pk == game.pk
    Game.objects.filter(pk=game.pk).delete()
    with pytest.raises(Game.DoesNotExist), transaction.atomic():
        lock_game(game)
