"""A score file checked against a season's rules (`preview_import`) and saved into it
(`save_import`): all of its games in one transaction, or none.

Every deal is scored by `rules.deal_score.score_deal`, as one typed at the table is, so the
preview refuses what the deal form would, naming the file's line; the save writes the rows the
table's writes do (`scoring.services.totals`) and lets `recompute` decide each game's end.
"""

from __future__ import annotations

import dataclasses
import datetime
import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from rules.deal_options import PaysForTable, Scoring
from rules.options import Finish, PenaltyScale
from rules.ruleset import RuleSet, UnknownRules, parse_rules
from scoring.caching import seasons_changed
from scoring.imports.checks import GameCheck, GamePreview, points_rules
from scoring.imports.readers import read_score_file
from scoring.imports.sheet import FileFormat, FileRules, Holds, Problem, ScoreFile
from scoring.models import Club, Deal, Game, GameChange, ImportedFile, Player, Season, Seat
from scoring.names import name_key
from scoring.selectors import seats_of
from scoring.services import permissions
from scoring.services.errors import ScoringError
from scoring.services.facts import deal_row
from scoring.services.totals import history_line, recompute, scored_deal, store_scores

# big-two-scorer's fry threshold: 10 is the standard scale, 14 or more charges 1 a card.
STANDARD_THRESHOLD = 10
FLAT_THRESHOLD = 14


@dataclass(frozen=True)
class NewSeason:
    """ "A new season for this file": made by the import, with the file's rules."""

    name: str
    rules: RuleSet


@dataclass(frozen=True)
class ImportPreview:
    format: FileFormat
    rules: RuleSet
    games: tuple[GamePreview, ...]
    problems: tuple[Problem, ...]  # any of these and nothing is saved
    warnings: tuple[Problem, ...]  # worth knowing, saved all the same

    @property
    def can_import(self) -> bool:
        return bool(self.games) and not self.problems


class ImportRefused(ScoringError):
    def __init__(self, problems: Sequence[Problem]) -> None:
        first = problems[0] if problems else Problem(0, _("The file has no games to import"))
        super().__init__(
            _("Line %(line)s: %(problem)s") % {"line": first.line, "problem": first.message}
        )
        self.problems = tuple(problems)


class AlreadyImported(ScoringError):
    """The same file (byte for byte) is already in that season."""


def rules_for_file(file_rules: FileRules, holds: Holds = Holds.CARDS_LEFT) -> RuleSet:
    """The rules of "A new season for this file": its penalty scale, paying for the table if
    anyone did, and a match that ends when the table stops (each game at its last deal); a
    file of points is played with the points typed by hand."""
    rules = dataclasses.replace(scale_rules(file_rules.doubled_from), finish=Finish.OPEN)
    if file_rules.pays_for_table:
        rules = dataclasses.replace(rules, pays_for_table=PaysForTable.ON)
    return points_rules(rules) if holds is Holds.POINTS else rules


def scale_rules(doubled_from: int | None) -> RuleSet:
    """The rules whose penalty scale is big-two-scorer's `F=N`."""
    if doubled_from is None or doubled_from == STANDARD_THRESHOLD:
        return RuleSet()
    if doubled_from >= FLAT_THRESHOLD:
        return RuleSet(penalties=PenaltyScale.FLAT)
    try:
        return parse_rules(f"doubled-from-{doubled_from}")
    except UnknownRules:
        return RuleSet()


def target_rules(target: Season | NewSeason) -> RuleSet:
    return target.ruleset if isinstance(target, Season) else target.rules


def preview_import(club: Club, target: Season | NewSeason, score_file: ScoreFile) -> ImportPreview:
    """Every game of the file as it would be saved into `target`: its players matched to the
    club's roster, its totals under the season's rules, and every problem with its line."""
    rules = target_rules(target)
    problems = list(score_file.problems)
    warnings: list[Problem] = []
    if score_file.holds is Holds.CARDS_LEFT and rules.scoring is not Scoring.CARDS_LEFT:
        problems.append(
            Problem(
                1,
                _(
                    "This season scores by %(scoring)s: a file of cards left can only go into a"
                    " season scored by cards left"
                )
                % {"scoring": rules.scoring.label},
            )
        )
    roster = dict(club.players.values_list("name_key", "pk"))
    games = []
    if not problems:
        for game in score_file.games:
            checked = GameCheck(game, rules, score_file, roster)
            games.append(checked.preview())
            problems += checked.problems
            warnings += checked.warnings
    if not score_file.games and not problems:
        problems.append(Problem(1, _("The file has no games in it")))
    return ImportPreview(
        format=score_file.format,
        rules=rules,
        games=tuple(games),
        problems=tuple(sorted(problems, key=lambda problem: problem.line)),
        warnings=tuple(sorted(warnings, key=lambda warning: warning.line)),
    )


@dataclass(frozen=True)
class Imported:
    season: Season
    games: int


def save_import(
    *,
    club: Club,
    target: Season | NewSeason,
    score_file: ScoreFile,
    sha256: str,
    by: AbstractBaseUser,
    file_name: str = "",
) -> Imported:
    """Save every game of the file into `target` (made first if new), in one transaction:
    refused whole (ImportRefused) if the preview finds a problem, and (AlreadyImported) if
    this file is already in that season. Sent twice at once, the database's unique constraint
    lets one through and the other is told when it came in."""
    permissions.check_may_import(club=club, by=by)
    try:
        with transaction.atomic():
            Club.objects.select_for_update().get(pk=club.pk)
            refuse_if_imported(club, target, sha256)
            preview = preview_import(club, target, score_file)
            if not preview.can_import:
                raise ImportRefused(preview.problems)
            season = target if isinstance(target, Season) else new_season(club, target, preview)
            ImportedFile.objects.create(
                club=club,
                season=season,
                sha256=sha256,
                name=file_name[:200],
                by=by,
                made_season=not isinstance(target, Season),
            )
            for game in preview.games:
                save_game(club, season, game, by)
            seasons_changed(season.pk)
    except IntegrityError:
        # Another import of the same file committed while this one waited for the club.
        refuse_if_imported(club, target, sha256)
        raise
    return Imported(season, len(preview.games))


def refuse_if_imported(club: Club, target: Season | NewSeason, sha256: str) -> None:
    if (refusal := already_imported(club, target, sha256)) is not None:
        raise AlreadyImported(refusal)


def already_imported(club: Club, target: Season | NewSeason, sha256: str) -> str | None:
    """Why the file can't go into `target` (it is there already, and since when), or None."""
    found = ImportedFile.objects.filter(club=club, sha256=sha256).select_related("season")
    if isinstance(target, Season):
        found = found.filter(season=target)
    else:
        found = found.filter(made_season=True)
    earlier = found.first()
    if earlier is None:
        return None
    return _("This file was already imported into %(season)s on %(date)s") % {
        "season": earlier.season.name,
        "date": date_format(timezone.localtime(earlier.imported_at), "DATE_FORMAT"),
    }


def new_season(club: Club, target: NewSeason, preview: ImportPreview) -> Season:
    """The file's own season, spanning its days; not the current one, which goes on."""
    days = [game.played_on for game in preview.games if game.played_on is not None]
    today = timezone.localdate()
    return Season.objects.create(
        club=club,
        name=" ".join(target.name.split())[:60] or _("Imported scores"),
        starts_on=min(days, default=today),
        ends_on=max(days, default=today),
        rules=target.rules.name,
    )


def played_at(day: datetime.date | None) -> datetime.datetime:
    """When a game of `day` is said to have been played: midday there, so the day shows the
    same wherever the site's clock is."""
    if day is None:
        return timezone.now()
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time(12)))


def save_game(club: Club, season: Season, preview: GamePreview, by: AbstractBaseUser) -> Game:
    """One game of the file, written as the table's writes write it; `recompute` then sets
    its totals and its end (an open-ended match ended at its last deal, as the file says)."""
    at = played_at(preview.played_on)
    game = Game.objects.create(
        club=club,
        season=season,
        created_by=by,
        created_at=at,
        rules=preview.rules.name,
        stake=season.stake,
    )
    roster = {player.name_key: player for player in club.players.all()}
    for position, seat in enumerate(preview.seats):
        player = roster.get(name_key(seat.name))
        if player is None:
            player = Player.named(seat.name, club=club)
            player.save()
        Seat.objects.create(game=game, player=player, position=position)
    seats = seats_of(game)
    for number, facts in enumerate(preview.deals, start=1):
        scored = scored_deal(facts, seats, game)
        deal = Deal.objects.create(
            game=game,
            number=number,
            token=uuid.uuid4(),
            recorded_by=by,
            recorded_at=at,
            **deal_row(scored.facts),
        )
        store_scores(deal, seats, scored)
        history_line(game, by, GameChange.Action.RECORD, number, after=scored.facts)
    if game.ruleset.finish is Finish.OPEN and preview.deals:
        game.ended = True
        game.save(update_fields=["ended"])
    recompute(game)
    return game


def read_upload(data: bytes, holds: Holds) -> ScoreFile:
    """The file's games, whatever its format; `holds` is what a spreadsheet's numbers are."""
    return read_score_file(data, holds=holds)
