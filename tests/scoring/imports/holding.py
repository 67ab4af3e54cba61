"""The database as the servers share it, for the import tests that need other connections
writing (or holding the write lock) while an import is read, checked or saved: on PostgreSQL
the test database itself; on SQLite a copy of it in a WAL-mode file, whose writers wait one
second for the write lock, not twenty (the in-memory test database locks whole tables)."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

from django.db import connection, connections, transaction

from scoring.models import Club

WAIT_SECONDS = 1  # how long a writer here waits for a lock another holds


@contextmanager
def shared_database(tmp_path: Path, *, lock_wait: float | None = WAIT_SECONDS) -> Iterator[None]:
    """Every connection opened in the block on a database other connections commit to. On
    SQLite a writer there waits `lock_wait` seconds for the write lock (None: as long as the
    site's writers do), for tests whose writers queue for it rather than find it held."""
    if connection.vendor != "sqlite":
        yield
        return
    connection.ensure_connection()
    path = tmp_path / "db.sqlite3"
    copy = sqlite3.connect(path)
    connection.connection.backup(copy)
    copy.execute("PRAGMA journal_mode=WAL")
    copy.close()
    settings = connection.settings_dict
    in_memory, name, options = connection.connection, settings["NAME"], settings["OPTIONS"]
    connection.connection = None
    waits = {"timeout": lock_wait} if lock_wait is not None else {}
    settings["NAME"], settings["OPTIONS"] = str(path), {**options, **waits}
    try:
        yield
    finally:
        connections.close_all()
        settings["NAME"], settings["OPTIONS"] = name, options
        connection.connection = in_memory


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
