"""The one place a refused owner's action becomes the answer a member sees, and the one place a
write that met a busy database becomes "try again"."""

from __future__ import annotations

from django.contrib import messages
from django.db import OperationalError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.deprecation import MiddlewareMixin
from django_htmx.http import HttpResponseClientRedirect

from common.http import HtmxHttpRequest
from scoring.services import NotAllowed
from scoring.services.errors import database_busy

# Where the way back from a refusal leads, by what the refused address names (the first
# found): the game, the season or the club the member was looking at.
WAY_BACK = (
    ("game_id", "scoring:game"),
    ("season_id", "scoring:season"),
    ("club_id", "scoring:club"),
)


class RefusalMiddleware(MiddlewareMixin):
    """Answer a view that raised `NotAllowed` (a member asking for an owner's action) with
    templates/scoring/forbidden.html: status 403, what only the owner may do, and a way back.
    The club's existence is no secret to its own members, so this is said plainly.

    htmx swaps nothing in for a 403, so an htmx request is sent back instead, where the refusal
    is shown among the page's messages.
    """

    def process_exception(
        self, request: HtmxHttpRequest, exception: Exception
    ) -> HttpResponse | None:
        if not isinstance(exception, NotAllowed):
            return None
        back = way_back(request)
        if request.htmx:
            messages.error(request, exception.message)
            return HttpResponseClientRedirect(back)
        context = {"what": exception.message, "back": back}
        return render(request, "scoring/forbidden.html", context, status=403)


def way_back(request: HttpRequest) -> str:
    found = request.resolver_match.kwargs if request.resolver_match else {}
    for key, page in WAY_BACK:
        if key in found:
            return reverse(page, args=[found[key]])
    return reverse("scoring:clubs")


class DatabaseBusyMiddleware(MiddlewareMixin):
    """Answer a request that met SQLite's write lock held longer than a writer waits (a club
    being restored, say) with templates/503.html and Retry-After, not a 500: its transaction
    was rolled back whole, so sending it again is safe. Recording a deal answers this itself,
    keeping the deal on its form (scoring/views/recording.py)."""

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not (isinstance(exception, OperationalError) and database_busy(exception)):
            return None
        busy = render(request, "503.html", status=503)
        busy["Retry-After"] = "5"
        return busy
