"""Getting back in, and leaving: a club owner's password link for a member, setting a password
by a link (the owner's or an emailed one), changing one's own password, deleting one's account.

The links are Django's password reset tokens (`PasswordResetTokenGenerator`): an HMAC of the
account's id, password hash and last login, and the time it was made. Nothing is stored, and a
token stops working once the password changes (so it is spent on use), once the account logs
in, and after `PASSWORD_RESET_TIMEOUT` (24 hours). An owner's link is bound to its club too.
"""

from __future__ import annotations

from dataclasses import dataclass

from axes.handlers.proxy import AxesProxyHandler
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.db import transaction
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from scoring import live
from scoring.models import Club, ClubChange, Membership
from scoring.services import permissions
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


class ClubLinkTokens(PasswordResetTokenGenerator):
    """Django's reset tokens, bound to the club whose owner made them, to that owner, to the
    club's last change of hands and to the member's membership.

    Its own salt keeps them apart from the emailed links' tokens (neither works as the other).
    A token checks only while the account may still be reset from the club
    (`reset_link_refusal`): handing the club on, leaving it or joining a club someone else runs
    spends the link. Handing on and leaving spend it for good: the club handed back still has a
    later change of hands in its history, and a member who joins again has a new membership.
    """

    key_salt = "scoring.services.accounts.ClubLinkTokens"

    def __init__(self, club: Club) -> None:
        super().__init__()
        self.club = club

    def _make_hash_value(self, user: AbstractBaseUser, timestamp: int) -> str:
        made = super()._make_hash_value(user, timestamp)
        handed_on = (
            ClubChange.objects.filter(club=self.club, action=ClubChange.Action.MAKE_OWNER)
            .order_by("-pk")
            .values_list("pk", flat=True)
            .first()
        )
        membership = (
            Membership.objects.filter(club=self.club, user=user)
            .values_list("pk", flat=True)
            .first()
        )
        return (
            f"{made}|club {self.club.pk}|owner {self.club.owner_id}|handed on {handed_on}"
            f"|membership {membership}"
        )

    def check_token(self, user: AbstractBaseUser | None, token: str | None) -> bool:
        return (
            super().check_token(user, token)
            and user is not None
            and reset_link_refusal(self.club, user) is None
        )


@dataclass(frozen=True)
class ResetLink:
    """What an owner's link carries (its address is `password-reset-link` with these)."""

    club_id: int
    uidb64: str
    token: str


def reset_link_refusal(club: Club, member: AbstractBaseUser) -> str | None:
    """Why the club's owner may not reset `member`'s password with a link, or None.

    The owner already sees everything an account sees in the clubs the owner runs; a link may
    hand over no more than that. So: not an account that also belongs to a club someone else
    runs (inviting someone and then taking over their account must not open their other
    clubs), not one that looks after the site, and not the owner's own (that is "Change
    password").
    """
    name = {"name": member.get_username()}
    if member.pk == club.owner_id:
        return _("That's you: change your own password with “Change password” on My clubs.")
    if not club.memberships.filter(user=member).exists():
        return _("%(name)s isn't a member of this club.") % name
    if member.is_staff or member.is_superuser:
        return _("%(name)s looks after this site, so a club's link can't reset their password.") % (
            name
        )
    elsewhere = Membership.objects.filter(user=member).exclude(club__owner_id=club.owner_id)
    if elsewhere.exists():
        return (
            _(
                "%(name)s is also in a club someone else runs, so a link from you can't reset "
                "their password. Whoever looks after this site can set a new one for them."
            )
            % name
        )
    return None


def make_reset_link(*, club: Club, member: AbstractBaseUser, by: AbstractBaseUser) -> ResetLink:
    """A one-time link, for the club's owner to hand to `member`, to choose a new password."""
    permissions.check_may_make_reset_link(club=club, by=by)
    with transaction.atomic():
        refusal = reset_link_refusal(club, member)
        if refusal is not None:
            raise ScoringError(refusal)
        token = ClubLinkTokens(club).make_token(member)
    return ResetLink(club.pk, urlsafe_base64_encode(force_bytes(member.pk)), token)


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
