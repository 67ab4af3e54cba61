"""Score files previewed and waiting for "Import": on disk, in the site's private directory
(DJANGO_VAR_DIR/uploads/, 700, each file 600), never in the server's memory.

A file waits under its member and its SHA-256 for an hour at most, and only if its preview
found nothing wrong: a refused file is never kept. At most IMPORT_UPLOADS_PER_MEMBER wait for
one member and IMPORT_UPLOADS_WAITING in all; past either, the file is not kept and the member
is told why and until when. Files past their hour go whenever a file arrives, and a file goes
as soon as it is imported (or refused on "Import"): no cron job is needed.
"""

from __future__ import annotations

import datetime
import json
import re
from dataclasses import dataclass

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import FileSystemStorage
from django.utils import timezone
from django.utils.formats import time_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

# Long enough to read a preview of a season's games, short enough not to keep files about.
WAITING_SECONDS = 60 * 60
DIGEST = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class Waiting:
    name: str  # as the member's device named it
    data: bytes


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


def keep(*, member_id: int, digest: str, name: str, data: bytes) -> None:
    """Keep a file whose preview found nothing wrong until it is imported, for an hour at most;
    UploadsFull, keeping nothing, past the bounds."""
    files = storage()
    waiting = clear_expired(files)
    mine = waiting.get(str(member_id), {})
    if digest not in mine:
        if len(mine) >= settings.IMPORT_UPLOADS_PER_MEMBER:
            raise UploadsFull(member_full(min(mine.values())))
        if sum(len(found) for found in waiting.values()) >= settings.IMPORT_UPLOADS_WAITING:
            raise UploadsFull(
                site_full(min(at for found in waiting.values() for at in found.values()))
            )
    header = json.dumps(name).encode() + b"\n"
    files.save(path(member_id, digest), ContentFile(header + data))


def take(member_id: int, digest: str) -> Waiting | None:
    """The member's file of that digest, if it is still waiting."""
    if not DIGEST.fullmatch(digest):
        return None
    files, at = storage(), path(member_id, digest)
    try:
        if files.get_modified_time(at) < expiry():
            files.delete(at)
            return None
        with files.open(at, "rb") as found:
            header, _newline, data = found.read().partition(b"\n")
    except (FileNotFoundError, NotADirectoryError):
        return None
    return Waiting(json.loads(header), data)


def discard(member_id: int, digest: str) -> None:
    if DIGEST.fullmatch(digest):
        storage().delete(path(member_id, digest))


def path(member_id: int, digest: str) -> str:
    return f"{int(member_id)}/{digest}"


def expiry() -> datetime.datetime:
    return timezone.now() - datetime.timedelta(seconds=WAITING_SECONDS)


def clear_expired(files: FileSystemStorage) -> dict[str, dict[str, datetime.datetime]]:
    """Delete the files past their hour; when each of the others arrived, by member."""
    waiting: dict[str, dict[str, datetime.datetime]] = {}
    if not files.exists(""):
        return waiting
    oldest = expiry()
    for member in files.listdir("")[0]:
        for digest in files.listdir(member)[1]:
            at = files.get_modified_time(f"{member}/{digest}")
            if at < oldest:
                files.delete(f"{member}/{digest}")
            else:
                waiting.setdefault(member, {})[digest] = at
    return waiting


def member_full(oldest: datetime.datetime) -> str:
    most = settings.IMPORT_UPLOADS_PER_MEMBER
    return ngettext(
        "You already have %(most)s previewed file waiting for “Import”, the most one member"
        " can: import it, or choose this file again after %(time)s, when it is let go.",
        "You already have %(most)s previewed files waiting for “Import”, the most one member"
        " can: import one of them, or choose this file again after %(time)s, when the oldest"
        " is let go.",
        most,
    ) % {"most": most, "time": let_go_at(oldest)}


def site_full(oldest: datetime.datetime) -> str:
    return _(
        "The site already has %(most)s previewed files waiting for “Import”, the most it keeps:"
        " choose this file again after %(time)s, when the oldest is let go."
    ) % {"most": settings.IMPORT_UPLOADS_WAITING, "time": let_go_at(oldest)}


def let_go_at(arrived: datetime.datetime) -> str:
    gone = arrived + datetime.timedelta(seconds=WAITING_SECONDS)
    return time_format(timezone.localtime(gone), "TIME_FORMAT")
