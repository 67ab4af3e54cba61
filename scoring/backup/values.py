"""How a backup reads each kind of model field from JSON, strictly, and how it names what it
found in a file when it refuses one."""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Callable, Iterable, Mapping
from decimal import Decimal, InvalidOperation

from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime


class Invalid(ValueError):
    """A value of a backup that can't be restored; the message says what is wrong with it."""


def read_text(raw: object) -> str:
    if not isinstance(raw, str):
        raise Invalid(f"should be text, not {kind_of(raw)}")
    if "\x00" in raw:
        raise Invalid("holds a NUL character")
    try:
        raw.encode()
    except UnicodeEncodeError as error:
        raise Invalid("holds a character that isn't Unicode text") from error
    return raw


def read_whole(raw: object) -> int:
    if type(raw) is not int:  # true and false are ints to Python, but not to a backup
        raise Invalid(f"should be a whole number, not {kind_of(raw)}")
    if not -(2**63) <= raw < 2**63:
        raise Invalid("is too large for a database")
    return raw


def read_truth(raw: object) -> bool:
    if not isinstance(raw, bool):
        raise Invalid(f"should be true or false, not {kind_of(raw)}")
    return raw


def read_moment(raw: object) -> datetime.datetime:
    text = read_text(raw)
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


def read_day(raw: object) -> datetime.date:
    text = read_text(raw)
    try:
        value = parse_date(text)
    except ValueError:
        value = None
    if value is None:
        raise Invalid(f"should be a date like 2026-11-29, not {text!r}")
    return value


def read_decimal(raw: object) -> Decimal:
    if not isinstance(raw, str):
        raise Invalid(f'should be a number in quotes, like "0.125", not {kind_of(raw)}')
    try:
        return Decimal(read_text(raw))
    except InvalidOperation as error:
        raise Invalid(f'should be a number in quotes, like "0.125", not {raw!r}') from error


def read_uuid(raw: object) -> uuid.UUID:
    text = read_text(raw)
    try:
        return uuid.UUID(text)
    except ValueError as error:
        raise Invalid(f"should be a UUID, not {text!r}") from error


def read_json(raw: object) -> object:
    return raw  # its shape is checked by its Part


# How each kind of model field is read from JSON (and so which kinds a club model may use).
READERS: Mapping[str, Callable[[object], object]] = {
    "CharField": read_text,
    "TextField": read_text,
    "BooleanField": read_truth,
    "DateTimeField": read_moment,
    "DateField": read_day,
    "DecimalField": read_decimal,
    "UUIDField": read_uuid,
    "JSONField": read_json,
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
        read_whole,
    ),
}


def kind_of(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "text"
    return "a list" if isinstance(value, list) else "an object"


def said(text: object) -> str:
    """A name from a file, as it can be printed."""
    return text if isinstance(text, str) and text.isprintable() else repr(text)


def names_of(names: Iterable[object]) -> str:
    return ", ".join(sorted(said(name) for name in names))
