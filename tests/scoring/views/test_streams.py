"""A game's stream of changes (scoring/views/streams.py), served by the site's ASGI application
as `make run`'s server calls it. The tests commit (transactional_db): the stream reads the
database from the server's own thread, as it does under uvicorn."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.services import delete_account
from scoring import services
from scoring.views import streams
from tests.factories import PASSWORD, make_club, make_member, make_user, record
from tests.live_support import Phone, done, opened, session_cookie, signed_in, stream_address

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_game_page_names_its_stream(owner_client, game):
    assert stream_address(owner_client, game) == f"/games/{game.pk}/changes/"


def test_a_stream_asked_of_a_wsgi_server_is_declined_so_the_page_polls(owner_client, game):
    """Under WSGI a stream would hold a worker until it ended and be sent only then: 204 makes
    EventSource stop asking, and the board goes on polling."""
    answer = owner_client.get(f"/games/{game.pk}/changes/")
    assert answer.status_code == 204
    assert answer.content == b""


def test_a_stream_says_the_version_now_then_each_new_one(loop, client, owner, game):
    phone = opened(loop, f"/games/{game.pk}/changes/", signed_in(client, owner))
    assert phone.said() == "retry: 2000\n\ndata: 0\n\n"
    done(loop, record, game, 0, 5, 9, 13)
    assert phone.said() == "data: 1\n\n"
    done(loop, services.undo_last_deal, game=game, by=owner)
    assert phone.said() == "data: 2\n\n"
    phone.hang_up()


def test_a_change_made_before_the_stream_listens_is_said_as_it_opens(loop, client, owner, game):
    """The page was rendered at version 0, a deal came before its stream opened: the stream's
    first word is the version after it, so the page fetches it."""
    record(game, 0, 5, 9, 13)
    phone = opened(loop, f"/games/{game.pk}/changes/", signed_in(client, owner))
    assert phone.said() == "retry: 2000\n\ndata: 1\n\n"
    phone.hang_up()


def test_a_quiet_stream_says_it_is_alive(loop, client, owner, game, monkeypatch):
    monkeypatch.setattr(streams, "KEEPALIVE_SECONDS", 0.05)
    phone = opened(loop, f"/games/{game.pk}/changes/", signed_in(client, owner))
    phone.said()
    assert phone.said() == "event: alive\ndata: 0.05\n\n"
    phone.hang_up()


def test_a_stream_ends_after_its_time_and_the_phone_opens_another(
    loop, client, owner, game, monkeypatch
):
    monkeypatch.setattr(streams, "STREAM_SECONDS", 0.1)
    phone = opened(loop, f"/games/{game.pk}/changes/", signed_in(client, owner))
    phone.said()
    assert phone.said() is None
    assert streams.OPEN_STREAMS.counts == {}


@pytest.mark.parametrize("how", ["removed", "left", "account deleted"])
def test_a_member_who_loses_access_has_their_stream_closed_at_once(loop, client, owner, game, how):
    member = make_member(game.club, "kim")
    phone = opened(loop, f"/games/{game.pk}/changes/", signed_in(client, member))
    phone.said()
    if how == "removed":
        done(loop, services.remove_member, club=game.club, member=member, by=owner)
    elif how == "left":
        done(loop, services.leave_club, club=game.club, user=member)
    else:
        done(loop, delete_account, user=member, password=PASSWORD)
    assert phone.said() is None
    again = Phone(loop, f"/games/{game.pk}/changes/", cookie=session_cookie(client))
    assert again.status() in (403, 404)


def test_a_member_let_go_from_another_club_keeps_this_games_stream(loop, client, owner, game):
    member = make_member(game.club, "kim")
    other = make_club(owner, name="Other table")
    services.join_club(token=other.invite_token, user=member)
    phone = opened(loop, f"/games/{game.pk}/changes/", signed_in(client, member))
    phone.said()
    done(loop, services.remove_member, club=other, member=member, by=owner)
    done(loop, record, game, 0, 5, 9, 13)
    assert phone.said() == "data: 1\n\n"
    phone.hang_up()


def test_only_members_get_a_stream(loop, client, game):
    path = f"/games/{game.pk}/changes/"
    assert Phone(loop, path).status() == 403
    stranger = signed_in(Client(), make_user("stranger"))
    assert Phone(loop, path, cookie=stranger).status() == 404
    assert Phone(loop, "/games/99999999999999999999/changes/", cookie=stranger).status() == 404


def test_a_member_has_at_most_so_many_streams_open(loop, client, owner, game, settings):
    """Before, one member opened 3,000 streams with one pass, and another member's stream then
    failed with "Too many open files"."""
    settings.STREAMS_PER_MEMBER = 3
    cookie = signed_in(client, owner)
    path = f"/games/{game.pk}/changes/"
    phones = [opened(loop, path, cookie) for _ in range(3)]
    refused = Phone(loop, path, cookie=cookie)
    answer = refused.next()
    assert answer["status"] == 429
    assert (b"Retry-After", b"20") in answer["headers"]
    phones[0].hang_up()
    phones[0] = opened(loop, path, cookie)  # a place given back is taken again
    other = signed_in(Client(), make_member(game.club, "kim"))
    phones.append(opened(loop, path, other))  # another member's own places
    for phone in phones:
        phone.hang_up()
    assert streams.OPEN_STREAMS.counts == {}


def test_an_address_has_at_most_so_many_streams_open(loop, client, owner, game, settings):
    settings.STREAMS_PER_ADDRESS = 2
    path = f"/games/{game.pk}/changes/"
    cookies = [signed_in(Client(), make_member(game.club, f"m{n}")) for n in range(3)]
    phones = [opened(loop, path, cookie, client="203.0.113.9") for cookie in cookies[:2]]
    assert Phone(loop, path, cookie=cookies[2], client="203.0.113.9").status() == 429
    phones.append(opened(loop, path, cookies[2], client="203.0.113.10"))
    for phone in phones:
        phone.hang_up()


def test_a_stream_asked_with_two_host_headers_is_refused(loop, client, owner, game):
    """Django refuses a request naming two hosts; before, the streams' route answered it."""
    headers = [(b"host", b"testserver"), (b"host", b"evil.example")]
    phone = Phone(
        loop, f"/games/{game.pk}/changes/", cookie=signed_in(client, owner), headers=headers
    )
    assert phone.status() == 400
    assert streams.OPEN_STREAMS.counts == {}


def test_open_streams_hold_no_database_connection(loop, client, owner, game, settings):
    """A stream lasts minutes: between its reads it gives its connection back. On PostgreSQL,
    streams beyond the pool's size would otherwise leave every other request waiting for one,
    then failing (as two servers on PostgreSQL did under load)."""
    settings.STREAMS_PER_MEMBER = 100
    pool = settings.DATABASES["default"].get("OPTIONS", {}).get("pool")
    many = pool["max_size"] + 5 if pool else 25
    cookie = signed_in(client, owner)
    phones = [opened(loop, f"/games/{game.pk}/changes/", cookie) for _ in range(many)]
    for phone in phones:
        assert phone.said() == "retry: 2000\n\ndata: 0\n\n"
    poll = Phone(loop, f"/games/{game.pk}/board/?v=0", cookie=cookie)
    assert poll.status() == 204
    for phone in phones:
        phone.hang_up()


def test_a_stream_carries_no_document_policies(loop, client, owner, game):
    """An event stream is no document: no CSP or frame header to download with it on the game
    page's first load (as the web app's manifest)."""
    phone = Phone(loop, f"/games/{game.pk}/changes/", cookie=signed_in(client, owner))
    start = phone.next()
    names = {name.lower() for name, _value in start["headers"]}
    assert start["status"] == 200
    assert not names & {b"content-security-policy", b"x-frame-options"}
    phone.hang_up()
