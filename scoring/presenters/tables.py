"""The tables and lists of the season, club and player pages: the league table with its
sortable headings, a season's games a page at a time, a player's games."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from django.core.paginator import Page, Paginator
from django.http import QueryDict
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from scoring import selectors
from scoring.caching import page_asked
from scoring.models import Game, Player, Season
from scoring.selectors.rating_model import Rated
from scoring.selectors.standings import Standing, ranked

# Column in the query string → (its heading, whether a higher value is better, which is the
# direction a first tap sorts in). In the order the table shows them: first the rank, the
# player and the figures that decide the rank (Standing.rank_key: games won, then average
# penalty per deal, then deals won), which a phone shows without a sideways swipe; then the rest.
COLUMNS: dict[str, tuple[Promise, bool]] = {
    "rank": (gettext_lazy("Rank"), False),
    "player": (gettext_lazy("Player"), False),
    "wins": (gettext_lazy("Won"), True),
    "average_penalty": (gettext_lazy("Per deal"), False),
    "deals_won": (gettext_lazy("Went out"), True),
    "rating": (gettext_lazy("Rating"), True),
    "games": (gettext_lazy("Games"), True),
    "win_percent": (gettext_lazy("Win %"), True),
    "deals": (gettext_lazy("Deals"), True),
    "penalty": (gettext_lazy("Points"), False),
    "thirteens": (gettext_lazy("Caught with 13"), False),
    "best": (gettext_lazy("Best"), False),
}


def sorted_by(lines: list[Standing], column: str, descending: bool) -> list[Standing]:
    """The table sorted on a column; ties keep the league order. A figure the rules didn't
    count (a dash) sorts after every number, either way."""

    def key(line: Standing) -> object:
        return line.name.casefold() if column == "player" else getattr(line, column)

    counted = [line for line in lines if key(line) is not None]
    return sorted(counted, key=key, reverse=descending) + [
        line for line in lines if key(line) is None
    ]


@dataclass(frozen=True, slots=True)
class Heading:
    column: str
    label: str
    url: str
    sort: str  # the aria-sort value: "ascending", "descending" or "none"


@dataclass(frozen=True, slots=True)
class Table:
    lines: list[Standing]
    headings: list[Heading]
    column: str
    descending: bool
    # Players with fewer games than the season asks to be ranked, by name: "Not yet ranked".
    unranked: list[Standing] = field(default_factory=list)
    min_games: int = 0

    @property
    def uncounted(self) -> bool:
        """Some line shows a dash: its games' rules don't ask for cards left."""
        return any(line.thirteens is None for line in self.lines)

    @property
    def column_label(self) -> str:
        """The heading of the column the table is sorted on, in the page's language."""
        return str(COLUMNS[self.column][0])


def standings_table(
    lines: list[Standing],
    *,
    path: str,
    query: QueryDict,
    rated: dict[int, Rated] | None = None,
    min_games: int = 0,
) -> Table:
    """The table sorted as the query string asks (`?sort=wins&order=desc`), with header links
    to `path` that sort on their column, or flip the order when it is already sorted on it.
    Each line carries its player's rating in `rated`; players with fewer than `min_games`
    games are set apart, unranked, and the others ranked again among themselves."""
    rated = rated or {}
    lines = [replace(line, rating=rating_of(rated, line.player_id)) for line in lines]
    unranked = sorted(
        (line for line in lines if line.games < min_games), key=lambda line: line.name.casefold()
    )
    if unranked:
        lines = ranked(line for line in lines if line.games >= min_games)
    column = query.get("sort", "rank")
    if column not in COLUMNS:
        column = "rank"
    descending = query.get("order") == "desc"
    headings = []
    for name, (label, higher_is_better) in COLUMNS.items():
        if name == column:
            next_descending = not descending
            sort = "descending" if descending else "ascending"
        else:
            next_descending = higher_is_better
            sort = "none"
        order = "desc" if next_descending else "asc"
        headings.append(Heading(name, label, f"{path}?sort={name}&order={order}", sort))
    return Table(
        sorted_by(lines, column, descending), headings, column, descending, unranked, min_games
    )


def rating_of(rated: dict[int, Rated], player_id: int) -> float | None:
    """The rating as shown: one decimal."""
    return round(rated[player_id].rating, 1) if player_id in rated else None


GAMES_PER_PAGE = 20


@dataclass(frozen=True, slots=True)
class SeasonGames:
    """A season's games as its pages list them: those in progress apart, finished ones a page
    at a time, newest first (a season can hold a thousand)."""

    in_progress: list[Game]
    finished: Page
    page_query: str  # the query string of the other pages, keeping the table's sort


def season_games(season: Season, query: QueryDict) -> SeasonGames:
    """The season's games, the finished ones at the page `query` asks for."""
    games = season.games.order_by("-created_at", "-pk")
    finished = Paginator(
        selectors.games_with_seats(games.filter(status=Game.Status.FINISHED)), GAMES_PER_PAGE
    ).get_page(page_asked(query))
    params = query.copy()
    params.pop("page", None)
    return SeasonGames(
        in_progress=list(selectors.games_with_seats(games.filter(status=Game.Status.IN_PROGRESS))),
        finished=finished,
        page_query=params.urlencode(),
    )


@dataclass(frozen=True, slots=True)
class PlayedGame:
    game: Game
    total: int
    place: int  # 1 for the lowest total; players level share a place
    average: float
    others: list[str]  # the other players' names, in seat order


def played_games(player: Player, games: Iterable[Game]) -> list[PlayedGame]:
    """The player's games, oldest first, each with their total, place and average a deal."""
    played = []
    for game in sorted(games, key=lambda game: (game.created_at, game.pk)):
        totals = [seat.total for seat in game.seats.all()]
        mine = next(seat for seat in game.seats.all() if seat.player_id == player.pk)
        played.append(
            PlayedGame(
                game=game,
                total=mine.total,
                place=1 + sum(1 for total in totals if total < mine.total),
                average=mine.total / mine.deals_played if mine.deals_played else 0.0,
                others=[seat.player.name for seat in game.seats.all() if seat != mine],
            )
        )
    return played
