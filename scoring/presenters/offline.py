"""What the game page carries so that the phone can go on keeping the score offline
(static/js/waiting-deals.js; README, "Playing without a signal").

The phone scores a deal from the rule set's scoring sheet (`rules.scoring_sheet`), the
engine's own rules as data, never a second copy of them. It applies only what its small
script knows: cards left and the twos rules, to a target, a number of deals or open-ended.
Under other house rules (finishing order, points by hand, Pusoy Dos scoring, the dragon,
paying for the table) the page carries no sheet, and the phone keeps one deal at a time, as it
always has, rather than guess.
"""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.urls import reverse
from django.utils.translation import gettext as _

from rules.deal_checks import DealResult
from rules.deal_options import Scoring
from rules.deal_score import ScoredDeal
from rules.next_deal import next_deal
from rules.ruleset import RuleSet
from rules.scoring_sheet import SHEET_VERSION, Json, scoring_sheet
from scoring.presenters.board import Board


def phone_can_score(sheet: Json) -> bool:
    """Whether static/js/waiting-deals.js can apply this sheet exactly as the engine would."""
    return (
        sheet["version"] == SHEET_VERSION
        and sheet["scoring"] == Scoring.CARDS_LEFT.value
        and sheet["dragon"] is None
        and not sheet["pays_for_table"]
    )


def offline_keeper(user: AbstractBaseUser) -> str:
    """Whom a phone keeps its waiting deals under: one user's are never shown to another."""
    return str(user.pk)


def offline_game(rules: RuleSet, board: Board, keeper: str) -> Json | None:
    """The page's part that never changes while it is open: the game, whose phone keeps its
    waiting deals (`offline_keeper`), the players, the sheet and who deals next
    (`next_deal_words`); None where the phone can't score these rules."""
    sheet = scoring_sheet(rules)
    if not phone_can_score(sheet):
        return None
    game = board.game.pk
    record = reverse("scoring:record", args=[game])
    names = board.names
    return {
        "game": game,
        "user": keeper,
        "names": names,
        "sheet": sheet,
        "record": record,
        "next": next_deal_words(rules, names),
    }


def next_deal_words(rules: RuleSet, names: list[str]) -> list[str | list[str | None]]:
    """ "Next: Ann deals; whoever holds 3♦ leads" after a deal, by the seat that went out and
    then the seat left holding the most cards (`ScoredDeal.loser`): what the game page says
    under the scoreboard, for the phone to say after a waiting deal. `rules.next_deal` decides
    who deals and leads, here as on the server; the phone only finds the two seats. One
    sentence a winner where the lead rule doesn't ask who lost."""
    seats = range(len(names))
    words: list[str | list[str | None]] = []
    for winner in seats:
        said = [None if loser == winner else _after(rules, names, winner, loser) for loser in seats]
        told = set(said) - {None}
        words.append(told.pop() if len(told) == 1 else said)
    return words


def _after(rules: RuleSet, names: list[str], winner: int, loser: int) -> str:
    # Only who went out and who kept the most cards matter to `next_deal`: the rest of the
    # deal is any that has them so.
    cards = tuple(0 if seat == winner else 2 if seat == loser else 1 for seat in range(len(names)))
    last = ScoredDeal(DealResult(cards), rules, penalties=cards, winner=winner)
    return _("Next: %(next)s") % {"next": next_deal(rules, last).sentence(names)}


def board_state(board: Board) -> Json:
    """What the waiting deals are added to: the totals, the next deal's number and whether
    the game is over, as the scoreboard beside it shows them (no query: the seats hold them)."""
    return {
        "totals": [seat.total for seat in board.seats],
        "next": board.next_number,
        "finished": board.game.is_finished,
    }
