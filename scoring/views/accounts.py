"""Signing up (logging in and out are Django's own views: scoring/account_urls.py)."""

from __future__ import annotations

from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_lockout_response
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.signals import user_login_failed
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from common import cached_user
from scoring.forms import SignupForm


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    next_url = safe_next(request)
    form = SignupForm(request.POST if request.method == "POST" else None)
    if request.method == "POST":
        # Sign-ups share the login's lockout: a burst of refused ones from one address for
        # one username is stopped like a burst of wrong passwords.
        # As the form would keep it: no NUL (PostgreSQL refuses it), at most 150 characters.
        credentials = {"username": request.POST.get("username", "").replace("\x00", "")[:150]}
        if AxesProxyHandler.is_locked(request, credentials):
            return get_lockout_response(request, credentials=credentials)
        if form.is_valid():
            user = form.save()
            login(request, user, backend=cached_user.BACKEND)
            messages.success(
                request, _("Welcome, %(name)s! You're signed in.") % {"name": user.get_username()}
            )
            return redirect(next_url or "scoring:clubs")
        user_login_failed.send(sender=__name__, credentials=credentials, request=request)
    return render(request, "registration/signup.html", {"form": form, "next": next_url})


def safe_next(request: HttpRequest) -> str:
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    allowed = url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return next_url if allowed else ""
