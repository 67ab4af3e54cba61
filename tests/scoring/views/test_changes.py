"""The view at a game's stream's address (scoring/views/live.py, `changes`). Under ASGI the
stream itself is served in front of Django (tests/scoring/test_live_changes.py); the view answers
a WSGI server, where a stream would hold a whole worker."""

import pytest

from scoring import services
from tests.live_support import stream_address

pytestmark = pytest.mark.django_db


def test_under_wsgi_there_is_no_stream_and_the_page_polls(owner_client, game):
    path = stream_address(owner_client, game)
    # 204: EventSource gives up, and the page goes on polling.
    assert owner_client.get(path).status_code == 204


def test_the_shared_live_view_has_no_stream(client, owner, game):
    services.share_game(game=game, by=owner)
    html = client.get(f"/live/{game.share_token}/").content.decode()
    assert "data-changes" not in html
