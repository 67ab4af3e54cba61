"""Every table's rules (issue 14): scoring a deal from its facts, by the seed's examples (seed
004, "Variations" and the FAQ), the deals each rule refuses, and the choices that clash."""

import pytest

from rules.deal_checks import DealResult, penalty
from rules.deal_options import Dragon, DrawOnPass, PaysForTable, Scoring, TwoPlayerDeal
from rules.deal_score import DealRefused, ScoredDeal, facts_wanted, score_deal
from rules.i18n import use_language
from rules.options import PenaltyScale
from rules.penalties import replay, validate_deal
from rules.ruleset import RuleSet, UnknownRules, parse_rules

NAMES = ["Alice", "Ben", "Cara", "Dev"]


def scored(facts: DealResult, rules: str = "standard") -> ScoredDeal:
    return score_deal(facts, parse_rules(rules))


def refused(facts: DealResult, rules: str = "standard", names=None) -> list[str]:
    with pytest.raises(DealRefused) as error:
        score_deal(facts, parse_rules(rules), names=names)
    assert str(error.value) == "; ".join(error.value.problems)
    return error.value.problems


# --- Cards left: the rule book's scoring -----------------------------------------------------


def test_the_worked_deal_scores_0_4_20_39_and_says_why():
    deal = scored(DealResult((0, 4, 10, 13)))
    assert deal.penalties == (0, 4, 20, 39)
    assert deal.winner == 0
    assert deal.explain() == (
        "went out",
        "4 cards, 1 each",
        "10 cards, 2 each",
        "13 cards, 3 each",
    )
    assert scored(DealResult((1, 0, 2, 3))).explain()[0] == "1 card, 1 each"


def test_under_the_twos_rule_going_out_on_the_two_of_spades_doubles_to_8_40_78():
    deal = scored(DealResult((0, 4, 10, 13), out_on_twos=True), "twos-double")
    assert deal.penalties == (0, 8, 40, 78)
    assert deal.explain()[1] == "4 cards, 1 each; doubled: went out on twos"


def test_nine_cards_with_two_twos_cost_72_under_the_stronger_twos_rule():
    deal = scored(DealResult((0, 9, 1, 13), True, (0, 2, 1, 0)), "twos-double-each")
    assert deal.penalties == (0, 72, 4, 78)
    assert deal.explain()[1:3] == (
        "9 cards, 1 each; doubled: went out on twos; doubled for each of the 2 twos held",
        "1 card, 1 each; doubled: went out on twos; doubled for the two held",
    )


def test_the_heavier_scales_charge_as_the_seed_says():
    assert scored(DealResult((0, 8, 10, 13)), "heavy-penalties").penalties == (0, 16, 30, 52)
    assert scored(DealResult((0, 8, 10, 11)), "doubling-penalties").penalties == (0, 16, 40, 44)
    assert scored(DealResult((0, 8, 10, 13)), "flat-penalties").penalties == (0, 8, 10, 13)


# --- Hand sizes: three players, two players, drawing on a pass --------------------------------


def test_three_players_pay_three_a_card_for_thirteen_or_more():
    """Seed 004: "three points per card for a hand of thirteen or more"."""
    deal = scored(DealResult((0, 13, 18)), "3-players")
    assert deal.penalties == (0, 39, 54)
    assert deal.explain()[2] == "18 cards, 3 each"
    assert scored(DealResult((0, 17, 16)), "3-players").penalties == (0, 51, 48)


@pytest.mark.parametrize(
    ("token", "dealt"), [("2-players", 13), ("2-players-17", 17), ("2-players-21", 21)]
)
def test_two_players_are_dealt_13_17_or_21_and_can_be_left_with_all_of_them(token, dealt):
    rules = parse_rules(token)
    assert rules.players == 2
    assert rules.cards_dealt == rules.hand_size == dealt
    assert score_deal(DealResult((dealt, 0)), rules).penalties == (3 * dealt, 0)
    assert refused(DealResult((dealt + 1, 0)), token) == [
        f"Cards left must be between 0 and {dealt} — seat 0 has {dealt + 1}"
    ]


def test_two_players_set_aside_26_18_or_10():
    assert [deal.stock for deal in TwoPlayerDeal] == [26, 18, 10]
    assert parse_rules("2-players-21").label == "2 players, 21 cards each"
    assert TwoPlayerDeal.SEVENTEEN.explained == "17 cards each; the other 18 are set aside unseen."


def test_drawing_on_a_pass_lets_a_hand_grow_past_the_deal():
    """A player who passes draws from the stock, so cards left can exceed the deal: up to the
    deal and the whole stock. 13 or more cost three a card."""
    three = parse_rules("3-players,draw-on-pass")
    assert (three.cards_dealt, three.hand_size) == (13, 26)
    assert score_deal(DealResult((0, 26, 13)), three).penalties == (0, 78, 39)
    two = parse_rules("2-players-17,draw-on-pass")
    assert (two.cards_dealt, two.hand_size) == (17, 35)
    assert score_deal(DealResult((35, 0)), two).penalties == (105, 0)


def test_with_a_stock_the_losers_hold_no_more_than_the_pack_less_the_winners_deal():
    assert refused(DealResult((0, 26, 26)), "3-players,draw-on-pass") == [
        "The winner played at least the 13 cards they were dealt, so the others hold at most "
        "39 between them — 52 are entered"
    ]
    # Without a stock, only the player who took the 18th card can hold 18.
    assert refused(DealResult((0, 18, 18)), "3-players") == [
        "Only the player who took the last card can have 18 left — seat 1 and seat 2 can't all "
        "have 18"
    ]


# --- Pusoy Dos scoring -------------------------------------------------------------------------


@pytest.mark.parametrize(("twos", "points"), [(0, 1), (1, 2), (2, 4), (3, 8), (4, 16)])
def test_pusoy_dos_scoring_charges_every_loser_what_the_winner_earned(twos, points):
    """Seed 004: "one point for going out, or instead two if the last play was a two, four
    for a pair of twos, eight for three and sixteen for all four … the winner a 0 and
    everybody else the points the winner earned"."""
    deal = scored(DealResult((5, 0, 13, 1), last_play_twos=twos), "pusoy-dos-scoring")
    assert deal.penalties == (points, 0, points, points)
    assert deal.winner == 1
    assert deal.explain()[0] == f"the winner earned {points}"


def test_pusoy_dos_scoring_says_what_the_winner_went_out_on():
    lines = [
        scored(DealResult((0, 5), last_play_twos=twos), "pusoy-dos-scoring,2-players").explain()[0]
        for twos in range(5)
    ]
    assert lines == [
        "went out",
        "went out on a two",
        "went out on two twos",
        "went out on three twos",
        "went out on four twos",
    ]


def test_pusoy_dos_scoring_needs_the_twos_of_the_last_play_and_a_winner():
    assert refused(DealResult((0, 5, 6, 7)), "pusoy-dos-scoring") == [
        "Say how many twos were in the last play: 0 to 4"
    ]
    assert refused(DealResult((1, 5, 6, 7), last_play_twos=5), "pusoy-dos-scoring") == [
        "Nobody went out: enter 0 for the player who played their last card",
        "The last play can hold 0 to 4 twos — 5 are entered",
    ]


def test_pusoy_dos_scoring_needs_only_who_went_out_and_the_twos_of_the_last_play():
    """Issue 29: the score comes from the winner and the twos of the last play alone, so no
    loser's cards left are asked for."""
    deal = scored(DealResult(went_out=2, last_play_twos=1), "pusoy-dos-scoring")
    assert deal.penalties == (2, 2, 0, 2)
    assert deal.winner == 2
    assert deal.cards_left is None
    assert deal.explain() == (
        "the winner earned 2",
        "the winner earned 2",
        "went out on a two",
        "the winner earned 2",
    )
    # The cards left may still be given (their 0 says who went out), and must agree.
    assert scored(DealResult((3, 0, 5, 2), last_play_twos=0, went_out=1), "pusoy-dos-scoring")
    assert refused(
        DealResult((3, 0, 5, 2), last_play_twos=0, went_out=2), "pusoy-dos-scoring", NAMES
    ) == ["Cara went out, so enter 0 cards left for them, not 5"]


def test_pusoy_dos_scoring_asks_who_went_out():
    assert refused(DealResult(), "pusoy-dos-scoring") == [
        "Say who went out: the player who played their last card",
        "Say how many twos were in the last play: 0 to 4",
    ]
    assert refused(DealResult(went_out=4, last_play_twos=0), "pusoy-dos-scoring") == [
        "There is no seat 4 to have gone out: seats are 0 to 3"
    ]
    with pytest.raises(ValueError, match="went_out given, but standard doesn't use it"):
        scored(DealResult((0, 1, 2, 3), went_out=0))
    # When the loser leads, the cards left say who that is: they are needed.
    assert refused(DealResult(last_play_twos=0), "pusoy-dos-scoring,loser-leads") == [
        "Enter the cards left for all 4 players"
    ]


def test_paying_for_the_table_under_pusoy_dos_scoring_without_cards_left():
    deal = scored(
        DealResult(went_out=0, last_play_twos=2, pays=1), "pusoy-dos-scoring,pays-for-table"
    )
    assert deal.penalties == (0, 12, 0, 0)
    assert deal.explain(NAMES) == (
        "went out on two twos",
        "pays for the table: 4 + 4 + 4",
        "the winner earned 4; Ben pays for the table",
        "the winner earned 4; Ben pays for the table",
    )
    assert refused(
        DealResult(went_out=0, last_play_twos=2, pays=0), "pusoy-dos-scoring,pays-for-table", NAMES
    ) == ["Alice went out, so can't pay for the table: name a player who lost the deal"]


# --- Finishing order ---------------------------------------------------------------------------


def test_finishing_order_charges_first_0_second_1_third_3_last_5():
    """Seed 004: "enter it as penalties, first 0, second 1, third 3, last 5"."""
    deal = scored(DealResult(order=(2, 0, 3, 1)), "finishing-order")
    assert deal.penalties == (1, 5, 0, 3)
    assert deal.winner == 2
    assert deal.cards_left is None
    assert deal.explain() == ("2nd out", "last", "went out first", "3rd out")


def test_with_three_players_the_places_cost_0_1_3_and_with_two_0_1():
    """Decided: fewer players keep the four-player penalties of the places there are."""
    assert scored(DealResult(order=(1, 2, 0)), "finishing-order,3-players").penalties == (3, 0, 1)
    three = scored(DealResult(order=(1, 2, 0)), "finishing-order,3-players")
    assert three.explain() == ("last", "went out first", "2nd out")
    assert scored(DealResult(order=(1, 0)), "finishing-order,2-players").penalties == (1, 0)


def test_a_finishing_order_names_every_seat_once():
    assert refused(DealResult(order=(2, 0, 2, 1)), "finishing-order", NAMES) == [
        "The finishing order names Cara more than once",
        "The finishing order leaves out Dev: list every player once",
    ]
    assert refused(DealResult(order=(0, 1, 2, 4)), "finishing-order") == [
        "There is no seat 4: seats are numbered 0 to 3"
    ]
    assert refused(DealResult(), "finishing-order") == [
        "Give the order the players went out in, the first out first"
    ]


# --- The dragon -------------------------------------------------------------------------------


def test_the_dragon_wins_at_once_and_everyone_else_takes_39():
    """Seed 004: "every other player takes the full thirty-nine points"."""
    deal = scored(DealResult(dragon=3), "dragon")
    assert deal.penalties == (39, 39, 39, 0)
    assert deal.winner == 3
    assert deal.cards_left == (13, 13, 13, 13)
    assert deal.explain() == ("dragon: 13 cards, 3 each",) * 3 + ("dragon: one card of every rank",)


def test_the_dragon_charges_thirteen_cards_under_the_scale_in_force_and_no_twos():
    assert scored(DealResult(dragon=0), "dragon,heavy-penalties").penalties == (0, 52, 52, 52)
    assert scored(DealResult(dragon=0), "dragon,flat-penalties").penalties == (0, 13, 13, 13)
    assert scored(DealResult(dragon=1), "dragon,twos-double-each").penalties == (39, 0, 39, 39)


def test_a_dragon_deal_takes_no_other_facts_and_a_seat_at_the_table():
    with pytest.raises(ValueError, match="cards_left given, but dragon doesn't use it"):
        scored(DealResult((0, 1, 2, 3), dragon=1), "dragon")
    with pytest.raises(ValueError, match="dragon given, but standard doesn't use it"):
        scored(DealResult(dragon=1))
    assert refused(DealResult(dragon=4), "dragon") == [
        "There is no seat 4 to hold the dragon: seats are 0 to 3"
    ]
    # An ordinary deal under the same rules is scored by its cards.
    assert scored(DealResult((0, 1, 2, 3)), "dragon").penalties == (0, 1, 2, 3)


# --- Paying for the table ----------------------------------------------------------------------


def test_who_pays_for_the_table_takes_every_losers_penalty_their_own_included():
    deal = score_deal(DealResult((0, 5, 13, 10), pays=3), parse_rules("pays-for-table"))
    assert deal.penalties == (0, 0, 0, 64)
    assert deal.explain(NAMES) == (
        "went out",
        "5 cards, 1 each; Dev pays for the table",
        "13 cards, 3 each; Dev pays for the table",
        "pays for the table: 5 + 39 + 20",
    )
    # Nobody named, everyone pays their own.
    assert scored(DealResult((0, 5, 13, 10)), "pays-for-table").penalties == (0, 5, 39, 20)


def test_paying_for_the_table_under_pusoy_dos_scoring_and_the_twos_rule():
    pusoy = scored(
        DealResult((0, 5, 13), last_play_twos=1, pays=2),
        "pusoy-dos-scoring,pays-for-table,3-players",
    )
    assert pusoy.penalties == (0, 0, 4)
    twos = scored(DealResult((0, 5, 13, 10), True, pays=1), "twos-double,pays-for-table")
    assert twos.penalties == (0, 128, 0, 0)


def test_a_winner_who_didnt_say_last_card_pays_for_the_table():
    """Under cards-left scoring the winner may take every loser's penalty (big-two-scorer's
    `0t`); under Pusoy Dos scoring, where the winner earns the points, not."""
    deal = scored(DealResult((0, 5, 13, 10), pays=0), "pays-for-table")
    assert deal.penalties == (64, 0, 0, 0)
    assert deal.winner == 0
    assert deal.explain(NAMES)[0] == "pays for the table: 5 + 39 + 20"
    assert deal.explain(NAMES)[1].endswith("Alice pays for the table")


def test_a_payer_must_sit_at_the_table():
    assert refused(DealResult((0, 5, 13, 10), pays=-1), "pays-for-table") == [
        "There is no seat -1 to pay for the table: seats are 0 to 3"
    ]


# --- Points by hand ----------------------------------------------------------------------------


def test_points_out_of_range_are_said_as_points_in_chinese():
    """Not "Dev 有 1000 張" (cards): the points refusal counts points."""
    with use_language("zh-hant"):
        message = refused(DealResult(points=(0, 4, 9, 1000)), "points-by-hand", NAMES)[0]
    assert "Dev 有 1000 分" in message


def test_points_by_hand_are_taken_as_typed():
    deal = scored(DealResult(points=(0, 4, 9, 2)), "points-by-hand")
    assert deal.penalties == (0, 4, 9, 2)
    assert deal.explain() == ("went out", "points as typed", "points as typed", "points as typed")
    assert deal.cards_left is None
    with_cards = scored(DealResult((0, 4, 9, 2), points=(0, 40, 99, 999)), "points-by-hand")
    assert with_cards.penalties == (0, 40, 99, 999)
    assert with_cards.cards_left == (0, 4, 9, 2)


def test_points_by_hand_need_one_zero_and_whole_numbers_up_to_999():
    assert refused(DealResult(points=(1, 4, 9, 1000)), "points-by-hand", NAMES) == [
        "Points must be between 0 and 999 — Dev has 1000",
        "Nobody has 0 points: enter 0 for the player who went out",
    ]
    assert refused(DealResult(points=(0, 0, 9, 2)), "points-by-hand", NAMES) == [
        "Only one player can go out in a deal — Alice and Ben both have 0"
    ]
    assert refused(DealResult(points=(0, 4, 9)), "points-by-hand") == [
        "Enter the points for all 4 players"
    ]


def test_points_and_cards_left_must_agree_on_who_went_out():
    assert refused(DealResult((4, 0, 9, 2), points=(0, 4, 9, 2)), "points-by-hand", NAMES) == [
        "Ben went out (0 cards left), so enter 0 points for them, not 4"
    ]


# --- Refusals common to every rule -------------------------------------------------------------


def test_every_problem_is_named_at_once_in_the_site_words():
    names = ["Ann", "Ben", "Cara", "Dev"]
    problems = refused(DealResult((0, 0, 14, 3), twos_held=(0, 0, 0, 4)), "twos-double-each", names)
    assert problems == [
        "Cards left must be between 0 and 13 — Cara has 14",
        "Only one player can go out in a deal — Ann and Ben both have 0",
        "Dev holds more twos (4) than cards (3)",
    ]
    # validate_deal, the score sheet's older check, says the same.
    assert (
        validate_deal([0, 0, 14, 3], names, parse_rules("twos-double-each"), twos_held=[0, 0, 0, 4])
        == problems
    )


def test_lists_of_the_wrong_length_and_missing_facts_are_named():
    assert refused(DealResult((0, 1, 2))) == ["Enter the cards left for all 4 players"]
    assert refused(DealResult((0, 1, 2, 3), twos_held=(0, 0)), "twos-double-each") == [
        "Enter the twos held for all 4 players"
    ]
    assert refused(DealResult()) == ["Enter the cards left for all 4 players"]


def test_a_fact_the_rules_dont_use_is_the_calling_codes_mistake():
    with pytest.raises(ValueError, match="order, out_on_twos given, but standard doesn't use it"):
        scored(DealResult((0, 1, 2, 3), out_on_twos=True, order=(0, 1, 2, 3)))
    with pytest.raises(ValueError, match="cards_left given, but finishing-order doesn't use it"):
        scored(DealResult((0, 1, 2, 3), order=(0, 1, 2, 3)), "finishing-order")


def test_the_facts_each_scoring_takes():
    def wanted(rules: str, **dragon) -> tuple[list[str], list[str]]:
        found = facts_wanted(parse_rules(rules), **dragon)
        return sorted(found.required), sorted(found.optional)

    assert wanted("standard") == (["cards_left"], [])
    assert wanted("twos-double") == (["cards_left"], ["out_on_twos"])
    assert wanted("twos-double-each,dragon,pays-for-table") == (
        ["cards_left", "twos_held"],
        ["dragon", "out_on_twos", "pays"],
    )
    assert wanted("dragon", dragon=True) == (["dragon"], [])
    assert wanted("standard", dragon=True) == (["cards_left"], [])
    assert wanted("pusoy-dos-scoring,pays-for-table") == (["last_play_twos"], ["pays"])
    assert sorted(facts_wanted(parse_rules("pusoy-dos-scoring")).one_of) == [
        "cards_left",
        "went_out",
    ]
    # Whoever was left holding the most cards leads: only then are the cards needed.
    assert wanted("pusoy-dos-scoring,loser-leads") == (["cards_left", "last_play_twos"], [])
    assert wanted("finishing-order") == (["order"], [])
    assert wanted("points-by-hand") == (["points"], ["cards_left"])


# --- Choices that can't be played together -----------------------------------------------------


@pytest.mark.parametrize(
    ("name", "why"),
    [
        (
            "draw-on-pass",
            "'draw-on-pass' needs a stock to draw from: play it with two or three players",
        ),
        (
            "pusoy-dos-scoring twos-double",
            "'pusoy-dos-scoring' doesn't charge for cards left, so 'twos-double' would change "
            "nothing: leave it out",
        ),
        (
            "finishing-order heavy-penalties",
            "'finishing-order' doesn't charge for cards left, so 'heavy-penalties' would change "
            "nothing: leave it out",
        ),
        (
            "points-by-hand dragon",
            "'dragon' charges everyone else for all thirteen cards: it can't be played with "
            "'points-by-hand'",
        ),
        (
            "finishing-order pays-for-table",
            "'pays-for-table' hands every loser's penalty to one player: it can't be played with "
            "'finishing-order'",
        ),
        (
            "pays-for-table 2-players",
            "'pays-for-table' needs three or four players: with two, the loser only ever pays "
            "their own penalty",
        ),
        (
            "dragon 3-players",
            "'dragon' is thirteen cards, one of every rank: it needs 13 cards dealt to each "
            "player, not 17",
        ),
        (
            "dragon 2-players-21",
            "'dragon' is thirteen cards, one of every rank: it needs 13 cards dealt to each "
            "player, not 21",
        ),
    ],
)
def test_choices_that_cannot_be_played_together_are_refused_saying_why(name, why):
    with pytest.raises(UnknownRules) as error:
        parse_rules(name)
    assert str(error.value) == why


def test_every_clash_is_named_at_once():
    with pytest.raises(UnknownRules) as error:
        RuleSet(
            scoring=Scoring.POINTS_BY_HAND,
            penalties=PenaltyScale.FLAT,
            pays_for_table=PaysForTable.ON,
        )
    assert str(error.value).count("; ") == 1


def test_the_dragon_and_drawing_go_together_where_everyone_is_dealt_13():
    rules = parse_rules("3-players draw-on-pass dragon")
    assert rules.dragon is Dragon.ON and rules.draw_on_pass is DrawOnPass.ON
    assert score_deal(DealResult(dragon=2), rules).penalties == (39, 39, 0)
    assert parse_rules("2-players dragon").cards_dealt == 13


def test_a_two_player_deal_counts_only_with_two_players():
    with pytest.raises(ValueError, match="two_player_deal only counts with two players"):
        RuleSet(two_player_deal=17)
    with pytest.raises(ValueError, match="two_player_deal must be 13, 17 or 21, not 15"):
        RuleSet(players=2, two_player_deal=15)


# --- Replaying a game of any rules -------------------------------------------------------------


def test_replay_scores_every_deal_with_score_deal():
    rules = parse_rules("finishing-order,3-players,to-5")
    game = replay([DealResult(order=(0, 1, 2)), DealResult(order=(2, 1, 0))], rules)
    assert game.penalties == ((0, 1, 3), (3, 1, 0))
    assert game.totals == (3, 2, 3)
    assert game.deals[0].cards_left is None
    assert game.deals[1].scored.winner == 2
    assert game.finished_after is None


def test_replay_of_dragons_and_pusoy_dos():
    dragon = replay([DealResult(dragon=1)], parse_rules("dragon"), players=4)
    assert dragon.totals == (39, 0, 39, 39)
    assert dragon.deals[0].cards_left == (13, 13, 13, 13)
    with pytest.raises(ValueError, match="doesn't say how many players"):
        replay([DealResult(dragon=1)], parse_rules("dragon"))
    pusoy = replay([DealResult((0, 3, 4, 5), last_play_twos=4)], parse_rules("pusoy-dos-scoring"))
    assert pusoy.totals == (0, 16, 16, 16)


def test_replay_refuses_a_deal_that_breaks_the_rules():
    with pytest.raises(DealRefused, match="Only one player can go out in a deal"):
        replay([[0, 4, 10, 13], [0, 0, 1, 2]])


def test_penalty_is_unchanged_for_cards_left_and_bounded_by_the_hand():
    assert penalty(26, parse_rules("3-players,draw-on-pass")) == 78
    with pytest.raises(ValueError, match="between 0 and 26, not 27"):
        penalty(27, parse_rules("3-players,draw-on-pass"))
