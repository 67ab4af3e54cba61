"""The database as the servers share it, for the import tests that need other connections
writing (or holding the write lock) while an import is read, checked or saved: on PostgreSQL
the test database itself; a WAL-mode file on SQLite, whose writers here wait one second for the
write lock, not twenty."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

from django.db import connection, connections, transaction

from scoring.models import Club

WAIT_SECONDS = 1  # how long a writer here waits for a lock another holds


@contextmanager
def short_lock_waits(seconds: float = WAIT_SECONDS) -> Iterator[None]:
    """On SQLite, every connection opened in the block waits `seconds` for the write lock, not
    the site's twenty: for tests that find it held rather than queue for it."""
    if connection.vendor != "sqlite":
        yield
        return
    settings = connection.settings_dict  # the one dict every thread's connection is made from
    options = settings["OPTIONS"]
    connections.close_all()
    settings["OPTIONS"] = {**options, "timeout": seconds}
    try:
        yield
    finally:
        connections.close_all()
        settings["OPTIONS"] = options


def on_another_phone(action: Callable[[], object]) -> str:
    """`action` on a connection of its own, in another thread: "done: …" or "failed: …"."""

    def run() -> str:
        try:
            return f"done: {action()}"
        except Exception as error:  # reported by the caller's assertion
            return f"failed: {error!r}"
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as phone:
        return phone.submit(run).result(timeout=30)


def lock_the_club(club: Club) -> str:
    """Take `club`'s row lock (on SQLite, the write lock) as an import saving into it would,
    without waiting for it, and write: whatever holds either fails this."""
    with transaction.atomic():
        if connection.features.has_select_for_update_nowait:
            Club.objects.select_for_update(nowait=True).get(pk=club.pk)
        Club.objects.filter(pk=club.pk).update(name=club.name)
    return "locked"


@contextmanager
def held_by_another_writer(club: Club) -> Iterator[None]:
    """Another writer holds the club (on SQLite, the whole database) for the block, and this
    connection waits no more than a second for it."""
    locked, done = threading.Event(), threading.Event()

    def hold() -> None:
        try:
            with transaction.atomic():
                if connection.vendor == "sqlite":
                    Club.objects.filter(pk=club.pk).update(name=club.name)
                else:
                    Club.objects.select_for_update().get(pk=club.pk)
                locked.set()
                done.wait(timeout=30)
        finally:
            connections.close_all()

    holder = threading.Thread(target=hold)
    holder.start()
    assert locked.wait(timeout=10), "the other writer never got the lock"
    try:
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(f"SET lock_timeout = '{WAIT_SECONDS}s'")
        yield
    finally:
        done.set()
        holder.join(timeout=30)
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("RESET lock_timeout")
