"""How the game page and the season pages are put together, for the views of every area that
answers with them: the game page (or its live part, for htmx), the scoreboard's context, and
a season's table and games."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import TypedDict, Unpack

from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.functional import SimpleLazyObject
from django_htmx.http import reswap, retarget

from common.http import HtmxHttpRequest
from rules.options import Finish
from scoring import caching, selectors
from scoring.forms import DealForm, OwnFactsForm, StakeForm
from scoring.forms.deal_values import sent_values
from scoring.forms.own_facts import only_going_out
from scoring.models import Game, Season, shown_stake
from scoring.presenters.board import Board, load_board
from scoring.presenters.deal_clash import DealClash
from scoring.presenters.deal_hint import deal_hint
from scoring.presenters.filling import filling_shown, read_filling
from scoring.presenters.offline import board_state, offline_game, offline_keeper
from scoring.presenters.own_clash import OwnClash
from scoring.presenters.score_out import bg_stats_link, writes_score_file
from scoring.presenters.tables import Table, season_games, standings_table
from scoring.selectors import ratings
from scoring.selectors.snapshot import read_snapshot
from scoring.selectors.standings import standings
from scoring.services import permissions
from scoring.views.sharing import live_link


class GamePageParts(TypedDict, total=False):
    """What a view puts on the game page besides the game itself (see `render_game`)."""

    form: DealForm | None
    notice: str
    refusal: str
    stake_form: StakeForm | None
    typed: dict[str, object] | None
    typed_for: int | None
    shown: int | None
    board: Board | None
    # "End match" was tapped and refused: the page offers what a tie leaves to choose.
    ending: bool
    # A deal was just recorded: the next one is typed from the form's first box.
    recorded: bool
    clash: DealClash | None
    # A game played with own counts: the player's own figure, as sent and refused.
    own_form: OwnFactsForm | None
    # Their figure sent for a deal recorded with another: offered back beside it.
    own_clash: OwnClash | None


@read_snapshot()
def render_game(
    request: HtmxHttpRequest, game: Game, **parts: Unpack[GamePageParts]
) -> HttpResponse:
    """The game page as it is now; for htmx only its live part (banner, deal form,
    scoreboard, chart, history), which is what a record or an undo swaps in place.

    `typed` fills the fresh deal form (the next deal's number, a new token) with values sent
    in a form that can't be used as it was, or of a deal just undone; `typed_for` is the
    number of the deal they were for, and they are left out if the next deal is another.

    `shown` is the version the page's board shows: if the one change since is the deal just
    recorded, htmx gets the deal area and only what that deal changed on the board.

    `clash`: the deal sent was for a number another phone recorded first; it is offered back
    beside that one, in place of the deal form."""
    context = game_context(request, game, **parts)
    if not request.htmx:
        return render(request, "scoring/game.html", context)
    if not context["delta"]:
        return render(request, "scoring/game.html#live", context)
    # The deal area in place of the live part, the board's changes out of band.
    response = render(request, "scoring/_record_delta.html", context)
    return reswap(retarget(response, "#deal-area"), "outerHTML")


def game_context(
    request: HttpRequest,
    game: Game,
    **parts: Unpack[GamePageParts],
) -> dict[str, object]:
    """What templates/scoring/game.html shows (see `render_game`)."""
    form, typed, typed_for = parts.get("form"), parts.get("typed"), parts.get("typed_for")
    board, shown = parts.get("board"), parts.get("shown")
    if board is None or (
        board.appended and not board.still_as_written(whole=not delta_since(board, shown))
    ):
        # A board left by a write is shown only if no other change came since, as its first
        # read of the deals tells (`still_as_written`): the rest is read in this snapshot.
        board = load_board(game.pk)
    game = board.game  # as it is now, in this snapshot (see load_board)
    if typed_for is not None and typed_for != board.next_number:
        typed = None
    clash = parts.get("clash")
    own = own_part(request, board, parts.get("own_form"))
    if game.is_finished or clash is not None:
        form = None
    elif form is None:
        form = fresh_deal_form(board, typed, own)
    form_number = as_number(str(form["number"].value())) if form is not None else None
    rows = form.rows() if form is not None else []
    clock = round_clock(game)
    hint = None
    if form is not None:
        has_clock = clock["closes_at"] is not None
        hint = deal_hint(form, rows, board, clock=has_clock, time_up=bool(clock["time_up"]))
    board_parts = board_context(
        game, board=board, shared=False, form_number=form_number, shown=shown
    )
    return board_parts | {
        "club": game.club,
        "clash": clash,
        "own_clash": parts.get("own_clash"),
        "form": form,
        "rows": rows,
        "hint": hint,
        "is_owner": permissions.is_owner(game.club, request.user),
        "notice": parts.get("notice", ""),
        "refusal": parts.get("refusal", ""),
        "rules": game.ruleset,
        "offline": offline_game(game.ruleset, board, offline_keeper(request.user)),
        "can_end": (
            game.ruleset.finish is Finish.OPEN and not game.is_finished and board.next_number > 1
        ),
        "ending": parts.get("ending", False),
        "recorded": parts.get("recorded", False),
        "stake_form": parts.get("stake_form")
        or StakeForm(initial={"stake": shown_stake(game.stake)}),
        "share_url": live_link(request, game.share_token) if game.share_token else "",
        "writes_score_file": writes_score_file(game.ruleset),
        "chances": chances_before_deal_one(board),
        "own": own,
        "filling": filling_shown(board, own.filling) if own else None,
        **clock,
    }


def fresh_deal_form(board: Board, typed: dict[str, object] | None, own: OwnPart | None) -> DealForm:
    """The next deal's form, with what was `typed`; in a game played with own counts its boxes
    show what the players have sent so far."""
    sent = sent_values(own.filling.sent) if own and own.filling else {}
    initial = sent | (typed or {}) | {"number": board.next_number, "token": uuid.uuid4()}
    return DealForm(initial=initial, seats=board.seats, rules=board.game.ruleset)


@dataclass(frozen=True, slots=True)
class OwnPart:
    """A game played with own counts, on a member's page: the deal filling in (None before
    anyone sends; shown as the board's `filling`) and the member's own form (None if they have
    no seat at the table)."""

    number: int
    filling: selectors.Filling | None
    form: OwnFactsForm | None
    only_out: bool


def own_part(request: HttpRequest, board: Board, form: OwnFactsForm | None) -> OwnPart | None:
    """What templates/scoring/_own_facts.html shows (None for a game kept on one phone)."""
    game = board.game
    if not game.own_counts or game.is_finished:
        return None
    filling = selectors.deal_filling(game, board.seats)
    seat = selectors.member_seat(game, request.user) if form is None else None
    if seat is not None:
        # What the player sent already shows in their box, to change until the deal records.
        sent = filling.figures[seat.position][1] if filling is not None else None
        form = OwnFactsForm.fresh(game.ruleset, board.next_number, figure=sent)
    return OwnPart(
        number=board.next_number,
        filling=filling,
        form=form,
        only_out=only_going_out(game.ruleset),
    )


def round_clock(game: Game) -> dict[str, object]:
    """A game going on with a clock (templates/scoring/_round_clock.html): `closes_at`, when its
    time runs out (None for a game without one, or over), and `time_up`, whether it has as the
    page is rendered: the next deal recorded is then the last."""
    closes_at = None if game.is_finished else game.closes_at
    return {
        "closes_at": closes_at,
        "time_up": closes_at is not None and timezone.now() >= closes_at,
    }


def chances_before_deal_one(board: Board) -> list[tuple[str, int]]:
    """Each player's chance of winning, in whole percentages, until the first deal."""
    if board.has_deals or board.game.is_finished:
        return []
    shares = ratings.win_chances(board.game.club_id, [seat.player_id for seat in board.seats])
    return list(zip(board.names, shares, strict=True))


def board_context(
    game: Game,
    *,
    shared: bool,
    board: Board | None = None,
    form_number: int | None = None,
    shown: int | None = None,
) -> dict[str, object]:
    """What templates/scoring/_board.html needs: the scoreboard, banners and chart, and for
    members the history and whether the deal form on their page has fallen behind.

    `delta`: the board the page shows is at version `shown`, and the one change since is a
    deal recorded, so templates/scoring/_board_delta.html can bring it up to date."""
    board = board or load_board(game.pk)
    game = board.game  # as it is now, in this snapshot (see load_board)
    stale = form_number is not None and (game.is_finished or form_number != board.next_number)
    return {
        "delta": delta_since(board, shown),
        "game": game,
        "board": board,
        "shared": shared,
        "board_key": caching.board_key(game, shared=shared),
        # Read only where the board's fragment isn't cached.
        "changes": "" if shared else SimpleLazyObject(lambda: selectors.recent_changes(game)),
        "form_number": form_number,
        "stale_form": stale,
        # For static/js/waiting-deals.js, which adds the deals waiting to be sent to these.
        "board_state": None if shared else board_state(board),
        # A game played with own counts: the deal filling in, on every phone of the game.
        "filling": SimpleLazyObject(lambda: read_filling(board)),
        # Read only where the result's fragment isn't cached.
        "bg_stats_link": SimpleLazyObject(lambda: bg_stats_link(game, board.seats))
        if game.is_finished and not shared
        else "",
    }


def delta_since(board: Board, shown: int | None) -> bool:
    """Whether the one change since version `shown` of the board's game is a deal that added
    a row to it (`caching.adds_a_row`): as the write that left the board knows, or else as that
    write noted in the cache."""
    game, last = board.game, board.last_number
    if shown != game.version - 1 or last is None:
        return False
    if board.appended is not None:
        return caching.adds_a_row(game, last)
    return caching.appended_deal(game) == last


def filled_since(board: Board, shown: int | None) -> bool:
    """Whether the one change since version `shown` of the board's game is a player's own
    figure sent (`caching.sent_a_figure`), the deal still filling in."""
    game = board.game
    return game.own_counts and shown == game.version - 1 and caching.sent_a_figure(game)


def as_number(text: str | None) -> int | None:
    try:
        return int(text or "")
    except ValueError:
        return None


def render_standings(
    request: HtmxHttpRequest, template: str, context: dict[str, object]
) -> HttpResponse:
    """The whole page, or only the table when htmx asks after a tap on a column heading."""
    if request.htmx and request.htmx.target == "standings":
        template += "#standings"
    return render(request, template, context)


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
        "table": SimpleLazyObject(lambda: season_standings(request, season)),
        "games": SimpleLazyObject(lambda: season_games(season, request.GET)),
        "is_owner": permissions.is_owner(club, request.user),
        "lists_key": caching.season_lists_key(
            season, request.GET, ratings=ratings.mark_key(club.pk)
        ),
    }


def standings_of(request: HttpRequest, games: QuerySet[Game], club_id: int) -> Table:
    """The league table over `games`, sorted as the request's query string asks, with the
    club's ratings as they are now."""
    return standings_table(
        standings(games), path=request.path, query=request.GET, rated=ratings.latest(club_id)
    )


def season_standings(request: HttpRequest, season: Season) -> Table:
    """The season's league table, with each player's rating as of its last finished game and
    those with fewer games than it asks set apart."""
    return standings_table(
        standings(season.games.all()),
        path=request.path,
        query=request.GET,
        rated=ratings.as_of_season(season),
        min_games=season.min_games,
    )
