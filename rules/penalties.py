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

from rules.i18n import gettext
from rules.options import Finish, TwosRule
from rules.ruleset import DEFAULT_RULES, RuleSet

TWOS_IN_THE_DECK = 4


def penalty(
    cards_left: int,
    rules: RuleSet = DEFAULT_RULES,
    *,
    out_on_twos: bool = False,
    twos_held: int = 0,
) -> int:
    """Points charged for the cards someone holds when another player goes out.

    `out_on_twos` says the winner's last play was nothing but twos, which doubles the penalty
    under either twos rule; `twos_held` counts the twos this player still holds, each doubling
    the penalty again under TwosRule.EACH_TWO. Either given under rules that don't use it is a
    mistake in the calling code: ValueError.

    >>> penalty(12)
    24
    >>> penalty(9, RuleSet(twos=TwosRule.EACH_TWO), twos_held=2)
    36
    """
    _check_twos_given(rules, out_on_twos, twos_held or None)
    if not 0 <= cards_left <= rules.hand_size:
        raise ValueError(f"cards left must be between 0 and {rules.hand_size}, not {cards_left}")
    if not 0 <= twos_held <= min(cards_left, TWOS_IN_THE_DECK):
        raise ValueError(f"{cards_left} cards left can't hold {twos_held} twos")
    if cards_left == 0:
        return 0
    per_card = next(band.per_card for band in rules.penalty_bands if band.covers(cards_left))
    return cards_left * per_card * 2 ** (int(out_on_twos) + twos_held)


@dataclass(frozen=True, slots=True)
class Outcome:
    """Where a game stands after some deals.

    `lowest` holds every seat sharing the lowest total. `finish_reached` says the finish
    condition of the rules is met (someone at the target, the agreed deals played, or the
    scorekeeper ending an open-ended match); the game is `finished` once that is so and one seat
    is lowest alone.
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
        return self.finish_reached and len(self.lowest) > 1


def outcome(
    totals: Sequence[int],
    rules: RuleSet = DEFAULT_RULES,
    *,
    deals_played: int | None = None,
    ended: bool = False,
) -> Outcome:
    """Whether these running totals end the game, and who wins.

    Finish.TARGET looks at the totals alone; Finish.DEALS needs `deals_played`; Finish.OPEN
    ends only when the scorekeeper has `ended` the match. `ended` means nothing under the
    other finishes: their own condition decides.

    >>> outcome([100, 40, 40, 70]).tied
    True
    >>> outcome([99, 40, 40, 70]).finished
    False
    >>> outcome([9, 40, 40, 70], RuleSet(finish=Finish.DEALS, deals=8), deals_played=8).winner
    0
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
    finished = finish_reached and len(lowest) == 1
    return Outcome(
        finished=finished,
        winner=lowest[0] if finished else None,
        lowest=lowest,
        finish_reached=finish_reached,
    )


@dataclass(frozen=True, slots=True)
class DealResult:
    """What one deal's score sheet records: each seat's cards left, and for the twos rules
    whether the winner went out on twos and how many twos each seat still holds.
    """

    cards_left: tuple[int, ...]
    out_on_twos: bool = False
    twos_held: tuple[int, ...] | None = None


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
    deals: Sequence[Sequence[int] | DealResult],
    rules: RuleSet = DEFAULT_RULES,
    *,
    players: int | None = None,
    ended: bool = False,
) -> GameReplay:
    """Recompute penalties, running totals and the end of the game from each deal's cards left.

    A deal is its cards left, seat by seat, or a DealResult when the twos rules need more.
    `players` gives the number of seats when there may be no deals yet. `ended` says the
    scorekeeper ended the match after the last deal (it counts only under Finish.OPEN).

    >>> game = replay([[0, 4, 10, 13], [8, 0, 12, 13]])
    >>> game.totals, game.finished_after
    ((8, 4, 44, 78), None)
    """
    results = [deal if isinstance(deal, DealResult) else DealResult(tuple(deal)) for deal in deals]
    seats = players if players is not None else len(results[0].cards_left) if results else None
    if seats is None:
        raise ValueError("with no deals yet, say how many players there are")
    totals = (0,) * seats
    replayed: list[ReplayedDeal] = []
    finished_after: int | None = None
    for number, deal in enumerate(results, start=1):
        if len(deal.cards_left) != seats:
            raise ValueError(f"deal {number} has {len(deal.cards_left)} players, not {seats}")
        _check_twos_given(rules, deal.out_on_twos, deal.twos_held)
        twos_held = deal.twos_held if deal.twos_held is not None else (0,) * seats
        if len(twos_held) != seats:
            raise ValueError(f"deal {number} has twos held for {len(twos_held)} players")
        penalties = tuple(
            penalty(cards, rules, out_on_twos=deal.out_on_twos, twos_held=twos)
            for cards, twos in zip(deal.cards_left, twos_held, strict=True)
        )
        totals = tuple(total + points for total, points in zip(totals, penalties, strict=True))
        standing = outcome(
            totals, rules, deals_played=number, ended=ended and number == len(results)
        )
        if standing.finished and finished_after is None:
            finished_after = number
        replayed.append(
            ReplayedDeal(
                number,
                tuple(deal.cards_left),
                penalties,
                totals,
                standing,
                deal.out_on_twos,
                deal.twos_held,
            )
        )
    return GameReplay(
        deals=tuple(replayed),
        totals=totals,
        outcome=outcome(totals, rules, deals_played=len(results), ended=ended),
        finished_after=finished_after,
    )


def validate_deal(
    cards_left: Sequence[int],
    names: Sequence[str],
    rules: RuleSet = DEFAULT_RULES,
    *,
    out_on_twos: bool = False,
    twos_held: Sequence[int] | None = None,
) -> list[str]:
    """What is wrong with one deal's cards left, in words for the scorer; empty if nothing.

    `out_on_twos` and `twos_held` (per seat) are for the twos rules, and checked only when the
    rules use them: given under other rules, they are a mistake in the calling code (ValueError).

    >>> validate_deal([0, 0, 5, 14], ["Ann", "Ben", "Cara", "Dev"])
    ['Cards left must be between 0 and 13 — Dev has 14', \
'Only one player can go out in a deal — Ann and Ben both have 0']
    """
    if len(cards_left) != len(names):
        raise ValueError(f"{len(cards_left)} counts of cards left for {len(names)} players")
    _check_twos_given(rules, out_on_twos, twos_held)
    if twos_held is not None and len(twos_held) != len(names):
        raise ValueError(f"{len(twos_held)} counts of twos held for {len(names)} players")
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
    # With three players only the one who took the eighteenth card ever held eighteen.
    holding_all = [
        name for name, cards in zip(names, cards_left, strict=True) if cards == rules.hand_size
    ]
    if rules.hand_size > 13 and len(holding_all) > 1:
        problems.append(
            gettext(
                "Only the player who took the last card can have %(max)s left"
                " — %(players)s can't all have %(max)s"
            )
            % {"max": rules.hand_size, "players": _and(holding_all)}
        )
    if twos_held is not None:
        problems.extend(_twos_problems(cards_left, names, twos_held, out_on_twos))
    return problems


def _check_twos_given(rules: RuleSet, out_on_twos: bool, twos_held: Sequence[int] | None) -> None:
    """Refuse twos facts the rules don't use: the calling code asked for the wrong thing."""
    if out_on_twos and rules.twos is TwosRule.OFF:
        raise ValueError("out_on_twos given, but these rules have no twos rule")
    if twos_held is not None and rules.twos is not TwosRule.EACH_TWO:
        raise ValueError("twos_held given, but only TwosRule.EACH_TWO counts twos held")


def _twos_problems(
    cards_left: Sequence[int], names: Sequence[str], twos_held: Sequence[int], out_on_twos: bool
) -> list[str]:
    """What is wrong with the twos each player holds, for TwosRule.EACH_TWO."""
    problems = []
    seats = list(zip(names, cards_left, twos_held, strict=True))
    out_of_range = [
        gettext("%(name)s has %(count)s") % {"name": name, "count": twos}
        for name, _, twos in seats
        if not 0 <= twos <= TWOS_IN_THE_DECK
    ]
    if out_of_range:
        problems.append(
            gettext("Twos held must be between 0 and %(max)s — %(players)s")
            % {"max": TWOS_IN_THE_DECK, "players": _and(out_of_range)}
        )
    for name, cards, twos in seats:
        if cards == 0 and twos > 0:
            problems.append(
                gettext("%(name)s went out, so holds no twos: enter 0 twos for them")
                % {"name": name}
            )
        elif 0 < cards < twos <= TWOS_IN_THE_DECK:
            problems.append(
                gettext("%(name)s holds more twos (%(twos)s) than cards (%(cards)s)")
                % {"name": name, "twos": twos, "cards": cards}
            )
    # The two (or twos) the winner went out on are on the table, not in anybody's hand.
    most = TWOS_IN_THE_DECK - 1 if out_on_twos else TWOS_IN_THE_DECK
    held = sum(twos_held)
    if not out_of_range and held > most:
        message = (
            gettext(
                "The winner went out on a two, so at most %(most)s twos are left in hands"
                " — %(held)s are entered"
            )
            if out_on_twos
            else gettext("A deck has only %(most)s twos — %(held)s are entered")
        )
        problems.append(message % {"most": most, "held": held})
    return problems


def _and(items: list[str]) -> str:
    """ "Ann", "Ann and Ben", "Ann, Ben and Cara"."""
    if len(items) == 1:
        return items[0]
    return gettext("%(items)s and %(last)s") % {"items": ", ".join(items[:-1]), "last": items[-1]}
