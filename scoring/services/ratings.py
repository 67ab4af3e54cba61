"""Keeping the stored ratings up to date: the writes that change a club's finished games call
`ratings_changed` (or `game_rerated`) in their transaction, and nothing else writes ratings.

It counts the club's `RatingsMark` version up and deletes the snapshots from the first game
the change touched on, so what is left is always a valid prefix. Then the games after it are
rated again: in the same transaction when there are a few (a game that just finished: one), so
the ratings are whole the moment the change commits; otherwise right after the commit, in the
same request, by `refresh`. That work is long for a big club (every game after an old one
changed), so it holds no lock while it reads and computes: it reads the mark's version with
the games in one snapshot, rates them outside any transaction, and then stores the result in
a short one only if the mark is still at that version. A change that came meanwhile moved the
version on and rates again itself once it commits. See docs/ratings.md.
"""

from __future__ import annotations

import datetime
import logging

from django.db import DatabaseError, transaction
from django.db.models import Q, Subquery

from scoring.models import Game, RatingsMark, RatingSnapshot
from scoring.selectors.rating_model import Played, Rated, rate
from scoring.selectors.ratings import last_sequence, latest, unrated_games
from scoring.selectors.snapshot import read_snapshot

logger = logging.getLogger(__name__)

# The most games a write rates again in its own transaction (a few milliseconds' work); more
# are rated right after it commits, outside its lock.
RATED_IN_THE_WRITE = 10

Position = tuple[datetime.datetime, int]


def position(game: Game) -> Position | None:
    """Where a game stands in its club's order of finished games; None while it isn't."""
    if game.status != Game.Status.FINISHED or game.finished_at is None:
        return None
    return (game.finished_at, game.pk)


def ratings_changed(club_id: int, *, since: Position | None, game_id: int | None = None) -> None:
    """The club's ratings from the finished game at `since` on (all of them if None), and
    those after game `game_id` wherever it stood, are out of date. Call it in the transaction
    of the change, once the change is made: it may rate the games at once, as they stand (a
    game about to be deleted would be rated with the rest). The mark is locked before the
    snapshots are deleted, so a `refresh` that read the games before this change stores
    nothing over it."""
    mark = _locked_mark(club_id)
    mark.version += 1
    snapshots = RatingSnapshot.objects.filter(club_id=club_id)
    if since is not None:
        at, pk = since
        later = Q(game__finished_at__gt=at) | Q(game__finished_at=at, game_id__gte=pk)
        if game_id is not None:
            later |= Q(game_id=game_id)
        first = snapshots.filter(later).order_by("sequence").values_list("sequence", flat=True)
        snapshots = snapshots.filter(sequence__gte=Subquery(first[:1]))
    snapshots.delete()
    games = unrated_games(club_id, most=RATED_IN_THE_WRITE)
    mark.stale = games is None
    if games is not None:
        _store(club_id, rate(games, *_start(club_id, games)))
    else:
        transaction.on_commit(lambda: refresh_quietly(club_id))
    mark.save(update_fields=["stale", "version"])


def game_rerated(game: Game, was: Position | None) -> None:
    """`ratings_changed` for a game whose result may have changed (it was at `was`)."""
    now = position(game)
    if was is None and now is None:
        return
    since = min(point for point in (was, now) if point is not None)
    ratings_changed(game.club_id, since=since, game_id=game.pk)


def refresh(club_id: int) -> bool:
    """The club's ratings brought up to date, from the last snapshot still valid on; whether
    they are (False: a change came meanwhile, and rates them itself once it commits). Call it
    outside a transaction: it reads in one snapshot, rates with no lock held, and stores in a
    short transaction of its own."""
    with read_snapshot():
        version = (
            RatingsMark.objects.filter(club_id=club_id, stale=True)
            .values_list("version", flat=True)
            .first()
        )
        if version is None:
            return True
        games = unrated_games(club_id) or []
        start, first = _start(club_id, games)
    rated = rate(games, start, first)
    with transaction.atomic():
        mark = _locked_mark(club_id)
        if mark.version != version or not mark.stale:
            return not mark.stale
        _store(club_id, rated)
        mark.stale = False
        mark.save(update_fields=["stale"])
    return True


def refresh_quietly(club_id: int) -> None:
    """`refresh` once a change has committed; a busy database leaves the ratings as of the
    last game rated until the club's next change."""
    try:
        refresh(club_id)
    except DatabaseError:
        logger.warning("ratings of club %s left for its next change", club_id, exc_info=True)


def _start(club_id: int, games: list[Played]) -> tuple[dict[int, Rated], int]:
    """What rating `games` starts from: their players' last stored ratings, and the place of
    the first of them among the club's finished games. Two queries."""
    players = {player for game in games for player, _total in game.totals}
    return latest(club_id, players=players), last_sequence(club_id) + 1


def _locked_mark(club_id: int) -> RatingsMark:
    RatingsMark.objects.bulk_create([RatingsMark(club_id=club_id)], ignore_conflicts=True)
    return RatingsMark.objects.select_for_update().get(club_id=club_id)


def _store(club_id: int, rated: list[Rated]) -> None:
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
        for line in rated
    )
