"""The JSON API's shapes: a hand, a play, the rules in force, the helpers' answers and a
scored deal.

`/api/hands/classify`, `/compare`, `/plays`, `/split` and `/api/deals/score` (checker.api)
build their answers from these; the README's API section describes each shape.
"""

from __future__ import annotations

from collections.abc import Sequence

from checker.table_helpers import PlayAdvice, sorted_hand
from rules.cards import Card
from rules.deal_score import ScoredDeal
from rules.hand_report import HandReport
from rules.plays import Play
from rules.ruleset import RuleSet
from rules.split import Arrangement


def hand_json(hand: HandReport) -> dict[str, object]:
    """The API's shape for one hand (`/api/hands/classify`, and each side of `compare`)."""
    return {
        "cards": [card.code for card in hand.shown_cards],
        "valid": hand.play is not None,
        "kind": str(hand.play.kind) if hand.play is not None else None,
        "description": hand.description,
        "error": hand.problem,
    }


def rules_json(rules: RuleSet) -> dict[str, str]:
    return {"name": rules.name, "label": rules.label}


def play_json(play: Play) -> dict[str, object]:
    return {
        "cards": [card.code for card in play.cards],
        "kind": str(play.kind),
        "description": play.description,
    }


def plays_json(advice: PlayAdvice, hand: Sequence[Card], rules: RuleSet) -> dict[str, object]:
    """`/api/hands/plays`: see the README's API section."""
    return {
        "rules": rules_json(rules),
        "hand": [card.code for card in sorted_hand(hand, rules)],
        "table": None if advice.table is None else hand_json(advice.table),
        "groups": [
            {
                "kind": str(group.kind),
                "label": group.kind.label,
                "plays": [play_json(play) for play in group.plays],
            }
            for group in advice.groups
        ],
        "count": advice.count,
    }


def split_json(
    found: Sequence[Arrangement], hand: Sequence[Card], rules: RuleSet
) -> dict[str, object]:
    """`/api/hands/split`: see the README's API section."""
    return {
        "rules": rules_json(rules),
        "hand": [card.code for card in sorted_hand(hand, rules)],
        "arrangements": [
            {
                "score": arrangement.score,
                "parts": [
                    {"label": part.label, "points": part.points} for part in arrangement.parts
                ],
                "plays": [play_json(play) for play in arrangement.plays],
            }
            for arrangement in found
        ],
    }


# `/api/deals/score`'s parameters, each the `rules.deal_checks.DealResult` fact it gives, in
# the order the README lists them.
SCORE_PARAMETERS = {
    "cards": "cards_left",
    "went_out": "went_out",
    "out_on_twos": "out_on_twos",
    "twos": "twos_held",
    "last_play_twos": "last_play_twos",
    "order": "order",
    "dragon": "dragon",
    "pays": "pays",
    "points": "points",
}


def scored_json(scored: ScoredDeal) -> dict[str, object]:
    """`/api/deals/score`: see the README's API section."""
    cards_left = scored.cards_left
    return {
        "rules": rules_json(scored.rules),
        "cards": None if cards_left is None else list(cards_left),
        "penalties": list(scored.penalties),
        "explanation": list(scored.explain()),
        "winner": scored.winner,
    }
