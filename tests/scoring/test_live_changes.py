"""The stream that tells a member's phones the moment their game changes (scoring/live_changes.py),
served by the site's ASGI application as a server calls it (tests/live_support.py, `Phone`), on
one event loop that the test runs a step at a time: between steps the loop stands still while
the test records deals and removes members the ordinary way."""

import asyncio

import pytest

from scoring import live_changes, poll_tokens, services
from tests.factories import make_game, make_member, record
from tests.live_support import CacheOutage, Phone, status_of, stream_address

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quick_watcher")]


def open_stream(loop, client, game) -> Phone:
    """A phone's stream of the game, opened from the page as the page's script opens it."""
    phone = Phone(loop, stream_address(client, game))
    assert phone.next()["status"] == 200
    return phone


def test_a_members_stream_says_the_version_then_each_new_one(loop, owner_client, game):
    stream = open_stream(loop, owner_client, game)
    assert stream.said() == "retry: 2000\n\n"
    version = game.version
    assert stream.said() == f"data: {version}\n\n"  # what a phone that just connected checks

    record(game, 0, 5, 10, 13)
    assert stream.said() == f"data: {version + 1}\n\n"
    record(game, 5, 0, 10, 13)
    services.undo_last_deal(game=game, by=game.created_by)
    assert stream.said() == f"data: {version + 3}\n\n"  # two changes in one tick: the last
    stream.hang_up()


def test_a_quiet_stream_says_it_is_alive_while_its_watcher_reads(
    loop, owner_client, game, monkeypatch
):
    monkeypatch.setattr(live_changes, "KEEPALIVE_SECONDS", 0.05)
    stream = open_stream(loop, owner_client, game)
    stream.said(), stream.said()
    # The period comes with it: the page waits a few of them before it calls the stream dead.
    assert stream.said() == "event: alive\ndata: 0.05\n\n"
    stream.hang_up()


def test_a_stream_whose_watcher_cannot_read_vouches_for_nothing(
    loop, owner_client, game, monkeypatch, caplog
):
    monkeypatch.setattr(live_changes, "KEEPALIVE_SECONDS", 0.05)
    monkeypatch.setattr(live_changes, "READ_LATELY_SECONDS", 0.03)
    stream = open_stream(loop, owner_client, game)
    stream.said(), stream.said()

    outage = CacheOutage(monkeypatch, live_changes.WATCHER)
    outage.down = True
    loop.run_until_complete(asyncio.sleep(0.1))  # ten ticks, each failing
    # No "alive": the page polls and opens another stream. The connection stays open.
    assert stream.said() == ": still here\n\n"
    failures = [r for r in caplog.records if "can't read the shared cache" in r.getMessage()]
    assert len(failures) == 1  # once, not every tick

    outage.down = False  # the cache answers again: the same watcher goes on
    record(game, 0, 5, 10, 13)
    # Written while the test stood still: comments, and "alive" too if the watcher's thread
    # read the cache again before the deal was in it. Bounded: a watcher that never tells fails.
    said = stream.said()
    for _ in range(20):
        if said not in (": still here\n\n", "event: alive\ndata: 0.05\n\n"):
            break
        said = stream.said()
    assert said == f"data: {game.version}\n\n"
    assert stream.said() == "event: alive\ndata: 0.05\n\n"
    stream.hang_up()


def test_a_removed_members_stream_ends(loop, client, owner, club, game):
    member = make_member(club)
    client.force_login(member)
    path = stream_address(client, game)
    stream = Phone(loop, path)
    stream.next(), stream.said(), stream.said()
    services.remove_member(club=club, member=member, by=owner)
    record(game, 0, 5, 10, 13)
    # At most the new version's number (their board read is refused), then the end.
    said = stream.said()
    if said is not None:
        assert said == f"data: {game.version}\n\n"
        assert stream.said() is None
    stream.hang_up()
    # Reconnecting with the same pass is refused.
    assert status_of(loop, path) == 403


@pytest.mark.parametrize("token", ["", "nonsense", "1.2.abc:def:ghi"])
def test_a_stream_without_a_good_pass_is_refused(loop, game, token):
    assert status_of(loop, f"/games/{game.pk}/changes/?t={token}") == 403


def test_a_pass_is_for_its_own_games_stream_only(loop, owner_client, game):
    other = make_game()
    path = stream_address(owner_client, game)
    stolen = path.replace(f"/games/{game.pk}/", f"/games/{other.pk}/")
    assert status_of(loop, stolen) == 403


def test_an_old_pass_opens_no_stream(loop, owner_client, game, monkeypatch):
    path = stream_address(owner_client, game)
    monkeypatch.setattr(poll_tokens, "LIFETIME_SECONDS", -1)
    assert status_of(loop, path) == 403
