"""A club's members: the owner removes one or hands the club on to another; a member leaves.

Each locks the club's row first (`lock_club`), so two of these at once queue up and the second
reads what the first wrote: the owner removing someone who is leaving that very moment, two taps
on "Make owner". Each change is a line of the club's history; a repeat (a double tap, a resend
after a lost answer) finds nothing left to do and writes nothing.

Nothing else needs doing when someone leaves: everything of a club is found through its
memberships (scoring.selectors), so from their next request on, the club is a 404 to them —
its pages, its games' polls, its exports.
"""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from scoring import live
from scoring.models import Club, ClubChange, Membership
from scoring.services import permissions
from scoring.services.clubs import lock_club
from scoring.services.errors import ScoringError


def remove_member(*, club: Club, member: AbstractBaseUser, by: AbstractBaseUser) -> bool:
    """Take `member` out of the club (the owner only; never the owner themself).

    Returns whether they were a member until now: false when they had already left or been
    removed (by another phone, or this one a moment ago)."""
    with transaction.atomic():
        locked = lock_club(club)
        permissions.check_may_remove_member(club=locked, by=by)
        if member.pk == locked.owner_id:
            raise ScoringError(
                _(
                    "The club's owner can't be removed. To step down, make another member"
                    " the owner first."
                )
            )
        removed = Membership.objects.filter(club=locked, user=member).delete()[0] > 0
        if removed:
            live.member_let_go(member.pk)  # their open games' streams close at once
            ClubChange.objects.create(
                club=locked,
                by=by,
                action=ClubChange.Action.REMOVE_MEMBER,
                name=member.get_username(),
            )
    return removed


def leave_club(*, club: Club, user: AbstractBaseUser) -> bool:
    """Take `user` out of the club at their own request. The owner must hand the club on
    first: a club always has an owner among its members.

    Returns whether they were a member until now."""
    with transaction.atomic():
        locked = lock_club(club)
        if user.pk == locked.owner_id:
            raise ScoringError(
                _(
                    "You own %(club)s, so you can't leave it yet: make another member the"
                    " owner first (“Make owner” beside them in the list of members)."
                )
                % {"club": locked.name}
            )
        left = Membership.objects.filter(club=locked, user=user).delete()[0] > 0
        if left:
            live.member_let_go(user.pk)
            ClubChange.objects.create(
                club=locked, by=user, action=ClubChange.Action.LEAVE, name=user.get_username()
            )
    return left


def make_owner(*, club: Club, member: AbstractBaseUser, by: AbstractBaseUser) -> None:
    """Hand the club on to `member` (the owner only). The old owner stays a member.

    Handing it to whoever already owns it does nothing: after a double tap, the second finds
    the club handed on already (and its sender no longer the owner), and that is no refusal."""
    with transaction.atomic():
        locked = lock_club(club)
        if locked.owner_id != member.pk:
            permissions.check_may_make_owner(club=locked, by=by)
            if not Membership.objects.filter(club=locked, user=member).exists():
                raise ScoringError(
                    _("%(name)s is no longer a member of the club, so they can't own it.")
                    % {"name": member.get_username()}
                )
            locked.owner = member
            locked.save(update_fields=["owner"])
            ClubChange.objects.create(
                club=locked,
                by=by,
                action=ClubChange.Action.MAKE_OWNER,
                name=member.get_username(),
            )
    club.owner = member
