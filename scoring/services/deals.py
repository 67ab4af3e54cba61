"""Deals: recording one (once, however often its form is sent), undoing the last, correcting
any."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import BigIntegerField, F, Value
from django.utils.translation import gettext as _

from rules.penalties import DealResult
from scoring.models import Deal, DealScore, Game, GameChange
from scoring.selectors import seats_of
from scoring.services.errors import (
    DealAlreadyRecorded,
    DealRecordedDifferently,
    DealWasUndone,
    ScoringError,
)
from scoring.services.totals import (
    cards_left_of,
    checked_sheet,
    deal_sheet,
    deal_sheets,
    last_deal_number,
    lock_game,
    penalties_of,
    recompute,
    refresh_from,
    replay_sheets,
    tuple_or_none,
    twos_of,
)


def record_deal(
    *,
    game: Game,
    number: int,
    cards_left: Sequence[int],
    token: uuid.UUID,
    by: AbstractBaseUser,
    out_on_twos: bool = False,
    twos_held: Sequence[int] | None = None,
) -> Deal:
    """Record deal `number` with each seat's cards left, in seat order.

    Under the twos rule, `out_on_twos` says the winner went out on twos; under its stronger
    form `twos_held` gives each seat's twos left in hand. Only pass what the game's rules ask.

    The game row is locked for the whole transaction, so two phones sending the same deal queue
    up: the second finds the number taken and is told so. A resend of the same form (same token)
    returns the deal it already recorded, so a double tap or a retry records one deal.
    """
    try:
        sheet = DealResult(tuple(cards_left), out_on_twos, tuple_or_none(twos_held))
        deal, locked = _record_deal(game, number, sheet, token, by)
    except IntegrityError as error:
        # Only reachable if the row lock were bypassed: the database's unique constraint on
        # (game, number) still refuses the second deal, and the scorer hears it plainly.
        raise DealAlreadyRecorded(
            _("Deal %(number)s was already recorded") % {"number": number}
        ) from error
    refresh_from(game, locked)
    return deal


def _record_deal(
    game: Game, number: int, sheet: DealResult, token: uuid.UUID, by: AbstractBaseUser
) -> tuple[Deal, Game]:
    with transaction.atomic():
        locked = lock_game(game)
        # Looked up after the lock: a resend that waited for an undo to commit sees its line.
        used = _token_use(token)
        if used is not None:
            if used.game_id != locked.pk:
                raise ScoringError(
                    _("This form was already used for another game; reload the page")
                )
            if used.deal_id is None:
                raise DealWasUndone(used.number)
            return _same_deal(locked, used.deal_id, sheet), locked
        last = last_deal_number(locked)
        if number <= last:
            raise DealAlreadyRecorded(
                _("Deal %(number)s was already recorded — the scoreboard now shows it")
                % {"number": number}
            )
        if number != last + 1:
            raise ScoringError(
                _("The next deal is deal %(next)s, not deal %(number)s")
                % {"next": last + 1, "number": number}
            )
        if locked.is_finished:
            raise ScoringError(_("The game is over — no more deals can be recorded"))
        seats = seats_of(locked)
        sheet = checked_sheet(sheet, seats, locked)
        deal = Deal.objects.create(
            game=locked,
            number=number,
            token=token,
            recorded_by=by,
            out_on_twos=sheet.out_on_twos,
        )
        DealScore.objects.bulk_create(
            DealScore(deal=deal, seat=seat, cards_left=count, penalty=points, twos_held=twos)
            for seat, count, points, twos in zip(
                seats, sheet.cards_left, penalties_of(locked, sheet), twos_of(sheet), strict=True
            )
        )
        GameChange.objects.create(
            game=locked,
            by=by,
            action=GameChange.Action.RECORD,
            deal_number=number,
            after=list(sheet.cards_left),
        )
        recompute(locked)
    return deal, locked


@dataclass(frozen=True, slots=True)
class TokenUse:
    """Where a deal form's token was used: the deal it recorded, or (`deal_id` None) the
    number of the deal recorded with it and undone since."""

    game_id: int
    number: int
    deal_id: int | None


def _token_use(token: uuid.UUID) -> TokenUse | None:
    """The deal recorded with `token`, or the undo that spent it (one query for both)."""
    recorded = (
        Deal.objects.filter(token=token)
        .order_by()
        .annotate(deal_id=F("pk"))
        .values_list("game_id", "number", "deal_id")
    )
    undone = (
        GameChange.objects.filter(token=token)
        .order_by()
        .annotate(deal_id=Value(None, output_field=BigIntegerField()))
        .values_list("game_id", "deal_number", "deal_id")
    )
    # Both at once only if a row was written by hand: the undo wins, the token is spent.
    rows = sorted(recorded.union(undone, all=True), key=lambda row: row[2] is not None)
    return TokenUse(*rows[0]) if rows else None


def _same_deal(game: Game, deal_id: int, sent: DealResult) -> Deal:
    """The deal the form recorded, if what it sends now is what is stored; refused if not,
    saying what is stored (all the facts the form sends: cards left, and the twos)."""
    deal = Deal.objects.prefetch_related("scores__seat__player").get(pk=deal_id)
    scores = sorted(deal.scores.all(), key=lambda score: score.seat.position)
    stored = deal_sheet(
        game.ruleset,
        [score.cards_left for score in scores],
        deal.out_on_twos,
        [score.twos_held for score in scores],
    )
    twos = sent.twos_held or (0,) * len(sent.cards_left)
    cards = [int(count) for count in sent.cards_left]
    sent = deal_sheet(game.ruleset, cards, sent.out_on_twos, [int(held) for held in twos])
    if sent != stored:
        recorded = ", ".join(f"{score.seat.player.name} {score.cards_left}" for score in scores)
        raise DealRecordedDifferently(
            _(
                "Deal %(number)s is already recorded as %(cards)s;"
                " edit deal %(number)s to change it."
            )
            % {"number": deal.number, "cards": recorded}
        )
    return deal


def undo_last_deal(*, game: Game, by: AbstractBaseUser, number: int | None = None) -> int:
    """Take back the last deal and return its number.

    `number`, when given, is the deal the user confirmed undoing: if that deal is no longer the
    last (a double tap, or someone else undid or recorded meanwhile) nothing more is undone.
    """
    with transaction.atomic():
        locked = lock_game(game)
        last = (
            Deal.objects.filter(game=locked)
            .order_by("-number")
            .prefetch_related("scores__seat")
            .first()
        )
        if last is None:
            raise ScoringError(_("There is no deal to undo"))
        if number is not None and last.number != number:
            raise ScoringError(
                (
                    _("Deal %(number)s is no longer the last deal, so nothing was undone")
                    if number < last.number
                    else _("Deal %(number)s was already undone")
                )
                % {"number": number}
            )
        before = cards_left_of(last)
        undone = last.number
        last.delete()
        # Taking a deal back reopens a match the scorekeeper had ended: it ended on that deal.
        locked.ended = False
        locked.save(update_fields=["ended"])
        # The line keeps the deal form's token: that form sent again records nothing.
        GameChange.objects.create(
            game=locked,
            by=by,
            action=GameChange.Action.UNDO,
            deal_number=undone,
            before=before,
            token=last.token,
        )
        recompute(locked)
    refresh_from(game, locked)
    return undone


def edit_deal(
    *,
    game: Game,
    number: int,
    cards_left: Sequence[int],
    by: AbstractBaseUser,
    out_on_twos: bool = False,
    twos_held: Sequence[int] | None = None,
) -> Deal:
    """Correct the cards left (and twos) of a recorded deal; totals and the end are worked out
    again.

    Refused when the corrected deals would end the game before its last recorded deal.
    """
    with transaction.atomic():
        locked = lock_game(game)
        deal = (
            Deal.objects.filter(game=locked, number=number).prefetch_related("scores__seat").first()
        )
        if deal is None:
            raise ScoringError(_("There is no deal %(number)s in this game") % {"number": number})
        seats = seats_of(locked)
        sheet = DealResult(tuple(cards_left), out_on_twos, tuple_or_none(twos_held))
        sheet = checked_sheet(sheet, seats, locked)
        before = cards_left_of(deal)
        every_deal = deal_sheets(locked)
        if every_deal[number] == sheet:
            return deal
        every_deal[number] = sheet
        replayed = replay_sheets(locked, every_deal)
        if replayed.ends_before_last_deal:
            raise ScoringError(
                _(
                    "With this change the game would have ended after deal %(after)s,"
                    " but %(count)s deals are recorded — undo the later deals first"
                )
                % {"after": replayed.finished_after, "count": len(replayed.deals)}
            )
        scores = sorted(deal.scores.all(), key=lambda score: score.seat.position)
        for score, count, points, twos in zip(
            scores, sheet.cards_left, penalties_of(locked, sheet), twos_of(sheet), strict=True
        ):
            score.cards_left, score.penalty, score.twos_held = count, points, twos
        DealScore.objects.bulk_update(scores, ["cards_left", "penalty", "twos_held"])
        if deal.out_on_twos != sheet.out_on_twos:
            deal.out_on_twos = sheet.out_on_twos
            deal.save(update_fields=["out_on_twos"])
        GameChange.objects.create(
            game=locked,
            by=by,
            action=GameChange.Action.EDIT,
            deal_number=number,
            before=before,
            after=list(sheet.cards_left),
        )
        recompute(locked)
    refresh_from(game, locked)
    return deal
