"""What the game page carries for playing on offline (issue 15), and the server's side of the
queue of waiting deals as static/js/waiting-deals.js sends them: in order, each with its own
token, once each; a deal number taken meanwhile answered with the refusal, the server's own
version of that deal and where the game now stands, which is what the phone shows side by side.
"""

from __future__ import annotations

import re
import uuid

import pytest

from scoring import services
from scoring.models import Game
from tests.factories import make_member, make_ruled_game, record
from tests.pages import HTMX, deal_post, embedded

pytestmark = pytest.mark.django_db

FIVE_DEALS = [[0, 13, 2, 3], [1, 13, 0, 4], [0, 2, 3, 5], [4, 0, 1, 2], [0, 10, 1, 1]]


def test_the_game_page_carries_the_engine_s_sheet_the_players_and_the_totals(owner_client, game):
    record(game, 0, 5, 10, 13)
    html = owner_client.get(f"/games/{game.pk}/").content.decode()
    offline = embedded(html, "offline-game")
    assert offline == {
        "game": game.pk,
        "user": str(game.club.owner.pk),
        "names": ["Ann", "Ben", "Cy", "Dee"],
        "record": f"/games/{game.pk}/deals/",
        # Each count's penalty, the engine's: 1 to 9 cards 1 each, 10 to 12 2 each, 13 39.
        "points": [[[0], [1], [2], [3], [4], [5], [6], [7], [8], [9], [20], [22], [24], [39]]],
        "finish": {"target": 100, "ties_play_on": True},
        # By who went out: under the standard rules, who lost doesn't change who leads.
        "next": [
            "Next: Ann deals; whoever holds 3♦ leads",
            "Next: Ben deals; whoever holds 3♦ leads",
            "Next: Cy deals; whoever holds 3♦ leads",
            "Next: Dee deals; whoever holds 3♦ leads",
        ],
    }
    assert embedded(html, "board-state") == {"totals": [0, 5, 20, 39], "next": 2, "finished": False}
    assert 'id="offline-words"' in html
    assert '<script src="/static/js/waiting-deals.js" defer></script>' in html


def test_each_member_s_page_names_its_own_user(client, game):
    """The phone keeps waiting deals under the user the page names: never another's."""
    other = make_member(game.club, "other")
    client.force_login(other)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert embedded(html, "offline-game")["user"] == str(other.pk)


def test_under_rules_the_phone_cannot_score_it_keeps_one_deal_and_says_why(client):
    game = make_ruled_game("finishing-order")
    client.force_login(game.club.owner)
    html = client.get(f"/games/{game.pk}/").content.decode()
    # The queue keeps one deal at a time, in the form: nothing to score it with.
    assert embedded(html, "offline-game")["points"] is None
    assert 'id="offline-words"' not in html
    assert "keeps one deal at a time" in html
    assert embedded(html, "board-state")["next"] == 1


def test_the_shared_live_view_carries_nothing_for_playing_offline(owner_client, game):
    token = services.share_game(game=game, by=game.club.owner)
    html = owner_client.get(f"/live/{token}/").content.decode()
    assert embedded(html, "board-state") is None
    assert embedded(html, "offline-game") is None


def test_waiting_deals_sent_in_order_and_again_land_once_each(owner_client, game):
    """The queue as the phone sends it (htmx's headers, each deal its number and token); then
    all of it once more, as after answers lost on the way back."""
    queue = [
        deal_post(game, *cards, number=n, token=uuid.uuid4())
        for n, cards in enumerate(FIVE_DEALS, 1)
    ]
    for _ in range(2):
        for data in queue:
            response = owner_client.post(f"/games/{game.pk}/deals/", data, headers=HTMX)
            assert response.status_code == 200
            assert 'role="alert"' not in response.content.decode()
    game = Game.objects.get(pk=game.pk)
    assert game.deals.count() == 5
    assert game.is_finished
    assert [seat.total for seat in game.seats.order_by("position")] == [5, 100, 7, 15]
    html = owner_client.get(f"/games/{game.pk}/").content.decode()
    assert embedded(html, "board-state") == {"totals": [5, 100, 7, 15], "next": 6, "finished": True}


def test_a_waiting_deal_whose_number_was_taken_gets_the_server_s_version_back(owner_client, game):
    record(game, 0, 1, 2, 3)
    record(game, 9, 0, 1, 2)  # another phone's deal 2
    mine = deal_post(game, 0, 5, 6, 7, number=2)
    html = owner_client.post(f"/games/{game.pk}/deals/", mine, headers=HTMX).content.decode()
    assert 'role="alert"' in html
    assert "Deal 2 was already recorded" in html
    assert embedded(html, "board-state") == {"totals": [9, 1, 3, 5], "next": 3, "finished": False}
    # The server's deal 2 is on the board that came back, for the phone to show beside its own.
    assert re.search(r'aria-label="Edit deal 2"', html)
    # Put in as the next deal, with a fresh token, it is recorded as deal 3.
    again = mine | {"number": "3", "token": str(uuid.uuid4())}
    html = owner_client.post(f"/games/{game.pk}/deals/", again, headers=HTMX).content.decode()
    assert 'role="alert"' not in html
    assert embedded(html, "board-state")["next"] == 4


def test_a_finished_game_s_page_carries_nothing_for_playing_offline(owner_client, game):
    for cards in FIVE_DEALS:
        record(game, *cards)
    html = owner_client.get(f"/games/{game.pk}/").content.decode()
    assert embedded(html, "offline-game") is None
    assert 'id="offline-words"' not in html  # the queue stays off: one deal at a time
    assert embedded(html, "board-state")["finished"] is True
