"""Every read of a club night: a night found through the user's memberships (someone else's
club's night is a 404) or by its TV link, its plan round by round with each table's game and
live totals, its standings, and where a member's player sits tonight."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import Prefetch, Sum
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone

from nights.models import Attendee, Night, Round, RoundSeat, Table
from rules import seating
from scoring.models import Game, Player, Seat, SentFacts, token_digest
from scoring.presenters.wording import names_and
from scoring.selectors.clubs import member_id
from scoring.selectors.snapshot import read_snapshot
from scoring.selectors.standings import Standing, standings

PLANNED, PLAYING, DONE = "planned", "playing", "done"
# The standings' lines the TV shows: as many as fit beside six tables of four at 1280x720 (the
# whole table is on the night's page, which the TV's code opens).
TV_STANDINGS = 8


def member_night(user: AbstractBaseUser, night_id: int) -> Night:
    return get_object_or_404(
        Night.objects.select_related("club", "season"),
        pk=night_id,
        club__memberships__user=member_id(user),
    )


# How many of a club's latest nights the night form lists, to get back to one.
RECENT_NIGHTS = 5


def recent_nights(club_id: int) -> list[Night]:
    """The club's latest nights, newest first (one query)."""
    return list(
        Night.objects.filter(club_id=club_id).order_by("-created_at", "-pk")[:RECENT_NIGHTS]
    )


def night_on_tv(token: str) -> Night:
    """The night whose TV link carries `token`; a stopped or wrong link is not found."""
    night = (
        Night.objects.select_related("club", "season")
        .filter(tv_digest=token_digest(token), tv_token__isnull=False)
        .first()
    )
    if night is None:
        raise Http404
    return night


def night_state(night_id: int) -> int:
    """A number that changes whenever anything the night's board shows does: its own version
    plus its games' (each only ever goes up). One query."""
    night = Night.objects.filter(pk=night_id).values("version").first()
    if night is None:
        raise Http404
    games = Game.objects.filter(night_table__round__night_id=night_id)
    return night["version"] + (games.aggregate(total=Sum("version"))["total"] or 0)


@dataclass(frozen=True, slots=True)
class PlannedTable:
    number: int
    players: tuple[Player, ...]  # clockwise from seat 1
    game: Game | None = None
    # Each seat's total so far, clockwise, once the table's game has started.
    totals: tuple[int, ...] = ()
    # A game played with own counts: the players whose figure of the deal is still to come.
    waiting: tuple[str, ...] = ()

    @property
    def waiting_text(self) -> str:
        return names_and(self.waiting) if self.waiting else ""

    @property
    def seated(self) -> tuple[tuple[Player, int | None], ...]:
        """Each player clockwise with their total so far (None before the game starts)."""
        totals = self.totals or (None,) * len(self.players)
        return tuple(zip(self.players, totals, strict=True))


@dataclass(frozen=True, slots=True)
class RoundPlan:
    round: Round
    tables: tuple[PlannedTable, ...]
    sitting_out: tuple[Player, ...]
    status: str

    @property
    def number(self) -> int:
        return self.round.number

    @property
    def time_up(self) -> bool:
        """The round's clock has run out (as the page is rendered)."""
        return self.round.closes_at is not None and timezone.now() >= self.round.closes_at


@dataclass(frozen=True, slots=True)
class NightPlan:
    night: Night
    rounds: tuple[RoundPlan, ...]
    attendees: tuple[tuple[Player, bool], ...]  # every player on the list, and if here now
    standings: tuple[Standing, ...]

    @property
    def playing(self) -> RoundPlan | None:
        return next((plan for plan in self.rounds if plan.status == PLAYING), None)

    @property
    def next_to_start(self) -> RoundPlan | None:
        """The first round not started, once every round before it is done."""
        for plan in self.rounds:
            if plan.status == PLAYING:
                return None
            if plan.status == PLANNED:
                return plan
        return None

    @property
    def shown_round(self) -> RoundPlan | None:
        """The round the room looks at: the one being played, else the next one to start,
        else the last one (the night is over)."""
        return self.playing or self.next_to_start or (self.rounds[-1] if self.rounds else None)

    @property
    def is_over(self) -> bool:
        return bool(self.rounds) and all(plan.status == DONE for plan in self.rounds)

    @property
    def pairs_meeting_again(self) -> int:
        """Pairs of players at one table in two rounds of the night or more, the rounds
        played and those planned counted: how far the draw fell short of new opponents."""
        rounds = [
            seating.Round(tuple(tuple(p.pk for p in table.players) for table in shown.tables))
            for shown in self.rounds
        ]
        return sum(count > 1 for count in seating.meetings(rounds).values())

    @property
    def tv_standings(self) -> tuple[Standing, ...]:
        return self.standings[:TV_STANDINGS]

    @property
    def standings_not_on_tv(self) -> int:
        return max(0, len(self.standings) - TV_STANDINGS)


def night_plan(night: Night) -> NightPlan:
    """The whole night as it stands, on one snapshot of the database (six queries; seven with
    a game played with own counts going on)."""
    with read_snapshot():
        rounds = list(Round.objects.filter(night=night).order_by("number"))
        seats = RoundSeat.objects.filter(round__night=night).select_related("player")
        tables = list(Table.objects.filter(round__night=night).select_related("game"))
        games = [table.game_id for table in tables if table.game_id is not None]
        game_seats = Seat.objects.filter(game_id__in=games).select_related("player")
        sent = _sent_seats(tables)
        attendees = Attendee.objects.filter(night=night).select_related("player")
        night_games = Game.objects.filter(night_table__round__night=night)
        return NightPlan(
            night=night,
            rounds=_rounds(rounds, list(seats), tables, list(game_seats), sent),
            attendees=tuple(
                sorted(
                    ((attendee.player, attendee.here) for attendee in attendees),
                    key=lambda line: line[0].name.casefold(),
                )
            ),
            standings=tuple(standings(night_games)),
        )


def _sent_seats(tables: list[Table]) -> set[int]:
    """The seats that sent their figure of the deal filling in, in the games played with own
    counts still going on (one query, and none without such a game)."""
    own = [
        table.game_id
        for table in tables
        if table.game is not None and table.game.own_counts and not table.game.is_finished
    ]
    if not own:
        return set()
    return set(SentFacts.objects.filter(filling__game_id__in=own).values_list("seat_id", flat=True))


def _rounds(
    rounds: list[Round],
    seats: list[RoundSeat],
    tables: list[Table],
    game_seats: list[Seat],
    sent: set[int],
) -> tuple[RoundPlan, ...]:
    seated: dict[tuple[int, int], list[RoundSeat]] = defaultdict(list)
    out: dict[int, list[Player]] = defaultdict(list)
    for seat in seats:
        if seat.table is None:
            out[seat.round_id].append(seat.player)
        else:
            seated[seat.round_id, seat.table].append(seat)
    by_game: dict[int, list[Seat]] = defaultdict(list)
    for seat in game_seats:
        by_game[seat.game_id].append(seat)
    started = {(table.round_id, table.number): table for table in tables}
    plans = []
    for round_ in rounds:
        numbers = sorted({table for (round_id, table) in seated if round_id == round_.pk})
        numbers += sorted(
            number
            for (round_id, number) in started
            if round_id == round_.pk and number not in numbers
        )
        shown = tuple(
            _table(
                number, seated[round_.pk, number], started.get((round_.pk, number)), by_game, sent
            )
            for number in numbers
        )
        plans.append(
            RoundPlan(
                round=round_,
                tables=shown,
                sitting_out=tuple(sorted(out[round_.pk], key=lambda p: p.name.casefold())),
                status=_status(round_, shown),
            )
        )
    return tuple(plans)


def _table(
    number: int,
    seats: list[RoundSeat],
    table: Table | None,
    by_game: dict[int, list[Seat]],
    sent: set[int],
) -> PlannedTable:
    if table is None or table.game is None:
        ordered = sorted(seats, key=lambda seat: seat.position or 0)
        return PlannedTable(number, tuple(seat.player for seat in ordered), game=None)
    # Once started, the game's own seats are the truth (a player renamed shows as now).
    in_game = sorted(by_game[table.game_id], key=lambda seat: seat.position)
    filling_in = table.game.own_counts and not table.game.is_finished
    return PlannedTable(
        number,
        tuple(seat.player for seat in in_game),
        game=table.game,
        totals=tuple(seat.total for seat in in_game),
        waiting=tuple(seat.player.name for seat in in_game if filling_in and seat.pk not in sent),
    )


def _status(round_: Round, tables: tuple[PlannedTable, ...]) -> str:
    if round_.started_at is None:
        return PLANNED
    if any(table.game is not None and not table.game.is_finished for table in tables):
        return PLAYING
    return DONE


@dataclass(frozen=True, slots=True)
class MySeat:
    """Where the user's own player sits in a round being played: "round 2: table 3, seat 2,
    after Ann"."""

    night: Night
    round_number: int
    table: int
    seat: int  # from 1
    after: str  # who plays just before: the player on their right
    game_id: int


def my_seats(user: AbstractBaseUser) -> list[MySeat]:
    """The user's seats at club-night games still being played (two queries; the user's player
    in each of their clubs, found through "This is me")."""
    if user.pk is None:
        return []
    tables = (
        Table.objects.filter(
            game__status=Game.Status.IN_PROGRESS,
            game__seats__player__member__user_id=user.pk,
        )
        .select_related("round__night__club", "game")
        .prefetch_related(
            Prefetch("game__seats", queryset=Seat.objects.select_related("player__member"))
        )
        .order_by("-round__started_at")[:5]
    )
    found = []
    for table in tables:
        seats = sorted(table.game.seats.all(), key=lambda seat: seat.position)
        mine = next(
            seat
            for seat in seats
            if seat.player.member is not None and seat.player.member.user_id == user.pk
        )
        before = seats[(mine.position - 1) % len(seats)]
        found.append(
            MySeat(
                night=table.round.night,
                round_number=table.round.number,
                table=table.number,
                seat=mine.position + 1,
                after=before.player.name,
                game_id=table.game_id,
            )
        )
    return found
