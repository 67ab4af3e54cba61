"""The helpers at the table, as the pages and the JSON API share them.

"What can I play?" (`/play/`, `/api/hands/plays`) and "How should I break up my hand?"
(`/split/`, `/api/hands/split`) check their input here and get their answers from the engine
(`rules.advice`, `rules.split`), so a page and its endpoint refuse the same cards with the same
words. The messages go through Django's translations, but nothing here sees a request or a
template; the API's JSON is built in `checker.json_shapes`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from rules.advice import PlayGroup, answers
from rules.cards import Card
from rules.hand_report import HandReport, report
from rules.kinds import Kind
from rules.plays import Play, lowest_card, overlapping
from rules.ruleset import RuleSet, parse_rules
from rules.split import HAND_SIZE, Arrangement, arrangements
from rules.split_plans import Way, plans

# The house rules that change which play wins: the only ones the hand pages take. Penalties,
# twos and the finish line are for keeping score; a rules name holding them is accepted and
# they are dropped.
HAND_OPTIONS = ("suits", "straights", "flushes")
# A player holds 13 cards (with three players, 17 or 18: the helpers take a four-player hand).
MOST_CARDS = 13
# A lead from a hand with many cards of one suit can make over a thousand flushes; the page
# shows the weakest of each kind up to this many, the API lists them all.
SHOWN_PER_GROUP = 100


def hand_rules(rules: RuleSet) -> RuleSet:
    """Only the choices that change how hands compare.

    >>> hand_rules(parse_rules("pusoy-dos heavy-penalties to-50")).name
    'pusoy-dos-suits'
    """
    return RuleSet(suits=rules.suits, straights=rules.straights, flushes=rules.flushes)


def read_rules(text: str) -> RuleSet:
    """The rules a `rules=` parameter names (`parse_rules` text), cut down to `hand_rules`.

    Raises `rules.ruleset.UnknownRules` with the message to show.
    """
    return hand_rules(parse_rules(text))


def sorted_hand(cards: Sequence[Card], rules: RuleSet) -> tuple[Card, ...]:
    """A hand weakest card first under the rules in force."""
    return tuple(sorted(cards, key=lambda card: (card.rank, rules.suit_strength(card.suit))))


class HandProblem(ValueError):
    """Cards the helpers can't answer for; the message says what to fix."""


# ---------------------------------------------------------------------------------------------
# What can I play?


@dataclass(frozen=True, slots=True)
class PlayAdvice:
    """The answer to "what can I play?": the plays, grouped by kind, and why none if none."""

    table: HandReport | None  # None: the player is leading
    groups: list[PlayGroup]
    note: str | None  # why there is nothing to play
    rules: RuleSet
    first: bool

    @property
    def count(self) -> int:
        return sum(len(group.plays) for group in self.groups)

    @property
    def summary(self) -> str:
        """One line above the plays: how many there are and what they answer, or the note."""
        count = self.count
        if self.note:
            return self.note
        if self.table is not None and self.table.play is not None:
            return ngettext(
                "%(count)s play beats %(play)s", "%(count)s plays beat %(play)s", count
            ) % {"count": count, "play": that_play(self.table.play)}
        if self.first:
            return ngettext(
                "The first play of the deal: %(count)s play holds the %(card)s",
                "The first play of the deal: %(count)s plays hold the %(card)s",
                count,
            ) % {"count": count, "card": lowest_card(self.rules)}
        return ngettext(
            "You are leading: %(count)s play to choose from",
            "You are leading: %(count)s plays to choose from",
            count,
        ) % {"count": count}


def play_problem(
    hand: Sequence[Card], table: Sequence[Card], rules: RuleSet, *, first: bool = False
) -> str | None:
    """What is wrong with a hand and a table play, or None: the first problem only."""
    if len(hand) > MOST_CARDS:
        return _("You have %(count)s cards: a hand holds at most 13 — take out %(extra)s") % {
            "count": len(hand),
            "extra": len(hand) - MOST_CARDS,
        }
    shared = overlapping(hand, table)
    if shared:
        # The engine's own words (rules.advice), so one translation serves both.
        return _("%(cards)s can't be both in your hand and on the table") % {
            "cards": " ".join(map(str, shared))
        }
    if table:
        on_table = report(tuple(table), rules)
        if on_table.play is None:
            return _("The cards on the table are not a play: %(reason)s") % {
                "reason": on_table.problem
            }
        if first:
            return _(
                "The first play of the deal is made on an empty table: clear the table, or"
                " untick “First play of the deal”"
            )
    return None


def advise(
    hand: Sequence[Card], table: Sequence[Card], rules: RuleSet, *, first: bool = False
) -> PlayAdvice:
    """Every play from `hand` that can go on `table` (empty: leading), weakest first, by kind.

    With `first`, the deal's first play: only plays holding the lowest card. Raises
    HandProblem for cards that can't be answered.
    """
    if not hand:
        raise HandProblem(_("Your hand is empty: give up to 13 cards, for example 3d 9s 9h"))
    problem = play_problem(hand, table, rules, first=first)
    if problem:
        raise HandProblem(problem)
    on_table = report(tuple(table), rules) if table else None
    table_play = on_table.play if on_table is not None else None
    groups = answers(hand, table_play, rules, opening=first)
    note = None
    if first and lowest_card(rules) not in hand:
        note = _("You don't hold %(card)s, so you don't lead the first play") % {
            "card": lowest_card(rules)
        }
    elif table_play is not None and not groups:
        note = _("Nothing in your hand beats %(play)s: pass") % {"play": that_play(table_play)}
    return PlayAdvice(table=on_table, groups=groups, note=note, rules=rules, first=first)


def that_play(play: Play) -> str:
    """The play on the table, as "Nothing in your hand beats …" names it: "that pair of 2s"."""
    match play.kind:
        case Kind.SINGLE:
            return _("that %(card)s") % {"card": play.cards[0]}
        case Kind.PAIR:
            return _("that pair of %(rank)s") % {"rank": play.cards[0].rank.plural}
        case Kind.TRIPLE:
            return _("that triple of %(rank)s") % {"rank": play.cards[0].rank.plural}
        case _:
            return _("that %(kind)s") % {"kind": play.kind.label}


_GROUP_HEADINGS = {
    Kind.SINGLE: gettext_noop("Singles (%(count)s)"),
    Kind.PAIR: gettext_noop("Pairs (%(count)s)"),
    Kind.TRIPLE: gettext_noop("Triples (%(count)s)"),
    Kind.STRAIGHT: gettext_noop("Straights (%(count)s)"),
    Kind.FLUSH: gettext_noop("Flushes (%(count)s)"),
    Kind.FULL_HOUSE: gettext_noop("Full houses (%(count)s)"),
    Kind.FOUR_OF_A_KIND: gettext_noop("Fours of a kind (%(count)s)"),
    Kind.STRAIGHT_FLUSH: gettext_noop("Straight flushes (%(count)s)"),
}


def group_heading(group: PlayGroup) -> str:
    """A group's heading on the page: "Pairs (3)"."""
    return _(_GROUP_HEADINGS[group.kind]) % {"count": len(group.plays)}


# ---------------------------------------------------------------------------------------------
# How should I break up my hand?


def split_problem(hand: Sequence[Card]) -> str | None:
    """Why these cards can't be split, or None: a hand to split is exactly 13 cards."""
    count = len(hand)
    if count < HAND_SIZE:
        return ngettext(
            "You have %(count)s card: a hand is 13 — add %(missing)s",
            "You have %(count)s cards: a hand is 13 — add %(missing)s",
            count,
        ) % {"count": count, "missing": HAND_SIZE - count}
    if count > HAND_SIZE:
        return _("You have %(count)s cards: a hand is 13 — take out %(extra)s") % {
            "count": count,
            "extra": count - HAND_SIZE,
        }
    return None


def split(hand: Sequence[Card], rules: RuleSet) -> list[Arrangement]:
    """The best three ways to split a 13-card hand; HandProblem for any other count."""
    problem = split_problem(hand)
    if problem:
        raise HandProblem(problem)
    return arrangements(hand, rules, best=3)


def split_ways(hand: Sequence[Card], rules: RuleSet) -> list[Way]:
    """The page's ways to split a 13-card hand, one per goal a player may have
    (`rules.split_plans`); HandProblem for any other count."""
    problem = split_problem(hand)
    if problem:
        raise HandProblem(problem)
    return plans(hand, rules)
