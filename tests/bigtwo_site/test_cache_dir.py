"""DJANGO_CACHE_DIR: the machine's caches of files where the operator puts them (in memory,
ideally), and never where another user could write the pickles they are read from."""

import json
import os
import subprocess
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from bigtwo_site.cache_dir import cache_dir
from tests.fresh_settings import settings_in_fresh_process


def test_unset_or_blank_keeps_the_caches_in_the_var_directory(tmp_path):
    assert cache_dir(None, tmp_path) == tmp_path
    assert cache_dir("  ", tmp_path) == tmp_path


def test_a_new_directory_is_made_for_the_site_alone(tmp_path):
    named = tmp_path / "run" / "bigtwo"
    assert cache_dir(str(named), tmp_path / "var") == named
    assert named.is_dir()
    assert named.stat().st_mode & 0o777 == 0o700


def test_a_directory_of_the_sites_own_is_taken_as_it_is(tmp_path):
    named = tmp_path / "bigtwo"
    named.mkdir(mode=0o755)
    named.chmod(0o755)
    assert cache_dir(f" {named} ", tmp_path / "var") == named
    assert named.stat().st_mode & 0o777 == 0o755


@pytest.mark.parametrize("mode", [0o777, 0o770, 0o775])
def test_a_directory_others_may_write_in_is_refused(tmp_path, mode):
    named = tmp_path / "ours"
    named.mkdir()
    named.chmod(mode)
    with pytest.raises(
        ImproperlyConfigured, match=rf"where others may write \(mode {mode:o}\); chmod go-w it"
    ):
        cache_dir(str(named), tmp_path)


def test_a_shared_place_like_dev_shm_is_refused_with_a_directory_of_its_own_to_name(tmp_path):
    shared = tmp_path / "shm"
    shared.mkdir()
    shared.chmod(0o1777)
    with pytest.raises(ImproperlyConfigured) as refused:
        cache_dir(str(shared), tmp_path)
    assert "a directory others may write in (mode 1777)" in str(refused.value)
    assert f"such as '{shared / 'bigtwo'}', which it makes" in str(refused.value)
    # Which it does, privately, when named.
    assert cache_dir(str(shared / "bigtwo"), tmp_path).stat().st_mode & 0o777 == 0o700


def test_another_users_directory_is_refused(tmp_path, monkeypatch):
    named = tmp_path / "theirs"
    named.mkdir(mode=0o700)
    # As if the site ran as someone else: the directory is then another user's.
    monkeypatch.setattr(os, "geteuid", lambda: named.stat().st_uid + 1)
    with pytest.raises(ImproperlyConfigured, match="belongs to another user"):
        cache_dir(str(named), tmp_path)


@pytest.mark.parametrize(
    ("value", "problem"),
    [("run/bigtwo", "isn't an absolute path"), ("FILE", "isn't a directory")],
)
def test_a_path_that_cant_be_the_caches_says_what_to_name(tmp_path, value, problem):
    (tmp_path / "a-file").write_text("")
    value = value.replace("FILE", str(tmp_path / "a-file"))
    with pytest.raises(ImproperlyConfigured) as refused:
        cache_dir(value, tmp_path)
    message = str(refused.value)
    assert problem in message
    assert "RuntimeDirectory=bigtwo" in message
    assert "Unset, the caches live in DJANGO_VAR_DIR" in message


def site_settings(tmp_path: Path, **environ: str) -> subprocess.CompletedProcess:
    """The settings a server would start with under `environ`: the caches' and database's files."""
    script = (
        "import json; from django.conf import settings as s;"
        "print(json.dumps({name: c['LOCATION'] for name, c in s.CACHES.items()"
        " if 'LOCATION' in c} | {'db': str(s.DATABASES['default']['NAME'])}))"
    )
    return settings_in_fresh_process(script, tmp_path / "var", **environ)


def test_the_site_keeps_its_caches_there_and_its_database_in_the_var_directory(tmp_path):
    started = site_settings(tmp_path, DJANGO_CACHE_DIR=str(tmp_path / "mem"))
    assert started.returncode == 0, started.stderr
    where = json.loads(started.stdout)
    assert where["shared"] == str(tmp_path / "mem" / "shared-cache")
    assert where["rendered"] == str(tmp_path / "mem" / "rendered-cache")
    assert where["db"] == str(tmp_path / "var" / "db.sqlite3")


def test_a_server_told_to_keep_its_caches_where_others_write_doesnt_start(tmp_path):
    shared = tmp_path / "shm"
    shared.mkdir()
    shared.chmod(0o1777)
    started = site_settings(tmp_path, DJANGO_CACHE_DIR=str(shared))
    assert started.returncode != 0
    assert "DJANGO_CACHE_DIR is" in started.stderr
    assert "a directory others may write in (mode 1777)" in started.stderr
