"""What a deal's rows mean to the rules engine, both ways, in plain Python (no query here).

The engine scores a `DealResult` (`rules.deal_score.score_deal`); a deal is stored as a `Deal`
(the facts about the whole deal: went out on twos, the twos in the last play, the dragon, who
paid for the table) and a `DealScore` a seat (cards left, twos held, place, points typed, and
the penalty the engine charged). `deals_from_rows` reads the rows back (as
`scoring.selectors.games.stored_deals` queries them) into exactly the facts that were scored,
so a game replays as it was played: the one place rows become facts. `deal_row` and
`score_rows` are what to store; `figures` is each seat's figure in a line of history, and
`described` the deal in words, in the engine's language (the page's, in a request).
"""

from __future__ import annotations

import datetime
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from rules.deal_checks import DealResult, base_penalties
from rules.deal_options import Scoring
from rules.deal_score import ScoredDeal, facts_wanted
from rules.i18n import gettext, list_of, ngettext, pgettext
from rules.options import TwosRule
from rules.ruleset import RuleSet

# What `deals_from_rows` takes, a row a seat, in deal and seat order: the deal's columns, then
# the seat's score's.
DEAL_COLUMNS = (
    "number",
    "recorded_at",
    "out_on_twos",
    "last_play_twos",
    "dragon_seat",
    "payer_seat",
)
SCORE_COLUMNS = ("cards_left", "twos_held", "place", "points", "penalty")


@dataclass(frozen=True, slots=True)
class SeatScore:
    """A seat's stored score of a deal, as its cell shows it."""

    penalty: int
    cards_left: int | None
    twos_held: int


@dataclass(frozen=True, slots=True)
class StoredDeal:
    """A deal as stored: its number, its facts as the rules read them, each seat's score, and
    when it was recorded."""

    number: int
    out_on_twos: bool
    facts: DealResult
    scores: tuple[SeatScore, ...]
    recorded_at: datetime.datetime | None = None


def deals_from_rows(rules: RuleSet, rows: Iterable[Sequence]) -> list[StoredDeal]:
    """The deals whose rows (`DEAL_COLUMNS` then `SCORE_COLUMNS`, a row a seat, in deal and
    seat order) these are, each read as `rules` read it."""
    deals = []
    for number, grouped in itertools.groupby(rows, key=lambda row: row[0]):
        seats = list(grouped)
        at, out, last_play, dragon, payer = seats[0][1 : len(DEAL_COLUMNS)]
        cards, twos, places, points, penalties = zip(
            *(row[len(DEAL_COLUMNS) :] for row in seats), strict=True
        )
        facts = _facts_of(
            rules,
            out_on_twos=out,
            last_play_twos=last_play,
            dragon_seat=dragon,
            payer_seat=payer,
            cards_left=cards,
            twos_held=twos,
            places=places,
            points=points,
        )
        scores = tuple(map(SeatScore, penalties, cards, twos))
        deals.append(StoredDeal(number, out, facts, scores, at))
    return deals


def _facts_of(
    rules: RuleSet,
    *,
    out_on_twos: bool,
    last_play_twos: int | None,
    dragon_seat: int | None,
    payer_seat: int | None,
    cards_left: Sequence[int | None],
    twos_held: Sequence[int],
    places: Sequence[int | None],
    points: Sequence[int | None],
) -> DealResult:
    """A stored deal as the rules read it: the facts `rules` take, each as stored.

    Only what the rules take is read: the twos held are stored as 0 under rules without the
    stronger twos rule, and a dragon's cards left (all still in hand) are no fact of it. Where
    the rules take who went out instead of the cards left (Pusoy Dos scoring), a deal recorded
    so stores the winner's 0 alone, which says it.
    """
    allowed = facts_wanted(rules, dragon=dragon_seat is not None).allowed
    every_count = _every_seat(cards_left) if "cards_left" in allowed else None
    went_out = None
    if "went_out" in allowed and every_count is None and 0 in cards_left:
        went_out = list(cards_left).index(0)
    return DealResult(
        cards_left=every_count,
        went_out=went_out,
        out_on_twos=out_on_twos and "out_on_twos" in allowed,
        twos_held=tuple(twos_held) if "twos_held" in allowed else None,
        last_play_twos=last_play_twos if "last_play_twos" in allowed else None,
        order=_order(places) if "order" in allowed else None,
        dragon=dragon_seat if "dragon" in allowed else None,
        pays=payer_seat if "pays" in allowed else None,
        points=_every_seat(points) if "points" in allowed else None,
    )


def _every_seat(values: Sequence[int | None]) -> tuple[int, ...] | None:
    if any(value is None for value in values):
        return None
    return tuple(value for value in values if value is not None)


def _order(places: Sequence[int | None]) -> tuple[int, ...] | None:
    """The seats, the first out first, from each seat's place (1 for the first out)."""
    if any(place is None for place in places):
        return None
    return tuple(sorted(range(len(places)), key=lambda seat: places[seat] or 0))


def deal_row(facts: DealResult) -> dict[str, object]:
    """What a `Deal` row stores of the facts."""
    return {
        "out_on_twos": facts.out_on_twos,
        "last_play_twos": facts.last_play_twos,
        "dragon_seat": facts.dragon,
        "payer_seat": facts.pays,
    }


def score_rows(scored: ScoredDeal) -> list[dict[str, object]]:
    """What each seat's `DealScore` stores, in seat order: the penalty as the engine charged
    it, and the seat's facts (cards left are None where the rules don't ask, 13 after a
    dragon, as `ScoredDeal.cards_left` says; told only who went out, their 0 alone)."""
    facts = scored.facts
    seats = range(len(scored.penalties))
    cards, order = scored.cards_left, facts.order
    if cards is None and facts.went_out is not None:
        cards = tuple(0 if seat == facts.went_out else None for seat in seats)
    twos = facts.twos_held or (0,) * len(seats)
    return [
        {
            "cards_left": None if cards is None else cards[seat],
            "penalty": scored.penalties[seat],
            "twos_held": twos[seat],
            "place": None if order is None else order.index(seat) + 1,
            "points": None if facts.points is None else facts.points[seat],
        }
        for seat in seats
    ]


def figures(facts: DealResult, rules: RuleSet) -> list[int]:
    """Each seat's figure as the deal form takes it, for a line of the game's history: its
    place under finishing order, its points by hand, else its cards left (a dragon's holder 0,
    everyone else their whole hand); told only who went out (Pusoy Dos scoring), what each
    paid: 0 for the winner, what the winner earned for the others."""
    seats = range(rules.players)
    if facts.dragon is not None:
        return [0 if seat == facts.dragon else rules.cards_dealt for seat in seats]
    if facts.order is not None:
        return [facts.order.index(seat) + 1 for seat in seats]
    if facts.points is not None:
        return list(facts.points)
    if facts.cards_left is None:  # only who went out: every scoring takes one of these
        return list(base_penalties(facts, rules, rules.players))
    return list(facts.cards_left)


def described(facts: DealResult, rules: RuleSet, names: Sequence[str]) -> str:
    """The deal in a few words, as it is recorded: "Ann 0, Ben 5, Cy 7, Dee 9", with whatever
    else it says ("Ben pays for the table"), "out in this order: Cy, Ann, Dee, Ben" or
    "Ann's dragon"."""
    if facts.dragon is not None:
        return gettext("%(name)s's dragon") % {"name": names[facts.dragon]}
    if facts.order is not None:
        return gettext("out in this order: %(names)s") % {
            "names": list_of(names[seat] for seat in facts.order)
        }
    shown = list_of(
        f"{name} {figure}" for name, figure in zip(names, figures(facts, rules), strict=True)
    )
    return pgettext("between the parts of a deal's description", "; ").join(
        [shown, *extras(facts, names)]
    )


def extras(facts: DealResult, names: Sequence[str]) -> list[str]:
    """What a deal says besides each seat's figure: the twos, who paid for the table."""
    said = []
    if facts.out_on_twos:
        said.append(gettext("went out on twos"))
    if facts.last_play_twos is not None:
        said.append(
            ngettext(
                "%(count)s two in the last play",
                "%(count)s twos in the last play",
                facts.last_play_twos,
            )
            % {"count": facts.last_play_twos}
        )
    if facts.pays is not None:
        said.append(gettext("%(payer)s pays for the table") % {"payer": names[facts.pays]})
    return said


@dataclass(frozen=True, slots=True)
class OwnFacts:
    """One seat's own facts of a deal, as its player sends them: its cards left (0 for "I went
    out"), the twos it held, its place or its points, as the game's rules ask; the winner's
    twos in their last play under Pusoy Dos scoring (0 unless said)."""

    cards_left: int | None = None
    twos_held: int | None = None
    place: int | None = None
    points: int | None = None
    last_play_twos: int | None = None


def seat_figure(row: object) -> int:
    """A seat's one figure, as its player says it (of its `OwnFacts`, or a `DealScore` or
    `score_rows` row): its place, its points or its cards left; a seat told only that someone
    else went out, its penalty."""
    get = row.get if isinstance(row, dict) else lambda name: getattr(row, name, None)
    return next(
        get(name) for name in ("place", "points", "cards_left", "penalty") if get(name) is not None
    )


class SeatSent(Protocol):
    """A seat's own facts as its player sent them (`scoring.models.SentFacts`)."""

    cards_left: int | None
    twos_held: int | None
    place: int | None
    points: int | None
    last_play_twos: int | None


def table_facts(rules: RuleSet, sent: Sequence[SeatSent | None]) -> DealResult | None:
    """The deal's facts from what each seat sent (in seat order, None for a seat still to
    send), once the table's are in: every seat's figure, or under Pusoy Dos scoring with the
    winner leading, who went out; None while some are still to come."""
    if rules.scoring is Scoring.PUSOY_DOS and "went_out" in facts_wanted(rules).one_of:
        out = next((n for n, row in enumerate(sent) if row and row.cards_left == 0), None)
        if out is None:
            return None
        return DealResult(went_out=out, last_play_twos=_last_play(sent))
    every = [row for row in sent if row is not None]
    if len(every) < len(sent):
        return None
    if rules.scoring is Scoring.FINISHING_ORDER:
        # Two seats sending one place make no order: the engine is told of a seat left out.
        by_place = {row.place: seat for seat, row in enumerate(every)}
        return DealResult(order=tuple(by_place[place] for place in sorted(by_place)))
    if rules.scoring is Scoring.POINTS_BY_HAND:
        return DealResult(points=tuple(row.points or 0 for row in every))
    cards = tuple(row.cards_left or 0 for row in every)
    if rules.scoring is Scoring.PUSOY_DOS:
        return DealResult(cards_left=cards, last_play_twos=_last_play(sent))
    twos = tuple(row.twos_held or 0 for row in every) if rules.twos is TwosRule.EACH_TWO else None
    return DealResult(cards_left=cards, twos_held=twos)


def _last_play(sent: Sequence[SeatSent | None]) -> int:
    """The twos in the winner's last play, as the one who went out said (0 unless said)."""
    out = next((row for row in sent if row is not None and row.cards_left == 0), None)
    return (out.last_play_twos or 0) if out is not None else 0
