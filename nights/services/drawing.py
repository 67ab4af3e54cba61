"""A club night drawn (`draw_night`), and who is here changed with the rounds to come drawn
again (`change_who_is_here`).

The draw itself (`rules.seating.draw`) runs before the transaction, never under the write lock:
the night's version, read with what was drawn against and checked under the lock, says whether
another phone changed the night meanwhile, and then the draw is made again on what it wrote.
A draw is made only when it will be kept: a night or redraw that will be refused is refused
first, and a redraw that changes nothing draws nothing. Draws take turns in a process
(`DRAW_TURN`), and each turn ends once its night is written: a form sent twice at once draws
once, and its second answer finds the night the first drew.
"""

from __future__ import annotations

import secrets
import threading
import uuid
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from nights.models import MOST_PLAYERS, MOST_ROUNDS, Attendee, Night, Round, RoundSeat
from rules import seating
from rules.deal_checks import and_list
from rules.ruleset import parse_rules
from scoring import services as scoring
from scoring.models import Club, Game, Player, Season
from scoring.names import name_key
from scoring.services import ScoringError

# A player in the draw: their name's key (`scoring.names.name_key`), the same for a name new
# tonight and, once added, for its player, so that a resend draws what the first send drew.
Key = str
# How often a write draws again when another phone changed the night between its read and
# its write; more than this and the organiser is asked to look again.
REDRAW_TRIES = 3
# One draw at a time in a process. A draw is CPU alone (at most a tenth of a second of a core,
# rules.seating.SEARCH_WORK), and Python runs one thread's at a time: draws side by side would
# each end no sooner, and would slow every page the process serves meanwhile. Past
# DRAW_WAIT_SECONDS of waiting for its turn, a draw is refused in words.
DRAW_TURN = threading.Lock()
DRAW_WAIT_SECONDS = 5


@contextmanager
def _turn_to_draw() -> Iterator[None]:
    if not DRAW_TURN.acquire(timeout=DRAW_WAIT_SECONDS):
        raise ScoringError(
            _("The server is busy drawing seats for other nights: send the form again in a moment")
        )
    try:
        yield
    finally:
        DRAW_TURN.release()


def draw_night(
    *,
    club: Club,
    here: Sequence[Player],
    new_names: Sequence[str],
    rounds: int,
    round_minutes: int | None,
    token: uuid.UUID,
    by: AbstractBaseUser,
    own_counts: bool = False,
) -> Night:
    """A night in the club's current season for the players `here` and the `new_names`
    (added to the roster), every round drawn now. The form's `token` makes a resend find the
    night it drew. `own_counts`: the night's games are played with each player entering their
    own cards."""
    season = Season.objects.get(club=club, is_current=True)
    table_size = parse_rules(season.rules).players
    keys = _keys(here, new_names)
    _check_count(len(keys), table_size)
    if not 1 <= rounds <= MOST_ROUNDS:
        raise ScoringError(_("Rounds must be from 1 to %(most)s") % {"most": MOST_ROUNDS})
    with _turn_to_draw():
        if (done := _drawn_with(token, club)) is not None:
            return done
        _listed_and_new(club, new_names)
        seed = secrets.randbelow(2**31)
        drawn = seating.draw(keys, rounds, seed=seed, table_size=table_size)
        night = Night(
            club=club,
            season=season,
            created_by=by,
            token=token,
            seed=seed,
            rounds=rounds,
            round_minutes=round_minutes,
            table_size=table_size,
            own_counts=own_counts,
        )
        return _store_night(night, here=here, new_names=new_names, drawn=drawn)


def _drawn_with(token: uuid.UUID, club: Club) -> Night | None:
    """The night a night form's `token` already drew."""
    done = Night.objects.filter(token=token).first()
    if done is not None and done.club_id != club.pk:
        raise ScoringError(_("This form was already used for another club; reload the page"))
    return done


def _store_night(
    night: Night,
    *,
    here: Sequence[Player],
    new_names: Sequence[str],
    drawn: Sequence[seating.Round],
) -> Night:
    """The `night` drawn, with its players (the new names added to the roster), saved; or the
    night its form drew already (a resend from another process)."""
    with transaction.atomic():
        scoring.lock_club(night.club)
        if (done := _drawn_with(night.token, night.club)) is not None:
            return done
        night.save()
        players = _players(night.club, here, new_names)
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


def _listed_and_new(
    club: Club, new_names: Sequence[str], night: Night | None = None
) -> tuple[dict[Key, Player], dict[Key, str]]:
    """The `new_names` already on `night`'s list (the same form sent again) as their players,
    and the others by key. Refused: one already on the roster, since it is a box to tick."""
    listed: dict[Key, Player] = {}
    new = {name_key(name): name for name in new_names}
    on_list = Attendee.objects.filter(night=night) if night is not None else Attendee.objects.none()
    for player in club.players.filter(name_key__in=new, pk__in=on_list.values("player_id")):
        listed[player.name_key] = player
        del new[player.name_key]
    taken = list(club.players.filter(name_key__in=new).values_list("name", flat=True))
    if taken:
        raise ScoringError(
            _("Already on the club's roster: %(names)s. Tick them under “Who is here” instead")
            % {"names": and_list(taken)}
        )
    return listed, new


def _players(
    club: Club, here: Sequence[Player], new_names: Sequence[str], night: Night | None = None
) -> dict[Key, Player]:
    """Every player of the draw by key, the new names added to the roster (under the club's
    lock, refused as `_listed_and_new` refuses)."""
    listed, new = _listed_and_new(club, new_names, night)
    players: dict[Key, Player] = {player.name_key: player for player in here} | listed
    for key, name in new.items():
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
) -> bool:
    """Who is here now (the roster's players `here`, and `new_names` added to the roster), and
    the rounds not started yet drawn again around the rounds already played, which never
    change. Refused, nothing written: a player ticked off while seated at a table still
    playing, and fewer players than a table. Whether it drew: not when the rounds to come seat
    these players already (nothing changed, or the same form sent again), and then nothing is
    written."""
    keys = _keys(here, new_names)
    _check_count(len(keys), night.table_size)
    with _turn_to_draw():
        for _try in range(REDRAW_TRIES):
            if _seated_already(night, set(keys)):
                return False
            _listed_and_new(night.club, new_names, night)
            _refuse_leaving_a_table(night, set(keys))
            if _store_redraw(night, here, new_names, _draw_rest(night, keys)):
                return True
    raise ScoringError(_("The night kept changing on another phone: look at it, then try again"))


def _seated_already(night: Night, keys: set[Key]) -> bool:
    """Whether the night's list has exactly `keys` here and every round to come seats them at
    full tables (a player since removed from the roster leaves theirs short)."""
    listed = Attendee.objects.filter(night=night, here=True)
    if set(listed.values_list("player__name_key", flat=True)) != keys:
        return False
    planned = Round.objects.filter(night=night, started_at__isnull=True)
    seats = RoundSeat.objects.filter(round__in=planned)
    players: dict[int, set[Key]] = {
        round_id: set() for round_id in planned.values_list("pk", flat=True)
    }
    seated: Counter[tuple[int, int | None]] = Counter()
    for round_id, table, key in seats.values_list("round_id", "table", "player__name_key"):
        players[round_id].add(key)
        seated[round_id, table] += 1
    full = len(keys) // night.table_size
    return all(
        found == keys
        and sum(seated[round_id, t] == night.table_size for t in range(1, full + 1)) == full
        for round_id, found in players.items()
    )


def _store_redraw(
    night: Night, here: Sequence[Player], new_names: Sequence[str], drawn: _Drawn
) -> bool:
    """The rounds to come as `drawn`, with who is here; not if the night changed since the
    version they were drawn against."""
    with transaction.atomic():
        scoring.lock_club(night.club)
        locked = Night.objects.select_for_update(no_key=True).get(pk=night.pk)
        if locked.version != drawn.version:
            return False
        players = _players(night.club, here, new_names, locked)
        _refuse_leaving_a_table(locked, set(players))
        _mark_who_is_here(locked, players)
        RoundSeat.objects.filter(round__night=locked, round__number__gte=drawn.first).delete()
        _store(locked, drawn.rounds, first=drawn.first, players=players)
        _changed(locked)
    return True


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


def _refuse_leaving_a_table(night: Night, staying: set[Key]) -> None:
    playing = RoundSeat.objects.filter(
        round__night=night,
        round__started_at__isnull=False,
        table__isnull=False,
        round__tables__number=F("table"),
        round__tables__game__status=Game.Status.IN_PROGRESS,
    ).exclude(player__name_key__in=staying)
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
