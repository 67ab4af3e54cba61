"""No log holds a password link's token: neither `make run`'s access log nor Django's own
("Not Found: …", "Internal Server Error: …"). bigtwo_site/log_redaction.py."""

import datetime
import doctest
import logging
from types import SimpleNamespace

from gunicorn.config import Config

import bigtwo_site.log_redaction
from bigtwo_site.log_redaction import RedactingLogger

TOKEN = "diw6d7-e7b88f2fd7682edbc8d0c624cef79167"


def test_the_examples_in_its_docstrings():
    assert doctest.testmod(bigtwo_site.log_redaction).failed == 0


def test_the_make_run_logger_writes_token_in_place_of_a_links_token():
    logger = RedactingLogger(Config())
    path = f"/accounts/password/link/3/Mg/{TOKEN}/"
    environ = {
        "REQUEST_METHOD": "GET",
        "RAW_URI": path,
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "203.0.113.5",
        "HTTP_REFERER": f"https://bigtwo.example.org/accounts/password/reset/Mg/{TOKEN}/",
    }
    response = SimpleNamespace(status="302 Found", headers=[], sent=0)
    request = SimpleNamespace(headers=[("REFERER", environ["HTTP_REFERER"])])
    atoms = logger.atoms(response, request, environ, datetime.timedelta(milliseconds=5))
    logged = " ".join(str(value) for value in atoms.values())
    assert TOKEN not in logged
    assert atoms["r"] == "GET /accounts/password/link/3/Mg/[token]/ HTTP/1.1"
    assert atoms["f"] == "https://bigtwo.example.org/accounts/password/reset/Mg/[token]/"
    assert atoms["h"] == "203.0.113.5"


def test_the_makefile_runs_gunicorn_with_it():
    makefile = (bigtwo_site.log_redaction.__file__.rsplit("/", 2)[0]) + "/Makefile"
    with open(makefile, encoding="utf-8") as text:
        assert "--logger-class bigtwo_site.log_redaction.RedactingLogger" in text.read()


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
