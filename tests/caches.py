"""The cache as a test empties it: under a key prefix of its own.

Never `cache.clear()`: on Redis it is FLUSHDB, which empties the whole database, and the other
test processes (pytest-xdist's, `make test-services`) keep their cache, sessions and their
streams' channel layer in that same database. A stream whose groups were flushed away hears
of no change again: its next event never comes (CI's stream tests that waited 10 s for
`data: 1`). tests/conftest.py refuses it."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.test import override_settings


@contextmanager
def cache_emptied() -> Iterator[None]:
    """The cache as an empty one, for this test's process alone, until the block ends: what
    was cached before is under another prefix, and so is nothing the site can find."""
    own = {**settings.CACHES["default"], "KEY_PREFIX": f"test-{secrets.token_hex(6)}"}
    with override_settings(CACHES={"default": own}):
        yield


def refused_flush(cache) -> None:
    """What a test's `cache.clear()` on Redis does instead of emptying the shared database."""
    raise AssertionError(
        "cache.clear() on Redis empties the database every test process shares (FLUSHDB),"
        " their streams' groups with it: empty this test's cache with"
        " tests.caches.cache_emptied() instead"
    )
