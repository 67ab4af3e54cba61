"""What the clients saw: latencies, statuses, errors, and every deal they were told was recorded."""

from __future__ import annotations

import threading
from collections import Counter, defaultdict
from dataclasses import dataclass

from tools.loadtest.client import Answer


@dataclass
class Told:
    """A deal a client was told was recorded."""

    game: int
    number: int
    cards: list[int]
    token: str
    client: str
    retried: bool = False  # the first try got no answer (crash runs)


class Log:
    """Latencies per kind of request, errors, and every deal told recorded; thread-safe."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.statuses: Counter[tuple[str, int]] = Counter()
        self.requests = 0
        self.errors: list[str] = []
        self.interrupted: list[tuple[float, str]] = []  # (when, what): crash runs only
        self.told: list[Told] = []
        self.games_started: list[int] = []
        self.in_flight = 0
        self.retried_requests = 0  # requests that needed more than one try

    def answer(self, kind: str, answer: Answer) -> None:
        with self.lock:
            self.requests += 1
            self.latency[kind].append(answer.seconds)
            self.statuses[(kind, answer.status)] += 1

    def error(self, text: str) -> None:
        with self.lock:
            self.errors.append(text)

    def recorded(self, told: Told) -> None:
        with self.lock:
            self.told.append(told)


def percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(share * len(ordered) + 0.5) - 1))]


def latency_lines(log: Log, kinds: list[str]) -> list[str]:
    lines = []
    for kind in kinds:
        values = log.latency.get(kind) or []
        if not values:
            lines.append(f"  {kind:<16} n=0")
            continue
        p50, p95, p99 = (percentile(values, share) * 1000 for share in (0.50, 0.95, 0.99))
        lines.append(
            f"  {kind:<16} n={len(values):<6} p50 {p50:7.1f} ms   p95 {p95:7.1f} ms"
            f"   p99 {p99:7.1f} ms"
        )
    return lines
