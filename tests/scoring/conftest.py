"""Small `make_*` helpers for the score-keeping tests."""

from __future__ import annotations

import itertools
import uuid

import pytest
from django.contrib.auth import get_user_model

from scoring import services
from scoring.models import Club, Deal, Game

_numbers = itertools.count(1)


def make_user(username: str | None = None):
    username = username or f"user{next(_numbers)}"
    return get_user_model().objects.create_user(username=username, password="a long passphrase 7")


def make_club(owner=None, name: str = "Friday table") -> Club:
    return services.create_club(name=name, owner=owner or make_user())


def make_member(club: Club, username: str | None = None):
    user = make_user(username)
    services.join_club(token=club.invite_token, user=user)
    return user


def make_game(club: Club | None = None, names=("Ann", "Ben", "Cy", "Dee"), by=None) -> Game:
    club = club or make_club()
    return services.start_game(club=club, seat_names=list(names), by=by or club.owner)


def record(game: Game, *cards_left: int, by=None, token=None) -> Deal:
    """Record the next deal of `game`."""
    return services.record_deal(
        game=game,
        number=game.deals.count() + 1,
        cards_left=list(cards_left),
        token=token or uuid.uuid4(),
        by=by or game.club.owner,
    )


def make_deals(game: Game, count: int) -> None:
    """`count` deals that keep everyone far from 100 (one card each, seats taking turns out)."""
    for n in range(count):
        cards = [1, 1, 1, 1]
        cards[n % 4] = 0
        record(game, *cards)


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    """Real hashing costs a quarter of a second per user; these tests make dozens."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def owner(db):
    return make_user("owner")


@pytest.fixture
def club(owner):
    return make_club(owner)


@pytest.fixture
def game(club):
    return make_game(club)


@pytest.fixture
def owner_client(client, owner):
    client.force_login(owner)
    return client
