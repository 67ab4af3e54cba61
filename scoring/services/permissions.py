"""Who may do what in a club: every member keeps score; a few things are the owner's.

Each `check_may_*` refuses with `NotAllowed`, whose message says what only the owner may do. The
services ask before they write; the views ask before they show an owner's form (so a member
isn't handed a form that would be refused), and `scoring.middleware` turns the refusal into the
page that says so. Pages ask `is_owner` whether to show the owner's links.

Membership itself is checked by how a club is looked up (`scoring.selectors.member_club` and
the others find nothing for anyone else), so every check here is made on a member.
"""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.utils.translation import gettext as _

from scoring.models import Club, Game, Season
from scoring.services.errors import NotAllowed


def is_owner(club: Club, user: AbstractBaseUser) -> bool:
    return club.owner_id == user.pk


def check_may_reset_invite(*, club: Club, by: AbstractBaseUser) -> None:
    _owner_only(club, by, _("Only the club's owner can reset its invite link"))


def check_may_make_reset_link(*, club: Club, by: AbstractBaseUser) -> None:
    _owner_only(club, by, _("Only the club's owner can make a member a password reset link."))


def check_may_share_invite(*, club: Club, by: AbstractBaseUser) -> None:
    """The invite link (and its QR code) is shown to the owner alone: members ask them."""
    _owner_only(club, by, _("Only the club's owner can share its invite link"))


def check_may_start_season(*, club: Club, by: AbstractBaseUser) -> None:
    _owner_only(club, by, _("Only the club's owner can start a new season."))


def check_may_change_season_rules(*, season: Season, by: AbstractBaseUser) -> None:
    _owner_only(season.club, by, _("Only the club's owner can change a season's rules."))


def check_may_move_game(*, game: Game, by: AbstractBaseUser) -> None:
    _owner_only(game.club, by, _("Only the club's owner can move a game to another season."))


def check_may_delete_game(*, game: Game, by: AbstractBaseUser) -> None:
    _owner_only(game.club, by, _("Only the club's owner can delete a game."))


def check_may_remove_member(*, club: Club, by: AbstractBaseUser) -> None:
    _owner_only(club, by, _("Only the club's owner can remove a member."))


def check_may_make_owner(*, club: Club, by: AbstractBaseUser) -> None:
    _owner_only(club, by, _("Only the club's owner can make another member the owner."))


def check_may_unlink_player(*, club: Club, by: AbstractBaseUser) -> None:
    """A member says once which player they are; only the owner undoes it."""
    _owner_only(club, by, _("Only the club's owner can undo a member's “This is me”."))


def check_may_change_stake(*, club: Club, finished: bool, by: AbstractBaseUser) -> None:
    """Any member may while the game is played; once it is over, only the owner, since it
    changes what everyone owes."""
    if finished:
        _owner_only(club, by, _("Only the club's owner can change the stake of a finished game"))


def check_may_import(*, club: Club, by: AbstractBaseUser) -> None:
    _owner_only(club, by, _("Only the club's owner can import scores."))


def _owner_only(club: Club, user: AbstractBaseUser, refusal: str) -> None:
    if not is_owner(club, user):
        raise NotAllowed(refusal)
