"""A deal typed on one phone for a number another phone recorded first: the two deals side by
side, for the scorekeeper to choose which counts (scoring/views/recording.py offers the choice:
put theirs in as the next deal, replace the recorded one with it, or keep the one recorded)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from rules.deal_score import ScoredDeal, score_deal
from scoring import selectors
from scoring.forms import form_values
from scoring.models import Game, Seat
from scoring.models.facts import described
from scoring.presenters.board import cell_notes


@dataclass(frozen=True, slots=True)
class ClashCell:
    """One player's part of one of the two deals: the penalty, and what happened to them."""

    penalty: int
    notes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ClashLine:
    """A player's line: their part of the deal as recorded, and of the deal typed here."""

    name: str
    recorded: ClashCell
    mine: ClashCell

    @property
    def differs(self) -> bool:
        return self.recorded != self.mine

    @property
    def parts(self) -> tuple[ClashCell, ClashCell]:
        """The recorded deal's part, then the typed one's: the table's two columns."""
        return self.recorded, self.mine


@dataclass(frozen=True, slots=True)
class DealClash:
    """Deal `number` as recorded, and the deal this phone typed for it.

    `put_as` is the number the typed deal would be recorded as (the game's next deal), None
    when the game is over. `mine` holds the typed deal's form values and `token` its form's
    one-time token, both sent again with the choice; `recorded` is the recorded deal as shown
    here (JSON of its form values), so that replacing it replaces only what was seen. `same`:
    both phones typed the same deal, and there is nothing to choose."""

    number: int
    put_as: int | None
    lines: list[ClashLine]
    recorded_said: str
    mine_said: str
    mine: dict[str, object]
    token: uuid.UUID
    recorded: str
    same: bool


def deal_clash(
    game: Game,
    seats: Sequence[Seat],
    *,
    number: int,
    mine: ScoredDeal,
    token: uuid.UUID,
    next_number: int,
) -> DealClash | None:
    """Deal `number` of `game` beside `mine`, the deal typed for it; None if the game has no
    deal `number` (undone since). Read in the caller's snapshot, with the board it shows."""
    deal = next(iter(selectors.stored_deals(game, number=number)), None)
    if deal is None:
        return None
    rules = game.ruleset
    names = [seat.player.name for seat in seats]
    stored = deal.facts
    recorded = score_deal(stored, rules)
    return DealClash(
        number=number,
        put_as=None if game.is_finished else next_number,
        lines=[
            ClashLine(name, cell(recorded, seat, names), cell(mine, seat, names))
            for seat, name in enumerate(names)
        ],
        recorded_said=described(stored, rules, names),
        mine_said=described(mine.facts, rules, names),
        mine=form_values(mine.facts, seats),
        token=token,
        recorded=json.dumps(form_values(stored, seats), sort_keys=True),
        same=recorded.facts == mine.facts,
    )


def cell(scored: ScoredDeal, seat: int, names: list[str]) -> ClashCell:
    return ClashCell(scored.penalties[seat], cell_notes(scored, seat, scored.explain(names)))
