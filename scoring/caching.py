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
"""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import quote

from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import F, QuerySet
from django.utils import translation

from scoring.models import Game, Player, Season

# Keys


def board_key(game: Game, *, shared: bool) -> str:
    """templates/scoring/_board.html: the scoreboard, banners, chart and, unless shared, the
    undo button and history; amounts in the club's currency. `game` must come with its club."""
    return _key(
        game.pk, game.version, shared, translation.get_language(), game.club.currency, game.rules
    )


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
    Game.objects.filter(pk__in=[pk for pk, _ in found]).update(version=F("version") + 1)
    seasons_changed(*{season_id for _, season_id in found})


def player_renamed(player: Player) -> None:
    """The player's games show their name: on the board, the season's table and lists."""
    games_changed(Game.objects.filter(seats__player=player))


def account_renamed(user: AbstractBaseUser) -> None:
    """The histories name who changed what: the games and seasons whose history names them."""
    games_changed(Game.objects.filter(changes__by=user).distinct())
    seasons_changed(*Season.objects.filter(changes__by=user).values_list("pk", flat=True))
