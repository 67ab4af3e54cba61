"""Test data, made the way the site makes it: through `scoring.services`.

Plain functions, not fixtures, so that any test and any conftest's fixtures can call them
(fixtures stay in the conftest.py files). Every argument has a sensible default: a test names
only what it is about. Passwords are hashed with the fast hasher tests/conftest.py sets.
"""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Sequence
from datetime import datetime

from django.contrib.auth import get_user_model

from rules.deal_checks import DealResult
from rules.ruleset import parse_rules
from scoring import services
from scoring.models import Club, Deal, Game, Player, Season

PASSWORD = "a long passphrase 7"
PLAYERS = ("Ann", "Ben", "Cy", "Dee")

_numbers = itertools.count(1)


def make_user(username: str | None = None, password: str = PASSWORD):
    """An account (`user1`, `user2`, … unless named) that logs in with `password`."""
    username = username or f"user{next(_numbers)}"
    return get_user_model().objects.create_user(username=username, password=password)


def make_club(owner=None, name: str = "Friday table") -> Club:
    """A club (with its first season) owned by `owner`, or by a new account."""
    return services.create_club(name=name, owner=owner or make_user())


def make_player(club: Club, name: str) -> Player:
    """A player of `club`'s roster who has played no game yet."""
    player = Player.named(name, club=club)
    player.save()
    return player


def make_member(club: Club, username: str | None = None):
    """A new account that joined `club` by its invite link."""
    user = make_user(username)
    services.join_club(token=club.invite_token, user=user)
    return user


def make_game(
    club: Club | None = None,
    names: Sequence[str] = PLAYERS,
    by=None,
    season: Season | None = None,
    closes_at: datetime | None = None,
) -> Game:
    """A game in progress at `club` (a new club unless given), in its current season; with a
    clock running out at `closes_at` if given."""
    club = club or make_club()
    return services.start_game(
        club=club, seat_names=list(names), by=by or club.owner, season=season, closes_at=closes_at
    )


def record(
    game: Game,
    *cards_left: int,
    by=None,
    token: uuid.UUID | None = None,
    out_on_twos: bool = False,
    twos_held: Sequence[int] | None = None,
) -> Deal:
    """Record the next deal of `game`: each seat's cards left, and under the twos rule whether
    the winner went out on twos and each seat's twos held (`record(game, 0, 9, 1, 1,
    out_on_twos=True, twos_held=[0, 2, 0, 0])`)."""
    return services.record_deal(
        game=game,
        number=game.deals.count() + 1,
        cards_left=list(cards_left),
        token=token or uuid.uuid4(),
        by=by or game.club.owner,
        out_on_twos=out_on_twos,
        twos_held=None if twos_held is None else list(twos_held),
    ).deal


def make_deals(game: Game, count: int) -> None:
    """`count` deals that keep everyone far from 100 (one card each, seats taking turns out)."""
    for n in range(count):
        cards = [1, 1, 1, 1]
        cards[n % 4] = 0
        record(game, *cards)


def make_ruled_game(rules: str, names: Sequence[str] | None = None, club: Club | None = None):
    """A game played by the house rules named `rules` (`"finishing-order,3-players"`), in a
    new club (unless given) whose current season plays by them; seated with the first of
    PLAYERS as the rules need (or `names`)."""
    ruleset = parse_rules(rules)
    club = club or make_club()
    season = club.seasons.get(is_current=True)
    season.rules = ruleset.name
    season.save(update_fields=["rules"])
    return make_game(club, names or PLAYERS[: ruleset.players])


def record_facts(game: Game, by=None, token: uuid.UUID | None = None, **facts) -> Deal:
    """Record the next deal of `game` from its facts, as `rules.deal_checks.DealResult` names
    them (`record_facts(game, order=(2, 0, 3, 1))`, `record_facts(game, dragon=1)`)."""
    return services.record_deal(
        game=game,
        number=game.deals.count() + 1,
        token=token or uuid.uuid4(),
        by=by or game.club.owner,
        facts=DealResult(**facts),
    )


def finish(game: Game) -> Game:
    """Play `game` to its end under a target score: seat 1 goes out every deal while everyone
    else is caught with 13, so seat 1 wins. The game comes back as it now is."""
    seats = game.seats.count()
    while not game.is_finished:
        record(game, *([0] + [13] * (seats - 1)))
        game.refresh_from_db()
    return game


# What DJANGO_EMAIL_URL sets up, with the test runner's outbox as the mail server.
OUTBOX_MAILERS = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}
