"""The big-club benchmark (`python -m tools.bench.big_club`) builds what it says and measures
every page it names. No timing is checked: only that the figures are of what they claim."""

from __future__ import annotations

import random

import pytest

from scoring.models import Game, GameChange
from tools.bench.big_club import RUNS, measure_club, measure_game
from tools.bench.seeding import seed_club_season, seed_long_game

pytestmark = pytest.mark.django_db


def test_the_big_club_has_its_players_and_finished_games():
    names = [f"Player {number}" for number in range(9)]
    user, season = seed_club_season(
        username="big", club_name="Big", player_names=names, games=6, years=3, rng=random.Random(2)
    )
    club = season.club
    assert club.players.count() == 9
    assert club.games.filter(status=Game.Status.FINISHED).count() == 6
    assert club.memberships.filter(user=user).exists()
    assert season.starts_on <= season.games.order_by("created_at").first().created_at.date()


def test_the_long_game_has_its_deals_and_goes_on():
    user, game = seed_long_game(deals=7, rng=random.Random(3))
    game.refresh_from_db()
    assert game.deals.count() == 7 and not game.is_finished
    assert game.club.memberships.filter(user=user).exists()


def test_every_figure_is_printed(capsys):
    measure_club(players=6, games=4, seed=1)
    measure_game(deals=4, seed=1)
    printed = capsys.readouterr().out
    for page in ("head-to-head", "all-time standings", "a player's page", "ratings.json"):
        assert f"  {page} " in printed
    for page in ("game page", "game .json", "game .csv", "score.txt", "correct deal 1"):
        assert f"  {page} " in printed
    assert "queries" in printed and "KB" in printed
    # Each correction timed changed deal 1: none was a resend of what it already held.
    assert GameChange.objects.filter(action=GameChange.Action.EDIT).count() == RUNS
