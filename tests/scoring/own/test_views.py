"""The member's own figure sent from the game page: a plain form that works without JavaScript
(a redirect) and with htmx (the game's live part), refusals in words with the figure typed kept,
nothing half-saved."""

from __future__ import annotations

import re
import uuid

import pytest
from django.test import Client

from scoring import services
from scoring.models import SentFacts
from tests.factories import make_club, make_member, record
from tests.pages import HTMX, text
from tests.scoring.own.helpers import member, own_game, send

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    return own_game()


def phone(client, game, position: int):
    client.force_login(member(game, position))
    return client


def own_post(game, figure: str = "", **extra: str) -> dict[str, str]:
    return {"number": "1", "token": str(uuid.uuid4()), "figure": figure} | extra


def post(client, game, data, *, htmx: bool = True):
    return client.post(f"/games/{game.pk}/deals/own/", data, headers=HTMX if htmx else {})


def test_a_seated_members_page_asks_their_own_figure_and_says_who_is_waited_for(client, game):
    page = text(phone(client, game, 0).get(f"/games/{game.pk}/"))
    for words in ("Your cards left", "Send", "I went out", "Fill in for the table"):
        assert words in page
    assert "Waiting for ann, ben, cy and dee" in page


def test_a_member_without_a_seat_sees_the_filling_but_no_form_of_their_own(client, game):
    send(game, 0, 5)
    client.force_login(game.club.owner)
    page = text(client.get(f"/games/{game.pk}/"))
    assert "Waiting for ben, cy and dee" in page and "ann: 5" in page
    assert "Your cards left" not in page
    answer = post(client, game, own_post(game, "5"))
    assert "You have no seat at this table" in text(answer)
    assert SentFacts.objects.count() == 1


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-javascript"])
def test_a_figure_sent_is_stored_and_shown(client, game, htmx):
    answer = post(phone(client, game, 1), game, own_post(game, "7"), htmx=htmx)
    if htmx:
        assert answer.status_code == 200 and 'id="game-live"' in answer.content.decode()
        page = text(answer)
    else:
        assert answer.status_code == 302 and answer["Location"] == f"/games/{game.pk}/"
        page = text(client.get(answer["Location"]))
    assert "Sent: your figure for deal 1." in page
    assert "ben: 7" in page and "Waiting for ann, cy and dee" in page
    assert SentFacts.objects.get().cards_left == 7


def test_i_went_out_sends_a_0(client, game):
    post(phone(client, game, 2), game, own_post(game, went_out="on"))
    assert SentFacts.objects.get().cards_left == 0


def test_the_last_figure_records_the_deal(client, game):
    for position, cards in enumerate([5, 0, 7]):
        send(game, position, cards)
    answer = post(phone(client, game, 3), game, own_post(game, "9"))
    assert "Deal 1 recorded." in text(answer)
    assert game.deals.count() == 1


@pytest.mark.parametrize(
    ("figure", "said"),
    [
        ("", "Type your figure, or tap “I went out”"),
        ("abc", "Type a whole number, or tap “I went out”"),
        ("40", "Type a number up to 39"),
    ],
)
def test_a_figure_refused_is_said_and_kept(client, game, figure, said):
    answer = post(phone(client, game, 0), game, own_post(game, figure))
    assert answer.status_code == 200
    assert said in text(answer)
    assert f'value="{figure}"' in answer.content.decode() or not figure
    assert not SentFacts.objects.exists()


def test_figures_that_make_no_valid_deal_are_said_on_every_phone(client, game):
    for position in range(3):
        send(game, position, [0, 5, 7][position])
    post(phone(client, game, 3), game, own_post(game, went_out="on"))
    page = text(client.get(f"/games/{game.pk}/"))
    assert "Only one player can go out in a deal — ann and dee both have 0" in page
    assert not game.deals.exists()


def test_an_out_of_date_form_is_refused(client, game):
    answer = post(phone(client, game, 0), game, own_post(game, "5", number="x"))
    assert "That form was out of date" in text(answer)


def test_someone_elses_club_is_a_404(client, game):
    client.force_login(make_member(make_club(), "zed"))
    assert post(client, game, own_post(game, "5")).status_code == 404
    assert not SentFacts.objects.exists()


def test_the_send_needs_the_csrf_token(game):
    client = Client(enforce_csrf_checks=True)
    client.force_login(member(game, 0))
    assert post(client, game, own_post(game, "5")).status_code == 403
    assert not SentFacts.objects.exists()


def test_a_get_of_the_send_is_refused(client, game):
    assert phone(client, game, 0).get(f"/games/{game.pk}/deals/own/").status_code == 405


def test_the_json_says_who_entered_each_figure_and_the_deal_filling_in(client, game):
    for position, cards in enumerate([5, 0, 7, 9]):
        send(game, position, cards)
    send(game, 2, 3, number=2)
    client.force_login(game.club.owner)
    data = client.get(f"/games/{game.pk}.json").json()
    assert data["deals"][0]["entered_by"] == ["ann", "ben", "cy", "dee"]
    assert data["filling"] == {"number": 2, "sent": ["cy"], "waiting": ["ann", "ben", "dee"]}
    record(game, 0, 5, 3, 9)
    data = client.get(f"/games/{game.pk}.json").json()
    assert data["filling"] is None
    assert data["deals"][1]["entered_by"] == [game.club.owner.username] * 2 + [
        "cy",
        game.club.owner.username,
    ]


def test_the_whole_table_form_shows_what_has_been_sent_so_far(client, game):
    send(game, 0, 5)
    send(game, 2, 0)
    client.force_login(game.club.owner)
    page = client.get(f"/games/{game.pk}/").content.decode()
    for name, value in (("cards_0", "5"), ("cards_2", "0")):
        assert re.search(rf'<input[^>]*name="{name}"[^>]*value="{value}"', page), name
    assert not re.search(r'<input[^>]*name="cards_1"[^>]*value="\d', page)


def test_a_players_box_shows_what_they_sent_to_change_until_the_deal_records(client, game):
    send(game, 1, 6)
    page = phone(client, game, 1).get(f"/games/{game.pk}/").content.decode()
    assert re.search(r'<input[^>]*name="figure"[^>]*value="6"', page)


def test_the_board_brings_the_whole_table_form_what_was_sent_but_not_to_the_live_view(client, game):
    send(game, 2, 0)
    client.force_login(game.club.owner)
    board = client.get(f"/games/{game.pk}/board/?v=0", headers=HTMX).content.decode()
    assert '<data hidden data-fill="cards_2" value="0">' in board
    assert '<data hidden data-fill="winner" value="2">' in board
    token = services.share_game(game=game, by=game.club.owner)
    assert "data-fill" not in client.get(f"/live/{token}/").content.decode()
