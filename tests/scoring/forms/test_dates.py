"""A date outside 2000–2100 gets a message saying the range, never a 500, with what was typed
kept and nothing saved; every date input carries an ISO date, in every language."""

from __future__ import annotations

import datetime
import html
import re
from importlib import import_module

import pytest
from django import forms
from django.utils import timezone, translation

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


# An <input type="date"> holds its value as YYYY-MM-DD (HTML's valid date string) whatever the
# page's language; given "2026/12/03", the browser shows an empty box and refuses the form.
def date_inputs() -> list[tuple[str, str, forms.DateInput]]:
    """Every date input of every form on the site: (form, field, widget)."""
    import_module("scoring.forms")
    import_module("checker.forms")
    found, seen, waiting = [], set(), [forms.BaseForm]
    while waiting:
        for form in waiting.pop().__subclasses__():
            waiting.append(form)
            if form in seen or not form.__module__.startswith(("scoring.", "checker.")):
                continue
            seen.add(form)
            for name, field in getattr(form, "base_fields", {}).items():
                if isinstance(field.widget, forms.DateInput):
                    found.append((form.__name__, name, field.widget))
    return found


def test_the_season_form_is_among_the_date_inputs_found():
    assert {("SeasonForm", "starts_on"), ("SeasonForm", "ends_on")} <= {
        (form, name) for form, name, _ in date_inputs()
    }


@pytest.mark.parametrize("language", ["en", "zh-hans", "zh-hant"])
def test_every_date_input_on_the_site_writes_an_iso_date_in_every_language(language):
    with translation.override(language):
        for form, name, widget in date_inputs():
            assert widget.input_type == "date", f"{form}.{name}"
            shown = widget.format_value(datetime.date(2026, 12, 3))
            assert shown == "2026-12-03", f"{form}.{name} in {language}: {shown}"


def test_a_new_season_in_chinese_starts_today_written_as_an_iso_date(owner_client, club):
    owner_client.post("/i18n/setlang/", {"language": "zh-hant", "next": "/"})

    page = text(owner_client.get(f"/clubs/{club.pk}/seasons/new/"))

    today = timezone.localdate().isoformat()
    assert re.search(rf'<input type="date" name="starts_on" value="{today}"', page), page


@pytest.mark.parametrize(
    ("language", "typed"),
    [
        ("en", "2027-03-01"),
        ("en", "03/01/2027"),
        ("zh-hans", "2027-03-01"),
        ("zh-hans", "2027/03/01"),
        ("zh-hant", "2027-03-01"),
        ("zh-hant", "2027/03/01"),
    ],
)
def test_a_season_date_is_still_taken_as_typed_before(owner_client, club, language, typed):
    """What the date fields took before they were written as ISO dates, they still take: ISO
    in both languages, and each language's own way (a browser without a date picker shows a
    plain box)."""
    owner_client.post("/i18n/setlang/", {"language": language, "next": "/"})

    response = new_season(owner_client, club, starts_on=typed)

    assert response.status_code == 302
    assert Season.objects.get(club=club, is_current=True).starts_on == datetime.date(2027, 3, 1)
