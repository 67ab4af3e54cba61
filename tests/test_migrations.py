"""The migrations say everything the models do: no change to a model ships without one."""

from io import StringIO

import pytest
from django.core.management import call_command


def test_makemigrations_finds_nothing_to_write(db):
    out = StringIO()
    try:
        call_command("makemigrations", check=True, dry_run=True, stdout=out, stderr=out)
    except SystemExit:
        pytest.fail(f"a model changed without a migration: run makemigrations\n{out.getvalue()}")
    assert "No changes detected" in out.getvalue()
