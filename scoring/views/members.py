"""A club's members and its history: removing a member, handing the club on, leaving it, and
the owner's password reset link for a member (the page the link opens is the accounts app's).

Each change is asked for on a page of its own and made by a POST from it (`confirm_then_act`).
"""

from __future__ import annotations

from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scoring import selectors, services
from scoring.models import Club
from scoring.services import permissions
from scoring.views.confirm import confirm_then_act, gone


@login_required
@require_GET
def club_history(request: HttpRequest, club_id: int) -> HttpResponse:
    club = selectors.member_club(request.user, club_id)
    changes = selectors.recent_club_changes(club)
    return render(request, "scoring/club_history.html", {"club": club, "changes": changes})


@login_required
@require_http_methods(["GET", "POST"])
def remove_member(request: HttpRequest, club_id: int, membership_id: int) -> HttpResponse:
    club = selectors.member_club(request.user, club_id)
    permissions.check_may_remove_member(club=club, by=request.user)
    membership = selectors.membership_in(club, membership_id)
    if membership is None:
        return gone(request, _("That member is no longer in the club."), members_of(club))
    member = membership.user
    if request.method == "GET" and member.pk == club.owner_id:
        raise Http404("The owner leaves by handing the club on first")
    return confirm_then_act(
        request,
        "scoring/remove_member.html",
        lambda: {"club": club, "member": member, "membership_id": membership.pk},
        act=partial(services.remove_member, club=club, member=member, by=request.user),
        said=_("%(name)s is no longer a member of %(club)s.")
        % {"name": member.get_username(), "club": club.name},
        done=members_of(club),
    )


@login_required
@require_http_methods(["GET", "POST"])
def make_owner(request: HttpRequest, club_id: int, membership_id: int) -> HttpResponse:
    club = selectors.member_club(request.user, club_id)
    membership = selectors.membership_in(club, membership_id)
    if membership is None:
        return gone(request, _("That member is no longer in the club."), members_of(club))
    member = membership.user
    if member.pk != club.owner_id:
        # Not asked once the club is theirs: the second of a double tap finds it handed on
        # already, which is no refusal.
        permissions.check_may_make_owner(club=club, by=request.user)
    elif request.method == "GET":
        raise Http404("The club is theirs already")
    return confirm_then_act(
        request,
        "scoring/make_owner.html",
        lambda: {"club": club, "member": member, "membership_id": membership.pk},
        act=partial(services.make_owner, club=club, member=member, by=request.user),
        said=_("%(name)s now owns %(club)s.") % {"name": member.get_username(), "club": club.name},
        done=members_of(club),
    )


@login_required
@require_http_methods(["GET", "POST"])
def leave_club(request: HttpRequest, club_id: int) -> HttpResponse:
    if request.method == "POST" and (left := selectors.club_left_by(request.user, club_id)):
        messages.success(request, left_message(left))  # sent again, answered as the first was
        return redirect("scoring:clubs")
    club = selectors.member_club(request.user, club_id)
    return confirm_then_act(
        request,
        "scoring/leave_club.html",
        lambda: {"club": club, "owns": permissions.is_owner(club, request.user)},
        act=partial(services.leave_club, club=club, user=request.user),
        said=left_message(club),
        done=reverse("scoring:clubs"),
        refusal_on_page=True,
    )


@login_required
@require_POST
@never_cache
def make_reset_link(request: HttpRequest, club_id: int, membership_id: int) -> HttpResponse:
    """The owner's "Password reset link" on a member's row: the link, shown this once."""
    club = selectors.member_club(request.user, club_id)
    membership = selectors.membership_in(club, membership_id)
    if membership is None:
        raise Http404("No such member of this club")
    context: dict[str, object] = {"club": club, "member": membership.user}
    try:
        link = services.make_reset_link(club=club, member=membership.user, by=request.user)
    except services.NotAllowed:
        raise
    except services.ScoringError as refusal:
        return render(request, "scoring/reset_link.html", context | {"refusal": refusal.message})
    address = reverse(
        "password-reset-link",
        kwargs={"club_id": link.club_id, "uidb64": link.uidb64, "token": link.token},
    )
    context["link"] = request.build_absolute_uri(address)
    return render(request, "scoring/reset_link.html", context)


def left_message(club: Club) -> str:
    return _("You have left %(club)s.") % {"club": club.name}


def members_of(club: Club) -> str:
    return reverse("scoring:club", args=[club.pk]) + "#members-title"
