"""A club owner's password link for a member: who may be given one, the link itself, and the
tokens that make it (checked by the page the link opens, in the accounts app).

The links are Django's password reset tokens (`PasswordResetTokenGenerator`): an HMAC of the
account's id, password hash and last login, and the time it was made. Nothing is stored, and a
token stops working once the password changes (so it is spent on use), once the account logs
in, and after `PASSWORD_RESET_TIMEOUT` (24 hours). An owner's link is bound to its club too.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.db import transaction
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from scoring.models import Club, ClubChange, Membership
from scoring.services import permissions
from scoring.services.errors import ScoringError


class ClubLinkTokens(PasswordResetTokenGenerator):
    """Django's reset tokens, bound to the club whose owner made them, to that owner, to the
    club's last change of hands and to the member's membership.

    Its own salt keeps them apart from the emailed links' tokens (neither works as the other).
    A token checks only while the account may still be reset from the club
    (`reset_link_refusal`): handing the club on, leaving it or joining a club someone else runs
    spends the link. Handing on and leaving spend it for good: the club handed back still has a
    later change of hands in its history, and a member who joins again has a new membership.
    """

    # The module the class was first written in: a new salt would spend every link handed out.
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
