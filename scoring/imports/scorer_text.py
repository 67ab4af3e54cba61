"""A paper score sheet typed as text, in the score-file format of yawnoc/big-two-scorer:

    F=11                # the fry threshold from here on: doubled from 11 cards
    2013-03-19          # a day
    C S H Jj            # the players, in seat order: a game starts
    1 1 5 0             # a deal: each player's cards left
    11 9 9t 0           # H (9t) takes on the whole deal's penalties: pays for the table

`#` starts a comment anywhere on a line. A date line ends the game before it; deals after it
without a new line of names are a new game of the same players. Pure Python.

>>> sheet = read_scorer_text("a b c d\\n0 11 12 13\\n1 1 1 0\\n\\nx b c d\\n3t 0 1 2\\n", Tally())
>>> [(game.players, len(game.deals)) for game in sheet.games], sheet.rules.pays_for_table
([(('a', 'b', 'c', 'd'), 2), (('x', 'b', 'c', 'd'), 1)], True)
"""

from __future__ import annotations

import datetime
import io
import itertools
import re
from dataclasses import dataclass, field, replace

from rules.i18n import gettext, ngettext
from scoring.imports.sheet import (
    FIRST_DAY,
    LAST_DAY,
    FileFormat,
    FileRefused,
    FileRules,
    Holds,
    ScoreFile,
    SheetDeal,
    SheetGame,
    Tally,
)
from scoring.imports.tables import far_day, formula_name, repeated, shown

DEFAULT_THRESHOLD = 10  # big-two-scorer's default: the standard scale
_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_THRESHOLD = re.compile(r"[Ff]\s*=\s*([0-9]+)")
# Six digits at most: far beyond any count of cards, and int() stays cheap.
_CARDS = re.compile(r"([0-9]{1,6})([tT]?)")
# The most words a line is split into: a game seats at most four, and a line of more is told
# as it is without splitting the whole of it.
_MOST_WORDS = 8


def looks_like_scorer_text(text: str, most_lines: int) -> bool:
    """Whether the first line that isn't a comment (of the first `most_lines`) is a date, an
    `F=N`, or words or numbers separated by spaces (a spreadsheet's CSV has commas or
    semicolons)."""
    # Line by line: only the first that says anything counts.
    for line in itertools.islice(io.StringIO(text), most_lines):
        content = line.partition("#")[0].strip()
        if content:
            return bool(
                _DATE.fullmatch(content)
                or _THRESHOLD.fullmatch(content)
                or (len(content.split()) > 1 and not {",", ";"} & set(content))
            )
    return False


@dataclass
class _Reading:
    """Where the reader is in the file: the day, the threshold and the players in force, the
    deals of the game being read, and what it found."""

    tally: Tally
    played_on: datetime.date | None = None
    threshold: int = DEFAULT_THRESHOLD
    threshold_used: int | None = None
    names: tuple[str, ...] = ()
    names_line: int = 0
    game_line: int = 0  # where the game being read starts, once it has
    deals: list[SheetDeal] = field(default_factory=list)
    deal_lines: int = 0  # of the game being read, the refused too
    games: list[SheetGame] = field(default_factory=list)

    def problem(self, line: int, message: str) -> None:
        self.tally.problem(line, message)

    def end_game(self) -> None:
        if self.deals:
            deals = tuple(self.deals)
            game = SheetGame(self.game_line, self.names, self.played_on, deals)
            self.games.append(replace(game, doubled_from=self.threshold_used))
        self.deals, self.game_line, self.deal_lines = [], 0, 0


def read_scorer_text(text: str, tally: Tally) -> ScoreFile:
    reading = _Reading(tally)
    try:
        for number, line in enumerate(tally.lines(io.StringIO(text)), start=1):
            _line(reading, number, line.partition("#")[0].strip())
    except FileRefused as refusal:
        return tally.refused(FileFormat.SCORER_TEXT, Holds.CARDS_LEFT, refusal.problem)
    reading.end_game()
    used = reading.threshold_used
    return tally.score_file(
        FileFormat.SCORER_TEXT,
        Holds.CARDS_LEFT,
        games=tuple(reading.games),
        rules=FileRules(
            doubled_from=used if used is not None else reading.threshold,
            pays_for_table=any(
                deal.pays_for_table is not None for game in reading.games for deal in game.deals
            ),
            play_until_stopped=True,
        ),
    )


def _line(reading: _Reading, number: int, content: str) -> None:
    if not content:
        return
    if _DATE.fullmatch(content):
        _day(reading, number, content)
    elif match := _THRESHOLD.fullmatch(content):
        _threshold(reading, number, match[1])
    elif len(words := content.split(maxsplit=_MOST_WORDS)) > _MOST_WORDS:
        message = gettext(
            "This line holds more than %(most)s words or numbers: a line holds either a game's"
            " players' names (two to four) or one deal's cards left, one for each player."
        )
        reading.problem(number, message % {"most": _MOST_WORDS})
    elif content[0].isdigit():
        _deal(reading, number, words)
    else:
        _names(reading, number, words)


def _day(reading: _Reading, line: int, content: str) -> None:
    reading.end_game()
    try:
        day = datetime.date.fromisoformat(content)
    except ValueError:
        message = gettext("%(text)s is not a date: write a day as YYYY-MM-DD, e.g. 2013-03-19.")
        reading.problem(line, message % {"text": content})
        return
    if not FIRST_DAY <= day <= LAST_DAY:
        reading.problem(line, far_day(content))
        return
    reading.played_on = day


def _threshold(reading: _Reading, line: int, digits: str) -> None:
    # Anything over 13 charges 1 a card throughout; a number of any length can stand for it.
    threshold = int(digits) if len(digits) <= 4 else 9999
    if threshold < 2:
        message = gettext(
            "F=%(number)s doubles every card: the fry threshold is 2 or more (10 is the"
            " standard scale)."
        )
        reading.problem(line, message % {"number": threshold})
        return
    if reading.threshold_used is not None and threshold != reading.threshold_used:
        message = gettext(
            "F=%(number)s changes the fry threshold from %(before)s, but a season has one"
            " penalty scale: put the games after this line in a file of their own, and import"
            " it into another season."
        )
        values = {"number": threshold, "before": reading.threshold_used}
        reading.problem(line, message % values)
        return
    reading.threshold = threshold


def _names(reading: _Reading, line: int, names: list[str]) -> None:
    reading.end_game()
    reading.names, reading.names_line, reading.game_line = (), line, line
    if (digit := next((name for name in names if name[0].isdigit()), None)) is not None:
        message = gettext(
            "“%(name)s” starts with a digit, so this line mixes names and cards left: a line"
            " holds either the players' names or one deal's cards left."
        )
        reading.problem(line, message % {"name": shown(digit)})
    elif (twice := repeated(names)) is not None:
        message = gettext("%(name)s is named twice: each player sits once in a game.")
        reading.problem(line, message % {"name": shown(twice)})
    elif formula := next(filter(None, map(formula_name, names)), None):
        reading.problem(line, formula)
    elif len(names) < 2:
        message = gettext(
            "“%(text)s” isn't a line the score file has: a game starts with a line of two to"
            " four players' names separated by spaces, e.g. “Ann Ben Cy Dee”."
        )
        reading.problem(line, message % {"text": shown(" ".join(names))})
    else:
        for name in names:
            reading.tally.player(line, name)
        reading.names = tuple(names)


def _deal(reading: _Reading, line: int, tokens: list[str]) -> None:
    reading.deal_lines += 1
    if not reading.names:
        if not reading.names_line:
            message = gettext(
                "Cards left, but no players yet: start the game with a line of the players'"
                " names in seat order, e.g. “Ann Ben Cy Dee”."
            )
            reading.problem(line, message)
        # Else the names line had a problem of its own, already told.
        return
    counts = [_CARDS.fullmatch(token) for token in tokens]
    if wrong := next((t for t, c in zip(tokens, counts, strict=True) if c is None), None):
        message = gettext(
            "“%(text)s” is not a number of cards left: write whole numbers, with a t after the"
            " count of the player who takes on the whole deal's penalties (e.g. 9t)."
        )
        reading.problem(line, message % {"text": shown(wrong)})
        return
    if len(tokens) != len(reading.names):
        message = ngettext(
            "%(count)s count of cards left for %(players)s players: write one for each player,"
            " in the order of the names on line %(names_line)s.",
            "%(count)s counts of cards left for %(players)s players: write one for each player,"
            " in the order of the names on line %(names_line)s.",
            len(tokens),
        )
        players, names_line = len(reading.names), reading.names_line
        values = {"count": len(tokens), "players": players, "names_line": names_line}
        reading.problem(line, message % values)
        return
    payers = [seat for seat, count in enumerate(counts) if count is not None and count[2]]
    if len(payers) > 1:
        message = gettext(
            "More than one player is marked t: only one player takes on a deal's penalties."
        )
        reading.problem(line, message)
        return
    if not reading.game_line:
        # Deals after a date line, under the names given before it: a game starts here.
        reading.game_line = line
    if not reading.deals:
        reading.tally.game(reading.game_line)
    reading.tally.deal(line, len(reading.deals) + 1)
    if reading.threshold_used is None:
        reading.threshold_used = reading.threshold
    numbers = tuple(int(count[1]) for count in counts if count is not None)
    payer = payers[0] if payers else None
    reading.deals.append(SheetDeal(line, numbers, payer, number=reading.deal_lines))
