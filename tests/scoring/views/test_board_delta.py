"""A board one deal behind is brought up to date with only what that deal changed: the
scorekeeper's own answer and every phone's board fetch (templates/scoring/_board_delta.html).
Anything else (an older board, an undo, the first or the last deal, a version not known to be a
deal recorded) brings the whole board, as before."""

import re

import pytest
from django.db import connection
from django.test import TestCase
from django.test.utils import CaptureQueriesContext

from scoring import services
from scoring.models import Game
from tests import factories
from tests.caches import cache_emptied
from tests.pages import deal_post, text

HTMX = {"HX-Request": "true"}


def record(game: Game, *cards_left: int) -> None:
    """A deal recorded by a phone, with what its write does once it commits: what says the
    game's new version is that deal recorded is kept then (in the test's transaction, which
    never commits, the on-commit work is run as the write ends)."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        factories.record(game, *cards_left)


def version_of(game: Game) -> int:
    return Game.objects.get(pk=game.pk).version


def rows(html: str) -> list[int]:
    return [int(number) for number in re.findall(r'<tr id="deal-(\d+)"', html)]


def poll(client, game: Game, shown: int, **extra: str):
    query = "&".join(f"{key}={value}" for key, value in {"v": shown, **extra}.items())
    return client.get(f"/games/{game.pk}/board/?{query}", headers=HTMX)


def test_recording_on_a_board_one_deal_behind_answers_the_deal_area_and_the_new_row(
    owner_client, game
):
    record(game, 0, 5, 10, 13)
    record(game, 3, 0, 2, 1)
    shown = version_of(game)

    response = owner_client.post(
        f"/games/{game.pk}/deals/", deal_post(game, 1, 2, 0, 4, shown=shown), headers=HTMX
    )

    assert response.status_code == 200
    assert response["HX-Retarget"] == "#deal-area"
    assert response["HX-Reswap"] == "outerHTML"
    html = text(response)
    assert html.lstrip().startswith('<div id="deal-area">')
    assert "Deal 3 recorded." in html
    assert re.search(r'name="number" value="4"', html)  # the form for the next deal
    assert rows(html) == [3]  # the new row only, appended to the rows the board has
    assert 'hx-swap-oob="beforeend:#score-rows"' in html
    assert re.search(r'<tfoot id="score-totals" hx-swap-oob="true">.*>4<.*>7<.*>22<.*>44<', html)
    assert f'id="board-follow" hidden hx-swap-oob="true" data-version="{shown + 1}"' in html
    assert f'name="shown" value="{shown + 1}"' in html
    assert "Undo deal 3" in html
    # The deal's history line alone, put first in the history the board shows.
    history = re.findall(r'<ol hx-swap-oob="afterbegin:#history-lines">(.*?)</ol>', html, re.S)
    assert len(history) == 1 and history[0].count("<li ") == 1
    assert "recorded deal 3" in history[0]
    assert 'id="board-history"' not in html
    assert 'id="game-live"' not in html


def test_recording_on_an_older_board_answers_the_whole_live_part(owner_client, game):
    record(game, 0, 5, 10, 13)
    shown = version_of(game)
    record(game, 3, 0, 2, 1)  # from another phone: this one's board is two changes behind

    response = owner_client.post(
        f"/games/{game.pk}/deals/", deal_post(game, 1, 2, 0, 4, shown=shown), headers=HTMX
    )

    assert response.status_code == 200
    assert "HX-Retarget" not in response
    html = text(response)
    assert html.lstrip().startswith('<div id="game-live"')
    assert rows(html) == [1, 2, 3]
    assert "hx-swap-oob" not in html


def test_a_deal_posted_without_the_board_version_answers_the_whole_live_part(owner_client, game):
    record(game, 0, 5, 10, 13)

    response = owner_client.post(
        f"/games/{game.pk}/deals/", deal_post(game, 1, 2, 0, 4), headers=HTMX
    )

    assert "HX-Retarget" not in response
    assert rows(text(response)) == [1, 2]


def test_a_phone_one_deal_behind_fetches_only_what_the_deal_changed(
    owner_client, client, owner, game
):
    record(game, 0, 5, 10, 13)
    shown = version_of(game)
    record(game, 3, 0, 2, 1)

    response = poll(owner_client, game, shown, deal=2)

    assert response.status_code == 200
    assert response["HX-Reswap"] == "none"  # every part comes out of band
    assert response["Cache-Control"] == "no-store"
    html = text(response)
    assert rows(html) == [2]
    # This phone's form was for deal 2, which is taken now: its notice says so.
    assert "The scoreboard has changed since this form was opened: the next deal is deal 3." in html
    assert 'id="board-stale" hx-swap-oob="true"' in html
    assert "deal=2" in html  # its follower still speaks for the form it has

    # A second phone of the same table, its form up to date, gets the same deal without the notice.
    other = poll(owner_client, game, shown, deal=3)
    assert rows(text(other)) == [2]
    assert "has changed since this form" not in text(other)


def test_a_board_two_changes_behind_gets_the_whole_board(owner_client, game):
    record(game, 0, 5, 10, 13)
    shown = version_of(game)
    record(game, 3, 0, 2, 1)
    record(game, 1, 2, 0, 4)

    response = poll(owner_client, game, shown)

    assert "HX-Reswap" not in response
    html = text(response)
    assert html.lstrip().startswith('<div id="game-board"')
    assert rows(html) == [1, 2, 3]


def test_a_change_other_than_a_deal_recorded_gets_the_whole_board(owner_client, owner, game):
    record(game, 0, 5, 10, 13)
    record(game, 3, 0, 2, 1)
    shown = version_of(game)
    services.undo_last_deal(game=Game.objects.get(pk=game.pk), by=owner)

    response = poll(owner_client, game, shown)

    assert "HX-Reswap" not in response
    assert rows(text(response)) == [1]


def test_the_first_deal_and_the_last_bring_the_whole_board(owner_client, game):
    shown = version_of(game)
    record(game, 0, 5, 10, 13)  # the board had no table to add a row to
    assert "HX-Reswap" not in poll(owner_client, game, shown)

    record(game, 0, 13, 13, 13)
    shown = version_of(game)
    record(game, 0, 13, 13, 13)  # Ben reaches 83, the others 78: the game is over
    assert Game.objects.get(pk=game.pk).is_finished
    response = poll(owner_client, game, shown)
    assert "HX-Reswap" not in response
    assert "The game is over" in text(response) or "Final totals" in text(response)


def test_a_version_not_known_here_to_be_a_deal_gets_the_whole_board(owner_client, game):
    record(game, 0, 5, 10, 13)
    shown = version_of(game)
    record(game, 3, 0, 2, 1)
    with cache_emptied():  # culled, say: nothing says what the change was
        response = poll(owner_client, game, shown)

    assert "HX-Reswap" not in response
    assert rows(text(response)) == [1, 2]


def test_the_shared_live_view_gets_the_deal_without_history_or_links(client, owner_client, game):
    record(game, 0, 5, 10, 13)
    owner_client.post(f"/games/{game.pk}/share/")
    game.refresh_from_db()
    shown = game.version
    record(game, 3, 0, 2, 1)

    response = client.get(f"/live/{game.share_token}/board/?v={shown}", headers=HTMX)

    assert response["HX-Reswap"] == "none"
    html = text(response)
    assert rows(html) == [2]
    assert "board-history" not in html and "Undo" not in html and "/edit" not in html
    assert 'name="shown"' not in html


def test_the_part_every_phone_shares_is_rendered_once_per_deal(owner_client, game):
    record(game, 0, 5, 10, 13)
    shown = version_of(game)
    record(game, 3, 0, 2, 1)
    poll(owner_client, game, shown)

    with CaptureQueriesContext(connection) as queries:
        response = poll(owner_client, game, shown, deal=3)

    assert rows(text(response)) == [2]
    # The game's version, then the snapshot's game and seats: no deals, no history.
    tables = " ".join(query["sql"] for query in queries.captured_queries)
    assert "scoring_dealscore" not in tables and "scoring_gamechange" not in tables


def test_a_record_answered_with_what_changed_makes_no_more_queries_than_the_whole_part(
    owner_client, game
):
    record(game, 0, 5, 10, 13)
    record(game, 3, 0, 2, 1)

    def recorded(data: dict) -> int:
        with CaptureQueriesContext(connection) as queries:
            response = owner_client.post(f"/games/{game.pk}/deals/", data, headers=HTMX)
        assert "recorded." in text(response)
        return len(queries.captured_queries)

    whole = recorded(deal_post(game, 1, 2, 0, 4))
    delta = recorded(deal_post(game, 1, 2, 0, 4, shown=version_of(game)))
    assert delta <= whole


@pytest.mark.parametrize("landing", ["before the write", "once written"])
def test_another_phones_change_landing_beside_a_deal_shows_in_its_answer(
    owner_client, owner, game, monkeypatch, landing
):
    """Another phone corrects deal 1 after this phone's request read the board: before its
    deal is written, or once it is, before the answer is read. The answer is never the deal's
    row on totals of before, but the whole live part as the database holds it (the board
    shown changed twice since)."""
    record(game, 0, 5, 10, 13)
    record(game, 3, 0, 2, 1)
    shown = version_of(game)
    real = services.record_deal

    def correct_deal_one() -> None:
        another = Game.objects.get(pk=game.pk)
        services.edit_deal(game=another, number=1, by=owner, cards_left=[0, 1, 1, 1])

    def beside_another_phone(**sent):
        if landing == "before the write":
            correct_deal_one()
        recorded = real(**sent)
        if landing == "once written":
            correct_deal_one()
        return recorded

    monkeypatch.setattr(services, "record_deal", beside_another_phone)
    response = owner_client.post(
        f"/games/{game.pk}/deals/", deal_post(game, 1, 2, 0, 4, shown=shown), headers=HTMX
    )

    assert "HX-Retarget" not in response
    html = text(response)
    assert rows(html) == [1, 2, 3]
    # Deal 1 as corrected (0, 1, 1, 1), then 3/0/2/1 and 1/2/0/4.
    assert re.search(r'<tfoot id="score-totals".*>4<.*>3<.*>3<.*>6<', html)
    assert f'data-version="{version_of(game)}"' in html
