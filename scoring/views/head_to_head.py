"""The club's head-to-head: the players with the most games against each other, as one table,
and any other player's row against them."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from scoring import selectors
from scoring.forms.head_to_head import AskedPlayerForm
from scoring.selectors.head_to_head import club_matrix
from scoring.selectors.snapshot import read_snapshot
from scoring.views.pages import as_number


@login_required
@require_GET
@read_snapshot()
def club_head_to_head(request: HttpRequest, club_id: int) -> HttpResponse:
    club = selectors.member_club(request.user, club_id)
    matrix = club_matrix(club, asked=as_number(request.GET.get("player")))
    sent = request.GET if "player" in request.GET else None
    form = AskedPlayerForm(sent, others=matrix.others)
    if sent is not None:
        form.is_valid()  # a player who can't be added is said so beside the list
    return render(
        request, "scoring/head_to_head.html", {"club": club, "matrix": matrix, "form": form}
    )
