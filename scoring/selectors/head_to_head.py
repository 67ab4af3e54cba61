"""Head-to-head: how two players of a club fared in the finished games they sat at together.

One finished ahead of the other when their final total was lower; equal totals put neither
ahead. Everything is worked out from the seats' final totals (`Seat.total`, kept in step with
the deals by `scoring.services.recompute`): a player's in one query, the club's matrix in two;
games in progress count for nothing, as in the standings.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from itertools import permutations

from django.db.models import Count

from scoring.models import Club, Game, Player, Seat

# Games together before someone can be a player's nemesis or favourite opponent: one lucky
# evening says little.
MEETINGS_TO_COUNT = 3
# The players the club's matrix shows each against each: those with the most finished games.
# A dozen columns are two screens of a phone to swipe, and all of most clubs; in a big club any
# other player's row can be asked for (a member of 600 players can't read 360,000 cells).
MATRIX_PLAYERS = 12


@dataclass(frozen=True, slots=True)
class Meeting:
    """One player's record against another, over the finished games they played together."""

    opponent_id: int
    opponent: str
    games: int
    ahead: int  # games the player finished on fewer points than the opponent
    behind: int  # games the opponent finished on fewer points than the player
    # The opponent's final totals less the player's, over those games: above 0, the player
    # gave away fewer points.
    points_difference: int


@dataclass(frozen=True, slots=True)
class HeadToHead:
    meetings: list[Meeting]  # by opponent's name
    nemesis: Meeting | None  # the one who most often finished ahead of the player
    favourite: Meeting | None  # the one the player most often finished ahead of

    @property
    def meetings_to_count(self) -> int:
        return MEETINGS_TO_COUNT


@dataclass(frozen=True, slots=True)
class MatrixRow:
    player_id: int
    name: str
    cells: list[Meeting | None]  # against each player of the matrix in turn; None: never met


@dataclass(frozen=True, slots=True)
class Matrix:
    """The club's players with the most finished games, each against each (`rows`, by name;
    the columns are the same players in the same order), and one more player's row against the
    same columns if asked for (`asked`). `others` are the players with a finished game who
    have no row of their own, by name: the ones that can be asked for."""

    rows: list[MatrixRow]
    asked: MatrixRow | None
    others: list[tuple[int, str]]  # (player id, name)

    @property
    def players(self) -> int:
        """The club's players with a finished game."""
        return len(self.rows) + len(self.others)


@dataclass(slots=True)
class _Tally:
    opponent: str
    games: int = 0
    ahead: int = 0
    behind: int = 0
    points_difference: int = 0


# (game id, player id, player's name, final total) of each seat.
SeatRow = tuple[int, int, str, int]


def _finished_seat_rows(seats) -> Iterable[SeatRow]:
    return (
        seats.filter(game__status=Game.Status.FINISHED)
        .order_by("game_id")
        .values_list("game_id", "player_id", "player__name", "total")
    )


def _tallies(rows: Iterable[SeatRow]) -> dict[int, dict[int, _Tally]]:
    """Each player's tally against each other player they sat with: tallies[me][them]."""
    tables: dict[int, list[SeatRow]] = defaultdict(list)
    for row in rows:
        tables[row[0]].append(row)
    tallies: dict[int, dict[int, _Tally]] = defaultdict(dict)
    for seats in tables.values():
        for (_g, mine, _n, my_total), (_h, theirs, their_name, their_total) in permutations(
            seats, 2
        ):
            tally = tallies[mine].setdefault(theirs, _Tally(their_name))
            tally.games += 1
            tally.ahead += my_total < their_total
            tally.behind += their_total < my_total
            tally.points_difference += their_total - my_total
    return tallies


def _meeting(opponent_id: int, tally: _Tally) -> Meeting:
    return Meeting(
        opponent_id,
        tally.opponent,
        tally.games,
        tally.ahead,
        tally.behind,
        tally.points_difference,
    )


def _most_often(meetings: list[Meeting], *, ahead: bool) -> Meeting | None:
    """The opponent the player most often finished behind (`ahead=False`: the nemesis) or ahead
    of (the favourite), over at least MEETINGS_TO_COUNT games together, and at least once.
    Level on that count: the larger share of their games, then the wider points margin that
    way, then the name."""

    def count(meeting: Meeting) -> int:
        return meeting.ahead if ahead else meeting.behind

    def margin(meeting: Meeting) -> int:
        return meeting.points_difference if ahead else -meeting.points_difference

    candidates = [m for m in meetings if m.games >= MEETINGS_TO_COUNT and count(m) > 0]
    if not candidates:
        return None
    return min(
        candidates,
        key=lambda m: (-count(m), -Fraction(count(m), m.games), -margin(m), m.opponent.casefold()),
    )


def head_to_head(player: Player) -> HeadToHead:
    """The player against everyone they met in a finished game of the club; one query."""
    rows = _finished_seat_rows(Seat.objects.filter(game__seats__player=player))
    tallies = _tallies(rows).get(player.pk, {})
    meetings = sorted(
        (_meeting(opponent_id, tally) for opponent_id, tally in tallies.items()),
        key=lambda meeting: (meeting.opponent.casefold(), meeting.opponent_id),
    )
    return HeadToHead(
        meetings=meetings,
        nemesis=_most_often(meetings, ahead=False),
        favourite=_most_often(meetings, ahead=True),
    )


def club_matrix(club: Club, *, most: int = MATRIX_PLAYERS, asked: int | None = None) -> Matrix:
    """The `most` players of the club with the most finished games (then by name), each
    against each, and the row of player `asked` (by id) if they are another of the club's
    players with a finished game; two queries.

    Its cost grows with the players shown, not the club's: the database counts every player's
    games, and only the seats of the players shown are read.
    """
    counted = (
        Seat.objects.filter(game__club=club, game__status=Game.Status.FINISHED)
        .values_list("player_id", "player__name")
        .annotate(games=Count("pk"))
        .order_by()
    )
    by_games = sorted(counted, key=lambda row: (-row[2], row[1].casefold(), row[0]))
    shown = _by_name((player_id, name) for player_id, name, _games in by_games[:most])
    others = _by_name((player_id, name) for player_id, name, _games in by_games[most:])
    asked_row = next(((pk, name) for pk, name in others if pk == asked), None)
    chosen = [pk for pk, _name in shown] + ([asked] if asked_row else [])
    rows = _finished_seat_rows(Seat.objects.filter(game__club=club, player_id__in=chosen))
    tallies = _tallies(rows)

    def row(player_id: int, name: str) -> MatrixRow:
        cells = [
            _meeting(other, tally) if (tally := tallies[player_id].get(other)) else None
            for other, _name in shown
        ]
        return MatrixRow(player_id, name, cells)

    return Matrix(
        rows=[row(player_id, name) for player_id, name in shown],
        asked=row(*asked_row) if asked_row else None,
        others=others,
    )


def _by_name(players: Iterable[tuple[int, str]]) -> list[tuple[int, str]]:
    return sorted(players, key=lambda player: (player[1].casefold(), player[0]))
