"""Where the site keeps its database and secret key, only its own user may read or write
(bigtwo_site/var_dir.py). Before, `var/` was 755 and the database 644: any local user read the
live session keys and password hashes, and a DJANGO_VAR_DIR another user had made was used as
it was, its secret key included. The set-up step makes them so (bigtwo_site/prepare_var.py); the
settings, which only read, refuse what isn't."""

import os
import sqlite3
import stat
import subprocess
import sys

import pytest

from tests.fresh_settings import ROOT, prepare_var, settings_in_fresh_process

READ_SETTINGS = "from django.conf import settings; print(settings.VAR_DIR)"


def mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_database_and_its_directory_are_the_sites_users_alone(tmp_path):
    var = tmp_path / "var"
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")},
        "DJANGO_VAR_DIR": str(var),
        "DJANGO_SETTINGS_MODULE": "bigtwo_site.settings",
    }
    # Made as `make setup` makes it, and written to as a server does: migrated, in WAL mode (the
    # -wal and -shm files).
    prepare_var(env)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True
    )
    assert mode(var) == 0o700
    with sqlite3.connect(var / "db.sqlite3") as open_database:  # as a server holds it
        open_database.execute("PRAGMA journal_mode=WAL")
        open_database.execute("CREATE TABLE written (x)")
        made = sorted(path.name for path in var.iterdir())
        assert {"db.sqlite3", "db.sqlite3-wal", "db.sqlite3-shm", "secret_key"} <= set(made)
        for path in var.iterdir():
            assert mode(path) & 0o077 == 0, f"{path.name} is {mode(path):o}"


def test_a_directory_others_could_read_is_refused_and_the_set_up_step_makes_it_private(tmp_path):
    var = tmp_path / "var"
    var.mkdir(mode=0o755)
    var.chmod(0o755)
    refused = settings_in_fresh_process(READ_SETTINGS, var, prepared=False)
    assert refused.returncode != 0
    assert "may be read by others (mode 755): run `make setup`" in refused.stderr
    assert mode(var) == 0o755
    result = settings_in_fresh_process(READ_SETTINGS, var)
    assert result.returncode == 0, result.stderr
    assert mode(var) == 0o700


@pytest.mark.parametrize("prepared", [False, True], ids=["settings", "set-up step"])
def test_a_directory_others_may_write_in_is_refused(tmp_path, prepared):
    var = tmp_path / "var"
    var.mkdir()
    var.chmod(0o777)
    try:
        result = settings_in_fresh_process(READ_SETTINGS, var, prepared=prepared)
    except subprocess.CalledProcessError as refused:
        result = refused
    assert result.returncode != 0
    assert "may be written by others (mode 777): chmod 700 it" in result.stderr
    assert mode(var) == 0o777


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a directory away takes root")
def test_a_directory_of_another_user_is_refused(tmp_path):
    var = tmp_path / "var"
    var.mkdir(mode=0o700)
    os.chown(var, 65534, 65534)  # nobody's
    result = settings_in_fresh_process(READ_SETTINGS, var, prepared=False)
    assert result.returncode != 0
    assert "belongs to another user (uid 65534" in result.stderr
    assert "leave DJANGO_VAR_DIR unset" in result.stderr
