"""The standings benchmark (`python -m tools.bench.standings`) seeds what it says and reads
every row it counts. No timing is checked: only that the figures are of what they claim."""

import random

from django.urls import reverse

from tools.bench import standings as bench


def test_the_bench_seeds_a_season_its_owner_can_see(db):
    user, season = bench.seed_bench_season(games=3, rng=random.Random(6))
    counts = bench.row_counts(season)
    assert counts["games"] == 3
    assert counts["deal scores"] == 4 * counts["deals"] > 0
    assert season.club.memberships.filter(user=user).exists()
    assert season.starts_on <= season.games.order_by("created_at").first().created_at.date()


def test_the_bench_reads_every_row_of_the_deals_csv(db, client):
    """No timings are checked, only that what the bench counts is what it measured."""
    user, season = bench.seed_bench_season(games=2, rng=random.Random(7))
    client.force_login(user)
    url = reverse("scoring:season-deals-csv", args=[season.pk])
    rows, size, timings = bench.time_deals_csv(client, url, runs=2)
    assert rows == bench.row_counts(season)["deal scores"]
    assert size == len(b"".join(client.get(url).streaming_content))
    assert len(timings) == 2
    assert bench.peak_memory_streaming(client, url) > 0
    standings = bench.time_standings(client, reverse("scoring:season", args=[season.pk]), runs=2)
    assert len(standings) == 2


def test_consume_counts_lines_and_bytes():
    assert bench.consume([b"a,b\n1,", b"2\n", b""]) == (2, 8)
