"""A change asked for on a page of its own (removing a member, deleting a game) and made by a
POST from it, or by a button that asks nothing ("This is me"). It works without JavaScript, a
stray tap does nothing, and a form sent again once its change is made (a double tap, a resend
after a lost answer) is answered as the first was: the service finds nothing left to do, or the
view finds what it is about `gone`."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from scoring import services


def confirm_then_act(
    request: HttpRequest,
    template: str = "",
    context: Callable[[], Mapping[str, object]] = dict,
    *,
    act: Callable[[], object],
    said: str,
    done: str,
    refusal_on_page: bool = False,
) -> HttpResponse:
    """GET: the page that asks, `template` with `context()` (none for a button that acts at
    once: its view takes POST only). POST: `act()`, then the phone is sent to `done`, whose page
    says `said` (post/redirect/get: a reload sends nothing again).

    A refusal is said at `done` instead, or with `refusal_on_page` on the asking page again, as
    `refusal`. An owner's action refused (`NotAllowed`) is scoring.middleware's to answer."""
    if request.method != "POST":
        return render(request, template, context())
    try:
        act()
    except services.NotAllowed:
        raise
    except services.ScoringError as refusal:
        if refusal_on_page:
            return render(request, template, {**context(), "refusal": refusal.message})
        messages.error(request, refusal.message)
        return redirect(done)
    messages.success(request, said)
    return redirect(done)


def gone(request: HttpRequest, message: str, to: str) -> HttpResponse:
    """A form about someone or something of the club that has gone since it was shown (on
    another phone, or by this one a moment ago): nothing is left to do, and the page at `to`
    says so. Asked for as a page, it is "not found"."""
    if request.method != "POST":
        raise Http404(message)
    messages.info(request, message)
    return redirect(to)
