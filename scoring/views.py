"""Pages for clubs, games and deals. Each view reads the request, calls one service, renders.

Everything of a club is fetched through `member_club` / `member_game`, which only find it when
the signed-in user belongs to the club: anyone else gets a 404, so not even its existence leaks.
The one way in from outside is a game's live view, found only by its unguessable share token.
"""

from __future__ import annotations

import csv
import uuid

from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_lockout_response
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.signals import user_login_failed
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from bigtwo_site.http import HtmxHttpRequest
from rules.options import Finish, TwosRule
from rules.ruleset import RuleSet
from scoring import selectors, services
from scoring.forms import (
    ClubForm,
    DealForm,
    NewGameForm,
    SignupForm,
    StakeForm,
    shown_stake,
    with_went_out,
)
from scoring.models import Game
from scoring.presenters.board import Board, Line, load_board
from scoring.snapshot import read_snapshot

# Access


def forbidden(request: HttpRequest, what: str, back: str) -> HttpResponse:
    """A member asking for an owner's action: say so plainly (the club's existence is no
    secret to its own members)."""
    return render(request, "scoring/forbidden.html", {"what": what, "back": back}, status=403)


# Accounts


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
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
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


# Clubs


@login_required
@require_http_methods(["GET", "POST"])
def clubs(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            club = services.create_club(name=form.cleaned_data["name"], owner=request.user)
        except services.ScoringError as error:
            form.add_error("name", error.message)
        else:
            messages.success(
                request,
                _("%(club)s is ready. Start a game, or invite people.") % {"club": club.name},
            )
            return redirect("scoring:club", club_id=club.pk)
    my_clubs = selectors.clubs_of(request.user)
    return render(request, "scoring/clubs.html", {"form": form, "clubs": my_clubs})


@login_required
@require_POST
def reset_invite(request: HttpRequest, club_id: int) -> HttpResponse:
    club = selectors.member_club(request.user, club_id)
    try:
        services.reset_invite(club=club, by=request.user)
    except services.NotAllowed as error:
        return forbidden(request, error.message, reverse("scoring:club", args=[club.pk]))
    messages.success(request, _("The invite link is new. The old one no longer works."))
    return redirect("scoring:club", club_id=club.pk)


@login_required
@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, token: str) -> HttpResponse:
    club = selectors.club_by_invite(token)
    if club is None:
        return render(request, "scoring/join_invalid.html", status=404)
    if request.method == "POST":
        services.join_club(token=token, user=request.user)
        messages.success(request, _("You're a member of %(club)s.") % {"club": club.name})
        return redirect("scoring:club", club_id=club.pk)
    already = selectors.is_member(club, request.user)
    return render(request, "scoring/join.html", {"club": club, "already": already})


# Games


@login_required
@require_http_methods(["GET", "POST"])
def new_game(request: HttpRequest, club_id: int) -> HttpResponse:
    club = selectors.member_club(request.user, club_id)
    form = NewGameForm(request.POST if request.method == "POST" else None, club=club)
    if request.method == "POST" and form.is_valid():
        try:
            game = services.start_game(
                club=club,
                seat_names=form.seat_names(),
                season=form.cleaned_data["season"],
                by=request.user,
            )
        except services.ScoringError as error:
            form.add_error(None, error.message)
        else:
            return redirect("scoring:game", game_id=game.pk)
    return render(
        request,
        "scoring/new_game.html",
        {"club": club, "form": form, "roster": club.players.all()},
    )


@login_required
@require_GET
def game(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    game = selectors.member_game(request.user, game_id)
    return render_game(request, game)


@login_required
@require_POST
def record(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    game = selectors.member_game(request.user, game_id)
    seats = selectors.seats_of(game)
    went_out = request.POST.get("went_out")
    if went_out is not None:
        # "Went out" fills in a 0 and shows the form again; nothing is saved.
        values = with_went_out(request.POST.dict(), seats, went_out)
        form = DealForm(initial=values, seats=seats, rules=game.ruleset)
        return render_game(request, game, form=form)
    form = DealForm(request.POST, seats=seats, rules=game.ruleset)
    if not form.is_valid():
        if form.has_error("number") or form.has_error("token"):
            return refused(request, game, _("That form was out of date — here is the current one"))
        return render_game(request, game, form=form)
    try:
        deal = services.record_deal(
            game=game,
            number=form.cleaned_data["number"],
            cards_left=form.cards_left(),
            token=form.cleaned_data["token"],
            by=request.user,
            **form.twos_facts(),
        )
    except services.InvalidDeal as error:
        for problem in error.problems:
            form.add_error(None, problem)
        return render_game(request, game, form=form)
    except services.DealWasUndone as error:
        # What this phone sent stays in the form, as the next deal with a token of its own:
        # the scorekeeper sends it again on purpose, or not.
        return render_game(request, game, typed=request.POST.dict(), refusal=error.message)
    except services.ScoringError as error:
        return refused(request, game, error.message)
    notice = _("Deal %(number)s recorded.") % {"number": deal.number}
    if request.htmx:
        return render_game(request, game, notice=notice)
    messages.success(request, notice)
    return redirect("scoring:game", game_id=game.pk)


def refused(request: HtmxHttpRequest, game: Game, message: str) -> HttpResponse:
    """Show the game as it now is, with why the change was refused."""
    return render_game(request, game, refusal=message)


@login_required
@require_GET
def preview(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Each player's penalty for what is typed so far (htmx swaps the numbers in place)."""
    game = selectors.member_game(request.user, game_id)
    seats = selectors.seats_of(game)
    form = DealForm(initial=request.GET.dict(), seats=seats, rules=game.ruleset)
    editing = request.GET.get("editing") == "1"
    response = render(
        request, "scoring/_deal_preview.html", {"rows": form.rows(), "editing": editing}
    )
    patch_vary_headers(response, ["HX-Request"])
    return response


@login_required
@require_http_methods(["GET", "POST"])
def edit(request: HtmxHttpRequest, game_id: int, number: int) -> HttpResponse:
    # The deal with its scores as they are with it: an undo between the two queries would
    # leave it none.
    with read_snapshot():
        game = selectors.member_game(request.user, game_id)
        deal = get_object_or_404(selectors.deals_with_seated_scores(game), number=number)
        seats = selectors.seats_of(game)
    current = {score.seat.position: score.cards_left for score in deal.scores.all()}
    twos = {score.seat.position: score.twos_held for score in deal.scores.all()}
    hidden = {"number": number, "token": deal.token}
    if request.method == "GET":
        values: dict[str, object] = {DealForm.key(seat): current[seat.position] for seat in seats}
        values |= {DealForm.twos_key(seat): twos[seat.position] or "" for seat in seats}
        values["out_on_twos"] = deal.out_on_twos
        form = DealForm(initial=values | hidden, seats=seats, rules=game.ruleset)
    elif (went_out := request.POST.get("went_out")) is not None:
        values = with_went_out(request.POST.dict(), seats, went_out)
        form = DealForm(initial=values | hidden, seats=seats, rules=game.ruleset)
    else:
        # The deal is the one in the address: the form's hidden number and token can't name
        # another, and a form sent without them is no reason to refuse the correction.
        sent = request.POST.copy()
        sent["number"], sent["token"] = str(number), str(deal.token)
        form = DealForm(sent, seats=seats, rules=game.ruleset)
        if form.is_valid():
            try:
                services.edit_deal(
                    game=game,
                    number=number,
                    cards_left=form.cards_left(),
                    by=request.user,
                    **form.twos_facts(),
                )
            except services.InvalidDeal as error:
                for problem in error.problems:
                    form.add_error(None, problem)
            except services.ScoringError as error:
                form.add_error(None, error.message)
            else:
                messages.success(request, _("Deal %(number)s changed.") % {"number": number})
                return redirect("scoring:game", game_id=game.pk)
    return render(
        request,
        "scoring/edit_deal.html",
        {
            "game": game,
            "deal": deal,
            "form": form,
            "rows": form.rows(),
            "was": [current[seat.position] for seat in seats],
        },
    )


@login_required
@require_POST
def end_match(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Open-ended rules: bank the totals as they stand; the lowest alone wins."""
    game = selectors.member_game(request.user, game_id)
    try:
        services.end_match(game=game, by=request.user)
    except services.ScoringError as error:
        return refused(request, game, error.message)
    messages.success(request, _("The match is over."))
    return redirect("scoring:game", game_id=game.pk)


@login_required
@require_POST
def set_stake(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    game = selectors.member_game(request.user, game_id)
    form = StakeForm(request.POST)
    if not form.is_valid():
        # Said at the top too: on a phone the stake's own field is far down the page.
        refusal = _("The stake wasn't saved: %(problem)s") % {
            "problem": " ".join(form.errors.get("stake", []))
        }
        return render_game(request, game, stake_form=form, refusal=refusal)
    try:
        services.set_stake(game=game, stake=form.cleaned_data["stake"], by=request.user)
    except services.NotAllowed as error:
        return forbidden(request, error.message, reverse("scoring:game", args=[game.pk]))
    messages.success(request, _("Stake saved."))
    return redirect(reverse("scoring:game", args=[game.pk]) + "#stake")


@login_required
@require_http_methods(["GET", "POST"])
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
        notice = _("Deal %(number)s undone.") % {"number": undone}
        if request.htmx:
            return render_game(request, game, notice=notice)
        messages.success(request, notice)
        return redirect("scoring:game", game_id=game.pk)
    with read_snapshot():  # the last deal with its scores as they are with it
        last = selectors.deals_with_seated_scores(game).order_by("-number").first()
    if last is None:
        messages.info(request, _("There is no deal to undo yet."))
        return redirect("scoring:game", game_id=game.pk)
    scores = sorted(last.scores.all(), key=lambda score: score.seat.position)
    template = "scoring/undo.html#confirm" if request.htmx else "scoring/undo.html"
    response = render(request, template, {"game": game, "deal": last, "scores": scores})
    patch_vary_headers(response, ["HX-Request"])
    return response


@login_required
@require_http_methods(["GET", "POST"])
def delete(request: HttpRequest, game_id: int) -> HttpResponse:
    game = selectors.member_game(request.user, game_id)
    back = reverse("scoring:game", args=[game.pk])
    if game.club.owner_id != request.user.pk:
        return forbidden(request, _("Only the club's owner can delete a game."), back)
    if request.method == "POST":
        club_id = game.club_id
        services.delete_game(game=game, by=request.user)
        messages.success(request, _("The game was deleted."))
        return redirect("scoring:club", club_id=club_id)
    players = ", ".join(seat.player.name for seat in selectors.seats_of(game))
    return render(
        request,
        "scoring/delete_game.html",
        {"game": game, "players": players, "deals": game.deals.count()},
    )


# Following a game live: the share link, and the polls that keep a page up to date


@login_required
@require_POST
def share(request: HttpRequest, game_id: int) -> HttpResponse:
    game = selectors.member_game(request.user, game_id)
    services.share_game(game=game, by=request.user)
    messages.success(request, _("The live view is on: anyone with its link can follow the score."))
    return redirect(reverse("scoring:game", args=[game.pk]) + "#share")


@login_required
@require_POST
def stop_sharing(request: HttpRequest, game_id: int) -> HttpResponse:
    game = selectors.member_game(request.user, game_id)
    services.stop_sharing(game=game, by=request.user)
    messages.success(request, _("The live view is off. Its link no longer works."))
    return redirect(reverse("scoring:game", args=[game.pk]) + "#share")


@require_GET
@read_snapshot()
def live(request: HttpRequest, token: str) -> HttpResponse:
    """The read-only scoreboard of a shared game, for anyone with the link.

    Any token but the game's current one is "not found", so a wrong or stopped link tells
    nothing about which games exist. Players' names show; no account's username does.
    """
    game = get_object_or_404(selectors.shared_games(token))
    response = render(request, "scoring/live.html", board_context(game, shared=True))
    response["X-Robots-Tag"] = "noindex"
    return response


# htmx stops polling on this status and swaps in what came with it.
HTMX_STOP_POLLING = 286


@require_GET
def live_board(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The shared view's poll (see `board_since`).

    Once sharing stops, an open page's poll is told so (and stops asking) instead of showing
    the last board forever. Any wrong token gets the same answer, so it reveals nothing.
    """
    try:
        return board_since(request, selectors.shared_games(token), shared=True)
    except Http404:
        if not request.htmx:
            raise
    response = render(request, "scoring/_live_stopped.html", status=HTMX_STOP_POLLING)
    patch_cache_control(response, no_store=True)
    return response


@require_GET
def board(request: HttpRequest, game_id: int) -> HttpResponse:
    """The game page's poll (see `board_since`): the scoreboard part only, never the deal form.

    Signed out, it answers 403 rather than the login redirect other pages give: a poll must
    not take the page away from someone typing a deal.
    """
    if not request.user.is_authenticated:
        return HttpResponse(status=403)
    games = selectors.member_games(request.user, game_id)
    return board_since(request, games, shared=False)


def board_since(request: HttpRequest, games: QuerySet[Game], *, shared: bool) -> HttpResponse:
    """The game's board, or 204 No Content (htmx then leaves the page alone) while the game's
    version is still the `v` the page shows: one query, every two seconds per phone."""
    found = games.values_list("pk", "version").first()
    if found is None:
        raise Http404
    pk, version = found
    if request.GET.get("v") == str(version):
        response = HttpResponse(status=204)
    else:
        with read_snapshot():
            game = get_object_or_404(games, pk=pk)  # still there, still theirs to see
            form_number = None if shared else as_number(request.GET.get("deal"))
            context = board_context(game, shared=shared, form_number=form_number)
            response = render(request, "scoring/_board.html", context)
    patch_cache_control(response, no_store=True)
    return response


def as_number(text: str | None) -> int | None:
    try:
        return int(text or "")
    except ValueError:
        return None


# Exports


@login_required
@require_GET
@read_snapshot()
def game_json(request: HttpRequest, game_id: int) -> JsonResponse:
    board = load_board(selectors.member_game(request.user, game_id))
    return JsonResponse(
        {
            "id": board.game.pk,
            "players": board.names,
            "rules": {"name": board.game.ruleset.name, "label": board.game.ruleset.label},
            "stake": str(board.game.stake) if board.game.stake is not None else None,
            "deals": [deal_json(line, board.game.ruleset) for line in board.lines],
            "totals": [seat.total for seat in board.seats],
            "status": board.game.status,
            "winner": board.winner_name,
        }
    )


def deal_json(line: Line, rules: RuleSet) -> dict[str, object]:
    """A deal as the export gives it; the twos only where the game's rules ask about them."""
    deal: dict[str, object] = {
        "number": line.number,
        "cards_left": [cell.cards_left for cell in line.cells],
        "penalties": [cell.penalty for cell in line.cells],
    }
    if rules.twos is not TwosRule.OFF:
        deal["out_on_twos"] = line.out_on_twos
    if rules.twos is TwosRule.EACH_TWO:
        deal["twos_held"] = [cell.twos_held for cell in line.cells]
    return deal


@login_required
@require_GET
@read_snapshot()
def game_csv(request: HttpRequest, game_id: int) -> HttpResponse:
    board = load_board(selectors.member_game(request.user, game_id))
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="game-{board.game.pk}.csv"'
    writer = csv.writer(response)
    twos = board.game.ruleset.twos
    header = ["deal"] + (["out on twos"] if twos is not TwosRule.OFF else [])
    for name in board.names:
        safe = spreadsheet_safe(name)
        header += [f"{safe} cards left", f"{safe} penalty"]
        header += [f"{safe} twos held"] if twos is TwosRule.EACH_TWO else []
    writer.writerow(header)
    for line in board.lines:
        row: list[object] = [line.number]
        row += [int(line.out_on_twos)] if twos is not TwosRule.OFF else []
        for cell in line.cells:
            row += [cell.cards_left, cell.penalty]
            row += [cell.twos_held] if twos is TwosRule.EACH_TWO else []
        writer.writerow(row)
    return response


def spreadsheet_safe(text: str) -> str:
    """Keep a name from being read as a formula when the CSV is opened in a spreadsheet."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


# The game page


@read_snapshot()
def render_game(
    request: HtmxHttpRequest,
    game: Game,
    *,
    form: DealForm | None = None,
    notice: str = "",
    refusal: str = "",
    stake_form: StakeForm | None = None,
    typed: dict[str, str] | None = None,
) -> HttpResponse:
    """The game page as it is now; for htmx only its live part (banner, deal form,
    scoreboard, chart, history), which is what a record or an undo swaps in place.

    `typed` fills the fresh deal form (the next deal's number, a new token) with values sent
    in a form that can't be used as it was."""
    board = load_board(game)
    game = board.game  # as it is now, in this snapshot (see load_board)
    if game.is_finished:
        form = None
    elif form is None:
        initial = (typed or {}) | {"number": board.next_number, "token": uuid.uuid4()}
        form = DealForm(initial=initial, seats=board.seats, rules=game.ruleset)
    form_number = as_number(str(form["number"].value())) if form is not None else None
    context = board_context(game, board=board, shared=False, form_number=form_number) | {
        "club": game.club,
        "form": form,
        "rows": form.rows() if form is not None else [],
        "is_owner": game.club.owner_id == request.user.pk,
        "notice": notice,
        "refusal": refusal,
        "rules": game.ruleset,
        "can_end": (
            game.ruleset.finish is Finish.OPEN and not game.is_finished and board.next_number > 1
        ),
        "stake_form": stake_form or StakeForm(initial={"stake": shown_stake(game.stake)}),
        "share_url": (
            request.build_absolute_uri(reverse("scoring:live", args=[game.share_token]))
            if game.share_token
            else ""
        ),
    }
    template = "scoring/game.html#live" if request.htmx else "scoring/game.html"
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    return response


def board_context(
    game: Game, *, shared: bool, board: Board | None = None, form_number: int | None = None
) -> dict[str, object]:
    """What templates/scoring/_board.html needs: the scoreboard, banners and chart, and for
    members the history and whether the deal form on their page has fallen behind."""
    board = board or load_board(game)
    game = board.game  # as it is now, in this snapshot (see load_board)
    stale = form_number is not None and (game.is_finished or form_number != board.next_number)
    return {
        "game": game,
        "board": board,
        "shared": shared,
        # The history names who recorded what: members only.
        "changes": [] if shared else selectors.recent_changes(game),
        "form_number": form_number,
        "stale_form": stale,
    }
