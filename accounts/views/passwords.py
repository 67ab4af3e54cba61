"""Getting back in: the page a password link opens (a club owner's, made on the club's members
list, or an emailed one), "Forgot your password?" where the site sends email, and changing
one's own password. Django's own views, with the writes through `accounts.services`.

A link's token is never logged, stored or put in a message: the owner sees it once, in the
answer to the tap that made it, and the page it opens moves it into the session and out of
the address at once (Django's `PasswordResetConfirmView`), so it isn't sent on as a Referer.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import update_session_auth_hash
from django.contrib.auth import views as auth_views
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.forms import PasswordChangeForm, PasswordResetForm, SetPasswordForm
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache

from accounts import services
from accounts.views.lockout import count_refusal, lockout_page
from common.client_address import client_address
from scoring import selectors
from scoring.services import ClubLinkTokens, ScoringError

View = Callable[..., HttpResponse]


def email_only(view: View) -> View:
    """Not found unless the site sends email (DJANGO_EMAIL_URL)."""

    @wraps(view)
    def only_with_email(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not settings.SITE_SENDS_EMAIL:
            raise Http404("This site sends no email.")
        return view(request, *args, **kwargs)

    return only_with_email


# The page a link opens


class NoTokens(PasswordResetTokenGenerator):
    """For a link naming a club that doesn't exist: nothing checks."""

    def check_token(self, user: AbstractBaseUser | None, token: str | None) -> bool:
        return False


class LinkPage(auth_views.PasswordResetConfirmView):
    """Choose a new password, behind a link; one page (and one answer for every link that
    doesn't work, whatever the reason) for the owner's links and the emailed ones."""

    form_class = SetPasswordForm
    template_name = "registration/password_reset_confirm.html"
    success_url = reverse_lazy("password-reset-done")

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = super().dispatch(request, *args, **kwargs)
        opened = request.session.get(auth_views.INTERNAL_RESET_SESSION_TOKEN)
        if not self.validlink and kwargs["token"] == self.reset_url_token and opened:
            # The link worked when this page opened (its token is only kept once checked), so
            # it has been spent since: by the other phone, or the other tap.
            return self.spent(services.LinkSpent())
        return response

    def form_valid(self, form: SetPasswordForm) -> HttpResponse:
        try:
            services.set_password_by_link(
                user_id=self.user.pk,
                token=self.request.session.get(auth_views.INTERNAL_RESET_SESSION_TOKEN, ""),
                tokens=self.token_generator,
                password=form.cleaned_data["new_password1"],
            )
        except services.LinkSpent as spent:
            return self.spent(spent)
        del self.request.session[auth_views.INTERNAL_RESET_SESSION_TOKEN]
        return HttpResponseRedirect(self.get_success_url())

    def spent(self, refusal: services.LinkSpent) -> HttpResponse:
        self.request.session.pop(auth_views.INTERNAL_RESET_SESSION_TOKEN, None)
        context = {"spent": refusal.message, "sends_email": settings.SITE_SENDS_EMAIL}
        return render(self.request, self.template_name, context, status=409)

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["account"] = self.user if self.validlink else None
        context["sends_email"] = settings.SITE_SENDS_EMAIL
        return context


@method_decorator(email_only, name="dispatch")
class EmailLinkPage(LinkPage):
    """The link "Forgot your password?" mailed (Django's own tokens)."""


class ClubLinkPage(LinkPage):
    """The link a club's owner made: it says whose account it is for and which club made it."""

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        club_id = kwargs.pop("club_id")
        self.club = selectors.club_of_reset_link(club_id)
        self.token_generator = NoTokens() if self.club is None else ClubLinkTokens(self.club)
        return super().dispatch(request, *args, **kwargs)

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return super().get_context_data(**kwargs) | {"club": self.club}


class PasswordSet(auth_views.PasswordResetCompleteView):
    template_name = "registration/password_reset_complete.html"


# "Forgot your password?" (only where the site sends email)


@method_decorator(email_only, name="dispatch")
class ForgotPassword(auth_views.PasswordResetView):
    """Django's reset by email: the same answer whether or not an account has the address, but
    only a few an hour to one address and from one client (`mail_refusal`)."""

    template_name = "registration/password_reset_form.html"
    subject_template_name = "registration/password_reset_subject.txt"
    email_template_name = "registration/password_reset_email.txt"
    success_url = reverse_lazy("password-forgot-sent")

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        refusal = mail_refusal(self.request, form.cleaned_data["email"])
        if refusal:
            form.add_error(None, refusal)
            return self.render_to_response(self.get_context_data(form=form), status=429)
        return super().form_valid(form)


MAIL_WINDOW = 60 * 60  # the hour the limits on "Forgot your password?" count over


def mail_refusal(request: HttpRequest, email: str) -> str | None:
    """Why no link is mailed to `email` now, or None, having counted this one.

    The client is counted first: past its limit, what it sends no longer counts against the
    addresses it names. Every address is counted, with or without an account: a refusal tells
    nobody which have one. Keys hold a digest of the address, never the address.
    """
    client = client_address(request) or "unknown"
    if not spend(f"password-mail:client:{client}", settings.PASSWORD_MAILS_PER_CLIENT):
        return _(
            "Too many links have been asked for from this device (or its network) in the last "
            "hour. Try again later, or ask your club's owner for a password reset link."
        )
    same = unicodedata.normalize("NFKC", email).casefold()  # as Django matches the address
    digest = hashlib.sha256(same.encode()).hexdigest()
    if not spend(f"password-mail:address:{digest}", settings.PASSWORD_MAILS_PER_ADDRESS):
        return ngettext(
            "A link to that address has been asked for %(count)s time in the last hour, so no "
            "more are sent for now. Look for it (in spam too), try again later, or ask your "
            "club's owner for a password reset link.",
            "A link to that address has been asked for %(count)s times in the last hour, so no "
            "more are sent for now. Look for them (in spam too), try again later, or ask your "
            "club's owner for a password reset link.",
            settings.PASSWORD_MAILS_PER_ADDRESS,
        ) % {"count": settings.PASSWORD_MAILS_PER_ADDRESS}
    return None


def spend(key: str, limit: int) -> bool:
    """Count one more use of `key` in its hour (Django's cache, so servers sharing Redis share
    the count); False once past `limit`. The hour starts at its first use."""
    cache.add(key, 0, timeout=MAIL_WINDOW)
    try:
        used = cache.incr(key)
    except ValueError:  # the hour ran out between the two
        cache.set(key, 1, timeout=MAIL_WINDOW)
        used = 1
    return used <= limit


@method_decorator(email_only, name="dispatch")
class ForgotPasswordSent(auth_views.PasswordResetDoneView):
    template_name = "registration/password_reset_done.html"


# Changing one's own password


@method_decorator(never_cache, name="dispatch")
class ChangePassword(auth_views.PasswordChangeView):
    """Django's password change; every other session of the account ends with the old hash,
    this one follows the new (`update_session_auth_hash`)."""

    form_class = PasswordChangeForm
    template_name = "registration/password_change_form.html"

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        # A wrong old password counts against the login's lockout (`count_refusal`).
        locked = lockout_page(request, request.user.get_username())
        return locked if locked is not None else super().post(request, *args, **kwargs)

    def form_invalid(self, form: PasswordChangeForm) -> HttpResponse:
        if form.has_error("old_password", "password_incorrect"):  # the form's own check
            count_refusal(self.request, self.request.user.get_username())
        return super().form_invalid(form)

    def form_valid(self, form: PasswordChangeForm) -> HttpResponse:
        try:
            account = services.change_password(
                user=self.request.user,
                old_password=form.cleaned_data["old_password"],
                new_password=form.cleaned_data["new_password1"],
            )
        except ScoringError as refused:
            form.add_error("old_password", refused.message)
            return self.form_invalid(form)
        update_session_auth_hash(self.request, account)
        messages.success(
            self.request,
            _(
                "Your password is changed. You're still signed in here, and signed out "
                "everywhere else."
            ),
        )
        return redirect("scoring:clubs")
