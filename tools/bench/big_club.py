"""What a big club and a long game cost: the pages whose work grows with the club's players or
a game's deals, timed in a throwaway database.

Run it with `python -m tools.bench.big_club` (`--help` for the sizes). It seeds a throwaway
database (`tools.bench.throwaway`), so it never touches the site's own data. Pages are asked
for with Django's test client, the way a browser would get them, minus the network, with the
site's cache as configured.

It prints, for a club of `--players` players (`--games` finished games among them): the
club's head-to-head, its all-time standings and a player's page, each the first time (nothing
cached) and the second; and for one game of `--deals` deals (GAME_MAX_DEALS unless told): its
page, its JSON, CSV and score file, and a correction of deal 1 (the time the write holds the
game's lock), with the queries each took.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from tools.bench.throwaway import nothing_cached, pages_as_served, start_django, throwaway_database

RUNS = 5


class Timed:
    """One measured call: seconds, queries and bytes answered."""

    def __init__(self, call: Callable[[], object]) -> None:
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as queries:
            started, cpu = time.perf_counter(), time.process_time()
            answer = call()
            self.size = _body_size(answer)
            self.seconds = time.perf_counter() - started
            self.cpu = time.process_time() - cpu
        self.queries = len(queries)

    def __str__(self) -> str:
        # CPU time too: on a busy machine it says more than the time on the clock. A SQLite
        # database works in this process, so its queries count in it.
        size = f", {self.size / 1000:,.1f} KB" if self.size else ""
        timed = f"{self.seconds * 1000:8.1f} ms (CPU {self.cpu * 1000:7.1f} ms)"
        return f"{timed}, {self.queries:3} queries{size}"


def _body_size(answer: object) -> int:
    if getattr(answer, "streaming", False):
        return sum(len(chunk) for chunk in answer.streaming_content)
    content = getattr(answer, "content", None)
    return len(content) if content is not None else 0


def get(client, url: str):
    def call():
        response = client.get(url)
        if response.status_code != 200:
            raise RuntimeError(f"GET {url} answered {response.status_code}")
        return response

    return call


def first_and_second(label: str, call: Callable[[], object]) -> None:
    """The first request (nothing cached for it), then the median of RUNS more."""
    first = Timed(call)
    later = [Timed(call) for _ in range(RUNS)]
    second = min(
        later,
        key=lambda timed: abs(timed.seconds - statistics.median(run.seconds for run in later)),
    )
    print(f"  {label:<28} first {first}")
    print(f"  {'':<28} again {second}  (median of {RUNS})")


def measure_club(*, players: int, games: int, seed: int) -> None:
    from django.db.models import Count
    from django.test import Client
    from django.urls import reverse

    from tools.bench.seeding import seed_club_season

    started = time.perf_counter()
    names = [f"Player {number:04}" for number in range(1, players + 1)]
    user, season = seed_club_season(
        username="big-club",
        club_name="Big club",
        player_names=names,
        games=games,
        years=3,
        rng=random.Random(seed),
    )
    club = season.club
    print(
        f"club of {players:,} players, {games:,} finished games"
        f" (seeded in {time.perf_counter() - started:.1f} s)"
    )
    with nothing_cached():
        client = Client()
        client.force_login(user)
        busiest = club.players.annotate(games=Count("seats")).order_by("-games", "pk").first()
        first_and_second(
            "head-to-head", get(client, reverse("scoring:club-head-to-head", args=[club.pk]))
        )
        first_and_second(
            "all-time standings", get(client, reverse("scoring:all-time", args=[club.pk]))
        )
        first_and_second(
            "a player's page", get(client, reverse("scoring:player", args=[busiest.pk]))
        )
        first_and_second(
            "ratings.json", get(client, reverse("scoring:ratings-json", args=[club.pk]))
        )


def measure_game(*, deals: int, seed: int) -> None:
    from django.test import Client
    from django.urls import reverse

    from scoring import selectors, services
    from tools.bench.seeding import seed_long_game

    started = time.perf_counter()
    user, game = seed_long_game(deals=deals, rng=random.Random(seed))
    print(f"a game of {deals:,} deals (recorded in {time.perf_counter() - started:.1f} s)")
    with nothing_cached():
        client = Client()
        client.force_login(user)
        for label, name in (
            ("game page", "scoring:game"),
            ("game .json", "scoring:game-json"),
            ("game .csv", "scoring:game-csv"),
            ("score.txt", "scoring:game-score-file"),
        ):
            first_and_second(label, get(client, reverse(name, args=[game.pk])))
        # Deal 1 corrected to another player going out, and back, in turn: each a real change.
        first_deal = selectors.stored_deals(game, number=1)[0].facts.cards_left
        went_out = first_deal.index(0)
        other = list(first_deal)
        other[went_out], other[(went_out + 1) % len(other)] = 5, 0

        def correct(values):
            return lambda: services.edit_deal(game=game, number=1, by=user, cards_left=values)

        edits = [Timed(correct(other if run % 2 == 0 else first_deal)) for run in range(RUNS)]
        middle = sorted(edits, key=lambda timed: timed.seconds)[RUNS // 2]
        print(f"  {'correct deal 1':<28} {middle}  (median of {RUNS}, all inside the game's lock)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.big_club", description=__doc__)
    parser.add_argument("--players", type=int, default=600, help="players of the club (600)")
    parser.add_argument("--games", type=int, default=1500, help="its finished games (1,500)")
    parser.add_argument("--deals", type=int, help="deals of the long game (GAME_MAX_DEALS)")
    parser.add_argument("--seed", type=int, default=1, help="seed for the random games (1)")
    options = parser.parse_args(argv)

    start_django()
    from django.conf import settings
    from django.db import connection

    with pages_as_served(), throwaway_database("big_club"):
        print(f"database: {connection.vendor}, cache: {settings.CACHES['default']['BACKEND']}")
        measure_club(players=options.players, games=options.games, seed=options.seed)
        measure_game(deals=options.deals or settings.GAME_MAX_DEALS, seed=options.seed)


if __name__ == "__main__":
    main()
