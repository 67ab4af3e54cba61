"""The scoreboard's rows are kept under the board's version, and a deal recorded adds its own row
to the rows of the version before (scoring/presenters/rows.py): the game page opened after a
deal renders no row again, and shows exactly what a board rendered whole shows."""

import re

import pytest
from django.conf import settings
from django.core.cache import caches

from scoring import services
from scoring.models import Game
from scoring.presenters import rows as kept_rows
from scoring.presenters.board import load_board
from tests.factories import record
from tests.pages import deal_post

# Committed for real: what says a version is a deal recorded is kept once the write commits.
pytestmark = pytest.mark.django_db(transaction=True)

HTMX = {"HX-Request": "true"}


@pytest.fixture
def rendered(note_calls) -> list[int]:
    """The numbers of the rows rendered, each time one is."""
    numbers: list[int] = []

    def note(_, board, lines):
        numbers.extend(line.number for line in lines)

    note_calls(kept_rows, "_rendered", note)
    return numbers


def score_rows(client, path: str) -> str:
    html = client.get(path).content.decode()
    return re.search(r'<tbody id="score-rows">(.*?)</tbody>', html, re.S).group(1)


def numbers(rows: str) -> list[int]:
    return [int(number) for number in re.findall(r'<tr id="deal-(\d+)"', rows)]


def version_of(game: Game) -> int:
    return Game.objects.get(pk=game.pk).version


def page_of(game: Game) -> str:
    return f"/games/{game.pk}/"


def test_rows_kept_before_a_run_of_deals_and_those_deals_rows_are_the_whole_board(
    owner_client, game, rendered
):
    record(game, 0, 5, 10, 13)
    owner_client.get(page_of(game))
    for cards in [(3, 0, 2, 1), (1, 2, 0, 4), (13, 0, 9, 2)]:
        shown = version_of(game)
        data = deal_post(game, *cards, shown=shown)
        answer = owner_client.post(f"/games/{game.pk}/deals/", data, headers=HTMX)
        assert answer["HX-Retarget"] == "#deal-area"  # the deal area and the new row
    rendered.clear()

    kept = score_rows(owner_client, page_of(game))

    assert rendered == [2, 3, 4]  # deal 1's row was kept by the first page
    caches["rendered"].clear()
    whole = score_rows(owner_client, page_of(game))
    assert rendered == [2, 3, 4, 1, 2, 3, 4]
    assert kept == whole
    assert numbers(kept) == [1, 2, 3, 4]
    assert "= 39" in whole  # running totals, as the scoreboard has them (13 cards: 39)


def test_the_page_opened_after_a_deal_renders_that_deals_row_alone(owner_client, game, rendered):
    record(game, 0, 5, 10, 13)
    record(game, 3, 0, 2, 1)
    owner_client.get(page_of(game))
    rendered.clear()

    record(game, 1, 2, 0, 4)  # on another phone: this one loads the page after it
    rows = score_rows(owner_client, page_of(game))

    assert rendered == [3]
    assert numbers(rows) == [1, 2, 3]


def test_rows_asked_again_at_the_same_version_are_not_rendered_again(game, rendered):
    record(game, 0, 5, 10, 13)
    record(game, 3, 0, 2, 1)
    first = kept_rows.board_rows(load_board(game.pk), shared=False)
    rendered.clear()

    # The board's own fragment dropped from the cache, say: its rows are still kept.
    again = kept_rows.board_rows(load_board(game.pk), shared=False)

    assert rendered == []
    assert again == first


def test_after_an_edit_every_row_is_rendered_again_with_its_new_total(
    owner_client, owner, game, rendered
):
    record(game, 0, 5, 10, 13)
    record(game, 3, 0, 2, 1)
    owner_client.get(page_of(game))
    rendered.clear()

    services.edit_deal(game=game, number=1, by=owner, cards_left=[0, 5, 10, 12])
    rows = score_rows(owner_client, page_of(game))

    assert rendered == [1, 2]  # an edit changes the running totals of every later row
    assert re.search(r'id="deal-2".*= 25', rows, re.S)  # 24 + 1, not 39 + 1: the new total


def test_after_an_undo_the_deal_is_gone_from_the_rows(owner_client, owner, game, rendered):
    for cards in [(0, 5, 10, 13), (3, 0, 2, 1), (1, 2, 0, 4)]:
        record(game, *cards)
    owner_client.get(page_of(game))

    services.undo_last_deal(game=game, by=owner)

    assert numbers(score_rows(owner_client, page_of(game))) == [1, 2]


def test_the_live_view_and_a_members_page_keep_rows_of_their_own(client, owner_client, owner, game):
    record(game, 0, 5, 10, 13)
    services.share_game(game=game, by=owner)
    game.refresh_from_db()
    member_rows = score_rows(owner_client, page_of(game))

    live_rows = score_rows(client, f"/live/{game.share_token}/")

    assert "Edit deal 1" in member_rows
    assert numbers(live_rows) == [1] and "Edit deal" not in live_rows


def test_each_language_keeps_rows_of_its_own(owner_client, game):
    record(game, 0, 5, 10, 13)
    english = score_rows(owner_client, page_of(game))

    owner_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hant"
    chinese = score_rows(owner_client, page_of(game))

    assert "5 left" in english
    assert chinese != english and "5 left" not in chinese


def test_rows_kept_before_an_edit_are_not_used_after_it(owner_client, owner, game, rendered):
    record(game, 0, 5, 10, 13)
    record(game, 3, 0, 2, 1)
    owner_client.get(page_of(game))  # rows 1 and 2 kept
    record(game, 1, 2, 0, 4)
    services.edit_deal(game=game, number=1, by=owner, cards_left=[0, 5, 10, 12])
    record(game, 2, 0, 3, 1)
    rendered.clear()

    rows = score_rows(owner_client, page_of(game))

    assert rendered == [1, 2, 3, 4]  # the appends since are no run back to the rows kept
    first = re.search(r'id="deal-1".*?</tr>', rows, re.S).group()
    assert "= 24" in first and "= 39" not in first  # 12 cards left now, not 13
