"""The penalty scale "Doubled from N cards": 1 a card below N, 2 a card from N to 12, 3 at 13."""

import pytest

from rules.deal_options import Scoring
from rules.deal_score import score_deal
from rules.penalties import DealResult, penalty
from rules.penalty_scales import PenaltyScale, scale_for_threshold
from rules.ruleset import DEFAULT_RULES, RuleSet, UnknownRules, parse_rules
from rules.scoring_sheet import scoring_sheet


def doubled_from(n: int, **choices: object) -> RuleSet:
    return RuleSet(penalties=PenaltyScale.DOUBLED_FROM, doubled_from=n, **choices)


def test_doubled_from_eight_charges_double_from_eight_cards_and_treble_at_thirteen():
    rules = doubled_from(8)
    assert [penalty(n, rules) for n in (1, 7, 8, 9, 12, 13)] == [1, 7, 16, 18, 24, 39]


def test_doubled_from_thirteen_charges_one_a_card_to_twelve_and_three_at_thirteen():
    rules = doubled_from(13)
    assert [penalty(n, rules) for n in (9, 10, 12, 13)] == [9, 10, 12, 39]


def test_doubled_from_two_doubles_every_count_but_one_card():
    assert [penalty(n, doubled_from(2)) for n in (1, 2, 12, 13)] == [1, 4, 24, 39]


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_count_of_cards_left_is_charged_once_and_the_name_reads_back(n, players):
    rules = doubled_from(n, players=players)
    covered = [c for band in rules.penalty_bands for c in range(band.first, band.last + 1)]
    assert covered == list(range(1, rules.hand_size + 1))
    assert rules.name == f"doubled-from-{n}" + ("" if players == 4 else f",{players}-players")
    assert parse_rules(rules.name) == rules
    assert rules.label.startswith(f"Doubled from {n} cards")


def test_a_three_player_hand_of_eighteen_is_charged_three_a_card():
    assert penalty(18, doubled_from(8, players=3)) == 54


def test_doubled_from_ten_is_read_as_the_standard_scale():
    assert parse_rules("Doubled-From-10") == DEFAULT_RULES
    assert parse_rules("doubled-from-08") == doubled_from(8)


@pytest.mark.parametrize(
    "text",
    [
        "doubled-from-1",
        "doubled-from-0",
        "doubled-from-14",
        "doubled-from",
        "doubled-from-" + "9" * 5000,
    ],
)
def test_a_number_outside_two_to_thirteen_is_no_house_rule(text):
    with pytest.raises(UnknownRules, match="is not a house rule: choose from .*doubled-from-N"):
        parse_rules(text)


def test_the_number_counts_only_on_its_own_scale():
    with pytest.raises(ValueError, match="doubled_from only counts"):
        RuleSet(doubled_from=8)
    with pytest.raises(ValueError, match="between 2 and 13, not 14"):
        doubled_from(14)
    with pytest.raises(ValueError, match="is PenaltyScale.STANDARD"):
        doubled_from(10)


def test_a_scoring_without_cards_left_refuses_it_by_its_token():
    with pytest.raises(UnknownRules, match="so 'doubled-from-8' would change nothing"):
        parse_rules("points-by-hand doubled-from-8")
    assert Scoring.POINTS_BY_HAND.value == "points-by-hand"


def test_a_paper_sheets_fry_threshold_is_a_scale():
    assert scale_for_threshold(9) == (PenaltyScale.DOUBLED_FROM, 9)
    assert scale_for_threshold(10) == (PenaltyScale.STANDARD, 10)
    assert scale_for_threshold(13) == (PenaltyScale.DOUBLED_FROM, 13)
    assert scale_for_threshold(1000) == (PenaltyScale.FLAT, 10)
    with pytest.raises(ValueError, match="2 or more"):
        scale_for_threshold(1)


def test_a_deal_scored_doubled_from_nine():
    scored = score_deal(DealResult(cards_left=(0, 8, 9, 13)), doubled_from(9))
    assert scored.penalties == (0, 8, 18, 39)


def test_the_phones_offline_score_sheet_charges_the_same():
    sheet = scoring_sheet(doubled_from(8))
    assert [sheet["penalties"][n] for n in (7, 8, 12, 13)] == [7, 16, 24, 39]
