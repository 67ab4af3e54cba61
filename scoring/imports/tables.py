"""CSV score files: the site's own season CSV (`/seasons/<id>/deals.csv`, a row per player per
deal) and a spreadsheet's (a column per player, a row per deal). Pure Python.

>>> rows, _ = table_rows("Ann,Ben,Cy\\n0,3,13\\n\\n5,0,1\\n")
>>> rows
[(1, ['Ann', 'Ben', 'Cy']), (2, ['0', '3', '13']), (4, ['5', '0', '1'])]
>>> [deal.numbers for deal in read_spreadsheet(rows, Holds.CARDS_LEFT).games[0].deals]
[(0, 3, 13), (5, 0, 1)]
"""

from __future__ import annotations

import csv
import datetime
import io
import re
from dataclasses import dataclass, field

from rules.i18n import gettext, ngettext
from scoring.imports.sheet import (
    FIRST_DAY,
    LAST_DAY,
    FileFormat,
    Holds,
    Problem,
    ScoreFile,
    SheetDeal,
    SheetGame,
)
from scoring.names import name_key, name_problem, tidy_name

# The columns of the site's season CSV: scoring.views.exports writes them, and reads them back.
SITE_CSV_HEADER = ["season", "game", "date", "deal", "seat", "player", "cards_left", "penalty"]
# What a spreadsheet takes for the start of a formula (scoring.views.exports.spreadsheet_safe).
FORMULA_STARTS = ("=", "+", "-", "@")
# A first column of deal numbers, headed by nothing or by one of these, is not a player.
_DEAL_COLUMN_HEADINGS = {"", "#", "deal", "deals", "round", "rounds", "hand", "no", "no.", "局"}
# Six digits at most: far beyond any count of cards or points, and int() stays cheap.
_WHOLE_NUMBER = re.compile(r"[0-9]{1,6}")
Rows = list[tuple[int, list[str]]]


def table_rows(text: str) -> tuple[Rows, Problem | None]:
    """Each non-blank row with the line it starts on, split at the first line's commas (or
    semicolons, or tabs: spreadsheets in some languages save with those); or the problem with
    the row the CSV module can't read."""
    first = text.lstrip().partition("\n")[0]
    delimiter = next((mark for mark in ",;\t" if mark in first), ",")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    rows, start = [], 1
    try:
        for cells in reader:
            if any(cell.strip() for cell in cells):
                rows.append((start, cells))
            start = reader.line_num + 1
    except csv.Error:
        # A cell of more than 128 KB, the CSV module's limit: no score file has one.
        message = gettext(
            "A cell starting on this line runs on for more than 128 KB: close the quote mark"
            " left open, or take it out."
        )
        return rows, Problem(start, message)
    return rows, None


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


def read_site_csv(rows: Rows) -> ScoreFile:
    """The season CSV's rows gathered into games (by the game column, in the file's order)
    and deals (by number, each with a row for every seat)."""
    problems: list[Problem] = []
    games: dict[str, _SiteGame] = {}
    for line, cells in rows[1:]:
        row = _site_row(line, cells, problems)
        if row is not None:
            game = games.setdefault(row.game, _SiteGame(line, row.game))
            game.deals.setdefault(row.deal, []).append(row)
    with_cards = any(
        row.cards_left is not None
        for game in games.values()
        for deal in game.deals.values()
        for row in deal
    )
    holds = Holds.CARDS_LEFT if with_cards else Holds.POINTS
    read = [_site_game(game, holds, problems) for game in games.values()]
    return ScoreFile(
        format=FileFormat.SITE_CSV,
        holds=holds,
        games=tuple(game for game in read if game is not None),
        problems=tuple(problems),
    )


def _site_row(line: int, cells: list[str], problems: list[Problem]) -> _SiteRow | None:
    if len(cells) != len(SITE_CSV_HEADER):
        message = gettext(
            "This row has %(count)s columns, where the season CSV has 8: season, game, date,"
            " deal, seat, player, cards_left and penalty."
        )
        problems.append(Problem(line, message % {"count": len(cells)}))
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
    if wrong:
        problems.append(Problem(line, wrong[0]))
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


def _site_game(game: _SiteGame, holds: Holds, problems: list[Problem]) -> SheetGame | None:
    """One game's deals, in number order; None, with the problem, where a deal is missing or
    its seats don't match the game's first deal."""
    deals, seats = [], None
    for expected, number in enumerate(sorted(game.deals), start=1):
        rows = sorted(game.deals[number], key=lambda row: row.seat)
        if number != expected:
            message = gettext(
                "Game %(game)s has no deal %(missing)s: every deal from 1 on must be in the file."
            )
            problems.append(
                Problem(rows[0].line, message % {"game": shown(game.label), "missing": expected})
            )
            return None
        names = tuple(row.player for row in rows)
        if [row.seat for row in rows] != list(range(1, len(rows) + 1)) or (
            seats is not None and [n.casefold() for n in names] != [n.casefold() for n in seats]
        ):
            message = gettext(
                "Deal %(deal)s of game %(game)s doesn't seat the game's players once each, in"
                " seats 1, 2, 3…: every deal of a game has a row for each of its seats."
            )
            problems.append(
                Problem(rows[0].line, message % {"deal": number, "game": shown(game.label)})
            )
            return None
        seats = seats or names
        deal = _site_deal(rows, holds, problems)
        if deal is None:
            return None
        deals.append(deal)
    assert seats is not None
    first = game.deals[1][0]
    return SheetGame(game.line, seats, first.played_on, tuple(deals), label=game.label)


def _site_deal(rows: list[_SiteRow], holds: Holds, problems: list[Problem]) -> SheetDeal | None:
    penalties = tuple(row.penalty for row in rows)
    if holds is Holds.POINTS:
        return SheetDeal(rows[0].line, penalties, recorded_penalties=penalties)
    if (missing := next((row for row in rows if row.cards_left is None), None)) is not None:
        message = gettext(
            "%(player)s has no cards left in this deal, though other deals have them: fill it in."
        )
        problems.append(Problem(missing.line, message % {"player": shown(missing.player)}))
        return None
    cards = tuple(row.cards_left for row in rows if row.cards_left is not None)
    return SheetDeal(rows[0].line, cards, recorded_penalties=penalties)


def read_spreadsheet(rows: Rows, holds: Holds) -> ScoreFile:
    """A game of a column per player: a first row of names (after a column of deal numbers,
    if there is one), then a row of numbers for each deal."""
    line, header = rows[0]
    skip = 1 if header[0].strip().casefold() in _DEAL_COLUMN_HEADINGS else 0
    cells = _trimmed(header[skip:])
    names, problems = [], []
    for cell in cells:
        name, wrong = csv_name(cell)
        if wrong is not None:
            problems.append(Problem(line, wrong))
        names.append(name)
    if (twice := repeated(names)) is not None:
        message = gettext("“%(name)s” heads two columns: give each player one column, named once.")
        problems.append(Problem(line, message % {"name": shown(twice)}))
    if len(names) < 2:
        message = gettext(
            "The first row should hold the players' names, one a column, above their numbers."
        )
        problems.append(Problem(line, message))
    if problems:
        return ScoreFile(FileFormat.SPREADSHEET, holds, (), tuple(problems))
    if len(rows) < 2:
        message = gettext("There are no deals under the players' names: add a row for each deal.")
        return ScoreFile(FileFormat.SPREADSHEET, holds, (), (Problem(line, message),))
    deals = [_spreadsheet_deal(n, cells[skip:], names, problems) for n, cells in rows[1:]]
    game = SheetGame(line, tuple(names), None, tuple(deal for deal in deals if deal is not None))
    return ScoreFile(FileFormat.SPREADSHEET, holds, (game,), tuple(problems))


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
    line: int, cells: list[str], names: list[str], problems: list[Problem]
) -> SheetDeal | None:
    cells = _trimmed(cells)
    if len(cells) != len(names):
        message = ngettext(
            "This row has %(count)s number for %(players)s players: write one under each"
            " player's name.",
            "This row has %(count)s numbers for %(players)s players: write one under each"
            " player's name.",
            len(cells),
        )
        problems.append(Problem(line, message % {"count": len(cells), "players": len(names)}))
        return None
    numbers = [whole_number(cell) for cell in cells]
    for name, cell, number in zip(names, cells, numbers, strict=True):
        if number is None:
            message = gettext(
                "“%(text)s” under %(name)s is not a whole number: correct it (a row of totals"
                " at the end can go, the site adds them up)."
            )
            problems.append(Problem(line, message % {"text": shown(cell), "name": shown(name)}))
            return None
    return SheetDeal(line, tuple(n for n in numbers if n is not None))
