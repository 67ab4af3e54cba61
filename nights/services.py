"""Every write of a club night, each one transaction, refusing with `ScoringError` (its message
is meant for the organiser): a night drawn (`draw_night`), who is here changed and the rounds
to come drawn again (`change_who_is_here`), a round started as a game a table
(`start_round`), the TV link given or stopped (`show_on_tv`, `stop_tv`).

The draw itself (`rules.seating.draw`) runs before the transaction, never under the write lock:
the night's version, read with what was drawn against and checked under the lock, says whether
another phone changed the night meanwhile, and then the draw is made again on what it wrote.
"""

from __future__ import annotations

import datetime
import secrets
import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from nights.models import MOST_PLAYERS, MOST_ROUNDS, Attendee, Night, Round, RoundSeat, Table
from rules import seating
from rules.deal_checks import and_list
from rules.ruleset import parse_rules
from scoring import services as scoring
from scoring.models import Club, Game, Player, Season, new_share_token, token_digest
from scoring.names import name_key
from scoring.services import ScoringError

# A player in the draw: their name's key (`scoring.names.name_key`), the same for a name new
# tonight and, once added, for its player, so that a resend draws what the first send drew.
Key = str
# How often a write draws again when another phone changed the night between its read and
# its write; more than this and the organiser is asked to look again.
REDRAW_TRIES = 3


def draw_night(
    *,
    club: Club,
    here: Sequence[Player],
    new_names: Sequence[str],
    rounds: int,
    round_minutes: int | None,
    token: uuid.UUID,
    by: AbstractBaseUser,
) -> Night:
    """A night in the club's current season for the players `here` and the `new_names`
    (added to the roster), every round drawn now. The form's `token` makes a resend find the
    night it drew."""
    if (done := Night.objects.filter(token=token, club=club).first()) is not None:
        return done
    season = Season.objects.get(club=club, is_current=True)
    table_size = parse_rules(season.rules).players
    keys = _keys(here, new_names)
    _check_count(len(keys), table_size)
    if not 1 <= rounds <= MOST_ROUNDS:
        raise ScoringError(_("Rounds must be from 1 to %(most)s") % {"most": MOST_ROUNDS})
    seed = secrets.randbelow(2**31)
    drawn = seating.draw(keys, rounds, seed=seed, table_size=table_size)
    with transaction.atomic():
        scoring.lock_club(club)
        if (done := Night.objects.filter(token=token, club=club).first()) is not None:
            return done
        night = Night.objects.create(
            club=club,
            season=season,
            created_by=by,
            token=token,
            seed=seed,
            rounds=rounds,
            round_minutes=round_minutes,
            table_size=table_size,
        )
        players = _players(club, here, new_names)
        Attendee.objects.bulk_create(Attendee(night=night, player=p) for p in players.values())
        _store(night, drawn, first=1, players=players)
    return night


def _keys(here: Sequence[Player], new_names: Sequence[str]) -> list[Key]:
    keys = [player.name_key for player in here] + [name_key(name) for name in new_names]
    if len(set(keys)) != len(keys):
        raise ScoringError(_("A player is named twice: name each player once"))
    return keys


def _check_count(players: int, table_size: int) -> None:
    if players < table_size:
        raise ScoringError(
            ngettext(
                "A table needs %(size)s players and %(count)s is here: tick or add more",
                "A table needs %(size)s players and %(count)s are here: tick or add more",
                players,
            )
            % {"size": table_size, "count": players}
        )
    if players > MOST_PLAYERS:
        raise ScoringError(
            _("A night seats at most %(most)s players: split the room into two nights")
            % {"most": MOST_PLAYERS}
        )


def _players(
    club: Club, here: Sequence[Player], new_names: Sequence[str], night: Night | None = None
) -> dict[Key, Player]:
    """Every player of the draw by key, the new names added to the roster (under the club's
    lock). A new name already on the roster is refused, since it is a box to tick, unless it is
    on `night`'s list already: the same form sent again."""
    players: dict[Key, Player] = {player.name_key: player for player in here}
    keys = {name_key(name): name for name in new_names}
    listed = Attendee.objects.filter(night=night) if night is not None else Attendee.objects.none()
    for player in club.players.filter(name_key__in=keys, pk__in=listed.values("player_id")):
        players[player.name_key] = player
        del keys[player.name_key]
    taken = list(club.players.filter(name_key__in=keys).values_list("name", flat=True))
    if taken:
        raise ScoringError(
            _("Already on the club's roster: %(names)s. Tick them under “Who is here” instead")
            % {"names": and_list(taken)}
        )
    for key, name in keys.items():
        player = Player.named(name, club=club)
        player.save()
        players[key] = player
    return players


def _store(
    night: Night, drawn: Sequence[seating.Round], *, first: int, players: dict[Key, Player]
) -> None:
    """The drawn rounds stored as rounds `first`, `first` + 1, … of the night."""
    seats = []
    for number, drawn_round in enumerate(drawn, start=first):
        round_, _made = Round.objects.get_or_create(night=night, number=number)
        for table, keys in enumerate(drawn_round.tables, start=1):
            seats += [
                RoundSeat(round=round_, player=players[key], table=table, position=position)
                for position, key in enumerate(keys)
            ]
        seats += [RoundSeat(round=round_, player=players[key]) for key in drawn_round.sitting_out]
    RoundSeat.objects.bulk_create(seats)


@dataclass(frozen=True, slots=True)
class _Drawn:
    """The rounds to come as drawn against the night at `version`."""

    version: int
    first: int
    rounds: tuple[seating.Round, ...]


def change_who_is_here(
    *, night: Night, here: Sequence[Player], new_names: Sequence[str], by: AbstractBaseUser
) -> None:
    """Who is here now (the roster's players `here`, and `new_names` added to the roster), and
    the rounds not started yet drawn again around the rounds already played, which never
    change. Refused, nothing written: a player ticked off while seated at a table still
    playing, and fewer players than a table. Sent twice, it draws the same seats again."""
    keys = _keys(here, new_names)
    _check_count(len(keys), night.table_size)
    for _try in range(REDRAW_TRIES):
        drawn = _draw_rest(night, keys)
        with transaction.atomic():
            scoring.lock_club(night.club)
            locked = Night.objects.select_for_update(no_key=True).get(pk=night.pk)
            if locked.version != drawn.version:
                continue
            players = _players(night.club, here, new_names, locked)
            _refuse_leaving_a_table(locked, {player.pk for player in players.values()})
            _mark_who_is_here(locked, players)
            RoundSeat.objects.filter(round__night=locked, round__number__gte=drawn.first).delete()
            _store(locked, drawn.rounds, first=drawn.first, players=players)
            _changed(locked)
            return
    raise ScoringError(_("The night kept changing on another phone: look at it, then try again"))


def _draw_rest(night: Night, keys: list[Key]) -> _Drawn:
    """Draw the rounds not started, after the started ones (read with the night's version)."""
    version = Night.objects.values_list("version", flat=True).get(pk=night.pk)
    started = list(Round.objects.filter(night=night, started_at__isnull=False).order_by("number"))
    seats = (
        RoundSeat.objects.filter(round__in=started)
        .select_related("player")
        .order_by("table", "position")
    )
    played = []
    for round_ in started:
        mine = [seat for seat in seats if seat.round_id == round_.pk]
        tables: dict[int, list[Key]] = {}
        for seat in mine:
            if seat.table is not None:
                tables.setdefault(seat.table, []).append(seat.player.name_key)
        out = tuple(seat.player.name_key for seat in mine if seat.table is None)
        played.append(seating.Round(tuple(tuple(t) for t in tables.values()), out))
    left = night.rounds - len(started)
    rounds = seating.draw(keys, left, seed=night.seed, table_size=night.table_size, played=played)
    return _Drawn(version=version, first=len(started) + 1, rounds=rounds)


def _refuse_leaving_a_table(night: Night, staying: set[int]) -> None:
    playing = RoundSeat.objects.filter(
        round__night=night,
        round__started_at__isnull=False,
        table__isnull=False,
        round__tables__number=F("table"),
        round__tables__game__status=Game.Status.IN_PROGRESS,
    ).exclude(player_id__in=staying)
    leaving = sorted({seat.player.name for seat in playing.select_related("player")})
    if leaving:
        raise ScoringError(
            _(
                "Still at a table that is playing: %(names)s. Finish that game first,"
                " then tick them off"
            )
            % {"names": and_list(leaving)}
        )


def _mark_who_is_here(night: Night, players: dict[Key, Player]) -> None:
    ids = {player.pk for player in players.values()}
    listed = set(Attendee.objects.filter(night=night).values_list("player_id", flat=True))
    Attendee.objects.filter(night=night).update(here=False)
    Attendee.objects.filter(night=night, player_id__in=ids).update(here=True)
    Attendee.objects.bulk_create(
        Attendee(night=night, player_id=player_id) for player_id in sorted(ids - listed)
    )


def _changed(night: Night) -> None:
    Night.objects.filter(pk=night.pk).update(version=F("version") + 1)


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
            )
            Table.objects.create(round=round_, number=table, game=game)
        _changed(locked)
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
