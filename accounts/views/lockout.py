"""The login's lockout (django-axes), kept wherever a password is typed: signing up, and a
signed-in member typing theirs to change it or delete the account. Refusals there count
against one username from one address, with wrong passwords at login."""

from __future__ import annotations

from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_lockout_response
from django.contrib.auth.signals import user_login_failed
from django.http import HttpRequest, HttpResponse


def lockout_page(request: HttpRequest, username: str) -> HttpResponse | None:
    """The lockout page if `username` is locked out from this address, as the login counts it;
    else None. Asked before a page checks a password."""
    credentials = {"username": username}
    if AxesProxyHandler.is_locked(request, credentials):
        return get_lockout_response(request, credentials=credentials)
    return None


def count_refusal(request: HttpRequest, username: str) -> None:
    """Count a refusal for `username` against the login's lockout: a phone left signed in is no
    place to guess a password. The limit reached, django-axes's middleware answers with the
    lockout page. Only after `lockout_page`, which readies the request for django-axes."""
    credentials = {"username": username}
    user_login_failed.send(sender=__name__, credentials=credentials, request=request)
