"""GET /api/deals/score: one deal scored by the engine's `score_deal`, every seed example of
issue 14's rules, and every refusal a 400 that says what to fix."""

import pytest
from django.test import Client
from hypothesis import given, settings
from hypothesis import strategies as st

from checker.json_shapes import SCORE_PARAMETERS
from rules.deal_score import score_deal
from tests.rules.scored_deals import query
from tests.rules.strategies import rules_and_deals

SCORE = "/api/deals/score"


def score(client, **params) -> dict:
    response = client.get(SCORE, params)
    assert response.status_code == 200, response.json()
    return response.json()


def refusal(client, **params) -> str:
    response = client.get(SCORE, params)
    assert response.status_code == 400
    assert set(response.json()) == {"error"}
    return response.json()["error"]


def test_the_issues_example_scores_one_entry_a_seat_in_seat_order(client):
    assert score(client, rules="standard", cards="0,5,13,10") == {
        "rules": {"name": "standard", "label": "Standard rules"},
        "cards": [0, 5, 13, 10],
        "penalties": [0, 5, 39, 20],
        "explanation": ["went out", "5 cards, 1 each", "13 cards, 3 each", "10 cards, 2 each"],
        "winner": 0,
    }


def test_rules_left_out_are_the_standard_rules_and_whitespace_is_tolerated(client):
    body = score(client, cards=" 0, 4 ,10 , 13 ")
    assert body["rules"]["name"] == "standard"
    assert body["penalties"] == [0, 4, 20, 39]


def test_the_twos_rules(client):
    """Seed 004: 8, 40 and 78 after going out on the two of spades; 9 × 2 × 2 × 2 = 72."""
    body = score(client, rules="twos-double", cards="0,4,10,13", out_on_twos="1")
    assert body["penalties"] == [0, 8, 40, 78]
    assert body["explanation"][1] == "4 cards, 1 each; doubled: went out on twos"
    body = score(
        client, rules="twos-double-each", cards="0,9,4,13", twos="0,2,0,1", out_on_twos="yes"
    )
    assert body["penalties"] == [0, 72, 8, 156]
    assert score(client, rules="twos-double", cards="0,4,10,13", out_on_twos="0")["penalties"] == [
        0,
        4,
        20,
        39,
    ]


@pytest.mark.parametrize(
    ("rules", "cards", "penalties"),
    [
        ("heavy-penalties", "0,8,10,13", [0, 16, 30, 52]),
        ("doubling-penalties", "0,8,10,11", [0, 16, 40, 44]),
        ("flat-penalties", "0,8,10,13", [0, 8, 10, 13]),
    ],
)
def test_the_heavier_scales(client, rules, cards, penalties):
    """Seed 004: "double for eight or nine cards, treble for ten to twelve and quadruple for
    thirteen"; "ten cards cost 40, eleven 44"; "one point per card with no doubling"."""
    assert score(client, rules=rules, cards=cards)["penalties"] == penalties


@pytest.mark.parametrize(("twos", "points"), [(0, 1), (1, 2), (2, 4), (3, 8), (4, 16)])
def test_pusoy_dos_scoring(client, twos, points):
    body = score(client, rules="pusoy-dos-scoring", cards="3,0,13,1", last_play_twos=str(twos))
    assert body["penalties"] == [points, 0, points, points]
    assert body["winner"] == 1


def test_pusoy_dos_scoring_takes_who_went_out_without_cards_left(client):
    body = score(client, rules="pusoy-dos-scoring", went_out="2", last_play_twos="1")
    assert body["penalties"] == [2, 2, 0, 2]
    assert body["cards"] is None
    assert body["winner"] == 2


def test_finishing_order(client):
    body = score(client, rules="finishing-order", order="2,0,3,1")
    assert body["penalties"] == [1, 5, 0, 3]
    assert body["cards"] is None
    assert body["explanation"] == ["2nd out", "last", "went out first", "3rd out"]
    assert score(client, rules="finishing-order,3-players", order="1,2,0")["penalties"] == [3, 0, 1]
    assert score(client, rules="finishing-order,2-players", order="1,0")["penalties"] == [1, 0]


def test_the_dragon(client):
    body = score(client, rules="dragon", dragon="2")
    assert body["penalties"] == [39, 39, 0, 39]
    assert body["cards"] == [13, 13, 13, 13]
    assert body["explanation"][0] == "dragon: 13 cards, 3 each"
    assert score(client, rules="dragon", cards="0,1,2,3")["penalties"] == [0, 1, 2, 3]


def test_pays_for_the_table(client):
    body = score(client, rules="pays-for-table", cards="0,5,13,10", pays="3")
    assert body["penalties"] == [0, 0, 0, 64]
    assert body["explanation"][3] == "pays for the table: 5 + 39 + 20"
    assert body["explanation"][1] == "5 cards, 1 each; seat 3 pays for the table"


def test_hands_of_thirteen_or_more_cost_three_a_card(client):
    assert score(client, rules="3-players", cards="0,13,18")["penalties"] == [0, 39, 54]
    assert score(client, rules="2-players-17", cards="17,0")["penalties"] == [51, 0]
    assert score(client, rules="2-players-21", cards="0,21")["penalties"] == [0, 63]
    assert score(client, rules="3-players,draw-on-pass", cards="0,26,13")["penalties"] == [
        0,
        78,
        39,
    ]


def test_points_by_hand_with_or_without_cards(client):
    body = score(client, rules="points-by-hand", points="0,4,9,2")
    assert body["penalties"] == [0, 4, 9, 2]
    assert body["cards"] is None
    body = score(client, rules="points-by-hand", points="0,4,9,2", cards="0,1,2,3")
    assert body["cards"] == [0, 1, 2, 3]


def test_the_rules_are_named_in_full(client):
    body = score(
        client,
        rules="Pusoy-Dos pusoy-dos-scoring winner-leads",
        cards="0,1,2,3",
        last_play_twos="0",
    )
    assert body["rules"] == {
        "name": "pusoy-dos-suits,pusoy-dos-scoring,winner-leads",
        "label": "Pusoy Dos suits (♣ < ♠ < ♥ < ♦), Pusoy Dos scoring, the winner leads",
    }


@pytest.mark.parametrize(
    ("params", "error"),
    [
        (
            {},
            "These rules (Standard rules) need cards=0,5,13,10 (each seat's cards left, 0 for the"
            " winner)",
        ),
        (
            {"cards": "0,5,13,10", "order": "0,1,2,3"},
            "These rules (Standard rules) don't use order=: leave it out",
        ),
        (
            {"cards": "0,5,13,10", "out_on_twos": "1", "pays": "1"},
            "These rules (Standard rules) don't use out_on_twos=, pays=: leave them out",
        ),
        (
            {"rules": "dragon", "dragon": "1", "cards": "0,1,2,3"},
            "A dragon wins before a card is played, so the deal takes only dragon=: leave out"
            " cards=",
        ),
        (
            {"rules": "finishing-order,3-players"},
            "These rules (Finishing order, 3 players) need order=1,0,2",
        ),
        (
            {"rules": "twos-double-each", "cards": "0,1,2,3"},
            "need twos=0,1,0,2 (the twos each seat holds)",
        ),
        (
            {"rules": "pusoy-dos-scoring"},
            "need went_out=1 (the seat who went out); last_play_twos=2",
        ),
        (
            {"rules": "points-by-hand,2-players"},
            "need points=0,4 (each seat's points, 0 for the winner)",
        ),
        (
            {"cards": "1,5,13,10"},
            "Nobody went out: enter 0 for the player who played their last card",
        ),
        (
            {"cards": "0,0,13,10"},
            "Only one player can go out in a deal — seat 0 and seat 1 both have 0",
        ),
        ({"cards": "0,5,14,10"}, "Cards left must be between 0 and 13 — seat 2 has 14"),
        ({"cards": "0,5,13"}, "Enter the cards left for all 4 players"),
        (
            {"rules": "twos-double-each", "cards": "0,1,2,3", "twos": "0,2,0,0"},
            "Seat 1 holds more twos (2) than cards (1)",
        ),
        ({"cards": "0,five,13,10"}, "cards= takes whole numbers: 'five' is not one"),
        ({"cards": "0,,13,10"}, "cards= takes whole numbers: '' is not one"),
        ({"cards": "0,٣,13,10"}, "cards= takes whole numbers: '٣' is not one"),
        ({"cards": "0,5,13,10" + " " * 200}, "at most 200 are read"),
        ({"rules": "twos-double", "cards": "0,1,2,3", "out_on_twos": "maybe"}, "out_on_twos= is 1"),
        ({"rules": "jokers-wild", "cards": "0,1,2,3"}, "'jokers-wild' is not a house rule"),
        (
            {"rules": "draw-on-pass", "cards": "0,1,2,3"},
            "'draw-on-pass' needs a stock to draw from",
        ),
        (
            {"rules": "finishing-order", "order": "0,1,1,2"},
            "The finishing order names seat 1 more than once",
        ),
        (
            {
                "rules": "pusoy-dos-scoring,pays-for-table",
                "went_out": "0",
                "last_play_twos": "0",
                "pays": "0",
            },
            "Seat 0 went out, so can't pay for the table",
        ),
        (
            {"rules": "dragon", "dragon": "4"},
            "There is no seat 4 to hold the dragon: seats are 0 to 3",
        ),
        (
            {"rules": "pusoy-dos-scoring", "cards": "0,1,2,3", "last_play_twos": "5"},
            "The last play can hold 0 to 4 twos",
        ),
        (
            {"rules": "points-by-hand", "points": "0,4,9,1000"},
            "Points must be between 0 and 999 — seat 3 has 1000",
        ),
        ({"cards": "0,5,13,1234567"}, "cards= takes whole numbers: '1234567' is not one"),
    ],
)
def test_every_refusal_is_a_400_saying_what_to_fix(client, params, error):
    assert error in refusal(client, **params)


def test_the_score_api_only_answers_get(client):
    assert client.post(SCORE, {"cards": "0,1,2,3"}).status_code == 405


# --- The API and the engine agree: they share the one function ---------------------------------


@settings(max_examples=60, deadline=None)
@given(rules_and_deals())
def test_the_api_answers_what_score_deal_answers_for_any_valid_deal(drawn):
    rules, (facts,) = drawn
    scored = score_deal(facts, rules)
    response = Client().get(SCORE, {"rules": rules.name, **query(facts)})
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["penalties"] == list(scored.penalties)
    assert body["explanation"] == list(scored.explain())
    assert body["winner"] == scored.winner
    assert body["rules"]["name"] == rules.name


@settings(max_examples=100, deadline=None)
@given(
    params=st.dictionaries(
        st.sampled_from([*SCORE_PARAMETERS, "rules"]),
        st.one_of(
            st.text(max_size=30),
            st.sampled_from(
                [
                    "0,1,2,3",
                    "1",
                    "0",
                    "2,0,3,1",
                    "dragon",
                    "finishing-order",
                    "points-by-hand",
                    "pusoy-dos-scoring",
                    "3-players",
                ]
            ),
        ),
    )
)
def test_no_query_makes_the_score_api_fail(params):
    response = Client().get(SCORE, params)
    assert response.status_code in (200, 400)
    if response.status_code == 400:
        assert response.json()["error"]
    else:
        assert len(response.json()["penalties"]) == len(response.json()["explanation"])


def test_a_number_with_an_ascii_separator_around_it_is_read_as_checked():
    """str.strip() takes the ASCII separators (\\x1c-\\x1f) for space and int() doesn't: the
    number checked is the one read, not a 500."""
    response = Client().get(SCORE, {"cards": "0\x1f,5,\x1c13,10"})
    assert response.status_code == 200
    assert response.json()["penalties"] == [0, 5, 39, 20]
