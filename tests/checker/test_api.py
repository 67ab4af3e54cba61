"""The JSON API: /api/hands/classify, compare, plays and split."""

import pytest
from django.test import Client
from hypothesis import given, settings
from hypothesis import strategies as st

CLASSIFY = "/api/hands/classify"
COMPARE = "/api/hands/compare"
PLAYS = "/api/hands/plays"
SPLIT = "/api/hands/split"
HAND = "3d 4c 5h 6s 7d 7c 9h 9s jd qd kc 2s 2h"
KINDS = {
    "single",
    "pair",
    "triple",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
}


def test_classify_names_a_legal_play(client):
    response = client.get(CLASSIFY, {"cards": "3h 5h 6h 7h 9h"})
    assert response.status_code == 200
    assert response.json() == {
        "cards": ["3H", "5H", "6H", "7H", "9H"],
        "valid": True,
        "kind": "flush",
        "description": response.json()["description"],
        "error": None,
        "rules": {"name": "standard", "label": "Standard rules"},
    }
    assert "♥" in response.json()["description"]


def test_classify_answers_200_for_an_illegal_play_and_says_why(client):
    response = client.get(CLASSIFY, {"cards": "9s 9d 4c 4h"})
    assert response.status_code == 200
    body = response.json()
    assert body["valid"] is False
    assert body["kind"] is None
    assert body["error"]
    assert body["description"].startswith("Not a play")


def test_j_q_k_a_2_is_not_a_straight(client):
    body = client.get(CLASSIFY, {"cards": "JS QH KD AC 2D"}).json()
    assert body["valid"] is False


def test_classify_rejects_text_that_is_not_cards_with_400(client):
    response = client.get(CLASSIFY, {"cards": "1H 2H"})
    assert response.status_code == 400
    assert "1H" in response.json()["error"]


def test_classify_without_cards_says_how_to_ask(client):
    response = client.get(CLASSIFY)
    assert response.status_code == 400
    assert "?cards=" in response.json()["error"]


def test_text_longer_than_200_characters_is_refused(client):
    response = client.get(CLASSIFY, {"cards": "9s " * 70})
    assert response.status_code == 400
    assert "200" in response.json()["error"]


def test_compare_says_a_club_flush_beats_an_ace_high_diamond_flush(client):
    response = client.get(COMPARE, {"a": "3C 5C 6C 7C 8C", "b": "4D 9D 10D QD AD"})
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"a", "b", "result", "reason", "rules"}
    assert body["a"]["kind"] == body["b"]["kind"] == "flush"
    assert body["result"] == "a_beats_b"
    assert "suit" in body["reason"].lower()


def test_compare_a_pair_against_a_five_card_hand_cannot_be_decided(client):
    body = client.get(COMPARE, {"a": "9s 9d", "b": "3c 4c 5c 6c 8c"}).json()
    assert body["result"] == "different_sizes"


def test_compare_with_a_hand_that_is_not_a_play(client):
    body = client.get(COMPARE, {"a": "9s 9d 4c 4h", "b": "5c 5d"}).json()
    assert body["result"] == "not_a_play"
    assert body["a"]["valid"] is False


def test_compare_refuses_a_card_in_both_hands(client):
    response = client.get(COMPARE, {"a": "9s 9d", "b": "9s 9h"})
    assert response.status_code == 400
    assert "9♠" in response.json()["error"]


@pytest.mark.parametrize("params", [{}, {"a": "9s"}, {"b": "9s"}, {"a": "x", "b": "9s"}])
def test_compare_refuses_missing_or_bad_hands_with_400(client, params):
    response = client.get(COMPARE, params)
    assert response.status_code == 400
    assert response.json()["error"]


def test_the_api_only_answers_get(client):
    assert client.post(CLASSIFY, {"cards": "9s"}).status_code == 405


# House rules


def test_under_pusoy_dos_suits_the_nine_of_diamonds_beats_the_nine_of_spades(client):
    assert client.get(COMPARE, {"a": "9d", "b": "9s"}).json()["result"] == "b_beats_a"
    body = client.get(COMPARE, {"a": "9d", "b": "9s", "rules": "pusoy-dos-suits"}).json()
    assert body["result"] == "a_beats_b"
    assert "Pusoy Dos order" in body["reason"]
    assert body["rules"] == {
        "name": "pusoy-dos-suits",
        "label": "Pusoy Dos suits (♣ < ♠ < ♥ < ♦)",
    }


def test_under_two_high_straights_j_q_k_a_2_is_a_straight(client):
    body = client.get(CLASSIFY, {"cards": "JS QH KD AC 2D", "rules": "two-high-straights"}).json()
    assert body["valid"] is True
    assert body["kind"] == "straight"
    assert body["rules"]["name"] == "two-high-straights"


def test_poker_flushes_compare_card_by_card(client):
    params = {"a": "3C 5C 6C 7C 8C", "b": "4D 9D 10D QD AD", "rules": "poker-flushes"}
    body = client.get(COMPARE, params).json()
    assert body["result"] == "b_beats_a"
    assert "as in poker" in body["reason"]


def test_rules_that_only_matter_for_scoring_are_dropped(client):
    body = client.get(CLASSIFY, {"cards": "9s", "rules": "heavy-penalties, to-50"}).json()
    assert body["rules"] == {"name": "standard", "label": "Standard rules"}


@pytest.mark.parametrize("endpoint", [CLASSIFY, COMPARE, PLAYS, SPLIT])
def test_unknown_rules_are_refused_with_400_and_parse_rules_message(client, endpoint):
    params = {"cards": "9s", "a": "9s", "b": "9h", "hand": HAND, "rules": "jokers-wild"}
    response = client.get(endpoint, params)
    assert response.status_code == 400
    assert response.json() == {"error": response.json()["error"]}
    assert response.json()["error"].startswith("'jokers-wild' is not a house rule: choose from")


def test_rules_longer_than_200_characters_are_refused(client):
    response = client.get(CLASSIFY, {"cards": "9s", "rules": "x" * 201})
    assert response.status_code == 400
    assert "200" in response.json()["error"]


# /api/hands/plays


def test_plays_lists_what_beats_the_table_grouped_weakest_first(client):
    response = client.get(PLAYS, {"hand": HAND, "table": "8d 8s"})
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"rules", "hand", "table", "groups", "count"}
    assert body["rules"] == {"name": "standard", "label": "Standard rules"}
    assert body["hand"][:3] == ["3D", "4C", "5H"]
    assert body["table"]["kind"] == "pair"
    assert body["table"]["cards"] == ["8D", "8S"]
    assert body["count"] == 2
    assert body["groups"] == [
        {
            "kind": "pair",
            "label": "pair",
            "plays": [
                {"cards": ["9H", "9S"], "kind": "pair", "description": "Pair of 9s (♠ high)"},
                {"cards": ["2H", "2S"], "kind": "pair", "description": "Pair of 2s (♠ high)"},
            ],
        }
    ]


def test_plays_for_a_lead_lists_every_play_by_kind(client):
    body = client.get(PLAYS, {"hand": "3d 4c 5h 6s 7d 7c"}).json()
    assert body["table"] is None
    assert [group["kind"] for group in body["groups"]] == ["single", "pair", "straight"]
    assert body["count"] == 6 + 1 + 2


def test_plays_for_the_first_play_hold_the_lowest_three(client):
    body = client.get(PLAYS, {"hand": "3d 4c 5h 6s 7d 7c", "first": "1"}).json()
    assert [play["cards"] for group in body["groups"] for play in group["plays"]] == [
        ["3D"],
        ["3D", "4C", "5H", "6S", "7D"],
        ["3D", "4C", "5H", "6S", "7C"],
    ]
    body = client.get(PLAYS, {"hand": "4c 5h", "first": "1"}).json()
    assert body["count"] == 0 and body["groups"] == []


def test_plays_under_pusoy_dos_suits(client):
    body = client.get(PLAYS, {"hand": "9d 5c", "table": "9s", "rules": "pusoy-dos"}).json()
    assert body["count"] == 1
    assert body["groups"][0]["plays"][0]["cards"] == ["9D"]
    assert body["rules"]["name"] == "pusoy-dos-suits"
    assert client.get(PLAYS, {"hand": "9d 5c", "table": "9s"}).json()["count"] == 0


def test_plays_when_nothing_beats_the_table(client):
    body = client.get(PLAYS, {"hand": "3d 4c 9h", "table": "2s 2d"}).json()
    assert body["count"] == 0 and body["groups"] == []


@pytest.mark.parametrize(
    ("params", "says"),
    [
        ({}, "?hand="),
        ({"hand": ""}, "Your hand is empty"),
        ({"hand": "1h"}, "'1h' is not a card"),
        ({"hand": HAND + " as"}, "You have 14 cards: a hand holds at most 13"),
        ({"hand": "9s 9h", "table": "9s"}, "9♠ can't be both in your hand and on the table"),
        ({"hand": "9s", "table": "3d 3c 4h"}, "The cards on the table are not a play"),
        ({"hand": "3d", "table": "4d", "first": "1"}, "made on an empty table"),
    ],
)
def test_plays_refuses_what_it_cannot_answer_with_400(client, params, says):
    response = client.get(PLAYS, params)
    assert response.status_code == 400
    assert says in response.json()["error"]


# /api/hands/split


def test_split_gives_the_best_three_ways_with_their_scores_and_parts(client):
    response = client.get(SPLIT, {"hand": HAND})
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"rules", "hand", "arrangements"}
    assert len(body["hand"]) == 13
    assert [way["score"] for way in body["arrangements"]] == [-55, -61, -65]
    best = body["arrangements"][0]
    assert best["parts"][0] == {"label": "7 plays", "points": -70}
    assert sum(part["points"] for part in best["parts"]) == best["score"]
    assert best["plays"][0] == {"cards": ["7C"], "kind": "single", "description": "Single 7♣"}
    assert best["plays"][-1]["kind"] == "straight"


def test_split_under_two_high_straights_plays_j_q_k_a_2(client):
    hand = "JS QH KD AC 2D 3c 3d 5h 5s 7c 7d 9h 9s"
    body = client.get(SPLIT, {"hand": hand, "rules": "two-high-straights"}).json()
    kinds = [play["description"] for play in body["arrangements"][0]["plays"]]
    assert "Straight J-Q-K-A-2, 2♦ high" in kinds


@pytest.mark.parametrize(
    ("hand", "says"),
    [
        (None, "?hand="),
        ("3d 4c", "You have 2 cards: a hand is 13 — add 11"),
        (HAND + " as", "You have 14 cards: a hand is 13 — take out 1"),
        ("9s 9s", "9♠ is there twice"),
        ("zz", "is not a card"),
    ],
)
def test_split_refuses_anything_but_thirteen_cards_with_400(client, hand, says):
    response = client.get(SPLIT, {} if hand is None else {"hand": hand})
    assert response.status_code == 400
    assert says in response.json()["error"]


def test_the_helpers_only_answer_get(client):
    assert client.post(PLAYS, {"hand": "9s"}).status_code == 405
    assert client.post(SPLIT, {"hand": HAND}).status_code == 405


@settings(max_examples=150, deadline=None)
@given(text=st.text(max_size=260), other=st.text(max_size=40))
def test_no_text_makes_any_endpoint_fail(text, other):
    client = Client()
    for response in (
        client.get(CLASSIFY, {"cards": text}),
        client.get(COMPARE, {"a": text, "b": other}),
        client.get(CLASSIFY, {"cards": other, "rules": text}),
        client.get(PLAYS, {"hand": text, "table": other}),
        client.get(PLAYS, {"hand": other, "table": text, "first": "1", "rules": other}),
        client.get(SPLIT, {"hand": text, "rules": other}),
    ):
        assert response.status_code in (200, 400)
        body = response.json()
        if response.status_code == 400:
            assert body["error"]
        elif "kind" in body:
            assert body["kind"] in KINDS | {None}


# Indonesian straights (issue 14): the checker, the helpers and their pages take them too


def test_under_indonesian_straights_a_straight_holding_a_2_beats_the_ace_high_one(client):
    params = {"a": "2s 3d 4c 5h 6d", "b": "10s jd qc kh ad", "rules": "indonesian-straights"}
    body = client.get(COMPARE, params).json()
    assert body["result"] == "a_beats_b"
    assert "under Indonesian straights a straight with a 2 beats" in body["reason"]
    assert body["rules"] == {"name": "indonesian-straights", "label": "Indonesian straights"}
    assert client.get(COMPARE, params | {"rules": ""}).json()["result"] == "b_beats_a"


def test_the_helpers_under_indonesian_straights(client):
    hand = "as 2d 3c 4h 5d 9s 9h"
    params = {"hand": hand, "table": "10s jd qc kh ad", "rules": "indonesian-straights"}
    body = client.get(PLAYS, params).json()
    assert [play["cards"] for group in body["groups"] for play in group["plays"]] == [
        ["AS", "2D", "3C", "4H", "5D"]
    ]
    assert client.get(PLAYS, params | {"rules": "standard"}).json()["count"] == 0
    split = client.get(SPLIT, {"hand": HAND, "rules": "indonesian-straights"})
    assert split.status_code == 200
    assert split.json()["rules"]["name"] == "indonesian-straights"


def test_the_pages_under_indonesian_straights(client, text_of):
    page = client.get(
        "/check/", {"a": "as 2d 3c 4h 5d", "b": "10s jd qc kh ad", "rules": "indonesian-straights"}
    )
    assert "A-2-3-4-5 holds a 2, and under Indonesian straights" in text_of(page.text)
    played = client.get("/play/", {"hand": "as 2d 3c 4h 5d", "rules": "indonesian-straights"})
    assert played.status_code == 200
    assert "Indonesian straights" in text_of(played.text)
