"""A club's members and its history: removing a member, handing the club on, leaving it, and
the owner's password reset link for a member (the page the link opens is the accounts app's).

Each change is asked for on a page of its own and made by a POST from it, so it works without
JavaScript and a stray tap does nothing. A form sent again once its change is made (a double
tap, a resend after a lost answer) is answered as the first was, never with an error page.
"""

from __future__ import annotations

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
        return no_longer_there(request, club, _("That member is no longer in the club."))
    member = membership.user
    if request.method == "POST":
        try:
            services.remove_member(club=club, member=member, by=request.user)
        except services.ScoringError as error:
            return refused(request, club, error.message)
        messages.success(
            request,
            _("%(name)s is no longer a member of %(club)s.")
            % {"name": member.get_username(), "club": club.name},
        )
        return redirect(members_of(club))
    if member.pk == club.owner_id:
        raise Http404("The owner leaves by handing the club on first")
    context = {"club": club, "member": member, "membership_id": membership.pk}
    return render(request, "scoring/remove_member.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def make_owner(request: HttpRequest, club_id: int, membership_id: int) -> HttpResponse:
    club = selectors.member_club(request.user, club_id)
    membership = selectors.membership_in(club, membership_id)
    if membership is None:
        return no_longer_there(request, club, _("That member is no longer in the club."))
    member = membership.user
    if member.pk != club.owner_id:
        # Not asked once the club is theirs: the second of a double tap finds it handed on
        # already, which is no refusal.
        permissions.check_may_make_owner(club=club, by=request.user)
    if request.method == "POST":
        try:
            services.make_owner(club=club, member=member, by=request.user)
        except services.ScoringError as error:
            return refused(request, club, error.message)
        messages.success(
            request,
            _("%(name)s now owns %(club)s.") % {"name": member.get_username(), "club": club.name},
        )
        return redirect(members_of(club))
    if member.pk == club.owner_id:
        raise Http404("The club is theirs already")
    context = {"club": club, "member": member, "membership_id": membership.pk}
    return render(request, "scoring/make_owner.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def leave_club(request: HttpRequest, club_id: int) -> HttpResponse:
    if request.method == "POST" and (left := selectors.club_left_by(request.user, club_id)):
        return gone_from(request, left)  # sent again, after leaving
    club = selectors.member_club(request.user, club_id)
    refusal = ""
    if request.method == "POST":
        try:
            services.leave_club(club=club, user=request.user)
        except services.ScoringError as error:
            refusal = error.message
        else:
            return gone_from(request, club)
    owns = permissions.is_owner(club, request.user)
    return render(
        request, "scoring/leave_club.html", {"club": club, "owns": owns, "refusal": refusal}
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


def gone_from(request: HttpRequest, club: Club) -> HttpResponse:
    messages.success(request, _("You have left %(club)s.") % {"club": club.name})
    return redirect("scoring:clubs")


def no_longer_there(request: HttpRequest, club: Club, message: str) -> HttpResponse:
    """A form about someone (or something) of the club that is gone since the page was shown:
    on another phone, or by this one a moment ago. Nothing is left to do; the club says so."""
    if request.method != "POST":
        raise Http404(message)
    messages.info(request, message)
    return redirect(members_of(club))


def refused(request: HttpRequest, club: Club, message: str) -> HttpResponse:
    """A change the club's state refused since its page was shown (the owner changed, say)."""
    messages.error(request, message)
    return redirect(members_of(club))


def members_of(club: Club) -> str:
    return reverse("scoring:club", args=[club.pk]) + "#members-title"
