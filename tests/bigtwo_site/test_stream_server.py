"""The streams' server in the server layout runs the site on bigtwo_site/stream_settings.py:
only the middleware a stream uses, as each of Django's own costs hops to a thread and back under
ASGI. Its streams must still be the site's: the same access checks, language and deltas, and
anything else sent to it still checked for CSRF."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.conf import settings
from django.core.asgi import get_asgi_application
from django.test import override_settings

from bigtwo_site import stream_settings
from bigtwo_site.request_bodies import BoundedBodies
from tests.factories import make_club, make_game, make_user, record
from tests.live_support import Phone, done, opened, signed_in

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def game(club):
    return make_game(club)


@pytest.fixture
def stream_server():
    """The site's ASGI application as the streams' server builds it."""
    with override_settings(MIDDLEWARE=stream_settings.MIDDLEWARE):
        yield BoundedBodies(get_asgi_application())


def test_the_streams_server_keeps_every_middleware_a_stream_uses():
    """One renamed or taken out of the site's list would drop silently out of the streams' too
    (without the session, every stream is refused)."""
    timing = {name for name in stream_settings.MIDDLEWARE if "server_timing" in name}
    assert set(stream_settings.MIDDLEWARE) - timing == stream_settings.STREAM_MIDDLEWARE
    assert len(stream_settings.MIDDLEWARE) < len(settings.MIDDLEWARE) / 2


def test_its_entry_point_takes_the_streams_settings_whatever_the_environment_names():
    """Both units read one environment file, which may name the site's settings."""
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "bigtwo_site.settings"}
    shown = subprocess.run(
        [
            sys.executable,
            "-c",
            "import bigtwo_site.stream_asgi; from django.conf import settings;"
            " print(settings.SETTINGS_MODULE, len(settings.MIDDLEWARE))",
        ],
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout.split()
    assert shown == ["bigtwo_site.stream_settings", str(len(stream_settings.MIDDLEWARE))]


def test_a_members_stream_through_it_carries_the_deal_in_the_pages_language(
    loop, client, owner, game, stream_server
):
    path = f"/games/{game.pk}/changes/"
    cookie = signed_in(client, owner)
    phone = opened(
        loop,
        path,
        cookie,
        app=stream_server,
        headers=[(b"host", b"testserver"), (b"accept-language", b"zh-hant")],
    )
    assert phone.said() == "retry: 2000\n\ndata: 0\n\n"
    done(loop, record, game, 0, 5, 9, 13)
    assert phone.said() == "data: 1\n\n"
    done(loop, record, game, 3, 0, 2, 1)
    delta = phone.said()
    assert delta.startswith("event: delta\ndata: 2\n")
    assert "撤銷第 2 手" in delta
    phone.hang_up()


def test_it_refuses_streams_as_the_site_does(loop, client, game, stream_server):
    path = f"/games/{game.pk}/changes/"
    assert Phone(loop, path, app=stream_server).status() == 403
    stranger = make_user("stranger")
    make_club(stranger, name="Elsewhere")
    assert Phone(loop, path, cookie=signed_in(client, stranger), app=stream_server).status() == 404


def test_a_form_sent_to_it_is_still_checked_for_csrf(loop, client, owner, game, stream_server):
    """nginx sends it only the streams; should anything else reach it, a write without the
    form's token is refused as the pages' server refuses it."""
    record(game, 0, 5, 9, 13)
    phone = Phone(
        loop,
        f"/games/{game.pk}/undo/",
        cookie=signed_in(client, owner),
        method="POST",
        app=stream_server,
    )
    assert phone.status() == 403
    assert game.deals.count() == 1


def test_its_streams_are_compressed_for_a_phone_that_takes_gzip(
    loop, client, owner, game, stream_server
):
    phone = Phone(
        loop,
        f"/games/{game.pk}/changes/",
        cookie=signed_in(client, owner),
        headers=[(b"host", b"testserver"), (b"accept-encoding", b"gzip")],
        app=stream_server,
    )
    started = phone.next()
    assert started["status"] == 200
    headers = {name.lower(): value for name, value in started["headers"]}
    assert headers[b"content-encoding"] == b"gzip"
    assert headers[b"x-content-type-options"] == b"nosniff"
    phone.hang_up()
