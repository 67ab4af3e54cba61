"""Score files previewed and waiting for "Import": on disk, in the site's private directory
(DJANGO_VAR_DIR/uploads/<account>/<club>/<SHA-256>, 700, each file 600), never in the server's
memory.

A file waits for an hour at most, and only if its preview found nothing wrong: a refused file is
never kept. The room is shared so that nobody can take it from others, however many accounts
they make (issue 47): at most IMPORT_UPLOADS_PER_MEMBER files wait for one account and
IMPORT_UPLOADS_PER_CLUB for one club, past either the file is refused, saying until when; and
the site keeps IMPORT_UPLOADS_WAITING at most (its disk is finite), where a new file takes the
place of the oldest file of whichever account has the most waiting, if that is more than the
sender has. So an account's first file always finds room, and a file is refused for the site's
sake only to an account that has as many waiting as anyone. Files past their hour go whenever
a file arrives, and a file goes as soon as it is imported (or refused on "Import"): no cron job
is needed. Kept files are counted and changed by one request at a time (a lock file), so two
phones at once can't pass a bound together.
"""

from __future__ import annotations

import datetime
import json
import os
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.core.files import locks
from django.core.files.base import ContentFile
from django.core.files.storage import FileSystemStorage
from django.utils import timezone
from django.utils.formats import time_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

# Long enough to read a preview of a season's games, short enough not to keep files about.
WAITING_SECONDS = 60 * 60
DIGEST = re.compile(r"[0-9a-f]{64}")
LOCK_FILE = ".lock"


@dataclass(frozen=True)
class Waiting:
    name: str  # as the member's device named it
    data: bytes


@dataclass(frozen=True)
class Kept:
    """A file waiting on disk: whose, for which club, and when it arrived."""

    member: str
    club: str
    digest: str
    at: datetime.datetime

    @property
    def path(self) -> str:
        return f"{self.member}/{self.club}/{self.digest}"


class UploadsFull(Exception):  # noqa: N818 (a refusal, said to the member)
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def storage() -> FileSystemStorage:
    return FileSystemStorage(
        location=settings.VAR_DIR / "uploads",
        file_permissions_mode=0o600,
        directory_permissions_mode=0o700,
        allow_overwrite=True,
    )


def keep(*, member_id: int, club_id: int, digest: str, name: str, data: bytes) -> None:
    """Keep a file whose preview found nothing wrong until it is imported into the club, for an
    hour at most; UploadsFull, keeping nothing, past the bounds."""
    files = storage()
    at = path(member_id, club_id, digest)
    with one_at_a_time(files):
        waiting = clear_expired(files)
        if all(kept.path != at for kept in waiting):  # the same file again takes no more room
            make_room(files, waiting, str(int(member_id)), str(int(club_id)))
        header = json.dumps(name).encode() + b"\n"
        files.save(at, ContentFile(header + data))


def make_room(files: FileSystemStorage, waiting: list[Kept], member: str, club: str) -> None:
    """Room for one more file of `member` for `club`: UploadsFull past the account's or the
    club's bound; at the site's, the oldest file of the account with the most waiting is let go
    if it has more than `member`, and UploadsFull if none has."""
    mine = [kept for kept in waiting if kept.member == member]
    if len(mine) >= settings.IMPORT_UPLOADS_PER_MEMBER:
        raise UploadsFull(one_full(oldest(mine), club=False))
    clubs = [kept for kept in waiting if kept.club == club]
    if len(clubs) >= settings.IMPORT_UPLOADS_PER_CLUB:
        raise UploadsFull(one_full(oldest(clubs), club=True))
    if len(waiting) < settings.IMPORT_UPLOADS_WAITING:
        return
    counts = Counter(kept.member for kept in waiting)
    most = max(counts.values())
    if most <= len(mine):
        raise UploadsFull(site_full(oldest(mine)))
    files.delete(oldest(kept for kept in waiting if counts[kept.member] == most).path)


def take(member_id: int, club_id: int, digest: str) -> Waiting | None:
    """The member's file of that digest for that club, if it is still waiting."""
    if not DIGEST.fullmatch(digest):
        return None
    files, at = storage(), path(member_id, club_id, digest)
    try:
        if files.get_modified_time(at) < expiry():
            files.delete(at)
            return None
        with files.open(at, "rb") as found:
            header, _newline, data = found.read().partition(b"\n")
    except (FileNotFoundError, NotADirectoryError):
        return None
    return Waiting(json.loads(header), data)


def discard(member_id: int, club_id: int, digest: str) -> None:
    if DIGEST.fullmatch(digest):
        storage().delete(path(member_id, club_id, digest))


def path(member_id: int, club_id: int, digest: str) -> str:
    return f"{int(member_id)}/{int(club_id)}/{digest}"


def expiry() -> datetime.datetime:
    return timezone.now() - datetime.timedelta(seconds=WAITING_SECONDS)


@contextmanager
def one_at_a_time(files: FileSystemStorage) -> Iterator[None]:
    """The kept files to this request alone, across the server's threads and processes, until
    the block ends."""
    folder = Path(files.location)
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    descriptor = os.open(folder / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        locks.lock(descriptor, locks.LOCK_EX)
        yield
    finally:
        os.close(descriptor)  # which lets the lock go


def clear_expired(files: FileSystemStorage) -> list[Kept]:
    """Delete the files past their hour; the others, with when each arrived."""
    waiting: list[Kept] = []
    oldest_kept = expiry()
    for member in files.listdir("")[0]:
        clubs, loose = files.listdir(member)
        for name in loose:  # kept before files were kept by club: no "Import" finds them now
            files.delete(f"{member}/{name}")
        for club in clubs:
            for digest in files.listdir(f"{member}/{club}")[1]:
                kept = Kept(
                    member, club, digest, files.get_modified_time(f"{member}/{club}/{digest}")
                )
                if kept.at < oldest_kept:
                    files.delete(kept.path)
                else:
                    waiting.append(kept)
    return waiting


def oldest(kept: Iterable[Kept]) -> Kept:
    return min(kept, key=lambda found: found.at)


def one_full(first: Kept, *, club: bool) -> str:
    """The account's bound reached, or with `club` the club's: until when `first` waits."""
    most = settings.IMPORT_UPLOADS_PER_CLUB if club else settings.IMPORT_UPLOADS_PER_MEMBER
    said = (
        ngettext(
            "This club already has %(most)s previewed file waiting for “Import”, the most one"
            " club can: import it, or choose this file again after %(time)s, when it is let go.",
            "This club already has %(most)s previewed files waiting for “Import”, the most one"
            " club can: import one of them, or choose this file again after %(time)s, when the"
            " oldest is let go.",
            most,
        )
        if club
        else ngettext(
            "You already have %(most)s previewed file waiting for “Import”, the most one member"
            " can: import it, or choose this file again after %(time)s, when it is let go.",
            "You already have %(most)s previewed files waiting for “Import”, the most one member"
            " can: import one of them, or choose this file again after %(time)s, when the oldest"
            " is let go.",
            most,
        )
    )
    return said % {"most": most, "time": let_go_at(first)}


def site_full(first: Kept) -> str:
    return _(
        "The site already keeps %(most)s previewed files waiting for “Import”, the most it can,"
        " and nobody has more of them waiting than you: import one of yours, or choose this"
        " file again after %(time)s, when your oldest is let go."
    ) % {"most": settings.IMPORT_UPLOADS_WAITING, "time": let_go_at(first)}


def let_go_at(kept: Kept) -> str:
    gone = kept.at + datetime.timedelta(seconds=WAITING_SECONDS)
    return time_format(timezone.localtime(gone), "TIME_FORMAT")
