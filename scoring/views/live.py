"""Following a game live: the share link, the read-only live view, the polls that keep a
game's page and its live view up to date, and what a deal changed as the game's stream sends it."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseStopPolling, reswap

from common.http import HtmxHttpRequest
from scoring import selectors, services
from scoring.presenters.board import Board, load_board, member_board
from scoring.selectors.snapshot import read_snapshot
from scoring.views.confirm import confirm_then_act
from scoring.views.pages import as_number, board_context, delta_since, filled_since


@login_required
@require_POST
def share(request: HttpRequest, game_id: int) -> HttpResponse:
    game = selectors.member_game(request.user, game_id)
    return confirm_then_act(
        request,
        act=partial(services.share_game, game=game, by=request.user),
        said=_("The live view is on: anyone with its link can follow the score."),
        done=reverse("scoring:game", args=[game.pk]) + "#share",
    )


@login_required
@require_POST
def stop_sharing(request: HttpRequest, game_id: int) -> HttpResponse:
    game = selectors.member_game(request.user, game_id)
    return confirm_then_act(
        request,
        act=partial(services.stop_sharing, game=game, by=request.user),
        said=_("The live view is off. Its link no longer works."),
        done=reverse("scoring:game", args=[game.pk]) + "#share",
    )


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


@require_GET
def live_board(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The shared view's poll (see `board_since`).

    Once sharing stops, an open page's poll is told so (and stops asking) instead of showing
    the last board forever. Any wrong token gets the same answer, so it reveals nothing.
    """
    try:
        games = selectors.shared_games(token)
        found = games.values_list("pk", "version").first()
        return board_since(request, found, lambda pk: load_board(pk, within=games), shared=True)
    except Http404:
        if not request.htmx:
            raise
    # htmx stops polling on this answer and swaps in what came with it.
    response = HttpResponseStopPolling(
        render_to_string("scoring/_live_stopped.html", request=request)
    )
    patch_cache_control(response, no_store=True)
    return response


@require_GET
def board(request: HttpRequest, game_id: int) -> HttpResponse:
    """The game page's poll (see `board_since`): the scoreboard part only, never the deal form.
    Signed out, it answers 403 rather than the login redirect other pages give: a poll must not
    take the page away from someone typing a deal."""
    if not request.user.is_authenticated:
        return HttpResponse(status=403)
    user = request.user
    found = selectors.member_game_version(user, game_id)
    return board_since(request, found, lambda pk: member_board(user, pk), shared=False)


def board_since(
    request: HttpRequest,
    found: tuple[int, int] | None,
    board_of: Callable[[int], Board],
    *,
    shared: bool,
) -> HttpResponse:
    """The game's board, or 204 No Content (htmx then leaves the page alone) while the game's
    version is still the `v` the page shows: one query, the one that `found` the game's id and
    version if the asker may see it. `board_of(id)`
    reads the board, checking that again, in the snapshot.
    To htmx asking from the version just before a deal recorded, only what that deal changed
    (templates/scoring/_board_delta.html), all of it out of band.
    """
    if found is None:
        raise Http404
    pk, version = found
    if request.GET.get("v") == str(version):
        return no_news()
    with read_snapshot():
        board = board_of(pk)  # still there, still theirs to see
        form_number = None if shared else as_number(request.GET.get("deal"))
        shown = as_number(request.GET.get("v")) if request.htmx else None
        context = board_context(
            board.game, board=board, shared=shared, form_number=form_number, shown=shown
        )
        if context["delta"]:
            # Only what the one deal recorded since changed, swapped out of band.
            response = reswap(render(request, "scoring/_board_delta.html", context), "none")
        else:
            response = render(request, "scoring/_board.html", context | {"fetched": True})
    patch_cache_control(response, no_store=True)
    return response


def no_news() -> HttpResponse:
    """204 No Content: htmx leaves the page as it is."""
    response = HttpResponse(status=204)
    patch_cache_control(response, no_store=True)
    return response


def stream_delta(game_id: int, version: int, *, shared: bool, language: str) -> str | None:
    """What the deal whose recording made `version` of the game changed, as the game's stream
    sends it (templates/scoring/_board_delta_stream.html), or, in a game played with own counts,
    the deal filling in after a player's own figure sent (_filling_delta_stream.html), in
    `language`, for a member's page or (`shared`) the live view: the part every phone at the
    table shares, so it is rendered once per version, kind and language. None when the game is
    gone or past `version`, or the one change since the version before is neither: the stream
    then says the version alone and the phone fetches the board. Who may see it is the stream's
    to check (it ends when its member is let go or its link stops); a live view's stream asks
    only `shared`.
    """
    with translation.override(language), read_snapshot():
        try:
            board = load_board(game_id)
        except Http404:
            return None
        if delta_since(board, version - 1):
            template = "scoring/_board_delta_stream.html"
        elif filled_since(board, version - 1):
            template = "scoring/_filling_delta_stream.html"
        else:
            return None
        context = board_context(board.game, board=board, shared=shared, shown=version - 1)
        return render_to_string(template, context)
