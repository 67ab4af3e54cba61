"""The hands benchmark's fast enumeration (`tools.bench.hands`) agrees with `classify`, hand
for hand and key for key, under every straights rule."""

import random
from itertools import combinations
from math import comb

import pytest

from rules.cards import DECK, Rank, Suit
from rules.options import Flushes, Straights, SuitOrder
from rules.plays import NotAPlay, classify
from rules.ruleset import DEFAULT_RULES, RuleSet
from tools.bench import hands as bench

ACE_TWO_HIGH = RuleSet(straights=Straights.ACE_TWO_HIGH)
NO_ACE_LOW = RuleSet(straights=Straights.NO_ACE_LOW)
TWO_HIGH = RuleSet(straights=Straights.TWO_HIGH)
INDONESIAN = RuleSet(straights=Straights.INDONESIAN)

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


# The ranks of every near-straight round the corner (A 2 3 4 5 6 and J Q K), in two suits.
CORNER_DECK = [
    card
    for card in DECK
    if card.suit in (Suit.DIAMONDS, Suit.SPADES) and card.rank not in range(7, 11)
]


@pytest.mark.parametrize(
    "rules",
    [
        RuleSet(straights=Straights.STANDARD, flushes=Flushes.POKER),
        RuleSet(straights=Straights.ACE_TWO_HIGH, suits=SuitOrder.PUSOY_DOS),
        RuleSet(straights=Straights.NO_ACE_LOW, flushes=Flushes.TOP_CARD),
        RuleSet(straights=Straights.TWO_HIGH, suits=SuitOrder.BRIDGE),
        RuleSet(straights=Straights.INDONESIAN, flushes=Flushes.POKER),
    ],
)
def test_the_bench_agrees_with_classify_under_every_straights_rule(rules):
    by_bench = {
        frozenset(hand): (kind, key) for hand, kind, key in bench.legal_hands(CORNER_DECK, rules)
    }
    by_classify = {}
    for hand in combinations(CORNER_DECK, 5):
        try:
            found = classify(hand, rules)
        except NotAPlay:
            continue
        by_classify[frozenset(hand)] = (found.kind, found.key)
    assert by_bench == by_classify


@pytest.mark.parametrize(
    ("rules", "runs"),
    [(DEFAULT_RULES, 2), (ACE_TWO_HIGH, 2), (NO_ACE_LOW, 1), (TWO_HIGH, 0), (INDONESIAN, 2)],
)
def test_the_bench_counts_the_low_straights_each_rule_allows(rules, runs):
    """The aces to 6s hold A-2-3-4-5 and 2-3-4-5-6: 4⁵ ways to suit each, 4 of them one suit."""
    low = [card for card in DECK if card.rank in (Rank.ACE, Rank.TWO, *range(3, 7))]
    totals = bench.count_kinds(low, rules)
    assert totals["straight"] == runs * (4**5 - 4)
    assert totals["straight_flush"] == runs * 4
