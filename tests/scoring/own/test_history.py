"""The history of a game played with own counts names who sent each figure of a deal, in seat
order, beside the figures: a seat filled in for the table names whoever recorded it."""

from __future__ import annotations

import pytest

from scoring.models import GameChange
from tests.factories import record
from tests.pages import text
from tests.scoring.own.helpers import member, own_game, send

pytestmark = pytest.mark.django_db


def test_the_history_line_names_who_sent_each_figure(client):
    game = own_game()
    for position, cards in enumerate([5, 0, 7, 9]):
        send(game, position, cards)
    line = GameChange.objects.get(game=game, action="record")
    assert line.summary() == "dee recorded deal 1: 5 0 7 9, sent by ann, ben, cy, dee"
    client.force_login(member(game, 1))
    assert "5 0 7 9, sent by ann, ben, cy, dee" in text(client.get(f"/games/{game.pk}/"))


def test_a_seat_filled_in_for_the_table_names_who_recorded_it():
    game = own_game()
    send(game, 0, 5)
    record(game, 5, 0, 7, 9, by=game.club.owner)
    line = GameChange.objects.get(game=game, action="record")
    owner = game.club.owner.username
    assert line.summary().endswith(f"5 0 7 9, sent by ann, {owner}, {owner}, {owner}")


def test_a_deal_typed_whole_on_one_phone_names_its_recorder_alone():
    game = own_game()
    record(game, 5, 0, 7, 9, by=game.club.owner)
    line = GameChange.objects.get(game=game, action="record")
    assert line.summary() == f"{game.club.owner.username} recorded deal 1: 5 0 7 9"
