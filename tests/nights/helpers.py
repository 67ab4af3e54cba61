"""A club with a night drawn, as the tests of nights need one."""

from __future__ import annotations

import uuid

from nights import services
from nights.models import Night
from scoring.models import Club, Game
from tests.factories import make_club, make_player

NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lu", "Max"]


def club_with_players(count: int = 13) -> Club:
    club = make_club()
    for name in NAMES[:count]:
        make_player(club, name)
    return club


def draw(club: Club, count: int = 13, rounds: int = 3, **options: object) -> Night:
    here = list(club.players.order_by("pk")[:count])
    return services.draw_night(
        club=club,
        here=here,
        new_names=options.pop("new_names", []),
        rounds=rounds,
        round_minutes=options.pop("round_minutes", None),
        token=options.pop("token", uuid.uuid4()),
        own_counts=options.pop("own_counts", False),
        by=club.owner,
    )


def games_of(night: Night, number: int) -> list[Game]:
    return list(
        Game.objects.filter(
            night_table__round__night=night, night_table__round__number=number
        ).order_by("night_table__number")
    )
