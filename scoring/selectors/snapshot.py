"""One snapshot of the database for a read that takes several queries.

A page about a game reads it in several queries: the game's row, its seats with their totals,
its deals, their scores, its history. Each query alone sees only committed changes, but another
phone can commit one between two of them, and the page then shows half of each: totals that
are not the sum of the deals beside them, a deal whose scores were undone (which the rules
refuse to replay: a 500), a scoreboard of one version cached under another version's key.

`read_snapshot()` runs such a read in one read-only transaction, so that every query in it sees
the database as the first one did:

- PostgreSQL: `REPEATABLE READ, READ ONLY`. The snapshot is taken at the first query and kept
  to the end; the reader takes no lock a writer waits for, and can't write by mistake.
- SQLite, in WAL mode as the settings ask: `BEGIN DEFERRED`. The first read fixes the snapshot
  it keeps until `COMMIT`, and writers go on committing meanwhile. Django's `atomic()` would
  begin IMMEDIATE here (the settings ask for that, so that two writers queue up instead of one
  failing halfway), which takes the write lock: every reader would wait for every writer, and
  every writer for every reader.

Inside a transaction that is already open (a test wrapped in one, or a snapshot already taken
by the caller) it simply runs in that one.

A streaming response's content is read after the view has returned, so after its snapshot has
ended: such a view must read what it streams in one query (or read it all before returning).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper


@contextmanager
def read_snapshot(using: str = DEFAULT_DB_ALIAS) -> Iterator[None]:
    """Run the block (or, as `@read_snapshot()`, the view) on one snapshot of the database.

    Only for reads: PostgreSQL refuses a write in it, and on SQLite `atomic()` can't begin in it.
    """
    with _snapshot(using):
        yield


@contextmanager
def _snapshot(using: str) -> Iterator[None]:
    connection = connections[using]
    if not connection.get_autocommit() or _in_sqlite_transaction(connection):
        yield
    elif connection.vendor == "sqlite":
        with _deferred_transaction(connection):
            yield
    else:  # PostgreSQL, the other database the settings support
        with transaction.atomic(using=using):
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            yield


def _in_sqlite_transaction(connection: BaseDatabaseWrapper) -> bool:
    """A deferred transaction is begun behind Django's back: Django still sees autocommit."""
    return connection.vendor == "sqlite" and connection.connection.in_transaction


@contextmanager
def _deferred_transaction(connection: BaseDatabaseWrapper) -> Iterator[None]:
    with connection.cursor() as cursor:
        cursor.execute("BEGIN DEFERRED")
    try:
        yield
    finally:
        # Nothing was written, so ending it either way only lets the snapshot go. SQLite may
        # already have ended it itself after an error (a busy or full disk, say).
        if connection.connection is not None and connection.connection.in_transaction:
            with connection.cursor() as cursor:
                cursor.execute("COMMIT")
