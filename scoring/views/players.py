"""A player's page: their games, their line in each season, their average a deal."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from scoring import selectors
from scoring.charts import average_penalty_chart
from scoring.presenters.tables import played_games
from scoring.snapshot import read_snapshot


@login_required
@require_GET
@read_snapshot()
def player(request: HttpRequest, player_id: int) -> HttpResponse:
    player = selectors.member_player(request.user, player_id)
    played = played_games(player, selectors.games_of_player(player))
    per_season = selectors.standings_by_season(player)
    finished = [entry for entry in played if entry.game.is_finished]
    return render(
        request,
        "scoring/player.html",
        {
            "player": player,
            "club": player.club,
            "played": list(reversed(played)),
            "per_season": per_season,
            "chart": average_penalty_chart([entry.average for entry in finished]),
        },
    )
