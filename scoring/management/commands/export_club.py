"""`manage.py export_club CLUB [-o FILE] [--with-passwords]`: everything a club has, as one JSON
file; its accounts' password hashes only with `--with-passwords`."""

from __future__ import annotations

from pathlib import Path

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
        found = Club.objects.filter(pk=int(club)) if club.isdigit() else Club.objects.none()
        found = found or Club.objects.filter(name=club)
        if len(found) != 1:
            raise CommandError(
                f"No single club is called {club!r}: give its id (see the address of its page)"
            )
        text = export_club(found[0], with_passwords=with_passwords)
        if output:
            Path(output).write_text(text, encoding="utf-8")
            self.stderr.write(f"Wrote {found[0].name} to {output}")
        else:
            self.stdout.write(text)
