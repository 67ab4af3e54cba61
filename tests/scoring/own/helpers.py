"""A game played with own counts: four members, each seated by their username (so each seat
is its member's), and each sending their own figure."""

from __future__ import annotations

import uuid

from scoring import services
from scoring.models import Club, Game
from scoring.services import OwnFacts, SentOwn
from tests.factories import make_club, make_member

NAMES = ("ann", "ben", "cy", "dee")


def own_game(club: Club | None = None, rules: str | None = None) -> Game:
    """A game of `club` (a new club unless given; its current season set to `rules` if given)
    played with own counts, seating its members ann, ben, cy and dee as the rules need."""
    club = club or make_club()
    for name in NAMES:
        if not club.memberships.filter(user__username=name).exists():
            make_member(club, name)
    season = club.seasons.get(is_current=True)
    if rules is not None:
        season.rules = rules
        season.save(update_fields=["rules"])
    players = season.ruleset.players
    return services.start_game(
        club=club, seat_names=list(NAMES[:players]), by=club.owner, own_counts=True
    )


def member(game: Game, position: int):
    """The member whose seat is at `position`."""
    return game.seats.get(position=position).player.member.user


def send(
    game: Game,
    position: int,
    cards_left: int | None = None,
    *,
    number: int = 1,
    token: uuid.UUID | None = None,
    by=None,
    **facts: int,
) -> SentOwn:
    """The seat at `position` sends its own figure for deal `number`, from its member's phone."""
    return services.send_own_facts(
        game=Game.objects.get(pk=game.pk),
        position=position,
        facts=OwnFacts(cards_left=cards_left, **facts),
        by=by or member(game, position),
        token=token or uuid.uuid4(),
        number=number,
    )


def entered_by(game: Game, number: int = 1) -> list[str | None]:
    deal = game.deals.get(number=number)
    return [
        score.entered_by.username if score.entered_by else None
        for score in deal.scores.order_by("seat__position").select_related("entered_by")
    ]
