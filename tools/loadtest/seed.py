"""The tool's data: users, clubs and games made through scoring.services, and sessions.

Django is imported inside the functions: it is set up on the tool's own database
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
    """A scorekeeper's account, a session of it, its club and its game in progress."""

    username: str
    session: str
    club: int
    game: int


@dataclass
class Plan:
    """What the seed made, for the phones."""

    keepers: list[Keeper]
    viewer_sessions: list[str]  # viewer i is a member of keeper i % len(keepers)'s club
    standings: str  # the big season's standings page
    season_games: int
    bench_sessions: list[str] = field(default_factory=list)  # phase B: one per client
    bench_games: list[list[int]] = field(default_factory=list)  # phase B: fresh games, per client
    bench_game_page: str = ""  # phase B: a game twelve deals in


def seed(
    *, keepers: int, viewers: int, season_games: int, bench_clients: int, bench_games: int
) -> Plan:
    """Users, clubs and games through scoring.services; the big season by seed_season.

    Scorekeepers share one password hash (hashing it for each would take a minute). Every
    account gets a session made here too, as if it had logged in last week: the load run logs
    the scorekeepers in, the rest use theirs.
    """
    from django.db import transaction
    from django.urls import reverse

    rng = random.Random(1)
    league, season = seed_league(season_games=season_games, rng=rng)
    plan = Plan([], [], reverse("scoring:season", args=[season.pk]), season_games)
    with transaction.atomic():
        seed_tables(plan, league, keepers=keepers, viewers=viewers)
        if bench_clients:
            seed_bench(plan, league, clients=bench_clients, games_each=bench_games, rng=rng)
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


def seed_tables(plan: Plan, league, *, keepers: int, viewers: int) -> None:
    """Each scorekeeper's own club (`Table N`) with a game in progress; viewer i a member of
    keeper i % n's club. Everyone is in the league too, to see its standings."""
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
        plan.keepers.append(Keeper(user.username, session_for(user), club.pk, game.pk))
    for index in range(viewers):
        user = User.objects.create_user(username=f"viewer{index}")
        Membership.objects.create(club_id=plan.keepers[index % keepers].club, user=user)
        Membership.objects.create(club=league, user=user)
        plan.viewer_sessions.append(session_for(user))


def seed_bench(plan: Plan, league, *, clients: int, games_each: int, rng: random.Random) -> None:
    """Phase B's account (club `Bench`), a game page to show (twelve deals in) and fresh games
    to record deals in."""
    from django.contrib.auth import get_user_model
    from django.urls import reverse

    from scoring import services
    from scoring.demo import random_game
    from scoring.models import Membership

    user = get_user_model().objects.create_user(username="bench")
    club = services.create_club(name="Bench", owner=user)
    Membership.objects.create(club=league, user=user)
    showcase = services.create_club(name="Showcase", owner=user)  # not checked: seeded deals
    shown = services.start_game(club=showcase, seat_names=SEAT_NAMES, by=user)
    deals = random_game(rng)
    for number, cards in enumerate(deals[: min(12, len(deals) - 1)], start=1):
        services.record_deal(
            game=shown, number=number, cards_left=cards, token=uuid.uuid4(), by=user
        )
    plan.bench_game_page = reverse("scoring:game", args=[shown.pk])
    for _ in range(clients):
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

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    return session.session_key
