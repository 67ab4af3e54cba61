"""A club's whole history as one JSON document, and back, beside whatever clubs are there.

A backup (version 2) holds the club and every row of its models (`CLUB_PARTS`), each as
`{"model", "pk", "fields"}`, and the accounts those rows name: the members, and anyone the
history names who has since left. Of an account it keeps what logs in and names someone
(`ACCOUNT_FIELDS`): never a staff, superuser, group or permission field.

A restore trusts nothing in the file. It reads it strictly: only the club's models and
their fields, each value of its field's type and passing the field's own validators, every
link pointing at a row of the same file, one club, no account the club doesn't name.
Anything else refuses the whole file, with a list of what was found. Then, in one
transaction, it refuses usernames already taken here and inserts every row with a new id,
its links remapped, so no row of another club is ever written. Version 1 files restore
through the same reader.
"""

from __future__ import annotations

import datetime
import functools
import json
import uuid
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ImproperlyConfigured, ValidationError
from django.db import DataError, IntegrityError, models, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from rules.ruleset import parse_rules
from scoring.models import (
    SEASON_NAME_MAX_LENGTH,
    SEATS,
    Club,
    Deal,
    DealScore,
    Game,
    GameChange,
    Membership,
    Player,
    Season,
    SeasonChange,
    Seat,
)

FORMAT = "bigtwo-club-backup"
VERSION = 2
# What a backup holds of an account, by version (each is required in a file of that version).
# Version 1 also held is_active: it is read for its type and otherwise ignored, since
# restored accounts are plain active accounts.
ACCOUNT_FIELDS: Mapping[int, Sequence[str]] = {
    1: ("username", "password", "date_joined", "is_active", "last_login"),
    2: ("username", "first_name", "last_name", "email", "password", "date_joined", "last_login"),
}
RESTORED_ACCOUNT_FIELDS = ACCOUNT_FIELDS[VERSION]
PROBLEMS_SHOWN = 20
LOOKUP_CHUNK = 500  # values per `IN (…)`, well under SQLite's limit on query parameters


class BackupError(Exception):
    """A backup that can't be loaded here; the message says why."""


class Invalid(ValueError):
    """A value of a backup that can't be restored; the message says what is wrong with it."""


type Check = Callable[[Any, Mapping[str, Any]], None]


# What a restore checks of a value beyond its field's type and validators, where a page reads
# the value back in its own way.


def rules_name(value: object, row: Mapping[str, Any] | None = None) -> None:
    try:
        parse_rules(value)
    except ValueError as error:
        raise Invalid(f"names no house rules this site knows ({error})") from error


def cards_per_seat(value: object) -> None:
    """A line of history's cards left (or banked totals), one whole number per seat, or null."""
    if value is None:
        return
    if not (
        isinstance(value, list)
        and len(value) <= SEATS
        and all(type(number) is int and 0 <= number < 2**31 for number in value)
    ):
        raise Invalid(f"should be a list of at most {SEATS} whole numbers, one per seat")


def stake_text(value: object) -> None:
    """A stake as a history line shows it ("0.10"), or null for none."""
    if value is None:
        return
    try:
        stake = Decimal(value) if isinstance(value, str) else None
    except ArithmeticError:
        stake = None
    if stake is None or not stake.is_finite() or stake < 0 or len(value) > 20:
        raise Invalid('should be a stake written as a number, e.g. "0.10", or null')


def season_name(value: object) -> None:
    if not isinstance(value, str) or not 0 < len(value) <= SEASON_NAME_MAX_LENGTH:
        raise Invalid(f"should be a season's name of at most {SEASON_NAME_MAX_LENGTH} characters")


# What a line of history keeps before and after a change depends on what changed.
GAME_HISTORY_VALUES: Mapping[str, Callable[[Any], None]] = {
    GameChange.Action.STAKE: stake_text,
    GameChange.Action.MOVE: season_name,
}
SEASON_HISTORY_VALUES: Mapping[str, Callable[[Any], None]] = {
    SeasonChange.Subject.RULES: rules_name,
    SeasonChange.Subject.STAKE: stake_text,
}


def game_history_value(value: object, row: Mapping[str, Any]) -> None:
    GAME_HISTORY_VALUES.get(row.get("action"), cards_per_seat)(value)


def season_history_value(value: object, row: Mapping[str, Any]) -> None:
    # `what` itself is checked against its choices: an unknown one is refused there.
    SEASON_HISTORY_VALUES.get(row.get("what"), lambda value: None)(value)


@dataclass(frozen=True)
class Part:
    """One model of a club's history: how its rows are found from the club, and what a
    restore checks of its values beyond their types and the model fields' own validators."""

    model: type[models.Model]
    # The lookup from one of its rows to the club's id ("pk" for the club itself).
    to_club: str
    # Every JSONField needs one: a JSON value's shape is the model's business. A check is given
    # the value and the row's values read before it (a history line's action, say).
    checks: Mapping[str, Check] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return self.model._meta.label_lower

    @property
    def fields(self) -> list[models.Field]:
        """Every column but the id, links included: all of it travels."""
        return [column for column in self.model._meta.concrete_fields if not column.primary_key]

    def rows_of(self, club: Club) -> models.QuerySet:
        return self.model._default_manager.filter(**{self.to_club: club.pk}).order_by("pk")


# Every model of a club, each after the models it links to: a restore inserts them in this
# order, so a link always points at a row that already has its new id. A new model of the club
# is one more entry here (tests/scoring/test_backup.py fails until it is).
CLUB_PARTS: tuple[Part, ...] = (
    Part(Club, "pk"),
    Part(Membership, "club"),
    Part(Player, "club"),
    Part(Season, "club", checks={"rules": rules_name}),
    Part(Game, "club", checks={"rules": rules_name}),
    Part(Seat, "game__club"),
    Part(Deal, "game__club"),
    Part(DealScore, "deal__game__club"),
    Part(
        GameChange,
        "game__club",
        checks={"before": game_history_value, "after": game_history_value},
    ),
    Part(
        SeasonChange,
        "season__club",
        checks={"before": season_history_value, "after": season_history_value},
    ),
)


@functools.cache
def check_parts() -> None:
    """Refuse, to the engineer, a CLUB_PARTS that a backup couldn't carry whole."""
    accounts = get_user_model()
    earlier: set[type[models.Model]] = {accounts}
    if CLUB_PARTS[0] != Part(Club, "pk"):
        raise ImproperlyConfigured("CLUB_PARTS starts with the club: Part(Club, 'pk')")
    for part in CLUB_PARTS:
        if part.model._meta.many_to_many:
            raise ImproperlyConfigured(f"{part.label} has many-to-many fields: give them a model")
        if part.model._meta.pk.get_internal_type() not in ("AutoField", "BigAutoField"):
            raise ImproperlyConfigured(f"{part.label} needs ids the database counts out")
        for column in part.fields:
            where = f"{part.label}.{column.name}"
            kind = column.get_internal_type()
            if kind not in READERS:
                raise ImproperlyConfigured(f"{where} is a {kind}: teach backup.READERS to read it")
            if column.is_relation and (
                column.related_model not in earlier or not column.target_field.primary_key
            ):
                raise ImproperlyConfigured(
                    f"{where} must link by id to an account or a model earlier in CLUB_PARTS"
                )
            if kind == "JSONField" and column.name not in part.checks:
                raise ImproperlyConfigured(f"{where} holds JSON: give its Part a check")
        unknown = set(part.checks) - {column.name for column in part.fields}
        if unknown:
            raise ImproperlyConfigured(f"{part.label} has no {', '.join(sorted(unknown))}")
        earlier.add(part.model)


# Writing


def export_club(club: Club) -> str:
    check_parts()
    accounts = get_user_model()
    rows: list[dict[str, Any]] = []
    named: set[int | None] = set()
    for part in CLUB_PARTS:
        links_to_accounts = [
            column.attname
            for column in part.fields
            if column.is_relation and column.related_model is accounts
        ]
        for row in part.rows_of(club).iterator(chunk_size=2000):
            rows.append(_item(row, part.fields))
            named.update(getattr(row, attname) for attname in links_to_accounts)
    account_fields = [accounts._meta.get_field(name) for name in ACCOUNT_FIELDS[VERSION]]
    users = accounts._default_manager.filter(pk__in=named - {None}).order_by("pk")
    document = {
        "format": FORMAT,
        "version": VERSION,
        "club": club.name,
        "users": [_item(user, account_fields) for user in users],
        "rows": rows,
    }
    return json.dumps(document, indent=1, ensure_ascii=False)


def _item(row: models.Model, columns: Iterable[models.Field]) -> dict[str, Any]:
    fields = {column.name: _written(getattr(row, column.attname)) for column in columns}
    return {"model": row._meta.label_lower, "pk": row.pk, "fields": fields}


def _written(value: object) -> object:
    # Times to the microsecond and with their offset, as the reader wants them.
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, Decimal | uuid.UUID):
        return str(value)
    return value


# Reading


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
            f"it holds {_names(unknown)} besides a backup's format, version, club, users and rows"
        )
    if not isinstance(document.get("club"), str):
        problems.append(f'its "club" should be the club\'s name, not {_kind(document.get("club"))}')
    accounts = _accounts(document.get("users"), version, problems)
    rows = _rows(document.get("rows"), problems)
    if not problems:
        _check_links(accounts, rows, version, problems)
        _check_repeats(accounts, rows, problems)
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
        problems.append(f'its "{section}" should be a list, not {_kind(value)}')
        return
    for number, item in enumerate(value, start=1):
        where = f"{section} item {number}"
        if not isinstance(item, dict):
            problems.append(f"{where} should be an object, not {_kind(item)}")
        elif set(item) != {"model", "pk", "fields"}:
            problems.append(f"{where} should have a model, pk and fields, not {_names(item)}")
        elif not isinstance(item["model"], str):
            problems.append(f"{where}: its model should be a name, not {_kind(item['model'])}")
        elif type(item["pk"]) is not int:
            problems.append(f"{where}: its pk should be a whole number, not {_kind(item['pk'])}")
        elif not isinstance(item["fields"], dict):
            problems.append(f"{where}: its fields should be an object, not {_kind(item['fields'])}")
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
            who += f" ({_said(fields['username'])})"
        if kind != label:
            problems.append(f"{who} is a {_said(kind)} row: a backup's users are {label} rows")
            continue
        if pk in accounts:
            problems.append(f"{who} is in the backup twice")
        extra = set(fields) - set(allowed)
        if extra:
            problems.append(
                f"{who} has {_names(extra)}: a backup holds only an account's "
                f"{', '.join(allowed)}, never staff, superuser, group or permission fields"
            )
        missing = [name for name in allowed if name not in fields]
        if missing:
            problems.append(f"{who} has no {', '.join(missing)}")
        present = [name for name in allowed if name in fields]
        accounts[pk] = _values(model, present, fields, {}, who, problems)
    return accounts


def _rows(value: object, problems: list[str]) -> dict[str, dict[int, dict[str, Any]]]:
    parts = {part.label: part for part in CLUB_PARTS}
    rows: dict[str, dict[int, dict[str, Any]]] = {label: {} for label in parts}
    strangers: Counter[str] = Counter()
    for label, pk, fields in _items(value, "rows", problems):
        part = parts.get(label)
        where = f"{label} {pk}"
        if part is None:
            strangers[_said(label)] += 1
        elif pk in rows[label]:
            problems.append(f"{where} is in the backup twice")
        else:
            names = [column.name for column in part.fields]
            extra = set(fields) - set(names)
            if extra:
                problems.append(f"{where} has {_names(extra)}, which a {label} row doesn't have")
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
    """The values of `names` in `fields`, each read as its model field's type and checked."""
    values: dict[str, Any] = {}
    for name in names:
        try:
            values[name] = _value(model._meta.get_field(name), fields[name])
            if name in checks:
                checks[name](values[name], values)
        except Invalid as error:
            problems.append(f"{where}: {name} {error}")
    return values


def _value(column: models.Field, raw: object) -> object:
    """`raw` from a file as a value of `column`, checked as the field checks a form's value."""
    if raw is None:
        if column.null:
            return None
        raise Invalid("can't be null")
    value = READERS[column.get_internal_type()](raw)
    if column.is_relation:
        return value  # an id of the file: _check_links finds its row
    try:
        column.validate(value, None)
        column.run_validators(value)
    except ValidationError as error:
        raise Invalid(" ".join(error.messages)) from error
    return value


def _text(raw: object) -> str:
    if not isinstance(raw, str):
        raise Invalid(f"should be text, not {_kind(raw)}")
    if "\x00" in raw:
        raise Invalid("holds a NUL character")
    try:
        raw.encode()
    except UnicodeEncodeError as error:
        raise Invalid("holds a character that isn't Unicode text") from error
    return raw


def _whole(raw: object) -> int:
    if type(raw) is not int:  # true and false are ints to Python, but not to a backup
        raise Invalid(f"should be a whole number, not {_kind(raw)}")
    if not -(2**63) <= raw < 2**63:
        raise Invalid("is too large for a database")
    return raw


def _truth(raw: object) -> bool:
    if not isinstance(raw, bool):
        raise Invalid(f"should be true or false, not {_kind(raw)}")
    return raw


def _moment(raw: object) -> datetime.datetime:
    text = _text(raw)
    try:
        value = parse_datetime(text)
        if value is not None and timezone.is_aware(value):
            value.astimezone(datetime.UTC)  # how it is stored: a year 9999 could overflow
    except (ValueError, OverflowError):
        value = None
    if value is None:
        raise Invalid(f"should be a date and time like 2026-11-29T19:30:00+00:00, not {text!r}")
    if timezone.is_naive(value):
        raise Invalid(f"needs its time zone, like +00:00 at the end: {text!r}")
    return value


def _day(raw: object) -> datetime.date:
    text = _text(raw)
    try:
        value = parse_date(text)
    except ValueError:
        value = None
    if value is None:
        raise Invalid(f"should be a date like 2026-11-29, not {text!r}")
    return value


def _decimal(raw: object) -> Decimal:
    if not isinstance(raw, str):
        raise Invalid(f'should be a number in quotes, like "0.125", not {_kind(raw)}')
    try:
        return Decimal(_text(raw))
    except InvalidOperation as error:
        raise Invalid(f'should be a number in quotes, like "0.125", not {raw!r}') from error


def _uuid(raw: object) -> uuid.UUID:
    text = _text(raw)
    try:
        return uuid.UUID(text)
    except ValueError as error:
        raise Invalid(f"should be a UUID, not {text!r}") from error


def _json(raw: object) -> object:
    return raw  # its shape is checked by its Part


# How each kind of model field is read from JSON (and so which kinds a club model may use).
READERS: Mapping[str, Callable[[object], object]] = {
    "CharField": _text,
    "TextField": _text,
    "BooleanField": _truth,
    "DateTimeField": _moment,
    "DateField": _day,
    "DecimalField": _decimal,
    "UUIDField": _uuid,
    "JSONField": _json,
    **dict.fromkeys(
        (
            "IntegerField",
            "SmallIntegerField",
            "BigIntegerField",
            "PositiveIntegerField",
            "PositiveSmallIntegerField",
            "PositiveBigIntegerField",
            "ForeignKey",
            "OneToOneField",
        ),
        _whole,
    ),
}


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
            f"account {pk} ({_said(accounts[pk].get('username'))}) is neither a member "
            "of the club nor named by its history"
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
            problems.append(f"the username {_said(name)} is in the backup {count} times")
    for part in CLUB_PARTS:
        for column in part.fields:
            if column.unique:
                values = Counter(row.get(column.name) for row in rows[part.label].values())
                values.pop(None, None)
                repeated = sum(count for count in values.values() if count > 1)
                if repeated:
                    problems.append(f"{repeated} {part.label} rows share their {column.name}")


# Restoring


def import_club(text: str) -> Club:
    """Restore a backup beside whatever this database holds: all of it with new ids, or nothing.

    Refused, having written nothing, when the file holds anything a club's backup doesn't,
    when one of its usernames or unique values (invite link, deal tokens) is taken here, or
    when the database refuses a row.
    """
    backup = read(text)
    try:
        with transaction.atomic():
            _refuse_what_is_taken(backup)
            return _insert(backup)
    except (IntegrityError, DataError) as error:
        raise BackupError(
            f"The database refused the backup's rows, so nothing was written: {error}"
        ) from error


def _refuse_what_is_taken(backup: Backup) -> None:
    accounts = get_user_model()
    usernames = [values["username"] for values in backup.accounts.values()]
    here: dict[str, str] = {}
    for chunk in _chunks(usernames):
        same_ignoring_case = Q()
        for name in chunk:
            same_ignoring_case |= Q(username__iexact=name)
        for name in accounts._default_manager.filter(same_ignoring_case).values_list(
            "username", flat=True
        ):
            here[name.casefold()] = name
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
            if column.unique:
                values = [row.get(column.name) for row in backup.rows[part.label].values()]
                values = [value for value in values if value is not None]
                found = sum(
                    part.model._default_manager.filter(**{f"{column.name}__in": chunk}).count()
                    for chunk in _chunks(values)
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
    accounts = get_user_model()
    new_ids: dict[str, dict[int, int]] = {}
    old_ids = sorted(backup.accounts)  # in order, so ids keep their order (ties sort by id)
    users = [
        # Only these fields: the rest take an account's defaults (active, no staff, no
        # superuser, no groups or permissions). Version 1 had no names or addresses.
        accounts(
            **{
                name: backup.accounts[pk][name]
                for name in RESTORED_ACCOUNT_FIELDS
                if name in backup.accounts[pk]
            }
        )
        for pk in old_ids
    ]
    accounts._default_manager.bulk_create(users)
    new_ids[accounts._meta.label_lower] = {
        old: user.pk for old, user in zip(old_ids, users, strict=True)
    }
    for part in CLUB_PARTS:
        rows = backup.rows[part.label]
        old_ids = sorted(rows)
        made = [part.model(**_relinked(part, rows[pk], new_ids)) for pk in old_ids]
        part.model._default_manager.bulk_create(made)
        new_ids[part.label] = {old: row.pk for old, row in zip(old_ids, made, strict=True)}
    (club_id,) = new_ids[Club._meta.label_lower].values()
    return Club.objects.get(pk=club_id)


def _relinked(part: Part, values: dict[str, Any], new_ids: dict[str, dict[int, int]]) -> dict:
    """A row's values by column, its links turned to the new ids (absent fields take defaults)."""
    made = {}
    for column in part.fields:
        if column.name in values:
            value = values[column.name]
            if column.is_relation and value is not None:
                value = new_ids[column.related_model._meta.label_lower][value]
            made[column.attname] = value
    return made


def _chunks(values: Sequence[Any]) -> Iterator[Sequence[Any]]:
    for start in range(0, len(values), LOOKUP_CHUNK):
        yield values[start : start + LOOKUP_CHUNK]


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "text"
    return "a list" if isinstance(value, list) else "an object"


def _said(text: object) -> str:
    """A name from a file, as it can be printed."""
    return text if isinstance(text, str) and text.isprintable() else repr(text)


def _names(names: Iterable[object]) -> str:
    return ", ".join(sorted(_said(name) for name in names))
