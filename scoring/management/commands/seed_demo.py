"""`manage.py seed_demo`: a demo club with a season of finished games, to look around at once.

Creates (or reuses) the user "demo" with a new random password, printed with where to log in
(the address `make run` serves on: `make demo` passes its HOST and PORT), a club they own, six
to eight players and a season of random finished games that follow the rules, plus one game in
progress. Refuses to seed the same club twice.
"""

from __future__ import annotations

import datetime
import math
import random
import secrets
import uuid

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from scoring import services
from scoring.models import SEATS, Club, Deal, Season
from scoring.services.demo import GAMES_PER_EVENING, random_game, seed_season

DEMO_USERNAME = "demo"
FIRST_NAMES = (
    "Alice", "Ben", "Chloe", "Dan", "Emma", "Frank", "Grace", "Hannah", "Isaac", "Jack",
    "Kate", "Leo", "Maya", "Nick", "Olivia", "Priya", "Ravi", "Sam", "Tom", "Wei",
)  # fmt: skip


def login_address(host: str, port: int) -> str:
    """Where to log in on a site served on `host` and `port`: on every address (0.0.0.0 or ::),
    this computer's own name, and a phone's way in."""
    login = reverse("login")
    if host in ("0.0.0.0", "::", ""):
        return (
            f"http://localhost:{port}{login} (from a phone on the same Wi-Fi,"
            f" http://<this computer's address>:{port}{login})"
        )
    return f"http://{f'[{host}]' if ':' in host else host}:{port}{login}"


class Command(BaseCommand):
    help = "Create a demo club with a season of plausible finished games and print a login."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--club", default="Demo club", help="the club's name (Demo club)")
        parser.add_argument("--games", type=int, default=40, help="finished games (40)")
        parser.add_argument("--seed", type=int, help="seed the random choices, to repeat a run")
        parser.add_argument(
            "--host", default="0.0.0.0", help="where the site listens, for the login printed"
        )
        parser.add_argument("--port", type=int, default=8000, help="its port (8000)")

    def handle(
        self, *args, club: str, games: int, seed: int | None, host: str, port: int, **options
    ) -> None:
        if games < 0:
            raise CommandError("--games can't be negative")
        name = " ".join(club.split())
        if Club.objects.filter(owner__username=DEMO_USERNAME, name__iexact=name).exists():
            raise CommandError(
                f'The demo club "{name}" already exists, and seed_demo won\'t seed it twice.'
                " To start over, delete the database (var/db.sqlite3 by default) and run"
                " `make demo` again; or seed another club with `manage.py seed_demo --club NAME`."
            )
        rng = random.Random(seed)
        password = secrets.token_urlsafe(12)
        with transaction.atomic():
            user, reused = self._demo_user(password)
            demo = services.create_club(name=name, owner=user)
            season = demo.seasons.get(is_current=True)
            # Back-date the season so its games fall on weekly evenings up to yesterday.
            evenings = max(1, math.ceil(games / GAMES_PER_EVENING))
            yesterday = timezone.localdate() - datetime.timedelta(days=1)
            season.starts_on = yesterday - datetime.timedelta(weeks=evenings - 1)
            Season.objects.filter(pk=season.pk).update(starts_on=season.starts_on)
            names = rng.sample(FIRST_NAMES, rng.randint(6, 8))
            seed_season(season=season, by=user, games=games, rng=rng, player_names=names)
            self._game_in_progress(demo, user, names, rng)
            deals = Deal.objects.filter(game__season=season).count()

        self.stdout.write(
            self.style.SUCCESS(
                f'Seeded "{demo.name}": {len(names)} players, {games} finished games'
                f" ({deals:,} deals with the one in progress) and 1 game in progress."
            )
        )
        if reused:
            self.stdout.write(f"The user {DEMO_USERNAME} already existed; its password is new.")
        self.stdout.write(
            f"Log in at {login_address(host, port)}\n"
            f"  username: {DEMO_USERNAME}\n"
            f"  password: {password}\n"
            f"then open {reverse('scoring:club', args=[demo.pk])}"
        )

    def _demo_user(self, password: str):
        users = get_user_model()
        user = users.objects.filter(username=DEMO_USERNAME).first()
        if user is None:
            return users.objects.create_user(username=DEMO_USERNAME, password=password), False
        user.set_password(password)
        user.save(update_fields=["password"])
        return user, True

    def _game_in_progress(self, club: Club, user, names: list[str], rng: random.Random) -> None:
        """Tonight's game, a few deals in, recorded through the real services."""
        game = services.start_game(club=club, seat_names=rng.sample(names, SEATS), by=user)
        deals = random_game(rng)
        # Every deal before the last leaves the game unfinished.
        for number, cards_left in enumerate(deals[: min(rng.randint(4, 9), len(deals) - 1)], 1):
            services.record_deal(
                game=game, number=number, cards_left=cards_left, token=uuid.uuid4(), by=user
            )
