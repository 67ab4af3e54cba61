"""A small club's ratings, rated in the write's own transaction (a few games to rate, at most
`RATED_IN_THE_WRITE`), against openskill's own run over the finished games that exist after
each kind of write that changes them. A big club's, rated after the commit, are
test_ratings.py's."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from scoring import services
from scoring.backup.restoring import import_club
from scoring.backup.writing import export_club
from scoring.models import Game, Player
from scoring.services.ratings import RATED_IN_THE_WRITE
from tests.factories import make_club, make_game, make_user, record
from tests.scoring.backup.support import empty_the_database
from tests.scoring.rated import openskill_run

pytestmark = pytest.mark.django_db

# Six games, each a different order of finishing: Fay and Eve never sit at one table, so Fay can
# be merged into Eve (a name typed two ways).
TABLES = (
    ("Ann", "Ben", "Cy", "Dee"),
    ("Ben", "Cy", "Dee", "Eve"),
    ("Ann", "Cy", "Dee", "Fay"),
    ("Ann", "Ben", "Dee", "Eve"),
    ("Ben", "Cy", "Eve", "Ann"),
    ("Dee", "Ann", "Fay", "Ben"),
)


def finished_game(club, names, loser_seat: int) -> Game:
    """A game to 100 where the winner of each deal is seat 1 and `loser_seat` holds 13."""
    game = make_game(club, list(names))
    while not game.is_finished:
        cards = [0, 5, 5, 5]
        cards[loser_seat] = 13
        record(game, *cards)
        game.refresh_from_db()
    return game


@pytest.fixture
def club_of_six_games(client, django_capture_on_commit_callbacks):
    owner = make_user()
    club = make_club(owner)
    with django_capture_on_commit_callbacks(execute=True):
        games = [
            finished_game(club, names, loser_seat=1 + number % 3)
            for number, names in enumerate(TABLES)
        ]
    client.force_login(owner)
    assert len(games) <= RATED_IN_THE_WRITE, "rated in each write's own transaction"
    return club, owner, games


def assert_matches_openskill(client, club) -> None:
    answer = client.get(reverse("scoring:ratings-json", args=[club.pk])).json()
    expected = openskill_run(club)
    got = {line["player"]: line for line in answer["players"]}
    assert set(got) == set(expected)
    for name, (mu, sigma, games) in expected.items():
        assert got[name]["games"] == games, name
        assert got[name]["mu"] == pytest.approx(mu, abs=0.01), name
        assert got[name]["sigma"] == pytest.approx(sigma, abs=0.01), name


def delete_game_2(club, owner, games) -> None:
    services.delete_game(game=games[1], by=owner)


def correct_a_deal(club, owner, games) -> None:
    services.edit_deal(game=games[1], number=1, cards_left=[13, 0, 13, 12], by=owner)


def move_to_another_season(club, owner, games) -> None:
    season = services.start_season(
        club=club, name="Winter", starts_on=datetime.date(2030, 1, 1), by=owner
    )
    services.move_game(game=games[2], season=season, by=owner)


def merge_two_players(club, owner, games) -> None:
    services.merge_player(
        player=Player.objects.get(club=club, name="Fay"),
        into=Player.objects.get(club=club, name="Eve"),
        by=owner,
    )


def undo_reopening_a_game(club, owner, games) -> None:
    services.undo_last_deal(game=games[1], by=owner)


def delete_then_undo_then_finish(club, owner, games) -> None:
    services.delete_game(game=games[4], by=owner)
    services.undo_last_deal(game=games[0], by=owner)
    record(games[0], 0, 13, 13, 13)


WRITES = (
    delete_game_2,
    correct_a_deal,
    move_to_another_season,
    merge_two_players,
    undo_reopening_a_game,
    delete_then_undo_then_finish,
)


@pytest.mark.parametrize("write", WRITES, ids=[write.__name__ for write in WRITES])
def test_each_write_leaves_the_ratings_of_the_games_that_exist(
    client, club_of_six_games, write, django_capture_on_commit_callbacks
):
    club, owner, games = club_of_six_games
    assert_matches_openskill(client, club)
    with django_capture_on_commit_callbacks(execute=True):
        write(club, owner, games)
    assert_matches_openskill(client, club)


def test_a_deleted_game_is_in_nobodys_count(client, club_of_six_games):
    """The finding: six games among five players, game 2 (Ben, Cy, Dee, Eve) deleted; Ben, Cy
    and Dee have four games left and Eve two, not the five and three of all six."""
    club, owner, games = club_of_six_games
    services.delete_game(game=games[1], by=owner)
    answer = client.get(reverse("scoring:ratings-json", args=[club.pk])).json()
    counts = {line["player"]: line["games"] for line in answer["players"]}
    assert counts == {"Ann": 5, "Ben": 4, "Cy": 3, "Dee": 4, "Eve": 2, "Fay": 2}


def test_a_restored_club_is_rated_as_its_games_stand(client, club_of_six_games):
    club, owner, games = club_of_six_games
    services.delete_game(game=games[1], by=owner)
    backup = export_club(club)
    empty_the_database()
    restored = import_club(backup)
    client.force_login(restored.owner)
    assert_matches_openskill(client, restored)
