"""A club's ratings as JSON (see docs/ratings.md)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from scoring import selectors
from scoring.selectors import ratings
from scoring.selectors.rating_model import MODEL_NAME


@login_required
@require_GET
def ratings_json(request: HttpRequest, club_id: int) -> JsonResponse:
    """Every player with a finished game: μ, σ, the rating shown (μ − 3σ) and their games,
    the highest rating first."""
    club = selectors.member_club(request.user, club_id)
    return JsonResponse({"model": MODEL_NAME, "players": ratings.table(club.pk)})


@require_GET
def ratings_help(request: HttpRequest) -> HttpResponse:
    """What the rating is, for anyone: the link under every table that shows one."""
    return render(request, "scoring/ratings_help.html")
