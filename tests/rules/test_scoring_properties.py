"""Scoring under every rule set, on many generated deals: the rule sets there were before
every table's rules score exactly as they did, and every new word goes through translation."""

import gettext
import re
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import i18n
from rules.deal_checks import DealResult, penalty
from rules.deal_options import PaysForTable
from rules.deal_score import DealRefused, facts_wanted, score_deal
from rules.next_deal import next_deal
from rules.penalties import replay
from rules.ruleset import OPTIONS, RuleSet, UnknownRules, option_label, parse_rules
from tests.rules.scored_deals import RECORDED, scoring_part
from tests.rules.strategies import OLD_RULE_SETS, rule_sets, rules_and_deals


def test_the_recording_covers_every_old_scoring_rule_set():
    assert len(RECORDED) == 4 * 3 * 3
    assert RECORDED["standard"][(13, False, 0)] == 39
    assert RECORDED["heavy-penalties,twos-double-each,3-players"][(18, True, 2)] == 18 * 4 * 8


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_penalty_charges_every_count_of_cards_exactly_as_recorded(name):
    rules = parse_rules(name)
    for (cards, out_on_twos, held), points in RECORDED[name].items():
        assert penalty(cards, rules, out_on_twos=out_on_twos, twos_held=held) == points


@given(rules_and_deals(OLD_RULE_SETS, count=3))
def test_old_rule_sets_score_every_deal_exactly_as_before(drawn):
    rules, sheets = drawn
    recorded = RECORDED[scoring_part(rules).name]
    expected = []
    for facts in sheets:
        twos = facts.twos_held or (0,) * rules.players
        expected.append(
            tuple(
                recorded[(cards, facts.out_on_twos, held)]
                for cards, held in zip(facts.cards_left, twos, strict=True)
            )
        )
        scored = score_deal(facts, rules)
        assert scored.penalties == expected[-1]
        assert scored.winner == facts.cards_left.index(0)
    game = replay(sheets, rules)
    assert game.penalties == tuple(expected)
    assert game.totals == tuple(map(sum, zip(*expected, strict=True)))


@given(rules_and_deals(count=3))
def test_under_every_rule_set_a_valid_deal_scores_with_a_line_per_seat(drawn):
    rules, sheets = drawn
    for facts in sheets:
        scored = score_deal(facts, rules)
        assert len(scored.penalties) == len(scored.explain()) == rules.players
        assert scored.penalties[scored.winner] == 0
        assert all(points >= 0 for points in scored.penalties)
        assert all(line for line in scored.explain())
    assert replay(sheets, rules, players=rules.players).penalties == tuple(
        score_deal(facts, rules).penalties for facts in sheets
    )


@given(rules_and_deals(rule_sets().filter(lambda rules: rules.pays_for_table is PaysForTable.ON)))
def test_paying_for_the_table_moves_the_losers_penalties_without_changing_their_sum(drawn):
    rules, (facts,) = drawn
    if facts.dragon is not None or facts.pays is None:
        return
    unpaid = score_deal(replace(facts, pays=None), rules)
    paid = score_deal(facts, rules)
    assert sum(paid.penalties) == sum(unpaid.penalties)
    assert paid.penalties[facts.pays] == sum(unpaid.penalties)


@settings(max_examples=200)
@given(
    rule_sets(),
    st.lists(st.integers(-2, 40), min_size=1, max_size=5),
    st.lists(st.integers(-1, 5), min_size=1, max_size=5),
    st.integers(-1, 6),
)
def test_any_facts_score_or_are_refused_with_words(rules, counts, others, seat):
    """Numbers anywhere, in and out of range: a score, or DealRefused naming each problem."""
    wanted = {
        "cards_left": tuple(counts),
        "twos_held": tuple(others),
        "last_play_twos": seat,
        "order": tuple(others),
        "points": tuple(counts),
        "out_on_twos": True,
    }
    facts = DealResult(**{name: wanted[name] for name in _wanted_names(rules) if name in wanted})
    try:
        scored = score_deal(facts, rules)
    except DealRefused as error:
        assert error.problems and all(problem[:1].isupper() for problem in error.problems)
    else:
        assert scored.penalties[scored.winner] == 0


def _wanted_names(rules: RuleSet) -> set[str]:
    wanted = facts_wanted(rules)
    return set(wanted.required) | ({"out_on_twos"} & wanted.optional)


# --- Every new string goes through translation ------------------------------------------------


class Marked(gettext.NullTranslations):
    """A "translation" that wraps every message in «»: text outside them was never translated."""

    def gettext(self, message: str) -> str:
        return f"«{message}»"

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return f"«{singular if n == 1 else plural}»"

    def pgettext(self, context: str, message: str) -> str:
        return f"«{message}»"


def untranslated(text: str) -> str:
    """The letters left once every «…» (innermost first) is taken out."""
    while True:
        shorter = re.sub(r"«[^«»]*»", "", text)
        if shorter == text:
            return re.sub(r"[^A-Za-z]", "", shorter)
        text = shorter


@pytest.fixture
def marked(monkeypatch):
    monkeypatch.setattr(i18n, "_catalog", lambda language: Marked())


def test_the_marker_finds_a_string_that_was_never_translated(marked):
    assert untranslated(f"«{i18n.gettext('went out')}»") == ""
    assert untranslated("went out") == "wentout"
    assert untranslated(i18n.gettext("%(x)s pays") % {"x": "Ann"}) == ""


def test_every_option_choice_and_clash_is_translated(marked):
    for option, choices in OPTIONS.items():
        assert untranslated(option_label(option)) == ""
        for choice in choices:
            assert untranslated(choice.label) == untranslated(choice.explained) == ""
    for name in ("draw-on-pass", "finishing-order heavy-penalties pays-for-table dragon"):
        with pytest.raises(UnknownRules) as error:
            parse_rules(name)
        assert untranslated(str(error.value)) == ""


@settings(max_examples=60)
@given(rules_and_deals())
def test_every_explanation_label_and_next_deal_is_translated(drawn):
    rules, (facts,) = drawn
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(i18n, "_catalog", lambda language: Marked())
        scored = score_deal(facts, rules)
        names = [i18n.gettext("seat %(number)s") % {"number": n} for n in range(rules.players)]
        for text in (
            *scored.explain(),
            *scored.explain(names),
            rules.label,
            next_deal(rules, scored).sentence(names),
            next_deal(rules).sentence(names),
        ):
            assert untranslated(text) == "", text


@pytest.mark.parametrize(
    ("rules", "facts"),
    [
        ("twos-double-each", DealResult((0, 0, 14, 3), True, (5, 0, 3, 4))),
        ("twos-double-each", DealResult((0, 1, 2, 3), True, (0, 1, 1, 2))),
        ("3-players", DealResult((1, 18, 18))),
        ("3-players,draw-on-pass", DealResult((0, 26, 26))),
        ("pusoy-dos-scoring", DealResult((0, 1, 2, 3))),
        ("pusoy-dos-scoring", DealResult((0, 1), last_play_twos=7)),
        ("finishing-order", DealResult(order=(0, 0, 1, 9))),
        ("finishing-order", DealResult(order=(0, 0, 1, 2))),
        ("finishing-order", DealResult()),
        ("dragon", DealResult(dragon=9)),
        ("pusoy-dos-scoring,pays-for-table", DealResult(went_out=0, last_play_twos=0, pays=0)),
        ("pays-for-table", DealResult((0, 1, 2, 3), pays=7)),
        ("points-by-hand", DealResult(points=(1, 1000, 2))),
        ("points-by-hand", DealResult((0, 1, 2, 3), points=(0, 0, 2, 3))),
        ("points-by-hand", DealResult((1, 0, 2, 3), points=(0, 1, 2, 3))),
        ("points-by-hand", DealResult(points=(1, 2, 3, 4))),
        ("standard", DealResult((1, 2, 3, 4))),
        ("twos-double-each", DealResult((0, 4, 4, 4), False, (0, 2, 2, 1))),
    ],
)
def test_every_refusal_is_translated(marked, rules, facts):
    with pytest.raises(DealRefused) as error:
        score_deal(facts, parse_rules(rules))
    for problem in error.value.problems:
        assert untranslated(problem) == "", problem
