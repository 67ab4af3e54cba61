"""What cards left cost: the penalty scales a table chooses from, each a run of bands.

"Doubled from N cards" is the standard scale with its doubling moved: 1 point a card below N,
2 a card from N to 12, 3 a card at 13 or more. Paper score sheets call N the fry threshold
(big-two-scorer's `F=N`); N is 10 on the standard scale, and a sheet's N of 14 or more charges
1 a card throughout, the flat scale (`scale_for_threshold`).

>>> [(band.first, band.last, band.per_card) for band in PenaltyScale.DOUBLED_FROM.bands(13, 8)]
[(1, 7, 1), (8, 12, 2), (13, 13, 3)]
>>> [(band.first, band.last, band.per_card) for band in PenaltyScale.DOUBLED_FROM.bands(13, 13)]
[(1, 12, 1), (13, 13, 3)]
>>> doubled_from_label(8), doubled_from_token(8)
('doubled from 8 cards', 'doubled-from-8')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from rules.choices import Choice
from rules.i18n import gettext, gettext_noop

# The standard scale doubles from ten cards; the others don't use the number at all.
DEFAULT_DOUBLED_FROM = 10
# Thirteen cards, an untouched hand, are charged treble on the standard scale and on
# "Doubled from N cards" whatever N is.
TREBLED_FROM = 13
DOUBLED_FROM_CHOICES = range(2, TREBLED_FROM + 1)
DOUBLED_FROM_TOKEN = re.compile(r"doubled-from-([0-9]+)")


class PenaltyScale(Choice):
    """What each card left in hand costs when another player goes out.

    >>> [(band.first, band.last, band.per_card) for band in PenaltyScale.DOUBLING.bands(13)]
    [(1, 7, 1), (8, 9, 2), (10, 13, 4)]
    """

    STANDARD = (
        "standard-penalties",
        gettext_noop("standard penalties"),
        gettext_noop(
            "1 point a card for 1–9 cards, 2 a card for 10–12, 3 a card for 13 or more"
            " (13 cost 39)."
        ),
    )
    FLAT = (
        "flat-penalties",
        gettext_noop("flat penalties"),
        gettext_noop("1 point a card, however many are left."),
    )
    HEAVY = (
        "heavy-penalties",
        gettext_noop("heavy penalties"),
        gettext_noop(
            "1 point a card for 1–7 cards, double for 8–9, treble for 10–12, quadruple for 13 or"
            " more (13 cost 52)."
        ),
    )
    DOUBLING = (
        "doubling-penalties",
        gettext_noop("doubling penalties"),
        gettext_noop(
            "1 point a card for 1–7 cards, double for 8–9 and double again from 10: ten cards"
            " cost 40, eleven 44."
        ),
    )
    # Its number is the rule set's `doubled_from`; its token carries it ("doubled-from-8").
    DOUBLED_FROM = (
        "doubled-from",
        gettext_noop("doubled from N cards"),
        gettext_noop(
            "The standard scale doubling from another count, N, from 2 to 13: 1 point a card below"
            " N cards, 2 a card from N to 12, 3 a card for 13 or more. Doubled from 10 is the"
            " standard scale."
        ),
    )

    def bands(
        self, hand_size: int = 13, doubled_from: int = DEFAULT_DOUBLED_FROM
    ) -> tuple[PenaltyBand, ...]:
        """The bands from 1 to `hand_size` cards left; the top band stretches to cover it.
        `doubled_from` counts only on the DOUBLED_FROM scale."""
        # Plain ints: the cache would otherwise hand a 13 back as whichever equal value
        # (TwoPlayerDeal.THIRTEEN) first filled it.
        doubled = int(doubled_from) if self is PenaltyScale.DOUBLED_FROM else DEFAULT_DOUBLED_FROM
        return _bands(self, int(hand_size), doubled)


@dataclass(frozen=True, slots=True)
class PenaltyBand:
    """Everyone left holding `first`–`last` cards pays `per_card` points for each of them.

    >>> PenaltyBand(10, 12, 2).covers(11)
    True
    """

    first: int
    last: int
    per_card: int

    def covers(self, cards_left: int) -> bool:
        return self.first <= cards_left <= self.last


# (first card count, points a card) for each band; a band ends where the next begins, and the
# last one at the most cards a player can hold.
_BAND_STARTS = {
    # The untouched hand of 13 costs 39, which is simply 3 points a card.
    PenaltyScale.STANDARD: ((1, 1), (10, 2), (13, 3)),
    PenaltyScale.FLAT: ((1, 1),),
    PenaltyScale.HEAVY: ((1, 1), (8, 2), (10, 3), (13, 4)),
    PenaltyScale.DOUBLING: ((1, 1), (8, 2), (10, 4)),
}


@cache
def _bands(scale: PenaltyScale, hand_size: int, doubled_from: int) -> tuple[PenaltyBand, ...]:
    starts = _BAND_STARTS.get(scale) or _doubled_from_starts(doubled_from)
    ends = [first - 1 for first, _ in starts[1:]] + [hand_size]
    return tuple(
        PenaltyBand(first, last, per_card)
        for (first, per_card), last in zip(starts, ends, strict=True)
    )


def _doubled_from_starts(doubled_from: int) -> tuple[tuple[int, int], ...]:
    # Doubled from 13 leaves no band of doubles: the thirteenth card is already trebled.
    if doubled_from == TREBLED_FROM:
        return ((1, 1), (TREBLED_FROM, 3))
    return ((1, 1), (doubled_from, 2), (TREBLED_FROM, 3))


STANDARD_PENALTIES = PenaltyScale.STANDARD.bands(13)


def doubled_from_problem(scale: PenaltyScale, doubled_from: int) -> str | None:
    """Why a scale can't go with this number, for a programmer; None when it can. The number
    counts only on the DOUBLED_FROM scale, which doubling from 10 would make the standard one
    under a second name."""
    if scale is not PenaltyScale.DOUBLED_FROM:
        if doubled_from != DEFAULT_DOUBLED_FROM:
            return "doubled_from only counts when the penalties are PenaltyScale.DOUBLED_FROM"
        return None
    if doubled_from not in DOUBLED_FROM_CHOICES:
        return f"doubled_from must be between 2 and 13, not {doubled_from!r}"
    if doubled_from == DEFAULT_DOUBLED_FROM:
        return "doubled from 10 cards is PenaltyScale.STANDARD: choose that"
    return None


def scale_for_threshold(doubled_from: int) -> tuple[PenaltyScale, int]:
    """The scale and `doubled_from` of a rule set charging 1 a card below `doubled_from`,
    2 from it to 12 and 3 at 13 (a paper sheet's fry threshold, 2 or more).

    >>> scale_for_threshold(10), scale_for_threshold(8), scale_for_threshold(14)
    ((<PenaltyScale.STANDARD: 'standard-penalties'>, 10), \
(<PenaltyScale.DOUBLED_FROM: 'doubled-from'>, 8), (<PenaltyScale.FLAT: 'flat-penalties'>, 10))
    """
    if doubled_from < DOUBLED_FROM_CHOICES.start:
        raise ValueError(f"a fry threshold is 2 or more, not {doubled_from}")
    if doubled_from > TREBLED_FROM:
        # Never doubled, and the thirteenth card is no longer trebled either: big-two-scorer
        # switches frying off with a large threshold.
        return PenaltyScale.FLAT, DEFAULT_DOUBLED_FROM
    if doubled_from == DEFAULT_DOUBLED_FROM:
        return PenaltyScale.STANDARD, DEFAULT_DOUBLED_FROM
    return PenaltyScale.DOUBLED_FROM, doubled_from


def doubled_from_token(doubled_from: int | str) -> str:
    return f"{PenaltyScale.DOUBLED_FROM.value}-{doubled_from}"


def doubled_from_label(doubled_from: int) -> str:
    """The scale with its number, in a list of house rules: "doubled from 8 cards"."""
    return gettext("doubled from %(count)s cards") % {"count": doubled_from}


def scale_token(choice: Choice, doubled_from: int) -> str:
    """A choice's token in a rule set's name, the DOUBLED_FROM scale's carrying its number."""
    if choice is PenaltyScale.DOUBLED_FROM:
        return doubled_from_token(doubled_from)
    return choice.value


def scale_label(choice: Choice, doubled_from: int) -> str:
    """A choice's words in a rule set's label, the DOUBLED_FROM scale's with its number."""
    if choice is PenaltyScale.DOUBLED_FROM:
        return doubled_from_label(doubled_from)
    return choice.label


def doubled_from_settings(token: str) -> dict[str, object] | None:
    """The rule set's fields a "doubled-from-N" token sets, N from 2 to 13; None for any other
    token. Doubled from 10 is the standard scale, so it reads back as that.

    >>> doubled_from_settings("doubled-from-08"), doubled_from_settings("doubled-from-10")
    ({'penalties': <PenaltyScale.DOUBLED_FROM: 'doubled-from'>, 'doubled_from': 8}, \
{'penalties': <PenaltyScale.STANDARD: 'standard-penalties'>})
    >>> doubled_from_settings("doubled-from-1"), doubled_from_settings("doubled-from-99999")
    (None, None)
    """
    match = DOUBLED_FROM_TOKEN.fullmatch(token)
    # Count the digits first: int() refuses thousands of them with a ValueError of its own.
    significant = match[1].lstrip("0") if match else ""
    if not significant or len(significant) > 2 or int(significant) not in DOUBLED_FROM_CHOICES:
        return None
    scale, doubled_from = scale_for_threshold(int(significant))
    if scale is PenaltyScale.STANDARD:
        return {"penalties": scale}
    return {"penalties": scale, "doubled_from": doubled_from}
