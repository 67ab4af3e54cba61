"""Scoring one deal from its facts, under any house rules: the one function the site's deal
form, the JSON API (`/api/deals/score`) and `rules.penalties.replay` all score with.

>>> scored = score_deal(DealResult((0, 5, 13, 10)))
>>> scored.penalties, scored.winner
((0, 5, 39, 20), 0)
>>> scored.explain()
('went out', '5 cards, 1 each', '13 cards, 3 each', '10 cards, 2 each')
>>> score_deal(DealResult(order=(2, 0, 3, 1)), parse_rules("finishing-order")).penalties
(1, 5, 0, 3)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.deal_checks import (
    FACTS,
    DealResult,
    base_penalties,
    cards_problems,
    last_play_problems,
    order_problems,
    penalty,
    points_problems,
    seat_problem,
    twos_problems,
    winner_of,
)
from rules.deal_explain import explain
from rules.deal_options import Dragon, Lead, PaysForTable, Scoring
from rules.i18n import gettext, gettext_noop
from rules.options import TwosRule
from rules.ruleset import DEFAULT_RULES, RuleSet, parse_rules  # noqa: F401 (doctests)

# Finishing order: the penalty for each place, the first out first, by number of players.
# Four is the Pusoy Dos scale the seed enters as penalties; with fewer players the places that
# exist keep their four-player penalties, so the last of three pays 3 and the last of two 1.
PLACES = {4: (0, 1, 3, 5), 3: (0, 1, 3), 2: (0, 1)}


class DealRefused(ValueError):
    """A deal that breaks the rules in force; `problems` says each thing to fix, in words for
    the scorekeeper."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__(gettext("; ").join(problems))
        self.problems = list(problems)


@dataclass(frozen=True, slots=True)
class FactsWanted:
    """The facts (`DealResult` field names) a deal needs, those it may also give, and `one_of`:
    facts of which it needs at least one (each of them says who went out)."""

    required: frozenset[str]
    optional: frozenset[str] = frozenset()
    one_of: frozenset[str] = frozenset()

    @property
    def allowed(self) -> frozenset[str]:
        return self.required | self.optional | self.one_of


def facts_wanted(rules: RuleSet = DEFAULT_RULES, *, dragon: bool = False) -> FactsWanted:
    """Which facts a deal takes under these rules. A dragon (`dragon=True`, where the rules
    play it) is won before a card is played, so it takes nothing else.

    Pusoy Dos scoring charges nothing for cards left: it needs who went out and the twos of
    the last play, and takes every seat's cards left instead of who went out (their 0 says
    it). Only when the loser leads (whoever was left holding the most cards) does it need them.

    >>> sorted(facts_wanted(parse_rules("twos-double-each")).required)
    ['cards_left', 'twos_held']
    >>> sorted(facts_wanted(parse_rules("pusoy-dos-scoring")).one_of)
    ['cards_left', 'went_out']
    """
    if rules.dragon is Dragon.ON and dragon:
        return FactsWanted(frozenset({"dragon"}))
    paying = {"pays"} if rules.pays_for_table is PaysForTable.ON else set()
    match rules.scoring:
        case Scoring.PUSOY_DOS if rules.lead is Lead.LOSER:
            return FactsWanted(frozenset({"cards_left", "last_play_twos"}), frozenset(paying))
        case Scoring.PUSOY_DOS:
            return FactsWanted(
                frozenset({"last_play_twos"}),
                frozenset(paying),
                one_of=frozenset({"went_out", "cards_left"}),
            )
        case Scoring.FINISHING_ORDER:
            return FactsWanted(frozenset({"order"}))
        case Scoring.POINTS_BY_HAND:
            return FactsWanted(frozenset({"points"}), frozenset({"cards_left"}))
    required = {"cards_left"} | ({"twos_held"} if rules.twos is TwosRule.EACH_TWO else set())
    optional = paying | ({"out_on_twos"} if rules.twos is not TwosRule.OFF else set())
    optional |= {"dragon"} if rules.dragon is Dragon.ON else set()
    return FactsWanted(frozenset(required), frozenset(optional))


@dataclass(frozen=True, slots=True)
class ScoredDeal:
    """One deal scored: each seat's penalty, in seat order, and who won it."""

    facts: DealResult
    rules: RuleSet
    penalties: tuple[int, ...]
    winner: int

    @property
    def cards_left(self) -> tuple[int, ...] | None:
        """Each seat's cards when the deal ended, where the facts say: with a dragon, all
        were still in hand; under finishing order (and points typed without them), None."""
        if self.facts.dragon is not None:
            return (self.rules.cards_dealt,) * len(self.penalties)
        return self.facts.cards_left

    @property
    def loser(self) -> int:
        """Whoever was left holding the most cards (`Lead.LOSER` leads the next deal): the last
        out under finishing order; under points by hand typed without cards, the most points.
        Of players tied, the first after the winner in seat order. (Pusoy Dos scoring told only
        who went out can't say: its rules take the cards left when the loser leads.)"""
        if self.facts.order is not None:
            return self.facts.order[-1]
        held = self.cards_left if self.cards_left is not None else self.facts.points
        assert held is not None  # a scored deal has cards left or points
        seats = len(held)
        after_winner = [(self.winner + step) % seats for step in range(1, seats)]
        return max(after_winner, key=lambda seat: (held[seat], -after_winner.index(seat)))

    def explain(self, names: Sequence[str] | None = None) -> tuple[str, ...]:
        """A few words per seat on its penalty, in the active language: "went out",
        "5 cards, 1 each", "pays for the table: 5 + 39 + 20"… `names` name the seats where a
        line speaks of another player (seat numbers from 0 otherwise)."""
        return explain(self.facts, self.rules, names or seat_names(len(self.penalties)))


def seat_names(count: int) -> list[str]:
    """The seats as the API numbers them: "seat 0", "seat 1"…"""
    return [gettext("seat %(number)s") % {"number": seat} for seat in range(count)]


def score_deal(
    facts: DealResult, rules: RuleSet = DEFAULT_RULES, *, names: Sequence[str] | None = None
) -> ScoredDeal:
    """Each seat's penalty for this deal, or DealRefused naming every problem with it.

    A fact the rules don't take (see `facts_wanted`) is a mistake in the calling code:
    ValueError. `names` are what the problems call each seat ("seat 0"… if not given).
    """
    wanted = facts_wanted(rules, dragon=facts.dragon is not None)
    unused = facts.given - wanted.allowed
    if unused:
        raise ValueError(f"{', '.join(sorted(unused))} given, but {rules.name} doesn't use it")
    seats = rules.players
    problems = _missing(facts, wanted, seats) or _problems(facts, rules, names or seat_names(seats))
    if problems:
        # Each is a sentence, and may start with a seat's name ("seat 2 went out…").
        raise DealRefused([problem[:1].upper() + problem[1:] for problem in problems])
    penalties, winner = _penalties(facts, rules)
    return ScoredDeal(facts, rules, penalties, winner)


_MISSING = {
    "cards_left": gettext_noop("Enter the cards left for all %(count)s players"),
    "went_out": gettext_noop("Say who went out: the player who played their last card"),
    "twos_held": gettext_noop("Enter the twos held for all %(count)s players"),
    "last_play_twos": gettext_noop("Say how many twos were in the last play: 0 to 4"),
    "order": gettext_noop("Give the order the players went out in, the first out first"),
    "points": gettext_noop("Enter the points for all %(count)s players"),
}
_LISTS = ("cards_left", "twos_held", "points")


def _missing(facts: DealResult, wanted: FactsWanted, seats: int) -> list[str]:
    """Facts the deal needs that aren't given, and lists without one entry a seat. Where
    none of the `one_of` facts is given, who went out is asked for: the simpler to give."""
    short = {name for name in _LISTS if name in facts.given and len(getattr(facts, name)) != seats}
    missing = set(wanted.required - facts.given) | short
    if wanted.one_of and not wanted.one_of & facts.given:
        missing.add("went_out")
    return [gettext(_MISSING[name]) % {"count": seats} for name in FACTS if name in missing]


def _problems(facts: DealResult, rules: RuleSet, names: Sequence[str]) -> list[str]:
    seats = len(names)
    problems = []
    if facts.cards_left is not None:
        problems += cards_problems(facts.cards_left, names, rules)
    if facts.twos_held is not None and facts.cards_left is not None:
        problems += twos_problems(facts.cards_left, names, facts.twos_held, facts.out_on_twos)
    if facts.last_play_twos is not None:
        problems += last_play_problems(facts.last_play_twos)
    if facts.order is not None:
        problems += order_problems(facts.order, names)
    if facts.went_out is not None:
        problems += seat_problem(facts.went_out, seats, _NO_WINNER_SEAT)
    if facts.dragon is not None:
        problems += seat_problem(facts.dragon, seats, _NO_DRAGON_SEAT)
    if facts.points is not None:
        problems += points_problems(facts.points, names)
    if facts.pays is not None:
        problems += seat_problem(facts.pays, seats, _NO_PAYER_SEAT)
    if not problems:
        problems += _winners_agree(facts, rules, names)
    return problems


_NO_WINNER_SEAT = gettext_noop(
    "There is no seat %(seat)s to have gone out: seats are 0 to %(last)s"
)
_NO_DRAGON_SEAT = gettext_noop(
    "There is no seat %(seat)s to hold the dragon: seats are 0 to %(last)s"
)
_NO_PAYER_SEAT = gettext_noop(
    "There is no seat %(seat)s to pay for the table: seats are 0 to %(last)s"
)


def _winners_agree(facts: DealResult, rules: RuleSet, names: Sequence[str]) -> list[str]:
    """Facts that each make sense but contradict each other about who won.

    Under cards-left scoring the winner may pay for the table: one who went out without
    saying "last card" takes every loser's penalty, as paper score sheets (big-two-scorer's
    `t`) record it. Under Pusoy Dos scoring the winner earns the deal's points, so can't."""
    winner = facts.cards_left.index(0) if facts.cards_left is not None else facts.went_out
    if facts.went_out is not None and winner != facts.went_out:
        return [
            gettext("%(name)s went out, so enter 0 cards left for them, not %(cards)s")
            % {"name": names[facts.went_out], "cards": facts.cards_left[facts.went_out]}
        ]
    if facts.points is not None and winner is not None and facts.points[winner] != 0:
        return [
            gettext("%(name)s went out (0 cards left), so enter 0 points for them, not %(points)s")
            % {"name": names[winner], "points": facts.points[winner]}
        ]
    if facts.pays is not None and facts.pays == winner and rules.scoring is Scoring.PUSOY_DOS:
        return [
            gettext(
                "%(name)s went out, so can't pay for the table: name a player who lost the deal"
            )
            % {"name": names[winner]}
        ]
    return []


def _penalties(facts: DealResult, rules: RuleSet) -> tuple[tuple[int, ...], int]:
    """Each seat's penalty and the winner, for facts already checked."""
    if facts.dragon is not None:
        winner = facts.dragon
        full_hand = penalty(rules.cards_dealt, rules)
        penalties = tuple(0 if seat == winner else full_hand for seat in range(rules.players))
    elif facts.order is not None:
        winner = facts.order[0]
        places = PLACES[rules.players]
        penalties = tuple(places[facts.order.index(seat)] for seat in range(rules.players))
    elif facts.points is not None:
        return facts.points, facts.points.index(0)
    else:
        penalties, winner = base_penalties(facts, rules, rules.players), winner_of(facts)
    if facts.pays is not None:
        penalties = tuple(
            sum(penalties) if seat == facts.pays else 0 for seat in range(len(penalties))
        )
    return penalties, winner
