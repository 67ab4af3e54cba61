"""Fixtures for the accounts tests: a member of the club tests/conftest.py gives."""

import pytest

from tests.factories import make_member


@pytest.fixture
def ann(club):
    return make_member(club, "ann")
