"""The deal form asks the phone's keyboard for "Next" on each box and "Done" on the last, as the
page comes without scripts (static/js/game-page.js moves the focus on Enter to the next empty
box round the table, records once none is left, and sets each key to say which)."""

from __future__ import annotations

import re

import pytest

from tests.factories import make_ruled_game
from tests.pages import deal_post, text

pytestmark = pytest.mark.django_db


def key_hints(page: str) -> list[tuple[str, str]]:
    """Each number box of the deal form: its name and the Enter key it asks for."""
    boxes = re.findall(r'<input type="number"[^>]*>', page)
    return [
        (re.search(r'name="([^"]+)"', box)[1], re.search(r'enterkeyhint="([^"]+)"', box)[1])
        for box in boxes
        if 'name="stake"' not in box
    ]


def test_each_cards_box_asks_for_next_and_the_last_for_done(owner_client, game):
    page = text(owner_client.get(f"/games/{game.pk}/"))

    assert key_hints(page) == [
        ("cards_0", "next"),
        ("cards_1", "next"),
        ("cards_2", "next"),
        ("cards_3", "done"),
    ]


def test_under_the_stronger_twos_rule_the_last_twos_box_is_done(client):
    game = make_ruled_game("twos-double-each")
    client.force_login(game.club.owner)

    page = text(client.get(f"/games/{game.pk}/"))

    assert key_hints(page)[-2:] == [("cards_3", "next"), ("twos_3", "done")]


def test_with_the_last_player_out_their_cards_box_is_done(client):
    """The winner holds no twos: their box isn't offered, and the cards box before it is last."""
    game = make_ruled_game("twos-double-each")
    client.force_login(game.club.owner)
    tapped = deal_post(game, 1, 2, 3, 0) | {"went_out": "3"}

    page = text(client.post(f"/games/{game.pk}/deals/", tapped))

    hints = dict(key_hints(page))
    assert hints["cards_3"] == "done"
    assert hints["twos_2"] == "next"
