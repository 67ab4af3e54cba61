"""The deal form asks only what the season's rules take (issue 29, item 2): under Pusoy Dos
scoring, who went out and the twos of the last play, no cards left; under finishing order, the
places. Such a deal is recorded, stored, shown, corrected, undone and exported without the
counts it never asked for."""

from __future__ import annotations

import csv
import io
import re
import uuid

import pytest

from scoring.models import DealScore
from tests.factories import make_member, make_ruled_game
from tests.pages import HTMX, text

PUSOY = "pusoy-dos-suits,pusoy-dos-scoring"

pytestmark = pytest.mark.django_db


def inputs(page: str) -> set[str]:
    """The names of the form inputs on a page (but its hidden ones)."""
    return {
        name
        for tag, name in re.findall(r'<(input|select)[^>]*name="([^"]+)"', page)
        if not re.search(rf'<{tag}[^>]*type="hidden"[^>]*name="{re.escape(name)}"', page)
    }


def post_deal(client, game, headers=None, **fields) -> object:
    data = {"number": str(game.deals.count() + 1), "token": str(uuid.uuid4())} | fields
    return client.post(f"/games/{game.pk}/deals/", data, headers=headers or {})


def test_pusoy_dos_scoring_asks_who_went_out_and_the_twos_of_the_last_play_only(client):
    game = make_ruled_game(PUSOY)
    client.force_login(game.club.owner)
    page = text(client.get(f"/games/{game.pk}/"))
    assert not {name for name in inputs(page) if name.startswith("cards_")}
    assert "— who went out" in page
    for name in ("Ann", "Ben", "Cy", "Dee"):
        assert f'aria-label="{name} went out"' in page
    assert re.search(r'<input type="radio" name="winner" value="1"', page)
    assert "How many twos were in the last play?" in page


def test_a_pusoy_dos_deal_is_recorded_without_anyones_cards_left(client):
    game = make_ruled_game(PUSOY)
    client.force_login(game.club.owner)
    response = post_deal(client, game, winner="1", last_play_twos="1")
    assert response.status_code == 302
    seats = list(game.seats.order_by("position"))
    assert [seat.total for seat in seats] == [2, 0, 2, 2]
    # The winner's 0 is kept (it says who went out); nobody else's count was asked.
    stored = DealScore.objects.filter(deal__game=game).order_by("seat__position")
    assert [score.cards_left for score in stored] == [None, 0, None, None]
    assert [seat.thirteens for seat in seats] == [None] * 4  # a dash in the standings

    board = text(client.get(f"/games/{game.pk}/"))
    assert "went out on a two" in board and "the winner earned 2" in board
    assert "recorded deal 1: 2 0 2 2" in board  # the history line: what each paid


def test_a_pusoy_dos_deal_without_a_winner_is_refused_saying_so(client):
    game = make_ruled_game(PUSOY)
    client.force_login(game.club.owner)
    response = post_deal(client, game, headers=HTMX, last_play_twos="0")
    assert response.status_code == 200
    assert "Say who went out: the player who played their last card" in text(response)
    assert game.deals.count() == 0


def test_a_pusoy_dos_deal_is_corrected_undone_and_exported_without_cards_left(client):
    game = make_ruled_game(f"{PUSOY},pays-for-table")
    client.force_login(game.club.owner)
    post_deal(client, game, winner="0", last_play_twos="2", pays="3")
    game.refresh_from_db()
    assert [seat.total for seat in game.seats.order_by("position")] == [0, 0, 0, 12]

    edit = text(client.get(f"/games/{game.pk}/deals/1/edit/"))
    assert re.search(r'name="winner" value="0"[^>]*checked', edit)
    assert not {name for name in inputs(edit) if name.startswith("cards_")}
    fixed = {"winner": "2", "last_play_twos": "0", "pays": ""}
    assert client.post(f"/games/{game.pk}/deals/1/edit/", fixed).status_code == 302
    assert [seat.total for seat in game.seats.order_by("position")] == [1, 1, 0, 1]

    rows = list(csv.reader(io.StringIO(client.get(f"/games/{game.pk}.csv").text)))
    header, deal = rows[0], rows[1]
    assert deal[header.index("Cy cards left")] == "0"
    assert deal[header.index("Ann cards left")] == ""
    assert deal[header.index("Ann penalty")] == "1"
    exported = client.get(f"/games/{game.pk}.json").json()["deals"][0]
    assert exported["cards_left"] == [None, None, 0, None]
    assert exported["penalties"] == [1, 1, 0, 1]
    season = game.season_id
    assert client.get(f"/seasons/{season}/deals.csv").status_code == 200
    assert client.get(f"/seasons/{season}/").status_code == 200

    # Undone, the form comes back with who went out chosen.
    member = make_member(game.club)
    client.force_login(member)
    undone = text(client.post(f"/games/{game.pk}/undo/", {"number": "1"}, headers=HTMX))
    assert re.search(r'name="winner" value="2"[^>]*checked', undone)


def test_when_the_loser_leads_pusoy_dos_asks_the_cards_left_that_say_who(client):
    game = make_ruled_game(f"{PUSOY},loser-leads")
    client.force_login(game.club.owner)
    page = text(client.get(f"/games/{game.pk}/"))
    assert {"cards_0", "cards_1", "cards_2", "cards_3"} <= inputs(page)
    assert "winner" not in inputs(page)


def test_finishing_order_asks_only_the_places(client):
    game = make_ruled_game("pusoy-dos-suits,finishing-order")
    client.force_login(game.club.owner)
    page = text(client.get(f"/games/{game.pk}/"))
    assert {name for name in inputs(page) if re.match(r"(cards|twos|points)_", name)} == set()
    assert {"place_0", "place_1", "place_2", "place_3"} <= inputs(page)
    response = post_deal(client, game, place_0="2", place_1="1", place_2="4", place_3="")
    assert response.status_code == 302
    assert [seat.total for seat in game.seats.order_by("position")] == [1, 0, 5, 3]
    stored = DealScore.objects.filter(deal__game=game).order_by("seat__position")
    assert [score.cards_left for score in stored] == [None] * 4
