"""Where the site keeps its runtime state (DJANGO_VAR_DIR, else `var/`), readable by its user alone.

The directory holds the SQLite database (password hashes, live session keys), the generated
secret key and the collected static files. So it is made mode 700 and the database file 600
(SQLite gives its `-wal` and `-shm` files the database's own mode), and a directory that
another user owns, or may write in, is refused: whoever can write there can swap the secret key
or the database under the site.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured


def private_var_dir(path: Path) -> Path:
    """`path`, made if missing, mode 700; ImproperlyConfigured, saying what to do, if it belongs
    to another user or others may write in it."""
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        found = path.stat()
    except OSError as error:
        raise misconfigured(path, f"can't be made or read: {error.strerror}") from error
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
    if stat.S_IMODE(found.st_mode) != 0o700:
        path.chmod(0o700)
    return path


def private_file(path: Path) -> None:
    """Create `path` (empty) for the site's user alone if it is missing; make it 600 if not."""
    descriptor = os.open(path, os.O_CREAT | os.O_WRONLY, 0o600)
    os.close(descriptor)
    if stat.S_IMODE(path.stat().st_mode) != 0o600:
        path.chmod(0o600)


def misconfigured(path: Path, problem: str) -> ImproperlyConfigured:
    return ImproperlyConfigured(
        f"DJANGO_VAR_DIR {str(path)!r} {problem}. The site keeps its database and secret key"
        " there: name a directory of the site's own user that no one else may write in, or"
        " leave DJANGO_VAR_DIR unset for var/ beside manage.py."
    )
