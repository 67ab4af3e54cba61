"""The tool's data, made through scoring.services (Django is set up only once running)."""

import datetime
import functools
import random
import time
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
    bench_sessions: list[str] = field(default_factory=list)  # phase B: one per client
    bench_games: list[list[int]] = field(default_factory=list)  # phase B: fresh games, per client
    bench_game_page: str = ""  # phase B: a game twelve deals in


def seed(options) -> Plan:
    """The run's users, clubs and games, the league's season (begun a year ago), and sessions."""
    from django.contrib.auth import get_user_model
    from django.db import connections, transaction
    from django.urls import reverse
    from django.utils import timezone

    from scoring import services
    from scoring.models import Season
    from scoring.services.demo import seed_season

    started, rng = time.perf_counter(), random.Random(1)
    with transaction.atomic():
        owner = get_user_model().objects.create_user(username="league")
        league = services.create_club(name="League", owner=owner)
        season = league.seasons.get(is_current=True)
        year_ago = timezone.localdate() - datetime.timedelta(days=365)
        Season.objects.filter(pk=season.pk).update(starts_on=year_ago)
        season.refresh_from_db()
    if games := options.season_games:
        seed_season(season=season, by=owner, games=games, rng=rng, player_names=LEAGUE_NAMES)
    plan = Plan([], [], reverse("scoring:season", args=[season.pk]))
    with transaction.atomic():
        seed_tables(plan, league, options.scorekeepers, options.viewers)
        if options.bench:
            seed_bench(plan, league, options.bench_clients, options.bench_games, rng)
    print(
        f"seeded {options.scorekeepers} scorekeepers (a club and a game each), {options.viewers}"
        f" viewers, a {options.season_games:,}-game season in {time.perf_counter() - started:.1f} s"
    )
    connections.close_all()
    return plan


def seed_tables(plan: Plan, league, keepers: int, viewers: int) -> None:
    """Each scorekeeper's club (`Table N`) and game, its viewers; all in the league too."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    from scoring import services
    from scoring.models import Membership

    User = get_user_model()
    password = make_password(PASSWORD)  # one hash for all: one each would take a minute
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


def seed_bench(plan: Plan, league, clients: int, games_each: int, rng: random.Random) -> None:
    """Phase B's account (club `Bench`), a game page to show, and fresh games to record deals in."""
    from django.contrib.auth import get_user_model
    from django.urls import reverse

    from scoring import services
    from scoring.models import Membership
    from scoring.services.demo import random_game

    user = get_user_model().objects.create_user(username="bench")
    start_game = functools.partial(services.start_game, seat_names=SEAT_NAMES, by=user)
    club = services.create_club(name="Bench", owner=user)
    Membership.objects.create(club=league, user=user)
    showcase = services.create_club(name="Showcase", owner=user)  # not checked: seeded deals
    shown = start_game(club=showcase)
    deals = random_game(rng)
    for n, cards in enumerate(deals[: min(12, len(deals) - 1)], start=1):
        services.record_deal(game=shown, number=n, cards_left=cards, token=uuid.uuid4(), by=user)
    plan.bench_game_page = reverse("scoring:game", args=[shown.pk])
    for _ in range(clients):
        plan.bench_sessions.append(session_for(user))
        plan.bench_games.append([start_game(club=club).pk for _ in range(games_each)])


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
