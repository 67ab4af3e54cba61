"""A three-player season (issue 29, item 10): its new-game form seats three, and "Play again"
on a four-player game says, before it is tapped, that the season now seats another number."""

from __future__ import annotations

import datetime
import re

import pytest

from rules.ruleset import parse_rules
from scoring import services
from tests.factories import finish, make_game
from tests.pages import text

pytestmark = pytest.mark.django_db


def three_player_season(club):
    return services.start_season(
        club=club,
        name="Three of us",
        starts_on=datetime.date.today(),
        rules=parse_rules("3-players"),
        by=club.owner,
    )


def test_a_three_player_seasons_new_game_form_seats_three(owner_client, club):
    make_game(club)  # a four-player game in the first season
    three_player_season(club)
    page = text(owner_client.get(f"/clubs/{club.pk}/games/new/"))
    assert "Seat the three players clockwise." in page
    assert "four players" not in page
    assert re.findall(r'<label for="id_seat_\d">([^<]+)</label>', page) == [
        "Seat 1",
        "Seat 2",
        "Seat 3",
    ]
    assert 'name="seat_4"' not in page


def test_a_four_player_season_chosen_on_the_form_shows_its_fourth_seat(owner_client, club):
    first = club.seasons.get(is_current=True)
    three_player_season(club)
    sent = {"seat_1": "Ann", "seat_2": "Ben", "seat_3": "Cy", "season": str(first.pk)}
    page = text(owner_client.post(f"/clubs/{club.pk}/games/new/", sent))
    assert "Seat the four players clockwise." in page
    assert "Seat 4 is empty — who sits there?" in page
    assert 'name="seat_4"' in page


def test_play_again_says_before_a_tap_that_the_season_seats_three(owner_client, club):
    game = finish(make_game(club))
    three_player_season(club)
    page = text(owner_client.get(f"/games/{game.pk}/"))
    assert (
        "Three of us is played by 3 players and this game had 4: start a new game and choose"
        " who plays"
    ) in page
    assert f'action="/games/{game.pk}/play-again/"' not in page
    assert f'href="/clubs/{club.pk}/games/new/">New game</a>' in page


def test_play_again_is_a_button_when_the_season_seats_the_same_table(owner_client, club):
    game = finish(make_game(club))
    page = text(owner_client.get(f"/games/{game.pk}/"))
    assert f'action="/games/{game.pk}/play-again/"' in page
    assert "choose who plays" not in page
