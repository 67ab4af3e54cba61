"""The load test's data: users, clubs and games made through scoring.services, and sessions.

Django is imported inside the functions: it is set up on the load test's own database
(servers.Environment) only once the tool is running.
"""

from __future__ import annotations

import random
import uuid
from dataclasses import dataclass, field

PASSWORD = "league night 2 of clubs"
SEAT_NAMES = ("Ann", "Ben", "Cat", "Dev")
LEAGUE_NAMES = ("Alice", "Ben", "Chloe", "Dan", "Emma", "Frank", "Grace", "Hannah")


@dataclass
class Keeper:
    """A scorekeeper's account, club and game (ids), as seeded."""

    username: str
    club: int
    game: int


@dataclass
class Plan:
    """What the seed made, for the clients."""

    keepers: list[Keeper]
    viewer_sessions: list[str]
    standings: str  # the 1,000-game season's standings page
    season_games: int
    bench_sessions: list[str] = field(default_factory=list)
    bench_games: list[list[int]] = field(default_factory=list)  # per bench thread
    bench_game_page: str = ""
    capacity_sessions: list[list[str]] = field(default_factory=list)  # per table: 4 phones


def seed(
    *,
    keepers: int,
    viewers: int,
    season_games: int,
    bench_threads: int,
    bench_games_each: int,
    rng: random.Random,
) -> Plan:
    """Users, clubs and games through scoring.services; the big season by seed_season.

    Scorekeepers get one password hash between them (hashing it 50 times would take a
    minute); viewers and the benchmark's clients get sessions made here, as if they had logged
    in last week, since logging 200 phones in at once is not what a league night does.
    """
    from django.db import transaction
    from django.urls import reverse

    league, season = seed_league(season_games=season_games, rng=rng)
    plan = Plan(keepers=[], viewer_sessions=[], standings="", season_games=season_games)
    plan.standings = reverse("scoring:season", args=[season.pk])
    with transaction.atomic():
        seed_tables(plan, league, keepers=keepers, viewers=viewers)
        if bench_threads:
            seed_bench(plan, league, threads=bench_threads, games_each=bench_games_each, rng=rng)
    return plan


def seed_league(*, season_games: int, rng: random.Random):
    """The league club, and its current season (begun a year ago) of `season_games` games."""
    import datetime

    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.utils import timezone

    from scoring import services
    from scoring.demo import seed_season
    from scoring.models import Season

    with transaction.atomic():
        owner = get_user_model().objects.create_user(username="league")
        league = services.create_club(name="League", owner=owner)
        season = league.seasons.get(is_current=True)
        Season.objects.filter(pk=season.pk).update(
            starts_on=timezone.localdate() - datetime.timedelta(days=365)
        )
        season.refresh_from_db()
    if season_games:
        seed_season(season=season, by=owner, games=season_games, rng=rng, player_names=LEAGUE_NAMES)
    return league, season


def seed_capacity(*, tables: int, season_games: int, rng: random.Random) -> Plan:
    """The capacity run's tables: a club each with a game in progress, and four phones signed
    in to it (the scorekeeper and three members; sessions made here, as for the viewers)."""
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.urls import reverse

    league, season = seed_league(season_games=season_games, rng=rng)
    plan = Plan(keepers=[], viewer_sessions=[], standings="", season_games=season_games)
    plan.standings = reverse("scoring:season", args=[season.pk])
    with transaction.atomic():
        seed_tables(plan, league, keepers=tables, viewers=3 * tables)
        users = get_user_model().objects.in_bulk(
            [keeper.username for keeper in plan.keepers], field_name="username"
        )
        for index, keeper in enumerate(plan.keepers):
            viewers = plan.viewer_sessions[index::tables]
            plan.capacity_sessions.append([session_for(users[keeper.username]), *viewers])
    return plan


def seed_tables(plan: Plan, league, *, keepers: int, viewers: int) -> None:
    """Each scorekeeper's own club with a game in progress; viewer i a member of keeper i % n's
    club. Everyone is in the league too, to see its standings."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    from scoring import services
    from scoring.models import Membership

    User = get_user_model()
    password = make_password(PASSWORD)
    for index in range(keepers):
        user = User.objects.create(username=f"keeper{index}", password=password)
        club = services.create_club(name=f"Table {index}", owner=user)
        Membership.objects.create(club=league, user=user)
        game = services.start_game(club=club, seat_names=SEAT_NAMES, by=user)
        plan.keepers.append(Keeper(user.username, club.pk, game.pk))
    for index in range(viewers):
        user = User.objects.create_user(username=f"viewer{index}")
        Membership.objects.create(club_id=plan.keepers[index % keepers].club, user=user)
        Membership.objects.create(club=league, user=user)
        plan.viewer_sessions.append(session_for(user))


def seed_bench(plan: Plan, league, *, threads: int, games_each: int, rng: random.Random) -> None:
    """Phase B's account, a game page to show (twelve deals in) and fresh games to record."""
    from django.contrib.auth import get_user_model
    from django.urls import reverse

    from scoring import services
    from scoring.demo import random_game
    from scoring.models import Membership

    user = get_user_model().objects.create_user(username="bench")
    club = services.create_club(name="Bench", owner=user)
    Membership.objects.create(club=league, user=user)
    showcase = services.create_club(name="Showcase", owner=user)
    shown = services.start_game(club=showcase, seat_names=SEAT_NAMES, by=user)
    deals = random_game(rng)
    for number, cards in enumerate(deals[: min(12, len(deals) - 1)], start=1):
        services.record_deal(
            game=shown, number=number, cards_left=cards, token=uuid.uuid4(), by=user
        )
    plan.bench_game_page = reverse("scoring:game", args=[shown.pk])
    for _ in range(threads):
        plan.bench_sessions.append(session_for(user))
        plan.bench_games.append(
            [
                services.start_game(club=club, seat_names=SEAT_NAMES, by=user).pk
                for _ in range(games_each)
            ]
        )


def session_for(user) -> str:
    """A session of `user`, as `login` would store it."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from common import cached_user

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = cached_user.BACKEND
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    return session.session_key
