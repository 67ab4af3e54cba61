"""Two phones, one deal number: Ben's phone records deal 2 first, then the scorekeeper's deal 2
arrives. It is offered back beside Ben's with three real buttons ("Keep the one recorded", the
filled one, "Replace deal 2 with mine", "Add mine as a new deal 3"), with htmx and without;
nothing is thrown away or written until one is chosen, and each choice is safe sent twice."""

from __future__ import annotations

import html
import re
import uuid
from functools import partial

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from scoring.models import Game, GameChange
from tests.concurrency import at_once, needs_postgres
from tests.factories import make_club, make_game, make_member, make_user, record
from tests.pages import HTMX, deal_post, text

pytestmark = pytest.mark.django_db

WAYS = pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-javascript"])
MINE = (0, 6, 8, 10)  # the scorekeeper's deal 2
BENS = (4, 0, 1, 2)  # Ben's deal 2, recorded first


@pytest.fixture
def game(owner):
    game = make_game(make_club(owner))
    record(game, 0, 1, 2, 3)
    record(game, *BENS, by=make_member(game.club, "ben"))
    return game


def cards(game: Game) -> list[list[int]]:
    return [
        [score.cards_left for score in deal.scores.order_by("seat__position")]
        for deal in game.deals.order_by("number")
    ]


def post(client, game: Game, data: dict, *, htmx: bool, to: str = "deals/"):
    return client.post(f"/games/{game.pk}/{to}", data, headers=HTMX if htmx else {})


def offer(
    client, game: Game, *, htmx: bool, cards_typed=MINE, number: int = 2
) -> tuple[str, dict[str, str]]:
    """The scorekeeper sends deal 2; the page offered back, and what its choice form sends."""
    response = post(client, game, deal_post(game, *cards_typed, number=number), htmx=htmx)
    assert response.status_code == 200
    page = text(response)
    form = re.search(r'<section id="deal-clash".*?</section>', page, re.S)
    assert form is not None, page
    sent = {
        name: html.unescape(value)
        for name, value in re.findall(
            r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form.group(0)
        )
    }
    return html.unescape(page), sent


def shown(response) -> str:
    """The page's text as a reader sees it."""
    return html.unescape(text(response))


def choose(client, game: Game, sent: dict[str, str], choice: str, *, htmx: bool):
    return post(client, game, sent | {"choice": choice}, htmx=htmx, to="deals/clash/")


@WAYS
def test_a_deal_number_taken_by_another_phone_is_offered_back_beside_the_recorded_one(
    owner_client, game, htmx
):
    page, _sent = offer(owner_client, game, htmx=htmx)

    assert 'role="alert"' in page
    assert "Deal 2 was already recorded on another phone. Yours isn't lost" in page
    clash = page[page.index('id="deal-clash"') :]
    labels = re.findall(r'<button type="submit" class="([^"]*)"[^>]*>([^<]*)</button>', clash)[:3]
    # The filled one, first (Enter's without scripts), changes nothing recorded.
    assert labels == [
        ("button primary", "Keep the one recorded"),
        ("button", "Replace deal 2 with mine"),
        ("button", "Add mine as a new deal 3"),
    ]
    # Both deals, each player's line side by side.
    assert "Recorded: Ann 4, Ben 0, Cy 1, Dee 2" in page
    assert "Yours: Ann 0, Ben 6, Cy 8, Dee 10" in page
    assert 'id="deal-form"' not in page
    assert cards(game) == [[0, 1, 2, 3], list(BENS)]


@WAYS
def test_put_mine_in_records_it_as_the_next_deal_once(owner_client, game, htmx):
    _page, sent = offer(owner_client, game, htmx=htmx)

    for _ in range(2):  # a double tap, or an answer lost and sent again
        response = choose(owner_client, game, sent, "next", htmx=htmx)
        assert response.status_code == (200 if htmx else 302)

    assert cards(game) == [[0, 1, 2, 3], list(BENS), list(MINE)]
    page = text(owner_client.get(f"/games/{game.pk}/"))
    assert 'name="number" value="4"' in page


@WAYS
def test_replace_makes_the_recorded_deal_mine_once(owner_client, game, htmx):
    _page, sent = offer(owner_client, game, htmx=htmx)

    for _ in range(2):
        response = choose(owner_client, game, sent, "replace", htmx=htmx)

    assert cards(game) == [[0, 1, 2, 3], list(MINE)]
    assert GameChange.objects.filter(game=game, action=GameChange.Action.EDIT).count() == 1
    page = text(response if htmx else owner_client.get(f"/games/{game.pk}/"))
    assert "Deal 2 replaced with yours." in page


@WAYS
def test_keep_the_one_recorded_writes_nothing_and_says_so(owner_client, game, htmx):
    _page, sent = offer(owner_client, game, htmx=htmx)

    response = choose(owner_client, game, sent, "keep", htmx=htmx)

    page = text(response if htmx else owner_client.get(f"/games/{game.pk}/"))
    assert "Deal 2 stays as it was recorded; yours was let go." in page
    assert 'name="number" value="3"' in page
    assert cards(game) == [[0, 1, 2, 3], list(BENS)]


def test_a_deal_changed_on_another_phone_meanwhile_is_offered_again_as_it_now_is(
    owner_client, game
):
    _page, sent = offer(owner_client, game, htmx=True)
    ben = Client()
    ben.force_login(get_user_model().objects.get(username="ben"))
    fixed = {"cards_0": "5", "cards_1": "0", "cards_2": "1", "cards_3": "2"}
    assert ben.post(f"/games/{game.pk}/deals/2/edit/", fixed).status_code == 302

    page = text(choose(owner_client, game, sent, "replace", htmx=True))

    assert "Deal 2 was changed on another phone while you chose" in page
    assert "Recorded: Ann 5, Ben 0, Cy 1, Dee 2" in page
    assert "Replace deal 2 with mine" in page
    assert cards(game)[1] == [5, 0, 1, 2]


def test_put_mine_in_when_that_number_was_taken_meanwhile_is_offered_again(owner_client, game):
    _page, sent = offer(owner_client, game, htmx=True)
    record(game, 1, 0, 1, 1)  # deal 3, from Ben's phone

    page = shown(choose(owner_client, game, sent, "next", htmx=True))

    assert "Deal 3 was already recorded on another phone. Yours isn't lost" in page
    assert "Add mine as a new deal 4" in page
    assert "Replace deal 3 with mine" in page
    assert len(cards(game)) == 3


def test_a_deal_put_in_one_way_is_not_put_in_the_other_way_too(owner_client, game):
    """Without JavaScript a second tap can land on another button before the page changes."""
    _page, sent = offer(owner_client, game, htmx=False)

    choose(owner_client, game, sent, "replace", htmx=False)
    choose(owner_client, game, sent, "next", htmx=False)
    assert cards(game) == [[0, 1, 2, 3], list(MINE)]

    _page, sent = offer(owner_client, game, htmx=False, cards_typed=(1, 0, 3, 3))
    choose(owner_client, game, sent, "next", htmx=False)
    choose(owner_client, game, sent, "replace", htmx=False)
    assert cards(game) == [[0, 1, 2, 3], list(MINE), [1, 0, 3, 3]]


def test_the_same_deal_typed_on_two_phones_is_simply_recorded(owner_client, game):
    response = post(owner_client, game, deal_post(game, *BENS, number=2), htmx=True)

    page = text(response)
    assert 'role="alert"' not in page
    assert "Deal 2 was recorded on another phone, just as you typed it." in page
    assert 'name="number" value="3"' in page
    assert len(cards(game)) == 2


def test_a_finished_game_offers_no_next_deal(owner_client, owner):
    game = make_game(make_club(owner))
    for _ in range(3):  # Ben's deal 3 ends the game: Ben, Cy and Dee pass 100
        record(game, 0, 13, 13, 13)
    page, _sent = offer(owner_client, game, htmx=True, number=3)

    assert "Add mine as a new deal" not in page
    assert "Replace deal 3 with mine" in page
    assert "Keep the one recorded" in page


def test_a_choice_sent_with_the_recorded_deal_tampered_with_is_refused(owner_client, game):
    _page, sent = offer(owner_client, game, htmx=True)

    page = text(choose(owner_client, game, sent | {"recorded": "nonsense"}, "replace", htmx=True))

    assert "That form was out of date" in page
    assert cards(game)[1] == list(BENS)


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_two_phones_choosing_at_once_put_the_deal_in_once():
    """The scorekeeper's phone and a second tab of it both choose "Add mine as a new deal 3"."""
    owner = make_user("keeper")
    game = make_game(make_club(owner))
    record(game, 0, 1, 2, 3)
    record(game, *BENS)
    client = Client()
    client.force_login(owner)
    _page, sent = offer(client, game, htmx=True)

    def tap() -> int:
        phone = Client()
        phone.force_login(owner)
        return choose(phone, game, sent, "next", htmx=True).status_code

    assert at_once(partial(tap), partial(tap)) == ["done: 200", "done: 200"]
    assert cards(game) == [[0, 1, 2, 3], list(BENS), list(MINE)]
    assert game.deals.filter(token=uuid.UUID(sent["token"])).count() == 1
