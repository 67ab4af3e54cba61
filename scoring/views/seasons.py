"""A season's page, the all-time standings, a new season, a season's rules."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods
from django.views.decorators.vary import vary_on_headers

from common.http import HtmxHttpRequest
from scoring import caching, selectors, services
from scoring.forms import GamesToRankForm, HouseRulesForm, SeasonForm
from scoring.models import Club, Season, shown_stake
from scoring.presenters.settlements import season_settlement
from scoring.selectors.snapshot import read_snapshot
from scoring.services import permissions
from scoring.views.pages import render_standings, season_context, standings_of


@login_required
@require_GET
@vary_on_headers("HX-Request")
@read_snapshot()
def season(request: HtmxHttpRequest, season_id: int) -> HttpResponse:
    """A season's standings and games; only the table when htmx asks after a tap on a column
    heading. Read in one snapshot, so the table, the lists and the version their cached
    fragments are kept under are of one moment."""
    season, seasons = selectors.member_season_and_menu(request.user, season_id)
    context = season_page_context(request, season, seasons)
    return render_standings(request, "scoring/season.html", context)


def season_page_context(
    request: HttpRequest, season: Season, seasons: list[Season]
) -> dict[str, object]:
    return season_context(request, season) | {
        "seasons": seasons,
        "settlement": SimpleLazyObject(lambda: season_settlement(season)),
        "season_stake": shown_stake(season.stake),
        "settlement_key": caching.season_settlement_key(season),
        "history_key": caching.season_history_key(season),
        # Read only when the page's cached copy (under the season's version) is missing.
        "changes": SimpleLazyObject(lambda: selectors.recent_season_changes(season)),
    }


@login_required
@require_GET
@vary_on_headers("HX-Request")
def all_time(request: HtmxHttpRequest, club_id: int) -> HttpResponse:
    club = selectors.member_club(request.user, club_id)
    return render_standings(
        request,
        "scoring/all_time.html",
        {
            "club": club,
            "seasons": club.seasons.all(),
            "table": standings_of(request, club.games.all(), club.pk),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def new_season(request: HttpRequest, club_id: int) -> HttpResponse:
    club = selectors.member_club(request.user, club_id)
    permissions.check_may_start_season(club=club, by=request.user)
    form = SeasonForm(request.POST if request.method == "POST" else None, club=club)
    if request.method == "POST" and form.is_valid() and form.picked_another:
        # Another preset chosen without JavaScript: its rules are shown first, not saved unseen.
        return preset_shown(request, club, form.picked_another)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            season = services.start_season(
                club=club,
                by=request.user,
                name=data["name"],
                starts_on=data["starts_on"],
                ends_on=data["ends_on"],
                rules=form.ruleset(),
                stake=data["stake"],
                currency=data["currency"],
                min_games=data["min_games"] or 0,
            )
        except services.ScoringError as error:
            form.add_error(None, error.message)
        else:
            messages.success(
                request,
                _("%(season)s has started: new games go into it.") % {"season": season.name},
            )
            return redirect("scoring:season", season_id=season.pk)
    return render(request, "scoring/new_season.html", {"club": club, "form": form})


def preset_shown(request: HttpRequest, club: Club, preset: str) -> HttpResponse:
    """The new-season form again, its house rules now `preset`'s, with what was typed besides."""
    kept = ("name", "starts_on", "ends_on", "stake", "currency")
    typed = {name: request.POST.get(name, "") for name in kept}
    form = SeasonForm(club=club, preset=preset, initial=typed)
    notice = _(
        "Not started yet: check the rules below (change any under “Customise”), then tap"
        " “Start season”."
    )
    context = {"club": club, "form": form, "notice": notice}
    return render(request, "scoring/new_season.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def season_rules(request: HttpRequest, season_id: int) -> HttpResponse:
    """The owner changes the rules of a season no game has been played in yet."""
    season = selectors.member_season(request.user, season_id)
    club = season.club
    permissions.check_may_change_season_rules(season=season, by=request.user)
    form = HouseRulesForm(
        request.POST if request.method == "POST" else None, club=club, season=season
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.set_season_rules(
                season=season,
                rules=form.ruleset(),
                stake=form.cleaned_data["stake"],
                currency=form.cleaned_data["currency"],
                by=request.user,
            )
        except services.ScoringError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("The season's rules are saved."))
            return redirect("scoring:club", club_id=club.pk)
    context = {
        "club": club,
        "season": season,
        "form": form,
        "played": season.games.exists(),
        "ranking_form": GamesToRankForm(initial={"min_games": season.min_games}),
    }
    return render(request, "scoring/season_rules.html", context)


@login_required
@require_http_methods(["POST"])
def games_to_rank(request: HttpRequest, season_id: int) -> HttpResponse:
    """The owner changes how many games a player needs in the season to be ranked; a form on
    the season's rules page, which shows again with what was typed if it is refused."""
    season = selectors.member_season(request.user, season_id)
    permissions.check_may_change_season_rules(season=season, by=request.user)
    form = GamesToRankForm(request.POST)
    if form.is_valid():
        services.set_games_to_rank(
            season=season, min_games=form.cleaned_data["min_games"] or 0, by=request.user
        )
        messages.success(request, _("Saved: the standings rank players by it now."))
        return redirect("scoring:season", season_id=season.pk)
    context = {
        "club": season.club,
        "season": season,
        "form": HouseRulesForm(club=season.club, season=season),
        "played": season.games.exists(),
        "ranking_form": form,
    }
    return render(request, "scoring/season_rules.html", context, status=400)
