"""A machine's caches when they fill up (settings: the `shared` and `rendered` caches of a site
without REDIS_URL): the rendered pages make room by dropping their oldest, and what a phone
following a game holds (its pass's series, the game's version) is never dropped with them."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client

from common.shared_cache import MachineFileCache
from scoring import caching
from scoring.poll_tokens import pass_good
from tests.factories import make_game, make_member, record
from tests.pages import poll_address

pytestmark = pytest.mark.django_db


@pytest.fixture
def small_machine_caches(settings, tmp_path, monkeypatch):
    """The machine's two file caches, the rendered one full at a few entries and checked on
    every write (with or without REDIS_URL: this is about the files)."""
    file_cache = {
        "BACKEND": "common.shared_cache.MachineFileCache",
        "KEY_FUNCTION": "common.shared_cache.database_scoped_key",
    }
    settings.CACHES = {
        **settings.CACHES,
        "shared": {**file_cache, "LOCATION": str(tmp_path / "shared")},
        "rendered": {
            **file_cache,
            "LOCATION": str(tmp_path / "rendered"),
            "OPTIONS": {"MAX_ENTRIES": 6},
        },
    }
    monkeypatch.setattr(MachineFileCache, "CHECK_EVERY", 1)
    monkeypatch.setattr(MachineFileCache, "IN_BACKGROUND", False)  # each write's check done
    return tmp_path


def the_pass(page) -> str:
    return parse_qs(urlsplit(poll_address(page)).query)["t"][0]


def test_pages_rendered_past_the_cache_s_room_leave_every_phone_its_pass(
    small_machine_caches, club, game
):
    bo = make_member(club, "bo")
    phone = Client()
    phone.force_login(bo)
    token = the_pass(phone.get(f"/games/{game.pk}/"))

    # A busy night: other tables' deals and pages, far more rendered than the cache holds.
    for _ in range(6):
        other = make_game(club)
        record(other, 0, 5, 10, 13)
        assert phone.get(f"/games/{other.pk}/").status_code == 200
    rendered = list((small_machine_caches / "rendered").iterdir())
    assert len(rendered) <= 6 + 1  # it made room, again and again

    assert pass_good(token, game.pk)  # the phone's stream and polls are still answered
    assert caching.known_version(game.pk) == game.version
    assert phone.get(f"/games/{game.pk}/").status_code == 200  # still signed in
