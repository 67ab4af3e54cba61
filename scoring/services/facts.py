"""A deal's facts as the rows store them and as the rules engine reads them, both ways.

The engine scores a `DealResult` (`rules.deal_score.score_deal`); a deal is stored as a `Deal`
(the facts about the whole deal: went out on twos, the twos in the last play, the dragon, who
paid for the table) and a `DealScore` a seat (cards left, twos held, place, points typed, and
the penalty the engine charged). `facts_of` reads the rows back into exactly the facts that were
scored, so a game replays as it was played; `deal_row` and `score_rows` are what to store.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from rules.deal_checks import DealResult, base_penalties
from rules.deal_score import ScoredDeal, facts_wanted
from rules.ruleset import RuleSet
from scoring.models import Deal
from scoring.wording import list_of


def facts_of(
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


def stored_facts(rules: RuleSet, deal: Deal) -> DealResult:
    """The facts of a deal read with its scores (in any order: they are put in seat order)."""
    scores = sorted(deal.scores.all(), key=lambda score: score.seat.position)
    return facts_of(
        rules,
        out_on_twos=deal.out_on_twos,
        last_play_twos=deal.last_play_twos,
        dragon_seat=deal.dragon_seat,
        payer_seat=deal.payer_seat,
        cards_left=[score.cards_left for score in scores],
        twos_held=[score.twos_held for score in scores],
        places=[score.place for score in scores],
        points=[score.points for score in scores],
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
        return _("%(name)s's dragon") % {"name": names[facts.dragon]}
    if facts.order is not None:
        return _("out in this order: %(names)s") % {
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
        said.append(_("went out on twos"))
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
        said.append(_("%(payer)s pays for the table") % {"payer": names[facts.pays]})
    return said
