"""A club night's pages: drawing it, its page (who is here, every round, the standings), its
rounds started, its JSON, and the board for the room's TV (open to anyone with its link)."""

from __future__ import annotations

from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseStopPolling

from common.http import HtmxHttpRequest
from nights import selectors, services
from nights.forms import NewNightForm, WhoIsHereForm
from nights.models import Night
from nights.selectors import NightPlan
from scoring import selectors as scoring_selectors
from scoring.presenters.qr import qr_svg
from scoring.services import ScoringError
from scoring.views.confirm import confirm_then_act
from scoring.views.sharing import svg


@login_required
@require_http_methods(["GET", "POST"])
def new_night(request: HttpRequest, club_id: int) -> HttpResponse:
    club = scoring_selectors.member_club(request.user, club_id)
    form = NewNightForm(request.POST if request.method == "POST" else None, club=club)
    if request.method == "POST" and form.is_valid():
        try:
            night = services.draw_night(
                club=club,
                here=list(form.cleaned_data["here"]),
                new_names=form.cleaned_data["new_players"],
                rounds=form.cleaned_data["rounds"],
                round_minutes=form.cleaned_data["round_minutes"],
                token=form.cleaned_data["token"],
                by=request.user,
                own_counts=form.cleaned_data["own_counts"],
            )
        except ScoringError as error:
            form.add_error(None, error.message)
        else:
            return redirect("nights:night", night_id=night.pk)
    return render(
        request,
        "nights/new.html",
        {"club": club, "form": form, "recent": selectors.recent_nights(club.pk)},
    )


@login_required
@require_GET
def night(request: HttpRequest, night_id: int) -> HttpResponse:
    found = selectors.member_night(request.user, night_id)
    return night_page(request, selectors.night_plan(found))


def night_page(
    request: HttpRequest, plan: NightPlan, form: WhoIsHereForm | None = None
) -> HttpResponse:
    here = [player.pk for player, is_here in plan.attendees if is_here]
    form = form or WhoIsHereForm(club=plan.night.club, initial={"here": here})
    tv_link = (
        request.build_absolute_uri(reverse("nights:tv", args=[plan.night.tv_token]))
        if plan.night.tv_token
        else ""
    )
    return render(request, "nights/night.html", {"plan": plan, "form": form, "tv_link": tv_link})


@login_required
@require_POST
def who_is_here(request: HttpRequest, night_id: int) -> HttpResponse:
    """Players ticked on or off, new ones added, and the rounds to come drawn again."""
    found = selectors.member_night(request.user, night_id)
    form = WhoIsHereForm(request.POST, club=found.club)
    if form.is_valid():
        try:
            drawn = services.change_who_is_here(
                night=found,
                here=list(form.cleaned_data["here"]),
                new_names=form.cleaned_data["new_players"],
                by=request.user,
            )
        except ScoringError as error:
            form.add_error(None, error.message)
        else:
            messages.info(
                request,
                redrawn_message(
                    drawn, len(form.cleaned_data["here"]) + len(form.cleaned_data["new_players"])
                ),
            )
            return redirect(reverse("nights:night", args=[found.pk]) + "#rounds")
    return night_page(request, selectors.night_plan(found), form)


def redrawn_message(drawn: bool, players: int) -> str:
    if not drawn:
        return _("Nothing changed: the rounds to come already seat everyone here.")
    return ngettext(
        "The rounds to come are drawn again for the %(count)s player here.",
        "The rounds to come are drawn again for the %(count)s players here.",
        players,
    ) % {"count": players}


@login_required
@require_POST
def start_round(request: HttpRequest, night_id: int, number: int) -> HttpResponse:
    found = selectors.member_night(request.user, night_id)
    return confirm_then_act(
        request,
        act=partial(services.start_round, night=found, number=number, by=request.user),
        said=_("Round %(number)s has started: each table's game is open.") % {"number": number},
        done=reverse("nights:night", args=[found.pk]) + f"#round-{number}",
    )


@login_required
@require_POST
def show_on_tv(request: HttpRequest, night_id: int) -> HttpResponse:
    found = selectors.member_night(request.user, night_id)
    return confirm_then_act(
        request,
        act=partial(services.show_on_tv, night=found, by=request.user),
        said=_("The TV board is on: open its link on the room's screen."),
        done=reverse("nights:night", args=[found.pk]) + "#tv",
    )


@login_required
@require_POST
def stop_tv(request: HttpRequest, night_id: int) -> HttpResponse:
    found = selectors.member_night(request.user, night_id)
    return confirm_then_act(
        request,
        act=partial(services.stop_tv, night=found, by=request.user),
        said=_("The TV board is off. Its link no longer works."),
        done=reverse("nights:night", args=[found.pk]) + "#tv",
    )


@login_required
@require_GET
def night_json(request: HttpRequest, night_id: int) -> JsonResponse:
    plan = selectors.night_plan(selectors.member_night(request.user, night_id))
    return JsonResponse(as_data(plan), json_dumps_params={"ensure_ascii": False})


def as_data(plan: NightPlan) -> dict[str, object]:
    """The night as documented in docs/api.md."""
    return {
        "id": plan.night.pk,
        "season": plan.night.season.name,
        "seed": plan.night.seed,
        "rounds": [
            {
                "number": shown.number,
                "status": shown.status,
                "tables": [
                    {
                        "table": table.number,
                        "seats": [player.name for player in table.players],
                        "game": table.game.pk if table.game else None,
                    }
                    for table in shown.tables
                ],
                "sitting_out": [player.name for player in shown.sitting_out],
            }
            for shown in plan.rounds
        ],
        "standings": [
            {"player": line.name, "games": line.games, "won": line.wins, "points": line.penalty}
            for line in plan.standings
        ],
    }


@require_GET
def tv(request: HttpRequest, token: str) -> HttpResponse:
    """The room's board, for anyone with the link: laid out for a landscape screen. A stopped
    link (or any wrong one: it tells nothing of which nights exist) says it was stopped."""
    try:
        found = selectors.night_on_tv(token)
    except Http404:
        return tv_stopped(render(request, "nights/tv_stopped.html", status=404))
    return tv_page(request, found, "nights/tv.html")


@require_GET
def tv_board(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The board's part that changes, polled by the TV page: 204 while nothing has changed
    since the state it shows (one query), else the part anew. Once the link is stopped, the
    TV's poll is told so, and htmx stops asking (286) and swaps in what came with it."""
    try:
        found = selectors.night_on_tv(token)
    except Http404:
        if not request.htmx:
            raise
        stopped = render_to_string("nights/tv_stopped.html#stopped", request=request)
        return tv_stopped(HttpResponseStopPolling(stopped))
    if request.GET.get("state") == str(selectors.night_state(found.pk)):
        return HttpResponse(status=204)
    return tv_page(request, found, "nights/tv.html#board")


def tv_stopped(response: HttpResponse) -> HttpResponse:
    response["X-Robots-Tag"] = "noindex"
    patch_cache_control(response, no_store=True)
    return response


def tv_page(request: HttpRequest, found: Night, template: str) -> HttpResponse:
    state = selectors.night_state(found.pk)
    response = render(
        request,
        template,
        {
            "plan": selectors.night_plan(found),
            "state": state,
            "night_link": night_link(request, found),
        },
    )
    response["X-Robots-Tag"] = "noindex"
    patch_cache_control(response, no_store=True)
    return response


def night_link(request: HttpRequest, night: Night) -> str:
    """The night's page, which the TV's code opens on a player's phone."""
    return request.build_absolute_uri(reverse("nights:night", args=[night.pk]))


@require_GET
def tv_qr(request: HttpRequest, token: str) -> HttpResponse:
    """The code of the night's page, for players to open it on their phones."""
    found = selectors.night_on_tv(token)
    response = svg(qr_svg(night_link(request, found), title=_("QR code for the night's page")))
    patch_cache_control(response, private=True, max_age=3600)
    response["X-Robots-Tag"] = "noindex"
    return response
