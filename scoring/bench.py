"""Time the standings page and the deals CSV over a season of 1,000 finished games.

Run it with `python -m scoring.bench` (`--games N` for another size). It seeds a fresh
database made with Django's test-database machinery (a temporary SQLite file, or a
`bench_<name>` database beside the one `DATABASE_URL` names on PostgreSQL) and drops it at the
end, so it never touches the site's own data. Pages are requested with Django's test client,
the way a browser would get them, minus the network.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
import tracemalloc
import warnings
from collections.abc import Iterable
from pathlib import Path

PLAYER_NAMES = ("Alice", "Ben", "Chloe", "Dan", "Emma", "Frank", "Grace", "Hannah")
STANDINGS_RUNS = 20
CSV_RUNS = 5


def seed_bench_season(*, games: int, rng: random.Random):
    """A user, their club and a season of `games` finished games; returns (user, season)."""
    import datetime

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from scoring import services
    from scoring.models import Season
    from scoring.services.demo import seed_season

    user = get_user_model().objects.create_user(username="bench")
    club = services.create_club(name="Bench club", owner=user)
    season = club.seasons.get(is_current=True)
    season.starts_on = timezone.localdate() - datetime.timedelta(days=365)
    Season.objects.filter(pk=season.pk).update(starts_on=season.starts_on)
    seed_season(season=season, by=user, games=games, rng=rng, player_names=PLAYER_NAMES)
    return user, season


def row_counts(season) -> dict[str, int]:
    from scoring.models import Deal, DealScore

    return {
        "games": season.games.count(),
        "deals": Deal.objects.filter(game__season=season).count(),
        "deal scores": DealScore.objects.filter(deal__game__season=season).count(),
    }


def consume(chunks: Iterable[bytes]) -> tuple[int, int]:
    """Read a streamed response to the end: (lines, bytes)."""
    lines = size = 0
    for chunk in chunks:
        lines += chunk.count(b"\n")
        size += len(chunk)
    return lines, size


def time_standings(client, url: str, runs: int = STANDINGS_RUNS) -> list[float]:
    """Seconds per render of the standings page, after one untimed warm-up render."""
    _get(client, url)
    timings = []
    for _ in range(runs):
        started = time.perf_counter()
        response = _get(client, url)
        response.content  # noqa: B018 - the whole body, as a browser would get it
        timings.append(time.perf_counter() - started)
    return timings


def time_deals_csv(client, url: str, runs: int = CSV_RUNS) -> tuple[int, int, list[float]]:
    """(data rows, bytes, seconds per download) for the streamed deals CSV."""
    timings = []
    lines = size = 0
    for _ in range(runs):
        started = time.perf_counter()
        response = _get(client, url)
        lines, size = consume(response.streaming_content)
        timings.append(time.perf_counter() - started)
    return lines - 1, size, timings  # less the header line


def peak_memory_streaming(client, url: str) -> int:
    """The most Python memory held at once (bytes) while the deals CSV is streamed."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        consume(_get(client, url).streaming_content)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _get(client, url: str):
    response = client.get(url)
    if response.status_code != 200:
        raise RuntimeError(f"GET {url} answered {response.status_code}")
    return response


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def _mb(size: int) -> str:
    return f"{size / 1_000_000:.1f} MB"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m scoring.bench", description=__doc__)
    parser.add_argument("--games", type=int, default=1000, help="finished games (1,000)")
    parser.add_argument("--seed", type=int, default=1, help="seed for the random games (1)")
    options = parser.parse_args(argv)

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bigtwo_site.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.db import connection

    # Unhashed static files, so templates render without collectstatic; the test client's host.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    warnings.filterwarnings("ignore", "No directory at", UserWarning)  # WhiteNoise's STATIC_ROOT
    # The connection's own settings, where Django has filled in the TEST defaults.
    database = connection.settings_dict
    old_name = database["NAME"]
    with tempfile.TemporaryDirectory(prefix="bigtwo-bench-") as scratch:
        if connection.vendor == "sqlite":
            # A file, not the in-memory database tests get: that is what the site runs on.
            database["TEST"]["NAME"] = str(Path(scratch) / "bench.sqlite3")
        else:
            database["TEST"]["NAME"] = f"bench_{old_name}"
        connection.creation.create_test_db(
            verbosity=0, autoclobber=True, serialize=False, keepdb=False
        )
        try:
            measure(games=options.games, seed=options.seed)
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0)


def measure(*, games: int, seed: int) -> None:
    """Seed the season into the database just made, then time its pages and print the figures."""
    from django.db import connection
    from django.test import Client
    from django.urls import reverse

    print(f"database: {connection.vendor} ({connection.settings_dict['NAME']})")
    started = time.perf_counter()
    user, season = seed_bench_season(games=games, rng=random.Random(seed))
    seeded = time.perf_counter() - started
    counts = row_counts(season)
    print(
        f"seeded {counts['games']:,} finished games, {counts['deals']:,} deals,"
        f" {counts['deal scores']:,} deal scores in {seeded:.1f} s"
    )

    client = Client()
    client.force_login(user)
    timings = time_standings(client, reverse("scoring:season", args=[season.pk]))
    print(
        f"standings: median {_ms(statistics.median(timings))},"
        f" worst {_ms(max(timings))} ({len(timings)} runs)"
    )

    url = reverse("scoring:season-deals-csv", args=[season.pk])
    rows, size, timings = time_deals_csv(client, url)
    peak = peak_memory_streaming(client, url)
    if rows != counts["deal scores"]:
        print(f"!! the CSV has {rows:,} rows for {counts['deal scores']:,} deal scores")
    print(
        f"deals.csv: {rows:,} rows, median {rows / statistics.median(timings):,.0f}"
        f" rows/s ({len(timings)} runs), peak memory {_mb(peak)}"
        f" for a {_mb(size)} file"
    )


if __name__ == "__main__":
    main()
