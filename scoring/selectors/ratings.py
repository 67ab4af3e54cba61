"""The players' ratings as stored: read, never worked out here.

The ratings after each finished game are stored (`RatingSnapshot`), by the writes that change
games (`scoring.services.ratings`): in their transaction when a few games are to be rated, or
right after it commits. A read only reads them, so it never replays a club's history and never
writes. While the club's `RatingsMark` says they are stale (the after-commit rating hasn't run
yet, or found the database busy), the pages show the ratings as of the last game rated.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db.models import Max, OuterRef, Subquery

from scoring.models import Game, Player, RatingsMark, RatingSnapshot, Season, Seat
from scoring.selectors import rating_model
from scoring.selectors.rating_model import Played, Rated


def as_rated(row: RatingSnapshot) -> Rated:
    """A stored snapshot (read with its game)."""
    return Rated(
        row.sequence, row.game_id, row.game.season_id, row.player_id, row.mu, row.sigma, row.games
    )


def stored_latest(snapshots: Iterable[RatingSnapshot]) -> dict[int, Rated]:
    return {row.player_id: as_rated(row) for row in snapshots}


def latest(
    club_id: int, *, up_to: int | Subquery | None = None, players: Iterable[int] | None = None
) -> dict[int, Rated]:
    """Each player's rating now (or as of sequence `up_to`), by player id (of `players`
    alone, if given); one query."""
    rows = RatingSnapshot.objects.filter(club_id=club_id)
    if up_to is not None:
        rows = rows.filter(sequence__lte=up_to)
    if players is not None:
        rows = rows.filter(player_id__in=players)
    last = rows.filter(player_id=OuterRef("player_id")).order_by("-sequence").values("sequence")
    return stored_latest(rows.filter(sequence=Subquery(last[:1])).select_related("game"))


def as_of_season(season: Season) -> dict[int, Rated]:
    """Each player's rating as of the season's last finished game rated, by player id; one
    query."""
    in_season = RatingSnapshot.objects.filter(game__season=season).order_by("-sequence")
    return latest(season.club_id, up_to=Subquery(in_season.values("sequence")[:1]))


def last_sequence(club_id: int) -> int:
    """The place of the club's last game rated among its finished games (0: none); one
    query."""
    found = RatingSnapshot.objects.filter(club_id=club_id).aggregate(last=Max("sequence"))
    return found["last"] or 0


def mark_key(club_id: int) -> str:
    """What a cached page showing the club's ratings is kept under: whenever the ratings
    change, so does this. One query."""
    mark = RatingsMark.objects.filter(club_id=club_id).values_list("version", "stale").first()
    return "none" if mark is None else f"{mark[0]}{'s' if mark[1] else ''}"


def table(club_id: int) -> list[dict[str, object]]:
    """Every player with a rated game, the highest rating first (then by name)."""
    found = latest(club_id)
    names = dict(Player.objects.filter(pk__in=found).values_list("pk", "name"))
    lines = sorted(
        found.values(), key=lambda line: (-line.rating, names[line.player_id].casefold())
    )
    return [
        {
            "player": names[line.player_id],
            "mu": line.mu,
            "sigma": line.sigma,
            "rating": line.rating,
            "games": line.games,
        }
        for line in lines
    ]


def player_history(player: Player) -> list[Rated]:
    """The player's rating after each of their rated games, oldest first."""
    rows = RatingSnapshot.objects.filter(player=player).select_related("game").order_by("sequence")
    return [as_rated(row) for row in rows]


def win_chances(club_id: int, player_ids: Sequence[int]) -> list[int]:
    """Each player's chance of winning a game among `player_ids`, in whole percentages that
    add up to 100."""
    ratings = latest(club_id)
    return rating_model.win_chances([ratings.get(player) for player in player_ids])


def unrated_games(club_id: int, *, most: int | None = None) -> list[Played] | None:
    """The club's finished games without ratings stored (those after the last rated), in
    order; None if there are more than `most` (one query), else read in one or two."""
    unrated = Game.objects.filter(
        club_id=club_id, status=Game.Status.FINISHED, rating_snapshots__isnull=True
    )
    seats = Seat.objects.filter(game__in=unrated.values("pk"))
    if most is not None:
        found = list(unrated.order_by("finished_at", "pk").values_list("pk", flat=True)[: most + 1])
        if len(found) > most:
            return None
        seats = Seat.objects.filter(game_id__in=found)
    rows = seats.order_by("game__finished_at", "game_id", "position").values_list(
        "game_id", "game__season_id", "player_id", "total"
    )
    games: dict[int, Played] = {}
    for game_id, season_id, player_id, total in rows:
        games.setdefault(game_id, Played(game_id, season_id, [])).totals.append((player_id, total))
    return list(games.values())
