"""Every phone of a game played with own counts follows the deal filling in: each figure as it
is sent and who the table still waits for, brought by the board's own fetch (the one the game's
stream asks for on each new version), out of band into a member's own section, and on the
shared live view in its board. The member's own box is never part of it, so what they are
typing stays."""

from __future__ import annotations

import re

import pytest

from nights import services as night_services
from scoring import services
from scoring.presenters.wording import names_and
from tests.nights.helpers import draw, games_of
from tests.pages import text
from tests.scoring.own.helpers import member, own_game, send

pytestmark = pytest.mark.django_db

FETCH = {"HX-Request": "true", "HX-Target": "game-board"}


@pytest.fixture
def game():
    return own_game()


def filling_part(answer) -> str:
    """The answer's deal filling in, its white space squashed."""
    html = answer.content.decode()
    found = re.search(r'<div id="deal-filling"[^>]*>.*?</div>', html, re.S)
    assert found, html
    return re.sub(r"\s+", " ", found.group(0))


def test_a_members_board_fetch_brings_the_filling_out_of_band_not_their_box(client, game):
    client.force_login(member(game, 1))
    shown = game.version
    send(game, 0, 5)
    answer = client.get(f"/games/{game.pk}/board/?v={shown}&deal=1", headers=FETCH)
    part = filling_part(answer)
    assert 'hx-swap-oob="true"' in part
    assert "ann: 5" in part and "Waiting for ben, cy and dee" in part
    assert "Your cards left" not in text(answer)


def test_the_shared_live_view_shows_the_filling_and_follows_it(client, game):
    token = services.share_game(game=game, by=game.club.owner)
    assert "Waiting for ann, ben, cy and dee" in text(client.get(f"/live/{token}/"))
    shown = game.refresh_from_db() or game.version
    send(game, 2, 8)
    answer = client.get(f"/live/{token}/board/?v={shown}", headers=FETCH)
    part = filling_part(answer)
    assert "cy: 8" in part and "Waiting for ann, ben and dee" in part


def test_the_deal_recorded_empties_the_filling_on_every_phone(client, game):
    client.force_login(member(game, 1))
    for position, cards in ((0, 0), (1, 3), (2, 6)):
        send(game, position, cards)
    shown = game.refresh_from_db() or game.version
    send(game, 3, 9)
    answer = client.get(f"/games/{game.pk}/board/?v={shown}&deal=1", headers=FETCH)
    part = filling_part(answer)
    assert "Waiting for ann, ben, cy and dee" in part and "ann: 0" not in part


def test_the_rooms_tv_shows_who_each_table_waits_for(client, game):
    club = game.club
    night = draw(club, count=4, rounds=1, own_counts=True)
    night_services.start_round(night=night, number=1, by=club.owner)
    token = night_services.show_on_tv(night=night, by=club.owner)
    (table_game,) = games_of(night, 1)
    waiting = [seat.player.name for seat in table_game.seats.order_by("position")]
    assert f"Waiting for {names_and(waiting)}" in text(client.get(f"/tv/{token}/"))
    send(table_game, 0, 5)
    board = text(client.get(f"/tv/{token}/board/?state=0", headers={"HX-Request": "true"}))
    assert f"Waiting for {names_and(waiting[1:])}" in board
