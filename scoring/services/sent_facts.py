"""What the players of a game played with own counts sent of the deal being recorded: kept as
who entered each seat's figure, then cleared. Part of every deal's recording
(`deals.record_locked`), so it imports no other write."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser

from rules.deal_score import ScoredDeal
from scoring.models import DealFilling, Game, SentFacts
from scoring.models.facts import score_rows

# A seat's own facts, as `SentFacts` keeps them and a `DealScore` stores them.
SEAT_FACTS = ("cards_left", "twos_held", "place", "points")


def same_as_recorded(row: SentFacts, recorded: dict[str, object], scored: ScoredDeal) -> bool:
    """Whether what a seat sent is what the deal recorded for it (`recorded`: its score row)."""
    for name in SEAT_FACTS:
        value = getattr(row, name)
        if value is not None and value != recorded[name]:
            return False
    twos = row.last_play_twos
    return twos is None or twos == scored.facts.last_play_twos


def senders_kept(
    locked: Game, number: int, scored: ScoredDeal, by: AbstractBaseUser
) -> list[AbstractBaseUser | None]:
    """Who entered each seat's figure of deal `number`, just recorded by `by` (in seat order):
    a seat whose player sent the figure the deal recorded keeps them as its sender, any other
    seat is `by`'s. The game's deal filling in is cleared (two queries, on the game's lock)."""
    sent = {
        row.seat.position: row
        for row in SentFacts.objects.filter(filling__game=locked, filling__number=number)
        .select_related("seat", "by")
        .order_by()
    }
    DealFilling.objects.filter(game=locked).delete()
    return [
        row.by if row is not None and same_as_recorded(row, recorded, scored) else by
        for row, recorded in (
            (sent.get(position), recorded) for position, recorded in enumerate(score_rows(scored))
        )
    ]
