"""The JSON API: /api/hands/classify and /api/hands/compare."""

import pytest
from django.test import Client
from hypothesis import given, settings
from hypothesis import strategies as st

CLASSIFY = "/api/hands/classify"
COMPARE = "/api/hands/compare"
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
    assert set(body) == {"a", "b", "result", "reason"}
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


@settings(max_examples=150, deadline=None)
@given(text=st.text(max_size=260), other=st.text(max_size=40))
def test_no_text_makes_either_endpoint_fail(text, other):
    client = Client()
    for response in (
        client.get(CLASSIFY, {"cards": text}),
        client.get(COMPARE, {"a": text, "b": other}),
    ):
        assert response.status_code in (200, 400)
        body = response.json()
        if response.status_code == 400:
            assert body["error"]
        elif "kind" in body:
            assert body["kind"] in KINDS | {None}
