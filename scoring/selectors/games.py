"""The reads of games: a member's games and the shared ones, their seats, deals and history,
and a season's rows for its exports. A game is found through the signed-in user's memberships
(`member_game`), or by its live view link's token (`shared_games`)."""

from __future__ import annotations

import uuid

from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import CharField, F, Max, Prefetch, QuerySet, Value
from django.db.models.functions import Cast, Coalesce
from django.shortcuts import get_object_or_404

from scoring.models import (
    Club,
    ClubChange,
    Deal,
    DealScore,
    Game,
    GameChange,
    Player,
    Season,
    SeasonChange,
    Seat,
    token_digest,
)
from scoring.models.facts import DEAL_COLUMNS, SCORE_COLUMNS, StoredDeal, deals_from_rows
from scoring.selectors.clubs import member_id

# How many lines of a game's, a season's or a club's history its page shows.
HISTORY_SHOWN = 50


def seats_in_order() -> QuerySet[Seat]:
    """Seats with their players, clockwise from seat 0."""
    return Seat.objects.select_related("player").order_by("position")


def member_games(user: AbstractBaseUser) -> QuerySet[Game]:
    """The games of the clubs `user` is a member of (none, signed out)."""
    return Game.objects.filter(club__memberships__user=member_id(user))


def member_game(user: AbstractBaseUser, game_id: int) -> Game:
    return get_object_or_404(member_games(user).select_related("club", "season"), pk=game_id)


def member_game_version(user: AbstractBaseUser, game_id: int) -> tuple[int, int] | None:
    """The game's id and version if `user` is a member of its club, else None."""
    return member_games(user).filter(pk=game_id).values_list("pk", "version").first()


def games_in_progress_of(user: AbstractBaseUser, *, most: int) -> list[Game]:
    """At most `most` of the games in progress in the user's clubs, the one last played (a
    deal recorded, or else started) first, each with its club and season, its seats and
    players clockwise, and `deals`: how many deals it has had. Two queries."""
    games = (
        Game.objects.filter(club__memberships__user=user, status=Game.Status.IN_PROGRESS)
        .annotate(
            deals_had=Coalesce(Max("deals__number"), 0),
            last_played=Coalesce(Max("deals__recorded_at"), "created_at"),
        )
        .select_related("club", "season")
        .prefetch_related(Prefetch("seats", queryset=seats_in_order()))
        .order_by("-last_played", "-pk")
    )
    return list(games[:most])


def last_game_players(club: Club) -> list[str]:
    """The names of the players of the club's most recent game, clockwise (none without a
    game): a table usually keeps its seats from one game to the next."""
    last = club.games.order_by("-created_at", "-pk").values("pk")[:1]
    return list(seats_in_order().filter(game__in=last).values_list("player__name", flat=True))


def shared_games(token: str) -> QuerySet[Game]:
    """The game (none or one) whose live view link carries `token`."""
    return Game.objects.filter(share_digest=token_digest(token), share_token__isnull=False)


def seats_of(game: Game) -> list[Seat]:
    """The game's seats with their players, clockwise from seat 0."""
    return list(seats_in_order().filter(game_id=game.pk))


def board_seats(game_id: int, within: QuerySet[Game] | None = None) -> list[Seat]:
    """The game's seats with their players, and the game as it is now beside them (with its
    club and season), in one query; none if it is gone, or no longer one of `within`'s."""
    seats = Seat.objects.filter(game_id=game_id)
    if within is not None:
        seats = seats.filter(game__in=within.values("pk"))
    return list(seats.select_related("player", "game__club", "game__season").order_by("position"))


def stored_deals(
    game: Game, *, number: int | None = None, version: int | None = None
) -> list[StoredDeal]:
    """The game's deals (or deal `number` alone, if it has one) as stored, each read as the
    game's rules read it (`scoring.models.facts.deals_from_rows`); one query. With `version`,
    none unless the game is still at that version."""
    scores = _scores_of(game, version)
    if number is not None:
        scores = scores.filter(deal__number=number)
    rows = scores.order_by("deal__number", "seat__position").values_list(
        *(f"deal__{column}" for column in DEAL_COLUMNS), *SCORE_COLUMNS
    )
    return deals_from_rows(game.ruleset, rows)


def _scores_of(game: Game, version: int | None) -> QuerySet[DealScore]:
    scores = DealScore.objects.filter(deal__game=game)
    return scores if version is None else scores.filter(deal__game__version=version)


def deal_penalties(game: Game, *, version: int | None = None) -> list[tuple[int, ...]]:
    """Each deal's penalties in seat order, deal by deal. With `version`, none unless the game
    is still at that version."""
    rows = (
        _scores_of(game, version)
        .order_by("deal__number", "seat__position")
        .values_list("deal__number", "penalty")
    )
    by_deal: dict[int, list[int]] = {}
    for number, penalty in rows:
        by_deal.setdefault(number, []).append(penalty)
    return [tuple(penalties) for penalties in by_deal.values()]


def deal_numbered(game: Game, number: int) -> Deal:
    """The game's deal `number`, or Http404."""
    return get_object_or_404(game.deals, number=number)


def deal_recorded_with(game: Game, token: uuid.UUID) -> int | None:
    """The number of the deal of `game` that the deal form with `token` recorded, if any."""
    return game.deals.filter(token=token).values_list("number", flat=True).first()


def recent_changes(game: Game) -> QuerySet[GameChange]:
    return game.changes.select_related("by")[:HISTORY_SHOWN]


def recent_season_changes(season: Season) -> list[SeasonChange]:
    return list(season.changes.select_related("by")[:HISTORY_SHOWN])


def recent_club_changes(club: Club) -> list[ClubChange]:
    return list(club.changes.select_related("by")[:HISTORY_SHOWN])


def games_with_seats(games: QuerySet[Game]) -> QuerySet[Game]:
    """`games` with their winners, and their seats and players clockwise (three queries)."""
    return games.select_related("winner").prefetch_related(
        Prefetch("seats", queryset=seats_in_order())
    )


def games_of_player(player: Player) -> QuerySet[Game]:
    return games_with_seats(Game.objects.filter(seats__player=player)).select_related("season")


def staked_seats(season: Season) -> QuerySet:
    """(game id, stake, player's name, total) of each seat of the season's finished games
    played for money, game by game, clockwise."""
    return (
        Seat.objects.filter(
            game__season=season, game__status=Game.Status.FINISHED, game__stake__gt=0
        )
        .order_by("game_id", "position")
        .values_list("game_id", "game__stake", "player__name", "total")
    )


def season_deal_rows(season: Season, season_name: str) -> QuerySet:
    """Every player's line of every deal of the season as the deals CSV shapes it, in one
    query: `season_name`, game id, the deal's time as text, deal number, seat (from 1),
    player's name, cards left, penalty."""
    return (
        DealScore.objects.filter(deal__game__season=season)
        .order_by("deal__game_id", "deal__number", "seat__position")
        .annotate(
            season_name=Value(season_name),
            recorded=Cast("deal__recorded_at", output_field=CharField()),
            seat_number=F("seat__position") + 1,
        )
        .values_list(
            "season_name",
            "deal__game_id",
            "recorded",
            "deal__number",
            "seat_number",
            "seat__player__name",
            "cards_left",
            "penalty",
        )
    )
