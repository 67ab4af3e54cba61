"""The line under the deal form that says what to do next: whom to mark out, and, once a
player is, what is left to type; with the finish still ahead, the tie being played off, or, once
a club night's round is out of time, the game ending with this deal."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from rules.options import Finish
from scoring.forms import DealForm
from scoring.forms.deal_values import PLACE, POINTS, WINNER
from scoring.forms.deals import DealRow
from scoring.presenters.board import Board

# static/js/game-page.js puts the name of whoever is marked out in its place.
NAME = "{name}"


@dataclass(frozen=True, slots=True)
class DealHint:
    """`text`, what the line says now; `start`, what it says while nobody is marked out; and
    `went_out`, what it says once someone is, with `NAME` where their name goes. `time_up`, on
    a game whose clock still runs: `start` once its time is up, which static/js/round-clock.js
    puts in its place as the page's clock passes the end ("" otherwise)."""

    text: str
    start: str
    went_out: str
    time_up: str = ""


def deal_hint(
    form: DealForm, rows: list[DealRow], board: Board, *, clock: bool = False, time_up: bool = False
) -> DealHint:
    """The hint under `form`, whose `rows` say who is marked out, for the game `board` shows:
    a game with a `clock` (scoring/views/pages.py, `round_clock`) whose time is up or not."""
    start = _time_up(form.asks) if time_up else _start(form, board)
    went_out = _went_out(form.asks)
    out = [row.seat.player.name for row in rows if row.won]
    # A dragon wins before a card is played: nothing else is left to type.
    dragon = "dragon" in form.fields and form["dragon"].value() not in (None, "")
    text = went_out.replace(NAME, out[0]) if went_out and len(out) == 1 and not dragon else start
    later = _time_up(form.asks) if clock and not time_up else ""
    return DealHint(text=text, start=start, went_out=went_out, time_up=later)


def _time_up(asks: str) -> str:
    """The first deal recorded once a game's time is up is its last, whatever it leaves (a tie
    shares the win): no target or tie to speak of."""
    if asks == PLACE:
        return _(
            "Tap “Out next” for each player in the order they went out: the last one left is"
            " filled in. Time is up: the game ends with this deal."
        )
    if asks == POINTS:
        return _(
            "Type each player's points as the table works them out; tap “Went out” for the"
            " winner. Time is up: the game ends with this deal."
        )
    return _(
        "Tap “Went out” for the player who played their last card. Time is up: the game ends"
        " with this deal."
    )


def _went_out(asks: str) -> str:
    """What is left once a player is marked out; under finishing order, nothing to say."""
    if asks == PLACE:
        return ""
    if asks == POINTS:
        message = _("%(name)s went out. Now type the others' points, then tap “Record deal”.")
    elif asks == WINNER:
        message = _(
            "%(name)s went out. Now say how many twos were in the last play, then tap"
            " “Record deal”."
        )
    else:
        message = _(
            "%(name)s went out. Now type the cards left by the others, then tap “Record deal”."
        )
    return message % {"name": NAME}


def _start(form: DealForm, board: Board) -> str:
    rules = form.rules
    if form.asks == PLACE:
        return _(
            "Tap “Out next” for each player in the order they went out: the last one left is"
            " filled in."
        )
    if form.asks == POINTS:
        return _(
            "Type each player's points as the table works them out; tap “Went out” for the winner."
        )
    if board.tied_names:
        # The finish is reached, but not by one player alone: "reaches 100" is behind them.
        return _(
            "Tap “Went out” for the player who played their last card. The game ends after the"
            " first deal that leaves one player lowest alone."
        )
    if rules.finish is Finish.DEALS:
        return _(
            "Tap “Went out” for the player who played their last card. The match ends after"
            " %(deals)s deals."
        ) % {"deals": rules.deals}
    if rules.finish is Finish.OPEN:
        return _(
            "Tap “Went out” for the player who played their last card. Tap “End match” when you"
            " stop: the lowest total wins."
        )
    return _(
        "Tap “Went out” for the player who played their last card. The game ends once anyone"
        " reaches %(target)s."
    ) % {"target": rules.target}
