"""A player's own figure sent for a deal already recorded with another for their seat: the two
figures side by side, for the player to keep the one recorded or put theirs in that deal
(scoring/views/own_facts.py offers the choice; templates/scoring/_own_clash.html shows it)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from rules.deal_score import score_deal
from scoring import selectors
from scoring.forms import form_values
from scoring.models import Game, Seat
from scoring.models.facts import OwnFacts, score_rows, seat_figure


@dataclass(frozen=True, slots=True)
class OwnClash:
    """Deal `number`, recorded with `recorded_figure` for the seat `name`, whose player sent
    `sent_figure`. `mine` holds the sent form's values and `token` its one-time token, sent
    again with the choice; `recorded` is the deal as shown here (JSON of its form values), so
    that putting the figure in corrects only the deal that was seen. `same`: the deal has that
    figure now (put in already), and there is nothing to choose."""

    number: int
    name: str
    recorded_figure: int
    sent_figure: int
    mine: dict[str, object]
    token: uuid.UUID
    recorded: str

    @property
    def same(self) -> bool:
        return self.recorded_figure == self.sent_figure


def own_clash(
    game: Game,
    seats: Sequence[Seat],
    *,
    number: int,
    position: int,
    sent: OwnFacts,
    mine: dict[str, object],
    token: uuid.UUID,
) -> OwnClash | None:
    """Deal `number` of `game` as recorded for the seat at `position`, beside what its player
    `sent`; None if the game has no deal `number` (undone since). Read in the caller's
    snapshot, with the board it shows."""
    deal = next(iter(selectors.stored_deals(game, number=number)), None)
    if deal is None:
        return None
    recorded = score_rows(score_deal(deal.facts, game.ruleset))[position]
    return OwnClash(
        number=number,
        name=seats[position].player.name,
        recorded_figure=seat_figure(recorded),
        sent_figure=seat_figure(sent),
        mine=mine,
        token=token,
        recorded=json.dumps(form_values(deal.facts, seats), sort_keys=True),
    )
