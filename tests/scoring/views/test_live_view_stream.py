"""The shared live view (/live/<token>/, no account) follows its game by a stream, as members'
pages do (scoring/views/streams.py): the same versions, as each change commits, scoped to the
share's token. Stopping the share (or sharing again, which makes a new link) ends it, and the
per-address limit counts it. Before, the live view polled every 2 s: a deal reached it after a
second at the median, up to 1.5 s. Served by the site's ASGI application as `make run`'s server
calls it; the tests commit."""

from __future__ import annotations

import html
import re

import pytest

from scoring import services
from scoring.views import streams
from tests.factories import make_game, record
from tests.live_support import Phone, done

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def token(game, owner) -> str:
    return services.share_game(game=game, by=owner)


def live_stream(loop, token: str, **request) -> Phone:
    phone = Phone(loop, f"/live/{token}/changes/", **request)
    assert phone.status() == 200
    return phone


def test_the_live_view_names_its_stream(client, token):
    page = client.get(f"/live/{token}/").content.decode()
    follower = re.search(r'<div id="board-follow"[^>]*>', page)[0]
    assert html.unescape(re.search(r'data-changes="([^"]*)"', follower)[1]) == (
        f"/live/{token}/changes/"
    )
    assert 'hx-trigger="every 2s, changed"' in follower  # the poll is the fallback


def test_a_live_view_stream_says_the_version_now_then_each_new_one(loop, game, owner, token):
    phone = live_stream(loop, token)
    assert phone.said() == "retry: 2000\n\ndata: 0\n\n"
    done(loop, record, game, 0, 5, 9, 13)
    assert phone.said() == "data: 1\n\n"
    done(loop, services.undo_last_deal, game=game, by=owner)
    assert phone.said() == "data: 2\n\n"
    phone.hang_up()
    assert streams.OPEN_STREAMS.counts == {}


def test_another_games_changes_are_not_said(loop, game, owner, token):
    phone = live_stream(loop, token)
    phone.said()
    done(loop, record, make_game(game.club), 0, 5, 9, 13)
    done(loop, record, game, 0, 1, 2, 3)
    assert phone.said() == "data: 1\n\n"
    phone.hang_up()


@pytest.mark.parametrize("how", ["stopped", "shared again", "game deleted"])
def test_a_live_view_stream_ends_with_its_link(loop, game, owner, token, how):
    phone = live_stream(loop, token)
    phone.said()
    if how == "stopped":
        done(loop, services.stop_sharing, game=game, by=owner)
    elif how == "shared again":
        done(loop, services.share_game, game=game, by=owner)
    else:
        done(loop, services.delete_game, game=game, by=owner)
        assert phone.said() == "data: 1\n\n"
    assert phone.said() is None
    assert Phone(loop, f"/live/{token}/changes/").status() == 404
    assert streams.OPEN_STREAMS.counts == {}


def test_a_wrong_token_gets_no_stream(loop, token):
    assert Phone(loop, f"/live/{token[:-1]}x/changes/").status() == 404
    assert Phone(loop, "/live/nothing/changes/").status() == 404


def test_live_view_streams_count_against_their_address(loop, token, settings):
    settings.STREAMS_PER_ADDRESS = 2
    phones = [live_stream(loop, token, client="203.0.113.9") for _ in range(2)]
    refused = Phone(loop, f"/live/{token}/changes/", client="203.0.113.9").next()
    assert refused["status"] == 429
    phones.append(live_stream(loop, token, client="203.0.113.10"))
    for phone in phones:
        phone.hang_up()
    assert streams.OPEN_STREAMS.counts == {}


def test_a_live_view_stream_asked_of_a_wsgi_server_is_declined_so_the_page_polls(client, token):
    answer = client.get(f"/live/{token}/changes/")
    assert answer.status_code == 204
