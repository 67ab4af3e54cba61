"""The migration that lets a win be shared marks the winner's seat of every game finished
before it, so the standings count the same wins after it as before; going back, a win shared
goes to the first of its sharers."""

from __future__ import annotations

import datetime

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("scoring", "0017_player_name_key_unique")]
AFTER = [("scoring", "0019_mark_the_winners")]


@pytest.fixture
def recorded_as_migrated():
    """The test database is made from the models (tests/conftest.py), as the last migrations
    leave it, with no migration recorded as applied: recorded, going back undoes real ones."""
    call_command("migrate", fake=True, verbosity=0)


def migrated(to):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(to)
    return executor.loader.project_state(to).apps


def latest():
    """Every app's last migration: where the test leaves the database for the tests after it."""
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def a_game(apps, names, totals, *, winner=None):
    """A game of the club at `names`' seats with these totals, finished if it has a winner."""
    club = apps.get_model("scoring", "Club").objects.get()
    season = club.seasons.get()
    now = datetime.datetime(2026, 12, 1, tzinfo=datetime.UTC)
    players = [
        club.players.get_or_create(name=name, defaults={"name_key": name.casefold()})[0]
        for name in names
    ]
    game = apps.get_model("scoring", "Game").objects.create(
        club=club,
        season=season,
        status="finished" if winner is not None else "in_progress",
        winner=players[winner] if winner is not None else None,
        finished_at=now if winner is not None else None,
    )
    for position, (player, total) in enumerate(zip(players, totals, strict=True)):
        game.seats.create(player=player, position=position, total=total)
    return game


@pytest.mark.django_db(transaction=True)
def test_every_game_finished_before_has_its_winners_seat_marked_and_back(recorded_as_migrated):
    apps = migrated(BEFORE)
    owner = apps.get_model("auth", "User").objects.create(username="owner")
    club = apps.get_model("scoring", "Club").objects.create(
        name="Before", owner=owner, invite_token="t", invite_digest="d"
    )
    club.seasons.create(name="Season 1", starts_on=datetime.date(2026, 1, 1), is_current=True)
    won = a_game(apps, ["Ann", "Ben", "Cy", "Dee"], [5, 9, 40, 117], winner=0)
    going_on = a_game(apps, ["Ann", "Ben", "Cy", "Dee"], [5, 5, 9, 9])

    apps = migrated(AFTER)
    seat = apps.get_model("scoring", "Seat")

    marked = seat.objects.filter(won=True)
    assert [(s.game_id, s.player.name) for s in marked] == [(won.pk, "Ann")]
    assert not seat.objects.filter(game_id=going_on.pk, won=True).exists()

    game = apps.get_model("scoring", "Game")
    game.objects.filter(pk=going_on.pk).update(
        status="finished",
        finished_at=datetime.datetime(2026, 12, 2, tzinfo=datetime.UTC),
        win_shared=True,
    )
    seat.objects.filter(game_id=going_on.pk, position__in=[0, 1]).update(won=True)

    apps = migrated(BEFORE)
    was_shared = apps.get_model("scoring", "Game").objects.get(pk=going_on.pk)
    assert was_shared.winner.name == "Ann"

    migrated(latest())
