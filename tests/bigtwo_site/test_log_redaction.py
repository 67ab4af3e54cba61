"""No log holds a link's token: a password link's, a club's invite link's, a game's live view
link's or a club night's TV link's; neither the server's access log (`make run`) nor Django's
own ("Not Found: …", "Internal Server Error: …"). bigtwo_site/log_redaction.py."""

import contextlib
import doctest
import logging
import urllib.error
import urllib.request

import pytest

import bigtwo_site.log_redaction
from tests.factories import make_club, make_user
from tests.servers import served

TOKEN = "diw6d7-e7b88f2fd7682edbc8d0c624cef79167"


def test_the_examples_in_its_docstrings():
    assert doctest.testmod(bigtwo_site.log_redaction).failed == 0


def test_the_servers_access_log_writes_token_in_place_of_a_links_token(tmp_path):
    """Every line the server logs goes through the filter, the access log's too: before, the
    streams server (uvicorn) logged each address whole."""
    paths = [
        f"/accounts/password/link/3/Mg/{TOKEN}/",
        f"/accounts/password/reset/Mg/{TOKEN}/",
    ]
    with served(tmp_path) as server:
        for path in paths:
            # A link of no account is refused; what matters is what was logged.
            with contextlib.suppress(urllib.error.HTTPError):
                urllib.request.urlopen(server.url(path), timeout=10)
    logged = server.logged()
    assert "GET /accounts/password/link/3/Mg/[token]/" in logged
    assert "GET /accounts/password/reset/Mg/[token]/" in logged
    assert TOKEN not in logged


def test_django_logs_a_link_not_found_without_its_token(client, caplog, settings):
    """Where the site sends no email, an emailed link is not found, and Django logs the path."""
    settings.SITE_SENDS_EMAIL = False
    # settings.LOGGING's console handler has the filter; pytest's capture handler is given one.
    filters = [f for handler in logging.getLogger().handlers for f in handler.filters]
    assert any(isinstance(f, bigtwo_site.log_redaction.RedactTokens) for f in filters)
    caplog.handler.addFilter(bigtwo_site.log_redaction.RedactTokens())
    assert client.get(f"/accounts/password/reset/Mg/{TOKEN}/").status_code == 404
    assert "Not Found: /accounts/password/reset/Mg/[token]/" in caplog.text
    assert TOKEN not in caplog.text


def test_the_servers_access_log_writes_token_in_place_of_an_invite_live_view_or_tv_token(
    tmp_path,
):
    """Before, /join/<token>/, /live/<token>/ and /tv/<token>/ were logged whole: whoever read
    the log could join the club, follow the game or watch the night (a TV's board asks twice a
    second). Also where the join page sends someone signed out to log in or sign up (`next`),
    written as the site writes it or percent-encoded. The organiser's own /nights/<id>/tv/
    addresses are left whole."""
    paths = {
        f"/tv/{TOKEN}/": "/tv/[token]/",
        f"/tv/{TOKEN}/board/?state=3": "/tv/[token]/board/?state=3",
        f"/tv/{TOKEN}/qr.svg": "/tv/[token]/qr.svg",
        "/nights/5/tv/stop/": "/nights/5/tv/stop/",
        f"/join/{TOKEN}/": "/join/[token]/",
        f"/live/{TOKEN}/": "/live/[token]/",
        f"/live/{TOKEN}/board/?v=3": "/live/[token]/board/?v=3",
        f"/live/{TOKEN}/changes/": "/live/[token]/changes/",
        f"/live/{TOKEN}/qr.svg": "/live/[token]/qr.svg",
        f"/accounts/signup/?next=/join/{TOKEN}/": "/accounts/signup/?next=/join/[token]/",
        f"/accounts/login/?next=%2Fjoin%2F{TOKEN}%2F": "/accounts/login/?next=%2Fjoin%2F[token]%2F",
    }
    with served(tmp_path, migrate=True) as server:
        for path in paths:
            with contextlib.suppress(urllib.error.HTTPError):
                urllib.request.urlopen(server.url(path), timeout=10)
    logged = server.logged()
    for shown in paths.values():
        assert f"GET {shown} HTTP/1.1" in logged
    assert TOKEN not in logged


@pytest.mark.django_db
def test_django_logs_a_live_view_or_tv_not_found_without_its_token(client, caplog):
    caplog.handler.addFilter(bigtwo_site.log_redaction.RedactTokens())
    with caplog.at_level(logging.WARNING, logger="django.request"):
        for path in ("live", "tv"):
            assert client.get(f"/{path}/{TOKEN}/board/").status_code == 404
            assert client.get(f"/{path}/{TOKEN}/qr.svg").status_code == 404
    for path in ("live", "tv"):
        assert f"Not Found: /{path}/[token]/board/" in caplog.text
        assert f"Not Found: /{path}/[token]/qr.svg" in caplog.text
    assert TOKEN not in caplog.text


@pytest.mark.django_db
def test_what_is_left_of_an_address_still_says_which_page_it_was():
    """A club's real invite link is logged as asked but for its token, and the addresses that
    only look like one are left alone."""
    club = make_club(make_user("ann"))
    redacted = bigtwo_site.log_redaction.redacted
    assert redacted(f"GET /join/{club.invite_token}/ HTTP/1.1") == "GET /join/[token]/ HTTP/1.1"
    addresses = ["GET /static/js/game-page.js", "GET /games/5/changes/", "GET /clubs/"]
    for untouched in [*addresses, "POST /nights/5/tv/", "POST /nights/5/tv/stop/"]:
        assert redacted(untouched) == untouched
