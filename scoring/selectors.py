"""Every read of the score-keeping app that a page, an export or a write shares.

A club and all of it is found through the signed-in user's memberships (`member_club`,
`member_game`, `member_season`, `member_player`): anyone else gets a 404, so not even its
existence leaks. The ways in from outside are found by a link's token (`club_by_invite`,
`shared_games`). The league table is in `scoring.standings`.
"""

from __future__ import annotations

import secrets
import uuid

from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import (
    CharField,
    Count,
    F,
    Max,
    Prefetch,
    Q,
    QuerySet,
    Value,
)
from django.db.models.functions import Cast, Coalesce
from django.http import Http404
from django.shortcuts import get_object_or_404

from scoring.models import (
    PLAYER_NAME_MAX_LENGTH,
    Club,
    ClubChange,
    Deal,
    DealScore,
    Game,
    GameChange,
    Membership,
    Player,
    Season,
    SeasonChange,
    Seat,
    token_digest,
)
from scoring.names import name_key, name_problem, tidy_name

# How many lines of a game's, a season's or a club's history its page shows.
HISTORY_SHOWN = 50


def seats_in_order() -> QuerySet[Seat]:
    """Seats with their players, clockwise from seat 0."""
    return Seat.objects.select_related("player").order_by("position")


# Members only


def member_club(user: AbstractBaseUser, club_id: int) -> Club:
    return get_object_or_404(
        Club.objects.select_related("owner"), pk=club_id, memberships__user=user
    )


def member_id(user: AbstractBaseUser) -> int:
    """The account's id: signed out, a member of nothing (404)."""
    if user.pk is None:
        raise Http404
    return user.pk


def member_games(user: AbstractBaseUser) -> QuerySet[Game]:
    """The games of the clubs `user` is a member of (none, signed out)."""
    return Game.objects.filter(club__memberships__user=member_id(user))


def member_game(user: AbstractBaseUser, game_id: int) -> Game:
    return get_object_or_404(member_games(user).select_related("club", "season"), pk=game_id)


def game_at(game_id: int, version: int) -> bool:
    """Whether the game is still at `version` (no change since it was read so)."""
    return Game.objects.filter(pk=game_id, version=version).exists()


def member_game_version(user: AbstractBaseUser, game_id: int) -> tuple[int, int] | None:
    """The game's id and version if `user` is a member of its club, else None."""
    return member_games(user).filter(pk=game_id).values_list("pk", "version").first()


def member_season(
    user: AbstractBaseUser, season_id: int, seasons: QuerySet[Season] | None = None
) -> Season:
    seasons = Season.objects.all() if seasons is None else seasons
    return get_object_or_404(
        seasons.select_related("club"), pk=season_id, club__memberships__user=user
    )


def member_season_and_menu(user: AbstractBaseUser, season_id: int) -> tuple[Season, list[Season]]:
    """The season, if `user` is a member of its club, and its club's seasons (the season's page
    lists them), in one query."""
    seasons = list(
        Season.objects.filter(
            club__seasons=season_id, club__memberships__user=member_id(user)
        ).select_related("club")
    )
    for season in seasons:
        if season.pk == season_id:
            return season, seasons
    raise Http404


def member_player(user: AbstractBaseUser, player_id: int) -> Player:
    """The player, with their club (and owner) and the member who said they are them."""
    return get_object_or_404(
        Player.objects.select_related("club__owner", "member__user"),
        pk=player_id,
        club__memberships__user=user,
    )


def player_of(user: AbstractBaseUser, club: Club) -> Player | None:
    """The player of the club's roster `user` said they are, if any."""
    return club.players.filter(member__user=member_id(user)).first()


def clubs_of(user: AbstractBaseUser) -> QuerySet[Club]:
    return Club.objects.filter(memberships__user=user).select_related("owner")


def clubs_with_games_in_progress(user: AbstractBaseUser) -> QuerySet[Club]:
    """The user's clubs, each with `playing`: how many of its games are in progress; and, to
    tell which the user last played at, `last_started` (when its latest game started, None
    before the first) and `joined` (when the user joined it)."""
    return clubs_of(user).annotate(
        playing=Count("games", filter=Q(games__status=Game.Status.IN_PROGRESS)),
        last_started=Max("games__created_at"),
        # The user's own membership: the one the clubs were found by.
        joined=Max("memberships__joined_at"),
    )


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


def seat_names(club: Club) -> list[tuple[str, bool]]:
    """What the new game's seats offer, in name order: each player of the roster, and each
    member who is no player of the club yet by their username (a name a seat takes, looking
    like no player's); with whether it is a member's."""
    roster = list(club.players.values_list("name", "name_key"))
    keys = {key for _name, key in roster}
    offered = [(name, False) for name, _key in roster]
    for username in club.memberships.filter(player__isnull=True).values_list(
        "user__username", flat=True
    ):
        name = tidy_name(username)
        fits = len(name) <= PLAYER_NAME_MAX_LENGTH and name_problem(name) is None
        if fits and name_key(name) not in keys:
            offered.append((name, True))
            keys.add(name_key(name))
    return sorted(offered, key=lambda choice: (choice[0].casefold(), choice[0]))


def current_season(club_id: int) -> Season | None:
    """The season the club's new games go into."""
    return Season.objects.filter(club_id=club_id, is_current=True).first()


def is_member(club: Club, user: AbstractBaseUser) -> bool:
    return club.memberships.filter(user=user).exists()


def clubs_run_by(user: AbstractBaseUser) -> QuerySet[Club]:
    return Club.objects.filter(owner=user)


def membership_in(club: Club, membership_id: int) -> Membership | None:
    """One of the club's members (with their account), or None if they are in it no more."""
    return club.memberships.select_related("user").filter(pk=membership_id).first()


def roster_player(club: Club, player_id: int) -> Player | None:
    """One of the club's players (with the club), or None if they are on its roster no more."""
    return club.players.select_related("club").filter(pk=player_id).first()


def club_left_by(user: AbstractBaseUser, club_id: int) -> Club | None:
    """The club, if the last line of its history about `user` says they left it: what a resent
    "Leave club" is answered with. Anyone else, a member removed since too, finds nothing."""
    last = (
        ClubChange.objects.filter(club_id=club_id)
        .filter(Q(by=user) | Q(action__in=MEMBER_ACTIONS, name=user.get_username()))
        .select_related("club")
        .first()
    )
    return last.club if last is not None and last.action == ClubChange.Action.LEAVE else None


MEMBER_ACTIONS = (
    ClubChange.Action.REMOVE_MEMBER,
    ClubChange.Action.LEAVE,
    ClubChange.Action.MAKE_OWNER,
)


def recent_club_changes(club: Club) -> list[ClubChange]:
    return list(club.changes.select_related("by")[:HISTORY_SHOWN])


# Found by a link's token


def club_by_invite(token: str) -> Club | None:
    """The club whose invite link carries `token`, found by the token's digest."""
    club = Club.objects.filter(invite_digest=token_digest(token)).first()
    if club is None or not secrets.compare_digest(club.invite_token, token):
        return None
    return club


def club_of_reset_link(club_id: int) -> Club | None:
    """The club a password reset link names, with its owner; the link's token is checked by
    `scoring.services.ClubLinkTokens`, which a club that doesn't exist never gets to."""
    return Club.objects.select_related("owner").filter(pk=club_id).first()


def shared_games(token: str) -> QuerySet[Game]:
    """The game (none or one) whose live view link carries `token`."""
    return Game.objects.filter(share_digest=token_digest(token), share_token__isnull=False)


# Seats, deals and history of a game


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


_DEAL_FIELDS = ("number", "out_on_twos", "last_play_twos", "dragon_seat", "payer_seat")
_SEAT_FIELDS = ("cards_left", "twos_held", "place", "points", "penalty")


def deal_score_rows(game: Game) -> list[tuple]:
    """Every score of the game's deals in deal and seat order, as plain values: the deal's
    number and facts, then the seat's."""
    return list(
        DealScore.objects.filter(deal__game=game)
        .order_by("deal__number", "seat__position")
        .values_list(*(f"deal__{field}" for field in _DEAL_FIELDS), *_SEAT_FIELDS)
    )


def deal_penalties(game: Game) -> list[tuple[int, ...]]:
    """Each deal's penalties in seat order, deal by deal."""
    rows = (
        DealScore.objects.filter(deal__game=game)
        .order_by("deal__number", "seat__position")
        .values_list("deal__number", "penalty")
    )
    by_deal: dict[int, list[int]] = {}
    for number, penalty in rows:
        by_deal.setdefault(number, []).append(penalty)
    return [tuple(penalties) for penalties in by_deal.values()]


def deals_with_seated_scores(game: Game) -> QuerySet[Deal]:
    """The game's deals, each with its scores and their seats and players."""
    return game.deals.prefetch_related(
        Prefetch("scores", queryset=DealScore.objects.select_related("seat__player"))
    )


def deal_recorded_with(game: Game, token: uuid.UUID) -> int | None:
    """The number of the deal of `game` that the deal form with `token` recorded, if any."""
    return game.deals.filter(token=token).values_list("number", flat=True).first()


def recent_changes(game: Game) -> QuerySet[GameChange]:
    return game.changes.select_related("by")[:HISTORY_SHOWN]


def recent_season_changes(season: Season) -> list[SeasonChange]:
    return list(season.changes.select_related("by")[:HISTORY_SHOWN])


def games_with_seats(games: QuerySet[Game]) -> QuerySet[Game]:
    """`games` with their winners, and their seats and players clockwise (three queries)."""
    return games.select_related("winner").prefetch_related(
        Prefetch("seats", queryset=seats_in_order())
    )


def games_of_player(player: Player) -> QuerySet[Game]:
    return games_with_seats(Game.objects.filter(seats__player=player)).select_related("season")


# Seasons


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


def roster_by_name(club: Club) -> dict[str, Player]:
    """The club's players by how their names look (`roster_key`): how an imported game's
    seat finds its player, in the preview and again when the import is saved."""
    players = club.players.only("pk", "name", "name_key")
    return {player.name_key: player for player in players}


def roster_key(name: str) -> str:
    """What a seat's name is matched to a player's by: `scoring.names.name_key`."""
    return name_key(name)
