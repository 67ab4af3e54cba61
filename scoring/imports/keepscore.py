"""KeepScore's backup (nolanlawson/KeepScore, GamesBackupSerializer), unpacked if it was
gzipped:

    <GamesBackup><gameCount>1</gameCount><version>4</version>…<Games>
      <Game><dateGameStarted>1363651200000</dateGameStarted><gameName>Friday</gameName>
        <PlayerScores>
          <PlayerScore><playerName>Ann</playerName><score>12</score>
            <playerNumber>0</playerNumber><history>0,5,7</history>…</PlayerScore>
          …

Each Game is a game, its PlayerScores its seats in playerNumber order, and each one's
`history` (the changes to their score, comma-joined) their points deal by deal. A problem's
line is the line of the element it is about. Read with defusedxml's SAX parser (expat),
refusing any document type declaration, so that no entity can expand, and stopping at the
first of the file's limits passed. Pure Python.
"""

from __future__ import annotations

import datetime
import io
import re
from dataclasses import dataclass, field
from xml.sax import SAXParseException
from xml.sax.handler import ContentHandler
from xml.sax.xmlreader import AttributesImpl, InputSource, Locator

from defusedxml.common import DTDForbidden
from defusedxml.expatreader import create_parser

from rules.i18n import gettext
from scoring.imports.sheet import (
    FIRST_DAY,
    LAST_DAY,
    FileFormat,
    FileRefused,
    Holds,
    Problem,
    ScoreFile,
    SheetDeal,
    SheetGame,
    Tally,
    refuse,
)
from scoring.imports.tables import formula_name, shown, whole_number

# The elements whose text is kept: a game's, then a player's.
_GAME_FIELDS = {"dateGameStarted", "gameName"}
_PLAYER_FIELDS = {"playerName", "playerNumber", "history"}
_MILLIS = re.compile(r"[0-9]{1,15}")
# Big Two seats two to four: the players of a game past these are told, not kept.
_MOST_PLAYERS = 4


@dataclass
class _Player:
    line: int
    fields: dict[str, tuple[int, str | None]] = field(default_factory=dict)


@dataclass
class _Game:
    line: int
    fields: dict[str, tuple[int, str | None]] = field(default_factory=dict)
    players: list[_Player] = field(default_factory=list)
    seats: int = 0  # every PlayerScore, kept or not
    deals: int = 0  # the longest history's


class _Tree(ContentHandler):
    """What the parser has seen: the games, and the element whose text it is collecting."""

    def __init__(self, tally: Tally) -> None:
        super().__init__()
        self.tally = tally
        self.root: str | None = None
        self.games: list[_Game] = []
        # The element's name and line, and what KeepScore marked it (isNull, isEmpty) if anything.
        self.collecting: tuple[str, int, str | None] | None = None
        self.text: list[str] = []
        self.elements = 0
        self.locator: Locator | None = None

    def setDocumentLocator(self, locator: Locator) -> None:  # noqa: N802 (SAX's name)
        self.locator = locator

    @property
    def line(self) -> int:
        return (self.locator.getLineNumber() or 1) if self.locator is not None else 1

    def startElement(self, name: str, attributes: AttributesImpl) -> None:  # noqa: N802
        line = self.line
        self.elements += 1
        if self.elements > self.tally.limits.elements:
            refuse(line, past_elements(self.tally))
        if self.root is None:
            self.root = name
        if name == "Game":
            self.tally.game(line)
            self.games.append(_Game(line))
        elif name == "PlayerScore" and self.games:
            self.games[-1].seats += 1
            if self.games[-1].seats <= _MOST_PLAYERS:
                self.games[-1].players.append(_Player(line))
        if name in _GAME_FIELDS or name in _PLAYER_FIELDS:
            marked = next(
                (mark for mark in ("isNull", "isEmpty") if attributes.get(mark) == "true"), None
            )
            self.collecting = (name, line, marked)
            self.text = []

    def characters(self, content: str) -> None:
        if self.collecting is not None:
            self.text.append(content)

    def endElement(self, name: str) -> None:  # noqa: N802
        if name == "Game" and self.games:
            self.tally.deals += self.games[-1].deals
        if self.collecting is None or self.collecting[0] != name:
            return
        # KeepScore writes "null" as the text of a null and of an empty string, marking which.
        _, line, marked = self.collecting
        value = {"isNull": None, "isEmpty": ""}.get(marked or "", "".join(self.text).strip())
        self.collecting, self.text = None, []
        game = self.games[-1] if self.games else None
        if game is not None and name in _GAME_FIELDS:
            game.fields[name] = (line, value)
        elif game is not None and game.players and name in _PLAYER_FIELDS:
            if name == "history" and value:
                # Counted before it is split: each comma is one more deal.
                game.deals = max(game.deals, value.count(",") + 1)
                self.tally.game_deals(line, game.deals)
            elif name == "playerName" and value:
                self.tally.player(line, value)
            game.players[-1].fields[name] = (line, value)


def past_elements(tally: Tally) -> str:
    return gettext(
        "The backup goes on past %(most)s XML elements, more than a backup of %(games)s games"
        " holds: back up fewer games, or choose the backup KeepScore saved."
    ) % {"most": f"{tally.limits.elements:,}", "games": f"{tally.limits.games:,}"}


def read_keepscore(text: str, tally: Tally | None = None) -> ScoreFile:
    tally = tally or Tally()
    tree = _Tree(tally)
    parser = create_parser(forbid_dtd=True)
    parser.setContentHandler(tree)
    source = InputSource()
    source.setCharacterStream(io.StringIO(text))
    try:
        parser.parse(source)
    except DTDForbidden:
        message = gettext(
            "This XML file declares a document type, which a KeepScore backup never does:"
            " choose the backup KeepScore saved."
        )
        return tally.refused(FileFormat.KEEPSCORE, Holds.POINTS, _at(tree.line, message))
    except SAXParseException as error:
        message = gettext(
            "The XML is broken here (%(reason)s): choose the backup file as KeepScore saved it."
        )
        said = message % {"reason": error.getMessage()}
        return tally.refused(FileFormat.KEEPSCORE, Holds.POINTS, _at(error.getLineNumber(), said))
    except FileRefused as refusal:
        return tally.refused(FileFormat.KEEPSCORE, Holds.POINTS, refusal.problem)
    if tree.root != "GamesBackup":
        message = gettext(
            "This XML file isn't a KeepScore backup, whose first element is <GamesBackup>:"
            " choose the backup KeepScore saved."
        )
        return tally.refused(FileFormat.KEEPSCORE, Holds.POINTS, _at(1, message))
    games = [_game(game, tally) for game in tree.games]
    return tally.score_file(
        FileFormat.KEEPSCORE,
        Holds.POINTS,
        # A game KeepScore started but nobody scored in is no game to import.
        games=tuple(game for game in games if game is not None and game.deals),
    )


def _at(line: int, message: str) -> Problem:
    return Problem(max(line, 1), message)


def _game(game: _Game, tally: Tally) -> SheetGame | None:
    """A game, or None with each of its problems told: too few or too many players, a player
    without a name (or one a spreadsheet would run) or whose history isn't numbers, or
    histories of different lengths."""
    players = sorted(game.players, key=_seat)
    names, histories, good = [], [], True
    for player in players:
        line, name = player.fields.get("playerName", (player.line, None))
        if not name:
            message = gettext(
                "A player of this game has no name: name them in KeepScore and back up again."
            )
            tally.problem(line, message)
            good = False
        elif (formula := formula_name(name)) is not None:
            tally.problem(line, formula)
            good = False
        history = _history(player, name or "?", tally)
        good = good and history is not None
        names.append(name or "")
        histories.append(history or [])
    if game.seats > _MOST_PLAYERS:
        message = gettext(
            "This game has %(count)s players: Big Two is played by two to four, so back up"
            " each table's game on its own."
        )
        tally.problem(game.line, message % {"count": game.seats})
        return None
    if len(names) < 2:
        message = gettext("This game has fewer than two players, so it isn't a game of Big Two.")
        tally.problem(game.line, message)
        return None
    if good and len({len(history) for history in histories}) > 1:
        message = gettext(
            "The players' histories have different numbers of deals (%(counts)s): KeepScore"
            " keeps a change only for those who scored, so enter 0 for the others in every"
            " deal, or type this game in by hand."
        )
        counts = ", ".join(f"{n} {len(h)}" for n, h in zip(names, histories, strict=True))
        tally.problem(game.line, message % {"counts": counts})
        return None
    if not good:
        return None
    first_line = players[0].fields.get("history", (players[0].line, None))[0]
    deals = tuple(SheetDeal(first_line, numbers) for numbers in zip(*histories, strict=True))
    label = game.fields.get("gameName", (0, None))[1] or ""
    return SheetGame(game.line, tuple(names), _started(game), deals, label=label)


def _seat(player: _Player) -> int:
    number = whole_number(player.fields.get("playerNumber", (0, ""))[1] or "")
    return number if number is not None else player.line


def _history(player: _Player, name: str, tally: Tally) -> list[int] | None:
    line, text = player.fields.get("history", (player.line, None))
    deltas = [delta.strip() for delta in (text or "").split(",") if delta.strip()]
    points = []
    for delta in deltas:
        number = whole_number(delta.removeprefix("+"))
        if number is None:
            if delta.startswith("-") and whole_number(delta[1:]) is not None:
                message = gettext(
                    "%(player)s's score went down by %(points)s: a deal's points can't be"
                    " negative here, so correct that deal in KeepScore, or type the game in by"
                    " hand."
                )
                values = {"player": shown(name), "points": shown(delta[1:])}
            else:
                message = gettext("%(player)s's history holds “%(text)s”, which is not a number.")
                values = {"player": shown(name), "text": shown(delta)}
            tally.problem(line, message % values)
            return None
        points.append(number)
    return points


def _started(game: _Game) -> datetime.date | None:
    """The day the game started: KeepScore counts milliseconds since 1970 (UTC)."""
    millis = (game.fields.get("dateGameStarted", (0, None))[1] or "").strip()
    if not _MILLIS.fullmatch(millis):
        return None
    try:
        day = datetime.datetime.fromtimestamp(int(millis) / 1000, tz=datetime.UTC).date()
    except (OverflowError, OSError, ValueError):  # past the year 9999
        return None
    # A day no game was played on is no day, as one past 9999 is.
    return day if FIRST_DAY <= day <= LAST_DAY else None
