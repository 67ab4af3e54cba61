"""Several phones at the same moment: each action in a thread of its own, started together.

Only PostgreSQL shows a race (row locks); SQLite's tests share one connection, so the tests
that need real concurrent writers are marked `needs_postgres`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest
from django.db import connection, connections

from scoring import services

needs_postgres = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="concurrent writers need PostgreSQL (set DATABASE_URL); SQLite's tests share one",
)


def at_once(
    *actions: Callable[[], object],
    refusals: tuple[type[Exception], ...] = (services.ScoringError,),
    seconds: float = 30,
) -> list[str]:
    """Run the actions at the same moment; what each ended with, in their order: "done: …",
    "refused: …" (one of `refusals`, with its message) or "failed: …"."""
    barrier = threading.Barrier(len(actions))
    outcomes = ["" for _ in actions]

    def run(index: int) -> None:
        try:
            barrier.wait(timeout=10)
            outcomes[index] = f"done: {actions[index]()}"
        except refusals as refusal:
            outcomes[index] = f"refused: {getattr(refusal, 'message', refusal)}"
        except Exception as error:  # reported by the caller's assertion
            outcomes[index] = f"failed: {error!r}"
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(n,)) for n in range(len(actions))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=seconds)
    return outcomes


def someone_waits_for_a_lock() -> bool:
    """Whether another connection to this PostgreSQL database waits for a lock now."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0] > 0


def wait_for_a_lock_wait(seconds: float = 10) -> None:
    """Return once another connection waits for a lock (PostgreSQL says so in
    pg_stat_activity); a stall fails after `seconds`."""
    deadline = time.monotonic() + seconds
    while not someone_waits_for_a_lock():
        assert time.monotonic() < deadline, f"nobody waited for a lock within {seconds:g} s"
        time.sleep(0.01)
