"""What the hand checker says about a hand, or two: pure Python, shared by its page and the API.

The hand checker (the `checker` app) shows a `HandReport` on its page and as JSON.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.cards import Card
from rules.i18n import gettext as _
from rules.i18n import list_of
from rules.plays import NotAPlay, Play, can_open, classify, overlapping
from rules.ruleset import DEFAULT_RULES, RuleSet

# The most characters of typed text (cards, or a rules name) read: many times any real hand.
MAX_TEXT_LENGTH = 200


@dataclass(frozen=True, slots=True)
class HandReport:
    """One hand as the checker shows it: its cards, and either its play or why it isn't one."""

    cards: tuple[Card, ...]
    play: Play | None
    problem: str | None

    @property
    def description(self) -> str:
        if self.play is not None:
            return self.play.description
        return _("Not a play: %(reason)s") % {"reason": self.problem}

    @property
    def shown_cards(self) -> tuple[Card, ...]:
        # A legal play orders its own cards (A-2-3-4-5 reads low to high, a full house shows
        # its triple first); anything else is shown weakest card first.
        return self.play.cards if self.play is not None else tuple(sorted(self.cards))


def report(cards: tuple[Card, ...], rules: RuleSet = DEFAULT_RULES) -> HandReport:
    try:
        return HandReport(cards=cards, play=classify(cards, rules), problem=None)
    except NotAPlay as not_a_play:
        return HandReport(cards=cards, play=None, problem=str(not_a_play))


def may_open(hand: HandReport, rules: RuleSet = DEFAULT_RULES) -> bool:
    return hand.play is not None and can_open(hand.cards, rules)


def overlap_problem(a: tuple[Card, ...], b: tuple[Card, ...]) -> str | None:
    """Why two hands can't both be on the table, or None: a deck holds one of each card."""
    shared = overlapping(a, b)
    if not shared:
        return None
    names = list_of(str(card) for card in shared)
    if len(shared) == 1:
        message = _(
            "%(cards)s is in both hands: a deck has one of each card, so take it out of one."
        )
    else:
        message = _(
            "%(cards)s are in both hands: a deck has one of each card, so take it out of one."
        )
    return message % {"cards": names}
