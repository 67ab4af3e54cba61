from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from nights.selectors import my_seats
from scoring import selectors
from scoring.models import Club, Game
from scoring.selectors.standings import own_lines

# How many games in progress the home page lists; the rest are counted on their clubs' lines.
HOME_GAMES = 5


@dataclass(frozen=True, slots=True)
class GameToContinue:
    """A line of the home page: "Continue: Ann · Ben · Cy · Dee, deal 7", and what tells it
    apart from another game of the same table: its club, season and the day it started (the
    time too, where another line has the same players, season and day)."""

    game: Game
    players: str
    next_deal: int
    same_day: bool = False

    @classmethod
    def of(cls, game: Game, same_day: bool) -> "GameToContinue":
        names = " · ".join(seat.player.name for seat in game.seats.all())
        return cls(game=game, players=names, next_deal=game.deals_had + 1, same_day=same_day)


def games_to_continue(games: list[Game]) -> list[GameToContinue]:
    def told_apart_by(game: Game) -> tuple[object, ...]:
        names = tuple(seat.player_id for seat in game.seats.all())
        return (names, game.season_id, timezone.localdate(game.created_at))

    keys = [told_apart_by(game) for game in games]
    return [
        GameToContinue.of(game, same_day=keys.count(key) > 1)
        for game, key in zip(games, keys, strict=True)
    ]


def club_last_played(clubs: list[Club]) -> Club | None:
    """Where a new game is most likely next: the club whose latest game started last, or, with
    no game anywhere yet, the club joined last."""
    if not clubs:
        return None
    played = [club for club in clubs if club.last_started is not None]
    if played:
        return max(played, key=lambda club: club.last_started)
    return max(clubs, key=lambda club: club.joined)


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """The site's tools; signed in, first the games to get back to, a new game at the club last
    played, the user's own figures and their clubs."""
    if not request.user.is_authenticated:
        return render(request, "home.html")
    games = games_to_continue(selectors.games_in_progress_of(request.user, most=HOME_GAMES))
    clubs = list(selectors.clubs_with_games_in_progress(request.user))
    playing = sum(club.playing for club in clubs)
    return render(
        request,
        "home.html",
        {
            "games": games,
            "clubs": clubs,
            "more_games": playing - len(games),
            "new_game_club": club_last_played(clubs),
            "own_lines": own_lines(request.user.pk),
            "my_seats": my_seats(request.user),
        },
    )


@require_GET
def ping(request: HttpRequest) -> HttpResponse:
    """A health check for a load balancer, and the load test's yardstick: the cheapest answer
    the site can give through its full middleware stack."""
    return HttpResponse("ok", content_type="text/plain")
