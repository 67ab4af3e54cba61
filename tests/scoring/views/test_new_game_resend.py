""" "Start game" sent twice (a double tap, a retry after a lost answer, two phones sending one
form) starts one game, and each answer opens it."""

from __future__ import annotations

import re
import uuid

import pytest

from scoring import services
from scoring.models import Game
from tests.concurrency import at_once, needs_postgres
from tests.factories import make_club

pytestmark = pytest.mark.django_db

SEATS = {"seat_1": "Ann", "seat_2": "Ben", "seat_3": "Cy", "seat_4": "Dee"}


def test_the_form_sent_twice_starts_one_game(client):
    club = make_club()
    client.force_login(club.owner)
    page = client.get(f"/clubs/{club.pk}/games/new/").content.decode()
    token = re.search(r'name="token" value="([0-9a-f-]+)"', page)[1]
    first = client.post(f"/clubs/{club.pk}/games/new/", SEATS | {"token": token})
    again = client.post(f"/clubs/{club.pk}/games/new/", SEATS | {"token": token})
    game = Game.objects.get()
    assert first["Location"] == again["Location"] == f"/games/{game.pk}/"


def test_a_form_without_a_token_still_starts_a_game(client):
    club = make_club()
    client.force_login(club.owner)
    assert client.post(f"/clubs/{club.pk}/games/new/", SEATS).status_code == 302
    assert Game.objects.count() == 1


def test_another_clubs_form_token_is_refused():
    token = uuid.uuid4()
    first, other = make_club(), make_club(name="Other table")
    services.start_game(club=first, seat_names=list(SEATS.values()), by=first.owner, token=token)
    with pytest.raises(services.ScoringError, match="already used for another club"):
        services.start_game(
            club=other, seat_names=list(SEATS.values()), by=other.owner, token=token
        )
    assert Game.objects.count() == 1


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_two_phones_sending_one_form_at_once_start_one_game():
    club, token = make_club(), uuid.uuid4()

    def start() -> int:
        return services.start_game(
            club=club, seat_names=list(SEATS.values()), by=club.owner, token=token
        ).pk

    outcomes = at_once(start, start)
    assert outcomes[0] == outcomes[1] and outcomes[0].startswith("done"), outcomes
    assert Game.objects.count() == 1
