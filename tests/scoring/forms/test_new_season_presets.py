"""The new-season form (issue 29, item 3): named presets first, every house rule behind
"Customise", the start date today, and it says which rules it starts from; a target that fits
the scoring, with why (item 2)."""

from __future__ import annotations

import html
import re

import pytest
from django.utils import timezone

from rules.ruleset import OPTIONS, RuleSet, parse_rules
from scoring.models import Season
from tests.pages import text

pytestmark = pytest.mark.django_db


def new_season_page(client, club, data=None) -> str:
    address = f"/clubs/{club.pk}/seasons/new/"
    response = client.post(address, data) if data is not None else client.get(address)
    return html.unescape(text(response))


def sent(rules: RuleSet, shown: str, preset: str | None = None, **changes) -> dict[str, str]:
    """The form as a phone sends it: the season, and each house rule as the fields show it."""
    fields = {name: str(getattr(rules, name)) for name in (*OPTIONS, "target", "deals")}
    return (
        {"name": "Manila nights", "starts_on": "2027-03-01", "ends_on": ""}
        | fields
        | {"preset": preset or shown, "shown_preset": shown}
        | changes
    )


def test_presets_come_first_and_every_rule_is_behind_customise(owner_client, club):
    page = new_season_page(owner_client, club)
    presets = page.index("Start from")
    customise = page.index("<summary>Customise</summary>")
    assert presets < customise
    for label in ("Standard", "Hong Kong", "Taiwan", "Pusoy Dos (Philippines)"):
        assert page.index(f"<strong>{label}</strong>") < customise
    assert re.search(r'<details class="customise">', page)  # closed: no JavaScript needed
    assert page.index('name="suits"') > customise
    today = timezone.localdate().isoformat()
    assert re.search(rf'name="starts_on" value="{today}"', page)
    assert "Starting from: this club's current season, Season 1 (Standard rules)" in page
    assert re.search(r'<input type="radio" name="preset" value="current"[^>]*checked', page)
    # Each preset says what it plays, and why its target fits its scoring.
    assert (
        "To 15 points. Under Pusoy Dos scoring a loser pays about 1 point a deal, so 100 points"
        " would take about 80 deals: 15 is a match of about a dozen."
    ) in page


def test_a_preset_chosen_is_shown_before_anything_starts(owner_client, club):
    current = club.seasons.get(is_current=True).ruleset
    page = new_season_page(owner_client, club, sent(current, "current", preset="pusoy-dos"))
    assert Season.objects.filter(name="Manila nights").count() == 0
    assert "Not started yet: check the rules below" in page
    assert "Starting from: Pusoy Dos (Philippines) (Pusoy Dos suits" in page
    assert re.search(r'name="suits" value="pusoy-dos-suits"[^>]*checked', page)
    assert re.search(r'name="scoring" value="pusoy-dos-scoring"[^>]*checked', page)
    assert re.search(r'name="target" value="15"', page)
    assert re.search(r'name="name" value="Manila nights"', page)  # what was typed stays

    pusoy = parse_rules("pusoy-dos-suits,pusoy-dos-scoring,to-15")
    response = owner_client.post(f"/clubs/{club.pk}/seasons/new/", sent(pusoy, "pusoy-dos"))
    assert response.status_code == 302
    season = Season.objects.get(name="Manila nights")
    assert season.ruleset.name == "pusoy-dos-suits,pusoy-dos-scoring,to-15"


def test_a_preset_is_customised_before_it_starts(owner_client, club):
    taiwan = parse_rules("bridge-suits")
    data = sent(taiwan, "taiwan", players="3", finish="open-ended")
    assert owner_client.post(f"/clubs/{club.pk}/seasons/new/", data).status_code == 302
    assert Season.objects.get(name="Manila nights").ruleset == parse_rules(
        "bridge-suits,3-players,open-ended"
    )


@pytest.mark.parametrize(
    ("scoring", "target", "rules"),
    [
        ("pusoy-dos-scoring", "100", "pusoy-dos-scoring,to-15"),
        ("finishing-order", "100", "finishing-order,to-35"),
        ("pusoy-dos-scoring", "40", "pusoy-dos-scoring,to-40"),  # typed: kept
    ],
)
def test_the_target_left_alone_fits_the_scoring_chosen(owner_client, club, scoring, target, rules):
    data = sent(RuleSet(), "current", scoring=scoring, target=target)
    assert owner_client.post(f"/clubs/{club.pk}/seasons/new/", data).status_code == 302
    assert Season.objects.get(name="Manila nights").ruleset == parse_rules(rules)


def test_the_target_says_why_it_fits_the_scoring(owner_client, club):
    page = new_season_page(owner_client, club)
    assert (
        "Unless you change it, it fits the scoring chosen. Under penalties for cards left a loser"
        " pays about 8 points a deal, so 100 points is a match of about a dozen deals."
    ) in page


def test_a_clash_opens_customise_to_say_why(owner_client, club):
    data = sent(RuleSet(), "current", scoring="pusoy-dos-scoring", twos="twos-double")
    page = new_season_page(owner_client, club, data)
    assert "would change nothing" in page
    assert '<details class="customise" open>' in page
