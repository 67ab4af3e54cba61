"""Fixtures for the score-keeping tests: a game of the club tests/conftest.py gives (its owner,
the club, a client logged in as the owner). The data comes from tests/factories.py."""

from __future__ import annotations

import pytest

from tests.factories import make_game


@pytest.fixture
def game(club):
    return make_game(club)
