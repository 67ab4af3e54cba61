"""What a club's backup is made of: its format and version, how its values are written (Django's
JSON encoder, times to the microsecond), the accounts' fields it carries, and every model of a
club (`CLUB_PARTS`), in the order a restore inserts them."""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from django.core.serializers.json import DjangoJSONEncoder
from django.db import models

from scoring.models import (
    Club,
    ClubChange,
    Deal,
    DealScore,
    Game,
    GameChange,
    ImportedFile,
    Membership,
    Player,
    Season,
    SeasonChange,
    Seat,
)

FORMAT = "bigtwo-club-backup"
VERSION = 2
PROBLEMS_SHOWN = 20
LOOKUP_CHUNK = 500  # values per `IN (…)`, well under SQLite's limit on query parameters

type Rows = dict[str, dict[int, models.Model]]  # a file's rows by their model's label and id

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


@dataclass(frozen=True)
class Part:
    """One model of a club's history: how its rows are found from the club, and what of it is
    worked out rather than carried. Its values are checked by the model (`full_clean()`: the
    fields' validators and its `clean()`, which a JSONField's shape needs)."""

    model: type[models.Model]
    # The lookup from one of its rows to the club's id ("pk" for the club itself).
    to_club: str
    # Columns the model's clean() works out from the others, never written to a file nor read.
    derived: tuple[str, ...] = ()

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
# is one more entry here (tests/scoring/backup/test_backup.py fails until it is, and while a
# backup couldn't carry it whole).
CLUB_PARTS: tuple[Part, ...] = (
    Part(Club, "pk"),
    Part(Membership, "club"),
    Part(Player, "club", derived=("name_key",)),
    Part(Season, "club"),
    Part(Game, "club"),
    Part(Seat, "game__club"),
    Part(Deal, "game__club"),
    Part(DealScore, "deal__game__club"),
    Part(GameChange, "game__club"),
    Part(SeasonChange, "season__club"),
    Part(ClubChange, "club"),
    # Which score files came in: restored, a restored club still refuses one a second time.
    Part(ImportedFile, "club"),
)
