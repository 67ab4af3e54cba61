"""The rules in force, as one value: the pagat.com rules are the default.

House rules (another suit order, other penalties or finish line) become other `RuleSet` values,
never `if` statements scattered through the engine.

>>> DEFAULT_RULES.label
'Standard rules (pagat.com)'
>>> DEFAULT_RULES.suit_strength(Suit.SPADES) > DEFAULT_RULES.suit_strength(Suit.DIAMONDS)
True
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.cards import Suit


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


# The untouched hand of 13 costs 39, which is simply 3 points a card.
STANDARD_PENALTIES = (PenaltyBand(1, 9, 1), PenaltyBand(10, 12, 2), PenaltyBand(13, 13, 3))


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Everything a table could agree differently on. The defaults are the site's rule book.

    Straight sequences (A-2-3-4-5 lowest, 10-J-Q-K-A highest) and flushes compared suit first
    are the only behaviour for now; the house-rules issue adds fields for them here.
    """

    suit_order: tuple[Suit, ...] = (Suit.DIAMONDS, Suit.CLUBS, Suit.HEARTS, Suit.SPADES)
    penalty_bands: tuple[PenaltyBand, ...] = STANDARD_PENALTIES
    target: int = 100
    hand_size: int = 13
    name: str = "standard"
    label: str = "Standard rules (pagat.com)"

    def __post_init__(self) -> None:
        # A bad rule set would give wrong answers far from where it was made; refuse it here.
        if sorted(self.suit_order) != list(Suit):
            raise ValueError("suit_order must list each of the four suits once, lowest first")
        covered = [n for band in self.penalty_bands for n in range(band.first, band.last + 1)]
        if covered != list(range(1, self.hand_size + 1)):
            raise ValueError(
                f"penalty_bands must cover 1 to {self.hand_size} cards left, in order, once each"
            )

    def suit_strength(self, suit: Suit) -> int:
        """0 for the lowest suit up to 3 for the highest."""
        return self.suit_order.index(suit)


DEFAULT_RULES = RuleSet()
