"""The games' streams served in front of Django's handler (scoring/live_route.py), as the ASGI
server calls the site's application (bigtwo_site/asgi.py): a phone's pass opens its game's
stream without Django's middleware; everything else still goes through Django."""

import asyncio

import pytest

from scoring import live_changes
from scoring.live_route import streams_first
from tests.factories import record
from tests.live_support import Phone, status_of, stream_address

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quick_watcher")]


def test_a_members_stream_is_served_in_front_of_django(
    loop, owner_client, game, django_assert_num_queries
):
    path = stream_address(owner_client, game)
    with django_assert_num_queries(0):  # no session, no account, no database
        phone = Phone(loop, path)
        start = phone.next()
        assert start["status"] == 200
        headers = dict(start["headers"])
        assert headers[b"content-type"] == b"text/event-stream"
        assert headers[b"cache-control"] == b"no-store"
        assert headers[b"x-accel-buffering"] == b"no"
        assert phone.body() == "retry: 2000\n\n"
        assert phone.body() == f"data: {game.version}\n\n"

    record(game, 0, 5, 10, 13)
    assert phone.body() == f"data: {game.version}\n\n"
    phone.hang_up()


def test_a_phone_hanging_up_leaves_the_watcher(loop, owner_client, game):
    phone = Phone(loop, stream_address(owner_client, game))
    phone.next(), phone.body(), phone.body()
    assert len(live_changes.WATCHER.followers) == 1

    phone.hang_up()

    assert live_changes.WATCHER.followers == set()


def test_a_stream_without_a_good_pass_is_refused(loop, owner_client, game):
    path = stream_address(owner_client, game)
    for wrong in [path.split("?")[0], path + "x", path.replace(f"/{game.pk}/", "/999/")]:
        phone = Phone(loop, wrong)
        assert phone.next()["status"] == 403, wrong
        assert phone.body() == ""
        phone.hang_up()


def test_a_stream_asked_of_a_host_not_allowed_goes_to_django(loop, owner_client, game, settings):
    path = stream_address(owner_client, game)
    settings.ALLOWED_HOSTS = ["bigtwo.example"]
    allowed = Phone(loop, path, host="bigtwo.example")
    assert allowed.next()["status"] == 200
    allowed.hang_up()
    # Django's answer to a host it doesn't serve.
    assert status_of(loop, path, host="evil.example") == 400


def test_anything_else_goes_to_django(loop, owner_client, game):
    assert status_of(loop, stream_address(owner_client, game), method="HEAD") == 405
    assert status_of(loop, "/ping/") == 200


def test_only_a_streams_exact_address_is_served_in_front():
    asked = []

    async def django(scope, receive, send):
        asked.append(scope["path"])

    front = streams_first(django)
    for path in ["/games/1/changes/x", "/games/x/changes/", "/xgames/1/changes/", "/games/1/"]:
        scope = {
            "type": "http",
            "method": "GET",
            "path": path,
            "headers": [(b"host", b"testserver")],
        }
        asyncio.run(front(scope, None, None))
    assert asked == ["/games/1/changes/x", "/games/x/changes/", "/xgames/1/changes/", "/games/1/"]
