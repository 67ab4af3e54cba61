"""A date outside 2000–2100 gets a message saying the range, never a 500, with what was typed
kept and nothing saved."""

from __future__ import annotations

import datetime
import html

import pytest

from scoring import services
from scoring.models import Season
from tests.pages import text

pytestmark = pytest.mark.django_db

RANGE = "Enter a date from 1 Jan 2000 to 31 Dec 2100"
OUTSIDE = ["0001-01-01", "1999-12-31", "2101-01-01", "9999-12-31"]


def new_season(client, club, **dates: str):
    data = {"name": "Far away", "starts_on": "2027-03-01", "ends_on": ""} | dates
    return client.post(f"/clubs/{club.pk}/seasons/new/", data)


@pytest.mark.parametrize("field", ["starts_on", "ends_on"])
@pytest.mark.parametrize("day", OUTSIDE)
def test_a_season_date_outside_the_range_is_refused_saying_the_range(
    owner_client, club, field, day
):
    response = new_season(owner_client, club, **{field: day})

    assert response.status_code == 200
    page = html.unescape(text(response))
    assert RANGE in page
    assert f'name="{field}" value="{day}"' in page
    assert 'value="Far away"' in page
    assert list(Season.objects.filter(club=club).values_list("name", flat=True)) == ["Season 1"]
    assert Season.objects.get(club=club).ends_on is None  # the current season was not ended


@pytest.mark.parametrize("starts_on, ends_on", [("2000-01-01", ""), ("2027-01-01", "2100-12-31")])
def test_the_first_and_last_days_of_the_range_are_fine(owner_client, club, starts_on, ends_on):
    response = new_season(owner_client, club, starts_on=starts_on, ends_on=ends_on)
    assert response.status_code == 302
    assert Season.objects.get(club=club, is_current=True).name == "Far away"


@pytest.mark.parametrize("day", [datetime.date(1, 1, 1), datetime.date(9999, 12, 31)])
def test_the_service_refuses_a_season_outside_the_range_too(owner, club, day):
    with pytest.raises(services.ScoringError, match=RANGE):
        services.start_season(club=club, name="Far away", starts_on=day, by=owner)
    with pytest.raises(services.ScoringError, match=RANGE):
        services.start_season(
            club=club, name="Far away", starts_on=datetime.date(2027, 1, 1), ends_on=day, by=owner
        )
    assert club.seasons.count() == 1
