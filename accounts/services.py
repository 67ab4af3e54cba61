"""Every write of the accounts app, one named function per action: setting a password by a link
(a club owner's, `scoring.services.ClubLinkTokens`, or an emailed one, Django's own tokens),
changing one's own password, deleting one's account.

Each runs in one transaction and refuses with a `ScoringError` kind, whose message is meant
for the person at the phone.
"""

from __future__ import annotations

from axes.handlers.proxy import AxesProxyHandler
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.db import transaction
from django.utils.translation import gettext as _

from scoring import live
from scoring.models import Club, ClubChange, Membership
from scoring.services.errors import ScoringError


class LinkSpent(ScoringError):
    """The link worked when its page opened, but the password was set by it (or changed) since:
    a double tap, or the link opened on two phones."""

    def __init__(self) -> None:
        super().__init__(
            _(
                "This link was used a moment ago, so the password is already set. Log in with "
                "it, or ask for a new link."
            )
        )


class OwnsClubs(ScoringError):
    """An account that runs a club can't be deleted: the club would have no owner."""

    def __init__(self, clubs: list[Club]) -> None:
        super().__init__(_("You run a club. Hand each club you run on to another member first."))
        self.clubs = clubs


def set_password_by_link(
    *, user_id: int, token: str, tokens: PasswordResetTokenGenerator, password: str
) -> AbstractBaseUser:
    """Set the password of the account a link is for, if the link still works.

    The account's row is locked and the token checked again inside: of two sends of one link
    (a double tap, two phones) one sets the password and the other is refused with `LinkSpent`,
    since the new password hash no longer matches the token. A lockout for wrong passwords is
    lifted: whoever holds the link is let back in at once.
    """
    with transaction.atomic():
        user = get_user_model()._default_manager.select_for_update().filter(pk=user_id).first()
        if user is None or not tokens.check_token(user, token):
            raise LinkSpent
        user.set_password(password)
        user.save(update_fields=["password"])
        AxesProxyHandler.reset_attempts(username=user.get_username())
    return user


def change_password(
    *, user: AbstractBaseUser, old_password: str, new_password: str
) -> AbstractBaseUser:
    """Change `user`'s password, once: the form sent again after it went through (the old
    password no longer right, the new one is) changes nothing and succeeds. Returns the account
    as saved, for the session to follow its new hash (every other session ends with the old)."""
    with transaction.atomic():
        account = get_user_model()._default_manager.select_for_update().get(pk=user.pk)
        if account.check_password(old_password):
            account.set_password(new_password)
            account.save(update_fields=["password"])
        elif not account.check_password(new_password):
            raise ScoringError(_("Your old password was typed wrong. Type it again."))
    return account


def delete_account(*, user: AbstractBaseUser, password: str) -> None:
    """Delete the account and its memberships; every game, deal and history line stays, shown
    as by "Someone" (their links to the account are SET_NULL). Refused with `OwnsClubs` while
    it runs a club (Club.owner is PROTECT). Sent again after it went through: nothing to do.

    Each club it was in gets a line in its history ("kim left the club (account deleted)"),
    written with the club's row locked as every change of its members is (`lock_club`), so an
    owner removing the member at the same moment makes one line or the other, not both."""
    with transaction.atomic():
        account = get_user_model()._default_manager.select_for_update().filter(pk=user.pk).first()
        if account is None:
            return
        owned = list(Club.objects.filter(owner=account))
        if owned:
            raise OwnsClubs(owned)
        if not account.check_password(password):
            raise ScoringError(_("That isn't your password. Type it again."))
        clubs = Club.objects.filter(memberships__user=account).order_by("pk")
        # Locked in one order (by pk), so two deletions at once never deadlock.
        for club in clubs.select_for_update(of=("self",)):
            if Membership.objects.filter(club=club, user=account).delete()[0]:
                ClubChange.objects.create(
                    club=club, action=ClubChange.Action.DELETE_ACCOUNT, name=account.get_username()
                )
        live.member_let_go(account.pk)
        account.delete()
