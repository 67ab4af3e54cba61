"""A game played with own counts (`Game.own_counts`): each player sends their own seat's facts
from their own phone, and the deal records itself once the table's are in and make a valid
deal, by the path every deal is recorded by (`deals.record_locked`)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from rules.deal_checks import MOST_POINTS, TWOS_IN_THE_DECK
from rules.deal_score import facts_wanted
from rules.ruleset import RuleSet
from scoring.models import (
    MOST_CARDS_IN_HAND,
    SEATS,
    Deal,
    DealFilling,
    DealScore,
    Game,
    Seat,
    SentFacts,
)
from scoring.models.facts import OwnFacts, seat_figure, table_facts
from scoring.services.deals import (
    AsRead,
    RecordedDeal,
    check_next_deal,
    deal_write_refusals,
    record_locked,
)
from scoring.services.errors import (
    DealAlreadyRecorded,
    InvalidDeal,
    ScoringError,
)
from scoring.services.sent_facts import SEAT_FACTS
from scoring.services.totals import lock_game, refresh_from, scored_deal
from scoring.services.versions import game_changed


@dataclass(frozen=True, slots=True)
class SentOwn:
    """What a send did: the deal `number` it was for, and the deal it recorded (or a resend of
    the send that recorded it found), else None while the deal fills in."""

    number: int
    recorded: RecordedDeal | None = None


class SentTooLate(DealAlreadyRecorded):
    """A seat's facts sent for a deal already recorded with another figure for that seat:
    deal `number`, recorded with `recorded` for the seat `name`, where its player sent `sent`
    (each the seat's one figure, as `seat_figure` says it), for the player to choose which
    counts (`scoring.services.own_clash.put_own_in`)."""

    def __init__(self, number: int, name: str, recorded: int, sent: int) -> None:
        super().__init__(
            _(
                "Deal %(number)s was already recorded, with %(figure)s for %(name)s: if that is"
                " wrong, change deal %(number)s"
            )
            % {"number": number, "figure": recorded, "name": name}
        )
        self.number, self.name, self.recorded, self.sent = number, name, recorded, sent


def send_own_facts(
    *,
    game: Game,
    position: int,
    facts: OwnFacts,
    by: AbstractBaseUser,
    token: uuid.UUID,
    number: int,
) -> SentOwn:
    """The seat at `position` (from 0), `by`'s own, says its `facts` of deal `number`.

    Stored, or changed (a seat's last send counts), until the deal records: once every seat has
    sent (under Pusoy Dos scoring, once someone went out) and the facts make a valid deal under
    the game's rules, it is recorded in this transaction, as `record_deal` records one. Facts
    that make no valid deal record nothing: `selectors.deal_filling` says what is wrong, and the
    players change their figures. Under the game's lock, so the last two seats sending at once
    record one deal, and a send meets a deal recorded on the whole-table form only before or
    after it. The same send again (same `token`: a double tap, a resend after a lost answer)
    changes nothing and answers as the first did; a send for a deal already recorded is
    accepted if it says what was recorded, else refused saying what was (SentTooLate).
    """
    with deal_write_refusals(number), transaction.atomic():
        locked = lock_game(game)
        sent = _send_locked(locked, position, facts, by, token, number)
    refresh_from(game, locked)
    return sent


def _send_locked(
    locked: Game,
    position: int,
    facts: OwnFacts,
    by: AbstractBaseUser,
    token: uuid.UUID,
    number: int,
) -> SentOwn:
    if not locked.own_counts:
        raise ScoringError(_("This game is kept on one phone: record the deal for the table"))
    seats = list(
        Seat.objects.filter(game=locked).select_related("player__member").order_by("position")
    )
    seat = own_seat(seats, position, by)
    last = seats[0].deals_played
    if number <= last:
        return _sent_after_recording(locked, seat, facts, number, seats)
    check_next_deal(locked, number, last)
    asked(locked.ruleset, facts)
    filling = _filling_for(locked, number)
    rows = _stored(filling, seat, facts, by, token)
    if rows is None:
        return SentOwn(number)  # the same send again: nothing new to record or tell
    table = table_facts(locked.ruleset, [rows.get(seat.pk) for seat in seats])
    if table is not None:
        try:
            scored = scored_deal(table, seats, locked)
        except InvalidDeal:
            pass  # recorded once a player changes their figure: the selector says what is wrong
        else:
            read = AsRead(locked.version, seats, scored)
            return SentOwn(number, record_locked(locked, number, table, token, by, read))
    game_changed(locked, figure=True)
    return SentOwn(number)


def own_seat(seats: Sequence[Seat], position: int, by: AbstractBaseUser) -> Seat:
    """The seat at `position`, if it is `by`'s: its player is the member they are (linked when
    seated by their username, or by their "This is me")."""
    seat = next((seat for seat in seats if seat.position == position), None)
    member = None if seat is None else seat.player.member
    if member is None or member.user_id != by.pk:
        raise ScoringError(_("You can only send your own seat's cards"))
    return seat


def asked(rules: RuleSet, facts: OwnFacts) -> None:
    """Refused unless `facts` give the figure the rules ask of a seat, and nothing they don't."""
    wanted = facts_wanted(rules)
    takes = wanted.required | wanted.optional | wanted.one_of
    need = "place" if "order" in takes else "points" if "points" in wanted.required else None
    need = need or "cards_left"
    if getattr(facts, need) is None:
        raise ScoringError(_("Send your own figure for this deal, or tap “I went out”"))
    given = {name for name in (*SEAT_FACTS, "last_play_twos") if getattr(facts, name) is not None}
    allowed = {need}
    if "twos_held" in takes:
        allowed.add("twos_held")
    if "last_play_twos" in takes and facts.cards_left == 0:
        allowed.add("last_play_twos")
    if given - allowed:
        raise ScoringError(_("These rules don't ask for that: send only what the form asks"))
    _in_bounds(facts)


# The most each of a seat's facts can be, as the database holds them (the rules engine checks
# each rule set's own bounds once the deal's facts are in).
MOST = {
    "cards_left": MOST_CARDS_IN_HAND,
    "twos_held": TWOS_IN_THE_DECK,
    "place": SEATS,
    "points": MOST_POINTS,
    "last_play_twos": TWOS_IN_THE_DECK,
}


def _in_bounds(facts: OwnFacts) -> None:
    for name, most in MOST.items():
        value = getattr(facts, name)
        if value is not None and not (name == "place") <= value <= most:
            raise ScoringError(
                _("That figure can't be right: send a number from %(least)s to %(most)s")
                % {"least": int(name == "place"), "most": most}
            )
    twos, cards = facts.twos_held, facts.cards_left
    if twos is not None and cards is not None and twos > cards:
        raise ScoringError(_("You can't hold more twos than cards: check both numbers"))


def _filling_for(locked: Game, number: int) -> DealFilling:
    """The game's deal filling in, for deal `number`: what was sent for another deal (one
    taken back since) is cleared."""
    filling = DealFilling.objects.filter(game=locked).first()
    if filling is None:
        return DealFilling.objects.create(game=locked, number=number)
    if filling.number != number:
        SentFacts.objects.filter(filling=filling).delete()
        filling.number = number
        filling.save(update_fields=["number"])
    return filling


def _stored(
    filling: DealFilling, seat: Seat, facts: OwnFacts, by: AbstractBaseUser, token: uuid.UUID
) -> dict[int, SentFacts] | None:
    """Every seat's facts sent so far, by seat id, `seat`'s as now sent; None for the same send
    again (its `token`), which changes nothing."""
    rows = {row.seat_id: row for row in SentFacts.objects.filter(filling=filling)}
    was = rows.get(seat.pk)
    values = {name: getattr(facts, name) for name in (*SEAT_FACTS, "last_play_twos")}
    if was is not None and was.token == token:
        if any(getattr(was, name) != value for name, value in values.items()):
            raise ScoringError(_("This form was already sent with other figures; reload the page"))
        return None
    if SentFacts.objects.filter(token=token).exists():
        raise ScoringError(_("This form was already used; reload the page"))
    row = SentFacts(filling=filling, seat=seat, by=by, token=token, **values)
    if was is None:
        row.save()
    else:
        row.pk = was.pk
        row.save(force_update=True)
    rows[seat.pk] = row
    return rows


def _sent_after_recording(
    locked: Game, seat: Seat, facts: OwnFacts, number: int, seats: Sequence[Seat]
) -> SentOwn:
    """A seat's facts for deal `number`, recorded already: what it recorded for the seat, the
    answer the send got (a resend after a lost answer); else refused, saying what it was."""
    deal = Deal.objects.get(game=locked, number=number)
    score = DealScore.objects.get(deal=deal, seat=seat)
    same = all(
        getattr(facts, name) is None or getattr(facts, name) == getattr(score, name)
        for name in SEAT_FACTS
    )
    if same:
        return SentOwn(number, RecordedDeal(deal))
    raise SentTooLate(number, seat.player.name, seat_figure(score), seat_figure(facts))
