"""A member saying which player of the roster they are ("This is me"), and the owner undoing it.

Once per club: a member is one player there, and a player one member. The link's uniqueness is
a constraint (`Player.member`); these lock the club's row first (`lock_club`), as every change
to its roster does, so two taps at once queue up and the second reads what the first wrote. The
same tap again (a double tap, a resend) finds it done and writes nothing. Each change is a line
of the club's history.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from scoring.models import Club, ClubChange, Membership, Player
from scoring.names import name_key, tidy_name
from scoring.services import permissions
from scoring.services.clubs import lock_club
from scoring.services.errors import ScoringError
from scoring.services.players import on_roster


def claim_player(*, player: Player, by: AbstractBaseUser) -> None:
    """Link `player` to `by`'s membership of the player's club: their own figures then show
    on the home page. Refused when the player is someone else already, or `by` is another
    player of the club already (only the owner undoes a link)."""
    with transaction.atomic():
        club = lock_club(player.club)
        current = on_roster(club, player)
        membership = club.memberships.filter(user=by).first()
        if membership is None:
            raise ScoringError(_("Only the club's members can say which player they are"))
        if current.member_id == membership.pk:
            return
        refuse_if_linked(club, current, membership, by)
        current.member = membership
        try:
            # A savepoint: should the constraint refuse, the transaction can still say why.
            with transaction.atomic():
                current.save(update_fields=["member"])
        except IntegrityError as error:
            raise ScoringError(_("You are already another player in this club")) from error
        ClubChange.objects.create(
            club=club,
            by=by,
            action=ClubChange.Action.CLAIM_PLAYER,
            name=by.get_username(),
            new_name=current.name,
        )


def refuse_if_linked(
    club: Club, player: Player, membership: Membership, by: AbstractBaseUser
) -> None:
    """Refuse a member's "This is me" for a player who is someone else, or when they are
    another player already: both are undone by the owner first, so the message says who."""
    if player.member is not None:
        raise ScoringError(
            _("%(name)s is already %(member)s. If that's wrong, ask %(owner)s, the club's owner.")
            % {
                "name": player.name,
                "member": player.member.user.get_username(),
                "owner": club.owner.get_username(),
            }
        )
    mine = club.players.filter(member=membership).first()
    if mine is None:
        return
    if permissions.is_owner(club, by):
        raise ScoringError(
            _("You are already %(name)s in this club: undo that on %(name)s's page first.")
            % {"name": mine.name}
        )
    raise ScoringError(
        _(
            "You are already %(name)s in this club. If that's wrong, ask %(owner)s, the"
            " club's owner."
        )
        % {"name": mine.name, "owner": club.owner.get_username()}
    )


def unlink_player(*, player: Player, by: AbstractBaseUser) -> bool:
    """Undo a member's "This is me" for `player` (the owner only).

    Returns whether the player was linked until now: false when already undone (by another
    phone, or this one a moment ago), or the player has left the roster."""
    with transaction.atomic():
        club = lock_club(player.club)
        permissions.check_may_unlink_player(club=club, by=by)
        current = club.players.select_related("member__user").filter(pk=player.pk).first()
        if current is None or current.member is None:
            return False
        ClubChange.objects.create(
            club=club,
            by=by,
            action=ClubChange.Action.UNLINK_PLAYER,
            name=current.member.user.get_username(),
            new_name=current.name,
        )
        current.member = None
        current.save(update_fields=["member"])
    player.member = None
    return True


def link_seated_members(*, club: Club, players: Sequence[Player], by: AbstractBaseUser) -> None:
    """Link each player just seated whose name is a member's username (compared as names are,
    `scoring.names.name_key`) to that member, as their "This is me" would: the seat was the
    member, chosen from the new game's list.

    Only a player linked to no one, to a member who is no player of the club yet: otherwise
    nothing changes (a player someone else said they are stays theirs, and a member who is a
    player already stays that player; the owner can undo a link). Part of the caller's write,
    which holds the club's lock (`lock_club`), as "This is me" does.
    """
    unlinked = {player.name_key: player for player in players if player.member_id is None}
    if not unlinked:
        return
    members: dict[str, list[Membership]] = {}
    for membership in club.memberships.select_related("user"):
        members.setdefault(name_key(tidy_name(membership.user.get_username())), []).append(
            membership
        )
    players_already = set(
        club.players.filter(member__isnull=False).values_list("member_id", flat=True)
    )
    for key, player in unlinked.items():
        found = members.get(key, [])
        # Two members whose usernames look alike: the seat says neither one.
        if len(found) != 1 or found[0].pk in players_already:
            continue
        player.member = found[0]
        player.save(update_fields=["member"])
        players_already.add(found[0].pk)
        ClubChange.objects.create(
            club=club,
            by=by,
            action=ClubChange.Action.CLAIM_PLAYER,
            name=found[0].user.get_username(),
            new_name=player.name,
        )
