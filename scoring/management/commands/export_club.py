"""`manage.py export_club CLUB [-o FILE] [--with-passwords]`: everything a club has, as one JSON
file; its accounts' password hashes only with `--with-passwords`.

The file is its owner's alone (mode 600), as the database is, whatever the umask or the mode of
a file it replaces; and it is never written through a symbolic link, which could send the
members' details wherever someone who could write in that directory pointed it.
"""

from __future__ import annotations

import errno
import os
import stat

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.backup import export_club
from scoring.models import Club


class Command(BaseCommand):
    help = "Write a JSON backup of a club (by id or name): members, players, seasons, games."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("club", help="the club's id or exact name")
        parser.add_argument("-o", "--output", help="file to write (default: standard output)")
        parser.add_argument(
            "--with-passwords",
            action="store_true",
            help="include the accounts' password hashes, to move a whole site (keep the file as "
            "private as the database); without them, a restored member gets in by a password "
            "reset link from the club's owner",
        )

    def handle(
        self,
        *args: object,
        club: str,
        output: str | None,
        with_passwords: bool,
        **options: object,
    ) -> None:
        found = (
            Club.objects.filter(pk=int(club))
            if club.isascii() and club.isdigit()
            else Club.objects.none()
        )
        found = found or Club.objects.filter(name=club)
        if len(found) != 1:
            raise CommandError(
                f"No single club is called {club!r}: give its id (see the address of its page)"
            )
        text = export_club(found[0], with_passwords=with_passwords)
        if output:
            write_private_file(output, text)
            self.stderr.write(f"Wrote {found[0].name} to {output}")
        else:
            self.stdout.write(text)


def write_private_file(path: str, text: str) -> None:
    """Write `text` to the regular file `path`, mode 600; CommandError, saying why, for a
    symbolic link or anything but a regular file. Opened without following a link (no gap
    between a check and the write), made 600 before a byte is written."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK, 0o600)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise CommandError(
                f"{path} is a symbolic link, and a backup is never written through one: name "
                "the file itself, in a directory only you can write in."
            ) from error
        raise CommandError(f"Can't write {path}: {error.strerror}") from error
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise CommandError(f"{path} isn't a regular file: name a file to write the backup to.")
        try:
            os.fchmod(descriptor, 0o600)
            file.truncate()
            file.write(text)
        except OSError as error:
            raise CommandError(f"Can't write {path}: {error.strerror}") from error
