"""Every cached fragment's key, and the calls that mark what a fragment shows as changed.

Pages cache their costly parts with `{% cache 86400 <fragment> <key> %}`, each key built here
and handed to the template as one value. A key holds everything its fragment shows that can
change without the fragment's game or season changing: the language, the club's currency, the
rules, the query string (sort and page). Everything else a fragment shows (deals, totals,
stakes, history, players' and accounts' names) counts up the `version` of the game or season it
belongs to, which every key holds too, in the transaction that changes it:

- `game_changed`: a game's deals, stake, season or history changed (its season's too);
- `seasons_changed`: a season gained or lost a game, or its rules or stake changed;
- `player_renamed`, `account_renamed`: a name the admin changed, on every game showing it.

Each game's version is also kept in the `shared` cache (Redis where there is one, else
files every worker on the machine reads), so that a poll asking "anything new since version
v?" is answered without the database (scoring/views/live.py). A change puts the new version
there as it counts it up, and again once it commits. Before the commit a poll then finds a
version it can't read yet, and takes the long way round, which shows what is committed: never
"nothing new" after a change. A poll that reads the version from the database adds it only if
none is there, so it can't put back a version older than a writer's.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from urllib.parse import quote

from django.contrib.auth.base_user import AbstractBaseUser
from django.core.cache import caches
from django.db import transaction
from django.db.models import F, QuerySet
from django.utils import translation

from scoring.models import Game, Player, Season

# Keys


def board_key(game: Game, *, shared: bool) -> str:
    """templates/scoring/_board.html: the scoreboard, banners, chart and, unless shared, the
    undo button and history; amounts in the club's currency. `game` must come with its club."""
    return _board_at(game, game.version, shared)


def rows_key(game: Game, version: int, *, shared: bool) -> str:
    """The scoreboard's rows at `version` of the game (scoring/presenters/rows.py): what the
    board shows but for its version, which is given, so the rows of the version before can be
    found. `game` must come with its club."""
    return "board-rows:" + _board_at(game, version, shared)


def _board_at(game: Game, version: int, shared: bool) -> str:
    language = translation.get_language()
    return _key(game.pk, version, shared, language, game.club.currency, game.rules)


def history_key(game: Game, version: int) -> str:
    """The board's history at `version` of the game (scoring/presenters/history.py): its lines
    name who changed what in the page's language; `version` is given, as for `rows_key`."""
    return "board-history:" + _key(game.pk, version, translation.get_language())


def game_page_key(game: Game, *, is_owner: bool, address: str) -> str:
    """The whole game page as a member sees it, or an owner (scoring/views/pages.py,
    `kept_game_page`): besides what the board shows, the club's name and currency, the
    season's name, the share link, and the page's own address (the language form comes back
    to it, the share link is built on it). `game` must come with its club and season."""
    shown = (
        game.club.name,
        game.club.currency,
        game.season.name,
        game.share_token,
        game.stake,
        game.rules,
        address,
    )
    return _page_key("game-page", game.pk, game.version, is_owner, shown)


def season_page_key(
    season: Season,
    *,
    seasons: Sequence[Season],
    is_owner: bool,
    address: str,
) -> str:
    """A season's whole page as a member sees it, or an owner (scoring/views/seasons.py):
    besides what its version covers, the season's own fields, its club's name and currency,
    the club's `seasons` (the page's menu of them) and the page's own address (sort and page,
    and where the language form comes back to). `season` must come with its club."""
    club = season.club
    shown = (
        club.name,
        club.currency,
        season.name,
        season.starts_on,
        season.ends_on,
        season.is_current,
        season.rules,
        season.stake,
        [(other.pk, other.name, other.is_current) for other in seasons],
        address,
    )
    return _page_key("season-page", season.pk, season.version, is_owner, shown)


def _page_key(kind: str, pk: int, version: int, is_owner: bool, shown: tuple) -> str:
    """A kept page's key: at which version, for an owner or not, in which language, and a
    digest of what else it shows (long values, such as the page's address, kept out of the
    key itself).

    No user: every member of the club is shown the same page (whatever names one of them is
    a hole of the page: common/page_cache.py), so the first to open a version renders it for
    the table. Who may open it at all is checked before the key is looked up."""
    digest = hashlib.sha256(repr(shown).encode()).hexdigest()
    return _key(kind, pk, version, is_owner, translation.get_language(), digest)


def season_lists_key(season: Season, full_path: str) -> str:
    """The season's standings table and lists of games (season and club pages): sorted and
    paged as the query string says."""
    return _key(season.pk, season.version, full_path, translation.get_language())


def season_settlement_key(season: Season) -> str:
    """The season's settling up, in the club's currency. `season` must come with its club."""
    return _key(season.pk, season.version, translation.get_language(), season.club.currency)


def season_history_key(season: Season) -> str:
    """The season's history: rule sets named in the page's language."""
    return _key(season.pk, season.version, translation.get_language())


def _key(*parts: object) -> str:
    # Quoted as the cache tag quotes its own arguments, so no two lists of parts make one key.
    return ":".join(quote(str(part), safe="") for part in parts)


# The versions polls compare with

# Kept this long after the last change or read, so a game nobody follows drops out.
VERSION_SECONDS = 3600


def game_version_key(game_id: int) -> str:
    return f"game-version:{game_id}"


def known_version(game_id: int) -> int | None:
    """The game's version as the last change left it; None: not known here, ask the database."""
    return caches["shared"].get(game_version_key(game_id))


def remember_version(game_id: int, version: int) -> None:
    """A version just read from the database, kept unless a writer has put one there (see the
    module's docstring)."""
    caches["shared"].add(game_version_key(game_id), version, timeout=VERSION_SECONDS)


def _publish_version(game_id: int, version: int) -> None:
    """Say the game is at `version`, now and again when the transaction commits."""
    key = game_version_key(game_id)
    caches["shared"].set(key, version, timeout=VERSION_SECONDS)
    transaction.on_commit(lambda: caches["shared"].set(key, version, timeout=VERSION_SECONDS))


def appended_key(game_id: int, version: int) -> str:
    return f"game-appended:{game_id}:{version}"


def deal_appended(game_id: int, version: int, number: int) -> None:
    """Once the transaction commits: the one change that made `version` was deal `number`
    recorded, the game going on. A board showing the version before is then brought up to date
    with that deal's row and what it changed (templates/scoring/_board_delta.html) instead of
    the whole scoreboard."""
    key = appended_key(game_id, version)
    # With the fragments it spares rendering, not the versions: one a deal, and one dropped to
    # make room only costs the board rendered whole.
    transaction.on_commit(lambda: caches["rendered"].set(key, number, timeout=VERSION_SECONDS))


def appended_deal(game_id: int, version: int) -> int | None:
    """The deal whose recording made `version` (see `deal_appended`); None: another change, or
    not known here, and the whole board is sent."""
    return caches["rendered"].get(appended_key(game_id, version))


def game_gone(game_id: int) -> None:
    """A deleted game's version is forgotten: its polls take the long way and are told so."""
    transaction.on_commit(lambda: caches["shared"].delete(game_version_key(game_id)))


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
    _publish_version(game.pk, game.version)
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
        _publish_version(pk, version)
    seasons_changed(*{season_id for _, season_id in found})


def player_renamed(player: Player) -> None:
    """The player's games show their name: on the board, the season's table and lists."""
    games_changed(Game.objects.filter(seats__player=player))


def account_renamed(user: AbstractBaseUser) -> None:
    """The histories name who changed what: the games and seasons whose history names them."""
    games_changed(Game.objects.filter(changes__by=user).distinct())
    seasons_changed(*Season.objects.filter(changes__by=user).values_list("pk", flat=True))
