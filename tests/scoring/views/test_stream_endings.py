"""A game's stream ends as soon as what it follows is gone: its session logged out, its game
deleted (scoring/views/streams.py, told through scoring/live.py). Before, both streams ran on
to their 600 s end, saying versions to a phone signed out, or of a game no longer there.
Served by the site's ASGI application as `make run`'s server calls it; the tests commit."""

from __future__ import annotations

import pytest
from django.test import Client

from scoring import services
from scoring.views import streams
from tests.factories import make_member, record
from tests.live_support import done, opened, signed_in

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_stream_ends_when_its_session_logs_out(loop, client, owner, game):
    phone = opened(loop, f"/games/{game.pk}/changes/", signed_in(client, owner))
    phone.said()
    assert done(loop, client.post, "/accounts/logout/").status_code == 302
    assert phone.said() is None
    assert streams.OPEN_STREAMS.counts == {}


def test_logging_out_elsewhere_leaves_this_phones_stream_open(loop, client, owner, game):
    """Another session of the same account, on another phone, is its own."""
    phone = opened(loop, f"/games/{game.pk}/changes/", signed_in(client, owner))
    phone.said()
    elsewhere = Client()
    elsewhere.force_login(owner)
    done(loop, elsewhere.post, "/accounts/logout/")
    done(loop, record, game, 0, 5, 9, 13)
    assert phone.said() == "data: 1\n\n"
    phone.hang_up()


def test_a_stream_says_its_game_is_gone_then_ends(loop, client, owner, game):
    """The phone hears a last version, asks for the board and finds the game gone."""
    member = make_member(game.club, "kim")
    phone = opened(loop, f"/games/{game.pk}/changes/", signed_in(client, member))
    phone.said()
    done(loop, services.delete_game, game=game, by=owner)
    assert phone.said() == "data: 1\n\n"
    assert phone.said() is None
    assert streams.OPEN_STREAMS.counts == {}
