"""Every cached fragment's key: reads only (the versions in them are counted up by the writes,
`scoring.services.versions`).

Pages cache their costly parts with `{% cache 86400 <fragment> <key> %}` in Django's cache
(settings.CACHES, whose KEY_PREFIX names the database and the release), each key built here
and handed to the template as one value. A key holds the game's or season's own `key` (unique
to that row of that database: a restored or recreated database, whose ids start again, never
shows another game's fragments) and its `version`, and everything else its fragment shows
that can change without the version changing: the language, the club's currency, the rules,
the sort and page.
"""

from __future__ import annotations

import hashlib
from urllib.parse import quote

from django.core.cache import cache
from django.http import QueryDict
from django.utils import translation

from scoring.models import Game, Season


def board_key(game: Game, *, shared: bool) -> str:
    """templates/scoring/_board.html: the scoreboard, banners, chart and, unless shared, the
    undo button and history; amounts in the club's currency. `game` must come with its club."""
    language = translation.get_language()
    return _key(game.pk, game.key, game.version, shared, language, game.club.currency, game.rules)


# The page asked of a season's games: a whole number, or the first page.
MOST_PAGES = 10_000


def page_asked(query: QueryDict) -> int:
    """The page of a season's finished games the query string asks for: a whole number up to
    MOST_PAGES in ASCII digits (str.isdigit() also takes "²", which int() refuses), else the
    first. The lists are cached under it and listed from it alike: a page read two ways once
    kept the last games under the first page's key."""
    page = query.get("page", "1")
    wanted = page.isascii() and page.isdigit() and len(page) <= len(str(MOST_PAGES))
    return int(page) if wanted and 0 < int(page) <= MOST_PAGES else 1


def season_lists_key(season: Season, query: QueryDict, *, ratings: str = "") -> str:
    """The season's standings table and lists of games (season and club pages), as the query
    string sorts and pages them. Only what the page reads of the query string is in the key,
    so a query string of anything else can't make the cache hold a page for each. `ratings`
    (`scoring.selectors.ratings.mark_key`): the table's ratings change with other seasons."""
    sort, order, page = query.get("sort", ""), query.get("order", ""), page_asked(query)
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


def _key(*parts: object) -> str:
    # Quoted as the cache tag quotes its own arguments, so no two lists of parts make one key.
    return ":".join(quote(str(part), safe="") for part in parts)


# A deal appended: a board one version behind needs only that deal's changes

APPENDED_SECONDS = 3600


def appended_key(game: Game, version: int) -> str:
    """Where the number of the deal whose recording made `version` of the game is kept
    (`scoring.services.versions.deal_appended`)."""
    return "game-appended:" + _key(game.pk, game.key, version)


def adds_a_row(game: Game, number: int) -> bool:
    """Whether deal `number`, just recorded as the game's last, is all a board one version
    behind needs: a row added to its table, the game going on. The first deal's board had no
    table yet, and the last brings the result: those send the whole board."""
    return number > 1 and not game.is_finished


def figure_key(game: Game, version: int) -> str:
    """Where it is noted that a player's own figure sent made `version` of the game
    (`scoring.services.versions.figure_sent`)."""
    return "game-figure:" + _key(game.pk, game.key, version)


def sent_a_figure(game: Game) -> bool:
    """Whether the one change that made the game's version was a player's own figure sent, the
    deal still filling in: a board one version behind then needs only the filling."""
    return cache.get(figure_key(game, game.version)) is not None


def appended_deal(game: Game) -> int | None:
    """The deal whose recording made the game's version (see
    `scoring.services.versions.deal_appended`); None: another change, or not known here, and
    the whole board is sent."""
    return cache.get(appended_key(game, game.version))
