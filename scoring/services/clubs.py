"""Clubs and their members: a new club, joining one by its invite link, a new invite link."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.models import Club, Membership, Season
from scoring.names import hidden_characters, hidden_problem, tidy_name
from scoring.selectors import club_by_invite
from scoring.services import permissions
from scoring.services.errors import ScoringError

CLUB_NAME_MAX_LENGTH = Club._meta.get_field("name").max_length


def create_club(*, name: str, owner: AbstractBaseUser) -> Club:
    """A new club owned by `owner`, with its first season.

    That season's name is the only name the site gives rather than the owner, and it is stored
    like any other: in the language the club is founded in (the page's), so a club founded in
    Chinese reads "第 1 賽季" on its pages, downloads and backups, as if its owner had typed it."""
    name = tidy_name(name)
    if not name:
        raise ScoringError(_("Give the club a name"))
    if (hidden := next(hidden_characters(name), None)) is not None:
        raise ScoringError(hidden_problem(hidden))
    if len(name) > CLUB_NAME_MAX_LENGTH:
        raise ScoringError(
            _("A club's name can be at most %(count)s characters") % {"count": CLUB_NAME_MAX_LENGTH}
        )
    with transaction.atomic():
        club = Club(name=name, owner=owner)
        club.new_invite()
        club.save()
        Membership.objects.create(club=club, user=owner)
        Season.objects.create(
            club=club,
            name=_("Season %(number)s") % {"number": 1},
            starts_on=timezone.localdate(),
            is_current=True,
        )
    return club


def join_club(*, token: str, user: AbstractBaseUser) -> Club:
    """Make `user` a member of the club whose invite link carries `token` (again is harmless)."""
    with transaction.atomic():
        club = club_by_invite(token)
        if club is None:
            raise ScoringError(
                _("This invite link doesn't work any more. Ask the club's owner for a new one.")
            )
        Membership.objects.get_or_create(club=club, user=user)
    return club


def lock_club(club: Club) -> Club:
    """The club's row as it is now, locked until the transaction ends.

    Whatever changes the club's roster or its members takes this lock first (starting a game,
    which adds players, too), so two such changes queue up and the second reads what the
    first wrote: who owns the club, who is in it, which names the roster holds and who sits
    where.

    A no-key lock (PostgreSQL's FOR NO KEY UPDATE): rows written meanwhile that only refer to
    the club, such as its ratings mark when a deal finishes a game, don't wait on it, so a
    writer holding a game never deadlocks with one holding the club and waiting for that game."""
    return Club.objects.select_for_update(no_key=True).get(pk=club.pk)


def reset_invite(*, club: Club, by: AbstractBaseUser) -> str:
    """Give the club a new invite link; the old one stops working at once."""
    permissions.check_may_reset_invite(club=club, by=by)
    with transaction.atomic():
        club.new_invite()
        club.save(update_fields=["invite_token", "invite_digest"])
    return club.invite_token
