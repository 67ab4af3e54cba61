"""A benchmark run on its own (`python -m tools.bench.ratings`) measures in a database of its
own, made for the run and dropped after it: the site's own database is never touched."""

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import dj_database_url
from django.conf import settings
from django.db import connection

PROJECT = Path(settings.BASE_DIR)


def test_a_benchmark_leaves_no_database_behind(tmp_path, db):
    scratch, var = tmp_path / "tmp", tmp_path / "var"
    scratch.mkdir()
    environment = os.environ | {"TMPDIR": str(scratch), "DJANGO_VAR_DIR": str(var)}
    run = subprocess.run(
        [sys.executable, "-m", "tools.bench.ratings", "--games", "2"],
        cwd=PROJECT,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[0] == "2 finished games, 8 snapshots"
    assert not list(scratch.iterdir()), "the throwaway SQLite file is left behind"
    site_database = var / "db.sqlite3"
    if site_database.exists():
        with sqlite3.connect(site_database) as site:
            assert site.execute("SELECT name FROM sqlite_master").fetchall() == []
    if url := os.environ.get("DATABASE_URL"):
        name = f"bench_ratings_{dj_database_url.parse(url)['NAME']}"
        with connection.cursor() as cursor:
            cursor.execute("SELECT datname FROM pg_database WHERE datname = %s", [name])
            assert cursor.fetchall() == [], f"{name} is left behind"
