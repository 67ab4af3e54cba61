"""`manage.py import_club FILE`: load a club backup made by export_club into this database."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.backup import BackupError, import_club


class Command(BaseCommand):
    help = "Load a club backup (from export_club) into a database that doesn't hold it yet."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the backup file")

    def handle(self, *args: object, file: str, **options: object) -> None:
        try:
            club = import_club(Path(file).read_text(encoding="utf-8"))
        except (OSError, BackupError) as error:
            raise CommandError(str(error)) from error
        games = club.games.count()
        self.stdout.write(f"Restored {club.name}: {games} games, with its members and history.")
