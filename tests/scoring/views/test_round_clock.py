"""The game page of a game with a clock (a club night's round): when the round ends, then, once
its time is up, that the next deal is the last; the script that counts down only on such pages.
An ordinary game's page shows none of it."""

from __future__ import annotations

import datetime
import html
import json
import re

import pytest
from django.utils import timezone

from scoring.models import Game
from tests.factories import make_game, make_ruled_game, record
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


TIME_UP_HINT = (
    "Tap “Went out” for the player who played their last card. Time is up: the game ends with"
    " this deal."
)


def hint_of(page: str) -> dict[str, str]:
    """The hint under the deal form: what it says, and what the page's scripts swap in."""
    found = re.search(r'<p class="muted small hint" id="deal-hint"([^>]*)>(.*?)</p>', page)
    assert found, "no hint under the deal form"
    said = dict(re.findall(r'data-say-([a-z-]+)="([^"]*)"', found[1]))
    return {"text": html.unescape(found[2])} | {k: html.unescape(v) for k, v in said.items()}


@pytest.mark.parametrize("tied", [False, True])
def test_once_the_time_is_up_the_hint_says_the_game_ends_with_this_deal(owner_client, club, tied):
    """Not "once anyone reaches 100", nor, in a tie, "after the first deal that leaves one
    player lowest alone": the deal recorded now is the last, whatever it leaves."""
    game = make_game(club, closes_at=CLOSES)
    if tied:  # Dee passes 100, Ann and Ben tied lowest on 40: the game goes on
        for cards in [(0, 13, 13, 13), (13, 0, 13, 13), (1, 1, 0, 13)]:
            record(game, *cards)
    Game.objects.filter(pk=game.pk).update(closes_at=timezone.now() - datetime.timedelta(1))
    page = owner_client.get(f"/games/{game.pk}/").content.decode()
    assert ("are tied for lowest on 40" in page) == tied
    hint = hint_of(page)
    assert hint["text"] == hint["start"] == TIME_UP_HINT
    assert "time-up" not in hint  # nothing left to swap in


def test_before_its_time_the_hint_carries_what_it_says_once_the_time_is_up(owner_client, club):
    """For static/js/round-clock.js, which swaps it in as the page's clock passes the end."""
    game = make_game(club, closes_at=CLOSES)
    hint = hint_of(owner_client.get(f"/games/{game.pk}/").content.decode())
    assert hint["text"] == hint["start"]
    assert hint["start"].endswith("The game ends once anyone reaches 100.")
    assert hint["time-up"] == TIME_UP_HINT


@pytest.mark.parametrize(
    ("rules", "instruction"),
    [
        ("finishing-order", "Tap “Out next” for each player in the order they went out"),
        ("points-by-hand", "Type each player's points as the table works them out"),
    ],
)
def test_once_the_time_is_up_every_deal_form_s_hint_says_so(owner_client, rules, instruction):
    game = make_ruled_game(rules)
    Game.objects.filter(pk=game.pk).update(closes_at=timezone.now() - datetime.timedelta(1))
    owner_client.force_login(game.club.owner)
    hint = hint_of(owner_client.get(f"/games/{game.pk}/").content.decode())
    assert hint["text"].startswith(instruction)
    assert hint["text"].endswith("Time is up: the game ends with this deal.")


def test_the_time_up_hint_is_in_the_pages_language(owner_client, club):
    game = make_game(club, closes_at=timezone.now() - datetime.timedelta(minutes=1))
    owner_client.post("/i18n/setlang/", {"language": "zh-hant", "next": "/"})
    hint = hint_of(owner_client.get(f"/games/{game.pk}/").content.decode())
    assert "100" not in hint["text"]
    assert hint["text"] != TIME_UP_HINT


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
