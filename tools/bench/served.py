"""What a benchmark against the site as `make run` serves it stands on (tools/bench/imports,
redraws, request_bodies, live_view_latency, tv_latency, own_counts_latency)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from tools.loadtest.servers import Environment, collect_static


@contextlib.contextmanager
def benchmark_site() -> Iterator[Environment]:
    """The load tool's Environment on SQLite, its throwaway database (the servers' too) and the
    static files collected, as the load tool's."""
    with Environment("sqlite", keep=False) as environment, environment.fresh_database():
        collect_static()
        yield environment
