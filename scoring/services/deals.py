"""Deals: recording one (once, however often its form is sent), undoing the last, correcting
any."""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, OperationalError, transaction
from django.db.models import BigIntegerField, F, Value
from django.utils.translation import gettext as _

from rules.deal_score import ScoredDeal
from rules.options import Finish
from rules.penalties import DealResult
from scoring.models import Deal, Game, GameChange, Seat
from scoring.models.facts import deal_row, described
from scoring.selectors import seats_of, stored_deals
from scoring.services.errors import (
    DatabaseBusy,
    DealAlreadyRecorded,
    DealChanged,
    DealRecordedDifferently,
    DealWasUndone,
    GameFull,
    ScoringError,
    database_busy,
)
from scoring.services.sent_facts import senders_kept
from scoring.services.totals import (
    facts_and_times,
    history_line,
    lock_game,
    normalised,
    recompute,
    recompute_appended,
    refresh_from,
    replay_facts,
    scored_deal,
    store_scores,
    update_scores,
)


def given_facts(
    facts: DealResult | None,
    cards_left: Sequence[int] | None,
    out_on_twos: bool,
    twos_held: Sequence[int] | None,
) -> DealResult:
    """The deal's facts: `facts` itself, or for the score sheet of cards left (and twos) the
    three of them as a `DealResult`."""
    if facts is not None:
        return facts
    return DealResult(
        None if cards_left is None else tuple(cards_left),
        out_on_twos,
        None if twos_held is None else tuple(twos_held),
    )


def record_deal(
    *,
    game: Game,
    number: int,
    token: uuid.UUID,
    by: AbstractBaseUser,
    facts: DealResult | None = None,
    cards_left: Sequence[int] | None = None,
    out_on_twos: bool = False,
    twos_held: Sequence[int] | None = None,
    seats: Sequence[Seat] | None = None,
    scored: ScoredDeal | None = None,
) -> RecordedDeal:
    """Record deal `number` with its `facts`, as the game's rules take them (see
    `rules.deal_score.facts_wanted`); or, for a deal of cards left, with each seat's
    `cards_left` in seat order (and under the twos rules `out_on_twos` and `twos_held`).

    `seats` and `scored` spare reading and scoring again what the caller has just read and
    scored (see `AsRead`). What was written comes back (`RecordedDeal`) with `game` brought up
    to date: the caller shows the game as the write left it without reading it again.

    The deal is scored by `rules.deal_score.score_deal`: a deal it refuses is InvalidDeal,
    naming every problem. A game has at most settings.GAME_MAX_DEALS deals: the next is
    GameFull. The game row is locked for the whole transaction, so two phones
    sending the same deal queue up: the second finds the number taken and is told so. A resend
    of the same form (same token) returns the deal it already recorded, so a double tap or a
    retry records one deal; a resend with other facts is refused, saying what is recorded.
    """
    sent = given_facts(facts, cards_left, out_on_twos, twos_held)
    read = AsRead(game.version, seats, scored)
    with deal_write_refusals(number):
        recorded, locked = _record_deal(game, number, sent, token, by, read)
    refresh_from(game, locked)
    return recorded


@contextmanager
def deal_write_refusals(number: int) -> Iterator[None]:
    """A write of deal `number` that the database refused, said as the scorer hears it."""
    try:
        yield
    except IntegrityError as error:
        # Only reachable if the row lock were bypassed: the database's unique constraint on
        # (game, number) still refuses the second deal, and the scorer hears it plainly.
        raise DealAlreadyRecorded(
            _("Deal %(number)s was already recorded") % {"number": number}
        ) from error
    except OperationalError as error:
        if not database_busy(error):
            raise
        raise DatabaseBusy(number) from error


@dataclass(frozen=True, slots=True)
class RecordedDeal:
    """What `record_deal` did: the `deal`; and, if this call recorded it (a resend of a deal
    already recorded writes nothing: both None), the deal as scored and the game's seats, in
    order, as the write left them. The game's version is then the one this deal made."""

    deal: Deal
    scored: ScoredDeal | None = None
    seats: list[Seat] | None = None


@dataclass(frozen=True, slots=True)
class AsRead:
    """What the caller of a deal's write has read and scored already: the game's `version`
    when read, its `seats` then (in order, with their players) and the deal as `score_deal`
    scored it from the form."""

    version: int
    seats: Sequence[Seat] | None = None
    scored: ScoredDeal | None = None


def seats_as_read(locked: Game, read: AsRead) -> list[Seat]:
    """The game's seats under its lock: the caller's, if the game is still at the version they
    were read at (every change to the seats counts it up in its own transaction), else read
    here. The one check that what the caller read before the lock still holds."""
    if read.seats and locked.version == read.version:
        return list(read.seats)
    return seats_of(locked)


def scored_as_read(locked: Game, read: AsRead, sent: DealResult, seats: list[Seat]) -> ScoredDeal:
    """The deal `sent`, as the caller scored it if that is the score of these facts under the
    game's rules; else scored here (InvalidDeal if the rules refuse it)."""
    scored = read.scored
    if scored and scored.rules == locked.ruleset and scored.facts == normalised(sent, scored.rules):
        return scored
    return scored_deal(sent, seats, locked)


def _record_deal(
    game: Game,
    number: int,
    sent: DealResult,
    token: uuid.UUID,
    by: AbstractBaseUser,
    read: AsRead,
) -> tuple[RecordedDeal, Game]:
    with transaction.atomic():
        locked = lock_game(game)
        return record_locked(locked, number, sent, token, by, read), locked


def record_locked(
    locked: Game,
    number: int,
    sent: DealResult,
    token: uuid.UUID,
    by: AbstractBaseUser,
    read: AsRead,
) -> RecordedDeal:
    """`record_deal`'s checks and writes, on the game row `locked` by the caller's transaction:
    the one path every deal is recorded by, from the whole-table form or from the players'
    own phones (`scoring.services.filling`)."""
    # Looked up after the lock: a resend that waited for an undo to commit sees its line.
    used = _token_use(token)
    if used is not None:
        if used.game_id != locked.pk:
            raise ScoringError(_("This form was already used for another game; reload the page"))
        if used.deal_id is None:
            raise DealWasUndone(used.number)
        return RecordedDeal(_same_deal(locked, used, sent))
    seats = seats_as_read(locked, read)
    # Every seat plays every deal, and its count is kept in the transaction that adds or
    # takes back one: no need to ask the deals for the last number.
    last = seats[0].deals_played
    if number <= last:
        raise DealAlreadyRecorded(
            _("Deal %(number)s was already recorded — the scoreboard now shows it")
            % {"number": number}
        )
    check_next_deal(locked, number, last)
    scored = scored_as_read(locked, read, sent, seats)
    deal = Deal.objects.create(
        game=locked, number=number, token=token, recorded_by=by, **deal_row(scored.facts)
    )
    entered_by = senders_kept(locked, number, scored, by) if locked.own_counts else None
    store_scores(deal, seats, scored, entered_by or [by] * len(seats))
    history_line(
        locked, by, GameChange.Action.RECORD, number, after=scored.facts, senders=entered_by
    )
    last_if_time_is_up(locked, deal)
    recompute_appended(locked, seats, deal, scored)
    return RecordedDeal(deal, scored, seats)


def check_next_deal(locked: Game, number: int, last: int) -> None:
    """Refused unless deal `number` can be recorded next after deal `last` of the game."""
    if number != last + 1:
        raise ScoringError(
            _("The next deal is deal %(next)s, not deal %(number)s")
            % {"next": last + 1, "number": number}
        )
    if locked.is_finished:
        raise ScoringError(_("The game is over — no more deals can be recorded"))
    # Past this, every read and replay of the game would cost more than a page should.
    if last >= (most := settings.GAME_MAX_DEALS):
        raise GameFull(most=most, open_ended=locked.ruleset.finish is Finish.OPEN)


def last_if_time_is_up(locked: Game, deal: Deal) -> None:
    """The game's time ran out before `deal`, just added, was recorded, and it has no last deal
    yet: this one is, and ends the game (saved with the result by `recompute_appended`)."""
    closes_at = locked.closes_at
    if locked.last_deal is None and closes_at is not None and deal.recorded_at >= closes_at:
        locked.last_deal = deal.number


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


def _same_deal(game: Game, used: TokenUse, sent: DealResult) -> Deal:
    """The deal the form recorded, if what it sends now is what is stored (every fact the
    form sends: cards left, the twos, places, points, the dragon, who paid); refused if not,
    saying what is stored."""
    rules = game.ruleset
    (stored,) = stored_deals(game, number=used.number)
    if normalised(sent, rules) != stored.facts:
        names = [seat.player.name for seat in seats_of(game)]
        raise DealRecordedDifferently(
            _(
                "Deal %(number)s is already recorded as %(cards)s;"
                " edit deal %(number)s to change it."
            )
            % {"number": used.number, "cards": described(stored.facts, rules, names)}
        )
    return Deal.objects.get(pk=used.deal_id)


@dataclass(frozen=True, slots=True)
class UndoneDeal:
    """A deal taken back: its number and its facts, for the deal form to offer again."""

    number: int
    facts: DealResult


def undo_last_deal(*, game: Game, by: AbstractBaseUser, number: int | None = None) -> UndoneDeal:
    """Take back the last deal and return its number and facts.

    `number`, when given, is the deal the user confirmed undoing: if that deal is no longer the
    last (a double tap, or someone else undid or recorded meanwhile) nothing more is undone.
    """
    with transaction.atomic():
        locked = lock_game(game)
        last = Deal.objects.filter(game=locked).order_by("-number").first()
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
        (stored,) = stored_deals(locked, number=last.number)
        undone = UndoneDeal(last.number, stored.facts)
        last.delete()
        # Taking a deal back reopens a match the scorekeeper had ended: it ended on that deal.
        # So with the last deal of a game whose time ran out: the time is still up, so the next
        # deal recorded is the last again.
        locked.ended = False
        if locked.last_deal == last.number:
            locked.last_deal = None
        locked.save(update_fields=["ended", "last_deal"])
        # The line keeps the deal form's token: that form sent again records nothing.
        history_line(
            locked, by, GameChange.Action.UNDO, undone.number, before=undone.facts, token=last.token
        )
        recompute(locked)
    refresh_from(game, locked)
    return undone


def edit_deal(
    *,
    game: Game,
    number: int,
    by: AbstractBaseUser,
    facts: DealResult | None = None,
    cards_left: Sequence[int] | None = None,
    out_on_twos: bool = False,
    twos_held: Sequence[int] | None = None,
    replacing: DealResult | None = None,
    seats: Sequence[Seat] | None = None,
    scored: ScoredDeal | None = None,
) -> Deal:
    """Correct a recorded deal: its `facts` (or `cards_left` and the twos, as `record_deal`
    takes them); totals and the end are worked out again. `seats` and `scored`: what the
    caller has read and scored already (see `AsRead`).

    `replacing`, when given, is the deal as the scorekeeper was shown it: if it has changed
    since (on another phone), DealChanged is raised and nothing is written. A deal that already
    holds the `facts` is left as it is, so a double tap or a resend corrects it once.

    Refused when the corrected deals would end the game before its last recorded deal.
    """
    sent = given_facts(facts, cards_left, out_on_twos, twos_held)
    read = AsRead(game.version, seats, scored)
    with transaction.atomic():
        locked = lock_game(game)
        deal = Deal.objects.filter(game=locked, number=number).first()
        if deal is None:
            raise ScoringError(_("There is no deal %(number)s in this game") % {"number": number})
        seats = seats_as_read(locked, read)
        scored = scored_as_read(locked, read, sent, seats)
        # Read and replayed once, with the correction in: what is checked is what is stored.
        every_deal, recorded_at = facts_and_times(locked)
        was = every_deal[number]
        if was == scored.facts:
            return deal
        if replacing is not None and normalised(replacing, locked.ruleset) != was:
            raise DealChanged(number)
        every_deal[number] = scored.facts
        replayed = replay_facts(locked, every_deal)
        if replayed.ends_before_last_deal:
            raise ScoringError(
                _(
                    "With this change the game would have ended after deal %(after)s,"
                    " but %(count)s deals are recorded — undo the later deals first"
                )
                % {"after": replayed.finished_after, "count": len(replayed.deals)}
            )
        update_scores(deal, scored)
        history_line(locked, by, GameChange.Action.EDIT, number, before=was, after=scored.facts)
        recompute(locked, replayed=(replayed, recorded_at), seats=seats)
    refresh_from(game, locked)
    return deal
