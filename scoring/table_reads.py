"""The reads behind every request of a table's phones (the game page, a record, a board fetch,
the standings), their SQL built once per process (common/prepared.py): for these one-row
reads, building the SQL cost more than the database's work.

The rest of the app finds them through `scoring.selectors`, which passes them ids (not
objects) and turns an empty answer into a 404 where a page needs one.
"""

from __future__ import annotations

from django.db.models import QuerySet

from common.prepared import PreparedQuery
from scoring.models import DealScore, Game, GameChange, Season, Seat

member_game = PreparedQuery(
    lambda game_id, user_id: Game.objects.select_related("club", "season").filter(
        pk=game_id, club__memberships__user=user_id
    ),
    "game_id",
    "user_id",
)

member_game_version = PreparedQuery(
    lambda game_id, user_id: Game.objects.filter(
        pk=game_id, club__memberships__user=user_id
    ).values_list("pk", "version"),
    "game_id",
    "user_id",
)


def seats_in_order() -> QuerySet[Seat]:
    """Seats with their players, clockwise from seat 0."""
    return Seat.objects.select_related("player").order_by("position")


def with_their_game(seats: QuerySet[Seat]) -> QuerySet[Seat]:
    """`seats` in order with their players, and beside them their game with its club and
    season: a board's one query."""
    return seats.select_related("player", "game__club", "game__season").order_by("position")


board_seats = PreparedQuery(
    lambda game_id: with_their_game(Seat.objects.filter(game_id=game_id)), "game_id"
)

member_board_seats = PreparedQuery(
    lambda game_id, user_id: with_their_game(
        Seat.objects.filter(game_id=game_id, game__club__memberships__user=user_id)
    ),
    "game_id",
    "user_id",
)

seats_of = PreparedQuery(lambda game_id: seats_in_order().filter(game_id=game_id), "game_id")

member_season_and_menu = PreparedQuery(
    lambda season_id, user_id: Season.objects.filter(
        club__seasons=season_id, club__memberships__user=user_id
    ).select_related("club"),
    "season_id",
    "user_id",
)

_DEAL_FIELDS = ("number", "out_on_twos", "last_play_twos", "dragon_seat", "payer_seat")
_SEAT_FIELDS = ("cards_left", "twos_held", "place", "points", "penalty")

# Every score of the game's deals in deal and seat order, as plain values.
deal_score_rows = PreparedQuery(
    lambda game_id: (
        DealScore.objects.filter(deal__game=game_id)
        .order_by("deal__number", "seat__position")
        .values_list(*(f"deal__{field}" for field in _DEAL_FIELDS), *_SEAT_FIELDS)
    ),
    "game_id",
)

# The newest line of the game's history, with who wrote it: what a deal just recorded added.
newest_change = PreparedQuery(
    lambda game_id: GameChange.objects.filter(game=game_id).select_related("by")[:1], "game_id"
)
