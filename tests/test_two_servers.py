"""Two servers sharing one Redis and one database (docs/deploying.md: several servers behind one
proxy). Run only with REDIS_URL.

Server B is a thread of its own: Django gives each thread its own cache client and database
connection, so all that B shares with the test's own thread (server A) is Redis and the
database, as two machines would. The tests commit (transactional_db) so that B sees A's rows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import connection, connections
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scoring.models import Game, Player
from tests.caches import cache_emptied
from tests.factories import PASSWORD, make_club, make_game, make_user, record
from tests.live_support import Phone, session_cookie
from tests.pages import HTMX, deal_post

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]

CLUBS = "/clubs/"


class Server:
    """Runs each request in one thread of its own: its own cache client and database
    connection."""

    def __init__(self) -> None:
        self.thread = ThreadPoolExecutor(max_workers=1)

    def run[T](self, action: Callable[[], T]) -> T:
        return self.thread.submit(action).result()

    def get(self, phone: Client, path: str, **extra):
        return self.run(lambda: phone.get(path, **extra))

    def queries(self, action: Callable[[], object]) -> list[str]:
        """The SQL that `action` ran on this server's database connection."""

        def counted() -> list[str]:
            with CaptureQueriesContext(connection) as captured:
                action()
            return [query["sql"] for query in captured]

        return self.run(counted)

    def close(self) -> None:
        self.run(connections.close_all)
        self.thread.shutdown()


@pytest.fixture
def server_b() -> Iterator[Server]:
    server = Server()
    yield server
    server.close()


def logged_in_phone(user) -> Client:
    """A phone that logged in through server A (this thread)."""
    phone = Client()
    response = phone.post("/accounts/login/", {"username": user.username, "password": PASSWORD})
    assert response.status_code == 302
    return phone


def signed_in(response) -> bool:
    assert response.status_code in (200, 302)
    return response.status_code == 200


def test_server_b_serves_the_board_server_a_rendered(server_b):
    club = make_club()
    game = make_game(club)
    record(game, 0, 5, 6, 7)  # the scoreboard names the players once there is a deal
    phone = Client()
    phone.force_login(club.owner)
    board = f"/games/{game.pk}/board/?v=none"  # the game's board, whatever its version
    assert "Ann" in phone.get(board, headers=HTMX).content.decode()
    # Renamed behind the cache's back (the admin would count the game's version up): a server
    # that rendered the board itself would show the new name.
    Player.objects.filter(club=club, name="Ann").update(name="Anna")

    page = server_b.get(phone, board, headers=HTMX).content.decode()

    assert "Ann" in page and "Anna" not in page
    assert "Anna" in phone.get(f"/games/{game.pk}/").content.decode()  # the page's title


def test_a_deal_recorded_on_one_server_shows_on_the_other_at_once(server_b):
    club = make_club()
    game = make_game(club)
    phone, other_phone = Client(), Client()
    phone.force_login(club.owner)
    other_phone.force_login(club.owner)
    poll = f"/games/{game.pk}/board/?v={game.version}&deal=2"
    assert server_b.get(other_phone, f"/games/{game.pk}/").status_code == 200
    assert server_b.get(other_phone, poll, headers=HTMX).status_code == 204

    response = phone.post(f"/games/{game.pk}/deals/", deal_post(game, 0, 5, 6, 7))
    assert response.status_code == 302

    answer = server_b.get(other_phone, poll, headers=HTMX)
    version = Game.objects.get(pk=game.pk).version
    assert answer.status_code == 200
    assert f'data-version="{version}"' in answer.content.decode()


def test_a_session_from_one_server_is_good_on_the_other_without_a_session_read(server_b):
    phone = logged_in_phone(make_user())

    queries = server_b.queries(lambda: signed_in(phone.get(CLUBS)))

    assert signed_in(server_b.get(phone, CLUBS))
    assert not [sql for sql in queries if '"django_session"' in sql]


def test_a_session_outlives_the_cache(server_b):
    """Sessions are written through to the database: a Redis that restarts empty (or evicts
    them) logs nobody out."""
    phone = logged_in_phone(make_user())
    with cache_emptied():  # B's cache too: the setting is the process's
        assert signed_in(server_b.get(phone, CLUBS))


def test_logging_out_on_one_server_ends_the_session_on_the_other_at_once(server_b):
    phone = logged_in_phone(make_user())
    assert signed_in(server_b.get(phone, CLUBS))
    # The same session's cookie, kept by someone who copied it before the log-out.
    copied = Client()
    copied.cookies[settings.SESSION_COOKIE_NAME] = phone.cookies[settings.SESSION_COOKIE_NAME].value

    assert phone.post("/accounts/logout/").status_code == 302

    assert not signed_in(server_b.get(copied, CLUBS))
    assert not signed_in(server_b.get(phone, CLUBS))


@pytest.mark.parametrize("change", ["password", "deactivated", "deleted"])
def test_an_account_changed_on_one_server_ends_a_session_the_other_has_cached(server_b, change):
    """Server B has the session cached; server A changes the account (as "Change password",
    the admin or "Delete my account" do): B's next request is signed out."""
    user = make_user()
    phone = logged_in_phone(user)
    session_key = phone.cookies[settings.SESSION_COOKIE_NAME].value
    assert signed_in(server_b.get(phone, CLUBS))

    if change == "password":
        user.set_password("another long passphrase 8")
        user.save()
    elif change == "deactivated":
        user.is_active = False
        user.save()
    else:
        user.delete()

    assert not signed_in(server_b.get(phone, CLUBS))
    if change == "password":
        assert not Session.objects.filter(session_key=session_key).exists()


def test_a_deal_recorded_on_one_server_is_said_on_the_streams_of_the_other(loop):
    """Each server's streams listen on the channel layer in Redis: a deal recorded through
    server A reaches a phone whose stream server B holds (here, the test's event loop), the
    second as what it changed on the board."""
    club = make_club()
    game = make_game(club)
    phone = Client()
    phone.force_login(club.owner)
    stream = Phone(loop, f"/games/{game.pk}/changes/", cookie=session_cookie(phone))
    assert stream.status() == 200
    assert stream.said() == "retry: 2000\n\ndata: 0\n\n"

    assert phone.post(f"/games/{game.pk}/deals/", deal_post(game, 0, 5, 6, 7)).status_code == 302

    assert stream.said() == "data: 1\n\n"
    # The next deal comes as what it changed, rendered by the stream's own server from the
    # database and the note of the deal appended that server A left in the shared cache.
    assert phone.post(f"/games/{game.pk}/deals/", deal_post(game, 3, 0, 2, 1)).status_code == 302
    said = stream.said()
    assert said.startswith("event: delta\ndata: 2\n") and '<tr id="deal-2">' in said
    stream.hang_up()


def streamed_game(loop) -> tuple[Client, Game, Phone]:
    """A game, its owner's phone signed in on server A, and that phone's stream held by server
    B (the test's event loop), its first word said."""
    club = make_club()
    game = make_game(club)
    phone = Client()
    phone.force_login(club.owner)
    stream = Phone(loop, f"/games/{game.pk}/changes/", cookie=session_cookie(phone))
    assert stream.status() == 200
    assert stream.said() == "retry: 2000\n\ndata: 0\n\n"
    return phone, game, stream


def test_a_game_deleted_on_one_server_ends_its_streams_on_the_other(loop):
    phone, game, stream = streamed_game(loop)
    assert phone.post(f"/games/{game.pk}/delete/").status_code == 302
    assert stream.said() == "data: 1\n\n"  # its last word: the phone asks, and finds it gone
    assert stream.said() is None


def test_logging_out_on_one_server_ends_the_sessions_stream_on_the_other(loop):
    phone, _, stream = streamed_game(loop)
    assert phone.post("/accounts/logout/").status_code == 302
    assert stream.said() is None


def test_a_live_view_stopped_on_one_server_ends_its_stream_on_the_other(loop):
    phone, game, _ = streamed_game(loop)
    assert phone.post(f"/games/{game.pk}/share/").status_code == 302
    game.refresh_from_db()
    viewer = Phone(loop, f"/live/{game.share_token}/changes/")
    assert viewer.status() == 200
    assert viewer.said() == "retry: 2000\n\ndata: 0\n\n"
    assert phone.post(f"/games/{game.pk}/deals/", deal_post(game, 0, 5, 6, 7)).status_code == 302
    assert viewer.said() == "data: 1\n\n"
    assert phone.post(f"/games/{game.pk}/share/stop/").status_code == 302
    assert viewer.said() is None
