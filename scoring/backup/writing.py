"""Writing a club's backup: every row of its models and the accounts they name, as JSON."""

from __future__ import annotations

import datetime
import json
import uuid
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.db import models

from scoring.backup.parts import (
    ACCOUNT_FIELDS,
    CLUB_PARTS,
    FORMAT,
    PASSWORD_FIELD,
    VERSION,
    check_parts,
)
from scoring.models import Club


def export_club(club: Club, *, with_passwords: bool = False) -> str:
    """The club's backup as JSON text; its accounts' password hashes only `with_passwords`."""
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
    account_fields = [
        accounts._meta.get_field(name)
        for name in ACCOUNT_FIELDS[VERSION]
        if with_passwords or name != PASSWORD_FIELD
    ]
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
