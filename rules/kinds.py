"""The kinds of play, from a single to a straight flush, and the five-card tiers.

>>> Kind.FULL_HOUSE.label
'full house'
>>> TIERS[Kind.FLUSH]
2
"""

from __future__ import annotations

from enum import StrEnum

from rules.i18n import gettext, gettext_noop


class Kind(StrEnum):
    """The shape of a play.

    >>> Kind.FULL_HOUSE.label
    'full house'
    """

    SINGLE = "single"
    PAIR = "pair"
    TRIPLE = "triple"
    STRAIGHT = "straight"
    FLUSH = "flush"
    FULL_HOUSE = "full_house"
    FOUR_OF_A_KIND = "four_of_a_kind"
    STRAIGHT_FLUSH = "straight_flush"

    @property
    def label(self) -> str:
        """The kind in words, in the active language."""
        return gettext(_KIND_LABELS[self])


_KIND_LABELS = {
    Kind.SINGLE: gettext_noop("single"),
    Kind.PAIR: gettext_noop("pair"),
    Kind.TRIPLE: gettext_noop("triple"),
    Kind.STRAIGHT: gettext_noop("straight"),
    Kind.FLUSH: gettext_noop("flush"),
    Kind.FULL_HOUSE: gettext_noop("full house"),
    Kind.FOUR_OF_A_KIND: gettext_noop("four of a kind"),
    Kind.STRAIGHT_FLUSH: gettext_noop("straight flush"),
}


# Five-card tiers, the first number of every five-card key.
TIERS = {
    Kind.STRAIGHT: 1,
    Kind.FLUSH: 2,
    Kind.FULL_HOUSE: 3,
    Kind.FOUR_OF_A_KIND: 4,
    Kind.STRAIGHT_FLUSH: 5,
}
