"""The club's head-to-head: every player against every other, as one table."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from scoring import selectors
from scoring.head_to_head import club_matrix
from scoring.snapshot import read_snapshot


@login_required
@require_GET
@read_snapshot()
def club_head_to_head(request: HttpRequest, club_id: int) -> HttpResponse:
    club = selectors.member_club(request.user, club_id)
    return render(request, "scoring/head_to_head.html", {"club": club, "matrix": club_matrix(club)})
