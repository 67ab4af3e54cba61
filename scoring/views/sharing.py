"""The links passed round the table and their QR codes: a club's invite link (shown to its
owner only) and a game's live view link (anyone who has it may see it). The share panel,
templates/scoring/_share_panel.html, shows each link with "Copy link", "Share" and its code."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from scoring import selectors
from scoring.models import Club
from scoring.presenters.qr import qr_svg
from scoring.services import permissions


def invite_link(request: HttpRequest, club: Club) -> str:
    return request.build_absolute_uri(reverse("scoring:join", args=[club.invite_token]))


def live_link(request: HttpRequest, token: str) -> str:
    return request.build_absolute_uri(reverse("scoring:live", args=[token]))


@login_required
@require_GET
def invite_qr(request: HttpRequest, club_id: int) -> HttpResponse:
    club = selectors.member_club(request.user, club_id)
    permissions.check_may_share_invite(club=club, by=request.user)
    response = svg(qr_svg(invite_link(request, club), title=_("QR code for the invite link")))
    # A reset gives the club a new link under this same address: never reuse an old copy.
    patch_cache_control(response, private=True, no_cache=True)
    return response


@require_GET
def live_qr(request: HttpRequest, token: str) -> HttpResponse:
    """The live view link's code, for anyone with the link (a stopped or wrong link is "not
    found", as the live view itself is)."""
    if not selectors.shared_games(token).exists():
        raise Http404
    response = svg(qr_svg(live_link(request, token), title=_("QR code for the live view link")))
    # A token names one link for good: sharing again makes a new token, so a new address.
    patch_cache_control(response, private=True, max_age=3600)
    response["X-Robots-Tag"] = "noindex"
    return response


def svg(document: bytes) -> HttpResponse:
    return HttpResponse(document, content_type="image/svg+xml")
