"""What can I play: every legal play in a hand, and the answers to the play on the table."""

from contextlib import suppress
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.advice import all_plays, answers, five_card_plays
from rules.cards import DECK, Card, Suit, parse_cards
from rules.kinds import Kind
from rules.plays import NotAPlay, classify, lowest_card
from rules.ruleset import DEFAULT_RULES, RuleSet, parse_rules


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def play(text: str):
    return classify(parse_cards(text))


def shown(groups) -> list[str]:
    return [str(play) for group in groups for play in group.plays]


def every_play_by_classify(hand, rules=DEFAULT_RULES) -> set:
    """The slow, sure way: ask classify about every 1, 2, 3 and 5 cards of the hand."""
    found = set()
    for size in (1, 2, 3, 5):
        for some in combinations(hand, size):
            with suppress(NotAPlay):
                found.add(classify(some, rules))
    return found


# One of every kind: a straight flush in hearts (so flushes too), four 9s (so triples and
# pairs), kings for full houses, and 8♠ for straights of mixed suits.
EVERY_KIND = cards("3h 4h 5h 6h 7h 8s 9d 9c 9h 9s kd kc as")


def test_holding_the_three_of_diamonds_every_opening_answer_contains_it():
    hand = cards("3d 3s 4c 5h 6s 7d 7c jh")
    groups = answers(hand, None, opening=True)
    assert shown(groups) == ["3♦", "3♦ 3♠", "3♦ 4♣ 5♥ 6♠ 7♦", "3♦ 4♣ 5♥ 6♠ 7♣"]
    assert all(Card.parse("3d") in play.cards for group in groups for play in group.plays)


def test_without_the_lowest_card_there_is_no_opening_play():
    assert answers(cards("3s 4c 5h 6s 7d"), None, opening=True) == []


def test_a_pair_of_nines_on_the_table_is_answered_by_higher_pairs_weakest_first():
    hand = cards("3d 3c 9h 9s 8d 8c kd kh ks 2c")
    groups = answers(hand, play("9d 9c"))
    assert [group.kind for group in groups] == [Kind.PAIR]
    assert shown(groups) == ["9♥ 9♠", "K♦ K♥", "K♦ K♠", "K♥ K♠"]


def test_nothing_answers_the_two_of_spades():
    assert answers(cards("2d 2c 2h as ks"), play("2s")) == []


def test_a_single_is_answered_by_higher_singles_only():
    groups = answers(cards("3d 9h 9s 10c 10d"), play("9c"))
    assert shown(groups) == ["9♥", "9♠", "10♦", "10♣"]


def test_a_straight_is_answered_by_higher_straights_and_every_stronger_kind():
    groups = answers(EVERY_KIND, play("3d 4c 5s 6d 7c"))
    assert [group.kind for group in groups] == [
        Kind.STRAIGHT,
        Kind.FLUSH,
        Kind.FULL_HOUSE,
        Kind.FOUR_OF_A_KIND,
        Kind.STRAIGHT_FLUSH,
    ]
    # 3♥-7♥ is a straight flush, not a straight; the 5-9 runs rank by the suit of their 9.
    assert shown(groups[:1]) == [
        "4♥ 5♥ 6♥ 7♥ 8♠",
        "5♥ 6♥ 7♥ 8♠ 9♦",
        "5♥ 6♥ 7♥ 8♠ 9♣",
        "5♥ 6♥ 7♥ 8♠ 9♥",
        "5♥ 6♥ 7♥ 8♠ 9♠",
    ]


def test_leading_lists_every_kind_singles_first_then_five_card_hands_by_tier():
    groups = answers(EVERY_KIND, None)
    assert [group.kind for group in groups] == [
        Kind.SINGLE,
        Kind.PAIR,
        Kind.TRIPLE,
        Kind.STRAIGHT,
        Kind.FLUSH,
        Kind.FULL_HOUSE,
        Kind.FOUR_OF_A_KIND,
        Kind.STRAIGHT_FLUSH,
    ]
    for group in groups:
        keys = [play.key for play in group.plays]
        assert keys == sorted(keys), f"{group.kind} plays are not weakest first"


def test_a_hand_with_a_flush_lists_it_under_flush_when_leading():
    groups = {group.kind: group for group in answers(cards("3h 7h 9h jh 2h 4c"), None)}
    assert [str(play) for play in groups[Kind.FLUSH].plays] == ["3♥ 7♥ 9♥ J♥ 2♥"]
    assert Kind.STRAIGHT not in groups


def test_all_plays_counts_the_plays_of_four_of_a_kind():
    """Four 9s: 4 singles, 6 pairs, 4 triples; no five-card hand without a fifth card."""
    plays = all_plays(cards("9d 9c 9h 9s"))
    assert [sum(1 for play in plays if play.size == size) for size in (1, 2, 3, 5)] == [4, 6, 4, 0]
    with_kicker = all_plays(cards("9d 9c 9h 9s 3d"))
    assert [str(play) for play in with_kicker if play.size == 5] == ["9♦ 9♣ 9♥ 9♠ 3♦"]


def test_a_hand_all_of_one_suit_makes_every_five_a_flush_or_straight_flush():
    hearts = [Card(card.rank, Suit.HEARTS) for card in DECK[::4]]
    fives = five_card_plays(hearts)
    assert len(fives) == 1287
    assert {play.kind for play in fives} == {Kind.FLUSH, Kind.STRAIGHT_FLUSH}


def test_a_hand_is_one_to_thirteen_different_cards():
    with pytest.raises(ValueError, match="A hand holds 1 to 13 cards, not 0"):
        all_plays([])
    with pytest.raises(ValueError, match="not 14"):
        answers(DECK[:14], None)
    with pytest.raises(ValueError, match="9♠ is there twice"):
        all_plays([Card.parse("9s"), Card.parse("9s")])


def test_a_card_cannot_be_in_the_hand_and_on_the_table():
    with pytest.raises(ValueError, match="^9♥ 9♠ can't be both in your hand and on the table$"):
        answers(cards("3d 9h 9s"), play("9h 9s"))


def test_the_opening_play_goes_on_an_empty_table():
    with pytest.raises(ValueError, match="empty table"):
        answers(cards("3d 4d"), play("5s"), opening=True)


def test_under_pusoy_dos_suits_the_three_of_clubs_opens_and_diamonds_rank_highest():
    rules = parse_rules("pusoy-dos")
    assert lowest_card(rules) == Card.parse("3c")
    hand = cards("3d 3c 9d 9s 2c")
    assert shown(answers(hand, None, rules, opening=True)) == ["3♣", "3♣ 3♦"]
    singles = answers(hand, classify(cards("9h"), rules), rules)
    assert shown(singles) == ["9♦", "2♣"]  # 9♦ is above 9♥ there; 9♠ is below it


@settings(deadline=None, max_examples=60)
@given(
    st.lists(st.sampled_from(DECK), min_size=1, max_size=13, unique=True),
    st.sampled_from([DEFAULT_RULES, RuleSet(), parse_rules("pusoy-dos")]),
)
def test_all_plays_are_exactly_what_classify_takes_each_once(hand, rules):
    plays = all_plays(hand, rules)
    assert len(plays) == len(set(plays))
    assert set(plays) == every_play_by_classify(hand, rules)


@st.composite
def hand_and_table(draw):
    """A hand, and a play on the table made from other cards (or an empty table)."""
    deck = draw(st.permutations(DECK))
    hand = deck[: draw(st.integers(1, 13))]
    rest = deck[len(hand) :]
    table = None
    if draw(st.booleans()):
        table = draw(st.sampled_from(all_plays(rest[:13])))
    return hand, table


@settings(deadline=None, max_examples=60)
@given(hand_and_table())
def test_answers_are_plays_from_the_hand_that_beat_the_table(hand_table):
    hand, table = hand_table
    groups = answers(hand, table)
    plays = [play for group in groups for play in group.plays]
    assert all(set(play.cards) <= set(hand) for play in plays)
    assert all(play.kind is group.kind for group in groups for play in group.plays)
    if table is None:
        assert set(plays) == set(all_plays(hand))
    else:
        expected = {play for play in all_plays(hand) if play.beats(table)}
        assert set(plays) == expected
    sizes_and_tiers = [(group.plays[0].size, group.plays[0].key[0]) for group in groups]
    assert sizes_and_tiers == sorted(sizes_and_tiers)
