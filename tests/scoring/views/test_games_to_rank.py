"""The season's "Rank players with at least N games", changed by its owner once games are
played: the standings follow it, a bad number is refused with what was typed kept, and a double
tap changes nothing more (on SQLite and, in CI's second pass, PostgreSQL)."""

import re

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from scoring.models import Season
from tests.factories import make_club, make_game, make_member, make_user, record

pytestmark = pytest.mark.django_db


@pytest.fixture
def season_with_games():
    """Ann, Ben, Cy and Dee played two games; Eve sat in the second only."""
    owner = make_user("sam")
    club = make_club(owner)
    for names in (("Ann", "Ben", "Cy", "Dee"), ("Ann", "Ben", "Cy", "Eve")):
        game = make_game(club, names)
        for _ in range(3):
            record(game, 0, 13, 12, 13)
    return owner, club.seasons.get()


def test_the_owner_sets_it_after_games_are_played_and_the_table_follows(client, season_with_games):
    owner, season = season_with_games
    client.force_login(owner)
    page = client.get(reverse("scoring:season", args=[season.pk])).content.decode()
    assert "Not yet ranked" not in page
    assert reverse("scoring:season-rules", args=[season.pk]) in page

    answer = client.post(reverse("scoring:games-to-rank", args=[season.pk]), {"min_games": "2"})

    assert answer.status_code == 302
    page = client.get(answer["Location"]).content.decode()
    assert "Saved: the standings rank players by it now." in page
    assert "Not yet ranked" in page
    assert "Eve — 1 game" in re.sub(r"<[^>]+>", "", page)


def test_a_bad_number_is_refused_with_what_was_typed_kept(client, season_with_games):
    owner, season = season_with_games
    client.force_login(owner)
    url = reverse("scoring:games-to-rank", args=[season.pk])

    for typed, said in (
        ("-1", "Enter a number of games, 0 to rank everyone"),
        ("1001", "at most 1000"),
    ):
        answer = client.post(url, {"min_games": typed})
        assert answer.status_code == 400
        page = answer.content.decode()
        assert said in page
        assert f'value="{typed}"' in page
    assert Season.objects.get(pk=season.pk).min_games == 0


def test_a_double_tap_changes_it_once(client, season_with_games):
    owner, season = season_with_games
    client.force_login(owner)
    url = reverse("scoring:games-to-rank", args=[season.pk])

    client.post(url, {"min_games": "3"})
    version = Season.objects.get(pk=season.pk).version
    again = client.post(url, {"min_games": "3"})

    assert again.status_code == 302
    season = Season.objects.get(pk=season.pk)
    assert (season.min_games, season.version) == (3, version)


def test_only_the_owner_may_change_it(client, season_with_games):
    _owner, season = season_with_games
    client.force_login(make_member(season.club, "ben"))

    answer = client.post(reverse("scoring:games-to-rank", args=[season.pk]), {"min_games": "5"})

    assert answer.status_code == 403
    assert Season.objects.get(pk=season.pk).min_games == 0


def test_the_database_refuses_more_than_a_thousand(season_with_games):
    _owner, season = season_with_games
    with pytest.raises(IntegrityError), transaction.atomic():
        Season.objects.filter(pk=season.pk).update(min_games=1001)
