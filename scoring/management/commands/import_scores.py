"""`manage.py import_scores CLUB FILE --season ID [--end-as-they-stand] [--dry-run]`: a score
file's preview printed, then (without --dry-run) its games saved into the season, as the owner's
import page does."""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.imports.preview import (
    ImportPreview,
    NewSeason,
    preview_import,
    read_upload,
    rules_for_file,
)
from scoring.imports.sheet import Holds
from scoring.models import Club, Season
from scoring.services import ScoringError, save_import


class Command(BaseCommand):
    help = (
        "Import a score file (the site's season CSV, a big-two-scorer text file, a KeepScore "
        "backup or a spreadsheet CSV) into a season of a club: all its games, or nothing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("club", type=int, help="the club's id")
        parser.add_argument("file", help="the score file")
        parser.add_argument(
            "--season",
            required=True,
            help="the id of the club's season to import into, or 'new' for a season of its own",
        )
        parser.add_argument(
            "--points", action="store_true", help="a spreadsheet's numbers are points"
        )
        parser.add_argument(
            "--end-as-they-stand",
            action="store_true",
            help="end each game the season's rules haven't ended at its last deal, the lowest"
            " total winning and a tie sharing the win",
        )
        parser.add_argument("--dry-run", action="store_true", help="print the preview only")

    def handle(self, *args: object, club: int, file: str, season: str, **options: object) -> None:
        found = Club.objects.filter(pk=club).select_related("owner").first()
        if found is None:
            raise CommandError(f"There is no club {club}")
        path = Path(file)
        data = read_file(path)
        holds = Holds.POINTS if options["points"] else Holds.CARDS_LEFT
        score_file = read_upload(data, holds)
        if season == "new":
            target: Season | NewSeason = NewSeason(
                f"From {path.stem}", rules_for_file(score_file.rules, score_file.holds)
            )
        else:
            target = self.season_of(found, season)
        ending = bool(options["end_as_they_stand"])
        preview = preview_import(found, target, score_file, end_as_they_stand=ending)
        self.stdout.write("\n".join(preview_lines(preview)))
        if not preview.can_import:
            raise CommandError("Nothing was imported: fix the problems above first")
        if options["dry_run"]:
            self.stdout.write("Dry run: nothing was saved.")
            return
        try:
            imported = save_import(
                club=found,
                target=target,
                preview=preview,
                sha256=hashlib.sha256(data).hexdigest(),
                by=found.owner,
                file_name=path.name,
            )
        except ScoringError as error:
            raise CommandError(error.message) from error
        ended = f", {imported.ended_as_they_stood} ended as they stood" if ending else ""
        self.stdout.write(f"Imported {imported.games} games into {imported.season.name}{ended}.")

    def season_of(self, club: Club, season: str) -> Season:
        found = (
            club.seasons.filter(pk=int(season)).first()
            if season.isascii() and season.isdigit()
            else None
        )
        if found is None:
            raise CommandError(f"Club {club.pk} has no season {season}")
        return found


def read_file(path: Path) -> bytes:
    """The file's bytes, refused before a byte is read unless it is a regular file of at most
    IMPORT_MAX_BYTES (a device such as /dev/zero, or a pipe, would be read without end). Opened
    without waiting, so that a pipe with no writer is refused rather than waited on."""
    most = settings.IMPORT_MAX_BYTES
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as error:
        raise CommandError(f"{path} can't be read: {error.strerror}") from error
    found = os.fstat(descriptor)
    if not stat.S_ISREG(found.st_mode) or found.st_size > most:
        os.close(descriptor)
    if not stat.S_ISREG(found.st_mode):
        raise CommandError(f"{path} isn't a regular file: name the score file itself")
    if found.st_size > most:
        raise CommandError(
            f"{path} is {found.st_size / 1e6:.1f} MB: a score file can be at most"
            f" {most / 1e6:g} MB (DJANGO_IMPORT_MAX_MB); split it into smaller files"
        )
    with os.fdopen(descriptor, "rb") as opened:
        try:
            return opened.read(most + 1)
        except OSError as error:
            raise CommandError(f"{path} can't be read: {error.strerror}") from error


def preview_lines(preview: ImportPreview) -> list[str]:
    """The preview as text: each game, its players and totals, then each problem by line."""
    lines = [f"{len(preview.games)} games, scored by: {preview.rules.label}"]
    for number, game in enumerate(preview.games, start=1):
        day = game.played_on.isoformat() if game.played_on else "no date"
        lines.append(f"Game {number} (line {game.line}), {day}, {len(game.deals)} deals:")
        for seat, total in game.rows:
            status = "new" if seat.is_new else "on the roster"
            lines.append(f"  {seat.name} ({status}): {'—' if total is None else total}")
        if game.winner:
            lines.append(f"  {game.winner} wins")
        elif game.shared_by:
            lines.append(f"  {game.shared_by} share the win")
    lines += [f"Warning, line {item.line}: {item.message}" for item in preview.warnings]
    lines += [f"Problem, line {item.line}: {item.message}" for item in preview.problems]
    if preview.more_problems:
        lines.append(f"… and {preview.more_problems} more problems")
    return lines
