"""A score file read and checked against a season's rules, before anything is written: the
preview the owner reads, and what "Import" saves (`scoring.services.imports.save_import`).

Every deal is scored by the rules engine as one typed at the table is (`checks.GameCheck`),
so the preview refuses what the deal form would, naming the file's line. Only reads: the
club's roster, the season, and whether the file is already in it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from django.conf import settings
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from rules.deal_options import PaysForTable, Scoring
from rules.options import Finish, PenaltyScale
from rules.ruleset import RuleSet, UnknownRules, parse_rules
from scoring import selectors
from scoring.imports.checks import GameCheck, GamePreview, points_rules
from scoring.imports.readers import read_score_file
from scoring.imports.sheet import FileFormat, FileRules, Holds, Limits, Problem, ScoreFile, Tally
from scoring.models import Club, ImportedFile, Season

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
    problems: tuple[Problem, ...]  # any of these and nothing is saved: the first by line
    warnings: tuple[Problem, ...]  # worth knowing, saved all the same
    more_problems: int = 0  # past those listed

    @property
    def can_import(self) -> bool:
        return bool(self.games) and not self.problems

    @property
    def problem_count(self) -> int:
        return len(self.problems) + self.more_problems

    @property
    def games_going_on(self) -> int:
        """The games the season's rules haven't ended, which would come in still played."""
        return sum(game.goes_on for game in self.games)

    @property
    def games_ended_as_they_stood(self) -> int:
        return sum(game.last_deal is not None for game in self.games)


def file_limits() -> Limits:
    """What one score file may hold: the site's settings, read now."""
    return Limits(
        unpacked_bytes=settings.IMPORT_MAX_UNPACKED_BYTES,
        games=settings.IMPORT_MAX_GAMES,
        deals=settings.IMPORT_MAX_DEALS,
        deals_per_game=settings.GAME_MAX_DEALS,
        players=settings.IMPORT_MAX_PLAYERS,
        problems=settings.IMPORT_MAX_PROBLEMS_SHOWN,
    )


def read_upload(data: bytes, holds: Holds) -> ScoreFile:
    """The file's games, whatever its format, within the site's limits; `holds` is what a
    spreadsheet's numbers are."""
    return read_score_file(data, holds=holds, limits=file_limits())


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


def preview_import(
    club: Club,
    target: Season | NewSeason,
    score_file: ScoreFile,
    *,
    end_as_they_stand: bool = False,
) -> ImportPreview:
    """Every game of the file as it would be saved into `target`: its players matched to the
    club's roster, its deals scored under the season's rules, and every problem with its line
    (the first of them by line, as many as the file's limits list, and how many more). With
    `end_as_they_stand`, a game the season's rules haven't ended ends at its last deal, the
    lowest total winning and a tie sharing the win."""
    rules = target_rules(target)
    problems = Tally(file_limits())
    for problem in score_file.problems:
        problems.problem(problem.line, problem.message)
    problems.uncounted(score_file.more_problems)
    warnings: list[Problem] = []
    games = []
    if score_file.holds is Holds.CARDS_LEFT and rules.scoring is not Scoring.CARDS_LEFT:
        message = _(
            "This season scores by %(scoring)s: a file of cards left can only go into a"
            " season scored by cards left"
        )
        problems.problem(1, message % {"scoring": rules.scoring.label})
    else:
        roster = {key: player.pk for key, player in selectors.roster_by_name(club).items()}
        for game in score_file.games:
            check = GameCheck(
                game,
                rules,
                score_file,
                roster,
                problem=problems.problem,
                warning=lambda line, message: warnings.append(Problem(line, message)),
                end_as_it_stands=end_as_they_stand,
            )
            games.append(check.preview())
    if not score_file.games and not problems.problem_count:
        problems.problem(1, _("The file has no games in it"))
    return ImportPreview(
        format=score_file.format,
        rules=rules,
        games=tuple(games),
        problems=problems.problems,
        warnings=tuple(sorted(warnings, key=lambda warning: warning.line)),
        more_problems=problems.more_problems,
    )


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
