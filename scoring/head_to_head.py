"""Head-to-head: how two players of a club fared in the finished games they sat at together.

One finished ahead of the other when their final total was lower; equal totals put neither
ahead. Everything is worked out from the seats' final totals (`Seat.total`, kept in step with
the deals by `scoring.services.recompute`), read in one query; games in progress count for
nothing, as in the standings.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from itertools import permutations

from scoring.models import Club, Game, Player, Seat

# Games together before someone can be a player's nemesis or favourite opponent: one lucky
# evening says little.
MEETINGS_TO_COUNT = 3


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
    rows: list[MatrixRow]  # by name; the columns are the same players in the same order


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


def club_matrix(club: Club) -> Matrix:
    """Every player of the club with a finished game against every other; one query."""
    rows = list(_finished_seat_rows(Seat.objects.filter(game__club=club)))
    names = {player_id: name for _game, player_id, name, _total in rows}
    order = sorted(names, key=lambda player_id: (names[player_id].casefold(), player_id))
    tallies = _tallies(rows)
    return Matrix(
        rows=[
            MatrixRow(
                player_id,
                names[player_id],
                [
                    _meeting(other, tally)
                    if (tally := tallies[player_id].get(other)) is not None
                    else None
                    for other in order
                ],
            )
            for player_id in order
        ]
    )
