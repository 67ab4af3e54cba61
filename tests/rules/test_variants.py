"""House rules: each variation of the rule book (seed 004) as a RuleSet value, by its examples."""

from dataclasses import replace
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.cards import DECK, Card, Rank, Suit, parse_cards
from rules.deal_options import (
    Dragon,
    DrawOnPass,
    Lead,
    PaysForTable,
    Scoring,
    TwoPlayerDeal,
)
from rules.options import (
    STANDARD_PENALTIES,
    Finish,
    Flushes,
    PenaltyScale,
    Players,
    Straights,
    SuitOrder,
    TwosRule,
)
from rules.penalties import DealResult, Outcome, outcome, penalty, replay, validate_deal
from rules.plays import NotAPlay, Play, can_open, classify, compare, lowest_card
from rules.ruleset import (
    DEFAULT_RULES,
    MAX_DEALS,
    MAX_TARGET,
    OPTIONS,
    RuleSet,
    UnknownRules,
    option_label,
    parse_rules,
)
from tests.rules.strategies import rule_sets

NAMES = ["Ann", "Ben", "Cara", "Dev"]
PUSOY_DOS = RuleSet(suits=SuitOrder.PUSOY_DOS)
BRIDGE = RuleSet(suits=SuitOrder.BRIDGE)
ACE_TWO_HIGH = RuleSet(straights=Straights.ACE_TWO_HIGH)
NO_ACE_LOW = RuleSet(straights=Straights.NO_ACE_LOW)
TWO_HIGH = RuleSet(straights=Straights.TWO_HIGH)
INDONESIAN = RuleSet(straights=Straights.INDONESIAN)
TWOS_DOUBLE = RuleSet(twos=TwosRule.DOUBLE)
TWOS_EACH = RuleSet(twos=TwosRule.EACH_TWO)


def play(text: str, rules: RuleSet = DEFAULT_RULES) -> Play:
    return classify(parse_cards(text), rules)


def why(a: str, b: str, rules: RuleSet) -> str:
    """The reason A beats B under `rules`, checked to be the same seen from B's side."""
    verdict = compare(play(a, rules), play(b, rules), rules)
    assert verdict.result == "a_beats_b"
    assert compare(play(b, rules), play(a, rules), rules) == replace(verdict, result="b_beats_a")
    return verdict.reason


def not_a_play(text: str, rules: RuleSet) -> str:
    with pytest.raises(NotAPlay) as reason:
        play(text, rules)
    return str(reason.value)


# Rule sets, every option drawn (but only choices that can be played together).
RULE_SETS = rule_sets()
# What decides between plays: the suits, the straights and the flushes.
PLAY_RULES = st.builds(
    RuleSet,
    suits=st.sampled_from(SuitOrder),
    straights=st.sampled_from(Straights),
    flushes=st.sampled_from(Flushes),
)


# --- Naming rule sets ---------------------------------------------------------------------


def test_the_default_rules_are_standard_and_behave_as_the_rule_book():
    assert DEFAULT_RULES.name == "standard"
    assert DEFAULT_RULES.label == "Standard rules"
    assert DEFAULT_RULES.tokens == ()
    assert DEFAULT_RULES.suit_order == (Suit.DIAMONDS, Suit.CLUBS, Suit.HEARTS, Suit.SPADES)
    assert DEFAULT_RULES.hand_size == 13
    assert DEFAULT_RULES.penalty_bands == STANDARD_PENALTIES
    assert DEFAULT_RULES.target == 100


def test_every_choice_has_a_token_of_its_own():
    tokens = [
        *(choice.value for choices in (SuitOrder, Straights, Flushes, PenaltyScale, TwosRule)
          for choice in choices if choice is not PenaltyScale.DOUBLED_FROM),
        "doubled-from-8",
        *(choice.value for choices in (Scoring, Dragon, PaysForTable) for choice in choices),
        "to-100",
        "10-deals",
        Finish.OPEN.value,
        *(players.token for players in Players),
        "2-players-17",
        "2-players-21",
        *(choice.value for choices in (DrawOnPass, Lead) for choice in choices),
    ]  # fmt: skip
    assert len(tokens) == len(set(tokens)) == 40
    assert [deal.token for deal in TwoPlayerDeal] == ["2-players", "2-players-17", "2-players-21"]
    # Drawing needs a stock, which four players don't have.
    company = {"draw-on-pass": "3-players"}
    for token in tokens:
        assert parse_rules(f"{token} {company.get(token, '')}").tokens in (
            (),
            (token,),
            (company.get(token), token),
        )


def test_the_name_lists_the_choices_that_differ_in_field_order():
    rules = RuleSet(twos=TwosRule.DOUBLE, flushes=Flushes.POKER, suits=SuitOrder.PUSOY_DOS)
    assert rules.name == "pusoy-dos-suits,poker-flushes,twos-double"
    assert rules.label == "Pusoy Dos suits (♣ < ♠ < ♥ < ♦), poker flushes, twos rule"


def test_the_finish_and_players_are_named_with_their_numbers():
    assert RuleSet(target=50).name == "to-50"
    assert RuleSet(target=50).label == "To 50 points"
    assert RuleSet(finish=Finish.DEALS).name == "10-deals"
    assert RuleSet(finish=Finish.DEALS, deals=6, players=3).label == "6 deals, 3 players"
    assert RuleSet(finish=Finish.OPEN, players=2).name == "open-ended,2-players"
    assert RuleSet(finish=Finish.OPEN).label == "Open-ended"
    assert DEFAULT_RULES.finish_label == "to 100 points"


def test_every_straights_flushes_and_penalties_choice_reads_in_the_label():
    rules = RuleSet(
        suits=SuitOrder.BRIDGE,
        straights=Straights.TWO_HIGH,
        flushes=Flushes.TOP_CARD,
        penalties=PenaltyScale.DOUBLING,
        twos=TwosRule.EACH_TWO,
    )
    assert rules.label == (
        "Bridge suits (♣ < ♦ < ♥ < ♠), twos high in straights, flushes by top card, "
        "doubling penalties, twos rule doubled per two held"
    )


def test_every_choice_has_a_label_and_a_line_of_help_for_a_settings_form():
    for option, choices in OPTIONS.items():
        assert option_label(option)[0].isupper()
        for choice in choices:
            assert choice.label
            assert choice.explained.endswith(".")
    assert option_label("suits") == "Suit order"
    assert SuitOrder.PUSOY_DOS.label == "Pusoy Dos suits (♣ < ♠ < ♥ < ♦)"
    assert "3♣ opens" in SuitOrder.PUSOY_DOS.explained
    assert "ten cards cost 40, eleven 44" in PenaltyScale.DOUBLING.explained
    assert Players.THREE.label == "3 players"
    assert Finish.OPEN.label == "open-ended"


@given(RULE_SETS)
def test_parsing_a_rule_sets_name_gives_it_back(rules):
    assert parse_rules(rules.name) == rules


@given(RULE_SETS, st.randoms(use_true_random=False), st.sampled_from([",", " ", " , ", "\n"]))
def test_tokens_parse_in_any_order_case_and_separator(rules, random, separator):
    tokens = [token.upper() if random.random() < 0.5 else token for token in rules.tokens]
    random.shuffle(tokens)
    assert parse_rules(separator.join(tokens)) == rules


def test_the_longest_name_fits_a_database_column_of_200():
    longest = RuleSet(
        suits=SuitOrder.PUSOY_DOS,
        straights=Straights.ACE_TWO_HIGH,
        flushes=Flushes.TOP_CARD,
        penalties=PenaltyScale.DOUBLING,
        twos=TwosRule.EACH_TWO,
        dragon=Dragon.ON,
        pays_for_table=PaysForTable.ON,
        target=MAX_TARGET,
        players=3,
        draw_on_pass=DrawOnPass.ON,
        lead=Lead.WINNER,
    )
    assert len(longest.name) <= 200


def test_short_names_and_repeats_are_accepted():
    assert parse_rules("Pusoy-Dos") == PUSOY_DOS
    assert parse_rules("bridge, bridge-suits") == BRIDGE
    assert parse_rules(" standard ") == DEFAULT_RULES
    assert parse_rules("standard poker-flushes") == RuleSet(flushes=Flushes.POKER)
    assert parse_rules("to-0050 to-50") == RuleSet(target=50)
    assert parse_rules("standard-suits,4-players,to-100") == DEFAULT_RULES


def test_an_unknown_token_is_named_with_the_valid_ones():
    with pytest.raises(UnknownRules) as error:
        parse_rules("bridge, jokers-wild")
    assert str(error.value) == (
        "'jokers-wild' is not a house rule: choose from standard, standard-suits, "
        "pusoy-dos-suits, bridge-suits, standard-straights, ace-two-high-straights, "
        "no-ace-low-straights, two-high-straights, indonesian-straights, suit-first-flushes, "
        "top-card-flushes, "
        "poker-flushes, standard-penalties, flat-penalties, heavy-penalties, doubling-penalties, "
        "doubled-from-N, no-twos-rule, twos-double, twos-double-each, cards-left-scoring, "
        "pusoy-dos-scoring, "
        "finishing-order, points-by-hand, no-dragon, dragon, no-pays-for-table, pays-for-table, "
        "to-N, N-deals, open-ended, 4-players, 3-players, 2-players, 2-players-17, "
        "2-players-21, no-draw-on-pass, draw-on-pass, lowest-three-leads, winner-leads, "
        "loser-leads"
    )
    assert isinstance(error.value, ValueError)


def test_two_tokens_choosing_one_option_differently_are_refused():
    with pytest.raises(UnknownRules, match="^'to-50' and 'open-ended' both choose the end of"):
        parse_rules("to-50 open-ended")
    with pytest.raises(UnknownRules, match="both choose the number of players: keep one$"):
        parse_rules("3-players 2-players")


def test_numbers_out_of_range_are_refused_and_long_tokens_shortened():
    with pytest.raises(UnknownRules, match="^'to-0' is not a house rule: the number must be"):
        parse_rules("to-0")
    with pytest.raises(UnknownRules, match=f"between 1 and {MAX_DEALS}$"):
        parse_rules(f"{MAX_DEALS + 1}-deals")
    with pytest.raises(UnknownRules) as error:
        parse_rules("to-" + "9" * 5000)
    assert str(error.value).startswith(f"'to-{'9' * 26}…' is not a house rule")


@given(st.text(st.sampled_from(list("standrpuoyigebcfhlkwx-0123456789, ÅΣ"))))
def test_parse_rules_raises_nothing_but_unknown_rules(text):
    try:
        rules = parse_rules(text)
    except UnknownRules as error:
        assert str(error)
    else:
        assert parse_rules(rules.name) == rules


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"players": 5}, "players must be 2, 3 or 4, not 5"),
        ({"target": 0}, "target must be between 1 and 10000, not 0"),
        ({"finish": Finish.DEALS, "deals": 0}, "deals must be between 1 and 1000, not 0"),
        ({"finish": Finish.DEALS, "target": 50}, "target only counts when the finish is"),
        ({"deals": 5}, "deals only counts when the finish is"),
        ({"flushes": "poker-flushes"}, "flushes must be a Flushes, not 'poker-flushes'"),
    ],
)
def test_a_rule_set_that_makes_no_sense_is_refused(fields, message):
    with pytest.raises(ValueError, match=message):
        RuleSet(**fields)


# --- Suits -----------------------------------------------------------------------------------


def test_the_three_of_clubs_opens_under_pusoy_dos_and_bridge_suits():
    for rules in (PUSOY_DOS, BRIDGE):
        assert lowest_card(rules) == Card(Rank.THREE, Suit.CLUBS)
        assert can_open(parse_cards("3c 3d"), rules)
        assert not can_open(parse_cards("3d"), rules)


def test_pusoy_dos_ranks_diamonds_highest_and_says_so():
    assert why("9d", "9s", PUSOY_DOS) == (
        "Both are single 9s: the higher suit wins, ♦ beats ♠ (Pusoy Dos order ♣ < ♠ < ♥ < ♦)"
    )
    assert why("9d 9c", "9s 9h", PUSOY_DOS) == (
        "Both are pairs of 9s: the pair with the higher suit wins, ♦ beats ♥ "
        "(Pusoy Dos order ♣ < ♠ < ♥ < ♦)"
    )
    assert str(play("9d 9s 9c", PUSOY_DOS)) == "9♣ 9♠ 9♦"


def test_a_reason_that_no_suit_decided_does_not_name_the_order():
    assert why("10c", "9d", PUSOY_DOS) == (
        "Both are singles: 10s beat 9s, and rank decides before suit"
    )


def test_bridge_suits_decide_flushes_and_straights_of_one_run():
    assert why("3d 4d 5d 6d 8d", "3c 4c 5c 6c 9c", BRIDGE) == (
        "Both are flushes: ♦ outranks ♣, and suit decides before rank (Bridge order ♣ < ♦ < ♥ < ♠)"
    )
    assert why("3c 4c 5h 6s 7d", "3d 4d 5c 6h 7c", BRIDGE) == (
        "Both are straights 3-4-5-6-7: the top card's suit decides, 7♦ beats 7♣ "
        "(Bridge order ♣ < ♦ < ♥ < ♠)"
    )


# --- Straights -------------------------------------------------------------------------------


RUNS_IN_ORDER = {
    Straights.STANDARD: ["A-2-3-4-5", "2-3-4-5-6", "3-4-5-6-7", "10-J-Q-K-A"],
    Straights.ACE_TWO_HIGH: ["3-4-5-6-7", "4-5-6-7-8", "10-J-Q-K-A", "2-3-4-5-6", "A-2-3-4-5"],
    Straights.NO_ACE_LOW: ["2-3-4-5-6", "3-4-5-6-7", "10-J-Q-K-A"],
    Straights.TWO_HIGH: ["3-4-5-6-7", "9-10-J-Q-K", "10-J-Q-K-A", "J-Q-K-A-2"],
    Straights.INDONESIAN: ["3-4-5-6-7", "4-5-6-7-8", "10-J-Q-K-A", "A-2-3-4-5", "2-3-4-5-6"],
}


def straight_of(run: str) -> str:
    """Mixed suits, the top card a spade: "A-2-3-4-5" → "Ad 2d 3d 4d 5s"."""
    ranks = run.split("-")
    return " ".join(f"{rank}d" for rank in ranks[:-1]) + f" {ranks[-1]}s"


@pytest.mark.parametrize("straights", list(Straights))
def test_each_straights_rule_ranks_its_runs_in_its_own_order(straights):
    rules = RuleSet(straights=straights)
    plays = [play(straight_of(run), rules) for run in RUNS_IN_ORDER[straights]]
    assert [str(straight).replace("♦", "").replace("♠", "") for straight in plays] == [
        run.replace("-", " ") for run in RUNS_IN_ORDER[straights]
    ]
    assert all(higher.beats(lower) for lower, higher in pairwise(plays))
    assert len(straights.runs) == (
        9 if straights in (Straights.NO_ACE_LOW, Straights.TWO_HIGH) else 10
    )


def test_j_q_k_a_2_is_the_top_straight_when_twos_rank_high():
    top = play("2d js ah qd kc", TWO_HIGH)
    assert str(top) == "J♠ Q♦ K♣ A♥ 2♦"
    assert top.description == "Straight J-Q-K-A-2, 2♦ high"
    assert why("js qd kc ah 2d", "10s jd qc kh as", TWO_HIGH) == (
        "Both are straights: J-Q-K-A-2 is above 10-J-Q-K-A — under these rules the order runs "
        "3-4-5-6-7 (lowest), 4-5-6-7-8 … 10-J-Q-K-A, J-Q-K-A-2 (highest)"
    )
    assert play("js qs ks as 2s", TWO_HIGH).description == "Straight flush in ♠, J-Q-K-A-2"


def test_j_q_k_a_2_is_no_straight_under_the_standard_rules():
    assert not_a_play("js qd kc ah 2d", DEFAULT_RULES) == (
        "J-Q-K-A-2 is not a straight: nothing wraps past the ace"
    )


def test_when_twos_rank_high_the_low_runs_are_no_straights():
    assert not_a_play("as 2d 3c 4h 5d", TWO_HIGH) == (
        "A-2-3-4-5 is not a straight under these rules: the 2 ranks high, "
        "so straights run from 3-4-5-6-7 up to J-Q-K-A-2"
    )
    assert not_a_play("2s 3d 4c 5h 6d", TWO_HIGH).startswith("2-3-4-5-6 is not a straight")
    assert not_a_play("ks ad 2h 3c 4s", TWO_HIGH) == (
        "K-A-2-3-4 is not a straight under these rules: nothing wraps past the 2"
    )
    assert play("as 2s 3s 4s 5s", TWO_HIGH).description == "Flush in ♠, 2 high"


def test_a_2_3_4_5_is_the_highest_straight_when_ace_and_two_rank_high():
    assert why("as 2d 3c 4h 5d", "2s 3d 4c 5h 6d", ACE_TWO_HIGH) == (
        "Both are straights: A-2-3-4-5 is above 2-3-4-5-6 — under these rules the order runs "
        "3-4-5-6-7 (lowest), 4-5-6-7-8 … 10-J-Q-K-A, 2-3-4-5-6, A-2-3-4-5 (highest)"
    )
    assert play("as 2d 3c 4h 5d", ACE_TWO_HIGH).beats(play("10s jd qc kh ad", ACE_TWO_HIGH))
    assert not_a_play("qs kd ah 2c 3s", ACE_TWO_HIGH) == (
        "Q-K-A-2-3 is not a straight: nothing wraps past the ace"
    )


def test_a_2_3_4_5_is_no_straight_when_the_ace_counts_only_high():
    assert not_a_play("as 2d 3c 4h 5d", NO_ACE_LOW) == (
        "A-2-3-4-5 is not a straight under these rules: the ace counts only high, "
        "so 2-3-4-5-6 is the lowest straight"
    )
    assert play("ad 2d 3d 4d 5d", NO_ACE_LOW).kind == "flush"
    assert why("3s 4d 5c 6h 7d", "2s 3d 4c 5h 6d", NO_ACE_LOW) == (
        "Both are straights: 3-4-5-6-7 is above 2-3-4-5-6 — under these rules the order runs "
        "2-3-4-5-6 (lowest), 3-4-5-6-7 … 10-J-Q-K-A (highest)"
    )


def test_straight_flushes_follow_the_straights_rule_too():
    assert why("ah 2h 3h 4h 5h", "10s js qs ks as", ACE_TWO_HIGH) == (
        "Both are straight flushes: A-2-3-4-5 is above 10-J-Q-K-A — under these rules the order "
        "runs 3-4-5-6-7 (lowest), 4-5-6-7-8 … 10-J-Q-K-A, 2-3-4-5-6, A-2-3-4-5 (highest)"
    )


def test_indonesian_straights_put_a_straight_holding_a_2_above_every_other():
    """Seed 004: "In Indonesia a straight with a two in it beats every straight without one"."""
    assert why("as 2d 3c 4h 5d", "10s jd qc kh ad", INDONESIAN) == (
        "Both are straights: A-2-3-4-5 holds a 2, and under Indonesian straights a straight "
        "with a 2 beats every straight without one"
    )
    assert why("2s 3d 4c 5h 6d", "10s jd qc kh ad", INDONESIAN).startswith(
        "Both are straights: 2-3-4-5-6 holds a 2"
    )
    assert play("10s jd qc kh ad").beats(play("as 2d 3c 4h 5d"))  # not under the standard rules


def test_indonesian_straights_holding_a_2_keep_the_standard_order_between_themselves():
    """Decided: 2-3-4-5-6 (top card 6) beats A-2-3-4-5 (top card 5), as in the standard order;
    A-2-3-4-5 on top of everything is the ace-two-high rule."""
    assert why("2s 3d 4c 5h 6d", "as 2d 3c 4h 5s", INDONESIAN) == (
        "Both are straights holding a 2: 2-3-4-5-6 is above A-2-3-4-5 — between them the top "
        "card decides, as in the standard order"
    )
    assert INDONESIAN.straights.runs != ACE_TWO_HIGH.straights.runs


def test_indonesian_straights_without_a_2_rank_as_usual_and_j_q_k_a_2_is_no_straight():
    assert why("10s jd qc kh ad", "9s 10d jc qh kd", INDONESIAN) == (
        "Both are straights: 10-J-Q-K-A is above 9-10-J-Q-K — under these rules the order runs "
        "3-4-5-6-7 (lowest), 4-5-6-7-8 … 10-J-Q-K-A, A-2-3-4-5, 2-3-4-5-6 (highest)"
    )
    assert not_a_play("js qd kc ah 2d", INDONESIAN) == (
        "J-Q-K-A-2 is not a straight: nothing wraps past the ace"
    )


def test_indonesian_straight_flushes_holding_a_2_beat_the_royal_flush():
    assert why("ah 2h 3h 4h 5h", "10s js qs ks as", INDONESIAN) == (
        "Both are straight flushes: A-2-3-4-5 holds a 2, and under Indonesian straights a "
        "straight flush with a 2 beats every straight flush without one"
    )


# --- Flushes ---------------------------------------------------------------------------------

HEART_FLUSH = "3h 5h 6h 7h 9h"
CLUB_FLUSH_HIGHER_TOP = "2c 4c 6c 9c jc"


def test_suit_first_a_heart_flush_beats_a_club_flush_with_a_higher_top_card():
    assert why(HEART_FLUSH, CLUB_FLUSH_HIGHER_TOP, RuleSet(flushes=Flushes.SUIT_FIRST)) == (
        "Both are flushes: ♥ outranks ♣, and suit decides before rank"
    )


def test_by_top_card_the_club_flush_with_the_higher_top_card_wins():
    rules = RuleSet(flushes=Flushes.TOP_CARD)
    assert why(CLUB_FLUSH_HIGHER_TOP, HEART_FLUSH, rules) == (
        "Both are flushes: the higher top card wins, 2 beats 9 — the suit only breaks a tie"
    )


def test_by_top_card_the_suit_breaks_a_tie_and_lower_cards_dont_count():
    rules = RuleSet(flushes=Flushes.TOP_CARD)
    assert why("3h 4h 5h 6h jh", "4c 5c 8c 10c jc", rules) == (
        "Both are flushes topped by jacks: the suit breaks the tie, ♥ beats ♣"
    )
    assert why("3d 4d 5d 6d jd", "4c 5c 8c 10c jc", replace(rules, suits=SuitOrder.BRIDGE)) == (
        "Both are flushes topped by jacks: the suit breaks the tie, ♦ beats ♣ "
        "(Bridge order ♣ < ♦ < ♥ < ♠)"
    )


def test_poker_flushes_compare_card_by_card_then_by_suit():
    rules = RuleSet(flushes=Flushes.POKER)
    assert why(CLUB_FLUSH_HIGHER_TOP, HEART_FLUSH, rules) == (
        "Both are flushes: as in poker the higher top card wins, 2 beats 9"
    )
    assert why("3c 5c 6c 8c jc", "3h 4h 6h 8h jh", rules) == (
        "Both are flushes with the same top cards: as in poker the highest card that differs "
        "decides, 5 beats 4"
    )
    assert why("3h 4h 6h 8h jh", "3c 4c 6c 8c jc", rules) == (
        "Both are flushes of the same ranks: as in poker the suit decides last, ♥ beats ♣"
    )


def test_flushes_of_one_suit_compare_by_rank_under_every_flush_rule():
    for flushes in Flushes:
        rules = RuleSet(flushes=flushes)
        assert play("3h 5h 6h 7h kh", rules).beats(play("4h 8h 10h jh qh", rules))


# --- Plays in general ------------------------------------------------------------------------


def hands_of(size: int, straights: Straights) -> st.SearchStrategy[tuple[Card, ...]]:
    """Legal plays of `size` cards under a Straights rule, built by shape."""
    ranks, suits = st.sampled_from(Rank), st.sampled_from(Suit)

    def of_one_rank(count: int) -> st.SearchStrategy[tuple[Card, ...]]:
        return st.builds(
            lambda rank, chosen: tuple(Card(rank, suit) for suit in chosen),
            ranks,
            st.lists(suits, min_size=count, max_size=count, unique=True),
        )

    if size < 5:
        return of_one_rank(size)
    straight = st.builds(
        lambda run, chosen: tuple(map(Card, run, chosen)),
        st.sampled_from(straights.runs),
        st.lists(suits, min_size=5, max_size=5),
    )
    flush = st.builds(
        lambda chosen, suit: tuple(Card(rank, suit) for rank in chosen),
        st.lists(ranks, min_size=5, max_size=5, unique=True),
        suits,
    )
    full_house = st.builds(
        lambda two, three, pair: (
            tuple(Card(two[0], s) for s in three) + tuple(Card(two[1], s) for s in pair)
        ),
        st.lists(ranks, min_size=2, max_size=2, unique=True),
        st.lists(suits, min_size=3, max_size=3, unique=True),
        st.lists(suits, min_size=2, max_size=2, unique=True),
    )
    four = st.builds(
        lambda two, suit: tuple(Card(two[0], s) for s in Suit) + (Card(two[1], suit),),
        st.lists(ranks, min_size=2, max_size=2, unique=True),
        suits,
    )
    return st.one_of(straight, flush, full_house, four)


def disjoint(hands: list[tuple[Card, ...]]) -> bool:
    cards = [card for hand in hands for card in hand]
    return len(set(cards)) == len(cards)


@st.composite
def rules_and_plays(draw, count: int) -> tuple[RuleSet, list[Play]]:
    """A rule set and `count` legal plays of one size under it that share no card."""
    rules = draw(PLAY_RULES)
    size = draw(st.sampled_from([1, 2, 3, 5]))
    hands = draw(
        st.lists(hands_of(size, rules.straights), min_size=count, max_size=count).filter(disjoint)
    )
    return rules, [classify(hand, rules) for hand in hands]


@given(rules_and_plays(2))
def test_under_every_rule_set_two_disjoint_plays_are_ordered_one_way_only(drawn):
    rules, (a, b) = drawn
    forward, backward = compare(a, b, rules), compare(b, a, rules)
    assert {forward.result, backward.result} == {"a_beats_b", "b_beats_a"}
    assert forward.reason == backward.reason
    assert a.beats(b) != b.beats(a)


@given(rules_and_plays(3))
def test_under_every_rule_set_the_order_of_plays_is_transitive(drawn):
    rules, plays = drawn
    a, b, c = sorted(plays, key=lambda play: play.key)
    assert b.beats(a) and c.beats(b) and c.beats(a)
    assert compare(c, a, rules).result == "a_beats_b"


@given(PLAY_RULES, st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True))
def test_any_five_cards_classify_or_say_why_not_under_every_rule_set(rules, cards):
    try:
        five = classify(cards, rules)
    except NotAPlay as reason:
        assert str(reason)
    else:
        assert sorted(five.cards) == sorted(cards)
        assert five.description


def test_a_straight_shows_its_cards_in_run_order_under_every_rule():
    for straights in Straights:
        rules = RuleSet(straights=straights)
        for run in straights.runs:
            cards = [Card(rank, Suit((i * 3) % 4)) for i, rank in enumerate(run)]
            assert [card.rank for card in classify(cards[::-1], rules).cards] == list(run)


# --- Penalties -------------------------------------------------------------------------------


def test_doubling_penalties_ten_cards_cost_40_eleven_44():
    rules = RuleSet(penalties=PenaltyScale.DOUBLING)
    assert penalty(10, rules) == 40
    assert penalty(11, rules) == 44
    assert [penalty(n, rules) for n in (7, 8, 9, 13)] == [7, 16, 18, 52]


def test_heavy_penalties_double_treble_and_quadruple():
    rules = RuleSet(penalties=PenaltyScale.HEAVY)
    assert [penalty(n, rules) for n in (7, 8, 9, 10, 12, 13)] == [7, 16, 18, 30, 36, 52]


def test_flat_penalties_are_one_point_a_card():
    rules = RuleSet(penalties=PenaltyScale.FLAT)
    assert [penalty(n, rules) for n in range(14)] == list(range(14))


def test_three_players_eighteen_cards_cost_54_under_the_standard_scale():
    rules = RuleSet(players=3)
    assert rules.hand_size == 18
    assert penalty(18, rules) == 54
    assert penalty(13, rules) == 39
    assert penalty(18, replace(rules, penalties=PenaltyScale.HEAVY)) == 72
    assert penalty(18, replace(rules, penalties=PenaltyScale.FLAT)) == 18
    with pytest.raises(ValueError, match="between 0 and 18, not 19"):
        penalty(19, rules)


def test_two_players_hold_at_most_thirteen():
    assert RuleSet(players=2).hand_size == 13
    assert validate_deal([0, 13], ["Ann", "Ben"], RuleSet(players=2)) == []


def test_three_players_may_be_left_with_eighteen_but_not_nineteen():
    rules = RuleSet(players=3)
    names = NAMES[:3]
    assert validate_deal([0, 18, 17], names, rules) == []
    assert validate_deal([0, 19, 17], names, rules) == [
        "Cards left must be between 0 and 18 — Ben has 19"
    ]
    assert validate_deal([0, 18, 18], names, rules) == [
        "Only the player who took the last card can have 18 left — Ben and Cara can't all have 18"
    ]


# --- The twos rule ---------------------------------------------------------------------------


def test_nine_cards_with_two_twos_after_the_winner_went_out_on_a_two_cost_72():
    assert penalty(9, TWOS_EACH, out_on_twos=True, twos_held=2) == 9 * 2 * 2 * 2 == 72


def test_each_two_held_doubles_even_when_the_winner_did_not_go_out_on_twos():
    assert penalty(9, TWOS_EACH, twos_held=2) == 36
    assert penalty(9, TWOS_EACH) == 9


def test_going_out_on_twos_doubles_every_other_penalty():
    assert penalty(9, TWOS_DOUBLE, out_on_twos=True) == 18
    assert penalty(0, TWOS_DOUBLE, out_on_twos=True) == 0
    assert penalty(13, TWOS_DOUBLE, out_on_twos=True) == 78


def test_twos_facts_the_rules_dont_use_are_a_programming_error():
    with pytest.raises(ValueError, match="no twos rule"):
        penalty(9, out_on_twos=True)
    with pytest.raises(ValueError, match="only TwosRule.EACH_TWO counts twos held"):
        penalty(9, TWOS_DOUBLE, twos_held=1)
    with pytest.raises(ValueError, match="can't hold 3 twos"):
        penalty(2, TWOS_EACH, twos_held=3)
    with pytest.raises(ValueError, match="no twos rule"):
        validate_deal([0, 1, 2, 3], NAMES, out_on_twos=True)
    with pytest.raises(ValueError, match="only TwosRule.EACH_TWO"):
        validate_deal([0, 1, 2, 3], NAMES, TWOS_DOUBLE, twos_held=[0, 0, 0, 0])
    with pytest.raises(ValueError, match="3 counts of twos held for 4 players"):
        validate_deal([0, 1, 2, 3], NAMES, TWOS_EACH, twos_held=[0, 0, 0])


def test_a_deal_with_twos_held_that_add_up_is_fine():
    assert validate_deal([0, 9, 4, 13], NAMES, TWOS_EACH, twos_held=[0, 2, 1, 0]) == []
    assert validate_deal([0, 9, 4, 13], NAMES, TWOS_DOUBLE, out_on_twos=True) == []


def test_twos_held_are_between_zero_and_four_and_no_more_than_the_cards():
    assert validate_deal([0, 9, 2, 13], NAMES, TWOS_EACH, twos_held=[0, 5, 3, -1]) == [
        "Twos held must be between 0 and 4 — Ben has 5 and Dev has -1",
        "Cara holds more twos (3) than cards (2)",
    ]


def test_the_player_who_went_out_holds_no_twos():
    assert validate_deal([0, 9, 4, 13], NAMES, TWOS_EACH, twos_held=[1, 0, 0, 0]) == [
        "Ann went out, so holds no twos: enter 0 twos for them"
    ]


def test_all_the_twos_held_are_at_most_four_or_three_after_going_out_on_twos():
    assert validate_deal([0, 9, 4, 13], NAMES, TWOS_EACH, twos_held=[0, 2, 1, 2]) == [
        "A deck has only 4 twos — 5 are entered"
    ]
    assert validate_deal(
        [0, 9, 4, 13], NAMES, TWOS_EACH, out_on_twos=True, twos_held=[0, 2, 1, 1]
    ) == ["The winner went out on a two, so at most 3 twos are left in hands — 4 are entered"]


def test_replay_scores_the_twos_rule_from_deal_results():
    deals = [
        DealResult((0, 9, 4, 13), out_on_twos=True, twos_held=(0, 2, 0, 1)),
        [5, 0, 1, 2],
    ]
    game = replay(deals, TWOS_EACH)
    assert game.penalties == ((0, 72, 8, 156), (5, 0, 1, 2))
    assert game.deals[0].out_on_twos
    assert game.deals[0].twos_held == (0, 2, 0, 1)
    assert game.deals[1].twos_held is None
    assert game.finished_after == 1
    assert game.winner == 0


def test_replay_refuses_twos_it_cannot_use_or_place():
    with pytest.raises(ValueError, match="deal 1 has twos held for 3 players"):
        replay([DealResult((0, 1, 2, 3), twos_held=(0, 0, 0))], TWOS_EACH)
    with pytest.raises(ValueError, match="only TwosRule.EACH_TWO"):
        replay([DealResult((0, 1, 2, 3), twos_held=(0, 0, 0, 0))], TWOS_DOUBLE)


# --- The end of the match --------------------------------------------------------------------


def test_a_match_to_50_ends_at_50():
    assert outcome([10, 50, 20, 30], RuleSet(target=50)).winner == 0


def test_a_match_of_ten_deals_ends_after_the_tenth_with_one_player_lowest():
    rules = RuleSet(finish=Finish.DEALS)
    totals = [30, 200, 90, 40]
    assert not outcome(totals, rules, deals_played=9).finished
    result = outcome(totals, rules, deals_played=10)
    assert result == Outcome(finished=True, winner=0, lowest=(0,), finish_reached=True)
    assert result.reached_target


def test_a_tie_after_the_last_deal_plays_on_one_deal_at_a_time():
    rules = RuleSet(finish=Finish.DEALS, deals=2)
    game = replay([[0, 5, 6, 7], [5, 0, 6, 7], [3, 0, 6, 7]], rules)
    assert game.deals[1].outcome.tied
    assert game.finished_after == 3
    assert game.winner == 1


def test_a_set_number_of_deals_needs_the_deals_played():
    with pytest.raises(ValueError, match="needs deals_played"):
        outcome([1, 2, 3, 4], RuleSet(finish=Finish.DEALS))


def test_an_open_ended_match_ends_only_when_the_scorekeeper_ends_it():
    rules = RuleSet(finish=Finish.OPEN)
    deals = [[0, 13, 13, 13]] * 5
    assert replay(deals, rules).finished_after is None
    ended = replay(deals, rules, ended=True)
    assert ended.finished_after == 5
    assert ended.winner == 0
    assert ended.outcome.finished
    assert not ended.deals[3].outcome.finish_reached


def test_an_open_ended_match_ended_on_a_tie_is_a_win_shared_by_the_lowest():
    rules = RuleSet(finish=Finish.OPEN)
    result = outcome([10, 10, 40, 50], rules, ended=True)
    assert result.finished and result.shared and not result.tied
    assert result.winner is None
    assert result.winners == (0, 1)
    game = replay([[0, 5, 6, 7], [5, 0, 6, 7]], rules, ended=True)
    assert game.finished_after == 2
    assert (game.winner, game.winners) == (None, (0, 1))


def test_an_open_ended_match_not_ended_has_no_winners_however_the_totals_stand():
    rules = RuleSet(finish=Finish.OPEN)
    assert outcome([10, 10, 40, 50], rules).winners == ()
    assert outcome([5, 10, 40, 50], rules).winners == ()
    assert not outcome([10, 10, 40, 50], rules).tied  # nothing to settle until it is ended


def test_a_sole_winner_is_one_of_one_winners():
    result = outcome([5, 10, 40, 50], RuleSet(finish=Finish.OPEN), ended=True)
    assert (result.winner, result.winners, result.shared) == (0, (0,), False)


def test_a_tie_at_the_target_plays_on_unless_the_table_stopped_there():
    playing_on = outcome([30, 30, 104, 70])
    assert playing_on.tied and not playing_on.finished and playing_on.winners == ()
    stopped = outcome([30, 30, 104, 70], ended=True)
    assert stopped.finished and stopped.shared and stopped.winners == (0, 1)
    deals = RuleSet(finish=Finish.DEALS, deals=2)
    assert outcome([7, 7, 9, 9], deals, deals_played=2, ended=True).winners == (0, 1)
    assert outcome([7, 7, 9, 9], deals, deals_played=2).tied


def test_stopping_after_a_deal_shares_nothing_before_the_last_deal():
    """`ended` is about the last deal: a tie at the target earlier on played on."""
    deals = [[0, 1, 5, 5], [1, 0, 13, 2], [0, 2, 2, 2]]
    game = replay(deals, RuleSet(target=10), ended=True)
    assert game.deals[1].outcome.tied  # Ann and Ben on 1, Cara past 10: played on
    assert (game.finished_after, game.winners, game.winner) == (3, (0,), 0)


def test_ending_means_nothing_under_a_target_or_a_set_number_of_deals():
    assert not outcome([10, 20, 30, 40], ended=True).finished
    assert not outcome(
        [10, 20, 30, 40], RuleSet(finish=Finish.DEALS), deals_played=3, ended=True
    ).finished
