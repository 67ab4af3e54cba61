"""Reading a backup file strictly: each item through Django's deserializer and `full_clean()`,
and what a club's backup never holds refused too, the whole file with the list of what was found,
each problem with its item."""

from __future__ import annotations

import datetime
import functools
import json
from collections import Counter
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.exceptions import ValidationError
from django.core.serializers.base import DeserializationError
from django.db import models
from django.utils import timezone

from scoring.backup import parts
from scoring.backup.parts import CLUB_PARTS, BackupError, Rows, names_of, said, shown
from scoring.backup.results import SEATS, check_winners
from scoring.models import Club, Membership


@dataclass
class Backup:
    """A backup read and checked: unsaved objects by label and id, linking by the file's ids."""

    accounts: dict[int, models.Model]
    rows: Rows


class Shape(NamedTuple):
    """What a file may hold of a model's rows."""

    model: type[models.Model]
    names: Sequence[str]  # its fields that travel
    required: Sequence[str]  # those every row of the file holds
    noun: str  # what a problem calls a row ("account 3")


def read(text: str) -> Backup:
    """The backup in `text`, or a BackupError listing everything in it that can't be restored."""
    document = _document(text)
    problems: list[str] = []
    unknown = set(document) - {"format", "version", "club", "users", "rows"}
    if unknown:
        problems.append(
            f"it holds {names_of(unknown)} besides a backup's format, version, club, users and rows"
        )
    if not isinstance(document.get("club"), str):
        problems.append(f'its "club" should be the club\'s name, not {shown(document.get("club"))}')
    user = get_user_model()
    names = parts.ACCOUNT_FIELDS[document["version"]]
    required = [name for name in names if name != parts.PASSWORD_FIELD]
    users = {user._meta.label_lower: Shape(user, names, required, "account")}
    accounts = _section(document.get("users"), "users", users, problems)[user._meta.label_lower]
    rows = _section(document.get("rows"), "rows", ROWS, problems)
    if not problems:
        _check_links(accounts, rows, document["version"], problems)
    if not problems:
        # A file made before wins could be shared holds no seat's `won`.
        seats = [item["fields"] for item in document["rows"] if item["model"] == SEATS]
        check_winners(rows, problems, marked=any("won" in seat for seat in seats))
    if problems:
        listed = [f"- {problem}" for problem in problems[: parts.PROBLEMS_SHOWN]]
        if len(problems) > parts.PROBLEMS_SHOWN:
            listed.append(f"- and {len(problems) - parts.PROBLEMS_SHOWN} more")
        raise BackupError(
            "This backup can't be restored, and nothing was written:\n" + "\n".join(listed)
        )
    return Backup(accounts=accounts, rows=rows)


ROWS = {
    part.label: Shape(
        part.model,
        [column.name for column in part.fields],
        [column.name for column in part.fields if not (column.has_default() or column.null)],
        part.label,
    )
    for part in CLUB_PARTS
}


def _document(text: str) -> dict[str, Any]:
    try:
        document = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise BackupError(f"This is not a backup file ({error})") from error
    if not isinstance(document, dict) or document.get("format") != parts.FORMAT:
        raise BackupError("This is not a club backup made by export_club")
    version = document.get("version")
    if type(version) is not int or version not in parts.ACCOUNT_FIELDS:
        readable = " and ".join(map(str, parts.ACCOUNT_FIELDS))
        raise BackupError(
            f"This backup is version {version!r}; this site reads versions {readable}"
        )
    return document


def _items(value: object, section: str, problems: list[str]) -> Iterator[tuple[str, int, dict]]:
    """The well-formed `{"model", "pk", "fields"}` items of a section, noting the others."""
    if not isinstance(value, list):
        problems.append(f'its "{section}" should be a list, not {shown(value)}')
        return
    for number, item in enumerate(value, start=1):
        where = f"{section} item {number}"
        if not isinstance(item, dict):
            problems.append(f"{where} should be an object, not {shown(item)}")
        elif set(item) != {"model", "pk", "fields"}:
            problems.append(f"{where} should have a model, pk and fields, not {names_of(item)}")
        elif not isinstance(item["model"], str):
            problems.append(f"{where}: its model should be a name, not {shown(item['model'])}")
        elif type(item["pk"]) is not int:
            problems.append(f"{where}: its pk should be a whole number, not {shown(item['pk'])}")
        elif not isinstance(item["fields"], dict):
            problems.append(f"{where}: its fields should be an object, not {shown(item['fields'])}")
        else:
            yield item["model"], item["pk"], item["fields"]


def _section(value: object, section: str, shapes: dict[str, Shape], problems: list[str]) -> Rows:
    """A section's rows by label and id, each read by `_row`, noting what it can't hold."""
    rows: Rows = {label: {} for label in shapes}
    strangers: Counter[str] = Counter()
    passed: set[tuple[str, str, type, object]] = set()
    for label, pk, fields in _items(value, section, problems):
        if (shape := shapes.get(label)) is None:
            strangers[said(label)] += 1
            continue
        where = f"{shape.noun} {pk}"
        if isinstance(fields.get("username"), str):
            where += f" ({said(fields['username'])})"
        if pk in rows[label]:
            problems.append(f"{where} is in the backup twice")
            continue
        if extra := fields.keys() - shape.names:
            # Never given to Django: an account's is_superuser, groups or permissions, say.
            problems.append(
                f"{where} has {names_of(extra)}: a backup holds only its {', '.join(shape.names)}"
            )
        if missing := [name for name in shape.required if name not in fields]:
            problems.append(f"{where} has no {', '.join(missing)}")
        known = {name: fields[name] for name in shape.names if name in fields}
        rows[label][pk] = row = _row(shape, pk, known, where, problems, passed)
        typed = known.get("username")  # an account's (row.pk: once deserialized)
        if isinstance(typed, str) and row.pk is not None and row.username != typed:
            # User.clean() wrote it as sign-up does, and as the login form reads it (NFKC).
            problems.append(
                f"{where}: username isn't as sign-up would write it {row.username!r}, and an "
                "account named otherwise could never log in"
            )
    for label, count in strangers.items():
        problems.append(
            f"its {section} hold {count} {label} row{'s' if count > 1 else ''}: a club "
            f"backup's {section} are {', '.join(shapes)} rows only"
        )
    return rows


def _row(
    shape: Shape,
    pk: int,
    fields: dict[str, Any],
    where: str,
    problems: list[str],
    passed: set[tuple[str, str, type, object]],
) -> models.Model:
    """An item read by Django's deserializer, held as export_club writes it, passing
    `full_clean()`; each problem noted. A value that `passed` a field's checks once passes them
    again (the row's `clean()` runs whatever): a deal's scores repeat a few values."""
    names, links = _columns(shape.model)
    # A link is an id of the file, never a natural key: the deserializer would look that up
    # among this database's accounts.
    odd = [
        name
        for name, raw in fields.items()
        if name in links and type(raw) is not int and not (raw is None and links[name].null)
    ]
    problems += [f"{where}: {name} should be a row's id, not {shown(fields[name])}" for name in odd]
    readable = {name: raw for name, raw in fields.items() if name not in odd}
    item = {"model": shape.model._meta.label_lower, "pk": pk, "fields": readable}
    try:
        (deserialized,) = serializers.deserialize("python", [item])
    except DeserializationError as error:
        problems += _unreadable(item, where) or [f"{where}: {error}"]
        return shape.model()
    row = deserialized.object
    # Links are checked above; the rest by value and type (true is no 1).
    keys = {
        name: (shape.noun, name, type(raw), raw)
        for name, raw in readable.items()
        if name not in links and isinstance(raw, Hashable)
    }
    fresh = {
        name: raw
        for name, raw in readable.items()
        if name not in links and keys.get(name) not in passed
    }
    refused = _as_written(row, fresh, where, problems) if fresh else set()
    try:
        # Links are followed in the file (_check_links), unique values and constraints held by
        # the database as the rows go in, what is taken here looked up by the restore.
        row.full_clean(
            exclude=names - (fresh.keys() - refused),
            validate_unique=False,
            validate_constraints=False,
        )
    except ValidationError as error:
        for name, messages in error.message_dict.items():
            refused.add(name)
            problems.append(f"{where}: {name} {' '.join(messages)}")
    passed.update(keys[name] for name in fresh.keys() - refused if name in keys)
    return row


@functools.cache
def _columns(model: type[models.Model]) -> tuple[frozenset[str], dict[str, models.Field]]:
    """The names of a model's columns, and its links by name."""
    columns = model._meta.concrete_fields
    return frozenset(c.name for c in columns), {c.name: c for c in columns if c.is_relation}


def _unreadable(item: dict[str, Any], where: str) -> list[str]:
    """What the deserializer refused in an item, found by giving it each field alone."""
    found = []
    for name, raw in item["fields"].items():
        try:
            list(serializers.deserialize("python", [{**item, "fields": {name: raw}}]))
        except DeserializationError as error:
            # Raised while handling the field's own error, which says what is wrong.
            reason = error.__context__
            if isinstance(reason, ValidationError):
                found.append(f"{where}: {name} {' '.join(reason.messages)}")
            else:
                found.append(f"{where}: {name} can't be {shown(raw)}")
    return found


def _as_written(
    row: models.Model, fields: dict[str, Any], where: str, problems: list[str]
) -> set[str]:
    """The fields refused as the file holds them, each noted: held otherwise than export_club
    writes what was read (true for position 1, 5 for the name "5", 0.5 for the stake "0.5"),
    or as no database keeps them."""
    (again,) = serializers.serialize("python", [row], fields=list(fields))
    written = json.loads(json.dumps(again["fields"], cls=parts.BackupEncoder))
    refused = set()
    for name, raw in fields.items():
        value = getattr(row, row._meta.get_field(name).attname)
        try:
            if isinstance(raw, str) and "\x00" in raw:
                raise ValidationError("holds a null character, which no database keeps")
            if isinstance(raw, str):
                raw.encode()  # a lone surrogate
            if isinstance(value, datetime.datetime) and timezone.is_naive(value):
                raise ValidationError(f"needs its time zone, like +00:00 at the end: {raw!r}")
            if isinstance(value, datetime.datetime):
                value.astimezone(datetime.UTC)  # as it is stored: a year 9999 could overflow
            if type(written[name]) is not type(raw) or written[name] != raw:
                raise ValidationError(f"should be written {shown(written[name])}, not {shown(raw)}")
        except UnicodeEncodeError:
            problems.append(f"{where}: {name} holds a character that isn't Unicode text")
        except OverflowError:
            problems.append(f"{where}: {name} can't be {shown(raw)}")
        except ValidationError as error:
            problems.append(f"{where}: {name} {error.message}")
        else:
            continue
        refused.add(name)  # one of the above noted why
    return refused


def _check_links(
    accounts: dict[int, models.Model], rows: Rows, version: int, problems: list[str]
) -> None:
    """One club; every link to a row or an account of the file; every account named, no
    username twice (ignoring case, as sign-up). The unique values of a club's rows (a player's
    name by how it looks among them) are held by the database's constraints as rows go in."""
    usernames = Counter(account.get_username().casefold() for account in accounts.values())
    problems += [
        f"the username {said(name)} is in the backup {count} times"
        for name, count in usernames.items()
        if count > 1
    ]
    if len(clubs := sorted(rows[Club._meta.label_lower])) != 1:
        problems.append(
            f"it holds {len(clubs)} clubs ({', '.join(map(str, clubs))}): a backup holds one"
        )
    named: set[int | None] = set()
    for part in CLUB_PARTS:
        for column in [column for column in part.fields if column.is_relation]:
            to_accounts = column.related_model is get_user_model()
            targets = accounts if to_accounts else rows[column.related_model._meta.label_lower]
            for pk, row in rows[part.label].items():
                target = getattr(row, column.attname)
                if target is None or target in targets:
                    named.update([target] if to_accounts else [])
                elif to_accounts and version == 1 and column.null:
                    # Version 1 held only members' accounts: whoever had left becomes "someone",
                    # as when an account is deleted.
                    setattr(row, column.attname, None)
                else:
                    noun = "account" if to_accounts else column.related_model._meta.label_lower
                    problems.append(
                        f"{part.label} {pk}: {column.name} is {noun} {target}, which isn't in "
                        "the backup"
                    )
    for pk in sorted(set(accounts) - named):
        problems.append(
            f"account {pk} ({said(accounts[pk].get_username())}) is neither a member "
            "of the club nor named by its history"
        )
    members = {row.user_id for row in rows[Membership._meta.label_lower].values()}
    for club in rows[Club._meta.label_lower].values():
        if club.owner_id not in members:
            owner = accounts.get(club.owner_id)
            problems.append(
                f"the club's owner, account {club.owner_id} ({said(owner and owner.username)}), "
                'isn\'t one of its members: the club would be "not found" to them'
            )
