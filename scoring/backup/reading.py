"""Reading a backup file strictly: its items, every value read by its model field as Django's
deserializer reads it (`to_python`), passing the field's validators and written as export_club
writes it, every link to a row of the same file, one club, no account it doesn't name.
Anything else refuses the whole file with the list of what was found."""

from __future__ import annotations

import datetime
import json
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import ProhibitNullCharactersValidator
from django.db import models
from django.utils import timezone

from scoring.backup.parts import (
    ACCOUNT_FIELDS,
    CLUB_PARTS,
    FORMAT,
    PASSWORD_FIELD,
    PROBLEMS_SHOWN,
    BackupEncoder,
    BackupError,
    Check,
    Invalid,
    check_parts,
    kind_of,
    names_of,
    said,
)
from scoring.backup.results import check_winners
from scoring.models import Club, Membership
from scoring.names import name_key


@dataclass
class Backup:
    """A backup file read and checked: every value typed, every link to a row of the file."""

    # Account fields by the account's id in the file.
    accounts: dict[int, dict[str, Any]]
    # Field values by model label and the row's id in the file; links hold ids of the file.
    rows: dict[str, dict[int, dict[str, Any]]]


def read(text: str) -> Backup:
    """The backup in `text`, or a BackupError listing everything in it that can't be restored."""
    check_parts()
    document = _document(text)
    version = document["version"]
    problems: list[str] = []
    unknown = set(document) - {"format", "version", "club", "users", "rows"}
    if unknown:
        problems.append(
            f"it holds {names_of(unknown)} besides a backup's format, version, club, users and rows"
        )
    if not isinstance(document.get("club"), str):
        problems.append(
            f'its "club" should be the club\'s name, not {kind_of(document.get("club"))}'
        )
    accounts = _accounts(document.get("users"), version, problems)
    rows = _rows(document.get("rows"), problems)
    if not problems:
        _check_links(accounts, rows, version, problems)
        _check_repeats(accounts, rows, problems)
    if not problems:
        check_winners(rows, problems)
    if problems:
        shown = [f"- {problem}" for problem in problems[:PROBLEMS_SHOWN]]
        if len(problems) > PROBLEMS_SHOWN:
            shown.append(f"- and {len(problems) - PROBLEMS_SHOWN} more")
        raise BackupError(
            "This backup can't be restored, and nothing was written:\n" + "\n".join(shown)
        )
    return Backup(accounts=accounts, rows=rows)


def _document(text: str) -> dict[str, Any]:
    try:
        document = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise BackupError(f"This is not a backup file ({error})") from error
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise BackupError("This is not a club backup made by export_club")
    version = document.get("version")
    if type(version) is not int or version not in ACCOUNT_FIELDS:
        readable = " and ".join(str(number) for number in ACCOUNT_FIELDS)
        raise BackupError(
            f"This backup is version {version!r}; this site reads versions {readable}"
        )
    return document


def _items(value: object, section: str, problems: list[str]) -> Iterator[tuple[str, int, dict]]:
    """The well-formed `{"model", "pk", "fields"}` items of a section, noting the others."""
    if not isinstance(value, list):
        problems.append(f'its "{section}" should be a list, not {kind_of(value)}')
        return
    for number, item in enumerate(value, start=1):
        where = f"{section} item {number}"
        if not isinstance(item, dict):
            problems.append(f"{where} should be an object, not {kind_of(item)}")
        elif set(item) != {"model", "pk", "fields"}:
            problems.append(f"{where} should have a model, pk and fields, not {names_of(item)}")
        elif not isinstance(item["model"], str):
            problems.append(f"{where}: its model should be a name, not {kind_of(item['model'])}")
        elif type(item["pk"]) is not int:
            problems.append(f"{where}: its pk should be a whole number, not {kind_of(item['pk'])}")
        elif not isinstance(item["fields"], dict):
            problems.append(
                f"{where}: its fields should be an object, not {kind_of(item['fields'])}"
            )
        else:
            yield item["model"], item["pk"], item["fields"]


def _accounts(value: object, version: int, problems: list[str]) -> dict[int, dict[str, Any]]:
    model = get_user_model()
    label = model._meta.label_lower
    allowed = ACCOUNT_FIELDS[version]
    accounts: dict[int, dict[str, Any]] = {}
    for kind, pk, fields in _items(value, "users", problems):
        who = f"account {pk}"
        if isinstance(fields.get("username"), str):
            who += f" ({said(fields['username'])})"
        if kind != label:
            problems.append(f"{who} is a {said(kind)} row: a backup's users are {label} rows")
            continue
        if pk in accounts:
            problems.append(f"{who} is in the backup twice")
        extra = set(fields) - set(allowed)
        if extra:
            problems.append(
                f"{who} has {names_of(extra)}: a backup holds only an account's "
                f"{', '.join(allowed)}, never staff, superuser, group or permission fields"
            )
        missing = [name for name in allowed if name not in fields and name != PASSWORD_FIELD]
        if missing:
            problems.append(f"{who} has no {', '.join(missing)}")
        present = [name for name in allowed if name in fields]
        accounts[pk] = _values(model, present, fields, {}, who, problems)
        username = accounts[pk].get("username")
        if isinstance(username, str) and model.normalize_username(username) != username:
            # Sign-up and the login form read what is typed in this form (NFKC): an account
            # named otherwise could never log in.
            problems.append(
                f"{who}: sign-up would write it {model.normalize_username(username)!r}, "
                "and an account named otherwise could never log in"
            )
    return accounts


def _rows(value: object, problems: list[str]) -> dict[str, dict[int, dict[str, Any]]]:
    parts = {part.label: part for part in CLUB_PARTS}
    rows: dict[str, dict[int, dict[str, Any]]] = {label: {} for label in parts}
    strangers: Counter[str] = Counter()
    for label, pk, fields in _items(value, "rows", problems):
        part = parts.get(label)
        where = f"{label} {pk}"
        if part is None:
            strangers[said(label)] += 1
        elif pk in rows[label]:
            problems.append(f"{where} is in the backup twice")
        else:
            names = [column.name for column in part.fields]
            extra = set(fields) - set(names)
            if extra:
                problems.append(f"{where} has {names_of(extra)}, which a {label} row doesn't have")
            missing = [
                column.name
                for column in part.fields
                if column.name not in fields and not (column.has_default() or column.null)
            ]
            if missing:
                problems.append(f"{where} has no {', '.join(missing)}")
            present = [name for name in names if name in fields]
            rows[label][pk] = _values(part.model, present, fields, part.checks, where, problems)
    for label, count in strangers.items():
        problems.append(
            f"{count} row{'s' if count > 1 else ''} of {label}: "
            f"a club backup's rows are {', '.join(parts)} only"
        )
    return rows


def _values(
    model: type[models.Model],
    names: Iterable[str],
    fields: dict[str, Any],
    checks: Mapping[str, Check],
    where: str,
    problems: list[str],
) -> dict[str, Any]:
    """The values of `names` in `fields`, each read by its model field, held in the file as
    export_club writes it (true is no position 1, 5 no name "5", 0.5 no stake "0.5"), then
    given the part's checks."""
    values: dict[str, Any] = {}
    for name in names:
        try:
            value = _value(model._meta.get_field(name), fields[name])
        except Invalid as error:
            problems.append(f"{where}: {name} {error}")
            continue
        written = _written(value)
        if type(written) is type(fields[name]) and written == fields[name]:
            values[name] = value
        else:
            problems.append(
                f"{where}: {name} should be written {_shown(written)}, not {_shown(fields[name])}"
            )
    for name, check in checks.items():
        if name in values:
            try:
                check(values[name], values)
            except Invalid as error:
                problems.append(f"{where}: {name} {error}")
    return values


def _value(column: models.Field, raw: object) -> object:
    """`raw` from a file read as Django's deserializer reads it (the field's `to_python`), and
    checked as the field checks a form's value."""
    if raw is None:
        if column.null:
            return None
        raise Invalid("can't be null")
    try:
        if isinstance(raw, str):
            NO_NULL_CHARACTERS(raw)
            raw.encode()  # a lone surrogate, which no database stores
        value = column.to_python(raw)
        if not column.is_relation:  # a link is an id of the file: _check_links finds its row
            column.validate(value, None)
            column.run_validators(value)
        if isinstance(value, datetime.datetime) and timezone.is_aware(value):
            value.astimezone(datetime.UTC)  # how it is stored: a year 9999 could overflow
    except ValidationError as error:
        raise Invalid(" ".join(error.messages)) from error
    except UnicodeEncodeError as error:
        raise Invalid("holds a character that isn't Unicode text") from error
    except (TypeError, ValueError, OverflowError) as error:
        raise Invalid(f"can't be {_shown(raw)}") from error
    if isinstance(value, datetime.datetime) and timezone.is_naive(value):
        raise Invalid(f"needs its time zone, like +00:00 at the end: {raw!r}")
    return value


def _written(value: object) -> object:
    """A value as export_club writes it: Django's serializer hands times, dates, decimals and
    UUIDs to the encoder, and gives the rest as they are."""
    return value if isinstance(value, JSON_TYPES) else ENCODER.default(value)


# The types json.loads gives, and the encoder that writes every other value.
JSON_TYPES = (str, int, float, bool, list, dict, type(None))
ENCODER = BackupEncoder()
NO_NULL_CHARACTERS = ProhibitNullCharactersValidator()


def _shown(value: object) -> str:
    """A value of a file as JSON, cut short past 40 characters."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:39] + "…"


def _check_links(
    accounts: dict[int, dict[str, Any]],
    rows: dict[str, dict[int, dict[str, Any]]],
    version: int,
    problems: list[str],
) -> None:
    """One club; every link to a row or an account of the file; every account named."""
    clubs = sorted(rows[Club._meta.label_lower])
    if len(clubs) != 1:
        problems.append(
            f"it holds {len(clubs)} clubs ({', '.join(map(str, clubs))}): a backup holds one"
        )
    account_label = get_user_model()._meta.label_lower
    named: set[int] = set()
    for part in CLUB_PARTS:
        links = [column for column in part.fields if column.is_relation]
        for pk, values in rows[part.label].items():
            for column in links:
                target = values.get(column.name)
                target_label = column.related_model._meta.label_lower
                if target is None:
                    continue
                if target_label != account_label:
                    if target not in rows[target_label]:
                        problems.append(
                            f"{part.label} {pk}: {column.name} is {target_label} {target}, "
                            "which isn't in the backup"
                        )
                elif target in accounts:
                    named.add(target)
                elif version == 1 and column.null:
                    # Version 1 held only members' accounts: whoever had left becomes "someone",
                    # as when an account is deleted.
                    values[column.name] = None
                else:
                    problems.append(
                        f"{part.label} {pk}: {column.name} is account {target}, "
                        "which isn't in the backup"
                    )
    for pk in sorted(set(accounts) - named):
        problems.append(
            f"account {pk} ({said(accounts[pk].get('username'))}) is neither a member "
            "of the club nor named by its history"
        )
    members = {values.get("user") for values in rows[Membership._meta.label_lower].values()}
    for values in rows[Club._meta.label_lower].values():
        owner = values.get("owner")
        if owner is not None and owner not in members:
            name = said(accounts.get(owner, {}).get("username"))
            problems.append(
                f"the club's owner, account {owner} ({name}), isn't one of its members: the "
                'club would be "not found" to them'
            )


def _check_repeats(
    accounts: dict[int, dict[str, Any]],
    rows: dict[str, dict[int, dict[str, Any]]],
    problems: list[str],
) -> None:
    """Values that must be unique, used twice in the file."""
    # Usernames are unique ignoring case, as sign-up checks them.
    usernames = Counter(values["username"].casefold() for values in accounts.values())
    for name, count in usernames.items():
        if count > 1:
            problems.append(f"the username {said(name)} is in the backup {count} times")
    looks = Counter(
        name_key(row["name"]) for row in rows["scoring.player"].values() if "name" in row
    )
    if (alike := sum(count for count in looks.values() if count > 1)) > 0:
        problems.append(f"{alike} scoring.player rows have names that look alike (Ann and ANN)")
    for part in CLUB_PARTS:
        for column in part.fields:
            if column.unique:
                values = Counter(row.get(column.name) for row in rows[part.label].values())
                values.pop(None, None)
                repeated = sum(count for count in values.values() if count > 1)
                if repeated:
                    problems.append(f"{repeated} {part.label} rows share their {column.name}")
