"""Draw club nights' seats (`rules.seating.draw`) of six sizes: figures to read, not a test.

Run it with `python -m tools.bench.seating [--seeds 5] [--sweep]`. Each case is drawn once per
seed (1 to `--seeds`), in this process, tables of four and no rounds played before. Per case: the
repeat meetings (fewest and most over the seeds) against the lower bound, the most byes one
player had, the most repeated follow pairs, and the CPU time of a draw in this process (median
and worst). `--sweep` draws every night a club can draw, 12 rounds of 4 to 80 players at tables
of 2, 3 and 4, fresh and after 6 rounds played (two players gone since, two come), and prints
the slowest.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from collections.abc import Sequence

from rules.seating import Round, draw, follows_repeated, lower_bound, repeats

# Players and rounds, tables of four.
CASES = ((16, 5), (24, 6), (13, 4), (40, 8), (32, 12), (80, 12))
# The sweep: a night's bounds (nights.models.MOST_PLAYERS, MOST_ROUNDS) and table sizes.
MOST_PLAYERS, MOST_ROUNDS, TABLE_SIZES = 80, 12, (2, 3, 4)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seeds", type=int, default=5, help="how many seeds to draw each case with"
    )
    parser.add_argument("--sweep", action="store_true", help="also draw every night's size")
    options = parser.parse_args(argv)
    if options.seeds < 1:
        parser.error("--seeds must be 1 or more")
    for players, rounds in CASES:
        print(measure(players, rounds, range(1, options.seeds + 1)), flush=True)
    if options.sweep:
        print(sweep())
    return 0


def cpu_seconds(players: Sequence[int], rounds: int, **options: object) -> float:
    """The CPU time of one draw in this process (what the draw costs, however busy the
    machine's other cores)."""
    started = time.process_time()
    draw(players, rounds, **options)
    return time.process_time() - started


def measure(players: int, rounds: int, seeds: Sequence[int]) -> str:
    """One line of figures for `players` over `rounds`, drawn once with each seed."""
    found, byes, follows, seconds = [], [], [], []
    for seed in seeds:
        seconds.append(cpu_seconds(range(players), rounds, seed=seed))
        night = draw(range(players), rounds, seed=seed)
        found.append(repeats(night))
        follows.append(follows_repeated(night))
        out = Counter(player for night_round in night for player in night_round.sitting_out)
        byes.append(max(out.values(), default=0))
    return (
        f"{players} players, {rounds} rounds: repeats {min(found)}-{max(found)}"
        f" (lower bound {lower_bound(players, rounds)}), byes at most {max(byes)} each,"
        f" follow repeats at most {max(follows)}; CPU median"
        f" {statistics.median(seconds) * 1000:.0f} ms, worst {max(seconds) * 1000:.0f} ms"
        f" ({len(seeds)} seeds)"
    )


def sweep() -> str:
    """The slowest of every night a club can draw, by the CPU time of its draw."""
    slowest = (0.0, "")
    for table_size in TABLE_SIZES:
        for players in range(table_size, MOST_PLAYERS + 1):
            for played in (0, MOST_ROUNDS // 2):
                seconds = cpu_seconds_after(players, played, table_size)
                night = f"{players} players at tables of {table_size}, {played} rounds played"
                slowest = max(slowest, (seconds, night))
    return f"Every night's size drawn: the slowest, {slowest[1]}: CPU {slowest[0] * 1000:.0f} ms"


def cpu_seconds_after(players: int, played: int, table_size: int) -> float:
    """The CPU time of drawing the rest of a 12-round night after `played` rounds, two of the
    players gone since and two come."""
    before: list[Round[int]] = list(draw(range(players), played, seed=2, table_size=table_size))
    here = range(2, players + 2) if played else range(players)
    return cpu_seconds(here, MOST_ROUNDS - played, seed=1, table_size=table_size, played=before)


if __name__ == "__main__":
    raise SystemExit(main())
