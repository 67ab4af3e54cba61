"""Importing the settings writes nothing: the var directory, the secret key and the SQLite
database are made by the set-up step (`make setup`: `python manage.py prepare_var`, then
`migrate`), and the settings, missing one, stop the site with a message naming that step. Before,
each import made the directory, wrote a secret key and created the database file."""

import os
import subprocess
import sys

import pytest

from tests.fresh_settings import ROOT, settings_in_fresh_process

READ_SETTINGS = "from django.conf import settings; settings.DATABASES; print(settings.VAR_DIR)"
SET_UP = "run `make setup` (or `.venv/bin/python manage.py prepare_var`) first"


def files_under(path) -> list[str]:
    return sorted(str(found.relative_to(path)) for found in path.rglob("*"))


@pytest.mark.parametrize("key", ["", "a key of the environment's"])
def test_importing_the_settings_into_a_missing_var_dir_writes_nothing(tmp_path, key):
    var = tmp_path / "var"
    read = settings_in_fresh_process(READ_SETTINGS, var, prepared=False, DJANGO_SECRET_KEY=key)
    assert read.returncode != 0
    assert files_under(tmp_path) == []
    assert f"DJANGO_VAR_DIR {str(var)!r} doesn't exist: {SET_UP}" in read.stderr
    assert "ImproperlyConfigured" in read.stderr


def test_importing_the_settings_into_an_empty_var_dir_writes_nothing(tmp_path):
    tmp_path.chmod(0o700)
    read = settings_in_fresh_process(READ_SETTINGS, tmp_path, prepared=False, DJANGO_SECRET_KEY="")
    assert read.returncode != 0
    assert files_under(tmp_path) == []
    assert (
        f"No secret key in {tmp_path / 'secret_key'}: {SET_UP}, or set DJANGO_SECRET_KEY"
        in read.stderr
    )


def test_a_missing_database_is_named_with_the_step_that_makes_it(tmp_path):
    tmp_path.chmod(0o700)
    read = settings_in_fresh_process(READ_SETTINGS, tmp_path, prepared=False)
    assert read.returncode != 0
    assert files_under(tmp_path) == []
    assert f"No database at {tmp_path / 'db.sqlite3'}: {SET_UP}" in read.stderr


def test_the_set_up_step_makes_what_the_settings_read_and_then_they_write_nothing(tmp_path):
    var = tmp_path / "var"
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_SECRET_KEY")},
        "DJANGO_VAR_DIR": str(var),
    }
    prepare = [sys.executable, "manage.py", "prepare_var"]
    subprocess.run(prepare, cwd=ROOT, env=env, check=True)
    made = files_under(var)
    assert made == ["db.sqlite3", "secret_key"]
    key = (var / "secret_key").read_text()
    subprocess.run(prepare, cwd=ROOT, env=env, check=True)  # again: nothing new, the same key
    assert (var / "secret_key").read_text() == key
    read = settings_in_fresh_process(READ_SETTINGS, var, prepared=False, DJANGO_SECRET_KEY="")
    assert read.returncode == 0, read.stderr
    assert files_under(var) == made


def test_with_a_key_in_the_environment_the_set_up_step_writes_none(tmp_path):
    var = tmp_path / "var"
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env |= {"DJANGO_VAR_DIR": str(var), "DJANGO_SECRET_KEY": "kept elsewhere"}
    subprocess.run([sys.executable, "manage.py", "prepare_var"], cwd=ROOT, env=env, check=True)
    assert files_under(var) == ["db.sqlite3"]


def test_the_settings_read_the_environment_through_its_helpers_alone():
    source = (ROOT / "bigtwo_site" / "settings.py").read_text(encoding="utf-8")
    assert "os.environ" not in source
    assert "import os" not in source


def test_a_key_left_empty_is_named_with_what_to_do(tmp_path):
    """A set-up step stopped between making the key's file and writing it left an empty one,
    which `make setup` kept: the key is now written whole before it takes its name."""
    (tmp_path / "db.sqlite3").touch()
    (tmp_path / "secret_key").touch()
    tmp_path.chmod(0o700)
    read = settings_in_fresh_process(READ_SETTINGS, tmp_path, prepared=False, DJANGO_SECRET_KEY="")
    assert read.returncode != 0
    key = tmp_path / "secret_key"
    assert f"The secret key in {key} is empty: delete it, then {SET_UP[:-6]}" in read.stderr


def test_set_up_steps_run_together_agree_on_one_key(tmp_path):
    var = tmp_path / "var"
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_SECRET_KEY")}
    env["DJANGO_VAR_DIR"] = str(var)
    steps = [
        subprocess.Popen(
            [sys.executable, "manage.py", "prepare_var"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    said = [step.communicate(timeout=60)[0] for step in steps]
    assert [step.returncode for step in steps] == [0] * 4
    assert sum(f"made {var / 'secret_key'}" in lines for lines in said) == 1
    assert files_under(var) == ["db.sqlite3", "secret_key"]
    assert len((var / "secret_key").read_text()) >= 50
