"""A win shared counts as a win for each player who shared it, wherever wins are counted: the
league table and its CSV, a member's own line, a player's longest run; the game's JSON names
every winner, BG Stats is told each of them won, and the ratings, head-to-head and BG Stats'
ranks put the sharers level."""

from __future__ import annotations

import csv
import io
import json
import re
from html import unescape
from urllib.parse import unquote

import pytest

from scoring import services
from scoring.models import Game, Player
from scoring.presenters.score_out import BG_STATS_LINK
from scoring.selectors import ratings
from scoring.selectors.head_to_head import head_to_head
from scoring.selectors.player_figures import player_figures
from scoring.selectors.standings import own_lines, standings
from tests.factories import make_club, make_ruled_game, record

BG_STATS = re.compile(r'href="(https://app\.bgstatsapp\.com/createPlay\.html\?data=[^"]+)"')


def shared_win(club, names=("Ann", "Ben", "Cy", "Dee")) -> Game:
    """An open-ended match ended with the first two seats on 5 sharing the win, Cy and Dee on
    10."""
    game = make_ruled_game("open-ended", names=names, club=club)
    record(game, 0, 5, 5, 5)
    record(game, 5, 0, 5, 5)
    services.end_match(game=game, by=club.owner, sharing=[0, 1])
    return game


def sole_win(club, names=("Ann", "Ben", "Cy", "Dee")) -> Game:
    """Won by the first seat alone, on 5."""
    game = make_ruled_game("open-ended", names=names, club=club)
    record(game, 0, 5, 5, 5)
    record(game, 5, 0, 6, 6)
    record(game, 0, 1, 1, 1)
    services.end_match(game=game, by=club.owner)
    return game


@pytest.fixture
def club(db):
    return make_club()


def test_a_shared_win_is_a_game_won_for_each_who_shared_it(club):
    shared_win(club)

    table = {line.name: (line.rank, line.games, line.wins) for line in standings(club.games.all())}

    assert table == {"Ann": (1, 1, 1), "Ben": (1, 1, 1), "Cy": (3, 1, 0), "Dee": (3, 1, 0)}


def test_the_standings_csv_counts_a_shared_win_for_each(club, client):
    game = shared_win(club)
    client.force_login(club.owner)

    response = client.get(f"/seasons/{game.season_id}/standings.csv")
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))

    assert {row["Player"]: row["Won"] for row in rows} == {
        "Ann": "1",
        "Ben": "1",
        "Cy": "0",
        "Dee": "0",
    }


def test_a_members_own_line_counts_a_shared_win(club):
    ann = Player.named("Ann", club=club)
    ann.save()
    services.claim_player(player=ann, by=club.owner)
    shared_win(club)

    (line,) = own_lines(club.owner.pk)

    assert (line.name, line.games, line.wins) == ("Ann", 1, 1)


def test_a_run_of_wins_goes_on_through_a_shared_win(club):
    sole_win(club)
    shared_win(club)
    sole_win(club)

    assert player_figures(club.players.get(name="Ann")).longest_run == 3
    assert player_figures(club.players.get(name="Ben")).longest_run == 1


def test_players_who_shared_a_win_are_level_head_to_head(club):
    shared_win(club)

    meetings = {m.opponent: m for m in head_to_head(club.players.get(name="Ann")).meetings}

    assert (meetings["Ben"].ahead, meetings["Ben"].behind) == (0, 0)
    assert (meetings["Cy"].ahead, meetings["Cy"].behind) == (1, 0)


def test_players_who_shared_a_win_share_its_rank_in_the_ratings(club):
    shared_win(club)

    rated = ratings.latest(club.pk)
    by_name = {club.players.get(pk=pk).name: line.rating for pk, line in rated.items()}

    assert by_name["Ann"] == pytest.approx(by_name["Ben"])
    assert by_name["Ann"] > by_name["Cy"] == pytest.approx(by_name["Dee"])


def test_the_game_json_names_every_winner_and_keeps_winner_for_a_sole_one(club, client):
    shared, alone = shared_win(club), sole_win(club)
    client.force_login(club.owner)

    shared_json = client.get(f"/games/{shared.pk}.json").json()
    alone_json = client.get(f"/games/{alone.pk}.json").json()

    assert (shared_json["status"], shared_json["winner"]) == ("finished", None)
    assert shared_json["winners"] == ["Ann", "Ben"]
    assert (alone_json["winner"], alone_json["winners"]) == ("Ann", ["Ann"])


def test_the_json_of_a_game_in_progress_names_no_winner(club, client):
    game = make_ruled_game("open-ended", club=club)
    record(game, 0, 5, 5, 5)
    client.force_login(club.owner)

    shown = client.get(f"/games/{game.pk}.json").json()

    assert (shown["winner"], shown["winners"]) == (None, [])


def test_bg_stats_is_told_each_player_who_shared_the_win_won(club, client):
    game = shared_win(club)
    client.force_login(club.owner)

    link = unescape(BG_STATS.search(client.get(f"/games/{game.pk}/").content.decode())[1])
    play = json.loads(unquote(link.removeprefix(BG_STATS_LINK)))

    players = {player["name"]: player for player in play["players"]}
    assert {name: p["winner"] for name, p in players.items()} == {
        "Ann": True,
        "Ben": True,
        "Cy": False,
        "Dee": False,
    }
    assert {name: p["rank"] for name, p in players.items()} == {
        "Ann": 1,
        "Ben": 1,
        "Cy": 3,
        "Dee": 3,
    }
