"""What a score file says, whatever its format: games of deals, each with the line (or element)
it came from, so that a problem can be shown where it is. Pure Python: the readers build these
from a file's bytes, and the import service checks them against a season's rules and saves them.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from enum import StrEnum

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
    problems: tuple[Problem, ...] = ()
    rules: FileRules = field(default_factory=FileRules)
