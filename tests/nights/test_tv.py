"""The room's TV link once stopped: its board is told so, and stops asking instead of logging
"not found" twice a second for the rest of the night. (Its token is left out of the logs:
tests/bigtwo_site/test_log_redaction.py.)"""

from __future__ import annotations

import pytest

from nights import services
from tests.nights.helpers import club_with_players, draw
from tests.pages import text

STOPPED = "This TV link has been stopped"


@pytest.mark.django_db
def test_a_stopped_tvs_board_says_so_and_stops_polling(client):
    """htmx stops polling on a 286 and swaps in what came with it; before, the board answered
    404, which htmx leaves alone, and the TV asked again every half second all night."""
    club = club_with_players(4)
    night = draw(club, count=4)
    token = services.show_on_tv(night=night, by=club.owner)
    services.stop_tv(night=night, by=club.owner)
    board = client.get(f"/tv/{token}/board/?state=1", headers={"HX-Request": "true"})
    assert board.status_code == 286
    assert STOPPED in text(board) and 'id="tv-board"' in board.content.decode()
    assert "hx-get" not in board.content.decode()
    assert client.get(f"/tv/{token}/board/?state=1").status_code == 404
    page = client.get(f"/tv/{token}/")
    assert page.status_code == 404 and STOPPED in text(page)
    assert page["X-Robots-Tag"] == "noindex"
