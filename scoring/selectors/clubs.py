"""The reads of a club and its people: a club, season or player found through the signed-in
user's memberships (`member_club`, `member_season`, `member_player`), so that anyone else gets
a 404 and not even its existence leaks; the ways in from outside found by a link's token
(`club_by_invite`, `club_of_reset_link`); its members, roster and the names a new game's
seats offer."""

from __future__ import annotations

import secrets

from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import Count, Max, Q, QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404

from scoring.models import (
    PLAYER_NAME_MAX_LENGTH,
    Club,
    ClubChange,
    Game,
    Membership,
    Player,
    Season,
    token_digest,
)
from scoring.names import name_key, name_problem, tidy_name


def member_club(user: AbstractBaseUser, club_id: int) -> Club:
    return get_object_or_404(
        Club.objects.select_related("owner"), pk=club_id, memberships__user=user
    )


def member_id(user: AbstractBaseUser) -> int:
    """The account's id: signed out, a member of nothing (404)."""
    if user.pk is None:
        raise Http404
    return user.pk


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


def roster_by_name(club: Club) -> dict[str, Player]:
    """The club's players by how their names look (`roster_key`): how an imported game's
    seat finds its player, in the preview and again when the import is saved."""
    players = club.players.only("pk", "name", "name_key")
    return {player.name_key: player for player in players}


def roster_key(name: str) -> str:
    """What a seat's name is matched to a player's by: `scoring.names.name_key`."""
    return name_key(name)
