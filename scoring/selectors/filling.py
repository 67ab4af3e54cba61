"""A deal filling in, as the phones show it: who has sent their own figure, who the table is
waiting for, and what is wrong with the deal when the figures are all in but make no valid
deal (the rules engine's words, which name whose figure it is); who entered each recorded
figure."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.base_user import AbstractBaseUser

from rules.deal_score import DealRefused, score_deal
from scoring.models import DealScore, Game, Seat, SentFacts
from scoring.models.facts import table_facts


@dataclass(frozen=True, slots=True)
class Filling:
    """Deal `number` filling in: each seat's facts sent (in seat order, None for a seat still
    to send), the names of the seats that sent and of those waited for, and the problems of a
    deal whose figures are in but make no valid deal (empty otherwise)."""

    number: int
    sent: tuple[SentFacts | None, ...]
    sent_names: tuple[str, ...]
    waiting: tuple[str, ...]
    problems: tuple[str, ...]
    # Each seat's name and the figure it sent (its place, points or cards left), None if not.
    figures: tuple[tuple[str, int | None], ...] = ()


def deal_filling(game: Game, seats: Sequence[Seat]) -> Filling | None:
    """The game's next deal as its players have sent it so far (`seats`: the game's, in order,
    with their players), or None when nothing is being sent (one query; none for a game kept
    on one phone)."""
    if not game.own_counts or not seats:
        return None
    number = seats[0].deals_played + 1
    rows = {
        row.seat_id: row
        for row in SentFacts.objects.filter(filling__game=game, filling__number=number)
        .select_related("by")
        .order_by()
    }
    if not rows:
        return None
    sent = tuple(rows.get(seat.pk) for seat in seats)
    names = [seat.player.name for seat in seats]
    problems: tuple[str, ...] = ()
    facts = table_facts(game.ruleset, sent)
    if facts is not None:
        try:
            score_deal(facts, game.ruleset, names=names)
        except DealRefused as refused:
            problems = tuple(refused.problems)
    return Filling(
        number=number,
        sent=sent,
        sent_names=tuple(name for name, row in zip(names, sent, strict=True) if row is not None),
        waiting=tuple(name for name, row in zip(names, sent, strict=True) if row is None),
        problems=problems,
        figures=tuple(
            (name, None if row is None else _figure(row))
            for name, row in zip(names, sent, strict=True)
        ),
    )


def _figure(row: SentFacts) -> int | None:
    return next(
        (value for value in (row.place, row.points, row.cards_left) if value is not None), None
    )


def member_seat(game: Game, user: AbstractBaseUser) -> Seat | None:
    """The user's own seat at `game`: its player is the member they are (one query)."""
    if user.pk is None:
        return None
    return Seat.objects.filter(game=game, player__member__user_id=user.pk).first()


def entered_by(game: Game) -> dict[int, list[str | None]]:
    """Each deal's senders by number: in seat order, the username of whoever entered that
    seat's figure (its player, or whoever recorded the deal for the table), None where unknown
    (one query)."""
    senders: dict[int, list[str | None]] = {}
    rows = (
        DealScore.objects.filter(deal__game=game)
        .order_by("deal__number", "seat__position")
        .values_list("deal__number", "entered_by__username")
    )
    for number, username in rows:
        senders.setdefault(number, []).append(username)
    return senders
