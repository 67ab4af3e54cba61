"""A player's page draws two lines over their finished games, the average penalty per deal and
the rating: each names itself to a screen reader by its own title and description."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from tests.factories import finish, make_club, make_game, make_user

pytestmark = pytest.mark.django_db

SEATS = ("Ann", "Ben", "Cy", "Dee")


def test_each_chart_on_a_players_page_is_named_by_its_own_title_and_description(client):
    owner = make_user()
    club = make_club(owner)
    for turn in range(3):  # each game, another seat goes out first
        finish(make_game(club, SEATS[turn:] + SEATS[:turn]))
    client.force_login(owner)
    html = client.get(f"/players/{club.players.get(name='Ann').pk}/").content.decode()

    charts = re.findall(r'<svg class="chart-svg trend".*?</svg>', html, re.S)
    named = {}
    for chart in charts:
        title_id, desc_id = re.search(r'aria-labelledby="([^" ]+) ([^" ]+)"', chart).groups()
        title = re.search(rf'<title id="{title_id}">([^<]+)</title>', chart)
        desc = re.search(rf'<desc id="{desc_id}">([^<]+)</desc>', chart)
        assert title and desc, f"the chart's name is not inside it: {chart[:200]}"
        named[title[1]] = desc[1]
    assert list(named) == ["Rating, game by game", "Average penalty per deal, game by game"]
    assert named["Rating, game by game"].startswith("3 finished games, oldest first: rating")
    assert "Lower is better." in named["Average penalty per deal, game by game"]
    ids = Counter(re.findall(r'\sid="([^"]+)"', html))
    assert [id_ for id_, count in ids.items() if count > 1] == []
