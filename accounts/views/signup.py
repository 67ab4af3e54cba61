"""Signing up, from an invite link too, and logging in (Django's own view, which links "Forgot
your password?" where the site sends email). Logging out is Django's own view."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.base_user import AbstractBaseUser
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import Resolver404, resolve
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.forms import LoginForm, SignupForm
from accounts.views.lockout import count_refusal, lockout_page
from scoring import selectors
from scoring.models import Club
from scoring.services import ScoringError, join_club


class LoginView(auth_views.LoginView):
    form_class = LoginForm
    redirect_authenticated_user = True
    next_page = "scoring:clubs"

    def get_context_data(self, **kwargs: object) -> dict[str, object]:
        return super().get_context_data(**kwargs) | {"sends_email": settings.SITE_SENDS_EMAIL}


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    next_url = safe_next(request)
    form = SignupForm(request.POST if request.method == "POST" else None)
    if request.method == "POST":
        # Sign-ups share the login's lockout: a burst of refused ones from one address for
        # one username is stopped like a burst of wrong passwords.
        # As the form would keep it: no NUL (PostgreSQL refuses it), at most 150 characters.
        username = request.POST.get("username", "").replace("\x00", "")[:150]
        if locked := lockout_page(request, username):
            return locked
        if form.is_valid():
            user = form.save()
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(
                request, _("Welcome, %(name)s! You're signed in.") % {"name": user.get_username()}
            )
            club = join_by_invite(request, invite_token(next_url), user)
            if club is not None:
                return redirect("scoring:club", club_id=club.pk)
            # Not redirect(next_url): a `next` of "0" or "clubs" would be taken for a view's
            # name, and fail to reverse.
            return HttpResponseRedirect(next_url) if next_url else redirect("scoring:clubs")
        count_refusal(request, username)
    token = invite_token(next_url)
    invited_to = selectors.club_by_invite(token) if token else None
    return render(
        request,
        "registration/signup.html",
        {"form": form, "next": next_url, "invited_to": invited_to},
    )


def invite_token(next_url: str) -> str:
    """The invite link's token when `next` is a club's join page (signing up from an invite),
    else ""."""
    try:
        match = resolve(urlsplit(next_url).path)
    except Resolver404:
        return ""
    return match.kwargs.get("token", "") if match.view_name == "scoring:join" else ""


def join_by_invite(request: HttpRequest, token: str, user: AbstractBaseUser) -> Club | None:
    """Signing up from an invite is accepting it: the new account joins the club at once and
    lands on its page. None if there was no invite, or it was reset meanwhile (then `next`, the
    join page, says the link no longer works)."""
    if not token:
        return None
    try:
        club = join_club(token=token, user=user)
    except ScoringError:
        return None
    messages.success(request, _("You're a member of %(club)s.") % {"club": club.name})
    return club


def safe_next(request: HttpRequest) -> str:
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    allowed = url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return next_url if allowed else ""
