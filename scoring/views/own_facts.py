"""A player's own figure of the deal being played, sent from their own phone in a game played
with own counts: stored (the deal records itself once the table's are in), or refused in words,
the figure typed kept in the form; sent for a deal already recorded with another figure, offered
back beside it, to keep the one recorded or put theirs in that deal (`settle_own_clash`)."""

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
from scoring.models import Game
from scoring.presenters.board import member_board
from scoring.presenters.own_clash import own_clash
from scoring.selectors.snapshot import read_snapshot
from scoring.views.games import refused
from scoring.views.pages import render_game
from scoring.views.recording import out_of_date, recorded_deal, settled


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
    except services.SentTooLate:
        # The deal is on the board: what this phone sent is offered beside what was recorded.
        return offer_own_clash(request, game, form, position=seat.position)
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


# What the own form sent, sent again with the choice (templates/scoring/_own_clash.html).
SENT_FIELDS = ("figure", "twos_held", "went_out")


def offer_own_clash(
    request: HtmxHttpRequest,
    game: Game,
    form: OwnFactsForm,
    *,
    position: int,
    refusal: str | None = None,
) -> HttpResponse:
    """The figure of a valid own `form` was for a deal recorded with another for the seat at
    `position`: offered back beside it (a deal undone since, or holding the figure now, is
    said so)."""
    number = form.cleaned_data["number"]
    with read_snapshot():
        board = member_board(request.user, game.pk)
        clash = own_clash(
            board.game,
            board.seats,
            number=number,
            position=position,
            sent=form.facts(),
            mine={name: form.data[name] for name in SENT_FIELDS if form.data.get(name)},
            token=form.cleaned_data["token"],
        )
    if clash is None:
        gone = _("Deal %(number)s was taken back: send your figure again.")
        return render_game(request, game, board=board, refusal=gone % {"number": number})
    if clash.same:
        return settled(request, game, put_in(number))
    offered = _(
        "Deal %(number)s was already recorded, with another figure for you. Yours isn't lost:"
        " choose which counts."
    ) % {"number": number}
    return render_game(request, game, board=board, own_clash=clash, refusal=refusal or offered)


def put_in(number: int) -> str:
    return _("Deal %(number)s now has your figure.") % {"number": number}


@login_required
@require_POST
@vary_on_headers("HX-Request")
def settle_own_clash(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The player's choice between the figure recorded for their seat and the one they sent
    (see `offer_own_clash`): "mine" corrects the recorded deal with theirs if it is still the
    one shown, "keep" writes nothing. Sent twice, the deal already holds the figure and
    nothing more is written."""
    board = member_board(request.user, game_id)
    game = board.game
    seat = selectors.member_seat(game, request.user)
    form = OwnFactsForm(request.POST, rules=game.ruleset)
    shown = recorded_deal(request.POST, board.seats, game) if form.is_valid() else None
    choice = request.POST.get("choice")
    if seat is None or shown is None or choice not in ("mine", "keep"):
        return refused(request, game, out_of_date())
    number = form.cleaned_data["number"]
    if choice == "keep":
        kept = _("Deal %(number)s stays as it was recorded; your figure was let go.")
        return settled(request, game, kept % {"number": number})
    try:
        services.put_own_in(
            game=game,
            position=seat.position,
            facts=form.facts(),
            by=request.user,
            number=number,
            shown=shown,
        )
    except services.InvalidDeal as error:
        return refused(request, game, cant_put_in(number, error.message))
    except services.ScoringError as error:  # changed meanwhile, undone, or ending too soon
        return offer_own_clash(request, game, form, position=seat.position, refusal=error.message)
    return settled(request, game, put_in(number))


def cant_put_in(number: int, why: str) -> str:
    return _("Deal %(number)s stays as it was: with your figure it is no deal (%(why)s).") % {
        "number": number,
        "why": why,
    }
