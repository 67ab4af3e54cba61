"""The game page of a game with a clock (a club night's round): when the round ends, then, once
its time is up, that the next deal is the last; the script that counts down only on such pages.
An ordinary game's page shows none of it."""

from __future__ import annotations

import datetime
import json
import re

import pytest
from django.utils import timezone

from scoring.models import Game
from tests.factories import make_game, record
from tests.pages import HTMX, deal_post, text

pytestmark = pytest.mark.django_db

LAST_DEAL = (
    "Last deal: time is up. The game ends after the next deal; the lowest total wins, and a tie"
    " shares the win."
)
CLOSES = timezone.make_aware(datetime.datetime(2099, 8, 31, 21, 30), datetime.UTC)


def shown(html: str, marker: str) -> bool:
    """Whether the element carrying `marker` is there and not hidden."""
    found = re.search(rf"<p [^>]*{marker}[^>]*>", html)
    return found is not None and " hidden" not in found.group(0)


def test_before_its_time_the_page_says_when_the_round_ends(owner_client, club):
    game = make_game(club, closes_at=CLOSES)
    html = owner_client.get(f"/games/{game.pk}/").content.decode()
    assert 'Round ends at <time datetime="2099-08-31T21:30:00+00:00">21:30</time>' in html
    assert 'data-closes-at="2099-08-31T21:30:00+00:00"' in html
    assert shown(html, "data-clock-before")
    assert not shown(html, "data-clock-after")
    assert "js/round-clock.js" in html


def test_once_the_time_is_up_the_page_says_the_next_deal_is_the_last(owner_client, club):
    game = make_game(club, closes_at=timezone.now() - datetime.timedelta(minutes=1))
    html = owner_client.get(f"/games/{game.pk}/").content.decode()
    assert LAST_DEAL in text(owner_client.get(f"/games/{game.pk}/"))
    assert re.search(r'<p class="banner" role="status" data-clock-after>', html)
    assert not shown(html, "data-clock-before")


def test_the_time_up_notice_comes_with_the_deal_area_htmx_swaps_in(owner_client, club):
    """Not in the board's cached fragments: a deal recorded answers with it, as it now is."""
    game = make_game(club, closes_at=CLOSES)
    record(game, 0, 5, 5, 5)
    owner_client.get(f"/games/{game.pk}/")  # the board's fragments cached at this version
    Game.objects.filter(pk=game.pk).update(closes_at=timezone.now() - datetime.timedelta(1))
    answer = owner_client.post(f"/games/{game.pk}/deals/", deal_post(game, 9, 0, 9, 9))
    game.refresh_from_db()
    assert game.is_finished and game.last_deal == 2
    assert LAST_DEAL not in text(answer)
    undo = owner_client.post(f"/games/{game.pk}/undo/", {"number": "2"}, headers=HTMX)
    assert undo.status_code == 200
    assert LAST_DEAL in text(undo)


def test_a_finished_game_with_a_clock_shows_neither(owner_client, club):
    game = make_game(club, closes_at=timezone.now() - datetime.timedelta(minutes=1))
    record(game, 0, 5, 5, 5)
    html = owner_client.get(f"/games/{game.pk}/").content.decode()
    assert "Round ends at" not in html and LAST_DEAL not in html
    assert "round-clock.js" not in html


def test_an_ordinary_game_shows_no_clock(owner_client, club):
    game = make_game(club)
    html = owner_client.get(f"/games/{game.pk}/").content.decode()
    assert "Round ends at" not in html and "Last deal" not in html
    assert "data-closes-at" not in html and "round-clock.js" not in html


def test_the_round_ends_in_the_pages_language(owner_client, club):
    game = make_game(club, closes_at=CLOSES)
    owner_client.post("/i18n/setlang/", {"language": "zh-hant", "next": "/"})
    Game.objects.filter(pk=game.pk).update(closes_at=timezone.now() - datetime.timedelta(1))
    page = text(owner_client.get(f"/games/{game.pk}/"))
    assert "最後一手" in page


def test_the_json_export_says_when_the_game_closes_and_its_last_deal(owner_client, club):
    game = make_game(club, closes_at=CLOSES)
    data = json.loads(owner_client.get(f"/games/{game.pk}.json").content)
    assert (data["closes_at"], data["last_deal"]) == ("2099-08-31T21:30:00Z", None)
    Game.objects.filter(pk=game.pk).update(closes_at=timezone.now() - datetime.timedelta(1))
    record(game, 0, 5, 5, 5)
    data = json.loads(owner_client.get(f"/games/{game.pk}.json").content)
    assert (data["status"], data["last_deal"], data["winner"]) == ("finished", 1, "Ann")
