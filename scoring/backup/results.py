"""Who won each game of a backup, read: the seats that won (`Seat.won`) beside the game's result.

Files made before wins could be shared hold no `won`: every finished game of theirs had one
winner, so a restore marks that player's seat. A file that holds it must agree with its games,
as `scoring.services.recompute` writes them: a game's winner's seat won; a win shared
(`win_shared`) was won by every seat on the game's lowest total, two or more; a game in progress
was won by nobody. Anything else would count wins the deals don't give, and refuses the file.
"""

from __future__ import annotations

from collections import defaultdict

from scoring.backup.parts import Rows
from scoring.models import Game, Seat

GAMES, SEATS = Game._meta.label_lower, Seat._meta.label_lower


def check_winners(rows: Rows, problems: list[str], *, marked: bool) -> None:
    """Mark the winning seats of a file without them (not `marked`); note where a file's
    disagree."""
    tables: dict[int, list[tuple[int, Seat]]] = defaultdict(list)
    for pk, seat in sorted(rows[SEATS].items()):
        tables[seat.game_id].append((pk, seat))
    for pk, game in sorted(rows[GAMES].items()):
        seats = tables[pk]
        winners = _winners(pk, game, seats, problems)
        if not marked:
            for seat_pk, seat in seats:
                seat.won = seat_pk in winners
            continue
        won = {seat_pk for seat_pk, seat in seats if seat.won}
        if won != winners:
            problems.append(
                f"{GAMES} {pk}: the seats marked as having won it ({_listed(won)}) aren't "
                f"those its result names ({_listed(winners)})"
            )


def _winners(pk: int, game: Game, seats: list[tuple[int, Seat]], problems: list[str]) -> set[int]:
    """The seats (by their ids in the file) that won the game, as its result says."""
    if game.status != Game.Status.FINISHED:
        return set()
    if game.win_shared:
        low = min((seat.total for _pk, seat in seats), default=None)
        lowest = {seat_pk for seat_pk, seat in seats if seat.total == low}
        if len(lowest) < 2:
            problems.append(f"{GAMES} {pk}: its win is shared, but one seat alone is lowest")
        return lowest
    winners = {seat_pk for seat_pk, seat in seats if seat.player_id == game.winner_id}
    if not winners:
        problems.append(f"{GAMES} {pk}: its winner, player {game.winner_id}, has no seat at it")
    return winners


def _listed(seats: set[int]) -> str:
    return ", ".join(f"{SEATS} {pk}" for pk in sorted(seats)) or "none"
