"""What a score file says, whatever its format: games of deals, each with the line (or element)
it came from, so that a problem can be shown where it is. Pure Python: the readers build these
from a file's bytes, and the import service checks them against a season's rules and saves them.
"""

from __future__ import annotations

import datetime
import heapq
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum

from rules.i18n import gettext

# The days a game can be dated: none was played before 1900, and a day far ahead is a typo.
# Between them, a day's midday is a time the database can store whatever the site's time zone.
FIRST_DAY = datetime.date(1900, 1, 1)
LAST_DAY = datetime.date(2999, 12, 31)


class FileFormat(StrEnum):
    SITE_CSV = "site-csv"  # /seasons/<id>/deals.csv
    SCORER_TEXT = "big-two-scorer"  # yawnoc/big-two-scorer's score file
    KEEPSCORE = "keepscore"  # KeepScore's XML backup, plain or gzipped
    SPREADSHEET = "spreadsheet"  # a CSV, a column per player and a row per deal


class Holds(StrEnum):
    """What the numbers of a deal are: the cards each player was left with, or their points."""

    CARDS_LEFT = "cards"
    POINTS = "points"


@dataclass(frozen=True)
class Problem:
    """Something wrong with the file, where it is: `line` is 1-based (an element's position for
    XML); `message` is for the person who typed the file, saying what to fix."""

    line: int
    message: str


@dataclass(frozen=True)
class SheetDeal:
    line: int
    # One number per seat, in the game's seat order; `holds` says what they are.
    numbers: tuple[int, ...]
    # The seat that takes on the whole deal's penalties ("pays for the table"), if the file says.
    pays_for_table: int | None = None
    # The penalties the file itself recorded (the site's CSV has them), to warn when the
    # season's rules score the cards differently.
    recorded_penalties: tuple[int, ...] | None = None
    # The deal's number in its game as the file has it, where a deal the reader refused before
    # it leaves a gap; 0: its place among the game's deals.
    number: int = 0


@dataclass(frozen=True)
class SheetGame:
    line: int
    players: tuple[str, ...]  # in seat order, as written (trimmed)
    played_on: datetime.date | None
    deals: tuple[SheetDeal, ...]
    # The game's name in its file (the site CSV's game number, KeepScore's game name), if any.
    label: str = ""
    # A big-two-scorer file's fry threshold in force for this game (its `F=N`), else None.
    doubled_from: int | None = None


@dataclass(frozen=True)
class FileRules:
    """The rules a file implies, for "A new season for this file": a big-two-scorer file's
    fry threshold (`doubled_from`, 10 being the standard scale; 14 or more is flat) and whether
    anyone paid for the table. None where the file says nothing."""

    doubled_from: int | None = None
    pays_for_table: bool = False
    play_until_stopped: bool = False


@dataclass(frozen=True)
class ScoreFile:
    format: FileFormat
    holds: Holds
    games: tuple[SheetGame, ...]
    # The first problems by line (at most `Limits.problems` of them), and how many more there are.
    problems: tuple[Problem, ...] = ()
    rules: FileRules = field(default_factory=FileRules)
    more_problems: int = 0


@dataclass(frozen=True)
class Limits:
    """What one score file may make the site read (the site's IMPORT_MAX_* and GAME_MAX_DEALS
    settings; these defaults are theirs). A reader stops at the first bound passed."""

    unpacked_bytes: int = 20_000_000
    games: int = 1000
    deals: int = 20_000
    deals_per_game: int = 500
    players: int = 200
    problems: int = 50

    @property
    def lines(self) -> int:
        """The most lines a file within the other bounds needs: a row for each seat (at most
        four) of every deal, and a few lines (names, a day, a blank) for every game."""
        return 4 * (self.deals + self.games)

    @property
    def elements(self) -> int:
        """The most XML elements a KeepScore backup of `games` games holds: about 10 a game
        and 8 for each of its (at most four) players; twice that, for room."""
        return 100 * self.games


class FileRefused(Exception):  # noqa: N818 (a refusal, not an error of the code)
    """Reading stops here: a bound is passed, or the file can't be read on from this line."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message)
        self.problem = problem


class Tally:
    """What a reader has read so far, checked against the file's `Limits` as it goes: the
    first bound passed raises FileRefused naming it, so that no file is read past it. Keeps
    the first `limits.problems` problems by line and counts the rest."""

    def __init__(self, limits: Limits | None = None) -> None:
        self.limits = limits or Limits()
        self.games = self.deals = self.problem_count = 0
        self.players: set[str] = set()
        self._problems: list[tuple[int, int, Problem]] = []  # a heap of the lowest lines

    def problem(self, line: int, message: str) -> None:
        self.problem_count += 1
        entry = (-line, -self.problem_count, Problem(line, message))
        if len(self._problems) < self.limits.problems:
            heapq.heappush(self._problems, entry)
        else:
            heapq.heappushpop(self._problems, entry)

    def uncounted(self, count: int) -> None:
        """`count` more problems, found but not listed (by an earlier tally)."""
        self.problem_count += count

    @property
    def problems(self) -> tuple[Problem, ...]:
        return tuple(problem for *_, problem in sorted(self._problems, reverse=True))

    @property
    def more_problems(self) -> int:
        return self.problem_count - len(self._problems)

    def game(self, line: int) -> None:
        self.games += 1
        if self.games > self.limits.games:
            refuse(line, past_games(self.limits.games))

    def deal(self, line: int, in_game: int) -> None:
        """One more deal read: the `in_game`th of its game."""
        self.deals += 1
        if in_game > self.limits.deals_per_game:
            refuse(line, past_deals_per_game(self.limits.deals_per_game))
        if self.deals > self.limits.deals:
            refuse(line, past_deals(self.limits.deals))

    def game_deals(self, line: int, count: int) -> None:
        """A game's `count` deals, told at once (a KeepScore player's history): checked against
        the bounds before they are read one by one."""
        if count > self.limits.deals_per_game:
            refuse(line, past_deals_per_game(self.limits.deals_per_game))
        if self.deals + count > self.limits.deals:
            refuse(line, past_deals(self.limits.deals))

    def player(self, line: int, name: str) -> None:
        self.players.add(name.casefold())
        if len(self.players) > self.limits.players:
            refuse(line, past_players(self.limits.players))

    def lines(self, lines: Iterable[str]) -> Iterator[str]:
        """`lines` as they come, refused at the first past `limits.lines`."""
        for number, line in enumerate(lines, start=1):
            if number > self.limits.lines:
                refuse(number, past_lines(self.limits))
            yield line

    def score_file(self, file_format: FileFormat, holds: Holds, **read: object) -> ScoreFile:
        return ScoreFile(
            file_format,
            holds,
            problems=self.problems,
            more_problems=self.more_problems,
            **read,  # type: ignore[arg-type]
        )

    def refused(self, file_format: FileFormat, holds: Holds, refusal: Problem) -> ScoreFile:
        """No games: the file is refused with `refusal` first, then what was found before."""
        listed = (refusal, *self.problems[: self.limits.problems - 1])
        more = self.problem_count + 1 - len(listed)
        return ScoreFile(file_format, holds, (), listed, more_problems=more)


def refuse(line: int, message: str) -> None:
    raise FileRefused(Problem(line, message))


def past_games(most: int) -> str:
    return gettext(
        "The file goes on past %(most)s games, the most one file can hold: split it into files"
        " of at most %(most)s games, and import each."
    ) % {"most": f"{most:,}"}


def past_deals(most: int) -> str:
    return gettext(
        "The file goes on past %(most)s deals, the most one file can hold: split it into files"
        " of at most %(most)s deals, and import each."
    ) % {"most": f"{most:,}"}


def past_deals_per_game(most: int) -> str:
    return gettext(
        "This game goes on past %(most)s deals, the most one game can have: a game is a few"
        " dozen deals, so start a new game before this line (in a score file, with a line of"
        " the players' names)."
    ) % {"most": f"{most:,}"}


def past_players(most: int) -> str:
    return gettext(
        "The file names more than %(most)s players, the most one file can: split it into files"
        " of fewer players, and import each."
    ) % {"most": f"{most:,}"}


def past_lines(limits: Limits) -> str:
    return gettext(
        "The file goes on past %(most)s lines, more than a file of %(deals)s deals and %(games)s"
        " games needs: take out the blank lines, or split it into smaller files."
    ) % {
        "most": f"{limits.lines:,}",
        "deals": f"{limits.deals:,}",
        "games": f"{limits.games:,}",
    }
