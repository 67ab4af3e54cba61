"""A game and its deals: starting one, its page, previewing, correcting and undoing deals,
ending an open-ended match, playing again, its stake, its season, deleting it. Recording a
deal is scoring/views/recording.py."""

from __future__ import annotations

from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from common.http import HtmxHttpRequest, login_required_in_the_background
from rules.deal_checks import DealResult
from rules.ruleset import RuleSet
from scoring import selectors, services
from scoring.forms import DealForm, MoveGameForm, NewGameForm, StakeForm, form_values
from scoring.models import Game
from scoring.models.facts import described, extras, figures
from scoring.presenters.board import member_board
from scoring.presenters.wording import names_and
from scoring.selectors.snapshot import read_snapshot
from scoring.services import permissions
from scoring.views.confirm import confirm_then_act
from scoring.views.pages import as_number, render_game


@login_required
@require_http_methods(["GET", "POST"])
def new_game(request: HttpRequest, club_id: int) -> HttpResponse:
    club = selectors.member_club(request.user, club_id)
    last_players = selectors.last_game_players(club)
    # "Same players as last time" is a plain link back here: the form comes filled in.
    same = request.GET.get("same") == "1"
    seated = {f"seat_{n}": name for n, name in enumerate(last_players, start=1)} if same else {}
    form = NewGameForm(
        request.POST if request.method == "POST" else None, club=club, initial=seated
    )
    if request.method == "POST" and form.is_valid():
        try:
            game = services.start_game(
                club=club,
                seat_names=form.seat_names(),
                season=form.cleaned_data["season"],
                token=form.cleaned_data["token"],
                by=request.user,
                own_counts=form.cleaned_data["own_counts"],
            )
        except services.ScoringError as error:
            form.add_error(None, error.message)
        else:
            return redirect("scoring:game", game_id=game.pk)
    seat_names = selectors.seat_names(club)
    members = [name for name, is_member in seat_names if is_member]
    return render(
        request,
        "scoring/new_game.html",
        {
            "club": club,
            "form": form,
            "seat_names": seat_names,
            "members_to_seat": names_and(members) if members else "",
            "last_players": " · ".join(last_players),
        },
    )


# Where a game page sent without JavaScript after an undo finds the undone deal's values (see
# `undo`): the session, for one showing of the game page.
UNDONE = "undone-deal:{game}"


@login_required
@require_POST
def play_again(request: HttpRequest, game_id: int) -> HttpResponse:
    """A finished game's "Play again": the same table's next game, opened at once (the one
    already started, should this be a second tap or a second phone)."""
    game = selectors.member_game(request.user, game_id)
    try:
        rematch = services.play_again(game=game, by=request.user)
    except services.SeatsDiffer as error:
        # The table chooses its seats for the season's number of players.
        messages.error(request, error.message)
        return redirect("scoring:new-game", club_id=game.club_id)
    except services.ScoringError as error:
        messages.error(request, error.message)
        return redirect("scoring:game", game_id=game.pk)
    return redirect("scoring:game", game_id=rematch.pk)


@login_required
@require_GET
@vary_on_headers("HX-Request")
@read_snapshot()
def game(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    board = member_board(request.user, game_id)
    game = board.game
    undone = request.session.pop(UNDONE.format(game=game.pk), None)
    if undone is not None:
        typed, typed_for = undone["values"], undone["number"]
        return render_game(request, game, board=board, typed=typed, typed_for=typed_for)
    return render_game(request, game, board=board)


def refused(request: HtmxHttpRequest, game: Game, message: str) -> HttpResponse:
    """Show the game as it now is, with why the change was refused."""
    return render_game(request, game, refusal=message)


@login_required_in_the_background
@require_GET
@vary_on_headers("HX-Request")
def preview(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Each player's penalty for what is typed so far (htmx swaps the numbers in place)."""
    game = selectors.member_game(request.user, game_id)
    seats = selectors.seats_of(game)
    form = DealForm(initial=request.GET.dict(), seats=seats, rules=game.ruleset)
    editing = request.GET.get("editing") == "1"
    return render(request, "scoring/_deal_preview.html", {"rows": form.rows(), "editing": editing})


@login_required
@require_http_methods(["GET", "POST"])
def edit(request: HtmxHttpRequest, game_id: int, number: int) -> HttpResponse:
    # The deal with its scores as they are with it: an undo between the two queries would
    # leave it none.
    with read_snapshot():
        board = member_board(request.user, game_id)
        game, seats = board.game, board.seats
        deal = selectors.deal_numbered(game, number)
        (stored,) = selectors.stored_deals(game, number=number)
    rules = game.ruleset
    was = stored.facts
    hidden = {"number": number, "token": deal.token}
    tapped = DealForm.tapped(request.POST.dict(), seats=seats, rules=rules)
    if request.method == "GET":
        form = DealForm(initial=form_values(was, seats) | hidden, seats=seats, rules=rules)
    elif tapped is not None:
        form = DealForm(initial=tapped | hidden, seats=seats, rules=rules)
    else:
        # The deal is the one in the address: the form's hidden number and token can't name
        # another, and a form sent without them is no reason to refuse the correction.
        sent = request.POST.copy()
        sent["number"], sent["token"] = str(number), str(deal.token)
        form = DealForm(sent, seats=seats, rules=rules)
        if form.is_valid():
            try:
                services.edit_deal(
                    game=game,
                    number=number,
                    by=request.user,
                    facts=form.facts(),
                    seats=seats,
                    scored=form.scored(),
                )
            except services.ScoringError as error:
                refusal_on_form(form, error)
            else:
                messages.success(request, _("Deal %(number)s changed.") % {"number": number})
                return redirect("scoring:game", game_id=game.pk)
    names = [seat.player.name for seat in seats]
    context = {"game": game, "deal": deal, "form": form, "rows": form.rows()}
    return render(request, "scoring/edit_deal.html", context | {"was": was_text(was, rules, names)})


def was_text(facts: DealResult, rules: RuleSet, names: list[str]) -> str:
    """A recorded deal as the correction page recalls it: "0 · 5 · 9 · 13" (with its twos or
    who paid for the table), "out in this order: Cy, Ann, Dee, Ben" or "Ann's dragon"."""
    if facts.dragon is not None or facts.order is not None:
        return described(facts, rules, names)
    shown = " · ".join(str(figure) for figure in figures(facts, rules))
    return "; ".join([shown, *extras(facts, names)])


def refusal_on_form(form: DealForm, error: services.ScoringError) -> None:
    """Each reason the deal was refused, at the top of its form."""
    problems = error.problems if isinstance(error, services.InvalidDeal) else [error.message]
    for problem in problems:
        form.add_error(None, problem)


@login_required
@require_POST
@vary_on_headers("HX-Request")
def end_match(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Open-ended rules: bank the totals as they stand; the lowest total wins, or, where it is
    shared, the players the form names as sharing the win (the game page offers that choice)."""
    game = selectors.member_game(request.user, game_id)
    sharing = [as_number(seat) for seat in request.POST.getlist("sharing")]
    try:
        services.end_match(
            game=game, by=request.user, sharing=[seat for seat in sharing if seat is not None]
        )
    except services.TiedForLowest:
        # The page says who is tied and offers the choice (templates/scoring/_end_match.html).
        return render_game(request, game, ending=True)
    except services.ScoringError as error:
        return render_game(request, game, refusal=error.message, ending=True)
    messages.success(request, _("The match is over."))
    return redirect("scoring:game", game_id=game.pk)


@login_required
@require_POST
@vary_on_headers("HX-Request")
def set_stake(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    game = selectors.member_game(request.user, game_id)
    form = StakeForm(request.POST)
    if not form.is_valid():
        # Said at the top too: on a phone the stake's own field is far down the page.
        refusal = _("The stake wasn't saved: %(problem)s") % {
            "problem": " ".join(form.errors.get("stake", []))
        }
        return render_game(request, game, stake_form=form, refusal=refusal)
    services.set_stake(game=game, stake=form.cleaned_data["stake"], by=request.user)
    messages.success(request, _("Stake saved."))
    return redirect(reverse("scoring:game", args=[game.pk]) + "#stake")


@login_required
@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def undo(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    game = selectors.member_game(request.user, game_id)
    if request.method == "POST":
        try:
            number = int(request.POST.get("number", ""))
        except ValueError:
            number = None
        try:
            undone = services.undo_last_deal(game=game, by=request.user, number=number)
        except services.ScoringError as error:
            if request.htmx:
                return refused(request, game, error.message)
            messages.error(request, error.message)
            return redirect("scoring:game", game_id=game.pk)
        notice = _("Deal %(number)s undone.") % {"number": undone.number}
        # The deal form comes back filled with what was undone, so one wrong figure is one
        # change (a fresh token: it is sent as a new deal).
        values = form_values(undone.facts, selectors.seats_of(game))
        if request.htmx:
            return render_game(request, game, notice=notice, typed=values, typed_for=undone.number)
        messages.success(request, notice)
        request.session[UNDONE.format(game=game.pk)] = {"number": undone.number, "values": values}
        return redirect("scoring:game", game_id=game.pk)
    with read_snapshot():  # the last deal with its scores as they are with it
        seats = selectors.seats_of(game)
        # Each seat counts the deals played in the transaction that adds or takes one back.
        last = selectors.stored_deals(game, number=seats[0].deals_played)
    if not last:
        messages.info(request, _("There is no deal to undo yet."))
        return redirect("scoring:game", game_id=game.pk)
    names = [seat.player.name for seat in seats]
    said = described(last[0].facts, game.ruleset, names)
    template = "scoring/undo.html#confirm" if request.htmx else "scoring/undo.html"
    return render(request, template, {"game": game, "deal": last[0], "described": said})


@login_required
@require_http_methods(["GET", "POST"])
def delete(request: HttpRequest, game_id: int) -> HttpResponse:
    game = selectors.member_game(request.user, game_id)
    permissions.check_may_delete_game(game=game, by=request.user)
    return confirm_then_act(
        request,
        "scoring/delete_game.html",
        lambda: {
            "game": game,
            "players": ", ".join(seat.player.name for seat in selectors.seats_of(game)),
            "deals": game.deals.count(),
        },
        act=partial(services.delete_game, game=game, by=request.user),
        said=_("The game was deleted."),
        done=reverse("scoring:club", args=[game.club_id]),
    )


@login_required
@require_http_methods(["GET", "POST"])
def move_game(request: HttpRequest, game_id: int) -> HttpResponse:
    game = selectors.member_game(request.user, game_id)
    permissions.check_may_move_game(game=game, by=request.user)
    form = MoveGameForm(
        request.POST if request.method == "POST" else None,
        club=game.club,
        initial={"season": game.season_id},
    )
    if request.method == "POST" and form.is_valid():
        services.move_game(game=game, season=form.cleaned_data["season"], by=request.user)
        messages.success(
            request,
            _("The game is now in %(season)s.") % {"season": form.cleaned_data["season"].name},
        )
        return redirect("scoring:game", game_id=game.pk)
    return render(request, "scoring/move_game.html", {"game": game, "form": form})
