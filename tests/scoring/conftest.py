"""Fixtures for the score-keeping tests: an owner, their club, a game, a client logged in as the
owner. The data comes from tests/factories.py. And
an event loop and a quick watcher for the tests of the games' streams."""

from __future__ import annotations

import asyncio

import pytest

from scoring import live_changes
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


# The streams (scoring/live_changes.py), run on an event loop the test steps through.


@pytest.fixture
def loop():
    running = asyncio.new_event_loop()
    yield running
    for task in asyncio.all_tasks(running):  # the watcher, and streams left open
        task.cancel()
    running.run_until_complete(asyncio.sleep(0))
    running.close()


@pytest.fixture
def quick_watcher(monkeypatch):
    """A watcher of the test's own, reading every 10 ms, the passes' series every third read."""
    monkeypatch.setattr(live_changes, "TICK_SECONDS", 0.01)
    monkeypatch.setattr(live_changes, "SERIES_EVERY_TICKS", 3)
    monkeypatch.setattr(live_changes, "WATCHER", live_changes.Watcher())
