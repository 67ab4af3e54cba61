"""Rating a club again after a change to an old game is the long part of keeping ratings: it
holds no transaction (so no lock a table's deal waits on) while it reads and computes, and a
change that commits meanwhile is never overwritten by what it worked out (the RatingsMark's
version). Every write here really commits, its after-commit work running as a request's does:
on SQLite and on PostgreSQL."""

from __future__ import annotations

import random

import pytest
from django.db import OperationalError, connection

from scoring import services
from scoring.models import Game, RatingsMark
from scoring.selectors import ratings
from scoring.services import ratings as rating_writes
from tests.factories import make_club, make_game, make_user, record
from tests.scoring.rated import openskill_run

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve")
# More games than a write rates in its own transaction, so that a change to the second is
# rated after it commits.
GAMES = rating_writes.RATED_IN_THE_WRITE + 5


def rated_club() -> tuple[object, object, list[Game]]:
    """A club of GAMES finished games among four of NAMES, each rated as it finished."""
    owner = make_user()
    club = make_club(owner)
    rng = random.Random(36)
    games = []
    for _ in range(GAMES):
        game = make_game(club, rng.sample(NAMES, 4))
        while not game.is_finished:
            cards = [rng.choice((5, 12, 13)) for _ in range(4)]
            cards[rng.randrange(4)] = 0
            record(game, *cards)
            game.refresh_from_db()
        games.append(game)
    return club, owner, games


def assert_matches_openskill(club) -> None:
    expected = openskill_run(club)
    stored = {line["player"]: line for line in ratings.table(club.pk)}
    assert set(stored) == set(expected)
    for name, (mu, sigma, games) in expected.items():
        assert stored[name]["mu"] == pytest.approx(mu, abs=0.01)
        assert stored[name]["sigma"] == pytest.approx(sigma, abs=0.01)
        assert stored[name]["games"] == games
    assert not RatingsMark.objects.get(club=club).stale


def in_a_transaction() -> bool:
    """Whether this thread's connection holds a transaction open, Django's or (SQLite's read
    snapshot, begun behind Django's back) the database's own."""
    if connection.in_atomic_block:
        return True
    raw = connection.connection
    return connection.vendor == "sqlite" and raw is not None and raw.in_transaction


def test_a_change_to_an_old_game_is_rated_after_it_commits_with_no_transaction_open(
    monkeypatch,
):
    club, owner, games = rated_club()
    open_while_rating = []
    real = rating_writes.rate

    def watched(*args, **kwargs):
        open_while_rating.append(in_a_transaction())
        return real(*args, **kwargs)

    monkeypatch.setattr(rating_writes, "rate", watched)

    services.delete_game(game=games[1], by=owner)

    assert open_while_rating == [False], "rated once, after the commit, holding nothing"
    assert_matches_openskill(club)


def test_a_change_committed_while_the_ratings_are_worked_out_is_not_overwritten(monkeypatch):
    """Two servers: while one works out the ratings after a change, another phone's change
    commits, and that change's own after-commit rating runs last. What the first worked out
    is of the club before that change: it must store none of it."""
    club, owner, games = rated_club()
    left_for_later = []
    real = rating_writes.rate

    def another_change_meanwhile(played, start, first_sequence):
        if not left_for_later:
            with monkeypatch.context() as patch:
                patch.setattr(rating_writes, "refresh_quietly", left_for_later.append)
                # Its last deal undone: a game the first was rating is unfinished now.
                services.undo_last_deal(game=games[4], by=owner)
        return real(played, start, first_sequence)

    monkeypatch.setattr(rating_writes, "rate", another_change_meanwhile)

    services.delete_game(game=games[1], by=owner)

    assert left_for_later == [club.pk]
    assert RatingsMark.objects.get(club=club).stale, "what was worked out before it, not stored"
    rating_writes.refresh_quietly(club.pk)  # the later change's after-commit work
    assert_matches_openskill(club)


def test_a_busy_database_leaves_the_rating_to_the_clubs_next_change(monkeypatch):
    """The change commits whatever its after-commit rating meets: a database too busy to
    answer leaves the ratings as of the last game rated, and the club's next change rates
    every game still to rate."""
    club, owner, games = rated_club()
    real = rating_writes.refresh

    def busy(club_id):
        raise OperationalError("database is locked")

    monkeypatch.setattr(rating_writes, "refresh", busy)
    services.delete_game(game=games[1], by=owner)
    assert not Game.objects.filter(pk=games[1].pk).exists()
    assert RatingsMark.objects.get(club=club).stale

    monkeypatch.setattr(rating_writes, "refresh", real)
    services.undo_last_deal(game=games[-1], by=owner)
    assert_matches_openskill(club)
