from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from scoring import selectors
from scoring.models import Game

# How many games in progress the home page lists; the rest are counted on their clubs' lines.
HOME_GAMES = 5


@dataclass(frozen=True, slots=True)
class GameToContinue:
    """A line of the home page: "Continue: Ann · Ben · Cy · Dee, deal 7"."""

    game: Game
    players: str
    next_deal: int

    @classmethod
    def of(cls, game: Game) -> "GameToContinue":
        names = " · ".join(seat.player.name for seat in game.seats.all())
        return cls(game=game, players=names, next_deal=game.deals_had + 1)


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """The site's tools; signed in, first the games to get back to and the user's clubs."""
    if not request.user.is_authenticated:
        return render(request, "home.html")
    games = [
        GameToContinue.of(game)
        for game in selectors.games_in_progress_of(request.user, most=HOME_GAMES)
    ]
    clubs = list(selectors.clubs_with_games_in_progress(request.user))
    playing = sum(club.playing for club in clubs)
    return render(
        request,
        "home.html",
        {"games": games, "clubs": clubs, "more_games": playing - len(games)},
    )


@require_GET
def ping(request: HttpRequest) -> HttpResponse:
    """A health check for a load balancer, and the load test's yardstick: the cheapest answer
    the site can give through its full middleware stack."""
    return HttpResponse("ok", content_type="text/plain")
