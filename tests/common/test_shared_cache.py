"""The cache every server shares (REDIS_URL): the settings it brings, and keys that keep two sites
(or a site and its tests) apart in one Redis. tests/test_two_servers.py has the servers."""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
import time
from pathlib import Path
from unittest import mock

import pytest
from django.core.cache import cache
from django.core.cache.backends.filebased import FileBasedCache
from django.db import connection

from common.shared_cache import (
    DatabaseScopedRedisCache,
    MachineFileCache,
    WatchedKeys,
    database_namespace,
)
from tests.fresh_settings import settings_in_fresh_process


def site_settings(tmp_path: Path, **environ: str) -> subprocess.CompletedProcess:
    """Load the site's settings in a fresh process with `environ`; print what the cache needs."""
    script = (
        "from django.conf import settings;"
        "print(settings.CACHES['default']['BACKEND']);"
        "print(settings.CACHES['shared']['BACKEND']);"
        "print(settings.CACHES['rendered']['BACKEND']);"
        "print(settings.CACHES['rendered'] != settings.CACHES['shared']);"
        "print(settings.SESSION_ENGINE);"
        "print(settings.CACHED_USER_SECONDS)"
    )
    return settings_in_fresh_process(script, tmp_path, **environ)


def test_without_redis_the_machine_s_files_hold_pages_sessions_and_accounts(tmp_path):
    found = site_settings(tmp_path)
    assert found.returncode == 0, found.stderr
    assert found.stdout.split() == [
        "django.core.cache.backends.locmem.LocMemCache",
        "common.shared_cache.MachineFileCache",
        "common.shared_cache.MachineFileCache",
        "True",  # the rendered pages culled apart from sessions, passes and versions
        "django.contrib.sessions.backends.cached_db",
        "300",
    ]


def test_with_redis_the_cache_sessions_and_accounts_are_shared(tmp_path):
    found = site_settings(tmp_path, REDIS_URL="redis://127.0.0.1:6379/0")
    assert found.returncode == 0, found.stderr
    assert found.stdout.split() == [
        "common.shared_cache.DatabaseScopedRedisCache",
        "common.shared_cache.DatabaseScopedRedisCache",
        "common.shared_cache.DatabaseScopedRedisCache",
        "False",  # one Redis
        "django.contrib.sessions.backends.cached_db",
        "300",
    ]


def test_a_redis_url_that_is_no_address_is_refused_with_an_example(tmp_path):
    found = site_settings(tmp_path, REDIS_URL="127.0.0.1:6379")
    assert found.returncode != 0
    assert "REDIS_URL is '127.0.0.1:6379'" in found.stderr
    assert "redis://127.0.0.1:6379/0" in found.stderr


def test_the_namespace_names_engine_host_port_and_database():
    site = {"ENGINE": "postgresql", "HOST": "db", "PORT": "5432", "NAME": "bigtwo"}
    others = [
        {**site, "ENGINE": "sqlite3"},
        {**site, "HOST": "db2"},
        {**site, "PORT": "5433"},
        {**site, "NAME": "test_bigtwo"},
    ]
    names = {database_namespace(site), *(database_namespace(other) for other in others)}
    assert len(names) == 5
    assert database_namespace({**site, "PORT": 5432}) == database_namespace(site)


@pytest.mark.redis
def test_keys_follow_the_database_in_use_not_the_one_the_site_started_with(db):
    """pytest-django switched to the test database after the cache was configured."""
    cache.set("board", "rendered")
    key = cache.make_key("board")
    assert key.startswith(database_namespace(connection.settings_dict) + ":")
    with mock.patch.dict(connection.settings_dict, NAME="bigtwo"):
        assert not cache.make_key("board").startswith(key.split(":")[0])


@pytest.mark.redis
def test_two_sites_on_one_redis_never_read_nor_clear_each_others_entries(db):
    def as_the_other_site():
        return mock.patch.dict(connection.settings_dict, NAME="another_site")

    cache.set("board", "ours")
    with as_the_other_site():
        assert cache.get("board") is None
        cache.set("board", "theirs")
    assert cache.get("board") == "ours"

    cache.clear()

    assert cache.get("board") is None
    with as_the_other_site():
        assert cache.get("board") == "theirs"
        cache.delete("board")


@pytest.mark.redis
def test_a_key_prefix_with_wildcards_clears_only_its_own_keys(db, settings):
    """Redis reads `*`, `?` and `[…]` in a pattern as wildcards: a KEY_PREFIX holding them is
    cleared literally, never as a pattern that matches another prefix's keys too."""
    run = cache.key_prefix  # this run's own, so that no other run's keys are near
    starred = DatabaseScopedRedisCache(settings.REDIS_URL, {"KEY_PREFIX": f"{run}-*"})
    other = DatabaseScopedRedisCache(settings.REDIS_URL, {"KEY_PREFIX": f"{run}-2"})
    starred.set("board", "starred")
    other.set("board", "other")

    starred.clear()

    assert starred.get("board") is None
    assert other.get("board") == "other"
    other.clear()


@pytest.mark.redis
def test_one_redis_client_serves_every_call_and_thread(db):
    """Django's makes one per call, which cost more than the call (issue 16)."""
    from concurrent.futures import ThreadPoolExecutor

    first = cache._cache.get_client(write=True)
    assert cache._cache.get_client(write=False) is first
    with ThreadPoolExecutor(8) as threads:
        list(threads.map(lambda n: cache.set(f"n{n}", n), range(40)))
        assert list(threads.map(lambda n: cache.get(f"n{n}"), range(40))) == list(range(40))
    assert cache._cache.get_client(write=True) is first


def test_the_machines_cache_counts_its_files_only_now_and_then_and_still_culls(tmp_path):
    """Django's file cache lists its whole directory on every write; this one every 500th
    write of a process, and still keeps itself near its size."""
    machine = MachineFileCache(str(tmp_path), {"OPTIONS": {"MAX_ENTRIES": 100}})
    with (
        mock.patch.object(MachineFileCache, "IN_BACKGROUND", False),
        mock.patch.object(
            MachineFileCache, "_list_cache_files", autospec=True, side_effect=lambda self: []
        ) as listed,
    ):
        for number in range(1000):
            machine.set(f"key-{number}", number)
    assert listed.call_count == 2  # the first write, then the 501st

    culled = MachineFileCache(str(tmp_path / "culled"), {"OPTIONS": {"MAX_ENTRIES": 100}})
    with (
        mock.patch.object(MachineFileCache, "IN_BACKGROUND", False),
        mock.patch.object(MachineFileCache, "CHECK_EVERY", 10),
    ):
        for number in range(1000):
            culled.set(f"key-{number}", number)
    assert len(list((tmp_path / "culled").iterdir())) <= 100 + 10
    assert culled.get("key-999") == 999


def test_a_full_machines_cache_drops_the_entries_written_longest_ago(tmp_path):
    machine = MachineFileCache(str(tmp_path), {"OPTIONS": {"MAX_ENTRIES": 9}})
    machine.IN_BACKGROUND = False
    for number in range(9):
        machine.set(f"key-{number}", number)
        written = 1_700_000_000_000_000_000 + number * 1_000_000_000
        os.utime(machine._key_to_file(f"key-{number}"), ns=(written, written))
    with mock.patch.object(MachineFileCache, "CHECK_EVERY", 9):
        machine.set("key-9", 9)  # the tenth write checks the size: nine, full
    kept = [number for number in range(10) if machine.get(f"key-{number}") is not None]
    assert kept == [3, 4, 5, 6, 7, 8, 9]  # a third of the nine, the oldest


def test_the_machines_cache_checks_its_room_in_a_thread_while_the_write_goes_on(tmp_path):
    """The write that is due to check the room only starts the check; one check at a time."""
    machine = MachineFileCache(str(tmp_path), {"OPTIONS": {"MAX_ENTRIES": 3}})
    listing, go_on = threading.Event(), threading.Event()
    listings = []
    list_files = MachineFileCache._list_cache_files

    def slow_listing(cache):
        listings.append(threading.current_thread().name)
        listing.set()
        assert go_on.wait(10)
        return list_files(cache)

    with (
        mock.patch.object(MachineFileCache, "_list_cache_files", slow_listing),
        mock.patch.object(MachineFileCache, "CHECK_EVERY", 4),
    ):
        machine.set("key-0", 0)  # the first write checks: the check waits
        assert listing.wait(10)
        assert machine.get("key-0") == 0  # the write is done all the same
        for number in range(1, 6):
            machine.set(f"key-{number}", number)  # the fifth is due to check: one is under way
        go_on.set()
        MachineFileCache.room_checked(str(tmp_path))
    assert listings == ["cache-room"]
    kept = [number for number in range(6) if machine.get(f"key-{number}") is not None]
    assert len(kept) == 4  # six entries, full at three: a third of them dropped


def test_the_machines_cache_writes_what_django_s_file_cache_reads(tmp_path):
    """Its entries are Django's format (the expiry, then the value compressed), so a copy
    written by either is read by the other; the temporary file of each write is gone."""
    machine = MachineFileCache(str(tmp_path), {})
    django_s = FileBasedCache(str(tmp_path), {})
    page = ("<p>" + "Ann 12, Ben 7 " * 2000 + "</p>", {"csrf": "ab12"})
    machine.set("page", page, 60)
    assert django_s.get("page") == page
    django_s.set("version", 14)
    assert machine.get("version") == 14
    machine.set("version", 15)  # over an entry already there
    assert django_s.get("version") == 15
    machine.set("gone", "soon", 60)
    with mock.patch("time.time", return_value=time.time() + 61):
        assert machine.get("gone") is None  # expired, as Django's cache says
    assert sorted(path.suffix for path in tmp_path.iterdir()) == [".djcache"] * 2


def test_the_machines_cache_makes_its_directory_again_and_leaves_no_half_written_entry(
    tmp_path,
):
    machine = MachineFileCache(str(tmp_path / "shared"), {})
    machine.set("version", 14)
    shutil.rmtree(tmp_path / "shared")  # Django's file cache allows its directory to go
    machine.set("version", 15)
    assert machine.get("version") == 15

    class Unpicklable:
        def __reduce__(self):
            raise RuntimeError("can't be kept")

    with pytest.raises(RuntimeError):
        machine.set("version", Unpicklable())
    assert machine.get("version") == 15  # the entry as it was, and no temporary file left
    assert [path.suffix for path in (tmp_path / "shared").iterdir()] == [".djcache"]


def versions(*games: int) -> list[str]:
    return [f"game-version:{game}" for game in games]


def test_a_watched_entry_is_read_again_only_once_it_is_written(tmp_path):
    """The streams' watcher asks twice a second for the versions of every game followed: from
    the machine's files, an entry not written since the last read is only looked at; one
    written (with a value of the same size), one deleted and one new are each seen."""
    machine = MachineFileCache(str(tmp_path), {})
    for key in versions(1, 2, 3, 4):
        machine.set(key, 10)
    watched = WatchedKeys()
    assert watched.read(machine, versions(1, 2, 3, 4, 5)) == dict.fromkeys(versions(1, 2, 3, 4), 10)
    read_from_file = MachineFileCache.get
    with mock.patch.object(
        MachineFileCache, "get", autospec=True, side_effect=read_from_file
    ) as reads:
        assert watched.read(machine, versions(1, 2, 3, 4, 5)) == dict.fromkeys(
            versions(1, 2, 3, 4), 10
        )
        assert reads.call_count == 0
        machine.set("game-version:2", 11)
        machine.delete("game-version:3")
        machine.set("game-version:5", 1)
        assert watched.read(machine, versions(1, 2, 3, 4, 5)) == {
            "game-version:1": 10,
            "game-version:2": 11,
            "game-version:4": 10,
            "game-version:5": 1,
        }
        assert sorted(call.args[1] for call in reads.call_args_list) == versions(2, 5)


def test_every_tenth_watched_read_reads_every_entry(tmp_path):
    """An entry kept between full reads keeps its value; the full read finds it expired and
    drops it, as Django's cache does on any read."""
    machine = MachineFileCache(str(tmp_path), {})
    machine.set("game-version:1", 10, 60)
    watched = WatchedKeys()
    assert watched.read(machine, versions(1)) == {"game-version:1": 10}
    with mock.patch("time.time", return_value=time.time() + 61):
        for _ in range(WatchedKeys.FULL_EVERY - 1):
            assert watched.read(machine, versions(1)) == {"game-version:1": 10}
        assert watched.read(machine, versions(1)) == {}


def test_watched_keys_come_from_redis_in_one_read(db):
    """From any cache but the machine's files, the keys are asked for at once (Redis: one
    MGET), each time."""
    other = mock.Mock(spec=["get_many"])
    other.get_many.return_value = {"game-version:1": 3}
    watched = WatchedKeys()
    for _ in range(2):
        assert watched.read(other, versions(1, 2)) == {"game-version:1": 3}
    assert other.get_many.call_args_list == [mock.call(versions(1, 2))] * 2
