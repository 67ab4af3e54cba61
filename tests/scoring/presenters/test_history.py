"""A game's history on its board is kept under the board's version, and a deal recorded adds its
own line above the lines kept before it (scoring/presenters/history.py): the board after a deal
renders one line, and shows exactly what a history rendered whole shows."""

import re

import pytest
from django.core.cache import caches
from django.db import transaction

from scoring import caching, selectors, services
from scoring.models import Game
from scoring.presenters import history as kept_history
from tests.factories import record
from tests.pages import deal_post

# Committed for real: what says a version is a deal recorded is kept once the write commits.
pytestmark = pytest.mark.django_db(transaction=True)

HTMX = {"HX-Request": "true"}


@pytest.fixture
def rendered(note_calls) -> list[str]:
    """Each line of history rendered, as it reads."""
    lines: list[str] = []
    note_calls(kept_history, "_rendered", lambda made, changes: lines.extend(made))
    return lines


def history_of(client, game: Game) -> list[str]:
    html = client.get(f"/games/{game.pk}/").content.decode()
    section = re.search(r'<section id="board-history".*?</section>', html, re.S).group()
    return [re.sub(r"\s+", " ", line) for line in re.findall(r"<li>(.*?)</li>", section, re.S)]


def test_the_history_kept_before_a_run_of_deals_and_their_lines_are_the_whole_history(
    owner_client, game, rendered
):
    record(game, 0, 5, 10, 13)
    history_of(owner_client, game)
    for cards in [(3, 0, 2, 1), (1, 2, 0, 4)]:
        record(game, *cards)
    rendered.clear()

    kept = history_of(owner_client, game)

    assert len(rendered) == 2  # deal 1's line was kept by the first page
    caches["rendered"].clear()
    assert history_of(owner_client, game) == kept
    assert [line.split(":")[0] for line in kept] == [
        "owner recorded deal 3",
        "owner recorded deal 2",
        "owner recorded deal 1",
    ]


def test_a_deals_answer_renders_its_own_line_of_history(owner_client, game, rendered):
    record(game, 0, 5, 10, 13)
    record(game, 3, 0, 2, 1)
    history_of(owner_client, game)
    shown = Game.objects.get(pk=game.pk).version
    rendered.clear()

    answer = owner_client.post(
        f"/games/{game.pk}/deals/", deal_post(game, 1, 2, 0, 4, shown=shown), headers=HTMX
    )

    assert answer["HX-Retarget"] == "#deal-area"
    assert len(rendered) == 1 and "recorded deal 3" in rendered[0]
    assert answer.content.decode().count("<li>") == 3


def test_after_an_undo_the_history_is_read_whole(owner_client, owner, game, rendered):
    record(game, 0, 5, 10, 13)
    record(game, 3, 0, 2, 1)
    history_of(owner_client, game)
    rendered.clear()

    services.undo_last_deal(game=game, by=owner)
    lines = history_of(owner_client, game)

    assert len(rendered) == 3
    assert lines[0].startswith("owner undid deal 2")


def test_an_account_renamed_is_named_anew_in_the_kept_history(owner_client, owner, game):
    record(game, 0, 5, 10, 13)
    assert history_of(owner_client, game)[0].startswith("owner recorded deal 1")

    with transaction.atomic():
        owner.username = "olive"
        owner.save()
        caching.account_renamed(owner)  # as the admin does

    assert history_of(owner_client, game)[0].startswith("olive recorded deal 1")


def test_the_kept_history_shows_the_newest_lines_only(owner_client, game, monkeypatch):
    monkeypatch.setattr(selectors, "HISTORY_SHOWN", 3)
    for cards in [(0, 5, 10, 13), (3, 0, 2, 1), (1, 2, 0, 4)]:
        record(game, *cards)
    history_of(owner_client, game)
    record(game, 2, 0, 3, 1)

    lines = history_of(owner_client, game)

    assert [line.split(":")[0] for line in lines] == [
        "owner recorded deal 4",
        "owner recorded deal 3",
        "owner recorded deal 2",
    ]
