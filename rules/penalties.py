"""Penalty points for a deal, and when a game of Big Two is over.

Seats are indexes into the list of players, in seat order; totals are penalty points, so the
lowest total is the best. The rule set decides what cards cost (the penalty scale, the twos
rule, how many cards a player can hold) and when the match is over.

>>> [penalty(n) for n in (0, 4, 9, 10, 13)]
[0, 4, 9, 20, 39]
>>> outcome([20, 104, 60, 88]).winner
0
>>> penalty(9, RuleSet(twos=TwosRule.EACH_TWO), out_on_twos=True, twos_held=2)
72
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.deal_checks import (
    TWOS_IN_THE_DECK,
    DealResult,
    cards_problems,
    check_twos_given,
    penalty,
    twos_problems,
)
from rules.deal_score import ScoredDeal, score_deal
from rules.options import Finish, TwosRule
from rules.ruleset import DEFAULT_RULES, RuleSet

__all__ = [
    "TWOS_IN_THE_DECK",
    "DealResult",
    "GameReplay",
    "Outcome",
    "ReplayedDeal",
    "outcome",
    "penalty",
    "replay",
    "validate_deal",
]


@dataclass(frozen=True, slots=True)
class Outcome:
    """Where a game stands after some deals.

    `lowest` holds every seat sharing the lowest total. `finish_reached` says the finish
    condition of the rules is met (someone at the target, the agreed deals played, the
    scorekeeper ending an open-ended match), or the game's time has run out. The game is
    `finished` once that is so and one seat is lowest alone, or, the lowest total shared, when
    the table stopped there (`outcome`'s `ended` or `time_up`): then the seats sharing it share
    the win. `winner` is the sole winner, None while the game goes on and when the win is
    shared; `winners` every seat that won.
    """

    finished: bool
    winner: int | None
    lowest: tuple[int, ...]
    finish_reached: bool

    @property
    def reached_target(self) -> bool:
        """The name `finish_reached` had when a target score was the only finish."""
        return self.finish_reached

    @property
    def tied(self) -> bool:
        """The game would be over, but the lowest total is shared, so play goes on."""
        return self.finish_reached and len(self.lowest) > 1 and not self.finished

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats that won, in seat order: the winner alone, or those sharing the win."""
        return self.lowest if self.finished else ()

    @property
    def shared(self) -> bool:
        """The game is over with its win shared by the seats on the lowest total."""
        return len(self.winners) > 1


def outcome(
    totals: Sequence[int],
    rules: RuleSet = DEFAULT_RULES,
    *,
    deals_played: int | None = None,
    ended: bool = False,
    time_up: bool = False,
) -> Outcome:
    """Whether these running totals end the game, and who wins.

    Finish.TARGET looks at the totals alone; Finish.DEALS needs `deals_played`; Finish.OPEN
    ends only when the scorekeeper has `ended` the match. `ended` says the table stopped after
    these totals ("End match", or a score sheet that stops there). Under the other finishes it
    doesn't end a game whose own condition isn't met; once it is, a tie for lowest plays on
    unless the table stopped: then, as in an open-ended match ended on a tie, the win is shared.
    `time_up` says the game's time ran out and these are the last deal's totals: the table
    stops whatever the finish rule, the lowest total wins, and a tie shares the win.

    >>> outcome([100, 40, 40, 70]).tied
    True
    >>> outcome([100, 40, 40, 70], ended=True).winners
    (1, 2)
    >>> outcome([99, 40, 40, 70]).finished
    False
    >>> outcome([9, 40, 40, 70], RuleSet(finish=Finish.DEALS, deals=8), deals_played=8).winner
    0
    >>> outcome([30, 12, 12, 70], time_up=True).winners
    (1, 2)
    """
    if not totals:
        raise ValueError("a game needs players: no totals given")
    low = min(totals)
    lowest = tuple(seat for seat, total in enumerate(totals) if total == low)
    match rules.finish:
        case Finish.TARGET:
            finish_reached = max(totals) >= rules.target
        case Finish.DEALS if deals_played is None:
            raise ValueError("a match of a set number of deals needs deals_played")
        case Finish.DEALS:
            finish_reached = deals_played >= rules.deals
        case _:  # Finish.OPEN
            finish_reached = ended
    finish_reached = finish_reached or time_up
    finished = finish_reached and (len(lowest) == 1 or ended or time_up)
    return Outcome(
        finished=finished,
        winner=lowest[0] if finished and len(lowest) == 1 else None,
        lowest=lowest,
        finish_reached=finish_reached,
    )


@dataclass(frozen=True, slots=True)
class ReplayedDeal:
    """One deal recomputed: `number` counts from 1, `totals` are the running totals after it."""

    number: int
    cards_left: tuple[int, ...]
    penalties: tuple[int, ...]
    totals: tuple[int, ...]
    outcome: Outcome
    out_on_twos: bool = False
    twos_held: tuple[int, ...] | None = None
    scored: ScoredDeal | None = None


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
        """The seat that won when the game ended, if it has and one seat won alone."""
        if self.finished_after is None:
            return None
        return self.deals[self.finished_after - 1].outcome.winner

    @property
    def winners(self) -> tuple[int, ...]:
        """Every seat that won when the game ended (more than one when the win is shared)."""
        if self.finished_after is None:
            return ()
        return self.deals[self.finished_after - 1].outcome.winners

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
    deals: Sequence[Sequence[int] | DealResult],
    rules: RuleSet = DEFAULT_RULES,
    *,
    players: int | None = None,
    ended: bool = False,
    last_deal: int | None = None,
) -> GameReplay:
    """Recompute penalties, running totals and the end of the game from each deal's facts.

    A deal is its cards left, seat by seat, or a DealResult when the rules need more; each is
    scored by `rules.deal_score.score_deal`, so a deal that breaks the rules raises its
    DealRefused. `players` gives the number of seats when there may be no deals yet. `ended`
    says the table stopped after the last deal (see `outcome`). `last_deal` is the number of
    the deal after which the game's time was up: that deal ends the game (`outcome`'s
    `time_up`), and the time stays up for any deal after it.

    >>> game = replay([[0, 4, 10, 13], [8, 0, 12, 13]])
    >>> game.totals, game.finished_after
    ((8, 4, 44, 78), None)
    >>> game = replay([[0, 4, 10, 13], [8, 0, 12, 13]], last_deal=2)
    >>> game.finished_after, game.winner
    (2, 1)
    """
    results = [deal if isinstance(deal, DealResult) else DealResult(tuple(deal)) for deal in deals]
    seats = players if players is not None else _seats(results[0]) if results else None
    if seats is None:
        raise ValueError("with no deals yet, say how many players there are")
    totals = (0,) * seats
    replayed: list[ReplayedDeal] = []
    finished_after: int | None = None
    for number, deal in enumerate(results, start=1):
        scored = _scored(number, deal, seats, rules)
        totals = tuple(
            total + points for total, points in zip(totals, scored.penalties, strict=True)
        )
        standing = _standing(
            totals, rules, number, ended=ended and number == len(results), last_deal=last_deal
        )
        if standing.finished and finished_after is None:
            finished_after = number
        replayed.append(
            ReplayedDeal(
                number,
                deal.cards_left if deal.cards_left is not None else scored.cards_left,
                scored.penalties,
                totals,
                standing,
                deal.out_on_twos,
                deal.twos_held,
                scored,
            )
        )
    return GameReplay(
        deals=tuple(replayed),
        totals=totals,
        outcome=_standing(totals, rules, len(results), ended=ended, last_deal=last_deal),
        finished_after=finished_after,
    )


def _standing(
    totals: tuple[int, ...], rules: RuleSet, number: int, *, ended: bool, last_deal: int | None
) -> Outcome:
    """Where a replayed game stands after deal `number`: its time is up from `last_deal` on."""
    return outcome(
        totals,
        rules,
        deals_played=number,
        ended=ended,
        time_up=last_deal is not None and number >= last_deal,
    )


def _seats(deal: DealResult) -> int:
    for facts in (deal.cards_left, deal.points, deal.order):
        if facts is not None:
            return len(facts)
    raise ValueError("a dragon deal doesn't say how many players there are: pass players")


def _scored(number: int, deal: DealResult, seats: int, rules: RuleSet) -> ScoredDeal:
    """One deal of a replay, scored; a plain list of cards under the stronger twos rule
    counts as no twos held, as before twos were recorded."""
    if deal.cards_left is not None and len(deal.cards_left) != seats:
        raise ValueError(f"deal {number} has {len(deal.cards_left)} players, not {seats}")
    check_twos_given(rules, deal.out_on_twos, deal.twos_held)
    if deal.twos_held is not None and len(deal.twos_held) != seats:
        raise ValueError(f"deal {number} has twos held for {len(deal.twos_held)} players")
    if rules.twos is TwosRule.EACH_TWO and deal.twos_held is None and deal.dragon is None:
        deal = DealResult(deal.cards_left, deal.out_on_twos, (0,) * seats)
    return score_deal(deal, rules)


def validate_deal(
    cards_left: Sequence[int],
    names: Sequence[str],
    rules: RuleSet = DEFAULT_RULES,
    *,
    out_on_twos: bool = False,
    twos_held: Sequence[int] | None = None,
) -> list[str]:
    """What is wrong with one deal's cards left, in words for the scorer; empty if nothing.

    The check of the score sheet of cards left (and twos); `rules.deal_score.score_deal`
    checks a deal of any scoring with the same words. `out_on_twos` and `twos_held` (per seat)
    are for the twos rules, and checked only when the rules use them: given under other rules,
    they are a mistake in the calling code (ValueError).

    >>> validate_deal([0, 0, 5, 14], ["Ann", "Ben", "Cara", "Dev"])
    ['Cards left must be between 0 and 13 — Dev has 14', \
'Only one player can go out in a deal — Ann and Ben both have 0']
    """
    if len(cards_left) != len(names):
        raise ValueError(f"{len(cards_left)} counts of cards left for {len(names)} players")
    check_twos_given(rules, out_on_twos, twos_held)
    if twos_held is not None and len(twos_held) != len(names):
        raise ValueError(f"{len(twos_held)} counts of twos held for {len(names)} players")
    problems = cards_problems(cards_left, names, rules)
    if twos_held is not None:
        problems.extend(twos_problems(cards_left, names, twos_held, out_on_twos))
    return problems
