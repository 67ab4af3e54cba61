"""A few words per seat on what a scored deal charged it, in the active language.

`rules.deal_score.ScoredDeal.explain` calls `explain` with facts already checked; every phrase
goes through `rules.i18n`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rules.deal_checks import PUSOY_DOS_POINTS, DealResult, base_penalties, per_card, winner_of
from rules.deal_options import Scoring
from rules.i18n import gettext, gettext_noop, ngettext, pgettext

if TYPE_CHECKING:
    from rules.ruleset import RuleSet

_PLACES = {
    1: gettext_noop("2nd out"),
    2: gettext_noop("3rd out"),
}
# What the winner of a deal under Pusoy Dos scoring went out on, by the twos in the last play.
_WENT_OUT_ON = (
    gettext_noop("went out"),
    gettext_noop("went out on a two"),
    gettext_noop("went out on two twos"),
    gettext_noop("went out on three twos"),
    gettext_noop("went out on four twos"),
)


def explain(facts: DealResult, rules: RuleSet, names: Sequence[str]) -> tuple[str, ...]:
    """One line per seat, in seat order, for facts `score_deal` has checked."""
    seats = len(names)
    if facts.dragon is not None:
        return tuple(
            gettext("dragon: one card of every rank")
            if seat == facts.dragon
            else gettext("dragon: %(cards)s") % {"cards": _cards(rules.cards_dealt, rules)}
            for seat in range(seats)
        )
    if facts.order is not None:
        return tuple(_place(facts.order.index(seat), seats) for seat in range(seats))
    if facts.points is not None:
        return tuple(
            gettext("went out") if points == 0 else gettext("points as typed")
            for points in facts.points
        )
    lines = _cards_left_lines(facts, rules, seats)
    if facts.pays is not None:
        return _paid_for(lines, facts, rules, names)
    return lines


def _place(place: int, seats: int) -> str:
    if place == 0:
        return gettext("went out first")
    if place == seats - 1:
        return gettext("last")
    return gettext(_PLACES[place])


def _cards(count: int, rules: RuleSet) -> str:
    """ "5 cards, 1 each": the cards left and what each costs on the penalty scale."""
    return ngettext("%(count)s card, %(each)s each", "%(count)s cards, %(each)s each", count) % {
        "count": count,
        "each": per_card(count, rules),
    }


def _joined(parts: list[str]) -> str:
    return pgettext("between the parts of a deal's explanation", "; ").join(parts)


def _cards_left_lines(facts: DealResult, rules: RuleSet, seats: int) -> tuple[str, ...]:
    """Cards-left and Pusoy Dos scoring, before anyone pays for the table."""
    if rules.scoring is Scoring.PUSOY_DOS:
        twos = facts.last_play_twos or 0
        earned = PUSOY_DOS_POINTS[twos]
        winner = winner_of(facts)
        return tuple(
            gettext(_WENT_OUT_ON[twos])
            if seat == winner
            else gettext("the winner earned %(points)s") % {"points": earned}
            for seat in range(seats)
        )
    assert facts.cards_left is not None
    twos_held = facts.twos_held or (0,) * len(facts.cards_left)
    lines = []
    for cards, twos in zip(facts.cards_left, twos_held, strict=True):
        if cards == 0:
            lines.append(gettext("went out"))
            continue
        parts = [_cards(cards, rules)]
        if facts.out_on_twos:
            parts.append(gettext("doubled: went out on twos"))
        if twos:
            parts.append(
                ngettext(
                    "doubled for the two held",
                    "doubled for each of the %(count)s twos held",
                    twos,
                )
                % {"count": twos}
            )
        lines.append(_joined(parts))
    return tuple(lines)


def _paid_for(
    lines: tuple[str, ...], facts: DealResult, rules: RuleSet, names: Sequence[str]
) -> tuple[str, ...]:
    """Pays for the table: the payer's line adds up every loser's penalty, the others say who
    paid theirs."""
    assert facts.pays is not None
    owed = base_penalties(facts, rules, len(names))
    winner = winner_of(facts)
    losers = [points for seat, points in enumerate(owed) if seat != winner]
    paid = gettext("%(payer)s pays for the table") % {"payer": names[facts.pays]}
    return tuple(
        gettext("pays for the table: %(sum)s") % {"sum": " + ".join(map(str, losers))}
        if seat == facts.pays
        else line
        if seat == winner
        else _joined([line, paid])
        for seat, line in enumerate(lines)
    )
