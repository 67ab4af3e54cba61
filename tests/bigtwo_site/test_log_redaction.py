"""No log holds a password link's token: neither the server's access log (`make run`) nor
Django's own ("Not Found: …", "Internal Server Error: …"). bigtwo_site/log_redaction.py."""

import contextlib
import doctest
import logging
import urllib.error
import urllib.request

import bigtwo_site.log_redaction
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
