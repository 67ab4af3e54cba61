"""`manage.py import_club FILE`: restore a club backup made by export_club, beside the clubs
already here (its rows get new ids; nothing else is changed)."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.backup import BackupError, import_club
from scoring.models import Club


class Command(BaseCommand):
    help = (
        "Restore a club backup (from export_club) beside the clubs already here, with new ids. "
        "Refused whole, writing nothing, if its usernames are taken or it holds anything else."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the backup file")

    def handle(self, *args: object, file: str, **options: object) -> None:
        try:
            self.refuse_a_file_too_large(Path(file))
            club = import_club(Path(file).read_text(encoding="utf-8-sig"))
        except UnicodeDecodeError as error:
            raise CommandError(f"{file} is not a backup file: it isn't UTF-8 text") from error
        except (OSError, BackupError) as error:
            raise CommandError(str(error)) from error
        games = club.games.count()
        members = club.memberships.count()
        self.stdout.write(
            f"Restored {club.name} as club {club.pk}: {games} game{'s' * (games != 1)} and "
            f"{members} member{'s' * (members != 1)}, with their history."
        )
        self.say_who_needs_a_password(club)

    def refuse_a_file_too_large(self, path: Path) -> None:
        """Before it is read: a file is held in memory many times over while it is checked, and
        on SQLite every deal of every club waits while its rows are written."""
        size, most = path.stat().st_size, settings.BACKUP_MAX_BYTES
        if size > most:
            raise CommandError(
                f"{path} is {size / 1_000_000:.1f} MB: a restore takes at most "
                f"{most / 1_000_000:g} MB (DJANGO_BACKUP_MAX_MB), so nothing was written. To "
                "restore it anyway, run the command with DJANGO_BACKUP_MAX_MB set higher, at an "
                "hour when no one is keeping score (docs/backup.md)."
            )

    def say_who_needs_a_password(self, club: Club) -> None:
        """Accounts restored from a file without passwords can't log in until they have one."""
        owner = club.owner.get_username()
        members = club.memberships.select_related("user").order_by("user__username")
        without = [m.user for m in members if not m.user.has_usable_password()]
        if not without:
            return
        self.stdout.write("The backup holds no passwords, so these members can't log in yet:")
        if not club.owner.has_usable_password():
            self.stdout.write(f"- the owner: manage.py changepassword {owner}")
        others = [user.get_username() for user in without if user.pk != club.owner_id]
        if others:
            self.stdout.write(
                f"- {', '.join(others)}: {owner} makes each a password reset link on the club's "
                "page, beside their name"
            )
