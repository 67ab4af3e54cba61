"""The clubs the benchmarks measure: a club's season of finished games, and a long game."""

from __future__ import annotations

import datetime
import random
import uuid


def bench_user(username: str):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(username=username)


def seed_club_season(
    *,
    username: str,
    club_name: str,
    player_names: list[str],
    games: int,
    years: int,
    rng: random.Random,
):
    """A user, their club and its current season, begun `years` years ago, with `games`
    finished games of four of `player_names` at random (stored as
    `scoring.services.demo.seed_season` stores them); returns (the user, the season)."""
    from django.utils import timezone

    from scoring import services
    from scoring.models import Season
    from scoring.services.demo import seed_season

    user = bench_user(username)
    club = services.create_club(name=club_name, owner=user)
    season = club.seasons.get(is_current=True)
    season.starts_on = timezone.localdate() - datetime.timedelta(days=years * 365)
    Season.objects.filter(pk=season.pk).update(starts_on=season.starts_on)
    seed_season(season=season, by=user, games=games, rng=rng, player_names=player_names)
    return user, season


def seed_long_game(*, deals: int, rng: random.Random):
    """An open-ended game with `deals` deals recorded one by one, as at the table; returns (its
    scorekeeper, the game)."""
    from rules.options import Finish
    from rules.ruleset import RuleSet
    from scoring import services
    from scoring.services.demo import random_deal

    user = bench_user("long-game")
    club = services.create_club(name="Long game club", owner=user)
    season = club.seasons.get(is_current=True)
    services.set_season_rules(season=season, rules=RuleSet(finish=Finish.OPEN), stake=None, by=user)
    game = services.start_game(club=club, seat_names=["Ann", "Ben", "Cy", "Dee"], by=user)
    for number in range(1, deals + 1):
        services.record_deal(
            game=game, number=number, token=uuid.uuid4(), by=user, cards_left=random_deal(rng)
        )
    return user, game
