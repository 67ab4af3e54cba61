"""The deal form's values one row at a time: a typed number read, one row's penalty while the
rest of the deal isn't typed, a recorded deal's facts as the form's values, and what the
form's buttons do without JavaScript ("Went out", "Out next")."""

from __future__ import annotations

import re
from collections.abc import Sequence

from django.utils.translation import gettext as _

from rules.deal_checks import (
    MOST_POINTS,
    PUSOY_DOS_POINTS,
    TWOS_IN_THE_DECK,
    DealResult,
    penalty,
)
from rules.deal_options import Scoring
from rules.deal_score import PLACES
from rules.options import TwosRule
from rules.ruleset import RuleSet
from scoring.models import Seat
from scoring.models.facts import SeatSent

# What each player's row asks, by the facts the rules need: cards left, points by hand, the
# place in the finishing order, or (Pusoy Dos scoring) only whether they went out. Each row's
# input is named `<what>_<seat position>`, but for the one choice of who went out, `winner`.
CARDS, POINTS, PLACE, WINNER = "cards", "points", "place", "winner"
WHOLE_NUMBER = re.compile(r"[+-]?[0-9]{1,6}")


def ordinal(place: int) -> str:
    return {1: _("1st"), 2: _("2nd"), 3: _("3rd"), 4: _("4th")}[place]


def alone(
    rules: RuleSet,
    asks: str,
    typed: int | None,
    *,
    twos: int | None,
    out_on_twos: bool,
    last_play_twos: int | None,
) -> int | None:
    """One row's penalty while the rest of the deal isn't typed: what its cards left cost
    (Pusoy Dos: what the winner earned), its points, or its place; None if it can't be told."""
    if typed is None:
        return None
    if asks == POINTS:
        return typed if 0 <= typed <= MOST_POINTS else None
    if asks == PLACE:
        places = PLACES[rules.players]
        return places[typed - 1] if 1 <= typed <= len(places) else None
    if not 0 <= typed <= rules.hand_size or twos is None:
        return None
    if rules.scoring is Scoring.PUSOY_DOS:
        if last_play_twos is None or not 0 <= last_play_twos < len(PUSOY_DOS_POINTS):
            return None
        return PUSOY_DOS_POINTS[last_play_twos] if typed else 0
    counted = twos if rules.twos is TwosRule.EACH_TWO and typed else 0
    if not 0 <= counted <= min(TWOS_IN_THE_DECK, typed):
        return None
    return penalty(typed, rules, out_on_twos=out_on_twos, twos_held=counted)


def whole(value: object, blank: int | None = None) -> int | None:
    """A typed whole number; `blank` if nothing is typed; None if it isn't a number."""
    text = "" if value is None else str(value).strip()
    if not text:
        return blank
    # ASCII digits only, and not a page of them: int() would also read "٣" or a million 9s.
    return int(text) if WHOLE_NUMBER.fullmatch(text) else None


def form_values(facts: DealResult, seats: Sequence[Seat]) -> dict[str, object]:
    """A recorded deal's facts as the deal form's values: to correct it, or to send it again
    after an undo."""
    values: dict[str, object] = {}
    for seat in seats:
        at = seat.position
        if facts.cards_left is not None:
            values[f"{CARDS}_{at}"] = facts.cards_left[at]
        if facts.twos_held is not None:
            values[f"twos_{at}"] = facts.twos_held[at] or ""
        if facts.order is not None:
            values[f"{PLACE}_{at}"] = facts.order.index(at) + 1
        if facts.points is not None:
            values[f"{POINTS}_{at}"] = facts.points[at]
    values["out_on_twos"] = facts.out_on_twos
    # Who went out, for a form that asks only that (Pusoy Dos scoring); the cards of a deal
    # recorded with them say it too.
    went_out = facts.cards_left.index(0) if facts.cards_left and 0 in facts.cards_left else None
    for name, value in (
        ("winner", facts.went_out if facts.went_out is not None else went_out),
        ("last_play_twos", facts.last_play_twos),
        ("pays", facts.pays),
        ("dragon", facts.dragon),
    ):
        if value is not None:
            values[name] = value
    return values


def sent_values(sent: Sequence[SeatSent | None]) -> dict[str, object]:
    """What the players have sent of a deal filling in (in seat order, None for a seat still to
    send), as the whole-table deal form's values: its boxes show what is in so far."""
    values: dict[str, object] = {}
    for at, row in enumerate(sent):
        if row is None:
            continue
        for name, value in (
            (CARDS, row.cards_left),
            ("twos", row.twos_held),
            (PLACE, row.place),
            (POINTS, row.points),
        ):
            if value is not None:
                values[f"{name}_{at}"] = value
        if row.cards_left == 0:
            values["winner"] = at
    return values


def with_went_out(data: dict[str, str], keys: Sequence[str], went_out: str) -> dict[str, str]:
    """The typed values with one player (the `went_out`th of the rows' `keys`) set to 0;
    anyone else at 0 is cleared, since only one player goes out in a deal."""
    values = dict(data)
    for position, key in enumerate(keys):
        if str(position) == went_out:
            values[key] = "0"
        elif values.get(key, "").strip() == "0":
            values[key] = ""
    return values


def with_out_next(data: dict[str, str], keys: Sequence[str], tapped: str) -> dict[str, str]:
    """Finishing order, tapped in: the `tapped`th player gets the first place nobody has yet
    (or, if they have one, loses it, to tap again); when that leaves one player without a
    place, they take the last. As static/js/deal-order.js does on the phone."""
    places = {key: whole(data.get(key)) for key in keys}
    every = range(1, len(keys) + 1)
    free = sorted(set(every) - set(places.values()))
    index = whole(tapped)
    key = keys[index] if index is not None and 0 <= index < len(keys) else None
    if key is not None and places[key] is not None:
        places[key] = None
    elif key is not None and free:
        places[key] = free.pop(0)
        left = [other for other, place in places.items() if place is None]
        if len(left) == 1 and free:
            places[left[0]] = free.pop(0)
    return dict(data) | {key: "" if place is None else str(place) for key, place in places.items()}
