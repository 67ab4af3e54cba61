"""A player's own figure sent for a deal already recorded with another (`filling.SentTooLate`),
put in that deal at their choice: the recorded deal corrected with their seat's figure, every
other seat's as recorded, by the path every correction takes (`deals.edit_deal`)."""

from __future__ import annotations

from dataclasses import replace

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from rules.deal_score import facts_wanted, score_deal
from rules.penalties import DealResult
from rules.ruleset import RuleSet
from scoring.models import Deal, Game, Seat
from scoring.models.facts import OwnFacts, score_rows, table_facts
from scoring.services.deals import deal_write_refusals, edit_deal
from scoring.services.errors import ScoringError
from scoring.services.filling import asked, own_seat
from scoring.services.sent_facts import SEAT_FACTS
from scoring.services.totals import lock_game, normalised, refresh_from


def put_own_in(
    *,
    game: Game,
    position: int,
    facts: OwnFacts,
    by: AbstractBaseUser,
    number: int,
    shown: DealResult,
) -> Deal:
    """Deal `number`, as `shown` to the seat at `position` (`by`'s own), corrected with the
    `facts` its player sent: the other seats' figures as recorded, the checks, scores, totals,
    history, ratings, end of game and stream as for any correction. A correction that makes no
    valid deal is refused (InvalidDeal, saying why); so is one of a deal changed since it was
    shown (DealChanged), and nothing is written. Under the game's lock: sent twice (a double
    tap, a resend, the player's two phones), the deal already holds the figure and the second
    writes nothing."""
    with deal_write_refusals(number), transaction.atomic():
        locked = lock_game(game)
        seats = list(
            Seat.objects.filter(game=locked).select_related("player__member").order_by("position")
        )
        own_seat(seats, position, by)
        asked(locked.ruleset, facts)
        corrected = with_own(locked.ruleset, normalised(shown, locked.ruleset), position, facts)
        deal = edit_deal(
            game=locked, number=number, by=by, facts=corrected, replacing=shown, seats=seats
        )
    refresh_from(game, locked)
    return deal


def with_own(rules: RuleSet, shown: DealResult, position: int, facts: OwnFacts) -> DealResult:
    """The deal `shown` with the seat at `position` saying `facts`, each other seat what the
    deal says of it, put together as the table's own figures are (`table_facts`); what no seat
    says (who pays, the dragon, a last play of twos) as `shown` has it."""
    rows = [
        OwnFacts(**{name: row[name] for name in SEAT_FACTS})
        for row in score_rows(score_deal(shown, rules))
    ]
    going_out = "went_out" in facts_wanted(rules).one_of
    if going_out and facts.cards_left == 0:
        # Told only who went out: the seat saying it did takes the place of the one recorded.
        rows = [replace(row, cards_left=None) for row in rows]
    rows = [
        replace(row, last_play_twos=shown.last_play_twos) if row.cards_left == 0 else row
        for row in rows
    ]
    rows[position] = facts
    table = table_facts(rules, rows)
    if table is None:
        raise ScoringError(_("That figure makes no deal: keep the one recorded"))
    return replace(table, out_on_twos=shown.out_on_twos, dragon=shown.dragon, pays=shown.pays)
