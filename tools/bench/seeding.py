"""The big club and the long game `tools.bench.big_club` measures."""

from __future__ import annotations

import datetime
import random
import uuid


def bench_user(username: str):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(username=username)


def seed_big_club(*, players: int, games: int, rng: random.Random):
    """A club of `players` players and `games` finished games, four of them at random at each
    (stored as `scoring.services.demo.seed_season` stores them); returns (its owner, the club)."""
    from django.utils import timezone

    from scoring import services
    from scoring.models import Season
    from scoring.services.demo import seed_season

    user = bench_user("big-club")
    club = services.create_club(name="Big club", owner=user)
    season = club.seasons.get(is_current=True)
    season.starts_on = timezone.localdate() - datetime.timedelta(days=3 * 365)
    Season.objects.filter(pk=season.pk).update(starts_on=season.starts_on)
    names = [f"Player {number:04}" for number in range(1, players + 1)]
    seed_season(season=season, by=user, games=games, rng=rng, player_names=names)
    return user, club


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
