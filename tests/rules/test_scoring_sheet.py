"""The scoring as data (`rules.scoring_sheet`), held to the engine by a reference interpreter
written the way a script on a phone would apply it: the sheet as JSON and the deal's facts,
and nothing else of the engine."""

import json
from dataclasses import asdict

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.deal_checks import DealResult
from rules.deal_options import Scoring
from rules.deal_score import DealRefused, score_deal
from rules.ruleset import parse_rules
from rules.scoring_sheet import scoring_sheet
from tests.rules.strategies import rule_sets, rules_and_deals

# --- The reference interpreter: plain Python on plain data -------------------------------------


def interpret(sheet: dict, facts: dict) -> tuple[list[int], int]:
    """Each seat's penalty and the winner of a valid deal, from the sheet alone."""
    players = sheet["players"]
    if facts.get("dragon") is not None:
        winner = facts["dragon"]
        full_hand = sheet["dragon"]["penalty"]
        return [0 if seat == winner else full_hand for seat in range(players)], winner
    if sheet["scoring"] == "finishing-order":
        penalties = [0] * players
        for place, seat in enumerate(facts["order"]):
            penalties[seat] = sheet["places"][place]
        return penalties, facts["order"][0]
    if sheet["scoring"] == "points-by-hand":
        return list(facts["points"]), facts["points"].index(0)
    cards = facts["cards_left"]
    winner = facts["went_out"] if facts.get("went_out") is not None else cards.index(0)
    if sheet["scoring"] == "pusoy-dos-scoring":
        earned = sheet["pusoy_dos_points"][facts["last_play_twos"]]
        penalties = [0 if seat == winner else earned for seat in range(players)]
    else:
        penalties = [cards_penalty(sheet, facts, seat) for seat in range(players)]
    if sheet["pays_for_table"] and facts.get("pays") is not None:
        total = sum(penalties)
        penalties = [total if seat == facts["pays"] else 0 for seat in range(players)]
    return penalties, winner


def cards_penalty(sheet: dict, facts: dict, seat: int) -> int:
    points = sheet["penalties"][facts["cards_left"][seat]]
    twos = sheet["twos"]
    if twos is not None and facts.get("out_on_twos"):
        points *= twos["out_on_twos"]
    held = (facts.get("twos_held") or [0] * sheet["players"])[seat]
    if held:
        points *= twos["per_two_held"] ** held
    return points


def cards_fit(sheet: dict, cards: list[int]) -> bool:
    """Whether cards left keep the sheet's bounds: as a phone would check them before
    scoring."""
    bounds = sheet["cards_left"]
    return (
        len(cards) == sheet["players"]
        and all(0 <= count <= bounds["most"] for count in cards)
        and cards.count(0) == 1
        and (bounds["most_in_all"] is None or sum(cards) <= bounds["most_in_all"])
        and (not bounds["most_once"] or cards.count(bounds["most"]) <= 1)
    )


def as_json(value: object) -> dict:
    """What a script would get: the data after a trip through JSON."""
    return json.loads(json.dumps(value))


# --- The interpreter against the engine ---------------------------------------------------------


@settings(max_examples=300)
@given(rules_and_deals(count=2))
def test_the_sheet_scores_every_valid_deal_as_the_engine_does(drawn):
    rules, sheets = drawn
    sheet = as_json(scoring_sheet(rules))
    for facts in sheets:
        scored = score_deal(facts, rules)
        assert interpret(sheet, as_json(asdict(facts))) == (list(scored.penalties), scored.winner)


@settings(max_examples=300)
@given(
    rule_sets().filter(lambda rules: rules.scoring in (Scoring.CARDS_LEFT, Scoring.PUSOY_DOS)),
    st.lists(st.integers(-1, 40), min_size=2, max_size=4),
)
def test_the_sheets_bounds_accept_the_cards_left_the_engine_accepts(rules, cards):
    sheet = as_json(scoring_sheet(rules))
    facts = DealResult(
        tuple(cards),
        twos_held=(0,) * len(cards) if "twos_held" in sheet["facts"]["required"] else None,
        last_play_twos=0 if rules.scoring is Scoring.PUSOY_DOS else None,
    )
    try:
        score_deal(facts, rules)
    except DealRefused:
        accepted = False
    else:
        accepted = True
    assert cards_fit(sheet, cards) == accepted


# --- The sheet itself ---------------------------------------------------------------------------


def test_the_standard_sheet():
    sheet = scoring_sheet(parse_rules("standard"))
    assert sheet == {
        "version": 1,
        "rules": "standard",
        "players": 4,
        "scoring": "cards-left-scoring",
        "facts": {"required": ["cards_left"], "optional": [], "one_of": []},
        "cards_left": {"most": 13, "most_in_all": None, "most_once": False},
        "penalties": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 20, 22, 24, 39],
        "twos": None,
        "pusoy_dos_points": None,
        "places": None,
        "points": None,
        "dragon": None,
        "pays_for_table": False,
        "lead": {"rule": "lowest-three-leads", "lowest_card": "3D", "whole_pack_dealt": True},
        "finish": {"kind": "target", "target": 100},
    }
    assert as_json(sheet) == sheet


def test_sheets_of_the_new_rules():
    pusoy = scoring_sheet(parse_rules("pusoy-dos-suits,pusoy-dos-scoring,pays-for-table,8-deals"))
    assert pusoy["pusoy_dos_points"] == [1, 2, 4, 8, 16]
    assert pusoy["penalties"] is None
    assert pusoy["pays_for_table"] is True
    assert pusoy["lead"]["lowest_card"] == "3C"
    assert pusoy["finish"] == {"kind": "deals", "deals": 8}
    assert pusoy["facts"] == {
        "required": ["last_play_twos"],
        "optional": ["pays"],
        "one_of": ["cards_left", "went_out"],
    }
    order = scoring_sheet(parse_rules("finishing-order,3-players,open-ended,winner-leads"))
    assert order["places"] == [0, 1, 3]
    assert order["cards_left"] is None
    assert order["facts"] == {"required": ["order"], "optional": [], "one_of": []}
    assert order["finish"] == {"kind": "open-ended"}
    assert order["lead"]["rule"] == "winner-leads"
    dragon = scoring_sheet(parse_rules("dragon,heavy-penalties,twos-double-each"))
    assert dragon["dragon"] == {"penalty": 52}
    assert dragon["twos"] == {"out_on_twos": 2, "per_two_held": 2, "in_the_deck": 4}
    points = scoring_sheet(parse_rules("points-by-hand,2-players-21"))
    assert points["points"] == {"most": 999}
    assert points["cards_left"]["most"] == 21
    assert points["lead"]["whole_pack_dealt"] is False
    drawing = scoring_sheet(parse_rules("3-players,draw-on-pass"))
    assert drawing["cards_left"] == {"most": 26, "most_in_all": 39, "most_once": False}
    assert drawing["penalties"][26] == 78
    assert scoring_sheet(parse_rules("3-players"))["cards_left"]["most_once"] is True
