"""Plays: what cards make, why others make nothing, and which of two plays wins and why."""

import pytest

from rules.cards import Card, Rank, Suit, parse_cards
from rules.kinds import Kind
from rules.lookups import FLUSH_KEYS, PRODUCT_KEYS
from rules.options import PenaltyScale, Straights, SuitOrder
from rules.plays import NotAPlay, can_open, classify, compare, judge, lowest_card, overlapping
from rules.ruleset import RuleSet


def play(text: str, rules: RuleSet | None = None):
    cards = parse_cards(text)
    return classify(cards) if rules is None else classify(cards, rules)


def not_a_play(cards) -> str:
    with pytest.raises(NotAPlay) as reason:
        classify(cards)
    return str(reason.value)


def why(a: str, b: str) -> str:
    verdict = compare(play(a), play(b))
    assert verdict.result == "a_beats_b"
    assert compare(play(b), play(a)).result == "b_beats_a"
    return verdict.reason


CLUBS_LOW = RuleSet(suits=SuitOrder.BRIDGE)


def test_kinds_read_as_words():
    assert [kind.label for kind in Kind] == [
        "single", "pair", "triple", "straight", "flush",
        "full house", "four of a kind", "straight flush",
    ]  # fmt: skip
    assert str(Kind.FULL_HOUSE) == "full_house"


def test_every_kind_has_a_readable_description():
    assert play("9h").description == "Single 9♥"
    assert play("9s 9d").description == "Pair of 9s (♠ high)"
    assert play("kd kc kh").description == "Triple of kings"
    assert play("3s 4d 5c 6h 7s").description == "Straight 3-4-5-6-7, 7♠ high"
    assert play("3h 5h 6h 7h 9h").description == "Flush in ♥, 9 high"
    assert play("2c 4c 6c 9c jc").description == "Flush in ♣, 2 high"
    assert play("jd jc jh 3d 3c").description == "Full house, jacks over 3s"
    assert play("5d 5c 5h 5s 2s").description == "Four 5s with a 2♠ kicker"
    assert play("ad ac ah as 8d").description == "Four aces with an 8♦ kicker"
    assert play("3d 3c 3h 3s as").description == "Four 3s with an A♠ kicker"
    assert play("10s js qs ks as").description == "Straight flush in ♠, 10-J-Q-K-A"


def test_play_shows_full_house_triple_first_and_four_of_a_kind_before_its_kicker():
    assert str(play("3d 3c jh jc jd")) == "J♦ J♣ J♥ 3♦ 3♣"
    assert str(play("3d 6s 6d 6h 6c")) == "6♦ 6♣ 6♥ 6♠ 3♦"


def test_play_shows_straights_in_sequence_and_the_rest_in_strength_order():
    assert str(play("5d 4h 3c 2d as")) == "A♠ 2♦ 3♣ 4♥ 5♦"
    assert str(play("2h 6d 4h 3c 5d")) == "2♥ 3♣ 4♥ 5♦ 6♦"
    assert str(play("2c jc 9c 4c 6c")) == "4♣ 6♣ 9♣ J♣ 2♣"
    assert play("9s 9d").size == 2


def test_no_cards_is_not_a_play():
    assert not_a_play(()) == "no cards"


def test_a_card_twice_is_not_a_play():
    nine = Card(Rank.NINE, Suit.SPADES)
    assert not_a_play((nine, nine)) == "9♠ is there twice: each card can be played only once"


def test_two_cards_of_different_ranks_are_not_a_pair():
    assert not_a_play(parse_cards("10d 9s")) == (
        "9♠ and 10♦ are not a pair: a pair is two cards of one rank"
    )


def test_three_cards_must_all_be_one_rank():
    assert not_a_play(parse_cards("9s 9d 4c")) == (
        "a pair and an odd card are not a play: a triple is three of a rank"
    )
    assert not_a_play(parse_cards("3d 4c 5h")) == (
        "three different ranks are not a play: a triple is three of a rank, "
        "and runs must be five cards long"
    )


def test_six_or_more_cards_are_never_a_play():
    assert not_a_play(parse_cards("3d 4d 5d 6d 7d 8d")) == (
        "six or more cards are never a play: play 1, 2, 3 or 5 cards"
    )


def test_five_cards_that_make_no_hand_say_what_they_are():
    assert not_a_play(parse_cards("9s 9d 9c 4c 5h")) == (
        "five cards that make no hand (a triple and two odd cards: a full house needs a pair)"
    )
    assert not_a_play(parse_cards("9s 9d 4c 4h 5h")) == (
        "two pair is not a Big Two play, not even with a fifth card"
    )
    assert not_a_play(parse_cards("9s 9d 4c 6h 5h")) == (
        "five cards that make no hand (a pair with three odd cards)"
    )
    assert not_a_play(parse_cards("3s 5d 7c 9h jh")) == (
        "five cards that make no hand (five ranks not in a row, and not all one suit)"
    )


def test_lookup_tables_hold_every_legal_rank_pattern():
    """10 straights and 13 × 12 full houses and fours mixed; C(13, 5) rank sets one-suited."""
    assert len(PRODUCT_KEYS[Straights.STANDARD]) == 10 + 156 + 156
    assert len(FLUSH_KEYS[Straights.STANDARD]) == 1287


def test_plays_of_different_sizes_cannot_answer_each_other():
    verdict = compare(play("3d"), play("4d 4c"))
    assert verdict.result == "different_sizes"
    assert verdict.reason == (
        "A single can't answer a pair: a play is only answered by the same number of cards"
    )
    assert not play("2s 2h 2d").beats(play("3d 3c"))


def test_plays_that_share_cards_can_be_equally_strong_and_get_no_verdict():
    with pytest.raises(ValueError, match="equally strong"):
        compare(play("3d 4d 5d 6c 7s"), play("3c 4c 5c 6d 7s"))


def test_single_of_higher_rank_wins_whatever_the_suit():
    assert why("2d", "as") == "Both are singles: 2s beat aces, and rank decides before suit"


def test_singles_of_one_rank_are_split_by_suit():
    assert why("9s", "9h") == "Both are single 9s: the higher suit wins, ♠ beats ♥"


def test_pair_of_higher_rank_wins():
    assert why("10d 10c", "9s 9h") == "Both are pairs: 10s beat 9s, and rank decides before suit"


def test_triple_of_higher_rank_wins():
    assert why("kd kc kh", "10d 10c 10h") == "Both are triples: kings beat 10s"


def test_full_houses_compare_by_the_triple_only():
    assert why("jd jc jh 3d 3c", "10d 10c 10h ad ac") == (
        "Both are full houses: only the triple counts, and jacks beat 10s — the pair is dead weight"
    )


def test_flushes_of_one_suit_compare_by_the_top_card():
    assert why("3h 5h 6h 7h kh", "4h 8h 10h jh qh") == (
        "Both are flushes in ♥: the higher top card wins, K beats Q"
    )


def test_flushes_with_the_same_top_card_compare_card_by_card_down():
    """Only possible between flushes that share their top card, as a checker can be asked."""
    assert why("3h 5h 6h 9h kh", "4h 5h 7h 8h kh") == (
        "Both are flushes in ♥ with the same top cards: the highest card that differs decides, "
        "9 beats 8"
    )


def test_four_of_a_kind_of_higher_rank_wins_whatever_the_kicker():
    assert why("6d 6c 6h 6s 3d", "5d 5c 5h 5s 2s") == (
        "Both are fours of a kind: only the rank of the four counts, and 6s beat 5s "
        "— the kicker is dead weight"
    )


def test_straights_compare_by_run_then_the_top_cards_suit():
    assert why("4d 5c 6h 7s 8d", "3s 4h 5d 6c 7h") == (
        "Both are straights: 4-5-6-7-8 is above 3-4-5-6-7 — the order runs "
        "A-2-3-4-5 (lowest), 2-3-4-5-6, 3-4-5-6-7 … 10-J-Q-K-A (highest)"
    )
    assert why("3d 4c 5h 6s 7s", "3s 4d 5c 6h 7h") == (
        "Both are straights 3-4-5-6-7: the top card's suit decides, 7♠ beats 7♥"
    )


def test_straight_flushes_compare_like_straights():
    assert why("2s 3s 4s 5s 6s", "ah 2h 3h 4h 5h") == (
        "A-2-3-4-5 is the lowest straight flush (its top card is the 5); 2-3-4-5-6 is above it"
    )
    assert why("9d 10d jd qd kd", "3c 4c 5c 6c 7c") == (
        "Both are straight flushes: 9-10-J-Q-K is above 3-4-5-6-7 — the order runs "
        "A-2-3-4-5 (lowest), 2-3-4-5-6, 3-4-5-6-7 … 10-J-Q-K-A (highest)"
    )
    assert why("9s 10s js qs ks", "9h 10h jh qh kh") == (
        "Both are straight flushes 9-10-J-Q-K: the top card's suit decides, K♠ beats K♥"
    )


def test_any_straight_flush_beats_any_four_of_a_kind():
    assert why("ad 2d 3d 4d 5d", "kd kc kh ks as") == (
        "A straight flush beats any four of a kind: five-card hands rank "
        "straight < flush < full house < four of a kind < straight flush"
    )


def test_judge_names_the_hand_that_is_not_a_play():
    verdict = judge(parse_cards("3d"), parse_cards("9s 9h 4c 4d"))
    assert verdict.result == "not_a_play"
    assert verdict.reason == "B is not a play — two pair is not a Big Two play"


def test_judge_names_both_hands_when_neither_is_a_play():
    verdict = judge(parse_cards("3d 4d"), ())
    assert verdict.reason == (
        "A is not a play — 3♦ and 4♦ are not a pair: a pair is two cards of one rank; "
        "B is not a play — no cards"
    )


def test_judge_compares_two_plays():
    assert judge(parse_cards("9h"), parse_cards("9s")).result == "b_beats_a"


def test_overlapping_lists_cards_in_both_hands_weakest_first():
    assert overlapping(parse_cards("9s 3d 4c"), parse_cards("4c 9s 5h")) == parse_cards("4c 9s")
    assert overlapping(parse_cards("9s"), parse_cards("9h")) == ()


def test_cards_that_are_not_a_play_cannot_open_even_with_the_three_of_diamonds():
    assert not can_open(parse_cards("3d 4c"))


def test_another_suit_order_changes_the_lowest_card_and_the_suit_ties():
    assert lowest_card(CLUBS_LOW) == Card(Rank.THREE, Suit.CLUBS)
    assert can_open(parse_cards("3c"), CLUBS_LOW)
    assert not can_open(parse_cards("3d"), CLUBS_LOW)
    assert play("9d", CLUBS_LOW).beats(play("9c", CLUBS_LOW))
    assert play("3d 4d 5d 6d 8d", CLUBS_LOW).beats(play("3c 4c 5c 6c 9c", CLUBS_LOW))
    assert str(play("9d 9c", CLUBS_LOW)) == "9♣ 9♦"


def test_a_rule_set_ranks_each_suit_once():
    for suits in SuitOrder:
        assert sorted(RuleSet(suits=suits).suit_order) == list(Suit)
    with pytest.raises(ValueError, match="suits must be a SuitOrder"):
        RuleSet(suits="clubs-low")  # type: ignore[arg-type]


def test_a_rule_set_charges_for_every_count_of_cards_left_once():
    for penalties in PenaltyScale:
        for players in (2, 3, 4):
            doubled_from = 8 if penalties is PenaltyScale.DOUBLED_FROM else 10
            rules = RuleSet(penalties=penalties, players=players, doubled_from=doubled_from)
            covered = [n for band in rules.penalty_bands for n in range(band.first, band.last + 1)]
            assert covered == list(range(1, rules.hand_size + 1))
