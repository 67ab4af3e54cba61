"""Scores out: a finished game sent to BG Stats by its push link, and any game of cards left
written as a big-two-scorer score file."""

from __future__ import annotations

import json
import re
from html import unescape
from urllib.parse import unquote

import pytest

from scoring import services
from scoring.presenters.score_out import BG_STATS_LINK
from tests.factories import make_ruled_game, record, record_facts

LINK = re.compile(r'href="(https://app\.bgstatsapp\.com/createPlay\.html\?data=[^"]+)"')


def bg_stats_play(client, game):
    page = client.get(f"/games/{game.pk}/").content.decode()
    found = LINK.search(page)
    assert found is not None, "no “Send to BG Stats” link"
    assert "Send to BG Stats" in page
    link = unescape(found[1])
    assert link.startswith(BG_STATS_LINK)
    return json.loads(unquote(link.removeprefix(BG_STATS_LINK)))


@pytest.fixture
def ended_match(club, owner):
    """An open-ended match, ended after three deals: Ann 8, Ben 4, Cy 4+22, Dee 26."""
    game = make_ruled_game("open-ended", club=club)
    record(game, 0, 4, 10, 13)  # 0 4 20 39
    record(game, 8, 0, 12, 13)  # 8 0 24 39
    record(game, 1, 1, 0, 1)
    services.end_match(game=game, by=owner)
    return game


def test_a_finished_game_is_sent_with_totals_ranks_and_the_winner(owner_client, ended_match):
    play = bg_stats_play(owner_client, ended_match)
    players = {player["name"]: player for player in play["players"]}
    assert {name: p["score"] for name, p in players.items()} == {
        "Ann": 9,
        "Ben": 5,
        "Cy": 44,
        "Dee": 79,
    }
    assert {name: p["rank"] for name, p in players.items()} == {
        "Ann": 2,
        "Ben": 1,
        "Cy": 3,
        "Dee": 4,
    }
    assert [name for name, p in players.items() if p["winner"]] == ["Ben"]
    assert play["game"]["name"] == "Big Two" and play["sourceName"]


def test_tied_totals_share_a_rank(owner_client, owner, club):
    game = make_ruled_game("open-ended", club=club)
    record(game, 0, 2, 2, 1)
    services.end_match(game=game, by=owner)
    ranks = {p["name"]: p["rank"] for p in bg_stats_play(owner_client, game)["players"]}
    assert ranks == {"Ann": 1, "Ben": 3, "Cy": 3, "Dee": 2}


def test_a_game_still_played_is_not_offered(owner_client, game):
    record(game, 0, 4, 10, 13)
    assert "Send to BG Stats" not in owner_client.get(f"/games/{game.pk}/").content.decode()


def test_the_game_page_offers_its_score_file(owner_client, ended_match):
    page = owner_client.get(f"/games/{ended_match.pk}/").content.decode()
    assert f"/games/{ended_match.pk}/score.txt" in page
    response = owner_client.get(f"/games/{ended_match.pk}/score.txt")
    assert response["Content-Type"].startswith("text/plain")
    lines = response.content.decode().splitlines()
    day = ended_match.created_at.date().isoformat()
    assert lines[1:] == [day, "Ann Ben Cy Dee", "0 4 10 13", "8 0 12 13", "1 1 0 1"]


def test_a_score_file_marks_who_paid_and_a_doubled_scale(owner_client, club):
    game = make_ruled_game("doubled-from-8,pays-for-table", club=club)
    record_facts(game, cards_left=(0, 5, 9, 13), pays=2)
    text = owner_client.get(f"/games/{game.pk}/score.txt").content.decode()
    assert "F=8" in text.splitlines()
    assert text.splitlines()[-1] == "0 5 9t 13"


def test_points_by_hand_games_have_no_score_file(owner_client, club):
    game = make_ruled_game("points-by-hand", club=club)
    record_facts(game, points=(0, 5, 9, 13))
    page = owner_client.get(f"/games/{game.pk}/").content.decode()
    assert "score.txt" not in page
    assert owner_client.get(f"/games/{game.pk}/score.txt").status_code == 404
