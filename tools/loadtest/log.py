"""What the phones saw: latencies, errors, counts, and every deal told recorded."""

import contextlib
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
    """Everything the phones saw, for the figures and the check."""

    latency: defaultdict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    # (kind, "app" or "view"): the server's own time in seconds, from its Server-Timing
    server_time: defaultdict[tuple[str, str], list[float]] = field(
        default_factory=lambda: defaultdict(list)
    )
    errors: list[str] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)  # streams ended, requests sent again…
    told: list[Told] = field(default_factory=list)
    delays: list[float] = field(default_factory=list)  # a deal told recorded to every phone
    interrupted: list[tuple[float, str]] = field(default_factory=list)  # crash: (when, what)
    in_flight: int = 0

    @property
    def requests(self) -> int:
        return sum(len(values) for values in self.latency.values())

    def note_server_timing(self, kind: str, header: str) -> None:
        """Keep the server's own times from an answer's Server-Timing ("app;dur=12.5, …")."""
        for entry in filter(None, header.split(",")):
            metric, _, ms = entry.strip().partition(";dur=")
            with contextlib.suppress(ValueError):
                self.server_time[kind, metric].append(float(ms) / 1000)


def percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile: the smallest value with at least `share` of them at or below."""
    ordered = sorted(values)
    rank = math.ceil(share * len(ordered) - 1e-9)  # 1-based; the epsilon absorbs 0.1 + 0.2
    return ordered[max(0, min(len(ordered), rank) - 1)]


def latency_figures(log: Log, kinds: list[str]) -> dict[str, dict[str, float]]:
    """The p50, p95 and p99 of each kind that was sent, in ms."""
    return {
        kind: {f"p{p}": percentile(log.latency[kind], p / 100) * 1000 for p in (50, 95, 99)}
        for kind in kinds
        if log.latency.get(kind)
    }


def print_latencies(log: Log, kinds: list[str]) -> None:
    figures = latency_figures(log, kinds)
    for kind in kinds:
        each = "".join(f"   {name} {ms:7.1f} ms" for name, ms in figures.get(kind, {}).items())
        print(f"  {kind:<16} n={len(log.latency.get(kind, [])):<6}{each}".rstrip())
