"""The stream that tells a member's phones the moment their game changes (scoring/live_changes.py).

The stream is an async view, served through Django's ASGI handler here by AsyncClient, on one
event loop that the test runs a step at a time: between steps the loop stands still while the
test records deals and removes members the ordinary way.
"""

import asyncio
import re

import pytest
from django.test import AsyncClient

from scoring import live_changes, poll_tokens, services
from tests.factories import make_game, make_member, record
from tests.live_support import CacheOutage

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quick_watcher")]


def changes_of(html: str) -> str:
    """The stream's address on a game page, as the page's script reads it."""
    return re.search(r'id="board-follow"[^>]*data-changes="([^"]*)"', html).group(1)


class Stream:
    """One phone's open stream, read an event at a time."""

    def __init__(self, loop: asyncio.AbstractEventLoop, path: str) -> None:
        self.loop, self.path = loop, path
        self.response = loop.run_until_complete(AsyncClient().get(path))
        if self.response.streaming:
            self.chunks = aiter(self.response.streaming_content)

    def next(self, seconds: float = 2.0) -> str | None:
        """The next thing written down the stream; None once it has ended."""
        try:
            chunk = self.loop.run_until_complete(asyncio.wait_for(anext(self.chunks), seconds))
        except StopAsyncIteration:
            return None
        return chunk.decode()

    def hang_up(self) -> None:
        """As Django's ASGI handler does when the phone disconnects: the wait is cancelled."""
        waiting = self.loop.create_task(anext(self.chunks))
        self.loop.run_until_complete(asyncio.sleep(0.05))
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            self.loop.run_until_complete(waiting)


def open_stream(loop, client, game) -> Stream:
    return Stream(loop, changes_of(client.get(f"/games/{game.pk}/").content.decode()))


def test_a_members_stream_says_the_version_then_each_new_one(loop, owner_client, game):
    stream = open_stream(loop, owner_client, game)
    assert stream.response.status_code == 200
    assert stream.response["Content-Type"] == "text/event-stream"
    assert stream.response["Cache-Control"] == "no-store"
    assert stream.next() == "retry: 2000\n\n"
    version = game.version
    assert stream.next() == f"data: {version}\n\n"  # what a phone that just connected checks

    record(game, 0, 5, 10, 13)
    assert stream.next() == f"data: {version + 1}\n\n"
    record(game, 5, 0, 10, 13)
    services.undo_last_deal(game=game, by=game.created_by)
    assert stream.next() == f"data: {version + 3}\n\n"  # two changes in one tick: the last


def test_the_stream_reads_no_database(loop, owner_client, game, django_assert_num_queries):
    path = changes_of(owner_client.get(f"/games/{game.pk}/").content.decode())
    with django_assert_num_queries(0):
        stream = Stream(loop, path)
        assert stream.next() == "retry: 2000\n\n"
        assert stream.next().startswith("data: ")


def test_a_quiet_stream_says_it_is_alive_while_its_watcher_reads(
    loop, owner_client, game, monkeypatch
):
    monkeypatch.setattr(live_changes, "KEEPALIVE_SECONDS", 0.05)
    stream = open_stream(loop, owner_client, game)
    stream.next(), stream.next()
    # The period comes with it: the page waits a few of them before it calls the stream dead.
    assert stream.next() == "event: alive\ndata: 0.05\n\n"


def test_a_stream_whose_watcher_cannot_read_vouches_for_nothing(
    loop, owner_client, game, monkeypatch, caplog
):
    monkeypatch.setattr(live_changes, "KEEPALIVE_SECONDS", 0.05)
    monkeypatch.setattr(live_changes, "READ_LATELY_SECONDS", 0.03)
    stream = open_stream(loop, owner_client, game)
    stream.next(), stream.next()

    outage = CacheOutage(monkeypatch, live_changes.WATCHER)
    outage.down = True
    loop.run_until_complete(asyncio.sleep(0.1))  # ten ticks, each failing
    # No "alive": the page polls and opens another stream. The connection stays open.
    assert stream.next() == ": still here\n\n"
    failures = [r for r in caplog.records if "can't read the shared cache" in r.getMessage()]
    assert len(failures) == 1  # once, not every tick

    outage.down = False  # the cache answers again: the same watcher goes on
    record(game, 0, 5, 10, 13)
    assert stream.next() == f"data: {game.version}\n\n"
    assert stream.next() == "event: alive\ndata: 0.05\n\n"


def test_a_removed_members_stream_ends(loop, client, owner, club, game):
    member = make_member(club)
    client.force_login(member)
    stream = open_stream(loop, client, game)
    stream.next(), stream.next()
    services.remove_member(club=club, member=member, by=owner)
    record(game, 0, 5, 10, 13)
    # At most the new version's number (their board read is refused), then the end.
    said = [stream.next(), stream.next()]
    assert said in ([f"data: {game.version}\n\n", None], [None, None]), said
    # Reconnecting with the same pass is refused.
    assert Stream(loop, stream.path).response.status_code == 403


def test_a_phone_that_hangs_up_is_forgotten(loop, owner_client, game):
    stream = open_stream(loop, owner_client, game)
    stream.next(), stream.next()
    assert len(live_changes.WATCHER.followers) == 1
    stream.hang_up()
    assert live_changes.WATCHER.followers == set()


@pytest.mark.parametrize("token", ["", "nonsense", "1.2.abc:def:ghi"])
def test_a_stream_without_a_good_pass_is_refused(loop, game, token):
    assert Stream(loop, f"/games/{game.pk}/changes/?t={token}").response.status_code == 403


def test_a_pass_is_for_its_own_games_stream_only(loop, owner_client, game):
    other = make_game()
    path = changes_of(owner_client.get(f"/games/{game.pk}/").content.decode())
    stolen = path.replace(f"/games/{game.pk}/", f"/games/{other.pk}/")
    assert Stream(loop, stolen).response.status_code == 403


def test_an_old_pass_opens_no_stream(loop, owner_client, game, monkeypatch):
    path = changes_of(owner_client.get(f"/games/{game.pk}/").content.decode())
    monkeypatch.setattr(poll_tokens, "LIFETIME_SECONDS", -1)
    assert Stream(loop, path).response.status_code == 403


def test_under_wsgi_there_is_no_stream_and_the_page_polls(owner_client, game):
    path = changes_of(owner_client.get(f"/games/{game.pk}/").content.decode())
    # A WSGI worker would be held by the stream: 204, and EventSource gives up.
    assert owner_client.get(path).status_code == 204


def test_the_shared_live_view_has_no_stream(client, owner, game):
    services.share_game(game=game, by=owner)
    html = client.get(f"/live/{game.share_token}/").content.decode()
    assert "data-changes" not in html
