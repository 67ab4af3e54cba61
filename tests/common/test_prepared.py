"""Reads whose SQL is built once (common/prepared.py) give what the ORM gives, on the database
the suite runs on, from any thread, and refuse a query whose values they can't swap."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connections

from common.prepared import PreparedQuery
from scoring.models import Game, Seat
from tests.factories import make_club, make_game, make_member, make_user

pytestmark = pytest.mark.django_db


def members_games(game_id: int, user_id: int):
    return Game.objects.select_related("club", "season").filter(
        pk=game_id, club__memberships__user=user_id
    )


member_game = PreparedQuery(members_games, "game_id", "user_id")


@pytest.fixture
def clubs():
    """Two clubs of two games each; Ann is a member of the first only."""
    ann = make_user("ann")
    first, second = make_club(ann, name="Friday table"), make_club(make_user("bo"), name="Other")
    return ann, [make_game(first), make_game(first), make_game(second), make_game(second)]


def test_each_call_gets_its_own_values_rows_as_the_orm_gives_them(clubs):
    ann, games = clubs
    for game in games:
        expected = list(members_games(game.pk, ann.pk))
        got = member_game(game_id=game.pk, user_id=ann.pk)
        assert got == expected
        assert [g.__dict__.keys() for g in got] == [g.__dict__.keys() for g in expected]
    assert [len(member_game(game_id=game.pk, user_id=ann.pk)) for game in games] == [1, 1, 0, 0]
    # An account's id is a 32-bit column (auth's AutoField): the stand-in fits it too.
    account = PreparedQuery(lambda user_id: get_user_model().objects.filter(pk=user_id), "user_id")
    assert account(user_id=ann.pk) == [ann]


def test_related_objects_come_with_the_row_in_one_query(clubs, django_assert_num_queries):
    ann, games = clubs
    member_game(game_id=games[0].pk, user_id=ann.pk)  # built outside the count
    with django_assert_num_queries(1):
        (game,) = member_game(game_id=games[1].pk, user_id=ann.pk)
        assert (game.club.name, game.season.club_id) == ("Friday table", game.club.pk)


def test_ordering_and_values_rows_are_kept():
    club = make_club(make_user("ann"))
    game = make_game(club, names=["Ann", "Ben", "Cy", "Dee"])
    seats = PreparedQuery(
        lambda game_id: (
            Seat.objects.filter(game_id=game_id)
            .order_by("-position")
            .values_list("position", "player__name")
        ),
        "game_id",
    )
    assert seats(game_id=game.pk) == [(3, "Dee"), (2, "Cy"), (1, "Ben"), (0, "Ann")]
    assert seats(game_id=game.pk + 1000) == []


@pytest.mark.django_db(transaction=True)
def test_a_thread_runs_it_on_its_own_connection():
    """Built on this thread, run on another: Django's connections are per thread, and a
    compiler kept with the first one's would be refused there (or worse, share it)."""
    ann = make_user("ann")
    club = make_club(ann)
    make_member(club, "bo")
    game = make_game(club)
    assert member_game(game_id=game.pk, user_id=ann.pk)
    found = []

    def read() -> None:
        try:
            found.extend(member_game(game_id=game.pk, user_id=ann.pk))
        finally:
            connections.close_all()

    thread = threading.Thread(target=read)
    thread.start()
    thread.join(timeout=30)
    assert [g.pk for g in found] == [game.pk]


def test_values_must_be_named_as_prepared_and_be_ids(clubs):
    ann, games = clubs
    with pytest.raises(TypeError, match="expected the values"):
        member_game(game_id=1)
    with pytest.raises(TypeError, match="game_id must be an id"):
        member_game(game_id=games[0], user_id=ann.pk)


def test_a_value_the_sql_does_not_carry_as_a_parameter_is_refused(db):
    ignored = PreparedQuery(
        lambda game_id, user_id: Game.objects.filter(pk=game_id), "game_id", "user_id"
    )
    with pytest.raises(ValueError, match=r"doesn't take \['user_id'\]"):
        ignored(game_id=1, user_id=2)


def test_a_value_that_is_not_an_id_is_refused_when_first_built(db):
    """A seat's position is a small number: no stand-in fits its column, so no SQL is made."""
    by_position = PreparedQuery(lambda position: Seat.objects.filter(position=position), "position")
    with pytest.raises(ValueError, match="only ids can be prepared"):
        by_position(position=1)
