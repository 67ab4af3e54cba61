"""What a split of a hand scores: the points `rules.split.arrangements` ranks splits by.

Each way of splitting 13 cards into plays gets a score from four parts, each shown to the
player with its points:

- **Plays: −10 each.** Every play is a turn in which you must get cards down, and the first
  player out wins, so fewer plays is the first aim: no card's other points are worth more
  than a play.
- **Low singles (below 8): −10 for a 3, −8 for a 4 … −2 for a 7.** A low card on its own is the
  card that is left in your hand at the end; five-card hands that swallow them score by avoiding
  this. Low pairs and triples cost nothing extra: you can lead them when you have the lead.
- **2s and aces kept as control: +8 for a 2, +4 for an ace**, for each one played alone or in
  a pair. They win tricks late and give you the lead back; spent as the pair of a full house,
  a kicker or inside a run, they win nothing. Not in triples: a triple of 2s still wins one
  trick, and it is cheaper to play three low cards as a triple than to keep the 2s apart.
- **Five-card hands: +1 for a straight … +5 for a straight flush** (the tier under the rules in
  force), because a stronger hand is less often beaten; between two hands that clear the same
  cards, the stronger one wins.

The search adds up the same points play by play (`small_points`, `five_points`); `score_parts`
gives them to the player part by part. A plan with a goal of its own (`rules.split_plans`: keep
the 2s and aces, leave the fewest singles, put the most cards in five-card hands) searches with
`Weights` that add to these points for what it is after.

>>> for part in score_parts([classify(parse_cards("3d")), classify(parse_cards("2s 2h"))]):
...     print(part)
2 plays: −20
Low singles, below 8 (3♦): −10
2s and aces kept for control, alone or in pairs (2♥ 2♠): +16
>>> small_points(Rank.THREE, 1), small_points(Rank.TWO, 2)
(-20, 6)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.cards import Rank, parse_cards  # noqa: F401 (the doctests use parse_cards)
from rules.i18n import gettext, list_of
from rules.plays import Play, classify  # noqa: F401 (the doctests use classify)

PLAY_COST = 10
LOW_BELOW = Rank.EIGHT
LOW_SINGLE_STEP = 2  # per rank below LOW_BELOW: a 3 costs 10, a 7 costs 2
CONTROL = {Rank.TWO: 8, Rank.ACE: 4}


@dataclass(frozen=True, slots=True)
class Weights:
    """What a search for a split counts besides the points above: more for each play, for each
    2 and ace kept as control, for each low single. The default adds nothing."""

    play: int = 0  # taken off for each play, on top of its cost
    two: int = CONTROL[Rank.TWO]
    ace: int = CONTROL[Rank.ACE]
    low_single: int = 0  # taken off for each single below 8, on top of its points

    def control(self, rank: int) -> int:
        return self.two if rank == Rank.TWO else self.ace if rank == Rank.ACE else 0


BALANCED = Weights()


@dataclass(frozen=True, slots=True)
class ScorePart:
    """One reason an arrangement scores what it does, and its points (negative counts against).

    >>> str(ScorePart("5 plays", -50))
    '5 plays: −50'
    """

    label: str
    points: int

    def __str__(self) -> str:
        sign = "−" if self.points < 0 else "+"
        return gettext("%(label)s: %(points)s") % {
            "label": self.label,
            "points": f"{sign}{abs(self.points)}",
        }


def low_single_points(rank: int) -> int:
    return LOW_SINGLE_STEP * (rank - LOW_BELOW) if rank < LOW_BELOW else 0


def small_points(rank: int, size: int, weights: Weights = BALANCED) -> int:
    """The points of one single, pair or triple of `rank`, as `score_parts` counts them (with
    the default weights).

    >>> small_points(Rank.ACE, 1, Weights(ace=20, play=5)), small_points(Rank.FIVE, 3)
    (5, -10)
    >>> small_points(Rank.FIVE, 1), small_points(Rank.FIVE, 1, Weights(low_single=40))
    (-16, -56)
    """
    points = -PLAY_COST - weights.play
    if size == 1 and rank < LOW_BELOW:
        points += low_single_points(rank) - weights.low_single
    if size <= 2:
        points += weights.control(rank) * size
    return points


def five_points(play: Play, weights: Weights = BALANCED) -> int:
    """The points of a five-card play: its cost and its tier."""
    return -PLAY_COST - weights.play + tier(play)


def tier(play: Play) -> int:
    # A five-card key starts with its tier (1 straight … 5 straight flush) under every rule set.
    return play.key[0]


def score_parts(plays: Sequence[Play]) -> tuple[ScorePart, ...]:
    """The score of a split, part by part; the search adds up the same points play by play."""
    parts = [ScorePart(gettext("%(count)s plays") % {"count": len(plays)}, -PLAY_COST * len(plays))]
    low = [play.cards[0] for play in plays if play.size == 1 and play.cards[0].rank < LOW_BELOW]
    if low:
        parts.append(
            ScorePart(
                gettext("Low singles, below 8 (%(cards)s)") % {"cards": " ".join(map(str, low))},
                sum(low_single_points(card.rank) for card in low),
            )
        )
    control = [
        card for play in plays if play.size <= 2 for card in play.cards if card.rank in CONTROL
    ]
    if control:
        parts.append(
            ScorePart(
                gettext("2s and aces kept for control, alone or in pairs (%(cards)s)")
                % {"cards": " ".join(map(str, control))},
                sum(CONTROL[card.rank] for card in control),
            )
        )
    fives = [play for play in plays if play.size == 5]
    if fives:
        parts.append(
            ScorePart(
                gettext("Five-card hands, more for stronger kinds (%(kinds)s)")
                % {"kinds": list_of(play.kind.label for play in fives)},
                sum(tier(play) for play in fives),
            )
        )
    return tuple(parts)
