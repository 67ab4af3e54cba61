"""Time `arrangements` (and `answers`) on random 13-card hands: figures to read, not a test.

Run it with `python -m tools.bench.split [--hands 10000] [--seed 1]`. Each hand is dealt from
a shuffled deck by `random.Random(seed)`, so a seed deals the same hands every time. The first
hands also teach `five_card_plays` which rank patterns make plays (it remembers them per rule
set), so they cost a little more: the figures include that, as a fresh server process would.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence

from rules.advice import answers
from rules.cards import DECK, Card, format_cards
from rules.split import arrangements


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000, help="how many hands to deal")
    parser.add_argument("--seed", type=int, default=1, help="the seed that deals them")
    options = parser.parse_args(argv)
    if options.hands < 1:
        parser.error("--hands must be 1 or more")
    deal = random.Random(options.seed)
    hands = [deal.sample(DECK, 13) for _ in range(options.hands)]

    split_times = [_timed(arrangements, hand) for hand in hands]
    worst = max(range(len(hands)), key=split_times.__getitem__)
    print(f"arrangements: {len(hands)} hands, seed {options.seed}")
    print(summary(split_times))
    print(f"  {len(hands) / sum(split_times):.0f} hands per second")
    print(f"  worst hand: {format_cards(hands[worst])}")

    lead_times = [_timed(lambda cards: answers(cards, None), hand) for hand in hands]
    print("answers, leading (every play in the hand):")
    print(summary(lead_times))
    return 0


def _timed(function: Callable[[list[Card]], object], hand: list[Card]) -> float:
    started = time.perf_counter()
    function(hand)
    return time.perf_counter() - started


def summary(seconds: list[float]) -> str:
    ordered = sorted(seconds)
    # The 95th percentile as the nearest rank: the time 95% of hands take at most.
    p95 = ordered[max(0, -(-len(ordered) * 95 // 100) - 1)]
    return (
        f"  median {statistics.median(ordered) * 1000:.2f} ms,"
        f" 95th percentile {p95 * 1000:.2f} ms, worst {ordered[-1] * 1000:.2f} ms"
    )


if __name__ == "__main__":
    raise SystemExit(main())
