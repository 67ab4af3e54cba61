"""The scoring of a rule set as plain data, for a phone to apply offline.

`scoring_sheet` says everything `rules.deal_score.score_deal` needs to score a deal that is
valid: what each count of cards left costs, the multipliers of the twos rules, the Pusoy Dos
points, the places' penalties, the dragon, paying for the table, the bounds a deal must keep,
who leads next, and when the match ends. A small script can apply it instead of a second
hand-written copy of the rules; the tests hold a reference interpreter of it to the engine.

>>> sheet = scoring_sheet(DEFAULT_RULES)
>>> sheet["penalties"][:4], sheet["penalties"][10], sheet["penalties"][13]
([0, 1, 2, 3], 20, 39)
>>> sheet["finish"]
{'kind': 'target', 'target': 100}
"""

from __future__ import annotations

from rules.deal_checks import MOST_POINTS, PUSOY_DOS_POINTS, TWOS_IN_THE_DECK, penalty
from rules.deal_options import DECK_SIZE, Dragon, DrawOnPass, PaysForTable, Scoring
from rules.deal_score import PLACES, facts_wanted
from rules.options import Finish, TwosRule
from rules.plays import lowest_card
from rules.ruleset import DEFAULT_RULES, RuleSet

# Bumped when a key changes meaning, so a script can refuse a sheet it doesn't know.
SHEET_VERSION = 1

type Json = dict[str, object]


def scoring_sheet(rules: RuleSet = DEFAULT_RULES) -> Json:
    """How a deal is scored under `rules`, as JSON-able data (the README's API section
    describes each key)."""
    cards_scored = rules.scoring in (Scoring.CARDS_LEFT, Scoring.PUSOY_DOS)
    return {
        "version": SHEET_VERSION,
        "rules": rules.name,
        "players": rules.players,
        "scoring": rules.scoring.value,
        "facts": _facts(rules),
        "cards_left": _cards_left(rules) if cards_scored or _cards_optional(rules) else None,
        "penalties": _penalties(rules) if rules.scoring is Scoring.CARDS_LEFT else None,
        "twos": _twos(rules),
        "pusoy_dos_points": list(PUSOY_DOS_POINTS) if rules.scoring is Scoring.PUSOY_DOS else None,
        "places": list(PLACES[rules.players]) if rules.scoring is Scoring.FINISHING_ORDER else None,
        "points": {"most": MOST_POINTS} if rules.scoring is Scoring.POINTS_BY_HAND else None,
        "dragon": {"penalty": penalty(rules.cards_dealt, rules)}
        if rules.dragon is Dragon.ON
        else None,
        "pays_for_table": rules.pays_for_table is PaysForTable.ON,
        "lead": {
            "rule": rules.lead.value,
            "lowest_card": lowest_card(rules).code,
            "whole_pack_dealt": rules.whole_pack_dealt,
        },
        "finish": _finish(rules),
    }


def _facts(rules: RuleSet) -> Json:
    wanted = facts_wanted(rules)
    return {
        "required": sorted(wanted.required),
        "optional": sorted(wanted.optional),
        "one_of": sorted(wanted.one_of),
    }


def _cards_optional(rules: RuleSet) -> bool:
    return "cards_left" in facts_wanted(rules).optional


def _cards_left(rules: RuleSet) -> Json:
    """The bounds of cards left: `most` in one hand; with draw-on-pass, `most_in_all` between
    the losers (the winner played at least their deal); with three players dealt 17, only one
    hand (whoever took the 18th card) can hold `most` (`most_once`)."""
    drawing = rules.draw_on_pass is DrawOnPass.ON
    return {
        "most": rules.hand_size,
        "most_in_all": DECK_SIZE - rules.cards_dealt if drawing else None,
        "most_once": rules.players == 3 and not drawing,
    }


def _penalties(rules: RuleSet) -> list[int]:
    """The penalty for 0, 1, 2 … `most` cards left, before any twos rule doubles it."""
    return [penalty(cards, rules) for cards in range(rules.hand_size + 1)]


def _twos(rules: RuleSet) -> Json | None:
    """The twos rules as multipliers: going out on twos, and each two held."""
    if rules.twos is TwosRule.OFF:
        return None
    return {
        "out_on_twos": 2,
        "per_two_held": 2 if rules.twos is TwosRule.EACH_TWO else None,
        "in_the_deck": TWOS_IN_THE_DECK,
    }


def _finish(rules: RuleSet) -> Json:
    match rules.finish:
        case Finish.TARGET:
            return {"kind": "target", "target": rules.target}
        case Finish.DEALS:
            return {"kind": "deals", "deals": rules.deals}
        case _:
            return {"kind": "open-ended"}
