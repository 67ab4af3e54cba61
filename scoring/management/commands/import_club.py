"""`manage.py import_club FILE`: restore a club backup made by export_club, beside the clubs
already here (its rows get new ids; nothing else is changed)."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.backup import BackupError, import_club


class Command(BaseCommand):
    help = (
        "Restore a club backup (from export_club) beside the clubs already here, with new ids. "
        "Refused whole, writing nothing, if its usernames are taken or it holds anything else."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the backup file")

    def handle(self, *args: object, file: str, **options: object) -> None:
        try:
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
