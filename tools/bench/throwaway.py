"""What every benchmark that asks the site for pages in its own process sets up: Django on the
site's settings, pages rendered as served, and a throwaway database.

The database is made with Django's test-database machinery (a temporary SQLite file, or a
`bench_<what>_<name>` database beside the one `DATABASE_URL` names on PostgreSQL) and dropped
at the end, so a benchmark never touches the site's own data.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import warnings
from collections.abc import Iterator
from pathlib import Path


def start_django() -> None:
    """Django on the site's settings, unless DJANGO_SETTINGS_MODULE names others, once the set-up
    step (`make setup`'s) has made what they read in DJANGO_VAR_DIR."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bigtwo_site.settings")
    import django

    from bigtwo_site.prepare_var import prepare

    prepare()

    django.setup()


@contextlib.contextmanager
def nothing_cached() -> Iterator[None]:
    """For the block, the cache as an empty one: the site's cache under a key prefix of its own.
    Not `cache.clear()`, which on Redis is FLUSHDB, emptying a database other processes (a
    running site, test processes) keep their cache, sessions and streams' groups in."""
    import secrets

    from django.conf import settings
    from django.test import override_settings

    own = {**settings.CACHES["default"], "KEY_PREFIX": f"bench-{secrets.token_hex(6)}"}
    with override_settings(CACHES={"default": own}):
        yield


@contextlib.contextmanager
def pages_as_served() -> Iterator[None]:
    """For the block, templates render without collectstatic (unhashed static files) and the
    test client's host is allowed."""
    from django.conf import settings
    from django.test import override_settings

    plain_static = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    hosts = [*settings.ALLOWED_HOSTS, "testserver"]
    with override_settings(STORAGES=plain_static, ALLOWED_HOSTS=hosts), warnings.catch_warnings():
        warnings.filterwarnings("ignore", "No directory at", UserWarning)  # WhiteNoise's root
        yield


@contextlib.contextmanager
def throwaway_database(what: str) -> Iterator[None]:
    """A fresh database of the site's schema for the block, dropped after it; `what` names it
    on PostgreSQL, so that two benchmarks can run at once."""
    from django.db import connection

    database = connection.settings_dict
    old_name = database["NAME"]
    with tempfile.TemporaryDirectory(prefix="bigtwo-bench-") as scratch:
        if connection.vendor == "sqlite":
            # A file, not the in-memory database tests get: that is what the site runs on.
            database["TEST"]["NAME"] = str(Path(scratch) / "bench.sqlite3")
        else:
            database["TEST"]["NAME"] = f"bench_{what}_{old_name}"
        connection.creation.create_test_db(
            verbosity=0, autoclobber=True, serialize=False, keepdb=False
        )
        try:
            yield
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0)
