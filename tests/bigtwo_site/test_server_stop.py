"""Stopping `make run`'s server (Ctrl-C, SIGTERM, a restart) with games' streams open: uvicorn
closes its port at once, gives the answers under way a moment, and ends the streams
(`--timeout-graceful-shutdown`), so that their pages open them again on the server that takes
over. Before, it waited for each stream to end by itself, up to `STREAM_SECONDS` (10 minutes),
its port already closed, while the stream told the page the game was quiet; the page, trusting
it, didn't poll, and showed none of the deals the next process recorded."""

import http.client
import time

import pytest

from scoring import services
from tests.factories import make_club, make_game
from tests.servers import on_the_test_database, served

pytestmark = pytest.mark.django_db(transaction=True)

STALL = 30  # seconds: for what takes the server's few seconds of grace


def test_a_stopped_server_ends_its_open_streams_and_exits(tmp_path):
    club = make_club()
    token = services.share_game(game=make_game(club), by=club.owner)
    with served(tmp_path, **on_the_test_database()) as server:
        connection = http.client.HTTPConnection(server.host, server.port, timeout=STALL)
        connection.request("GET", f"/live/{token}/changes/")
        stream = connection.getresponse()
        assert stream.read1().startswith(b"retry: 2000\n\ndata: 0\n\n")

        server.process.terminate()
        assert ended(stream), f"the stream was still open {STALL} s after SIGTERM"
        server.process.wait(STALL)
        connection.close()


def ended(stream: http.client.HTTPResponse) -> bool:
    """Whether the stream ends, cut or closed, within STALL seconds: a stream left open says
    "alive" every 20 s."""
    deadline = time.monotonic() + STALL
    while time.monotonic() < deadline:
        try:
            if not stream.read1():
                return True
        except (http.client.IncompleteRead, OSError):
            return True
    return False
