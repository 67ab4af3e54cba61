"""Named house rules to start a season from (seed 004, "Variations"), and the target score
that fits a scoring (issue 29: at about one point a deal, 100 points is a hundred deals)."""

import pytest

from rules.deal_options import Dragon, Scoring
from rules.i18n import use_language
from rules.options import Finish, SuitOrder
from rules.presets import PRESETS, deals_to_finish, proposed_target, target_reason, target_within
from rules.ruleset import RuleSet, parse_rules


def test_each_preset_is_a_table_the_seed_describes():
    assert PRESETS["standard"].rules == RuleSet()
    assert PRESETS["hong-kong"].rules.dragon is Dragon.ON  # "The dragon: a Hong Kong rule"
    assert PRESETS["taiwan"].rules.suits is SuitOrder.BRIDGE  # "tables in Taiwan … Bridge order"
    pusoy = PRESETS["pusoy-dos"].rules
    assert (pusoy.suits, pusoy.scoring) == (SuitOrder.PUSOY_DOS, Scoring.PUSOY_DOS)
    played_out = PRESETS["pusoy-dos-played-out"].rules
    assert played_out.scoring is Scoring.FINISHING_ORDER  # "five, three, one and nothing"
    assert [preset.label for preset in PRESETS.values()] == [
        "Standard",
        "Hong Kong",
        "Taiwan",
        "Pusoy Dos (Philippines)",
        "Pusoy Dos, played to the last player",
    ]
    assert all(preset.explained.endswith(".") for preset in PRESETS.values())


def test_a_preset_plays_to_the_target_that_fits_its_scoring():
    for preset in PRESETS.values():
        assert preset.rules.target == proposed_target(preset.rules)
    assert PRESETS["pusoy-dos"].rules.name == "pusoy-dos-suits,pusoy-dos-scoring,to-15"


@pytest.mark.parametrize(
    ("rules", "target"),
    [
        ("standard", 100),
        ("heavy-penalties,3-players", 100),
        ("points-by-hand", 100),
        # About 1.25 a deal: a dozen deals is 15, where 100 would be some 80.
        ("pusoy-dos-scoring", 15),
        # The places after the first cost 1, 3 and 5 (3 players: 1 and 3; 2 players: 1).
        ("finishing-order", 35),
        ("finishing-order,3-players", 25),
        ("finishing-order,2-players", 10),
    ],
)
def test_the_proposed_target_is_a_dozen_deals_of_what_a_loser_pays(rules, target):
    assert proposed_target(parse_rules(rules)) == target


def test_the_target_comes_with_a_sentence_saying_why():
    assert target_reason(parse_rules("pusoy-dos-scoring")) == (
        "Under Pusoy Dos scoring a loser pays about 1 point a deal, so 100 points would take"
        " about 80 deals: 15 is a match of about a dozen."
    )
    assert target_reason(parse_rules("finishing-order")) == (
        "Under finishing order a loser pays about 3 points a deal, so 100 points would take"
        " about 33 deals: 35 is a match of about a dozen."
    )
    assert target_reason(RuleSet()) == (
        "Under penalties for cards left a loser pays about 8 points a deal, so 100 points is a"
        " match of about a dozen deals."
    )
    assert "the table sets the points" in target_reason(parse_rules("points-by-hand"))
    with use_language("zh-hant"):
        assert "15" in target_reason(parse_rules("pusoy-dos-scoring"))


def test_a_match_lasts_its_agreed_deals_or_the_deals_a_loser_takes_to_pay_the_target():
    assert deals_to_finish(RuleSet(finish=Finish.DEALS, deals=40)) == 40
    # About 8 points a loser a deal: 100 points in 13 deals, 4,000 in 500 and 4,001 in 501.
    assert deals_to_finish(RuleSet()) == 13
    assert deals_to_finish(RuleSet(target=4000)) == 500
    assert deals_to_finish(RuleSet(target=4001)) == 501
    # About 1.25 a deal under Pusoy Dos scoring.
    assert deals_to_finish(RuleSet(scoring=Scoring.PUSOY_DOS, target=625)) == 500
    # Open-ended: as long as the table plays.
    assert deals_to_finish(RuleSet(finish=Finish.OPEN)) is None


def test_the_highest_target_a_number_of_deals_reaches_is_what_losers_pay_in_them():
    assert target_within(RuleSet(), 500) == 4000
    assert target_within(RuleSet(scoring=Scoring.PUSOY_DOS), 500) == 625
    assert target_within(RuleSet(scoring=Scoring.FINISHING_ORDER), 500) == 1500
    for rules in (RuleSet(), RuleSet(scoring=Scoring.PUSOY_DOS, players=3)):
        highest = target_within(rules, 77)
        assert (
            deals_to_finish(RuleSet(scoring=rules.scoring, players=rules.players, target=highest))
            <= 77
        )
        assert (
            deals_to_finish(
                RuleSet(scoring=rules.scoring, players=rules.players, target=highest + 1)
            )
            > 77
        )
