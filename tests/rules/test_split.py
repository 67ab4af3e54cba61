"""How should I break up my hand: the best few splits of 13 cards into plays, and why."""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.advice import all_plays
from rules.cards import DECK, Card, Rank, Suit, parse_cards
from rules.kinds import Kind
from rules.plays import classify
from rules.ruleset import DEFAULT_RULES, parse_rules
from rules.split import Arrangement, arrangements
from rules.split_score import ScorePart


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def shown(arrangement: Arrangement) -> list[str]:
    return [str(play) for play in arrangement.plays]


def points(plays) -> int:
    """The score as the module's docstring states it, worked out here independently."""
    total = 0
    for play in plays:
        total -= 10
        rank = play.cards[0].rank
        if play.size == 1 and rank < Rank.EIGHT:
            total -= 2 * (8 - rank)
        if play.size <= 2:
            total += {Rank.TWO: 8, Rank.ACE: 4}.get(rank, 0) * play.size
        if play.size == 5:
            total += play.key[0]  # the tier: 1 for a straight … 5 for a straight flush
    return total


def shape(plays) -> tuple:
    """What tells splits apart: each play's kind and ranks, and the suit of a one-suit five."""
    return tuple(
        sorted(
            (
                str(play.kind),
                tuple(sorted(card.rank for card in play.cards)),
                play.cards[0].suit if play.size == 5 and play.kind.endswith("flush") else -1,
            )
            for play in plays
        )
    )


def every_split(hand, rules=DEFAULT_RULES):
    """Every way to split the hand into plays: cover its lowest card with each play that can."""
    by_lowest: dict[Card, list] = {}
    for play in all_plays(hand, rules):
        by_lowest.setdefault(min(play.cards), []).append(play)

    def splits(left: frozenset, chosen: list):
        if not left:
            yield list(chosen)
            return
        for play in by_lowest.get(min(left), []):
            if left.issuperset(play.cards):
                yield from splits(left.difference(play.cards), [*chosen, play])

    return splits(frozenset(hand), [])


def best_scores_by_shape(hand, rules=DEFAULT_RULES) -> dict[tuple, int]:
    scores: dict[tuple, int] = {}
    for split in every_split(hand, rules):
        key = shape(split)
        scores[key] = max(scores.get(key, -1000), points(split))
    return scores


def assert_is_a_split_of(arrangement: Arrangement, hand, rules=DEFAULT_RULES) -> None:
    used = [card for play in arrangement.plays for card in play.cards]
    assert sorted(used) == sorted(hand), "every card once"
    for play in arrangement.plays:
        assert classify(play.cards, rules) == play, "each play as classify makes it"
    order = [(play.size, play.key) for play in arrangement.plays]
    assert order == sorted(order), "singles first, then pairs, triples, fives, weakest first"


STRAIGHT_AND_FULL_HOUSE = cards("3d 4c 5h 6s 7d 9c 9h 9s kd kh 10s jc 2d")
TRIPLE_KINGS_PAIR_OF_TWOS = cards("kd kc ks 2h 2s 3d 5c 7h 9s jd qc 4h 6d")


def test_a_clear_straight_and_full_house_are_kept():
    top, *others = arrangements(STRAIGHT_AND_FULL_HOUSE)
    assert shown(top) == ["10♠", "J♣", "2♦", "3♦ 4♣ 5♥ 6♠ 7♦", "9♣ 9♥ 9♠ K♦ K♥"]
    assert len(top.plays) <= min(len(other.plays) for other in others)
    assert [str(part) for part in top.parts] == [
        "5 plays: −50",
        "2s and aces kept for control, alone or in pairs (2♦): +8",
        "Five-card hands, more for stronger kinds (straight, full house): +4",
    ]
    assert top.score == -38


def test_the_second_best_split_spends_the_two_in_the_straight_and_says_what_that_costs():
    top, second, _ = arrangements(STRAIGHT_AND_FULL_HOUSE)
    assert "2♦ 3♦ 4♣ 5♥ 6♠" in shown(second)
    assert [part.label for part in second.parts if "control" in part.label] == []
    assert ScorePart("Low singles, below 8 (7♦)", -2) in second.parts
    assert second.score == top.score - 10


def test_a_pair_of_twos_is_kept_as_control_rather_than_made_the_pair_of_a_full_house():
    top, second, _ = arrangements(TRIPLE_KINGS_PAIR_OF_TWOS)
    assert "2♥ 2♠" in shown(top)
    assert all(card.rank != Rank.TWO for play in top.plays if play.size == 5 for card in play.cards)
    # The full house saves a play, and the parts show why keeping the 2s still scores more.
    assert "K♦ K♣ K♠ 2♥ 2♠" in shown(second)
    assert len(second.plays) == len(top.plays) - 1
    assert ScorePart("2s and aces kept for control, alone or in pairs (2♥ 2♠)", 16) in top.parts


def test_four_of_a_kind_takes_the_lowest_lone_card_as_its_kicker_not_the_two():
    top = arrangements(cards("8d 8c 8h 8s 3c 2s jd qh 4d 6c 10h ks as"))[0]
    assert "8♦ 8♣ 8♥ 8♠ 3♣" in shown(top)
    assert "2♠" in shown(top)


def test_a_hand_of_one_suit_splits_into_two_straight_flushes_and_its_three_best_cards():
    hearts = [Card(rank, Suit.HEARTS) for rank in Rank]
    top = arrangements(hearts)[0]
    assert shown(top) == ["K♥", "A♥", "2♥", "3♥ 4♥ 5♥ 6♥ 7♥", "8♥ 9♥ 10♥ J♥ Q♥"]
    assert [play.kind for play in top.plays[3:]] == [Kind.STRAIGHT_FLUSH] * 2


def test_splits_that_differ_only_in_suits_are_shown_once():
    found = arrangements(cards("3d 3c 3h 3s 4d 4c 4h 4s 5d 5c 5h 5s 2s"), best=10)
    assert len({shape(arrangement.plays) for arrangement in found}) == len(found) == 10


def test_asking_for_more_splits_than_there_are_returns_every_one():
    hand = cards("3d 3c 3h 3s 4d 4c 4h 4s 5d 5c 5h 5s 2s")
    found = arrangements(hand, best=1000)
    assert len(found) == len(best_scores_by_shape(hand)) < 1000


def test_under_pusoy_dos_suits_every_play_is_ranked_by_those_suits():
    rules = parse_rules("pusoy-dos")
    hand = cards("3d 4c 5h 6s 7d 7c 9h 9s jd qd kc 2s 2h")
    for arrangement in arrangements(hand, rules):
        assert_is_a_split_of(arrangement, hand, rules)
    top = arrangements(hand, rules)[0]
    # ♦ is the highest suit there, so the straight keeps 7♣ and leaves 7♦ as the single.
    assert shown(top)[0] == "7♦"


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        (DECK[:12], "Splitting a hand needs all 13 of its cards, not 12"),
        (DECK[:14], "not 14"),
        ((*DECK[:12], DECK[0]), "3♦ is there twice: each card can be played only once"),
    ],
)
def test_a_split_needs_thirteen_different_cards(hand, message):
    with pytest.raises(ValueError, match=message):
        arrangements(hand)


def test_best_must_ask_for_at_least_one_split():
    with pytest.raises(ValueError, match="best must be 1 or more"):
        arrangements(DECK[:13], best=0)


thirteen_cards = st.lists(st.sampled_from(DECK), min_size=13, max_size=13, unique=True)


@settings(deadline=None, max_examples=150)
@given(thirteen_cards)
def test_every_arrangement_is_an_exact_split_into_legal_plays_best_first(hand):
    found = arrangements(hand)
    assert len(found) == 3
    for arrangement in found:
        assert_is_a_split_of(arrangement, hand)
        assert arrangement.score == sum(part.points for part in arrangement.parts)
        assert arrangement.score == points(arrangement.plays)
    scores = [arrangement.score for arrangement in found]
    assert scores == sorted(scores, reverse=True)
    assert len({shape(arrangement.plays) for arrangement in found}) == len(found)


# Decks that make hands rich in five-card plays: few suits make flushes, few ranks make fours
# and full houses, and low ranks make straights, fours and full houses at once.
RICH_DECKS = [
    DECK,
    [card for card in DECK if card.suit in (Suit.HEARTS, Suit.SPADES)],
    [card for card in DECK if card.rank <= Rank.SEVEN or card.rank == Rank.TWO],
    [card for card in DECK if card.suit != Suit.CLUBS and card.rank <= Rank.JACK],
]


@settings(deadline=None, max_examples=40)
@given(st.sampled_from(RICH_DECKS).flatmap(lambda deck: st.permutations(deck)), st.integers(1, 5))
def test_the_search_finds_the_same_best_scores_as_trying_every_split(deck, best):
    hand = deck[:13]
    scores = best_scores_by_shape(hand)
    expected = sorted(scores.values(), reverse=True)[:best]
    found = arrangements(hand, best=best)
    assert [arrangement.score for arrangement in found] == expected
    for arrangement in found:
        assert scores[shape(arrangement.plays)] == arrangement.score


def test_every_split_in_the_reference_counts_a_small_hand_right():
    """The brute force the search is checked against: 9♦ 9♣ 3♠ splits two ways."""
    assert Counter(len(split) for split in every_split(cards("9d 9c 3s"))) == {2: 1, 3: 1}
