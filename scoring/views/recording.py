"""Recording a deal at the table, and a deal typed on a second phone for a number another phone
recorded first: offered back beside the recorded one, to put in as the next deal, to replace
the recorded one with, or to let go (`settle_clash`). Nothing typed is thrown away unsaid."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, QueryDict
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.decorators.vary import vary_on_headers

from common.http import HtmxHttpRequest
from rules.deal_checks import DealResult
from scoring import selectors, services
from scoring.forms import DealForm, form_values
from scoring.models import Game, Seat
from scoring.presenters.board import Board, member_board
from scoring.presenters.deal_clash import DealClash, deal_clash
from scoring.selectors.snapshot import read_snapshot
from scoring.views.games import refusal_on_form, refused
from scoring.views.pages import as_number, render_game


@login_required
@require_POST
@vary_on_headers("HX-Request")
def record(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    board = member_board(request.user, game_id)
    game, seats = board.game, board.seats
    tapped = DealForm.tapped(request.POST.dict(), seats=seats, rules=game.ruleset)
    if tapped is not None:
        # "Went out" or "Out next" fills in the player's 0 or place and shows the form again;
        # nothing is saved.
        return render_game(
            request, game, form=DealForm(initial=tapped, seats=seats, rules=game.ruleset)
        )
    form = DealForm(request.POST, seats=seats, rules=game.ruleset)
    if not form.is_valid():
        if form.has_error("number") or form.has_error("token"):
            return refused(request, game, out_of_date())
        return render_game(request, game, form=form)
    return record_sent(request, board, form, number=form.cleaned_data["number"])


def out_of_date() -> str:
    return _("That form was out of date — here is the current one")


def record_sent(
    request: HtmxHttpRequest, board: Board, form: DealForm, *, number: int
) -> HttpResponse:
    """Record the deal of a valid `form` as deal `number`, and answer with the game as it now
    is: recorded, refused with why, or (another phone was first) offered back."""
    game, seats = board.game, board.seats
    try:
        recorded = services.record_deal(
            game=game,
            number=number,
            token=form.cleaned_data["token"],
            by=request.user,
            facts=form.facts(),
            seats=seats,
            scored=form.scored(),
        )
    except services.InvalidDeal as error:
        refusal_on_form(form, error)
        return render_game(request, game, form=form)
    except services.DealAlreadyRecorded:
        return offer_clash(request, game, form, number=number)
    except services.DealWasUndone as error:
        # What this phone sent stays in the form, as the next deal with a token of its own:
        # the scorekeeper sends it again on purpose, or not.
        return render_game(request, game, typed=request.POST.dict(), refusal=error.message)
    except services.DatabaseBusy as error:
        # Nothing was written: the form comes back as sent. A 5xx, so a phone with scripts
        # keeps the deal waiting and sends it again itself (static/js/waiting-deals.js).
        busy = render_game(
            request, game, typed=request.POST.dict(), typed_for=error.number, refusal=error.message
        )
        busy.status_code, busy["Retry-After"] = 503, "5"
        return busy
    except services.ScoringError as error:
        return refused(request, game, error.message)
    notice = _("Deal %(number)s recorded.") % {"number": recorded.deal.number}
    if request.htmx:
        shown = as_number(request.POST.get("shown"))
        # The game and its seats as the write left them, shown without reading them again (a
        # resend wrote nothing: the game is read as it now is).
        written = None
        if recorded.seats is not None:
            written = Board(game, recorded.seats, appended=recorded.scored)
        return render_game(request, game, notice=notice, shown=shown, board=written, recorded=True)
    messages.success(request, notice)
    return redirect("scoring:game", game_id=game.pk)


def offer_clash(
    request: HtmxHttpRequest,
    game: Game,
    form: DealForm,
    *,
    number: int,
    refusal: str | None = None,
) -> HttpResponse:
    """Deal `number` was recorded on another phone first: the deal typed here beside it, with
    the three choices (templates/scoring/_deal_clash.html). The same deal typed twice is
    simply recorded; a deal undone since leaves the typed one in the form, as the next deal."""
    with read_snapshot():
        board = member_board(request.user, game.pk)
        clash = clash_with(board, form, number=number)
    if clash is None:
        gone = _("Deal %(number)s was taken back on another phone: yours is in the form.")
        typed = form_values(form.facts(), board.seats)
        return render_game(request, game, typed=typed, refusal=gone % {"number": number})
    if clash.same:
        notice = _("Deal %(number)s was recorded on another phone, just as you typed it.")
        return render_game(request, game, board=board, notice=notice % {"number": number})
    offered = _(
        "Deal %(number)s was already recorded on another phone. Yours isn't lost: choose "
        "which counts."
    ) % {"number": number}
    return render_game(request, game, board=board, clash=clash, refusal=refusal or offered)


def clash_with(board: Board, form: DealForm, *, number: int) -> DealClash | None:
    """Deal `number` of the board's game beside the deal of a valid `form`."""
    return deal_clash(
        board.game,
        board.seats,
        number=number,
        mine=form.scored(),
        token=form.cleaned_data["token"],
        next_number=board.next_number,
    )


@login_required
@require_POST
@vary_on_headers("HX-Request")
def settle_clash(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The scorekeeper's choice between their deal and the one another phone recorded first
    (see `offer_clash`): "next" records theirs as the deal after the last, "replace" corrects
    the recorded one to theirs if it is still the one shown, "keep" writes nothing. Sent
    twice, each does what it does once: the form's token records the deal once, a deal already
    replaced is left as it is, and a deal put in one way isn't put in the other way too."""
    board = member_board(request.user, game_id)
    game, seats = board.game, board.seats
    form = DealForm(request.POST, seats=seats, rules=game.ruleset)
    choice = request.POST.get("choice")
    shown = recorded_deal(request.POST, seats, game) if form.is_valid() else None
    put_as = as_number(request.POST.get("put_as"))
    if shown is None or choice not in ("next", "replace", "keep"):
        return refused(request, game, out_of_date())
    number = form.cleaned_data["number"]
    if choice == "keep":
        kept = _("Deal %(number)s stays as it was recorded; yours was let go.")
        return settled(request, game, kept % {"number": number})
    put_in = selectors.deal_recorded_with(game, form.cleaned_data["token"])
    if put_in is not None:  # put in as the next deal already
        return settled(request, game, _("Deal %(number)s recorded.") % {"number": put_in})
    if choice == "next":
        if put_as is None or put_as <= number:
            return refused(request, game, out_of_date())
        clash = clash_with(board, form, number=number)
        if clash is not None and clash.same:  # replaced already
            return settled(request, game, replaced(number))
        return record_sent(request, board, form, number=put_as)
    try:
        services.edit_deal(
            game=game, number=number, by=request.user, facts=form.facts(), replacing=shown
        )
    except services.ScoringError as error:  # changed meanwhile, undone, or ending too soon
        return offer_clash(request, game, form, number=number, refusal=error.message)
    return settled(request, game, replaced(number))


def replaced(number: int) -> str:
    return _("Deal %(number)s replaced with yours.") % {"number": number}


def recorded_deal(sent: QueryDict, seats: list[Seat], game: Game) -> DealResult | None:
    """The recorded deal as the offer showed it (`recorded`: JSON of its form values), or None
    if what was sent is no deal."""
    try:
        values = json.loads(sent.get("recorded", ""))
    except ValueError:
        return None
    if not isinstance(values, dict):
        return None
    form = DealForm(
        values | {"number": sent.get("number"), "token": sent.get("token")},
        seats=seats,
        rules=game.ruleset,
    )
    return form.facts() if form.is_valid() else None


def settled(request: HtmxHttpRequest, game: Game, notice: str) -> HttpResponse:
    """The game as it now is, saying what became of the deal."""
    if request.htmx:
        return render_game(request, game, notice=notice)
    messages.success(request, notice)
    return redirect("scoring:game", game_id=game.pk)
