"""What the game page's data for playing offline says, against the engine: the phone looks each
seat's penalty and who deals next up in what the server rendered, and each lookup gives what the
engine gives (pure Python: the same on any database, so `make test-services` leaves it out)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings

from rules.deal_score import score_deal
from rules.next_deal import next_deal
from rules.ruleset import parse_rules
from rules.scoring_sheet import scoring_sheet
from scoring.presenters.offline import finish as offline_finish
from scoring.presenters.offline import next_deal_words, penalty_table, phone_can_score
from tests.rules.strategies import rule_sets, rules_and_deals


@pytest.mark.parametrize(
    ("rules", "scored"),
    [
        ("standard", True),
        ("twos-double-each", True),
        ("twos-double,8-deals", True),
        ("3-players,draw-on-pass,open-ended", True),
        ("finishing-order", False),
        ("points-by-hand", False),
        ("pusoy-dos-scoring", False),
        ("dragon", False),
        ("pays-for-table", False),
    ],
)
def test_the_phone_scores_only_the_rules_its_script_applies(rules, scored):
    assert phone_can_score(scoring_sheet(parse_rules(rules))) is scored


def said_next(words: list, cards: tuple[int, ...]) -> str:
    """Who deals and leads after a deal, looked up as static/js/waiting-deals.js does: by the
    seat that went out, then (where the words differ by it) the one left with the most cards,
    the first after the winner of those tied."""
    winner = cards.index(0)
    said = words[winner]
    if isinstance(said, str):
        return said
    first = said[0]
    for pair in said[1:]:
        first = pair if cards[pair[0]] > cards[first[0]] else first
    return first[1]


@settings(max_examples=200)
@given(rules_and_deals(rule_sets().filter(lambda rules: phone_can_score(scoring_sheet(rules)))))
def test_after_a_deal_the_phone_says_who_deals_next_as_the_scoreboard_would(drawn):
    rules, (facts,) = drawn
    names = ["Ann", "Ben", "Cy", "Dee"][: rules.players]
    assert facts.cards_left is not None  # the phone scores cards left alone
    said = said_next(json.loads(json.dumps(next_deal_words(rules, names))), facts.cards_left)
    assert said == f"Next: {next_deal(rules, score_deal(facts, rules)).sentence(names)}"


@settings(max_examples=200)
@given(rules_and_deals(rule_sets().filter(lambda rules: phone_can_score(scoring_sheet(rules)))))
def test_each_seat_s_penalty_looked_up_in_the_page_s_table_is_the_engine_s(drawn):
    """static/js/waiting-deals.js scores a waiting deal by looking each seat up, no rule of its
    own: by going out on twos, cards left and twos held."""
    rules, (facts,) = drawn
    table = json.loads(json.dumps(penalty_table(rules)))
    twos = facts.twos_held or (0,) * rules.players
    assert facts.cards_left is not None
    looked_up = [
        table[1 if facts.out_on_twos else 0][cards][held]
        for cards, held in zip(facts.cards_left, twos, strict=True)
    ]
    assert looked_up == list(score_deal(facts, rules).penalties)


@pytest.mark.parametrize(
    ("rules", "finish"),
    [
        ("standard", {"target": 100, "ties_play_on": True}),
        ("twos-double,8-deals", {"deals": 8, "ties_play_on": True}),
        ("3-players,draw-on-pass,open-ended", {"ties_play_on": False}),
    ],
)
def test_the_end_of_the_game_is_read_from_the_rules(rules, finish):
    assert offline_finish(parse_rules(rules)) == finish


def test_under_loser_leads_who_leads_next_is_looked_up_by_who_lost():
    words = next_deal_words(parse_rules("loser-leads"), ["Ann", "Ben", "Cy", "Dee"])
    # Cy went out: each other seat as it breaks a tie for the most cards, the first after Cy first.
    assert words[2] == [
        [3, "Next: Cy deals; Dee leads"],
        [0, "Next: Cy deals; Ann leads"],
        [1, "Next: Cy deals; Ben leads"],
    ]
