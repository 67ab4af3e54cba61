"""Static files under `make run`'s ASGI server (bigtwo_site/static_files.py): served by WhiteNoise,
compressed and cached for long, before the rest of the stack; every other request goes on, and
no middleware of the site's costs a hop to a thread and back."""

import asyncio
import logging
from pathlib import Path

import pytest
from django.conf import settings
from django.core.asgi import get_asgi_application
from django.core.handlers.asgi import ASGIHandler
from django.core.management import call_command
from django.test import override_settings

from bigtwo_site import stream_settings


def asked(application, path: str, headers: list[tuple[bytes, bytes]]) -> tuple[int, dict, bytes]:
    """The status, headers and body of the application's answer, as an ASGI server gets it."""
    sent: list[dict] = []
    incoming = [{"type": "http.request", "body": b"", "more_body": False}]

    async def receive() -> dict:
        if incoming:
            return incoming.pop()
        await asyncio.sleep(3600)  # the client stays connected
        return {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", b"testserver"), *headers],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }
    asyncio.run(application(scope, receive, send))
    start = next(message for message in sent if message["type"] == "http.response.start")
    body = b"".join(message.get("body", b"") for message in sent[1:])
    return start["status"], dict(start["headers"]), body


def collecting(root: Path) -> dict:
    """The settings `make run` serves its collected files with, from `root`."""
    return {
        "WHITENOISE_AUTOREFRESH": False,
        "STATIC_ROOT": root,
        "STORAGES": {
            **settings.STORAGES,
            "staticfiles": {"BACKEND": "bigtwo_site.static_storage.MinifiedStaticFilesStorage"},
        },
    }


@pytest.fixture(scope="module")
def static_root(tmp_path_factory) -> Path:
    """The static files collected, as `make run` does: once for the module (it compresses
    every file, seconds of work)."""
    root = tmp_path_factory.mktemp("static")
    with override_settings(**collecting(root)):
        call_command("collectstatic", interactive=False, verbosity=0)
    return root


@pytest.fixture
def collected(static_root, settings):
    """An application that serves the collected files as a server does, from the files it
    found on starting (the suite's other tests have WhiteNoise look each up on asking:
    tests/conftest.py)."""
    for name, value in collecting(static_root).items():
        setattr(settings, name, value)
    return get_asgi_application()


# WhiteNoise's files are read by a synchronous iterator, which Django hands to a thread.
@pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous iterators")
def test_a_static_file_is_served_compressed_and_cached_for_long(collected):
    from django.contrib.staticfiles.storage import staticfiles_storage

    path = "/static/" + staticfiles_storage.stored_name("css/site.css")
    status, headers, body = asked(collected, path, [(b"accept-encoding", b"gzip")])
    assert status == 200
    assert headers[b"Content-Encoding"] == b"gzip"
    assert b"immutable" in headers[b"Cache-Control"]
    assert body


def test_any_other_request_goes_on_to_the_site(db, collected):
    status, _, body = asked(collected, "/ping/", [])
    assert (status, body) == (200, b"ok")


def test_a_static_address_with_no_file_goes_on_to_the_sites_404(db, collected):
    status, _, body = asked(collected, "/static/css/nowhere.css", [])
    assert status == 404
    assert b"<html" in body


@pytest.mark.parametrize(
    "middleware", [settings.MIDDLEWARE, stream_settings.MIDDLEWARE], ids=["site", "streams"]
)
def test_under_asgi_no_middleware_of_the_sites_is_run_in_a_thread(caplog, settings, middleware):
    """Django adapts a synchronous middleware under ASGI (a hop to a thread and back for every
    request) and says so in its debug log: the site's and the streams' server's stacks are
    async throughout."""
    settings.DEBUG = True
    settings.MIDDLEWARE = middleware
    with caplog.at_level(logging.DEBUG, logger="django.request"):
        ASGIHandler().load_middleware(is_async=True)
    adapted = [record.getMessage() for record in caplog.records if "adapted" in record.msg]
    assert adapted == []


def test_scripts_and_style_sheets_are_served_without_their_comments(collected):
    """The first load's budget counts what a phone downloads: the comments stay in the sources."""
    from django.contrib.staticfiles.storage import staticfiles_storage

    for name in ("css/site.css", "js/game-page.js"):
        source = (settings.BASE_DIR / "static" / name).read_text()
        served = (settings.STATIC_ROOT / staticfiles_storage.stored_name(name)).read_text()
        assert "/*" in source or "//" in source
        assert len(served) < len(source)
        assert "/*" not in served.replace("/*!", "")
    style = (settings.STATIC_ROOT / staticfiles_storage.stored_name("css/site.css")).read_text()
    assert (
        style.count("{")
        == style.count("}")
        == ((settings.BASE_DIR / "static/css/site.css").read_text().count("{"))
    )
