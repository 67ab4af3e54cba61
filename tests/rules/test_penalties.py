"""Scoring: penalty bands, the end of the game, replaying deals, and checking a deal."""

import pytest

from rules.deal_options import TwoPlayerDeal
from rules.options import Finish, PenaltyScale
from rules.penalties import Outcome, outcome, penalty, replay, validate_deal
from rules.ruleset import RuleSet

NAMES = ["Ann", "Ben", "Cara", "Dev"]


def test_going_out_costs_nothing():
    assert penalty(0) == 0


def test_one_to_nine_cards_cost_one_point_each():
    assert [penalty(n) for n in range(1, 10)] == list(range(1, 10))


def test_ten_cards_cost_twenty():
    assert penalty(10) == 20


def test_eleven_cards_cost_twenty_two():
    assert penalty(11) == 22


def test_an_untouched_hand_of_thirteen_costs_thirty_nine():
    assert penalty(13) == 39


@pytest.mark.parametrize("cards_left", [-1, 14, 52])
def test_impossible_counts_of_cards_left_are_refused(cards_left):
    with pytest.raises(ValueError, match=f"between 0 and 13, not {cards_left}"):
        penalty(cards_left)


def test_under_the_target_the_game_goes_on_and_nobody_is_tied():
    result = outcome([40, 40, 90, 99])
    assert result == Outcome(finished=False, winner=None, lowest=(0, 1), finish_reached=False)
    assert not result.tied


def test_reaching_exactly_the_target_ends_the_game():
    assert outcome([100, 30, 60, 70]).winner == 1


def test_shared_lowest_total_at_the_target_is_a_tie_and_play_goes_on():
    result = outcome([30, 30, 104, 70])
    assert result.tied
    assert not result.finished
    assert result.winner is None
    assert result.lowest == (0, 1)


def test_a_lower_target_ends_the_game_sooner():
    assert outcome([10, 50, 20], RuleSet(target=50)).winner == 0


def test_outcome_needs_players():
    with pytest.raises(ValueError, match="no totals"):
        outcome([])


def test_replay_recomputes_penalties_and_running_totals():
    game = replay([[0, 4, 10, 13], [9, 0, 12, 1]])
    assert game.penalties == ((0, 4, 20, 39), (9, 0, 24, 1))
    assert game.running_totals == ((0, 4, 20, 39), (9, 4, 44, 40))
    assert game.deals[1].number == 2
    assert game.deals[1].cards_left == (9, 0, 12, 1)
    assert game.totals == (9, 4, 44, 40)
    assert game.finished_after is None
    assert game.winner is None
    assert not game.ends_before_last_deal


def test_replay_of_no_deals_starts_everyone_at_zero():
    game = replay([], players=3)
    assert game.totals == (0, 0, 0)
    assert game.deals == ()
    assert not game.outcome.finished


def test_replay_of_no_deals_needs_the_number_of_players():
    with pytest.raises(ValueError, match="how many players"):
        replay([])


def test_replay_refuses_a_deal_with_a_different_number_of_players():
    with pytest.raises(ValueError, match="deal 2 has 3 players, not 4"):
        replay([[0, 1, 2, 3], [0, 1, 2]])


def test_replay_notices_deals_recorded_after_the_game_ended():
    """Editing deal 1 to a 13-card wipe-out would end the game before its last deal."""
    deals = [[0, 13, 13, 13], [13, 0, 13, 13], [0, 13, 13, 13], [0, 5, 5, 5]]
    game = replay(deals)
    assert game.finished_after == 3
    assert game.winner == 0
    assert game.ends_before_last_deal
    assert game.outcome.winner == 0


def test_a_deal_with_one_player_out_and_others_holding_cards_is_fine():
    assert validate_deal([0, 4, 10, 13], NAMES) == []


def test_a_deal_where_nobody_went_out_is_refused():
    assert validate_deal([1, 4, 10, 13], NAMES) == [
        "Nobody went out: enter 0 for the player who played their last card"
    ]


def test_only_one_player_can_go_out_in_a_deal():
    assert validate_deal([0, 0, 10, 13], NAMES) == [
        "Only one player can go out in a deal — Ann and Ben both have 0"
    ]
    assert validate_deal([0, 0, 0, 13], NAMES) == [
        "Only one player can go out in a deal — Ann, Ben and Cara all have 0"
    ]


def test_cards_left_must_be_between_zero_and_thirteen():
    assert validate_deal([0, 4, 14, -1], NAMES) == [
        "Cards left must be between 0 and 13 — Cara has 14 and Dev has -1"
    ]


def test_validate_deal_needs_a_name_for_every_count():
    with pytest.raises(ValueError, match="3 counts of cards left for 4 players"):
        validate_deal([0, 1, 2], NAMES)


def test_a_scale_reads_the_same_whichever_thirteen_asked_first():
    """The bands are cached by hand size: a 13 asked for as a two-player deal's size must not
    come back to the next caller as that enum member (it printed in the rule book's table)."""
    PenaltyScale.DOUBLING.bands(TwoPlayerDeal.THIRTEEN)
    assert repr(PenaltyScale.DOUBLING.bands(13)[-1].last) == "13"


def test_time_up_ends_the_game_below_the_target_with_the_lowest_total_winning():
    result = outcome([30, 12, 45, 70], time_up=True)
    assert result.finished
    assert result.finish_reached
    assert result.winner == 1


def test_time_up_on_a_tie_for_lowest_shares_the_win():
    result = outcome([30, 12, 12, 70], time_up=True)
    assert result.finished
    assert result.winner is None
    assert result.winners == (1, 2)
    assert result.shared
    assert not result.tied


def test_time_up_ends_any_finish_rule():
    deals = RuleSet(finish=Finish.DEALS, deals=8)
    assert outcome([9, 40, 40, 70], deals, deals_played=3, time_up=True).winner == 0
    assert outcome([9, 40, 40, 70], RuleSet(finish=Finish.OPEN), time_up=True).winner == 0


def test_replay_ends_the_game_on_its_last_deal_and_not_before():
    deals = [[0, 4, 10, 13], [8, 0, 12, 13], [0, 3, 3, 3]]
    game = replay(deals[:1], last_deal=2)
    assert game.finished_after is None
    assert game.winners == ()
    assert not game.outcome.finished
    game = replay(deals[:2], last_deal=2)
    assert game.finished_after == 2
    assert game.winner == 1
    assert game.outcome.winner == 1
    assert not game.deals[0].outcome.finished


def test_replay_with_deals_after_the_last_notices_them():
    game = replay([[0, 4, 10, 13], [8, 0, 12, 13], [0, 3, 3, 3]], last_deal=2)
    assert game.finished_after == 2
    assert game.ends_before_last_deal


def test_replay_shares_the_win_of_a_tie_on_the_last_deal():
    game = replay([[0, 4, 10, 13], [4, 0, 12, 13]], last_deal=2)
    assert game.totals == (4, 4, 44, 78)
    assert game.finished_after == 2
    assert game.winners == (0, 1)
    assert game.winner is None
