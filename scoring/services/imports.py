"""A previewed score file saved into a season (`save_import`): all of its games in one
transaction, or none, holding the database no longer than the writes take.

Everything that costs time is done before the transaction, without a lock: the file was read
and every deal scored once by the preview (`scoring.imports.preview`), a file the preview
refuses, or one already in the season, is refused before any lock is taken, and every row to
write is made (`import_rows`). Inside, under the club's lock, only a cheap look again (the
file not imported meanwhile, the season and its rules as previewed, the roster's names still
the players previewed) and the rows written, a table at a time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.imports.preview import ImportPreview, NewSeason, already_imported
from scoring.imports.sheet import Problem
from scoring.models import Club, ImportedFile, Player, Season
from scoring.selectors import roster_by_name, roster_key
from scoring.services import import_rows, permissions, ratings
from scoring.services.clubs import lock_club
from scoring.services.errors import ScoringError
from scoring.services.versions import seasons_changed


class ImportRefused(ScoringError):
    def __init__(self, problems: Sequence[Problem]) -> None:
        first = problems[0] if problems else Problem(0, _("The file has no games to import"))
        super().__init__(
            _("Line %(line)s: %(problem)s") % {"line": first.line, "problem": first.message}
        )
        self.problems = tuple(problems)


class AlreadyImported(ScoringError):
    """The same file (byte for byte) is already in that season."""


class PreviewOutdated(ScoringError):
    """The season's rules, or a player of the roster, changed after the preview."""


@dataclass(frozen=True)
class Imported:
    season: Season
    games: int
    ended_as_they_stood: int = 0


def save_import(
    *,
    club: Club,
    target: Season | NewSeason,
    preview: ImportPreview,
    sha256: str,
    by: AbstractBaseUser,
    file_name: str = "",
) -> Imported:
    """Save every game of the previewed file into `target` (made first if new), in one
    transaction: refused whole (ImportRefused) if the preview found a problem, if this file is
    already in that season (AlreadyImported), or if the season or the roster changed since the
    preview (PreviewOutdated). Games the preview ended as they stood are saved ended, their
    winners rated with the rest. Sent twice at once, the database's unique constraint lets one
    through and the other is told when it came in."""
    permissions.check_may_import(club=club, by=by)
    if not preview.can_import:
        raise ImportRefused(preview.problems)
    refuse_if_imported(club, target, sha256)
    rows = import_rows.rows_of(club, preview.games, by)
    try:
        with transaction.atomic():
            lock_club(club)
            refuse_if_imported(club, target, sha256)
            season = season_as_previewed(club, target, preview)
            players = players_as_previewed(club, preview)
            ImportedFile.objects.create(
                club=club,
                season=season,
                sha256=sha256,
                name=file_name[:200],
                by=by,
                made_season=not isinstance(target, Season),
            )
            games = import_rows.write(rows, season, players)
            seasons_changed(season.pk)
            finished = [ratings.position(game) for game in games]
            if positions := [position for position in finished if position is not None]:
                ratings.ratings_changed(club.pk, since=min(positions))
    except IntegrityError:
        # Another import of the same file committed while this one waited for the club.
        refuse_if_imported(club, target, sha256)
        raise
    return Imported(season, len(games), preview.games_ended_as_they_stood)


def refuse_if_imported(club: Club, target: Season | NewSeason, sha256: str) -> None:
    if (refusal := already_imported(club, target, sha256)) is not None:
        raise AlreadyImported(refusal)


def outdated() -> PreviewOutdated:
    return PreviewOutdated(
        _(
            "The season or the club's players changed since this preview: choose the file"
            " again to see it as it would come in now."
        )
    )


def season_as_previewed(club: Club, target: Season | NewSeason, preview: ImportPreview) -> Season:
    """The season chosen, still with the rules the preview scored by; or the file's own new
    season, spanning its days (not the current one, which goes on)."""
    if isinstance(target, Season):
        season = Season.objects.filter(pk=target.pk, club=club).first()
        if season is None or season.ruleset != preview.rules:
            raise outdated()
        return season
    days = [game.played_on for game in preview.games if game.played_on is not None]
    today = timezone.localdate()
    return Season.objects.create(
        club=club,
        name=" ".join(target.name.split())[:60] or _("Imported scores"),
        starts_on=min(days, default=today),
        ends_on=max(days, default=today),
        rules=target.rules.name,
    )


def players_as_previewed(club: Club, preview: ImportPreview) -> dict[str, Player]:
    """Every seat's player by name: the roster's the preview matched, the new ones added.
    Refused if a player the preview matched is no longer on the roster by that name."""
    roster = roster_by_name(club)
    new: dict[str, Player] = {}
    for game in preview.games:
        for seat in game.seats:
            key = roster_key(seat.name)
            found = roster.get(key)
            if seat.player_id is not None and (found is None or found.pk != seat.player_id):
                raise outdated()
            if found is None and key not in new:
                new[key] = Player.named(seat.name, club=club)
    Player.objects.bulk_create(new.values())
    return roster | new
