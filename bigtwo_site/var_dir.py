"""Where the site keeps its runtime state (DJANGO_VAR_DIR, else `var/`), readable by its user alone,
as the settings find it: they read it and write nothing.

The directory holds the SQLite database (password hashes, live session keys), the generated
secret key and the collected static files. The set-up step (`make setup`, the pages' unit before
migrate: bigtwo_site/prepare_var.py) makes it mode 700, the key and the database file 600
(SQLite gives its `-wal` and `-shm` files the database's own mode). The settings refuse a
directory that is missing, that another user owns or that others may read or write in, and a
missing key or database, each time saying what to do: whoever can write there can swap the
secret key or the database under the site.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from bigtwo_site.environment import env_text

SITE_ROOT = Path(__file__).resolve().parent.parent
SET_UP_COMMAND = "run `make setup` (or `.venv/bin/python manage.py prepare_var`)"
SET_UP = f"{SET_UP_COMMAND} first"


def var_dir_location() -> Path:
    """DJANGO_VAR_DIR, or `var/` beside manage.py."""
    return Path(env_text("DJANGO_VAR_DIR") or SITE_ROOT / "var")


def private_var_dir(path: Path) -> Path:
    """`path`, once found a directory of the site's user alone; ImproperlyConfigured, saying
    what to do, if it is missing, belongs to another user or others may read or write in it."""
    try:
        found = path.stat()
    except FileNotFoundError:
        raise misconfigured(path, f"doesn't exist: {SET_UP}") from None
    except OSError as error:
        raise misconfigured(path, f"can't be read: {error.strerror}") from error
    unsafe_mode(path, found)
    if stat.S_IMODE(found.st_mode) & 0o077:
        raise misconfigured(
            path,
            f"may be read by others (mode {stat.S_IMODE(found.st_mode):o}): {SET_UP}, which "
            "makes it 700",
        )
    return path


def unsafe_mode(path: Path, found: os.stat_result) -> None:
    """Refuse what the set-up step won't mend either: not a directory, another user's, or one
    others may write in (what they wrote there stays)."""
    if not stat.S_ISDIR(found.st_mode):
        raise misconfigured(path, "isn't a directory")
    if found.st_uid != os.geteuid():
        raise misconfigured(
            path,
            f"belongs to another user (uid {found.st_uid}; the site runs as uid {os.geteuid()})",
        )
    if found.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        raise misconfigured(
            path, f"may be written by others (mode {stat.S_IMODE(found.st_mode):o}): chmod 700 it"
        )


def kept_secret_key(var_dir: Path) -> str:
    """The secret key the set-up step keeps in `var_dir`."""
    path = var_dir / "secret_key"
    try:
        key = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        raise ImproperlyConfigured(
            f"No secret key in {path}: {SET_UP}, or set DJANGO_SECRET_KEY."
        ) from None
    if not key:
        raise ImproperlyConfigured(
            f"The secret key in {path} is empty: delete it, then {SET_UP_COMMAND}."
        )
    return key


def existing_database(path: Path) -> Path:
    """`path`, the SQLite database, once found: SQLite would make a missing one with the umask's
    mode, where the set-up step makes it 600."""
    if not path.is_file():
        raise ImproperlyConfigured(f"No database at {path}: {SET_UP}.")
    return path


def misconfigured(path: Path, problem: str) -> ImproperlyConfigured:
    return ImproperlyConfigured(
        f"DJANGO_VAR_DIR {str(path)!r} {problem}. The site keeps its database and secret key"
        " there: name a directory of the site's own user that no one else may write in, or"
        " leave DJANGO_VAR_DIR unset for var/ beside manage.py."
    )
