"""The league table: each player's figures over a set of games, aggregated by the database in one
query over the games' seats, whose per-game figures (`total`, `deals_played`, `deals_won`,
`thirteens`) `scoring.services.recompute` keeps in step with the deals; ranking the handful of
rows that come back is done here."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from fractions import Fraction

from django.db.models import Count, Min, Q, QuerySet, Sum

from scoring.models import Game, Player, Seat


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line in the table."""

    player_id: int
    name: str
    games: int
    wins: int  # games won, alone or sharing the win: a win shared is a win for each sharer
    deals: int
    deals_won: int
    penalty: int
    # None when none of the player's games asked for cards left (finishing order, points by
    # hand): the standings show a dash. Over a mix of games, it counts those that did.
    thirteens: int | None
    best: int
    rank: int = 0
    # The player's rating (scoring.selectors.ratings: μ − 3σ) as of the table's last game; None
    # before their first finished game.
    rating: float | None = None

    @property
    def win_share(self) -> Fraction:
        return Fraction(self.wins, self.games) if self.games else Fraction(0)

    @property
    def win_percent(self) -> float:
        return float(self.win_share * 100)

    @property
    def penalty_per_deal(self) -> Fraction:
        # Exact, so two players on 9/4 and 18/8 share a rank instead of splitting on rounding.
        return Fraction(self.penalty, self.deals) if self.deals else Fraction(0)

    @property
    def average_penalty(self) -> float:
        return float(self.penalty_per_deal)

    @property
    def rank_key(self) -> tuple[int, Fraction, int]:
        """Most games won, then the lower average penalty per deal, then more deals won."""
        return (-self.wins, self.penalty_per_deal, -self.deals_won)


FIGURES = {
    "games": Count("id"),
    # A win shared (scoring.models.Seat.won) is a game won for each player who shared it.
    "wins": Count("id", filter=Q(won=True)),
    "deals": Sum("deals_played"),
    "deals_won": Sum("deals_won"),
    "penalty": Sum("total"),
    "thirteens": Sum("thirteens"),
    "best": Min("total"),
}


def finished_seats(games: QuerySet[Game]) -> QuerySet[Seat]:
    """The seats of the finished games among `games`: games in progress count for nothing."""
    return Seat.objects.filter(game__in=games.filter(status=Game.Status.FINISHED))


def figures(seats: QuerySet[Seat], *group_by: str) -> QuerySet:
    """Each player's figures over `seats`, grouped by player (and `group_by`); one query."""
    return seats.values("player_id", "player__name", *group_by).annotate(**FIGURES).order_by()


def standing(row: dict) -> Standing:
    return Standing(
        player_id=row["player_id"],
        name=row["player__name"],
        **{name: row[name] for name in FIGURES},
    )


def standings(games: QuerySet[Game]) -> list[Standing]:
    """The league table over `games` (only the finished ones count), ranked; one query."""
    return ranked(standing(row) for row in figures(finished_seats(games)))


def ranked(lines: Iterable[Standing]) -> list[Standing]:
    """Ranked lines, best first; players still level share a rank (1, 2, 2, 4)."""
    ordered = sorted(lines, key=lambda line: (line.rank_key, line.name.casefold()))
    result: list[Standing] = []
    for position, line in enumerate(ordered, start=1):
        level = result and result[-1].rank_key == line.rank_key
        result.append(replace(line, rank=result[-1].rank if level else position))
    return result


def standings_by_season(player: Player) -> list[tuple[str, Standing]]:
    """The player's line in each season of their club they finished a game in, newest first."""
    return [
        (row["game__season__name"], standing(row))
        for row in figures(
            finished_seats(Game.objects.filter(club=player.club)).filter(player=player),
            "game__season_id",
            "game__season__name",
            "game__season__starts_on",
        ).order_by("-game__season__starts_on", "-game__season_id")
    ]


@dataclass(frozen=True, slots=True)
class OwnLine:
    """A member's own figures at one of their clubs: those of the player they said they are
    ("This is me"), over all the club's finished games."""

    player_id: int
    name: str
    club_name: str
    games: int
    wins: int
    deals: int
    penalty: int

    @property
    def average_penalty(self) -> float:
        return self.penalty / self.deals if self.deals else 0.0


def own_lines(user_id: int) -> list[OwnLine]:
    """The user's own line at each club where they said which player they are, by the clubs'
    names; zeros before their first finished game. One query."""
    done = Q(seats__game__status=Game.Status.FINISHED)
    rows = (
        Player.objects.filter(member__user_id=user_id)
        .values("pk", "name", "club__name")
        .annotate(
            games=Count("seats", filter=done),
            wins=Count("seats", filter=done & Q(seats__won=True)),
            deals=Sum("seats__deals_played", filter=done, default=0),
            penalty=Sum("seats__total", filter=done, default=0),
        )
        .order_by("club__name", "club_id")
    )
    return [
        OwnLine(
            player_id=row["pk"],
            name=row["name"],
            club_name=row["club__name"],
            **{name: row[name] for name in ("games", "wins", "deals", "penalty")},
        )
        for row in rows
    ]
