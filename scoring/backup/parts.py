"""What a club's backup is made of: its format and version, how its values are written (Django's
JSON encoder, times to the microsecond), the accounts' fields it carries, and every model of a
club (`CLUB_PARTS`) with what a restore checks of its values beyond their fields' own."""

from __future__ import annotations

import datetime
import functools
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ImproperlyConfigured
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models

from rules.ruleset import parse_rules
from scoring.models import (
    PLAYER_NAME_MAX_LENGTH,
    SEASON_NAME_MAX_LENGTH,
    SEATS,
    Club,
    ClubChange,
    Deal,
    DealScore,
    Game,
    GameChange,
    ImportedFile,
    Membership,
    Player,
    RatingsMark,
    RatingSnapshot,
    Season,
    SeasonChange,
    Seat,
)
from scoring.names import name_key, name_problem, tidy_name

FORMAT = "bigtwo-club-backup"
VERSION = 2
PROBLEMS_SHOWN = 20
LOOKUP_CHUNK = 500  # values per `IN (…)`, well under SQLite's limit on query parameters

# What a backup holds of an account, by version (each is required in a file of that version,
# but the password). Version 1 also held is_active: it is read for its type and otherwise
# ignored, since restored accounts are plain active accounts.
ACCOUNT_FIELDS: Mapping[int, Sequence[str]] = {
    1: ("username", "password", "date_joined", "is_active", "last_login"),
    2: ("username", "first_name", "last_name", "email", "password", "date_joined", "last_login"),
}

# A password hash is only written when asked for (`export_club --with-passwords`, to move a
# whole site): a club's file is kept by its owner, and a hash in it (a superuser's, or that of a
# member who runs another club) can be guessed at offline. Without one, the account is restored
# with no password, and gets one by a link from the club's owner.
PASSWORD_FIELD = "password"


class BackupError(Exception):
    """A backup that can't be loaded here; the message says why."""


class Invalid(ValueError):
    """A value of a backup that can't be restored; the message says what is wrong with it."""


class BackupEncoder(DjangoJSONEncoder):
    """Django's encoder, but a time keeps its microseconds and its offset as stored: Django's
    own rounds to the millisecond, and a restore would change the order of what happened."""

    def default(self, o: object) -> object:
        if isinstance(o, datetime.datetime):
            return o.isoformat()
        return super().default(o)


def shown(value: object) -> str:
    """A value of a file as JSON, cut short past 40 characters."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:39] + "…"


def said(text: object) -> str:
    """A name from a file, as it can be printed."""
    return text if isinstance(text, str) and text.isprintable() else repr(text)


def names_of(names: Iterable[object]) -> str:
    return ", ".join(sorted(said(name) for name in names))


type Check = Callable[[Any, models.Model], None]


# What a restore checks of a value beyond its field's type and validators, where a page reads
# the value back in its own way.


def rules_name(value: object, row: models.Model | None = None) -> None:
    if not isinstance(value, str):
        raise Invalid(f"should name house rules in text, not {shown(value)}")
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


def name_of_at_most(most: int, what: str) -> Callable[[object], None]:
    def check(value: object) -> None:
        if not isinstance(value, str) or not 0 < len(value) <= most:
            raise Invalid(f"should be {what} of at most {most} characters")

    return check


def roster_name(value: object, row: models.Model | None = None) -> None:
    """A player's name as the site keeps it (scoring.names): one a new game would take."""
    problem = name_problem(value)
    if tidy_name(value) != value or problem is not None:
        raise Invalid(f"{said(value)} is no name the site keeps: {problem or 'tidy its spaces'}")


def sign_up_name(value: object, account: models.Model) -> None:
    """Sign-up and the login form read what is typed in this form (NFKC): an account named
    otherwise could never log in."""
    if isinstance(value, str) and account.normalize_username(value) != value:
        raise Invalid(
            f"isn't as sign-up would write it {account.normalize_username(value)!r}, and an "
            "account named otherwise could never log in"
        )


ACCOUNT_CHECKS: Mapping[str, Check] = {"username": sign_up_name}


def roster_key(row: models.Model) -> str:
    return name_key(row.name)


# What a line of history keeps before and after a change depends on what changed.
GAME_HISTORY_VALUES: Mapping[str, Callable[[Any], None]] = {
    GameChange.Action.STAKE: stake_text,
    GameChange.Action.MOVE: name_of_at_most(SEASON_NAME_MAX_LENGTH, "a season's name"),
    GameChange.Action.MERGE: name_of_at_most(PLAYER_NAME_MAX_LENGTH, "a player's name"),
}
SEASON_HISTORY_VALUES: Mapping[str, Callable[[Any], None]] = {
    SeasonChange.Subject.RULES: rules_name,
    SeasonChange.Subject.STAKE: stake_text,
}


def game_history_value(value: object, row: GameChange) -> None:
    GAME_HISTORY_VALUES.get(row.action, cards_per_seat)(value)


def season_history_value(value: object, row: SeasonChange) -> None:
    # `what` itself is checked against its choices: an unknown one is refused there.
    SEASON_HISTORY_VALUES.get(row.what, lambda value: None)(value)


@dataclass(frozen=True)
class Part:
    """One model of a club's history: how its rows are found from the club, and what a
    restore checks of its values beyond their types and the model fields' own validators."""

    model: type[models.Model]
    # The lookup from one of its rows to the club's id ("pk" for the club itself).
    to_club: str
    # Every JSONField needs one: a JSON value's shape is the model's business. A check is given
    # the value as the file holds it and the row read (a history line's action, say).
    checks: Mapping[str, Check] = field(default_factory=dict)
    # Columns worked out from the row's others, never written to a file nor read from one.
    derived: Mapping[str, Callable[[models.Model], object]] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return self.model._meta.label_lower

    @property
    def fields(self) -> list[models.Field]:
        """Every column but the id, links included: all of it travels."""
        return [
            column
            for column in self.model._meta.concrete_fields
            if not column.primary_key and column.name not in self.derived
        ]

    def rows_of(self, club: Club) -> models.QuerySet:
        return self.model._default_manager.filter(**{self.to_club: club.pk}).order_by("pk")


# Every model of a club, each after the models it links to: a restore inserts them in this
# order, so a link always points at a row that already has its new id. A new model of the club
# is one more entry here (tests/scoring/backup/test_backup.py fails until it is).
CLUB_PARTS: tuple[Part, ...] = (
    Part(Club, "pk"),
    Part(Membership, "club"),
    Part(Player, "club", checks={"name": roster_name}, derived={"name_key": roster_key}),
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
    Part(ClubChange, "club"),
    # Which score files came in: restored, a restored club still refuses one a second time.
    Part(ImportedFile, "club"),
)

# The models a backup leaves out: worked out again from the rows above (the ratings, by
# scoring.services.ratings, once the restore commits).
DERIVED_MODELS: tuple[type[models.Model], ...] = (RatingsMark, RatingSnapshot)


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
            if column.is_relation and (
                column.related_model not in earlier or not column.target_field.primary_key
            ):
                raise ImproperlyConfigured(
                    f"{where} must link by id to an account or a model earlier in CLUB_PARTS"
                )
            if isinstance(column, models.JSONField) and column.name not in part.checks:
                raise ImproperlyConfigured(f"{where} holds JSON: give its Part a check")
        unknown = set(part.checks) - {column.name for column in part.fields}
        if unknown:
            raise ImproperlyConfigured(f"{part.label} has no {', '.join(sorted(unknown))}")
        earlier.add(part.model)
