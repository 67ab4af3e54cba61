"""Writing a club's backup: every row of its models and the accounts they name, each as Django's
serializer writes a row (`{"model", "pk", "fields"}`), in one JSON document."""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth import get_user_model
from django.core import serializers

from scoring.backup.parts import (
    ACCOUNT_FIELDS,
    CLUB_PARTS,
    FORMAT,
    PASSWORD_FIELD,
    VERSION,
    BackupEncoder,
)
from scoring.models import Club


def export_club(club: Club, *, with_passwords: bool = False) -> str:
    """The club's backup as JSON text; its accounts' password hashes only `with_passwords`."""
    accounts = get_user_model()
    rows: list[dict[str, Any]] = []
    named: set[int | None] = set()
    for part in CLUB_PARTS:
        written = serializers.serialize(
            "python",
            part.rows_of(club).iterator(chunk_size=2000),
            fields=[column.name for column in part.fields],
        )
        links_to_accounts = [
            column.name
            for column in part.fields
            if column.is_relation and column.related_model is accounts
        ]
        named.update(row["fields"][name] for row in written for name in links_to_accounts)
        rows += written
    users = accounts._default_manager.filter(pk__in=named - {None}).order_by("pk")
    fields = [name for name in ACCOUNT_FIELDS[VERSION] if with_passwords or name != PASSWORD_FIELD]
    document = {
        "format": FORMAT,
        "version": VERSION,
        "club": club.name,
        "users": serializers.serialize("python", users, fields=fields),
        "rows": rows,
    }
    return json.dumps(document, cls=BackupEncoder, indent=1, ensure_ascii=False)
