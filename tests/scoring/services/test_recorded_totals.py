"""Recording a deal adds it to the seats' stored figures (`recompute_appended`) instead of
replaying the whole game: what it stores must be what replaying every deal stores, under
every kind of rules, deal after deal until the game ends."""

from __future__ import annotations

import random

import pytest
from django.db import transaction

from rules.deal_score import facts_wanted
from scoring.demo import random_deal
from scoring.models import Game
from scoring.services.totals import SEAT_FIGURES, lock_game, recompute
from tests.factories import make_ruled_game, record_facts

RULES = [
    "standard",
    "twos-double-each,3-players",
    "heavy-penalties,twos-double-each,3-players",
    "points-by-hand,loser-leads",
    "finishing-order,3-players,to-5",
    "pusoy-dos-scoring,pays-for-table,8-deals",
    "standard-suits,4-players,to-100",
]


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


def next_facts(rng: random.Random, game: Game) -> dict[str, object]:
    rules = game.ruleset
    wanted = facts_wanted(rules)
    players = rules.players
    if "order" in wanted.required:
        order = list(range(players))
        rng.shuffle(order)
        return {"order": tuple(order)}
    if "points" in wanted.required:
        points = [rng.randint(1, 30) for _ in range(players)]
        points[rng.randrange(players)] = 0
        return {"points": tuple(points)}
    cards = random_deal(rng, players)
    facts: dict[str, object] = {"cards_left": tuple(cards)}
    if "twos_held" in wanted.allowed:
        # One player caught with a two now and then.
        twos = [0] * players
        caught = max(range(players), key=lambda seat: cards[seat])
        twos[caught] = rng.choice([0, 1])
        facts["twos_held"] = tuple(twos)
    if "last_play_twos" in wanted.required:
        facts["last_play_twos"] = rng.choice([0, 1])
    return facts


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
