"""DJANGO_CACHE_DIR: where the machine's two caches of files live when there is no Redis.

Every deal recorded writes several entries (the game's version, the fragments it changed),
each a new file renamed over the old one, which on a disk's file system is most of what an
entry costs: in the load script's phase B, a deal recorded with its caches in memory (a tmpfs
such as `/run/bigtwo`) took 13.7-14.9 ms of server CPU against 18.8-22.9 ms beside the
database (README, Benchmarks, eleventh round). Nothing in them needs the disk: sessions are
written through to the database, versions and pages are made again.

Its entries are pickles, and reading a pickle can run code: only the site's own user may write
where they are. A directory named here is made private if it is new, and refused if it is
another user's or others may write in it (a directory in a shared `/dev/shm` that someone else
made first would be both).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured


def cache_dir(value: str | None, default: Path) -> Path:
    """The directory DJANGO_CACHE_DIR names (`value`), made if it is missing; `default` if
    it names none. ImproperlyConfigured, saying what to do, if it isn't the site's own."""
    if not value or not value.strip():
        return default
    path = Path(value.strip())
    if not path.is_absolute():
        raise misconfigured(f"is {value!r}, which isn't an absolute path")
    if path.exists() and not path.is_dir():
        raise misconfigured(f"is {value!r}, which isn't a directory")
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        found = path.stat()
    except OSError as error:
        problem = f"is {value!r}, which can't be made or read: {error.strerror}"
        raise misconfigured(problem) from error
    if found.st_uid != os.geteuid():
        raise misconfigured(
            f"is {value!r}, which belongs to another user (uid {found.st_uid}, the site runs as"
            f" {os.geteuid()})"
        )
    if found.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        mode = f"mode {stat.S_IMODE(found.st_mode):o}"
        if found.st_mode & stat.S_ISVTX:
            # A shared place such as /dev/shm: a directory of the site's own in it is safe, as
            # no one else may rename or delete it there.
            raise misconfigured(
                f"is {value!r}, a directory others may write in ({mode}); name one of the"
                f" site's own inside it, such as {str(path / 'bigtwo')!r}, which it makes"
            )
        raise misconfigured(f"is {value!r}, where others may write ({mode}); chmod go-w it")
    return path


def misconfigured(problem: str) -> ImproperlyConfigured:
    return ImproperlyConfigured(
        f"DJANGO_CACHE_DIR {problem}. Only the site's own user may write where its caches"
        " are; in memory they are cheapest to write: with systemd, RuntimeDirectory=bigtwo and"
        " RuntimeDirectoryPreserve=yes give it /run/bigtwo. Unset, the caches live in"
        " DJANGO_VAR_DIR."
    )
