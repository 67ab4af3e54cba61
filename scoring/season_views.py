"""Seasons, standings, players' pages and the season CSVs.

Like the rest of the app, everything is looked up through the signed-in user's memberships, so
someone else's club, season or player is a 404.
"""

from __future__ import annotations

import csv
import datetime
import io
import itertools
from collections.abc import Iterator, Sequence

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from bigtwo_site.http import HtmxHttpRequest
from scoring import selectors, services
from scoring.charts import average_penalty_chart
from scoring.forms import HouseRulesForm, MoveGameForm, SeasonForm, shown_stake
from scoring.models import Season
from scoring.presenters.settlements import season_settlement
from scoring.presenters.tables import played_games, season_games, standings_table
from scoring.selectors import standings
from scoring.snapshot import read_snapshot
from scoring.views import forbidden, spreadsheet_safe


def render_standings(
    request: HtmxHttpRequest, template: str, context: dict[str, object]
) -> HttpResponse:
    """The whole page, or only the table when htmx asks after a tap on a column heading."""
    if request.htmx and request.htmx.target == "standings":
        template += "#standings"
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    return response


@login_required
@require_GET
@read_snapshot()
def club(request: HtmxHttpRequest, club_id: int) -> HttpResponse:
    """The club's home: the current season's standings and games, roster, members, invite."""
    club = selectors.member_club(request.user, club_id)
    current = club.seasons.get(is_current=True)
    context = season_context(request, current)
    # A season's rules can change until its first game starts (one query, for the owner only).
    rules_open = bool(context["is_owner"]) and not current.games.exists()
    invite_url = (
        request.build_absolute_uri(reverse("scoring:join", args=[club.invite_token]))
        if context["is_owner"]
        else None
    )
    return render_standings(
        request,
        "scoring/club.html",
        context
        | {
            "invite_url": invite_url,
            "rules_open": rules_open,
            "players": club.players.all(),
            "members": club.memberships.select_related("user"),
        },
    )


@login_required
@require_GET
@read_snapshot()
def season(request: HtmxHttpRequest, season_id: int) -> HttpResponse:
    # Whether the season has a history comes with the season itself: most never have one, and
    # then nothing more is read for it.
    season = selectors.member_season_with_history_flag(request.user, season_id)
    context = season_context(request, season) | {
        "settlement": SimpleLazyObject(lambda: season_settlement(season)),
        "season_stake": shown_stake(season.stake),
        # Read only when the page's cached copy (under the season's version) is missing.
        "changes": SimpleLazyObject(
            lambda: selectors.recent_season_changes(season) if season.has_history else []
        ),
    }
    return render_standings(request, "scoring/season.html", context)


def season_context(request: HttpRequest, season: Season) -> dict[str, object]:
    """A season's table and games, as its own page and its club's page show them.

    The table and the games are worked out only if the page's cached copy of them (kept under
    the season's version) is missing: a big season's standings are the costly part. Render them
    in the `read_snapshot()` the season was read in, so that the table, the lists of games and
    the version they are cached under are of one moment.
    """
    club = season.club
    return {
        "club": club,
        "season": season,
        "seasons": club.seasons.all(),
        "table": SimpleLazyObject(
            lambda: standings_table(
                standings(season.games.all()), path=request.path, query=request.GET
            )
        ),
        "games": SimpleLazyObject(lambda: season_games(season, request.GET)),
        "is_owner": club.owner_id == request.user.pk,
    }


@login_required
@require_GET
def all_time(request: HtmxHttpRequest, club_id: int) -> HttpResponse:
    club = selectors.member_club(request.user, club_id)
    return render_standings(
        request,
        "scoring/all_time.html",
        {
            "club": club,
            "seasons": club.seasons.all(),
            "table": standings_table(
                standings(club.games.all()), path=request.path, query=request.GET
            ),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def new_season(request: HttpRequest, club_id: int) -> HttpResponse:
    club = selectors.member_club(request.user, club_id)
    back = reverse("scoring:club", args=[club.pk])
    if club.owner_id != request.user.pk:
        return forbidden(request, _("Only the club's owner can start a new season."), back)
    form = SeasonForm(request.POST if request.method == "POST" else None, club=club)
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


@login_required
@require_http_methods(["GET", "POST"])
def season_rules(request: HttpRequest, season_id: int) -> HttpResponse:
    """The owner changes the rules of a season no game has been played in yet."""
    season = selectors.member_season(request.user, season_id)
    club = season.club
    back = reverse("scoring:season", args=[season.pk])
    if club.owner_id != request.user.pk:
        return forbidden(request, _("Only the club's owner can change a season's rules."), back)
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
    context = {"club": club, "season": season, "form": form, "played": season.games.exists()}
    return render(request, "scoring/season_rules.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def move_game(request: HttpRequest, game_id: int) -> HttpResponse:
    game = selectors.member_game(request.user, game_id)
    back = reverse("scoring:game", args=[game.pk])
    if game.club.owner_id != request.user.pk:
        return forbidden(
            request, _("Only the club's owner can move a game to another season."), back
        )
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
        return redirect(back)
    return render(request, "scoring/move_game.html", {"game": game, "form": form})


@login_required
@require_GET
@read_snapshot()
def player(request: HttpRequest, player_id: int) -> HttpResponse:
    player = selectors.member_player(request.user, player_id)
    played = played_games(player, selectors.games_of_player(player))
    per_season = selectors.standings_by_season(player)
    finished = [entry for entry in played if entry.game.is_finished]
    return render(
        request,
        "scoring/player.html",
        {
            "player": player,
            "club": player.club,
            "played": list(reversed(played)),
            "per_season": per_season,
            "chart": average_penalty_chart([entry.average for entry in finished]),
        },
    )


CSV_ROWS_PER_CHUNK = 1000


def csv_chunks(rows: Iterator[Sequence[object]]) -> Iterator[str]:
    """CSV text a thousand rows at a time: memory stays flat however long the file, and the
    server writes a few hundred chunks instead of one per row."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    for batch in itertools.batched(rows, CSV_ROWS_PER_CHUNK):
        writer.writerows(batch)
        yield buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()


def csv_response(filename: str, rows: Iterator[Sequence[object]]) -> StreamingHttpResponse:
    response = StreamingHttpResponse(csv_chunks(rows), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_GET
def standings_csv(request: HttpRequest, season_id: int) -> StreamingHttpResponse:
    season = selectors.member_season(request.user, season_id)
    # One query, read here rather than as the rows stream: one state of every game.
    table = standings_table(standings(season.games.all()), path=request.path, query=request.GET)

    def rows() -> Iterator[list[object]]:
        yield [heading.label for heading in table.headings]
        for line in table.lines:
            yield [
                line.rank,
                spreadsheet_safe(line.name),
                line.games,
                line.wins,
                f"{line.win_percent:.1f}",
                line.deals,
                line.deals_won,
                f"{line.average_penalty:.2f}",
                line.penalty,
                line.thirteens,
                line.best,
            ]

    return csv_response(f"standings-season-{season.pk}.csv", rows())


def local_date(stored: str, zone: datetime.tzinfo) -> datetime.date:
    """The date in `zone` of a time as the database gives it as text: with an offset
    (PostgreSQL), or as naive UTC (SQLite)."""
    moment = datetime.datetime.fromisoformat(stored)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.UTC)
    return moment.astimezone(zone).date()


DEALS_CSV_HEADER = [
    "season",
    "game",
    "date",
    "deal",
    "seat",
    "player",
    "cards_left",
    "penalty",
]


@login_required
@require_GET
def season_deals_csv(request: HttpRequest, season_id: int) -> StreamingHttpResponse:
    """Every player's line of every deal of the season, streamed straight from the cursor.

    A thousand-game season is a hundred thousand rows, so the database shapes them (seats from
    1, the deal's time as text) and Python turns a deal's time into the local date only once
    for its four rows.

    No `read_snapshot()`: the rows are read as they stream, after the view has returned and a
    snapshot would have ended (on PostgreSQL, closing the cursor with it). They come from one
    query, which sees every deal with all its scores or none.
    """
    season = selectors.member_season(request.user, season_id)
    scores = selectors.season_deal_rows(season, spreadsheet_safe(season.name))

    zone = timezone.get_current_timezone()

    def rows() -> Iterator[Sequence[object]]:
        yield DEALS_CSV_HEADER
        recorded, date = None, ""
        for row in scores.iterator(chunk_size=2000):
            if row[2] != recorded:  # a deal's four rows share its time: convert it once
                recorded = row[2]
                date = local_date(recorded, zone)
            yield (row[0], row[1], date, *row[3:5], spreadsheet_safe(row[5]), *row[6:])

    return csv_response(f"deals-season-{season.pk}.csv", rows())
