"""A deal sent while something else holds SQLite's write lock for longer than a writer waits
(a club being restored by `import_club`, say) is told to be sent again, with its values kept:
never a 500, and nothing half recorded."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from html import unescape

import pytest
from django.db import connection
from django.test import Client

from tests.factories import make_club, make_game
from tests.pages import deal_post, text
from tests.scoring.imports.holding import short_lock_waits

pytestmark = pytest.mark.skipif(
    connection.vendor != "sqlite",
    reason="only SQLite has one write lock for the whole database",
)


@pytest.fixture
def database_file(transactional_db) -> Iterator[str]:
    """The test database's file (WAL-mode, as the server runs it: tests/conftest.py), every
    connection opened during the test waiting a second (not 20) for the write lock."""
    with short_lock_waits(1):
        yield connection.settings_dict["NAME"]


def test_a_deal_sent_while_a_restore_holds_the_database_is_kept_to_send_again(database_file):
    game = make_game(make_club())
    scorekeeper = Client(raise_request_exception=False)
    scorekeeper.force_login(game.club.owner)
    data = deal_post(game, 0, 5, 10, 13)
    restore = sqlite3.connect(database_file, isolation_level=None)
    restore.execute("BEGIN IMMEDIATE")  # as a restore's one transaction holds it
    try:
        busy = scorekeeper.post(f"/games/{game.pk}/deals/", data)
    finally:
        restore.execute("ROLLBACK")
        restore.close()

    assert busy.status_code == 503
    assert busy["Retry-After"]
    html = unescape(text(busy))
    assert "Deal 1 isn't recorded yet: the database is busy" in html
    assert "send it again in a moment" in html
    for seat, value in enumerate(["0", "5", "10", "13"]):
        assert re.search(rf'name="cards_{seat}" id="id_cards_{seat}" value="{value}"', html)
    assert not game.deals.exists()

    sent_again = scorekeeper.post(f"/games/{game.pk}/deals/", data)
    assert sent_again.status_code == 302
    assert game.deals.count() == 1


def test_with_htmx_the_busy_answer_is_a_5xx_the_phone_keeps_and_sends_again(database_file):
    """static/js/waiting-deals.js keeps a deal whose answer is 5xx, and sends it again."""
    game = make_game(make_club())
    scorekeeper = Client(raise_request_exception=False)
    scorekeeper.force_login(game.club.owner)
    restore = sqlite3.connect(database_file, isolation_level=None)
    restore.execute("BEGIN IMMEDIATE")
    try:
        busy = scorekeeper.post(
            f"/games/{game.pk}/deals/",
            deal_post(game, 0, 5, 10, 13),
            headers={"HX-Request": "true", "HX-Target": "game-live"},
        )
    finally:
        restore.execute("ROLLBACK")
        restore.close()
    assert busy.status_code == 503
    assert "the database is busy" in text(busy)


def test_any_other_write_that_meets_the_lock_is_told_to_try_again_not_a_500(database_file):
    """Undoing a deal (like starting a game or changing one) meets the same lock: the whole
    write is rolled back and the page says to send it again."""
    game = make_game(make_club())
    scorekeeper = Client(raise_request_exception=False)
    scorekeeper.force_login(game.club.owner)
    assert (
        scorekeeper.post(f"/games/{game.pk}/deals/", deal_post(game, 0, 5, 10, 13)).status_code
        == 302
    )
    restore = sqlite3.connect(database_file, isolation_level=None)
    restore.execute("BEGIN IMMEDIATE")
    try:
        busy = scorekeeper.post(f"/games/{game.pk}/undo/")
    finally:
        restore.execute("ROLLBACK")
        restore.close()

    assert busy.status_code == 503
    assert busy["Retry-After"]
    assert "Nothing was saved: the database is busy" in unescape(text(busy))
    assert game.deals.count() == 1
