"""A club night's round started as a game a table (`start_round`), and its TV link given or
stopped (`show_on_tv`, `stop_tv`)."""

from __future__ import annotations

import datetime

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from nights.models import Night, Round, RoundSeat, Table
from scoring import services as scoring
from scoring.models import Game, new_share_token, token_digest
from scoring.services import ScoringError


def start_round(*, night: Night, number: int, by: AbstractBaseUser) -> Round:
    """Round `number` started: a game a table, seated as drawn, in the night's season, each with
    the round's clock. A round already started (a double tap, a second phone) is left as it is.
    Refused while an earlier round is still being played or not yet started."""
    with transaction.atomic():
        scoring.lock_club(night.club)
        locked = Night.objects.select_for_update(no_key=True).get(pk=night.pk)
        round_ = Round.objects.filter(night=locked, number=number).first()
        if round_ is None:
            raise ScoringError(_("This night has no round %(number)s") % {"number": number})
        if round_.started_at is not None:
            return round_
        _refuse_out_of_turn(locked, number)
        now = timezone.now()
        round_.started_at = now
        if locked.round_minutes:
            round_.closes_at = now + datetime.timedelta(minutes=locked.round_minutes)
        round_.save(update_fields=["started_at", "closes_at"])
        seats = RoundSeat.objects.filter(round=round_, table__isnull=False).select_related("player")
        tables: dict[int, list[str]] = {}
        for seat in seats.order_by("table", "position"):
            tables.setdefault(seat.table, []).append(seat.player.name)
        _refuse_short_tables(tables, locked.table_size)
        for table, names in tables.items():
            game = scoring.start_game(
                club=night.club,
                seat_names=names,
                season=locked.season,
                by=by,
                closes_at=round_.closes_at,
                own_counts=locked.own_counts,
            )
            Table.objects.create(round=round_, number=table, game=game)
        Night.objects.filter(pk=locked.pk).update(version=F("version") + 1)
    return round_


def _refuse_short_tables(tables: dict[int, list[str]], size: int) -> None:
    """A player drawn for the round and since removed from the roster, or merged into another,
    leaves their table short (their seats go with them): the round is drawn again first."""
    short = [table for table, names in tables.items() if len(names) != size]
    if short:
        raise ScoringError(
            _(
                "Table %(table)s is short of a player since the roster changed: redraw the rounds"
                " to come, then start the round"
            )
            % {"table": short[0]}
        )


def _refuse_out_of_turn(night: Night, number: int) -> None:
    earlier = Round.objects.filter(night=night, number__lt=number)
    if earlier.filter(started_at__isnull=True).exists():
        raise ScoringError(
            _("Start the rounds in order: round %(number)s comes after the ones before it")
            % {"number": number}
        )
    still = Game.objects.filter(
        night_table__round__in=earlier, status=Game.Status.IN_PROGRESS
    ).values_list("night_table__round__number", flat=True)
    if still:
        raise ScoringError(
            _("Round %(number)s is still being played: finish its games first")
            % {"number": max(still)}
        )


def show_on_tv(*, night: Night, by: AbstractBaseUser) -> str:
    """A new TV link for the night, and its token; a link given before stops working."""
    with transaction.atomic():
        token = new_share_token()
        Night.objects.filter(pk=night.pk).update(tv_token=token, tv_digest=token_digest(token))
    night.tv_token = token
    return token


def stop_tv(*, night: Night, by: AbstractBaseUser) -> None:
    """The TV link stops working: its board answers "not found" from now on."""
    with transaction.atomic():
        Night.objects.filter(pk=night.pk).update(tv_token=None, tv_digest=None)
    night.tv_token = None
