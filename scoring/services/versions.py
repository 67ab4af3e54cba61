"""Counting versions up: the writes' part in keeping cached pages and the phones following a
game up to date (`scoring.caching` builds the keys the versions are part of).

Every cached fragment shows what one game or season holds, kept under its `version`. A write
that changes what a fragment shows counts that version up in its own transaction:

- `game_changed`: a game's deals, stake, season or history changed (its season's too);
- `seasons_changed`: a season gained or lost a game, or its rules or stake changed;
- `player_renamed`, `account_renamed`: a name changed, on every game showing it.

A game's new version is told to the phones following it (`scoring.live`) once the change
commits: the write that made the change announces it.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.base_user import AbstractBaseUser
from django.core.cache import cache
from django.db import transaction
from django.db.models import F, QuerySet

from scoring import caching, live
from scoring.models import Game, Player, Season


def game_changed(
    game: Game,
    *,
    saving: Sequence[str] = (),
    was_in: int | None = None,
    appended: int | None = None,
    figure: bool = False,
) -> None:
    """Count up the version of `game` (the row locked by the transaction that changed it) and
    of its season: every cached copy of its board, and of its season's tables and lists, is out
    of date, and the phones following it fetch it again.

    `saving` names the game's other fields changed with it, saved in the same UPDATE; `was_in`
    is the season a moved game was in, whose pages change too; `appended`, the number of the
    deal whose recording is the change (`deal_appended`); `figure`, the change is a player's own
    figure sent, the deal still filling in (`figure_sent`).
    """
    game.version += 1
    game.save(update_fields=[*saving, "version"])
    if appended is not None:
        # Noted before the phones are told: a stream reads the board at their word.
        deal_appended(game, appended)
    elif figure:
        figure_sent(game)
    live.game_changed(game.pk, game.version)
    seasons_changed(game.season_id, *([was_in] if was_in is not None else []))


def figure_sent(game: Game) -> None:
    """Once the transaction commits: the one change that made the game's version was a
    player's own figure sent, the deal still filling in. A board showing the version before
    then needs only the filling: the stream's delta brings it (`caching.sent_a_figure`)."""
    key = caching.figure_key(game, game.version)
    transaction.on_commit(lambda: cache.set(key, True, caching.APPENDED_SECONDS))


def seasons_changed(*season_ids: int) -> None:
    """Count the seasons' `version` up: their pages, cached under it, are out of date.

    Call it in the transaction that adds or removes one of their games, or changes their own
    rules or stake (a game's own changes call `game_changed`).
    """
    Season.objects.filter(pk__in=season_ids).update(version=F("version") + 1)


def games_changed(games: QuerySet[Game]) -> None:
    """Count up the version of every game in `games` and of their seasons, for a change that
    shows on all of them at once."""
    found = list(games.values_list("pk", "season_id"))
    changed = Game.objects.filter(pk__in=[pk for pk, _ in found])
    changed.update(version=F("version") + 1)
    for pk, version in changed.values_list("pk", "version"):
        live.game_changed(pk, version)
    seasons_changed(*{season_id for _, season_id in found})


def player_renamed(player: Player) -> None:
    """The player's games show their name: on the board, the season's table and lists."""
    games_changed(Game.objects.filter(seats__player=player))


def account_renamed(user: AbstractBaseUser) -> None:
    """The histories name who changed what: the games and seasons whose history names them."""
    games_changed(Game.objects.filter(changes__by=user).distinct())
    seasons_changed(*Season.objects.filter(changes__by=user).values_list("pk", flat=True))


def deal_appended(game: Game, number: int) -> None:
    """Once the transaction commits: the one change that made the game's version was deal
    `number` recorded. If that added a row to a board that goes on (`caching.adds_a_row`), a
    board showing the version before is then brought up to date with that deal's row and what
    it changed (templates/scoring/_board_delta.html, or the stream's delta) instead of the
    whole scoreboard (`caching.appended_deal`). Called by `game_changed` with `appended`."""
    if not caching.adds_a_row(game, number):
        return
    key = caching.appended_key(game, game.version)
    transaction.on_commit(lambda: cache.set(key, number, caching.APPENDED_SECONDS))
