"""Penalty points for a deal, and when a game of Big Two is over.

Seats are indexes into the list of players, in seat order; totals are penalty points, so the
lowest total is the best.

>>> [penalty(n) for n in (0, 4, 9, 10, 13)]
[0, 4, 9, 20, 39]
>>> outcome([20, 104, 60, 88]).winner
0
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.i18n import gettext
from rules.ruleset import DEFAULT_RULES, RuleSet


def penalty(cards_left: int, rules: RuleSet = DEFAULT_RULES) -> int:
    """Points charged for the cards someone holds when another player goes out.

    >>> penalty(12)
    24
    """
    if cards_left == 0:
        return 0
    for band in rules.penalty_bands:
        if band.covers(cards_left):
            return cards_left * band.per_card
    raise ValueError(f"cards left must be between 0 and {rules.hand_size}, not {cards_left}")


@dataclass(frozen=True, slots=True)
class Outcome:
    """Where a game stands after some deals.

    `lowest` holds every seat sharing the lowest total. `reached_target` says someone has
    reached the finish line; the game is `finished` once that is so and one seat is lowest alone.
    """

    finished: bool
    winner: int | None
    lowest: tuple[int, ...]
    reached_target: bool

    @property
    def tied(self) -> bool:
        """The game would be over, but the lowest total is shared, so play goes on."""
        return self.reached_target and len(self.lowest) > 1


def outcome(totals: Sequence[int], rules: RuleSet = DEFAULT_RULES) -> Outcome:
    """Whether these running totals end the game, and who wins.

    >>> outcome([100, 40, 40, 70]).tied
    True
    >>> outcome([99, 40, 40, 70]).finished
    False
    """
    if not totals:
        raise ValueError("a game needs players: no totals given")
    low = min(totals)
    lowest = tuple(seat for seat, total in enumerate(totals) if total == low)
    reached_target = max(totals) >= rules.target
    finished = reached_target and len(lowest) == 1
    return Outcome(
        finished=finished,
        winner=lowest[0] if finished else None,
        lowest=lowest,
        reached_target=reached_target,
    )


@dataclass(frozen=True, slots=True)
class ReplayedDeal:
    """One deal recomputed: `number` counts from 1, `totals` are the running totals after it."""

    number: int
    cards_left: tuple[int, ...]
    penalties: tuple[int, ...]
    totals: tuple[int, ...]
    outcome: Outcome


@dataclass(frozen=True, slots=True)
class GameReplay:
    """A whole game recomputed from its deals.

    `finished_after` is the number of the first deal after which the game was over (None while
    it goes on). Deals recorded after that one should not exist; `ends_before_last_deal` says so.
    """

    deals: tuple[ReplayedDeal, ...]
    totals: tuple[int, ...]
    outcome: Outcome
    finished_after: int | None

    @property
    def winner(self) -> int | None:
        """The seat that won when the game ended, if it has."""
        if self.finished_after is None:
            return None
        return self.deals[self.finished_after - 1].outcome.winner

    @property
    def ends_before_last_deal(self) -> bool:
        return self.finished_after is not None and self.finished_after < len(self.deals)

    @property
    def penalties(self) -> tuple[tuple[int, ...], ...]:
        return tuple(deal.penalties for deal in self.deals)

    @property
    def running_totals(self) -> tuple[tuple[int, ...], ...]:
        return tuple(deal.totals for deal in self.deals)


def replay(
    deals: Sequence[Sequence[int]],
    rules: RuleSet = DEFAULT_RULES,
    *,
    players: int | None = None,
) -> GameReplay:
    """Recompute penalties, running totals and the end of the game from each deal's cards left.

    `players` gives the number of seats when there may be no deals yet.

    >>> game = replay([[0, 4, 10, 13], [8, 0, 12, 13]])
    >>> game.totals, game.finished_after
    ((8, 4, 44, 78), None)
    """
    seats = players if players is not None else len(deals[0]) if deals else None
    if seats is None:
        raise ValueError("with no deals yet, say how many players there are")
    totals = (0,) * seats
    replayed: list[ReplayedDeal] = []
    finished_after: int | None = None
    for number, cards_left in enumerate(deals, start=1):
        if len(cards_left) != seats:
            raise ValueError(f"deal {number} has {len(cards_left)} players, not {seats}")
        penalties = tuple(penalty(cards, rules) for cards in cards_left)
        totals = tuple(total + points for total, points in zip(totals, penalties, strict=True))
        standing = outcome(totals, rules)
        if standing.finished and finished_after is None:
            finished_after = number
        replayed.append(ReplayedDeal(number, tuple(cards_left), penalties, totals, standing))
    return GameReplay(
        deals=tuple(replayed),
        totals=totals,
        outcome=outcome(totals, rules),
        finished_after=finished_after,
    )


def validate_deal(
    cards_left: Sequence[int], names: Sequence[str], rules: RuleSet = DEFAULT_RULES
) -> list[str]:
    """What is wrong with one deal's cards left, in words for the scorer; empty if nothing.

    >>> validate_deal([0, 0, 5, 14], ["Ann", "Ben", "Cara", "Dev"])
    ['Cards left must be between 0 and 13 — Dev has 14', \
'Only one player can go out in a deal — Ann and Ben both have 0']
    """
    if len(cards_left) != len(names):
        raise ValueError(f"{len(cards_left)} counts of cards left for {len(names)} players")
    problems = []
    out_of_range = [
        gettext("%(name)s has %(count)s") % {"name": name, "count": cards}
        for name, cards in zip(names, cards_left, strict=True)
        if not 0 <= cards <= rules.hand_size
    ]
    if out_of_range:
        problems.append(
            gettext("Cards left must be between 0 and %(max)s — %(players)s")
            % {"max": rules.hand_size, "players": _and(out_of_range)}
        )
    went_out = [name for name, cards in zip(names, cards_left, strict=True) if cards == 0]
    if not went_out:
        problems.append(
            gettext("Nobody went out: enter 0 for the player who played their last card")
        )
    elif len(went_out) > 1:
        message = (
            gettext("Only one player can go out in a deal — %(players)s both have 0")
            if len(went_out) == 2
            else gettext("Only one player can go out in a deal — %(players)s all have 0")
        )
        problems.append(message % {"players": _and(went_out)})
    return problems


def _and(items: list[str]) -> str:
    """ "Ann", "Ann and Ben", "Ann, Ben and Cara"."""
    if len(items) == 1:
        return items[0]
    return gettext("%(items)s and %(last)s") % {"items": ", ".join(items[:-1]), "last": items[-1]}
