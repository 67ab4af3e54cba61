"""A season "doubled from N cards": chosen on the new-season form, scored so at the table."""

from __future__ import annotations

import re

from rules.options import PenaltyScale
from rules.ruleset import DEFAULT_RULES, RuleSet
from scoring.models import Season
from tests.factories import make_game
from tests.pages import HTMX, deal_post, text


def post_season(client, club, **fields):
    data = {"name": "Fry at eight", "starts_on": "2027-03-01", "ends_on": ""} | fields
    return client.post(f"/clubs/{club.pk}/seasons/new/", data)


def test_a_season_doubled_from_eight_charges_double_from_eight_cards_at_the_table(
    owner_client, club
):
    response = post_season(owner_client, club, penalties="doubled-from", doubled_from="8")
    assert response.status_code == 302, text(response)
    season = Season.objects.get(name="Fry at eight")
    assert season.ruleset == RuleSet(penalties=PenaltyScale.DOUBLED_FROM, doubled_from=8)
    assert season.rules == "doubled-from-8"

    game = make_game(club)
    assert "Doubled from 8 cards" in text(owner_client.get(f"/games/{game.pk}/"))
    owner_client.post(f"/games/{game.pk}/deals/", deal_post(game, 0, 7, 8, 13), headers=HTMX)
    # 7 cards at 1 each, 8 doubled, 13 trebled.
    assert [seat.total for seat in game.seats.order_by("position")] == [0, 7, 16, 39]
    owner_client.post(f"/games/{game.pk}/deals/", deal_post(game, 12, 0, 9, 1), headers=HTMX)
    assert [seat.total for seat in game.seats.order_by("position")] == [24, 7, 34, 40]


def test_doubled_from_ten_is_saved_as_the_standard_scale(owner_client, club):
    response = post_season(owner_client, club, penalties="doubled-from", doubled_from="10")
    assert response.status_code == 302, text(response)
    assert Season.objects.get(name="Fry at eight").ruleset == DEFAULT_RULES


def test_a_count_outside_two_to_thirteen_is_refused_on_the_form(owner_client, club):
    seasons = Season.objects.count()
    response = post_season(owner_client, club, penalties="doubled-from", doubled_from="14")
    assert response.status_code == 200
    assert "Enter a number of cards from 2 to 13, e.g. 8" in text(response)
    assert Season.objects.count() == seasons


def test_the_form_offers_the_scale_and_its_count_from_the_current_season(owner_client, club):
    post_season(owner_client, club, penalties="doubled-from", doubled_from="12")
    page = text(owner_client.get(f"/clubs/{club.pk}/seasons/new/"))
    assert "Doubled from N cards" in page
    assert re.search(r'<input[^>]*value="doubled-from"[^>]*checked', page)
    assert re.search(r'<input[^>]*name="doubled_from"[^>]*value="12"', page) or re.search(
        r'<input[^>]*value="12"[^>]*name="doubled_from"', page
    )
