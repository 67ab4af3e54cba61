"""The site's database as the settings read it (DATABASE_URL, else SQLite in the var directory),
and the prefix naming it in every cache key and channel."""

from __future__ import annotations

import hashlib
from pathlib import Path

import dj_database_url

from bigtwo_site.environment import env_count
from bigtwo_site.var_dir import existing_database

SQLITE = "django.db.backends.sqlite3"


def database_url(var_dir: Path) -> dict:
    """DATABASE_URL read by dj-database-url, SQLite's `var_dir/db.sqlite3` without it."""
    return dj_database_url.config(default=f"sqlite:///{var_dir / 'db.sqlite3'}")


def sqlite_file(database: dict) -> Path | None:
    """The file of a SQLite database; None for any other, or SQLite's in memory."""
    if database["ENGINE"] != SQLITE or database["NAME"] in ("", ":memory:"):
        return None
    return Path(database["NAME"])


def site_database(var_dir: Path) -> dict:
    """The site's DATABASES["default"]; its SQLite file, if SQLite, made by the set-up step.

    Under ASGI each request runs in a thread of its own, so a connection kept for the next request
    would never be used again: each opens its own, on PostgreSQL from psycopg's pool (Django's
    advice for ASGI). A WSGI server's threads live on: the pages' unit has each keep its
    connection (DJANGO_DB_CONN_MAX_AGE seconds), in the pool's place.
    """
    database = database_url(var_dir)
    database["CONN_MAX_AGE"] = env_count("DJANGO_DB_CONN_MAX_AGE", 0, least=0)
    database["CONN_HEALTH_CHECKS"] = True
    if database["ENGINE"] == "django.db.backends.postgresql" and not database["CONN_MAX_AGE"]:
        # psycopg's pool holds at least its two, so it is given room for two or more.
        pool_size = env_count("DJANGO_DB_POOL_SIZE", 20, least=2)
        database.setdefault("OPTIONS", {})["pool"] = {
            "min_size": 2,
            "max_size": pool_size,
            "timeout": 10,
        }
    if (path := sqlite_file(database)) is not None:
        existing_database(path)
    if database["ENGINE"] == SQLITE:
        database["OPTIONS"] = {
            # WAL lets the scoreboard be read while a deal is being written; IMMEDIATE takes the
            # write lock when a transaction starts, so two phones recording at once queue up
            # instead of failing with "database is locked" halfway through. Under ASGI every
            # request has a thread of its own, so a burst of deals can queue for seconds on the
            # one lock.
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
        }
    return database


def database_prefix(database: dict) -> str:
    """A prefix naming the database in use, for every cache key and channel of the site: two
    sites sharing one Redis, or a site and a copy of its database, never read each other's."""
    where = "|".join(str(database.get(part) or "") for part in ("ENGINE", "HOST", "PORT", "NAME"))
    return "bigtwo-" + hashlib.sha256(where.encode()).hexdigest()[:12]
