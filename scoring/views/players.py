"""A player's page (their games, their line in each season, their average a deal), and the
roster's changes: renaming a player, merging one into another, removing one; a member saying
"This is me", and the owner undoing it.

The changes are addressed through the club (`/clubs/<club>/players/<player>/…`), so that a
form sent again after its player has gone (merged or removed, on this phone a moment ago or on
another) is answered on the club's page instead of with "not found".
"""

from __future__ import annotations

from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scoring import selectors, services
from scoring.forms import MergePlayerForm, RenamePlayerForm
from scoring.models import Club, Player
from scoring.presenters.charts import average_penalty_chart, average_penalty_figure, rating_chart
from scoring.presenters.tables import played_games
from scoring.selectors import ratings
from scoring.selectors.head_to_head import head_to_head
from scoring.selectors.player_figures import player_figures
from scoring.selectors.snapshot import read_snapshot
from scoring.selectors.standings import standings_by_season
from scoring.services import permissions
from scoring.views.confirm import confirm_then_act, gone


@login_required
@require_GET
@read_snapshot()
def player(request: HttpRequest, player_id: int) -> HttpResponse:
    player = selectors.member_player(request.user, player_id)
    played = played_games(player, selectors.games_of_player(player))
    per_season = standings_by_season(player)
    averages = [entry.average for entry in played if entry.game.is_finished]
    return render(
        request,
        "scoring/player.html",
        {
            "player": player,
            "club": player.club,
            "is_owner": permissions.is_owner(player.club, request.user),
            "my_player": selectors.player_of(request.user, player.club),
            "played": list(reversed(played)),
            "per_season": per_season,
            "chart": average_penalty_chart(averages),
            "figure": average_penalty_figure(averages),
            "figures": player_figures(player),
            "head_to_head": head_to_head(player),
        }
        | rating_context(player),
    )


def rating_context(player: Player) -> dict[str, object]:
    """The player's rating now and its line over their games (_player_rating.html)."""
    history = ratings.player_history(player)
    values = [line.rating for line in history]
    return {
        "rating": values[-1] if values else None,
        "rating_chart": rating_chart(values),
    }


@login_required
@require_http_methods(["GET", "POST"])
def rename_player(request: HttpRequest, club_id: int, player_id: int) -> HttpResponse:
    club, player = club_and_player(request, club_id, player_id)
    if player is None:
        return no_longer_on_roster(request, club)
    form = RenamePlayerForm(
        request.POST if request.method == "POST" else None, initial={"name": player.name}
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.rename_player(player=player, name=form.cleaned_data["name"], by=request.user)
        except services.ScoringError as error:
            form.add_error("name", error.message)
        else:
            messages.success(
                request, _("The player is now called %(name)s.") % {"name": player.name}
            )
            return redirect("scoring:player", player_id=player.pk)
    return render(
        request, "scoring/rename_player.html", {"club": club, "player": player, "form": form}
    )


@login_required
@require_http_methods(["GET", "POST"])
def merge_player(request: HttpRequest, club_id: int, player_id: int) -> HttpResponse:
    club, player = club_and_player(request, club_id, player_id)
    if player is None:
        return no_longer_on_roster(request, club)
    form = MergePlayerForm(request.POST if request.method == "POST" else None, player=player)
    together = None
    if request.method == "POST" and form.is_valid():
        into = form.cleaned_data["into"]
        try:
            services.merge_player(player=player, into=into, by=request.user)
        except services.SatTogether as error:
            form.add_error("into", error.message)
            together = error.game
        except services.ScoringError as error:
            form.add_error("into", error.message)
        else:
            messages.success(
                request,
                _("%(merged)s is merged into %(name)s.")
                % {"merged": player.name, "name": into.name},
            )
            return redirect("scoring:player", player_id=into.pk)
    context = {"club": club, "player": player, "form": form, "together": together}
    return render(request, "scoring/merge_player.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def remove_player(request: HttpRequest, club_id: int, player_id: int) -> HttpResponse:
    club, player = club_and_player(request, club_id, player_id)
    if player is None:
        return no_longer_on_roster(request, club)
    return confirm_then_act(
        request,
        "scoring/remove_player.html",
        lambda: {"club": club, "player": player, "played": player.seats.count()},
        act=partial(services.remove_player, player=player, by=request.user),
        said=_("%(name)s is off the roster.") % {"name": player.name},
        done=reverse("scoring:club", args=[club.pk]),
        refusal_on_page=True,
    )


@login_required
@require_POST
def claim_player(request: HttpRequest, club_id: int, player_id: int) -> HttpResponse:
    """ "This is me": the member says which player of the roster they are."""
    club, player = club_and_player(request, club_id, player_id)
    if player is None:
        return no_longer_on_roster(request, club)
    return confirm_then_act(
        request,
        act=partial(services.claim_player, player=player, by=request.user),
        said=_("You are %(name)s: your own figures show on the home page.") % {"name": player.name},
        done=reverse("scoring:player", args=[player.pk]),
    )


@login_required
@require_POST
def unlink_player(request: HttpRequest, club_id: int, player_id: int) -> HttpResponse:
    """The owner undoes a member's "This is me" (a wrong tap, or the wrong name)."""
    club, player = club_and_player(request, club_id, player_id)
    permissions.check_may_unlink_player(club=club, by=request.user)
    if player is None:
        return no_longer_on_roster(request, club)
    return confirm_then_act(
        request,
        act=partial(services.unlink_player, player=player, by=request.user),
        said=_("%(name)s is no longer linked to a member.") % {"name": player.name},
        done=reverse("scoring:player", args=[player.pk]),
    )


def club_and_player(
    request: HttpRequest, club_id: int, player_id: int
) -> tuple[Club, Player | None]:
    """The member's club, and the player of its roster (None if they have left it)."""
    club = selectors.member_club(request.user, club_id)
    return club, selectors.roster_player(club, player_id)


def no_longer_on_roster(request: HttpRequest, club: Club) -> HttpResponse:
    """A form about a player who has gone since it was shown: merged or removed."""
    message = _("That player is no longer on the club's roster.")
    return gone(request, message, reverse("scoring:club", args=[club.pk]))
