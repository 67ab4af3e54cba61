"""What a club's backup costs: written, read, and restored, in a throwaway database.

Run it with `python -m tools.bench.backup` (`--games N` for another size). It seeds a club of
200 finished games (`tools.bench.throwaway`, dropped at the end) and prints the file's size
and rows, then the time and queries of `export_club` writing it, of `scoring.backup.read`
reading and checking it (every item through Django's deserializer and `full_clean()`; the
median of three), and of `import_club` restoring it into the emptied database.
"""

from __future__ import annotations

import argparse
import json
import random

from tools.bench.big_club import Timed
from tools.bench.standings import seed_bench_season
from tools.bench.throwaway import start_django, throwaway_database

RUNS = 3


def measure(*, games: int, seed: int) -> None:
    from django.core.management import call_command
    from django.db import connection

    from scoring.backup import export_club, import_club, read

    _user, season = seed_bench_season(games=games, rng=random.Random(seed))
    texts: list[str] = []
    exported = Timed(lambda: texts.append(export_club(season.club)))
    reads = sorted((Timed(lambda: read(texts[0])) for _ in range(RUNS)), key=lambda t: t.seconds)
    connection.check_constraints()  # in a transaction (its test), PostgreSQL truncates no table
    # with link checks pending
    call_command("flush", interactive=False, verbosity=0)
    restored = Timed(lambda: import_club(texts[0]))
    rows = len(json.loads(texts[0])["rows"])
    print(f"a club of {games:,} finished games: {len(texts[0].encode()) / 1e6:.1f} MB, {rows} rows")
    print(f"  export_club  {exported}")
    print(f"  read         {reads[RUNS // 2]}  (median of {RUNS})")
    print(f"  import_club  {restored}  (read, then written in one transaction)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.backup", description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="finished games (200)")
    parser.add_argument("--seed", type=int, default=1, help="seed for the random games (1)")
    options = parser.parse_args(argv)
    start_django()
    with throwaway_database("backup"):
        measure(games=options.games, seed=options.seed)


if __name__ == "__main__":
    main()
