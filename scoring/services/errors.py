"""The refusals every write can raise: `ScoringError` and its kinds, each with a message meant
for the person at the table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.db import OperationalError
from django.utils.translation import gettext as _

if TYPE_CHECKING:
    from scoring.models import Game


class ScoringError(Exception):
    """A change that was refused; `message` says why, in words for the scorer."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class DealAlreadyRecorded(ScoringError):
    """Someone else (another phone) recorded this deal number first."""


class DealWasUndone(ScoringError):
    """The form's deal was recorded, then undone: its token is spent, and sending the form
    again (a retry after a lost answer) records nothing."""

    def __init__(self, number: int) -> None:
        super().__init__(
            _("Deal %(number)s was undone after this phone sent it, so it was not recorded again.")
            % {"number": number}
        )
        self.number = number


class DatabaseBusy(ScoringError):
    """The deal met the database's write lock held longer than a writer waits for it (on
    SQLite, whose one lock covers the whole database: a club being restored, say). Nothing was
    written, so the same deal can be sent again as it is."""

    def __init__(self, number: int) -> None:
        super().__init__(
            _(
                "Deal %(number)s isn't recorded yet: the database is busy with something else "
                "(a club being restored, say). It is kept below: send it again in a moment."
            )
            % {"number": number}
        )
        self.number = number


class GameFull(ScoringError):
    """The game has every deal a game may have (settings.GAME_MAX_DEALS): the next is refused,
    saying how many that is and how to play on. An open-ended match can still be ended."""

    def __init__(self, *, most: int, open_ended: bool) -> None:
        words = {"most": most, "number": most + 1}
        if open_ended:
            message = _(
                "A game can have at most %(most)s deals, and this one has them all, so deal"
                " %(number)s can't be recorded. End the match to bank the totals, then start a"
                " new game to play on."
            )
        else:
            message = _(
                "A game can have at most %(most)s deals, and this one has them all, so deal"
                " %(number)s can't be recorded. Start a new game to play on."
            )
        super().__init__(message % words)
        self.most = most


def database_busy(error: OperationalError) -> bool:
    """Whether `error` is SQLite's "database is locked": the write lock waited for in vain."""
    return "database is locked" in str(error)


class DealRecordedDifferently(ScoringError):
    """The form's deal is recorded, but not with the values sent again (they were changed
    while the form waited to be resent, or the deal was edited since)."""


class DealChanged(ScoringError):
    """A correction made against the deal as it was shown (`edit_deal`'s `replacing`) found it
    changed since, on another phone: nothing was written."""

    def __init__(self, number: int) -> None:
        super().__init__(
            _(
                "Deal %(number)s was changed on another phone while you chose, so it wasn't "
                "replaced. Here it is as it is now: choose again."
            )
            % {"number": number}
        )
        self.number = number


class SeatsDiffer(ScoringError):
    """ "Play again" can't seat the same table: the current season's rules are for another
    number of players than the finished game had."""


class TiedForLowest(ScoringError):
    """ "End match" while the lowest total is shared, and the table didn't choose to share the
    win between exactly those players: `tied` are their seats (positions), clockwise."""

    def __init__(self, message: str, tied: Sequence[int]) -> None:
        super().__init__(message)
        self.tied = tuple(tied)


class NotAllowed(ScoringError):
    """The user is a member of the club but this action is the owner's."""


class InvalidDeal(ScoringError):
    """The cards left don't make a deal; `problems` lists every reason."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__(". ".join(problems))
        self.problems = list(problems)


class SatTogether(ScoringError):
    """Two players can't be merged: both sat in `game`, so they are two people."""

    def __init__(self, message: str, game: Game) -> None:
        super().__init__(message)
        self.game = game
