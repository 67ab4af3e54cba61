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

from functools import lru_cache

from django.contrib.auth.base_user import AbstractBaseUser
from django.urls import reverse
from django.utils.translation import gettext as _

from rules.deal_checks import TWOS_IN_THE_DECK, DealResult
from rules.deal_options import Scoring
from rules.deal_score import DealRefused, ScoredDeal, facts_wanted, score_deal
from rules.next_deal import next_deal
from rules.options import TwosRule
from rules.penalties import outcome
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


def offline_game(rules: RuleSet, board: Board, keeper: str) -> Json:
    """The page's part that never changes while it is open: the game, whose phone keeps its
    waiting deals (`offline_keeper`), where they are sent, and, where the phone can score these
    rules, the players and what it reads instead of rules of its own: each count's penalty
    (`penalty_table`), when the game ends (`finish`) and who deals next (`next_deal_words`).
    Under other rules `points` is None, and the phone keeps one deal at a time."""
    game = board.game.pk
    found: Json = {"game": game, "user": keeper, "record": reverse("scoring:record", args=[game])}
    if not phone_can_score(scoring_sheet(rules)):
        return found | {"points": None}
    names = board.names
    return found | {
        "names": names,
        "points": penalty_table(rules),
        "finish": finish(rules),
        "next": next_deal_words(rules, names),
    }


@lru_cache(maxsize=64)  # a rule set each: the same table on every page of its games
def penalty_table(rules: RuleSet) -> list[list[list[int | None]]]:
    """What one seat's count costs, as the engine scores it (`score_deal`): by whether the
    winner went out on twos (only False where no twos rule counts it), the cards left (0 for
    the winner) and the twos held (only 0 where the rules don't ask). None where the engine
    refuses that seat's count (more twos than cards, or than the pack has left)."""
    wanted = facts_wanted(rules).allowed
    on_twos = (False, True) if "out_on_twos" in wanted else (False,)
    most_twos = TWOS_IN_THE_DECK if "twos_held" in wanted else 0
    return [
        [
            [_one_seat(rules, on, cards, twos) for twos in range(min(cards, most_twos) + 1)]
            for cards in range(rules.hand_size + 1)
        ]
        for on in on_twos
    ]


def _one_seat(rules: RuleSet, on_twos: bool, cards: int, twos: int) -> int | None:
    if cards == 0:
        return 0
    # Seat 1's count in a deal seat 0 won, the others each left with one card and no twos.
    others = (1,) * (rules.players - 2)
    twos_held = (0, twos, *(0,) * len(others)) if rules.twos is TwosRule.EACH_TWO else None
    facts = DealResult((0, cards, *others), out_on_twos=on_twos, twos_held=twos_held)
    try:
        return score_deal(facts, rules).penalties[1]
    except DealRefused:
        return None


def finish(rules: RuleSet) -> Json:
    """When the game ends, as the phone reads it: the target a total reaches, or the deals
    played (neither when open-ended); `ties_play_on`: a tie for lowest there plays on
    (`outcome`, rules/penalties.py)."""
    sheet_finish = dict(scoring_sheet(rules)["finish"])  # type: ignore[call-overload]
    del sheet_finish["kind"]
    reached = [sheet_finish.get("target", 0)] + [0] * (rules.players - 1)
    tied = outcome(reached, rules, deals_played=sheet_finish.get("deals"))
    return sheet_finish | {"ties_play_on": tied.tied}


def next_deal_words(rules: RuleSet, names: list[str]) -> list[str | list[list[int | str]]]:
    """ "Next: Ann deals; whoever holds 3♦ leads" after a deal, by the seat that went out and
    then the seat left holding the most cards (`ScoredDeal.loser`): what the game page says
    under the scoreboard, for the phone to say after a waiting deal. `rules.next_deal` decides
    who deals and leads, here as on the server. One sentence a winner where the lead rule
    doesn't ask who lost; else [seat, sentence] for each other seat, in the order that breaks
    a tie for the most cards (the first after the winner): the phone says the first of those
    left holding the most."""
    seats = len(names)
    words: list[str | list[list[int | str]]] = []
    for winner in range(seats):
        after = [(winner + step) % seats for step in range(1, seats)]
        said: list[list[int | str]] = [
            [loser, _after(rules, names, winner, loser)] for loser in after
        ]
        told = {pair[1] for pair in said}
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
