"""A game played with own counts: chosen on "New game" and on the club night form (the night's
games take it), kept by "Play again" and by a club's backup."""

from __future__ import annotations

import uuid

import pytest

from nights import services as night_services
from nights.models import Night
from scoring import services
from scoring.backup import export_club, import_club
from scoring.models import Game
from tests.factories import finish, make_club, make_player
from tests.nights.helpers import games_of
from tests.scoring.backup.support import empty_the_database
from tests.scoring.own.helpers import entered_by, own_game, send

pytestmark = pytest.mark.django_db

SEATS = {"seat_1": "Ann", "seat_2": "Ben", "seat_3": "Cy", "seat_4": "Dee"}
LABEL = "Each player enters their own cards"


@pytest.mark.parametrize(("ticked", "own"), [({"own_counts": "on"}, True), ({}, False)])
def test_new_game_asks_whether_each_player_enters_their_own_cards(client, ticked, own):
    club = make_club()
    client.force_login(club.owner)
    page = client.get(f"/clubs/{club.pk}/games/new/").content.decode()
    assert LABEL in page and 'type="checkbox" name="own_counts"' in page
    client.post(f"/clubs/{club.pk}/games/new/", SEATS | {"token": str(uuid.uuid4())} | ticked)
    assert Game.objects.get().own_counts is own


@pytest.mark.parametrize("own", [True, False])
def test_play_again_keeps_own_counts(own):
    club = make_club()
    game = services.start_game(
        club=club, seat_names=list(SEATS.values()), by=club.owner, own_counts=own
    )
    again = services.play_again(game=finish(game), by=club.owner)
    assert again.own_counts is own


def test_a_nights_games_take_its_own_counts(client):
    club = make_club()
    for name in SEATS.values():
        make_player(club, name)
    client.force_login(club.owner)
    assert LABEL in client.get(f"/clubs/{club.pk}/nights/new/").content.decode()
    ids = [str(pk) for pk in club.players.values_list("pk", flat=True)]
    client.post(
        f"/clubs/{club.pk}/nights/new/",
        {
            "here": ids,
            "new_players": "",
            "rounds": "2",
            "round_minutes": "",
            "token": str(uuid.uuid4()),
            "own_counts": "on",
        },
    )
    night = Night.objects.get()
    assert night.own_counts
    night_services.start_round(night=night, number=1, by=club.owner)
    assert [game.own_counts for game in games_of(night, 1)] == [True]


def test_a_backup_keeps_own_counts_and_who_entered_each_figure():
    game = own_game()
    for position, cards in enumerate([5, 0, 7, 9]):
        send(game, position, cards)
    backup = export_club(game.club)
    empty_the_database()
    club = import_club(backup)
    restored = Game.objects.get(club=club)
    assert restored.own_counts
    assert entered_by(restored) == ["ann", "ben", "cy", "dee"]
