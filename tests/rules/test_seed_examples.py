"""The worked examples of the rule book and the hand-ranking guide, one test each."""

import itertools

from rules.cards import DECK, parse_cards
from rules.kinds import Kind
from rules.penalties import outcome, penalty, replay
from rules.plays import NotAPlay, can_open, classify, compare, judge, lowest_card


def play(text: str):
    return classify(parse_cards(text))


def beats(a: str, b: str) -> bool:
    return compare(play(a), play(b)).result == "a_beats_b"


def not_a_play(text: str) -> str:
    try:
        classify(parse_cards(text))
    except NotAPlay as reason:
        return str(reason)
    raise AssertionError(f"{text} was taken as a play")


def test_suits_break_ties_between_nines_spades_hearts_clubs_diamonds():
    assert beats("9s", "9h")
    assert beats("9h", "9c")
    assert beats("9c", "9d")


def test_three_of_diamonds_is_the_lowest_card_and_two_of_spades_the_highest():
    singles = [classify([card]) for card in DECK]
    assert min(singles, key=lambda single: single.key).cards == parse_cards("3d")
    assert max(singles, key=lambda single: single.key).cards == parse_cards("2s")
    assert lowest_card() == parse_cards("3d")[0]


def test_two_outranks_the_ace():
    assert beats("2d", "as")


def test_pair_with_the_spade_beats_pair_with_the_heart():
    """9♠9♦ beats 9♥9♣: same rank, and the higher suit in the pair is ♠."""
    verdict = judge(parse_cards("9s 9d"), parse_cards("9h 9c"))
    assert verdict.result == "a_beats_b"
    assert verdict.reason == "Both are pairs of 9s: the pair with the higher suit wins, ♠ beats ♥"


def test_club_flush_topped_by_an_eight_beats_an_ace_high_diamond_flush():
    verdict = judge(parse_cards("3c 4c 5c 7c 8c"), parse_cards("3d 5d 9d jd ad"))
    assert verdict.result == "a_beats_b"
    assert verdict.reason == "Both are flushes: ♣ outranks ♦, and suit decides before rank"


def test_heart_flush_beats_a_jack_high_club_flush():
    """3♥5♥6♥7♥9♥ > 2♣4♣6♣9♣J♣: hearts beat clubs, ranks don't matter."""
    assert beats("3h 5h 6h 7h 9h", "2c 4c 6c 9c jc")


def test_straights_never_wrap_past_the_ace():
    assert not_a_play("js qd kh ac 2s") == "J-Q-K-A-2 is not a straight: nothing wraps past the ace"
    assert not_a_play("qs kd ah 2c 3s") == "Q-K-A-2-3 is not a straight: nothing wraps past the ace"
    assert not_a_play("ks ad 2h 3c 4s") == "K-A-2-3-4 is not a straight: nothing wraps past the ace"


def test_straights_run_from_a_2_3_4_5_up_to_10_j_q_k_a():
    runs = [
        "as 2d 3c 4h 5d",
        "2s 3d 4c 5h 6d",
        "3s 4d 5c 6h 7d",
        "4s 5d 6c 7h 8d",
        "5s 6d 7c 8h 9d",
        "6s 7d 8c 9h 10d",
        "7s 8d 9c 10h jd",
        "8s 9d 10c jh qd",
        "9s 10d jc qh kd",
        "10s jd qc kh ad",
    ]
    plays = [play(run) for run in runs]
    assert all(straight.kind is Kind.STRAIGHT for straight in plays)
    assert all(b.beats(a) for a, b in zip(plays, plays[1:], strict=False))


def test_a_2_3_4_5_is_the_lowest_straight_topped_by_its_five():
    lowest = play("as 2s 3d 4d 5d")
    assert str(lowest) == "A♠ 2♠ 3♦ 4♦ 5♦"
    assert lowest.description == "Straight A-2-3-4-5, 5♦ high"
    verdict = compare(play("2d 3c 4h 5c 6d"), lowest)
    assert (
        verdict.reason
        == "A-2-3-4-5 is the lowest straight (its top card is the 5); 2-3-4-5-6 is above it"
    )


def test_straights_with_the_same_run_are_split_by_the_top_cards_suit():
    """For A-2-3-4-5 the top card is the 5, so its suit decides, not the ace's."""
    assert beats("ad 2d 3d 4c 5h", "as 2s 3s 4s 5c")
    assert beats("2d 3d 4d 5c 6h", "2s 3s 4s 5s 6c")


def test_four_fives_with_the_two_of_spades_lose_to_four_sixes_with_the_three_of_diamonds():
    verdict = judge(parse_cards("5d 5c 5h 5s 2s"), parse_cards("6d 6c 6h 6s 3d"))
    assert verdict.result == "b_beats_a"
    assert verdict.reason == (
        "Both are fours of a kind: only the rank of the four counts, and 6s beat 5s "
        "— the kicker is dead weight"
    )


def test_full_house_of_jacks_over_threes_beats_tens_over_aces():
    assert beats("jd jc jh 3d 3c", "10d 10c 10h ad ac")


def test_lowest_full_house_beats_highest_flush():
    verdict = judge(parse_cards("3d 3c 3h 4d 4c"), parse_cards("js qs ks as 2s"))
    assert verdict.result == "a_beats_b"
    assert verdict.reason == (
        "A full house beats any flush: five-card hands rank "
        "straight < flush < full house < four of a kind < straight flush"
    )


def test_weakest_flush_beats_the_highest_straight():
    assert beats("3d 4d 5d 6d 8d", "10s js qs ks ah")


def test_any_four_of_a_kind_beats_any_full_house():
    assert beats("3d 3c 3h 3s 4d", "2d 2c 2h as ah")


def test_a_pair_cannot_answer_a_five_card_hand():
    verdict = judge(parse_cards("2s 2h"), parse_cards("3d 4c 5h 6s 7d"))
    assert verdict.result == "different_sizes"
    assert verdict.reason == (
        "A pair can't answer a five-card hand: a play is only answered by the same number of cards"
    )


def test_four_of_a_kind_with_kicker_cannot_capture_a_pair():
    assert judge(parse_cards("2d 2c 2h 2s 3d"), parse_cards("4d 4c")).result == "different_sizes"


def test_triple_of_fours_falls_only_to_a_higher_triple():
    assert beats("5d 5c 5h", "4d 4c 4h")
    assert judge(parse_cards("2d 2c"), parse_cards("4d 4c 4h")).result == "different_sizes"


def test_bare_four_of_a_kind_is_not_a_play():
    assert not_a_play("9s 9h 9c 9d") == (
        "a bare four of a kind is not a play: add any fifth card as a kicker"
    )


def test_two_pair_is_not_a_play():
    assert not_a_play("9s 9h 4c 4d") == "two pair is not a Big Two play"


def test_four_cards_are_never_a_play():
    assert not_a_play("3d 4d 5d 6d") == "four cards are never a play: play 1, 2, 3 or 5 cards"


def test_opening_play_holds_the_three_of_diamonds_alone_in_a_pair_or_in_five_cards():
    assert can_open(parse_cards("3d"))
    assert can_open(parse_cards("3d 3s"))
    assert can_open(parse_cards("3d 4c 5h 6s 7d"))
    assert can_open(parse_cards("3d 3c 3h 9d 9c"))


def test_a_play_without_the_three_of_diamonds_cannot_open():
    assert not can_open(parse_cards("3c"))
    assert not can_open(parse_cards("3s 3c"))
    assert not can_open(parse_cards("4d 5c 6h 7s 8d"))


def test_nine_cards_cost_nine_and_ten_cost_twenty():
    assert penalty(9) == 9
    assert penalty(10) == 20


def test_twelve_cards_cost_twenty_four_and_thirteen_cost_thirty_nine():
    assert penalty(12) == 24
    assert penalty(13) == 39


def test_four_cards_cost_four():
    assert penalty(4) == 4


def test_worked_deal_alice_out_ben_four_cara_ten_dev_thirteen():
    game = replay([[0, 4, 10, 13]])
    assert game.penalties == ((0, 4, 20, 39),)


def test_game_ends_when_someone_reaches_100_and_one_player_is_lowest_alone():
    result = outcome([20, 100, 45, 70])
    assert result.finished
    assert result.winner == 0


def test_game_ends_after_the_deal_that_takes_someone_to_100_with_one_player_lowest():
    game = replay([[0, 13, 13, 1], [13, 0, 13, 13], [5, 13, 13, 0], [0, 6, 13, 8]])
    assert game.running_totals[2] == (44, 78, 117, 40)
    assert game.finished_after == 3
    assert game.winner == 3


def test_tie_for_lowest_plays_on_until_one_player_is_alone_at_the_bottom():
    game = replay([[0, 10, 13, 13], [10, 0, 13, 12], [10, 10, 8, 0], [1, 1, 12, 0], [0, 3, 5, 2]])
    after_four = game.deals[3]
    assert after_four.totals == (41, 41, 110, 63)
    assert after_four.outcome.tied
    assert not after_four.outcome.finished
    assert game.totals == (41, 44, 115, 65)
    assert game.finished_after == 5
    assert game.winner == 0


def test_game_is_not_over_while_everyone_is_under_100():
    result = outcome([99, 0, 50, 98])
    assert not result.finished
    assert result.winner is None


def test_the_guides_example_trick_climbs_single_by_single():
    """Guide 003: A plays 3♦, B 3♣, D 4♦, B 4♥, C re-enters with 5♠; each beats the last."""
    for lower, higher in itertools.pairwise(("3d", "3c", "4d", "4h", "5s")):
        assert beats(higher, lower)


def test_the_guides_next_lead_is_a_legal_pair():
    """Guide 003: 7♦7♣ is shown as a possible next lead: a pair, which needs no 3♦."""
    pair = play("7d 7c")
    assert pair.kind == "pair"
    assert not can_open(pair.cards)
