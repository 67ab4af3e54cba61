"""A member's clubs, a club's page, joining one by its invite link, a new invite link."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from common.http import HtmxHttpRequest
from scoring import selectors, services
from scoring.forms import ClubForm
from scoring.selectors.snapshot import read_snapshot
from scoring.views.pages import render_standings, season_context
from scoring.views.sharing import invite_link


@login_required
@require_http_methods(["GET", "POST"])
def clubs(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            club = services.create_club(name=form.cleaned_data["name"], owner=request.user)
        except services.ScoringError as error:
            form.add_error("name", error.message)
        else:
            messages.success(
                request,
                _("%(club)s is ready. Start a game, or invite people.") % {"club": club.name},
            )
            return redirect("scoring:club", club_id=club.pk)
    my_clubs = selectors.clubs_of(request.user)
    return render(request, "scoring/clubs.html", {"form": form, "clubs": my_clubs})


@login_required
@require_GET
@read_snapshot()
@vary_on_headers("HX-Request")
def club(request: HtmxHttpRequest, club_id: int) -> HttpResponse:
    """The club's home: the current season's standings and games, roster, members, invite."""
    club = selectors.member_club(request.user, club_id)
    current = club.seasons.get(is_current=True)
    context = season_context(request, current)
    # A season's rules can change until its first game starts (one query, for the owner only).
    rules_open = bool(context["is_owner"]) and not current.games.exists()
    invite_url = invite_link(request, club) if context["is_owner"] else None
    return render_standings(
        request,
        "scoring/club.html",
        context
        | {
            "invite_url": invite_url,
            "rules_open": rules_open,
            "players": club.players.all(),
            "members": club.memberships.select_related("user", "player"),
        },
    )


@login_required
@require_POST
def reset_invite(request: HttpRequest, club_id: int) -> HttpResponse:
    club = selectors.member_club(request.user, club_id)
    services.reset_invite(club=club, by=request.user)
    messages.success(request, _("The invite link is new. The old one no longer works."))
    return redirect("scoring:club", club_id=club.pk)


@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, token: str) -> HttpResponse:
    """The invite link: "Join Friday table". Signed out, it says which club it is for and leads
    to signing up (which joins at once, see `accounts.views.signup`) or logging in (which comes
    back here); any token but the club's current one is "not found", whoever asks."""
    club = selectors.club_by_invite(token)
    if club is None:
        return render(request, "scoring/join_invalid.html", status=404)
    if not request.user.is_authenticated:
        if request.method == "POST":
            return redirect_to_login(request.get_full_path())
        return render(request, "scoring/join.html", {"club": club, "signed_out": True})
    if request.method == "POST":
        try:
            services.join_club(token=token, user=request.user)
        except services.ScoringError:  # the owner reset the link since it was read above
            return render(request, "scoring/join_invalid.html", status=404)
        messages.success(request, _("You're a member of %(club)s.") % {"club": club.name})
        return redirect("scoring:club", club_id=club.pk)
    already = selectors.is_member(club, request.user)
    return render(request, "scoring/join.html", {"club": club, "already": already})
