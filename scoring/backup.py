"""A club's whole history as one JSON document, and back.

Django's own serializers do the writing and reading, so every field of every model travels,
including fields added later. A backup holds the club, its members' accounts (usernames and
password hashes, so they can still log in after a restore), players, seasons, games, seats,
deals, their scores and the games' histories. Rows keep their ids, which is why a restore goes
into a database that doesn't hold them yet.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterator

from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.management.color import no_style
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, models, transaction

from scoring.models import (
    Club,
    Deal,
    DealScore,
    Game,
    GameChange,
    Membership,
    Player,
    Season,
    Seat,
)

FORMAT = "bigtwo-club-backup"
VERSION = 1
USER_FIELDS = ("username", "password", "date_joined", "is_active", "last_login")
CLUB_MODELS = (Club, Membership, Player, Season, Game, Seat, Deal, DealScore, GameChange)


class ExactJSONEncoder(DjangoJSONEncoder):
    """Times to the microsecond: Django's encoder cuts them to milliseconds, and a restore
    must give back exactly what was there."""

    def default(self, o: object) -> object:
        if isinstance(o, datetime.datetime | datetime.time):
            return o.isoformat()
        return super().default(o)


class BackupError(Exception):
    """A backup that can't be loaded here; the message says why."""


def club_rows(club: Club) -> Iterator[models.Model]:
    """Everything of `club`, parents before children, so a restore can save them in order."""
    yield club
    yield from Membership.objects.filter(club=club).order_by("pk")
    yield from Player.objects.filter(club=club).order_by("pk")
    yield from Season.objects.filter(club=club).order_by("pk")
    yield from Game.objects.filter(club=club).order_by("pk")
    yield from Seat.objects.filter(game__club=club).order_by("pk")
    yield from Deal.objects.filter(game__club=club).order_by("pk")
    yield from DealScore.objects.filter(deal__game__club=club).order_by("pk")
    yield from GameChange.objects.filter(game__club=club).order_by("pk")


def export_club(club: Club) -> str:
    users = get_user_model().objects.filter(memberships__club=club).order_by("pk")
    document = {
        "format": FORMAT,
        "version": VERSION,
        "club": club.name,
        "users": json.loads(
            serializers.serialize("json", users, fields=USER_FIELDS, cls=ExactJSONEncoder)
        ),
        "rows": json.loads(serializers.serialize("json", club_rows(club), cls=ExactJSONEncoder)),
    }
    return json.dumps(document, indent=1, ensure_ascii=False)


def import_club(text: str) -> Club:
    """Load a backup into a database that holds none of its rows yet: all of it, or nothing."""
    document = read(text)
    usernames = [user["fields"]["username"] for user in document["users"]]
    taken = list(
        get_user_model().objects.filter(username__in=usernames).values_list("username", flat=True)
    )
    if taken:
        raise BackupError(
            f"These accounts already exist here: {', '.join(taken)}. "
            "Restore into an empty database."
        )
    club_id = next(row["pk"] for row in document["rows"] if row["model"] == "scoring.club")
    if Club.objects.filter(pk=club_id).exists():
        raise BackupError(
            f"A club with id {club_id} already exists here. Restore into an empty database."
        )
    with transaction.atomic():
        everything = json.dumps(document["users"] + document["rows"])
        for item in serializers.deserialize("json", everything):
            item.save()
        # Rows came with their ids: move PostgreSQL's id sequences past them (as loaddata does).
        with connection.cursor() as cursor:
            for sql in connection.ops.sequence_reset_sql(
                no_style(), [get_user_model(), *CLUB_MODELS]
            ):
                cursor.execute(sql)
    return Club.objects.get(pk=club_id)


def read(text: str) -> dict:
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise BackupError(f"This is not a backup file ({error})") from error
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise BackupError("This is not a club backup made by export_club")
    if document.get("version") != VERSION:
        raise BackupError(
            f"This backup is version {document.get('version')}; this site reads version {VERSION}"
        )
    return document
