"""A crash run's hand-over: how soon each following page shows its table's next deal."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tools.loadtest.log import percentile

if TYPE_CHECKING:
    from tools.loadtest.page import Board
    from tools.loadtest.phones import Phone, Table

STALL_SECONDS = 60.0  # a page not showing the deal by then is stranded


@dataclass(eq=False)
class HandOver:
    """Each table's first deal told recorded since `back_at`, and when each follower showed it."""

    back_at: float
    followers: list[Phone]
    first: dict[Table, tuple[int, int]] = field(default_factory=dict)
    shown: dict[Phone, float] = field(default_factory=dict)  # seconds from back_at

    def recorded(self, table: Table, game: int, version: int) -> None:
        self.first.setdefault(table, (game, version))

    def showing(self, phone: Phone, board: Board) -> None:
        """`phone` now shows `board`: the deal, or a later game of its table."""
        first = self.first.get(phone.table)
        if phone.scorekeeper or phone in self.shown or first is None:
            return
        game, version = first
        if phone.game > game or (phone.game == game and board.version >= version):
            self.shown[phone] = time.monotonic() - self.back_at

    async def waited(self) -> list[str]:
        """Wait until every follower shows its table's deal, or STALL_SECONDS: the stranded."""
        deadline = self.back_at + STALL_SECONDS
        while len(self.shown) < len(self.followers) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        return [
            f"{phone.name} didn't show game {phone.table.game}'s deal recorded after the servers"
            f" answered again within {STALL_SECONDS:g} s: stranded"
            for phone in self.followers
            if phone not in self.shown
        ]

    def figures(self) -> dict[str, float]:
        """The seconds from the servers answering again to a follower showing the deal."""
        if not (seconds := list(self.shown.values())):
            return {}
        return {"pages": len(seconds), "p50_s": percentile(seconds, 0.5), "max_s": max(seconds)}
