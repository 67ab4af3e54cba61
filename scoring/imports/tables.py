"""CSV score files: the site's own season CSV (`/seasons/<id>/deals.csv`, a row per player per
deal) and a spreadsheet's (a column per player, a row per deal). Pure Python.

>>> rows = table_rows("Ann,Ben,Cy\\n0,3,13\\n\\n5,0,1\\n", Tally())
>>> first = next(rows)
>>> first
(1, ['Ann', 'Ben', 'Cy'])
>>> [deal.numbers for deal in read_spreadsheet(first, rows, Holds.CARDS_LEFT).games[0].deals]
[(0, 3, 13), (5, 0, 1)]
"""

from __future__ import annotations

import csv
import datetime
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from rules.i18n import gettext, ngettext
from scoring.imports.sheet import (
    FIRST_DAY,
    LAST_DAY,
    FileFormat,
    FileRefused,
    Holds,
    ScoreFile,
    SheetDeal,
    SheetGame,
    Tally,
    refuse,
)
from scoring.names import name_key, name_problem, tidy_name

# The columns of the site's season CSV: scoring.views.exports writes them, and reads them back.
SITE_CSV_HEADER = ["season", "game", "date", "deal", "seat", "player", "cards_left", "penalty"]
# What a spreadsheet takes for the start of a formula: refused at the start of an imported name,
# and escaped by scoring.views.exports.spreadsheet_safe in what the site writes.
FORMULA_STARTS = ("=", "+", "-", "@")
# A first column of deal numbers, headed by nothing or by one of these, is not a player.
_DEAL_COLUMN_HEADINGS = {"", "#", "deal", "deals", "round", "rounds", "hand", "no", "no.", "局"}
# Six digits at most: far beyond any count of cards or points, and int() stays cheap.
_WHOLE_NUMBER = re.compile(r"[0-9]{1,6}")
# The most cells a line splits into: far more than any score file's (a column per player, one of
# deal numbers, and whatever empty cells a spreadsheet saves to their right), few enough that a
# row's cells never fill the memory.
MOST_COLUMNS = 256
Row = tuple[int, list[str]]
Rows = Iterator[Row]


def table_rows(text: str, tally: Tally) -> Rows:
    """Each non-blank row with the line it starts on, split at the first line's commas (or
    semicolons, or tabs: spreadsheets in some languages save with those), read as they are
    asked for; FileRefused at a row the CSV module can't read, or one of too many cells."""
    first = text.lstrip().partition("\n")[0][:4096]
    delimiter = next((mark for mark in ",;\t" if mark in first), ",")
    lines = _narrow(tally.lines(io.StringIO(text, newline="")), delimiter)
    reader = csv.reader(lines, delimiter=delimiter)
    start = 1
    try:
        for cells in reader:
            if any(cell.strip() for cell in cells):
                yield start, cells
            start = reader.line_num + 1
    except csv.Error:
        # A cell of more than 128 KB, the CSV module's limit: no score file has one.
        message = gettext(
            "A cell starting on this line runs on for more than 128 KB: close the quote mark"
            " left open, or take it out."
        )
        refuse(start, message)


def _narrow(lines: Iterator[str], delimiter: str) -> Iterator[str]:
    for number, line in enumerate(lines, start=1):
        if line.count(delimiter) >= MOST_COLUMNS:
            message = gettext(
                "This line has more than %(most)s cells, far more than a score file's: a score"
                " file has a column for each player (and perhaps one of deal numbers)."
            )
            refuse(number, message % {"most": MOST_COLUMNS})
        yield line


def whole_number(text: str) -> int | None:
    text = text.strip()
    return int(text) if _WHOLE_NUMBER.fullmatch(text) else None


def csv_name(cell: str) -> tuple[str, str | None]:
    """A player's name from a CSV cell, and what's wrong with it if anything. The site's own
    CSV writes a name that starts like a formula with a ' in front; anything else starting so
    is refused, as opening the file in a spreadsheet would run it."""
    if cell[:1] == "'" and cell[1:2] in FORMULA_STARTS:
        name = cell[1:].strip()
        return name, name_problem(tidy_name(name))
    name = cell.strip()
    if not name:
        return name, gettext("A player's name is empty: write the name in.")
    if (problem := name_problem(tidy_name(name))) is not None:
        return name, problem
    if name.startswith(FORMULA_STARTS):
        return name, gettext(
            "The name “%(name)s” starts with %(mark)s, so a spreadsheet would run it as a"
            " formula: take the %(mark)s off the name, or put a ' in front of it."
        ) % {"name": shown(name), "mark": name[0]}
    return name, None


def formula_name(name: str) -> str | None:
    """What's wrong with a name of a file that isn't a CSV (where a ' can't keep it a name)
    starting like a spreadsheet's formula, as the CSV readers refuse one; None if nothing."""
    if not name.startswith(FORMULA_STARTS):
        return None
    return gettext(
        "The name “%(name)s” starts with %(mark)s, so a spreadsheet would run it as a formula:"
        " take the %(mark)s off the name."
    ) % {"name": shown(name), "mark": name[0]}


def shown(text: str) -> str:
    # Whatever was typed is echoed back, but not a page of it.
    return text if len(text) <= 30 else f"{text[:29]}…"


def not_a_number(column: str, text: str) -> str:
    return gettext(
        "%(column)s is “%(text)s”, which is not a whole number: correct it, or leave the file as"
        " it was exported."
    ) % {"column": column, "text": shown(text)}


@dataclass(frozen=True)
class _SiteRow:
    line: int
    game: str
    played_on: datetime.date
    deal: int
    seat: int
    player: str
    cards_left: int | None
    penalty: int


@dataclass
class _SiteGame:
    line: int
    label: str
    deals: dict[int, list[_SiteRow]] = field(default_factory=dict)


def read_site_csv(rows: Rows, tally: Tally) -> ScoreFile:
    """The season CSV's rows (after its header) gathered into games (by the game column, in the
    file's order) and deals (by number, each with a row for every seat)."""
    games: dict[str, _SiteGame] = {}
    try:
        for line, cells in rows:
            row = _site_row(line, cells, tally)
            if row is not None:
                _gather(games, row, tally)
    except FileRefused as refusal:
        return tally.refused(FileFormat.SITE_CSV, Holds.CARDS_LEFT, refusal.problem)
    with_cards = any(
        row.cards_left is not None
        for game in games.values()
        for deal in game.deals.values()
        for row in deal
    )
    holds = Holds.CARDS_LEFT if with_cards else Holds.POINTS
    read = [_site_game(game, holds, tally) for game in games.values()]
    games_read = tuple(game for game in read if game is not None)
    return tally.score_file(FileFormat.SITE_CSV, holds, games=games_read)


def _gather(games: dict[str, _SiteGame], row: _SiteRow, tally: Tally) -> None:
    tally.player(row.line, row.player)
    if (game := games.get(row.game)) is None:
        tally.game(row.line)
        game = games[row.game] = _SiteGame(row.line, row.game)
    if (deal := game.deals.get(row.deal)) is None:
        tally.deal(row.line, len(game.deals) + 1)
        deal = game.deals[row.deal] = []
    deal.append(row)


def _site_row(line: int, cells: list[str], tally: Tally) -> _SiteRow | None:
    """The row read, or None with each of its problems told."""
    if len(cells) != len(SITE_CSV_HEADER):
        message = gettext(
            "This row has %(count)s columns, where the season CSV has 8: season, game, date,"
            " deal, seat, player, cards_left and penalty."
        )
        tally.problem(line, message % {"count": len(cells)})
        return None
    _season, game, date, deal, seat, player, cards_left, penalty = cells
    numbers = {"deal": deal, "seat": seat, "penalty": penalty}
    if cards_left.strip():
        numbers["cards_left"] = cards_left
    read = {column: whole_number(text) for column, text in numbers.items()}
    name, wrong_name = csv_name(player)
    wrong = [not_a_number(column, numbers[column]) for column, n in read.items() if n is None]
    if wrong_name is not None:
        wrong.append(wrong_name)
    played_on = _date(date)
    if played_on is None:
        message = gettext("The date “%(text)s” is not a date: write it as YYYY-MM-DD.")
        wrong.append(message % {"text": shown(date)})
    elif not FIRST_DAY <= played_on <= LAST_DAY:
        wrong.append(far_day(date.strip()))
    if not game.strip():
        wrong.append(gettext("The game column is empty: each row says which game it is from."))
    for message in wrong:
        tally.problem(line, message)
    if wrong:
        return None
    assert played_on is not None
    deal_number, seat, points = read["deal"], read["seat"], read["penalty"]
    assert deal_number is not None and seat is not None and points is not None
    return _SiteRow(
        line, game.strip(), played_on, deal_number, seat, name, read.get("cards_left"), points
    )


def far_day(text: str) -> str:
    return gettext(
        "%(text)s is before %(first)s or after %(last)s: write the day the game was played, as"
        " YYYY-MM-DD."
    ) % {"text": shown(text), "first": FIRST_DAY.year, "last": LAST_DAY.year}


def _date(text: str) -> datetime.date | None:
    try:
        return datetime.date.fromisoformat(text.strip())
    except ValueError:
        return None


def _site_game(game: _SiteGame, holds: Holds, tally: Tally) -> SheetGame | None:
    """One game's deals, in number order; None where any deal is missing, doesn't seat the
    game's first deal's players or lacks a number, each such deal told."""
    deals, seats, good = [], None, True
    for expected, number in enumerate(sorted(game.deals), start=1):
        rows = sorted(game.deals[number], key=lambda row: row.seat)
        if number != expected and good:
            message = gettext(
                "Game %(game)s has no deal %(missing)s: every deal from 1 on must be in the file."
            )
            tally.problem(rows[0].line, message % {"game": shown(game.label), "missing": expected})
            good = False
        names = tuple(row.player for row in rows)
        seats = seats or names
        if [row.seat for row in rows] != list(range(1, len(rows) + 1)) or (
            [n.casefold() for n in names] != [n.casefold() for n in seats]
        ):
            message = gettext(
                "Deal %(deal)s of game %(game)s doesn't seat the game's players once each, in"
                " seats 1, 2, 3…: every deal of a game has a row for each of its seats."
            )
            tally.problem(rows[0].line, message % {"deal": number, "game": shown(game.label)})
            good = False
            continue
        deal = _site_deal(rows, holds, tally)
        good = good and deal is not None
        deals.append(deal)
    if not good or seats is None:
        return None
    first = game.deals[min(game.deals)][0]
    played = tuple(deal for deal in deals if deal is not None)
    return SheetGame(game.line, seats, first.played_on, played, label=game.label)


def _site_deal(rows: list[_SiteRow], holds: Holds, tally: Tally) -> SheetDeal | None:
    penalties = tuple(row.penalty for row in rows)
    if holds is Holds.POINTS:
        return SheetDeal(rows[0].line, penalties, recorded_penalties=penalties)
    if (missing := next((row for row in rows if row.cards_left is None), None)) is not None:
        message = gettext(
            "%(player)s has no cards left in this deal, though other deals have them: fill it in."
        )
        tally.problem(missing.line, message % {"player": shown(missing.player)})
        return None
    cards = tuple(row.cards_left for row in rows if row.cards_left is not None)
    return SheetDeal(rows[0].line, cards, recorded_penalties=penalties)


def read_spreadsheet(first: Row, rows: Rows, holds: Holds, tally: Tally | None = None) -> ScoreFile:
    """A game of a column per player: a first row of names (after a column of deal numbers,
    if there is one), then a row of numbers for each deal."""
    tally = tally or Tally()
    line, header = first
    skip = 1 if header[0].strip().casefold() in _DEAL_COLUMN_HEADINGS else 0
    names = _spreadsheet_names(line, _trimmed(header[skip:]), tally)
    if names is None:
        return tally.score_file(FileFormat.SPREADSHEET, holds, games=())
    deals = []
    try:
        for name in names:
            tally.player(line, name)
        tally.game(line)
        for row_line, cells in rows:
            tally.deal(row_line, len(deals) + 1)
            deals.append(_spreadsheet_deal(row_line, cells[skip:], names, tally, len(deals) + 1))
    except FileRefused as refusal:
        return tally.refused(FileFormat.SPREADSHEET, holds, refusal.problem)
    if not deals:
        message = gettext("There are no deals under the players' names: add a row for each deal.")
        tally.problem(line, message)
    read = tuple(deal for deal in deals if deal is not None)
    # Every row refused (each told): no game to show.
    games = (SheetGame(line, tuple(names), None, read),) if read else ()
    return tally.score_file(FileFormat.SPREADSHEET, holds, games=games)


def _spreadsheet_names(line: int, cells: list[str], tally: Tally) -> list[str] | None:
    """The players heading the columns, or None with what is wrong with them."""
    names, wrong = [], False
    for cell in cells:
        name, problem = csv_name(cell)
        if problem is not None:
            tally.problem(line, problem)
            wrong = True
        names.append(name)
    if (twice := repeated(names)) is not None:
        message = gettext("“%(name)s” heads two columns: give each player one column, named once.")
        tally.problem(line, message % {"name": shown(twice)})
        wrong = True
    if len(names) < 2:
        message = gettext(
            "The first row should hold the players' names, one a column, above their numbers."
        )
        tally.problem(line, message)
        wrong = True
    return None if wrong else names


def repeated(names: list[str]) -> str | None:
    """The first name given twice, as names are compared (whatever its case, `name_key`)."""
    seen: set[str] = set()
    for name in names:
        if name_key(name) in seen:
            return name
        seen.add(name_key(name))
    return None


def _trimmed(cells: list[str]) -> list[str]:
    # Spreadsheets save empty cells to the right of a table; they are no column.
    end = len(cells)
    while end and not cells[end - 1].strip():
        end -= 1
    return cells[:end]


def _spreadsheet_deal(
    line: int, cells: list[str], names: list[str], tally: Tally, number: int
) -> SheetDeal | None:
    """The row's deal, or None with each of its problems told."""
    cells = _trimmed(cells)
    if len(cells) != len(names):
        message = ngettext(
            "This row has %(count)s number for %(players)s players: write one under each"
            " player's name.",
            "This row has %(count)s numbers for %(players)s players: write one under each"
            " player's name.",
            len(cells),
        )
        tally.problem(line, message % {"count": len(cells), "players": len(names)})
        return None
    numbers = [whole_number(cell) for cell in cells]
    for name, cell, read in zip(names, cells, numbers, strict=True):
        if read is None:
            message = gettext(
                "“%(text)s” under %(name)s is not a whole number: correct it (a row of totals"
                " at the end can go, the site adds them up)."
            )
            tally.problem(line, message % {"text": shown(cell), "name": shown(name)})
    if None in numbers:
        return None
    return SheetDeal(line, tuple(n for n in numbers if n is not None), number=number)
