"""Random deals for tests that play whole games under every kind of rules: the facts each
rule set asks for, drawn from a seeded `random.Random`."""

from __future__ import annotations

import random

from rules.deal_score import facts_wanted
from scoring.models import Game
from scoring.services.demo import random_deal

RULES = [
    "standard",
    "twos-double-each,3-players",
    "heavy-penalties,twos-double-each,3-players",
    "points-by-hand,loser-leads",
    "finishing-order,3-players,to-5",
    "pusoy-dos-scoring,pays-for-table,8-deals",
    "standard-suits,4-players,to-100",
]


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
    if "went_out" in wanted.allowed and rng.random() < 0.5:
        # Pusoy Dos scoring, as the deal form gives it: who went out, no cards left.
        facts = {"went_out": cards.index(0)}
    if "twos_held" in wanted.allowed:
        # One player caught with a two now and then.
        twos = [0] * players
        caught = max(range(players), key=lambda seat: cards[seat])
        twos[caught] = rng.choice([0, 1])
        facts["twos_held"] = tuple(twos)
    if "last_play_twos" in wanted.required:
        facts["last_play_twos"] = rng.choice([0, 1])
    return facts
