"""Time the ratings of a club of 1,000 finished games (the target is under a second).

Run it with `python -m tools.bench.ratings` (`--games N` for another size). Like
`tools.bench.standings`, it seeds a throwaway database (`tools.bench.throwaway`) and drops it
at the end. It prints the time to rate every game from none stored, to rate again from a game
half way through (a change there), and to read the ratings when nothing changed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from tools.bench.standings import seed_bench_season
from tools.bench.throwaway import start_django, throwaway_database

RUNS = 5


def measure(*, games: int, seed: int) -> None:
    from scoring.models import Game, RatingsMark, RatingSnapshot
    from scoring.selectors import ratings as stored
    from scoring.services import ratings

    _user, season = seed_bench_season(games=games, rng=random.Random(seed))
    club_id = season.club_id
    finished = Game.objects.filter(club_id=club_id, status=Game.Status.FINISHED)
    middle = finished.order_by("finished_at", "pk")[finished.count() // 2]

    def timed(prepare) -> float:
        runs = []
        for _ in range(RUNS):
            prepare()
            start = time.perf_counter()
            ratings.refresh(club_id)
            runs.append(time.perf_counter() - start)
        return statistics.median(runs)

    def forget_all() -> None:
        RatingSnapshot.objects.filter(club_id=club_id).delete()
        RatingsMark.objects.filter(club_id=club_id).update(stale=True)

    def change_middle() -> None:
        # What `ratings_changed` leaves (without its refresh once the change commits).
        cut = RatingSnapshot.objects.get(game=middle, player=middle.winner_id).sequence
        RatingSnapshot.objects.filter(club_id=club_id, sequence__gte=cut).delete()
        RatingsMark.objects.filter(club_id=club_id).update(stale=True)

    every = timed(forget_all)
    half = timed(change_middle)
    start = time.perf_counter()
    for _ in range(RUNS):
        stored.latest(club_id)
    read = (time.perf_counter() - start) / RUNS
    snapshots = RatingSnapshot.objects.filter(club_id=club_id).count()
    print(f"{finished.count()} finished games, {snapshots} snapshots")
    print(f"rate every game:            {every * 1000:8.1f} ms (median of {RUNS})")
    print(f"rate from the middle game:  {half * 1000:8.1f} ms")
    print(f"read when nothing changed:  {read * 1000:8.1f} ms")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.ratings", description=__doc__)
    parser.add_argument("--games", type=int, default=1000, help="finished games (1,000)")
    parser.add_argument("--seed", type=int, default=1, help="seed for the random games (1)")
    options = parser.parse_args(argv)
    start_django()
    with throwaway_database("ratings"):
        measure(games=options.games, seed=options.seed)


if __name__ == "__main__":
    main()
