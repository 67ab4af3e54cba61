"""Draw club nights' seats (`rules.seating.draw`) of four sizes: figures to read, not a test.

Run it with `python -m tools.bench.seating [--seeds 5]`. Each case is drawn once per seed (1 to
`--seeds`), in this process, tables of four and no rounds played before. Per case: the repeat
meetings (fewest and most over the seeds) against the lower bound, the most byes one player had,
the most repeated follow pairs, and the time of a draw (median and worst).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from collections.abc import Sequence

from rules.seating import draw, follows_repeated, lower_bound, repeats

# Players and rounds, tables of four.
CASES = ((16, 5), (24, 6), (13, 4), (40, 8))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seeds", type=int, default=5, help="how many seeds to draw each case with"
    )
    options = parser.parse_args(argv)
    if options.seeds < 1:
        parser.error("--seeds must be 1 or more")
    for players, rounds in CASES:
        print(measure(players, rounds, range(1, options.seeds + 1)))
    return 0


def measure(players: int, rounds: int, seeds: Sequence[int]) -> str:
    """One line of figures for `players` over `rounds`, drawn once with each seed."""
    found, byes, follows, seconds = [], [], [], []
    for seed in seeds:
        started = time.perf_counter()
        night = draw(range(players), rounds, seed=seed)
        seconds.append(time.perf_counter() - started)
        found.append(repeats(night))
        follows.append(follows_repeated(night))
        out = Counter(player for night_round in night for player in night_round.sitting_out)
        byes.append(max(out.values(), default=0))
    return (
        f"{players} players, {rounds} rounds: repeats {min(found)}-{max(found)}"
        f" (lower bound {lower_bound(players, rounds)}), byes at most {max(byes)} each,"
        f" follow repeats at most {max(follows)};"
        f" median {statistics.median(seconds) * 1000:.0f} ms, worst {max(seconds) * 1000:.0f} ms"
        f" ({len(seeds)} seeds)"
    )


if __name__ == "__main__":
    raise SystemExit(main())
