"""Reading a backup file strictly: each item through Django's deserializer
(`serializers.deserialize("python", …)`) and each object through `full_clean()`, and besides,
what a club's backup never holds refuses the file too: a model or field beyond the club's, a
value written otherwise than export_club writes it, a link to a row that isn't in the file, a
second club, an account the club doesn't name. The whole file is refused with the list of what
was found, each problem with its item."""

from __future__ import annotations

import datetime
import functools
import json
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.exceptions import ValidationError
from django.core.serializers.base import DeserializationError
from django.db import models
from django.utils import timezone

from scoring.backup import parts
from scoring.backup.parts import CLUB_PARTS, BackupError, Check, Invalid, names_of, said, shown
from scoring.backup.results import SEATS, check_winners
from scoring.models import Club, Membership
from scoring.names import name_key

type Rows = dict[str, dict[int, models.Model]]


@dataclass
class Backup:
    """A backup file read and checked: its rows as unsaved objects by their model's label and
    their ids in the file, their links holding ids of the file."""

    accounts: dict[int, models.Model]
    rows: Rows


class Shape(NamedTuple):
    """What a file may hold of a model's rows."""

    model: type[models.Model]
    names: Sequence[str]  # its fields that travel
    required: Sequence[str]  # those every row of the file holds
    checks: Mapping[str, Check]  # beyond the fields' own: parts.Part.checks
    noun: str  # what a problem calls a row ("account 3")


def read(text: str) -> Backup:
    """The backup in `text`, or a BackupError listing everything in it that can't be restored."""
    parts.check_parts()
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
    users = {user._meta.label_lower: Shape(user, names, required, parts.ACCOUNT_CHECKS, "account")}
    accounts = _section(document.get("users"), "users", users, problems)[user._meta.label_lower]
    rows = _section(document.get("rows"), "rows", ROWS, problems)
    if not problems:
        _check_links(accounts, rows, document["version"], problems)
        _check_repeats(accounts, rows, problems)
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
        part.checks,
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
        readable = " and ".join(str(number) for number in parts.ACCOUNT_FIELDS)
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
        rows[label][pk] = _row(shape, pk, known, where, problems)
    for label, count in strangers.items():
        problems.append(
            f"its {section} hold {count} {label} row{'s' if count > 1 else ''}: a club "
            f"backup's {section} are {', '.join(shapes)} rows only"
        )
    return rows


def _row(
    shape: Shape, pk: int, fields: dict[str, Any], where: str, problems: list[str]
) -> models.Model:
    """An item read by Django's deserializer, held as export_club writes it, passing the part's
    checks and `full_clean()`; each problem noted."""
    links = _links(shape.model)
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
    refused = set(odd) | _as_written(row, readable, where, problems)
    absent = _names(shape.model) - fields.keys()
    try:
        # Links point into the file (_check_links follows them), unique values are looked for
        # in the file and, by the restore, here; the database holds the constraints as the rows
        # go in. Each would otherwise be a query per row.
        row.full_clean(
            exclude=links.keys() | refused | absent,
            validate_unique=False,
            validate_constraints=False,
        )
    except ValidationError as error:
        for name, messages in error.message_dict.items():
            refused.add(name)
            problems.append(f"{where}: {name} {' '.join(messages)}")
    for name, check in shape.checks.items():
        try:
            if name in readable and name not in refused:
                # Given the value as the file holds it: a username before User.clean() tidies it.
                check(readable[name], row)
        except Invalid as error:
            problems.append(f"{where}: {name} {error}")
    return row


@functools.cache
def _links(model: type[models.Model]) -> dict[str, models.Field]:
    return {column.name: column for column in model._meta.concrete_fields if column.is_relation}


@functools.cache
def _names(model: type[models.Model]) -> frozenset[str]:
    return frozenset(column.name for column in model._meta.concrete_fields)


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
        try:
            _storable(raw, getattr(row, row._meta.get_field(name).attname))
            if type(written[name]) is not type(raw) or written[name] != raw:
                raise Invalid(f"should be written {shown(written[name])}, not {shown(raw)}")
        except Invalid as error:
            refused.add(name)
            problems.append(f"{where}: {name} {error}")
    return refused


def _storable(raw: object, value: object) -> None:
    """Refuse what no database keeps as the file holds it."""
    if isinstance(raw, str) and "\x00" in raw:
        raise Invalid("holds a null character, which no database keeps")
    try:
        if isinstance(raw, str):
            raw.encode()  # a lone surrogate
        if isinstance(value, datetime.datetime) and timezone.is_aware(value):
            value.astimezone(datetime.UTC)  # as it is stored: a year 9999 could overflow
    except UnicodeEncodeError as error:
        raise Invalid("holds a character that isn't Unicode text") from error
    except OverflowError as error:
        raise Invalid(f"can't be {shown(raw)}") from error
    if isinstance(value, datetime.datetime) and timezone.is_naive(value):
        raise Invalid(f"needs its time zone, like +00:00 at the end: {raw!r}")


def _check_links(
    accounts: dict[int, models.Model], rows: Rows, version: int, problems: list[str]
) -> None:
    """One club; every link to a row or an account of the file; every account named."""
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


def _check_repeats(accounts: dict[int, models.Model], rows: Rows, problems: list[str]) -> None:
    """Values that must be unique, used twice in the file."""
    # Usernames are unique ignoring case, as sign-up checks them.
    usernames = Counter(account.get_username().casefold() for account in accounts.values())
    for name, count in usernames.items():
        if count > 1:
            problems.append(f"the username {said(name)} is in the backup {count} times")
    looks = Counter(name_key(row.name) for row in rows["scoring.player"].values())
    if (alike := sum(count for count in looks.values() if count > 1)) > 0:
        problems.append(f"{alike} scoring.player rows have names that look alike (Ann and ANN)")
    for part in CLUB_PARTS:
        for column in part.fields:
            if column.unique:
                values = Counter(getattr(row, column.attname) for row in rows[part.label].values())
                values.pop(None, None)
                repeated = sum(count for count in values.values() if count > 1)
                if repeated:
                    problems.append(f"{repeated} {part.label} rows share their {column.name}")
