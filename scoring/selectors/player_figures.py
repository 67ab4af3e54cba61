"""A player's own figures over the finished games of their club: how often they went out
first, how often they were caught holding many cards, their average penalty a deal, their
longest run of games won, their best and worst game. One query over their seats; games in
progress count for nothing, as in the standings."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, F, Q

from scoring.models import Game, Player, Seat

# "Caught with many cards": the penalty scale doubles from 10 cards left (rules.deal_score).
MANY_CARDS = 10


@dataclass(frozen=True, slots=True)
class GamePlayed:
    game_id: int
    total: int
    finished_at: datetime


@dataclass(frozen=True, slots=True)
class PlayerFigures:
    games: int
    deals: int
    deals_won: int  # went out first (or showed a dragon)
    # The deals of the games whose rules record cards left (not finishing order, points by hand
    # or Pusoy Dos scoring), and how often the player was caught in them; None (a dash) when
    # none of their games recorded any.
    counted_deals: int
    caught_ten: int | None  # with MANY_CARDS or more
    caught_thirteen: int | None  # with a full hand
    penalty: int
    longest_run: int  # most games won (alone or shared) one after another, as they finished
    best: GamePlayed | None  # the lowest final total (the first such game)
    worst: GamePlayed | None  # the highest final total (the first such game)

    @property
    def went_out_percent(self) -> float:
        return 100 * self.deals_won / self.deals if self.deals else 0.0

    @property
    def average_penalty(self) -> float | None:
        return self.penalty / self.deals if self.deals else None


def _caught_with_many() -> Count:
    """The seat's deals ended holding MANY_CARDS or more, not counting the hand of a player who
    won at once with a dragon (recorded as holding all 13)."""
    return Count(
        "scores",
        filter=Q(scores__cards_left__gte=MANY_CARDS)
        & (Q(scores__deal__dragon_seat__isnull=True) | ~Q(scores__deal__dragon_seat=F("position"))),
    )


def _longest_run(won: list[bool]) -> int:
    longest = current = 0
    for game_won in won:
        current = current + 1 if game_won else 0
        longest = max(longest, current)
    return longest


def player_figures(player: Player) -> PlayerFigures:
    """The player's figures over their club's finished games; one query."""
    seats = list(
        Seat.objects.filter(player=player, game__status=Game.Status.FINISHED)
        .annotate(caught_ten=_caught_with_many())
        .order_by("game__finished_at", "game_id")
        .values(
            "game_id",
            "won",
            "game__finished_at",
            "total",
            "deals_played",
            "deals_won",
            "thirteens",
            "caught_ten",
        )
    )
    counted = [seat for seat in seats if seat["thirteens"] is not None]
    played = [
        GamePlayed(seat["game_id"], seat["total"], seat["game__finished_at"]) for seat in seats
    ]
    return PlayerFigures(
        games=len(seats),
        deals=sum(seat["deals_played"] for seat in seats),
        deals_won=sum(seat["deals_won"] for seat in seats),
        counted_deals=sum(seat["deals_played"] for seat in counted),
        caught_ten=sum(seat["caught_ten"] for seat in counted) if counted else None,
        caught_thirteen=sum(seat["thirteens"] for seat in counted) if counted else None,
        penalty=sum(seat["total"] for seat in seats),
        longest_run=_longest_run([seat["won"] for seat in seats]),
        # min and max keep the first of equals: the earliest game on that total.
        best=min(played, key=lambda game: game.total, default=None),
        worst=max(played, key=lambda game: game.total, default=None),
    )
