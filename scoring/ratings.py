"""Each player's rating: openskill's Plackett-Luce model run over every finished game of their
club, in the order the games finished (then by id); see docs/ratings.md.

The ratings after each game are stored (`RatingSnapshot`), so a page reads them rather than
replaying a club's history. A write that changes a finished game (or finishes one) calls
`ratings_changed` in its transaction: the snapshots from that game on go, and the club's
`RatingsMark` says the rest are to be worked out again. `refresh` does that from the last
snapshot left, under the mark's lock, once the write commits. A read never writes: until then
(or if that refresh found the database busy) the reads below work the rest out in memory, once
a version of the club's ratings, kept in Django's cache (`scoring.caching.ratings_key`).
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.core.cache import cache
from django.db import DatabaseError, transaction
from django.db.models import OuterRef, Q, Subquery
from openskill.models import PlackettLuce

from scoring.caching import ratings_key
from scoring.models import Club, Game, Player, RatingsMark, RatingSnapshot, Season, Seat, ordinal

logger = logging.getLogger(__name__)

MODEL_NAME = "PlackettLuce"


def model() -> PlackettLuce:
    """The model at openskill's default settings (μ 25, σ 25/3)."""
    return PlackettLuce()


@dataclass(frozen=True, slots=True)
class Rated:
    """A player's rating after one of their club's finished games."""

    sequence: int  # the game's place among the club's finished games, from 1
    game_id: int
    season_id: int
    player_id: int
    mu: float
    sigma: float
    games: int  # their finished games so far

    @property
    def rating(self) -> float:
        return ordinal(self.mu, self.sigma)


@dataclass(frozen=True, slots=True)
class Played:
    """A finished game as the model reads it: each player's final total, by seat."""

    game_id: int
    season_id: int
    totals: list[tuple[int, int]]  # (player id, total)


def finishing_ranks(totals: Sequence[int]) -> list[int]:
    """Fewest points first; equal totals share a rank (1, 2, 2, 4)."""
    return [1 + sum(1 for other in totals if other < total) for total in totals]


def rate(games: Iterable[Played], start: dict[int, Rated], first_sequence: int) -> list[Rated]:
    """Each player's rating after each of `games`, in order, from their ratings in `start`."""
    skill = model()
    latest = dict(start)
    rated: list[Rated] = []
    for sequence, game in enumerate(games, start=first_sequence):
        players = [player for player, _total in game.totals]
        before = [
            skill.rating(mu=latest[player].mu, sigma=latest[player].sigma)
            if player in latest
            else skill.rating()
            for player in players
        ]
        ranks = finishing_ranks([total for _player, total in game.totals])
        after = skill.rate([[rating] for rating in before], ranks=[float(rank) for rank in ranks])
        for player, (new,) in zip(players, after, strict=True):
            done = latest[player].games + 1 if player in latest else 1
            latest[player] = Rated(
                sequence, game.game_id, game.season_id, player, new.mu, new.sigma, done
            )
            rated.append(latest[player])
    return rated


# Writes


Position = tuple[datetime.datetime, int]


def position(game: Game) -> Position | None:
    """Where a game stands in its club's order of finished games; None while it isn't."""
    if game.status != Game.Status.FINISHED or game.finished_at is None:
        return None
    return (game.finished_at, game.pk)


def ratings_changed(club_id: int, *, since: Position | None, game_id: int | None = None) -> None:
    """The club's ratings from the finished game at `since` on (all of them if None), and
    those after game `game_id` wherever it stood, are out of date. Call it in the transaction
    of the change. The mark is locked before the snapshots are deleted, so a `refresh` that
    read the games before this change commits its snapshots first, and they are deleted here."""
    RatingsMark.objects.bulk_create([RatingsMark(club_id=club_id)], ignore_conflicts=True)
    mark = RatingsMark.objects.select_for_update().get(club_id=club_id)
    mark.stale = True
    mark.version += 1
    mark.save(update_fields=["stale", "version"])
    snapshots = RatingSnapshot.objects.filter(club_id=club_id)
    if since is not None:
        at, pk = since
        later = Q(game__finished_at__gt=at) | Q(game__finished_at=at, game_id__gte=pk)
        if game_id is not None:
            later |= Q(game_id=game_id)
        first = snapshots.filter(later).order_by("sequence").values_list("sequence", flat=True)
        snapshots = snapshots.filter(sequence__gte=Subquery(first[:1]))
    snapshots.delete()
    transaction.on_commit(lambda: refresh_quietly(club_id))


def game_rerated(game: Game, was: Position | None) -> None:
    """`ratings_changed` for a game whose result may have changed (it was at `was`)."""
    now = position(game)
    if was is None and now is None:
        return
    since = min(point for point in (was, now) if point is not None)
    ratings_changed(game.club_id, since=since, game_id=game.pk)


def refresh(club_id: int) -> RatingsMark:
    """The club's ratings brought up to date, from the last snapshot still valid on."""
    mark = RatingsMark.objects.filter(club_id=club_id).first()
    if mark is not None and not mark.stale:
        return mark
    with transaction.atomic():
        RatingsMark.objects.bulk_create([RatingsMark(club_id=club_id)], ignore_conflicts=True)
        mark = RatingsMark.objects.select_for_update().get(club_id=club_id)
        if mark.stale:
            RatingSnapshot.objects.bulk_create(
                RatingSnapshot(
                    club_id=club_id,
                    game_id=line.game_id,
                    player_id=line.player_id,
                    sequence=line.sequence,
                    mu=line.mu,
                    sigma=line.sigma,
                    games=line.games,
                )
                for line in unstored(club_id)
            )
            mark.stale = False
            mark.save(update_fields=["stale"])
    return mark


def refresh_quietly(club_id: int) -> None:
    """`refresh` once a change has committed; a busy database leaves it to the next read."""
    try:
        refresh(club_id)
    except DatabaseError:
        logger.warning("ratings of club %s left for the next read", club_id, exc_info=True)


# Reads


def as_rated(row: RatingSnapshot) -> Rated:
    """A stored snapshot (read with its game)."""
    return Rated(
        row.sequence, row.game_id, row.game.season_id, row.player_id, row.mu, row.sigma, row.games
    )


def stored_latest(snapshots: Iterable[RatingSnapshot]) -> dict[int, Rated]:
    return {row.player_id: as_rated(row) for row in snapshots}


def latest_stored(club_id: int, *, up_to: int | Subquery | None = None) -> dict[int, Rated]:
    """Each player's last stored rating (at or before sequence `up_to`); one query."""
    rows = RatingSnapshot.objects.filter(club_id=club_id)
    if up_to is not None:
        rows = rows.filter(sequence__lte=up_to)
    last = rows.filter(player_id=OuterRef("player_id")).order_by("-sequence").values("sequence")
    return stored_latest(rows.filter(sequence=Subquery(last[:1])).select_related("game"))


def unrated_games(club_id: int) -> list[Played]:
    """The club's finished games without snapshots (those after the last rated), in order."""
    rows = (
        Seat.objects.filter(
            game__club_id=club_id,
            game__status=Game.Status.FINISHED,
            game__rating_snapshots__isnull=True,
        )
        .order_by("game__finished_at", "game_id", "position")
        .values_list("game_id", "game__season_id", "player_id", "total")
    )
    games: dict[int, Played] = {}
    for game_id, season_id, player_id, total in rows:
        games.setdefault(game_id, Played(game_id, season_id, [])).totals.append((player_id, total))
    return list(games.values())


def unstored(club_id: int, start: dict[int, Rated] | None = None) -> list[Rated]:
    """The ratings after each finished game not yet stored, worked out from the stored ones."""
    start = latest_stored(club_id) if start is None else start
    last = max((line.sequence for line in start.values()), default=0)
    return rate(unrated_games(club_id), start, last + 1)


# What a read works out in memory is of one version of the club's ratings: kept until no
# longer asked for.
KEPT_SECONDS = 86400


def stale_key(club_id: int) -> str | None:
    """None while the stored ratings cover every finished game of the club; else the key that
    what they miss is kept under (`caching.ratings_key`). One query."""
    mark = (
        Club.objects.filter(pk=club_id)
        .values_list("created_at", "ratings_mark__stale", "ratings_mark__version")
        .first()
    )
    if mark is None:
        return None  # no club: nothing to rate
    created_at, stale, version = mark
    if stale is False:
        return None
    return ratings_key(club_id, created_at, version or 0)


def missing(club_id: int, key: str, start: dict[int, Rated] | None = None) -> list[Rated]:
    """`unstored`, worked out once for the version of the club's ratings that `key` names
    (`stale_key`) and kept in Django's cache: a big club's history isn't replayed on every
    request while its stored ratings wait for the next write to bring them up to date."""
    return cache.get_or_set(key, lambda: unstored(club_id, start), KEPT_SECONDS)


def mark_key(club_id: int) -> str:
    """What a cached page showing the club's ratings is kept under: whenever the ratings
    change, so does this. One query."""
    mark = RatingsMark.objects.filter(club_id=club_id).values_list("version", "stale").first()
    return "none" if mark is None else f"{mark[0]}{'s' if mark[1] else ''}"


def latest(club_id: int) -> dict[int, Rated]:
    """Each player's rating now, by player id: two queries when nothing changed."""
    key = stale_key(club_id)
    stored = latest_stored(club_id)
    if key is None:
        return stored
    return stored | {line.player_id: line for line in missing(club_id, key, stored)}


def as_of_season(season: Season) -> dict[int, Rated]:
    """Each player's rating as of the season's last finished game, by player id: two queries
    when nothing changed."""
    key = stale_key(season.club_id)
    in_season = RatingSnapshot.objects.filter(game__season=season).order_by("-sequence")
    found = latest_stored(season.club_id, up_to=Subquery(in_season.values("sequence")[:1]))
    if key is None:
        return found
    extra = missing(season.club_id, key)
    cut = max(
        [line.sequence for line in found.values()]
        + [line.sequence for line in extra if line.season_id == season.pk],
        default=0,
    )
    return found | {line.player_id: line for line in extra if line.sequence <= cut}


def table(club_id: int) -> list[dict[str, object]]:
    """Every player with a finished game, the highest rating first (then by name)."""
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
    """The player's rating after each of their finished games, oldest first."""
    key = stale_key(player.club_id)
    stored = [
        as_rated(row)
        for row in RatingSnapshot.objects.filter(player=player)
        .select_related("game")
        .order_by("sequence")
    ]
    if key is None:
        return stored
    extra = missing(player.club_id, key)
    return stored + [line for line in extra if line.player_id == player.pk]


def win_chances(club_id: int, player_ids: Sequence[int]) -> list[int]:
    """Each player's chance of winning a game among `player_ids`, in whole percentages that
    add up to 100 (the largest remainders rounded up)."""
    ratings = latest(club_id)
    skill = model()
    teams = [
        [
            skill.rating(mu=ratings[player].mu, sigma=ratings[player].sigma)
            if player in ratings
            else skill.rating()
        ]
        for player in player_ids
    ]
    return whole_percentages(skill.predict_win(teams))


def whole_percentages(shares: Sequence[float]) -> list[int]:
    """Shares of 1 as whole percentages adding up to exactly 100: each rounded down, then one
    more point to the largest remainders (the first seat first among equal ones)."""
    total = sum(shares) or 1.0
    exact = [share / total * 100 for share in shares]
    whole = [int(value) for value in exact]
    by_remainder = sorted(range(len(exact)), key=lambda index: (whole[index] - exact[index], index))
    for index in by_remainder[: 100 - sum(whole)]:
        whole[index] += 1
    return whole
