"""A player's own figure of the deal being played, sent from their own phone in a game played
with own counts: stored (the deal records itself once the table's are in), or refused in words,
the figure typed kept in the form."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.decorators.vary import vary_on_headers

from common.http import HtmxHttpRequest
from scoring import selectors, services
from scoring.forms import OwnFactsForm
from scoring.presenters.board import member_board
from scoring.views.games import refused
from scoring.views.pages import render_game
from scoring.views.recording import out_of_date


@login_required
@require_POST
@vary_on_headers("HX-Request")
def send_own(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    game = member_board(request.user, game_id).game
    seat = selectors.member_seat(game, request.user)
    if seat is None:
        return refused(request, game, _("You have no seat at this table: fill in for the table"))
    form = OwnFactsForm(request.POST, rules=game.ruleset)
    if not form.is_valid():
        if form.has_error("number") or form.has_error("token"):
            return refused(request, game, out_of_date())
        return render_game(request, game, own_form=form)
    try:
        sent = services.send_own_facts(
            game=game,
            position=seat.position,
            facts=form.facts(),
            by=request.user,
            token=form.cleaned_data["token"],
            number=form.cleaned_data["number"],
        )
    except services.DatabaseBusy as error:
        busy = render_game(request, game, own_form=form, refusal=error.message)
        busy.status_code, busy["Retry-After"] = 503, "5"
        return busy
    except services.SentTooLate as error:
        # The deal is on the board: what this phone sent is said beside what was recorded.
        return refused(request, game, error.message)
    except services.ScoringError as error:
        return render_game(request, game, own_form=form, refusal=error.message)
    if sent.recorded is not None:
        notice = _("Deal %(number)s recorded.") % {"number": sent.number}
    else:
        notice = _("Sent: your figure for deal %(number)s.") % {"number": sent.number}
    if request.htmx:
        return render_game(request, game, notice=notice)
    messages.success(request, notice)
    return redirect("scoring:game", game_id=game.pk)
