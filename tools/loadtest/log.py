"""What the phones saw: latencies, errors, counts, and every deal they were told was recorded.

The phones are coroutines on one event loop, so the log needs no lock.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field


@dataclass
class Told:
    """A deal a phone was told was recorded."""

    game: int
    number: int
    cards: list[int]
    token: str
    client: str
    retried: bool = False  # the first try got no answer (crash runs)


@dataclass
class Log:
    latency: defaultdict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: list[str] = field(default_factory=list)
    # Streams opened, ended, refused or dropped as silent, boards fetched on an event, requests
    # sent again...: what happened, by name.
    counts: Counter[str] = field(default_factory=Counter)
    told: list[Told] = field(default_factory=list)
    delays: list[float] = field(default_factory=list)  # a deal told recorded to every phone
    interrupted: list[tuple[float, str]] = field(default_factory=list)  # crash: (when, what)
    in_flight: int = 0

    @property
    def requests(self) -> int:
        return sum(len(values) for values in self.latency.values())


SHARES = (0.50, 0.95, 0.99)


def percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile: the smallest value with at least `share` of them at or below."""
    ordered = sorted(values)
    rank = math.ceil(share * len(ordered) - 1e-9)  # 1-based; the epsilon absorbs 0.1 + 0.2
    return ordered[max(0, min(len(ordered), rank) - 1)]


def latency_figures(log: Log, kinds: list[str]) -> dict[str, dict[str, float]]:
    """The p50, p95 and p99 of each kind that was sent, in ms."""
    return {
        kind: {f"p{round(s * 100)}": percentile(log.latency[kind], s) * 1000 for s in SHARES}
        for kind in kinds
        if log.latency.get(kind)
    }


def latency_lines(log: Log, kinds: list[str]) -> list[str]:
    figures = latency_figures(log, kinds)
    return [
        f"  {kind:<16} n={len(log.latency[kind]):<6}"
        + "".join(f"   {name} {ms:7.1f} ms" for name, ms in figures[kind].items())
        if kind in figures
        else f"  {kind:<16} n=0"
        for kind in kinds
    ]
