"""Every cached fragment's key, and the calls that mark what a fragment shows as changed.

Pages cache their costly parts with `{% cache 86400 <fragment> <key> %}` in Django's cache
(settings.CACHES, whose KEY_PREFIX names the database), each key built here and handed to the
template as one value. A key holds the game's or season's own `key` (unique to that row of
that database: a restored or recreated database, whose ids start again, never shows another
game's fragments) and its `version`, and everything else its fragment shows that can change
without the version changing: the language, the club's currency, the rules, the sort and page.

Everything else a fragment shows (deals, totals, stakes, history, players' and accounts' names)
counts up the `version` of the game or season it belongs to, in the transaction that changes it:

- `game_changed`: a game's deals, stake, season or history changed (its season's too);
- `seasons_changed`: a season gained or lost a game, or its rules or stake changed;
- `player_renamed`, `account_renamed`: a name changed, on every game showing it.

A game's new version is also told to the phones following it (scoring/live.py) once the change
commits.
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Sequence
from urllib.parse import quote

from django.contrib.auth.base_user import AbstractBaseUser
from django.core.cache import cache
from django.db import transaction
from django.db.models import F, QuerySet
from django.http import QueryDict
from django.utils import translation

from scoring import live
from scoring.models import Game, Player, Season

# Keys


def board_key(game: Game, *, shared: bool) -> str:
    """templates/scoring/_board.html: the scoreboard, banners, chart and, unless shared, the
    undo button and history; amounts in the club's currency. `game` must come with its club."""
    language = translation.get_language()
    return _key(game.pk, game.key, game.version, shared, language, game.club.currency, game.rules)


# The page asked of a season's games: a whole number, or the first page.
MOST_PAGES = 10_000


def season_lists_key(season: Season, query: QueryDict, *, ratings: str = "") -> str:
    """The season's standings table and lists of games (season and club pages), as the query
    string sorts and pages them. Only what the page reads of the query string is in the key,
    so a query string of anything else can't make the cache hold a page for each. `ratings`
    (`scoring.ratings.mark_key`): the table's ratings change with games of other seasons."""
    sort, order, page = query.get("sort", ""), query.get("order", ""), query.get("page", "1")
    page = page if page.isdigit() and 0 < int(page) <= MOST_PAGES else "1"
    language = translation.get_language()
    return _key(
        season.pk, season.key, season.version, sort[:20], order == "desc", page, language, ratings
    )


def season_settlement_key(season: Season) -> str:
    """The season's settling up, in the club's currency. `season` must come with its club."""
    language = translation.get_language()
    return _key(season.pk, season.key, season.version, language, season.club.currency)


def season_history_key(season: Season) -> str:
    """The season's history: rule sets named in the page's language."""
    return _key(season.pk, season.key, season.version, translation.get_language())


def download_key(game: Game, kind: str) -> str:
    """A game's download (`kind`: scoring/views/exports.py), kept under its version: a long
    game's deals are read and replayed once a change, not once a request. Besides the version,
    the language (the rules' label) and the club's and season's names (a score file's first
    line), which change without it. `game` must come with its club and season."""
    names = hashlib.sha256(f"{game.club.name}\n{game.season.name}".encode()).hexdigest()[:16]
    language = translation.get_language()
    return "game-download:" + _key(kind, game.pk, game.key, game.version, language, names)


def ratings_key(club_id: int, created_at: datetime.datetime, version: int) -> str:
    """A club's ratings that its stored snapshots miss, worked out in memory by a read
    (scoring/ratings.py), kept under the version of the club's ratings (its `RatingsMark`,
    counted up by every write that changes them); the club's creation time tells it from a
    club of the same id in a database made again."""
    return "ratings-missing:" + _key(club_id, created_at.isoformat(), version)


def _key(*parts: object) -> str:
    # Quoted as the cache tag quotes its own arguments, so no two lists of parts make one key.
    return ":".join(quote(str(part), safe="") for part in parts)


# A deal appended: a board one version behind needs only that deal's changes

APPENDED_SECONDS = 3600


def _appended_key(game: Game, version: int) -> str:
    return "game-appended:" + _key(game.pk, game.key, version)


def deal_appended(game: Game, number: int) -> None:
    """Once the transaction commits: the one change that made the game's version was deal
    `number` recorded, the game going on. A board showing the version before is then brought up
    to date with that deal's row and what it changed (templates/scoring/_board_delta.html)
    instead of the whole scoreboard."""
    key = _appended_key(game, game.version)
    transaction.on_commit(lambda: cache.set(key, number, APPENDED_SECONDS))


def appended_deal(game: Game) -> int | None:
    """The deal whose recording made the game's version (see `deal_appended`); None: another
    change, or not known here, and the whole board is sent."""
    return cache.get(_appended_key(game, game.version))


# Marking changed


def game_changed(game: Game, *, saving: Sequence[str] = (), was_in: int | None = None) -> None:
    """Count up the version of `game` (the row locked by the transaction that changed it) and
    of its season: every cached copy of its board, and of its season's tables and lists, is out
    of date, and the phones following it fetch it again.

    `saving` names the game's other fields changed with it, saved in the same UPDATE; `was_in`
    is the season a moved game was in, whose pages change too.
    """
    game.version += 1
    game.save(update_fields=[*saving, "version"])
    live.game_changed(game.pk, game.version)
    seasons_changed(game.season_id, *([was_in] if was_in is not None else []))


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
