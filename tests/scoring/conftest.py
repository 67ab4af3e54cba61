"""Fixtures for the score-keeping tests: an owner, their club, a game, a client logged in as the
owner. The data comes from tests/factories.py."""

from __future__ import annotations

import pytest

from tests.factories import make_club, make_game, make_user


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
