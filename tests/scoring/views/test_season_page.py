"""A season's page, whose costly parts are cached under the season's version
(scoring/views/seasons.py): a finished game, a new season, another sort, a message and a member
who left all show at once."""

import datetime
import re

import pytest
from django.test import Client

from scoring import services
from tests.factories import finish, make_club, make_game, make_member, make_user
from tests.pages import text

pytestmark = pytest.mark.django_db


def first_row(page: str) -> str:
    return re.search(r"<tbody>\s*<tr[^>]*>(.*?)</tr>", page, re.S)[1]


def test_a_finished_game_and_a_new_season_show_at_once(owner_client, owner, club):
    season = club.seasons.get()
    assert "None yet." in text(owner_client.get(f"/seasons/{season.pk}/"))
    finish(make_game(club))
    assert "None yet." not in text(owner_client.get(f"/seasons/{season.pk}/"))
    services.start_season(club=club, name="Spring", starts_on=datetime.date.today(), by=owner)
    season.refresh_from_db()
    page = text(owner_client.get(f"/seasons/{season.pk}/"))
    assert ">Spring (current)</a>" in page


def test_each_sort_is_its_own_page(owner_client, club):
    finish(make_game(club))
    season = club.seasons.get()
    by_default = first_row(owner_client.get(f"/seasons/{season.pk}/").content.decode())
    by_penalty = owner_client.get(f"/seasons/{season.pk}/?sort=penalty&order=desc")
    assert first_row(by_penalty.content.decode()) != by_default
    assert first_row(owner_client.get(f"/seasons/{season.pk}/").content.decode()) == by_default


def test_a_message_is_shown_once(owner_client, owner, club):
    season = club.seasons.get()
    owner_client.get(f"/seasons/{season.pk}/")
    answer = owner_client.post(
        f"/clubs/{club.pk}/seasons/new/",
        {"name": "Spring 2027", "starts_on": "2027-03-01", "ends_on": ""},
    )
    assert answer.status_code == 302
    shown = [str(message) for message in owner_client.get(answer["Location"]).context["messages"]]
    assert shown
    assert shown[0] not in text(owner_client.get(answer["Location"]))


def test_a_member_who_left_gets_a_404_not_the_cached_page(club):
    bo = make_member(club, "bo")
    phone = Client()
    phone.force_login(bo)
    season = club.seasons.get()
    assert phone.get(f"/seasons/{season.pk}/").status_code == 200
    services.leave_club(club=club, user=bo)
    assert phone.get(f"/seasons/{season.pk}/").status_code == 404


def test_the_owner_and_a_member_each_see_their_own_page(owner_client, club):
    season = club.seasons.get()
    assert "Start a new season" in text(owner_client.get(f"/seasons/{season.pk}/"))
    phone = Client()
    phone.force_login(make_member(club, "bo"))
    assert "Start a new season" not in text(phone.get(f"/seasons/{season.pk}/"))


def test_the_menu_lists_the_clubs_own_seasons_alone(owner_client, owner, club):
    other = make_club(make_user("olga"), name="Olga's table")
    services.start_season(
        club=other, name="Elsewhere", starts_on=datetime.date.today(), by=other.owner
    )
    page = text(owner_client.get(f"/seasons/{club.seasons.get().pk}/"))
    assert "Season 1" in page
    assert "Elsewhere" not in page
