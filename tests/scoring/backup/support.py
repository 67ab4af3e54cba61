"""What the backup tests share: a backup file of the first version, and a database emptied as
a new site's would be."""

from pathlib import Path

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management.color import no_style
from django.db import connection

VERSION_1_FILE = Path(__file__).parent / "data" / "club-backup-v1.json"


def empty_the_database(*, restart_ids: bool = False) -> None:
    """Delete every club and account; with `restart_ids`, ids count from 1 again, as they
    would on a new site."""
    tables = [model._meta.db_table for model in apps.get_app_config("scoring").get_models()]
    tables.append(get_user_model()._meta.db_table)
    connection.check_constraints()  # PostgreSQL truncates no table with link checks pending
    connection.ops.execute_sql_flush(
        connection.ops.sql_flush(
            no_style(), tables, reset_sequences=restart_ids, allow_cascade=True
        )
    )
