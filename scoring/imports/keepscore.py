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
line is the line of the element it is about. Read with expat, refusing any document type
declaration, so that no entity can expand. Pure Python.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, field
from xml.parsers import expat

from rules.i18n import gettext
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
from scoring.imports.tables import shown, whole_number

# The elements whose text is kept: a game's, then a player's.
_GAME_FIELDS = {"dateGameStarted", "gameName"}
_PLAYER_FIELDS = {"playerName", "playerNumber", "history"}
_MILLIS = re.compile(r"[0-9]{1,15}")


class _Refused(Exception):
    """A document type declaration: no backup has one, and its entities could expand."""


@dataclass
class _Player:
    line: int
    fields: dict[str, tuple[int, str | None]] = field(default_factory=dict)


@dataclass
class _Game:
    line: int
    fields: dict[str, tuple[int, str | None]] = field(default_factory=dict)
    players: list[_Player] = field(default_factory=list)


@dataclass
class _Tree:
    """What the parser has seen: the games, and the element whose text it is collecting."""

    root: str | None = None
    games: list[_Game] = field(default_factory=list)
    # The element's name and line, and what KeepScore marked it (isNull, isEmpty) if anything.
    collecting: tuple[str, int, str | None] | None = None
    text: list[str] = field(default_factory=list)


def read_keepscore(text: str) -> ScoreFile:
    tree = _Tree()
    parser = expat.ParserCreate()
    parser.StartElementHandler = lambda name, attributes: _start(tree, parser, name, attributes)
    parser.EndElementHandler = lambda name: _end(tree, name)
    parser.CharacterDataHandler = lambda data: tree.text.append(data)
    parser.StartDoctypeDeclHandler = _refuse
    try:
        parser.Parse(text, True)
    except _Refused:
        message = gettext(
            "This XML file declares a document type, which a KeepScore backup never does:"
            " choose the backup KeepScore saved."
        )
        return _refused(parser.CurrentLineNumber, message)
    except expat.ExpatError as error:
        message = gettext(
            "The XML is broken here (%(reason)s): choose the backup file as KeepScore saved it."
        )
        return _refused(error.lineno, message % {"reason": expat.ErrorString(error.code)})
    if tree.root != "GamesBackup":
        message = gettext(
            "This XML file isn't a KeepScore backup, whose first element is <GamesBackup>:"
            " choose the backup KeepScore saved."
        )
        return _refused(1, message)
    problems: list[Problem] = []
    games = [_game(game, problems) for game in tree.games]
    return ScoreFile(
        format=FileFormat.KEEPSCORE,
        holds=Holds.POINTS,
        # A game KeepScore started but nobody scored in is no game to import.
        games=tuple(game for game in games if game is not None and game.deals),
        problems=tuple(problems),
    )


def _refuse(*_declaration: object) -> None:
    raise _Refused


def _refused(line: int, message: str) -> ScoreFile:
    return ScoreFile(FileFormat.KEEPSCORE, Holds.POINTS, (), (Problem(line, message),))


def _start(tree: _Tree, parser: expat.XMLParserType, name: str, attributes: dict) -> None:
    line = parser.CurrentLineNumber
    if tree.root is None:
        tree.root = name
    if name == "Game":
        tree.games.append(_Game(line))
    elif name == "PlayerScore" and tree.games:
        tree.games[-1].players.append(_Player(line))
    if name in _GAME_FIELDS or name in _PLAYER_FIELDS:
        marked = next(
            (mark for mark in ("isNull", "isEmpty") if attributes.get(mark) == "true"), None
        )
        tree.collecting = (name, line, marked)
        tree.text = []


def _end(tree: _Tree, name: str) -> None:
    if tree.collecting is None or tree.collecting[0] != name:
        return
    # KeepScore writes "null" as the text of a null and of an empty string, marking which.
    _, line, marked = tree.collecting
    value = {"isNull": None, "isEmpty": ""}.get(marked or "", "".join(tree.text).strip())
    tree.collecting, tree.text = None, []
    game = tree.games[-1] if tree.games else None
    if game is not None and name in _GAME_FIELDS:
        game.fields[name] = (line, value)
    elif game is not None and game.players and name in _PLAYER_FIELDS:
        game.players[-1].fields[name] = (line, value)


def _game(game: _Game, problems: list[Problem]) -> SheetGame | None:
    """A game, or None with its problem: fewer than two players, a player without a name or
    whose history isn't numbers, or histories of different lengths."""
    players = sorted(game.players, key=_seat)
    names, histories = [], []
    for player in players:
        line, name = player.fields.get("playerName", (player.line, None))
        if not name:
            message = gettext(
                "A player of this game has no name: name them in KeepScore and back up again."
            )
            problems.append(Problem(line, message))
            return None
        history = _history(player, name, problems)
        if history is None:
            return None
        names.append(name)
        histories.append(history)
    if len(names) < 2:
        message = gettext("This game has fewer than two players, so it isn't a game of Big Two.")
        problems.append(Problem(game.line, message))
        return None
    if len({len(history) for history in histories}) > 1:
        message = gettext(
            "The players' histories have different numbers of deals (%(counts)s): KeepScore"
            " keeps a change only for those who scored, so enter 0 for the others in every"
            " deal, or type this game in by hand."
        )
        counts = ", ".join(f"{n} {len(h)}" for n, h in zip(names, histories, strict=True))
        problems.append(Problem(game.line, message % {"counts": counts}))
        return None
    first_line = players[0].fields.get("history", (players[0].line, None))[0]
    deals = tuple(SheetDeal(first_line, numbers) for numbers in zip(*histories, strict=True))
    label = game.fields.get("gameName", (0, None))[1] or ""
    return SheetGame(game.line, tuple(names), _started(game), deals, label=label)


def _seat(player: _Player) -> int:
    number = whole_number(player.fields.get("playerNumber", (0, ""))[1] or "")
    return number if number is not None else player.line


def _history(player: _Player, name: str, problems: list[Problem]) -> list[int] | None:
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
            problems.append(Problem(line, message % values))
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
