"""A figure sent for a deal already recorded with another, offered back beside it on the game
page (the live part for htmx, the page itself without JavaScript): "Keep the one recorded"
changes nothing, "Put mine in deal N" corrects the deal once, and not a deal changed since."""

from __future__ import annotations

import html
import re
import uuid

import pytest

from scoring import services
from scoring.models import GameChange, SentFacts
from tests.factories import record
from tests.pages import HTMX, text
from tests.scoring.own.helpers import member, own_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    game = own_game()
    record(game, 0, 5, 7, 9)
    return game


def bens_phone(client, game):
    client.force_login(member(game, 1))
    return client


def late_send(client, game, figure: str = "6", *, htmx: bool = True):
    data = {"number": "1", "token": str(uuid.uuid4()), "figure": figure}
    return client.post(f"/games/{game.pk}/deals/own/", data, headers=HTMX if htmx else {})


def offered_form(answer) -> dict[str, str]:
    """The offer's hidden fields, as the page carries them."""
    section = answer.content.decode().split('id="own-clash"')[1].split("</section>")[0]
    fields = re.findall(r'type="hidden" name="([^"]+)" value="([^"]*)"', section)
    return {name: html.unescape(value) for name, value in fields}


def choose(client, game, form: dict[str, str], choice: str, *, htmx: bool = True):
    return client.post(
        f"/games/{game.pk}/deals/own/clash/",
        form | {"choice": choice},
        headers=HTMX if htmx else {},
    )


def cards(game) -> list[int]:
    scores = game.deals.get(number=1).scores.order_by("seat__position")
    return list(scores.values_list("cards_left", flat=True))


@pytest.mark.parametrize("htmx", [True, False])
def test_a_figure_for_a_deal_already_recorded_is_offered_beside_it(client, game, htmx):
    answer = late_send(bens_phone(client, game), game, htmx=htmx)
    page = text(answer)
    assert "Deal 1 was recorded with 5 for ben; you sent 6." in page
    assert "Keep the one recorded" in page and "Put mine in deal 1" in page
    buttons = re.findall(
        r'<button type="submit" class="([^"]+)" name="choice"', answer.content.decode()
    )
    assert buttons == ["button primary", "button"]  # the filled one, first, keeps
    assert cards(game) == [0, 5, 7, 9] and not SentFacts.objects.exists()


def test_keep_the_one_recorded_changes_nothing(client, game):
    form = offered_form(late_send(bens_phone(client, game), game))
    answer = choose(client, game, form, "keep")
    assert "Deal 1 stays as it was recorded; your figure was let go." in text(answer)
    assert cards(game) == [0, 5, 7, 9] and not GameChange.objects.filter(action="edit").exists()


@pytest.mark.parametrize("htmx", [True, False])
def test_put_mine_in_corrects_the_deal_once_however_often_it_is_sent(client, game, htmx):
    form = offered_form(late_send(bens_phone(client, game), game, htmx=htmx))
    for _tap in range(2):  # a double tap, or a resend after a lost answer
        answer = choose(client, game, form, "mine", htmx=htmx)
        if not htmx:
            assert answer.status_code == 302
            answer = client.get(answer["Location"])
        assert "Deal 1 now has your figure." in text(answer)
    assert cards(game) == [0, 6, 7, 9]
    assert GameChange.objects.filter(action="edit").count() == 1


def test_put_mine_in_over_a_deal_changed_since_is_refused_saying_so(client, game):
    form = offered_form(late_send(bens_phone(client, game), game))
    services.edit_deal(game=game, number=1, by=game.club.owner, cards_left=[0, 4, 7, 9])
    answer = choose(client, game, form, "mine")
    assert "Deal 1 was changed on another phone while you chose" in text(answer)
    assert "Deal 1 was recorded with 4 for ben; you sent 6." in text(answer)  # offered again
    assert cards(game) == [0, 4, 7, 9]


def test_a_figure_that_makes_no_deal_is_refused_saying_why(client, game):
    client.force_login(member(game, 2))
    form = offered_form(late_send(client, game, "0"))  # cy says they went out: ann did
    answer = choose(client, game, form, "mine")
    assert "Deal 1 stays as it was: with your figure it is no deal (" in text(answer)
    assert "Only one player can go out" in text(answer)
    assert cards(game) == [0, 5, 7, 9] and not GameChange.objects.filter(action="edit").exists()


def test_a_choice_out_of_date_or_of_no_seat_is_refused(client, game):
    form = offered_form(late_send(bens_phone(client, game), game))
    assert "That form was out of date" in text(choose(client, game, form, "both"))
    client.force_login(game.club.owner)  # no seat at this table
    assert "That form was out of date" in text(choose(client, game, form, "mine"))
    assert cards(game) == [0, 5, 7, 9]
