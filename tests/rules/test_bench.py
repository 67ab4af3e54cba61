"""The bench's fast enumeration agrees with `classify`, hand for hand and key for key."""

import random
from itertools import combinations
from math import comb

import pytest

from rules import bench
from rules.cards import DECK, Rank
from rules.plays import NotAPlay, classify

FIVE_CARD_COUNTS = {
    "straight_flush": 40,
    "four_of_a_kind": 624,
    "full_house": 3744,
    "flush": 5108,
    "straight": 10200,
    "not_a_play": 2_598_960 - 19_716,
}


def plays_by_classify(deck):
    found = {}
    for hand in combinations(deck, 5):
        try:
            play = classify(hand)
        except NotAPlay:
            continue
        found[frozenset(hand)] = (play.kind, play.key)
    return found


def plays_by_bench(deck):
    return {frozenset(hand): (kind, key) for hand, kind, key in bench.legal_hands(deck)}


@pytest.mark.slow
def test_all_2598960_hands_make_the_textbook_counts_of_each_kind():
    assert bench.count_kinds() == FIVE_CARD_COUNTS


def test_fast_path_matches_classify_on_every_hand_of_the_low_ranks():
    """A-2-3-4-5 and 2-3-4-5-6 runs, flushes, full houses and fours all live in these 24 cards."""
    low = {Rank.ACE, Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX}
    deck = [card for card in DECK if card.rank in low]
    assert plays_by_bench(deck) == plays_by_classify(deck)


@pytest.mark.parametrize("seed", range(3))
def test_fast_path_matches_classify_on_random_sixteen_card_decks(seed):
    deck = random.Random(seed).sample(DECK, 16)
    assert plays_by_bench(deck) == plays_by_classify(deck)


def test_counts_of_a_small_deck_add_up_to_every_hand():
    """Twenty cards are the 3s to 7s: one straight run, and a four of each rank."""
    totals = bench.count_kinds(DECK[:20])
    assert sum(totals.values()) == comb(20, 5)
    assert totals["straight_flush"] == 4
    assert totals["straight"] == 4**5 - 4
    assert totals["four_of_a_kind"] == 5 * 16


def test_main_prints_one_line_per_kind_then_the_time(monkeypatch, capsys):
    count_kinds = bench.count_kinds
    monkeypatch.setattr(bench, "count_kinds", lambda: count_kinds(DECK[:24]))
    bench.main()
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "straight_flush: 8"
    assert lines[-2].startswith("not_a_play: ")
    assert lines[-1].startswith(f"{comb(24, 5)} hands in ")
    assert lines[-1].endswith(" s")
