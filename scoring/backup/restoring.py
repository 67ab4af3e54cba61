"""Restoring a backup beside whatever clubs the database holds: refused whole when a username
or unique value is already here, otherwise every row inserted with a new id, its links
following, in one transaction."""

from __future__ import annotations

from functools import reduce
from itertools import batched
from operator import or_

from django.contrib.auth import get_user_model
from django.db import DataError, IntegrityError, transaction
from django.db.models import Model, Q

from scoring.backup.parts import CLUB_PARTS, LOOKUP_CHUNK, BackupError, Part
from scoring.backup.reading import Backup, read
from scoring.models import Club
from scoring.services import ratings


def import_club(text: str) -> Club:
    """Restore a backup beside whatever this database holds: all of it with new ids, or nothing
    (a BackupError: the file holds what a club's backup doesn't, one of its usernames or unique
    values is taken here, or the database refuses a row)."""
    backup = read(text)
    try:
        with transaction.atomic():
            _refuse_what_is_taken(backup)
            club = _insert(backup)
            # The ratings are left out of a backup: worked out again as any write's are.
            ratings.ratings_changed(club.pk, since=None)
            return club
    except (IntegrityError, DataError) as error:
        raise BackupError(
            f"The database refused the backup's rows, so nothing was written: {error}"
        ) from error


def _refuse_what_is_taken(backup: Backup) -> None:
    accounts = get_user_model()
    usernames = [account.get_username() for account in backup.accounts.values()]
    here: dict[str, str] = {}
    for chunk in batched(usernames, LOOKUP_CHUNK):
        same_ignoring_case = reduce(or_, (Q(username__iexact=name) for name in chunk))
        found = accounts._default_manager.filter(same_ignoring_case)
        here |= {name.casefold(): name for name in found.values_list("username", flat=True)}
    taken = [
        name if here[name.casefold()] == name else f"{name} (here: {here[name.casefold()]})"
        for name in usernames
        if name.casefold() in here
    ]
    if taken:
        raise BackupError(
            f"These accounts already exist here: {', '.join(taken)}. A restore makes the club's "
            "accounts afresh and never changes an existing one: rename or remove those "
            "accounts here first, or restore into another database. Nothing was written."
        )
    clashes = []
    for part in CLUB_PARTS:
        for column in part.fields:
            # A unique link (a player's member) is given the new id of what it links to.
            if column.unique and not column.is_relation:
                rows = backup.rows[part.label].values()
                values = [
                    value for row in rows if (value := getattr(row, column.attname)) is not None
                ]
                found = sum(
                    part.model._default_manager.filter(**{f"{column.name}__in": chunk}).count()
                    for chunk in batched(values, LOOKUP_CHUNK)
                )
                if found:
                    clashes.append(f"{found} {part.label} {column.name}")
    if clashes:
        raise BackupError(
            "This database already holds the backup's unique values "
            f"({', '.join(clashes)}): is this club, or a copy of it, here already? "
            "Nothing was written."
        )


def _insert(backup: Backup) -> Club:
    """Every account and row of the backup as new rows, links following the new ids."""
    new_ids: dict[str, dict[int, int]] = {}
    old_ids = sorted(backup.accounts)  # in order, so ids keep their order (ties sort by id)
    users = [backup.accounts[pk] for pk in old_ids]
    for user in users:
        user.pk = None
        # A plain active account whatever the file says (version 1 held is_active); the fields
        # it doesn't hold took an account's defaults: no staff, superuser, groups, permissions.
        user.is_active = True
        if not user.password:  # a backup without passwords: the owner's link sets one
            user.set_unusable_password()
    accounts = get_user_model()
    accounts._default_manager.bulk_create(users)
    new_ids[accounts._meta.label_lower] = {
        old: user.pk for old, user in zip(old_ids, users, strict=True)
    }
    for part in CLUB_PARTS:
        old_ids = sorted(backup.rows[part.label])
        made = [_relinked(part, backup.rows[part.label][pk], new_ids) for pk in old_ids]
        part.model._default_manager.bulk_create(made)
        new_ids[part.label] = {old: row.pk for old, row in zip(old_ids, made, strict=True)}
    (club_id,) = new_ids[Club._meta.label_lower].values()
    return Club.objects.get(pk=club_id)


def _relinked(part: Part, row: Model, new_ids: dict[str, dict[int, int]]) -> Model:
    """The row as a new one, its links turned to the new ids."""
    row.pk = None
    for column in part.fields:
        if column.is_relation and getattr(row, column.attname) is not None:
            old = getattr(row, column.attname)
            setattr(row, column.attname, new_ids[column.related_model._meta.label_lower][old])
    return row
