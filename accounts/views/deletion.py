"""Deleting one's account, with its password: refused while it runs a club, and the club's
scores stay (shown as kept by "Someone")."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts import services
from accounts.forms import DeleteAccountForm
from accounts.views.lockout import count_refusal, lockout_page
from scoring import selectors
from scoring.services import ScoringError


@login_required
@require_http_methods(["GET", "POST"])
def delete_account(request: HttpRequest) -> HttpResponse:
    """Delete my account, with my password: refused, naming them, while I run any club."""
    owned = list(selectors.clubs_run_by(request.user))
    sent = request.method == "POST"
    form = DeleteAccountForm(request.POST if sent and not owned else None)
    username = request.user.get_username()
    if sent and not owned and (locked := lockout_page(request, username)):
        return locked
    if sent and form.is_valid():
        try:
            services.delete_account(user=request.user, password=form.cleaned_data["password"])
        except services.OwnsClubs as refused:
            owned = refused.clubs
        except ScoringError as refused:
            form.add_error("password", refused.message)
            count_refusal(request, username)
        else:
            logout(request)
            messages.success(
                request, _("Your account is deleted. Every score you kept stays with your clubs.")
            )
            return redirect("home")
    context = {"form": form, "owned": owned, "refused": sent and bool(owned)}
    return render(request, "registration/delete_account.html", context)
