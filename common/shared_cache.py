"""The cache every server shares (settings: REDIS_URL), its keys under the database they serve.

Several sites, a test run and the load test's throwaway database can all use one Redis: each
key starts with a digest of the database the process is using (engine, host, port, name), so
they never read, nor clear, each other's entries. The digest is taken from the live connection
on each key rather than from settings at start-up, so it follows pytest-django's switch to the
test database (`test_…`) and the load test's `loadtest_<pid>`.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import pickle
import re
import threading
import zlib
from collections.abc import Mapping
from functools import lru_cache
from typing import ClassVar

from django.conf import settings
from django.core.cache.backends.base import DEFAULT_TIMEOUT, BaseCache
from django.core.cache.backends.filebased import FileBasedCache
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.db import connections

logger = logging.getLogger(__name__)

# Deleted this many keys at a time by `clear`.
CLEAR_BATCH = 500


@lru_cache(maxsize=16)
def _digest(engine: str, host: str, port: str, name: str) -> str:
    text = "\x1f".join((engine, host, port, name))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def database_namespace(settings_dict: Mapping[str, object]) -> str:
    """A short name for one database: the same for every server of a site, different for two
    sites, or for a site and its test run.

    >>> one = {"ENGINE": "postgresql", "HOST": "db", "PORT": 5432, "NAME": "bigtwo"}
    >>> database_namespace(one) == database_namespace(dict(one))
    True
    >>> database_namespace(one) == database_namespace({**one, "NAME": "test_bigtwo"})
    False
    """
    parts = (settings_dict.get(field) or "" for field in ("ENGINE", "HOST", "PORT", "NAME"))
    return "db-" + _digest(*(str(part) for part in parts))


def database_scoped_key(key: str, key_prefix: str, version: int) -> str:
    """KEY_FUNCTION of a cache of files several sites may share: the key under the database."""
    namespace = database_namespace(connections["default"].settings_dict)
    return f"{namespace}:{key_prefix}:{version}:{key}"


def one_store(*aliases: str) -> bool:
    """The caches named keep their entries in one place (one Redis, settings: REDIS_URL), so a
    `get_many` of one reads the others' keys too, in one round trip."""
    first, *others = (settings.CACHES[alias] for alias in aliases)
    return all(other == first for other in others)


class ReusedRedisClient(RedisCacheClient):
    """Django's client with one redis-py client per connection pool, made once. Django's makes a
    new one for every cache call, and making one (its table of some 170 reply handlers) costs
    more than a call to a Redis on the same machine: five calls a page were a millisecond. A
    redis-py client is safe to share between threads: each command takes a connection from the
    pool."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, object] = {}

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            if index not in self._pools:
                self._pools[index] = self._pool_class.from_url(
                    self._servers[index], **self._pool_options
                )
            # Two threads may both make one: the last one kept, either works.
            client = self._clients[index] = self._client(connection_pool=self._pools[index])
        return client


class DatabaseScopedRedisCache(RedisCache):
    """Django's Redis cache with every key under the namespace of the database in use, and a
    `clear()` that deletes only those keys (Django's own empties the whole Redis database, every
    other site's entries with it).

    Keys are `<namespace>:<KEY_PREFIX>:<version>:<key>`; KEY_FUNCTION is not consulted, since
    `clear` must know the layout.
    """

    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._class = ReusedRedisClient

    def namespace(self) -> str:
        return f"{database_namespace(connections['default'].settings_dict)}:{self.key_prefix}"

    def make_key(self, key: str, version: int | None = None) -> str:
        return f"{self.namespace()}:{self.version if version is None else version}:{key}"

    def clear(self) -> bool:
        client = self._cache.get_client(None, write=True)
        pattern = _glob_escape(self.namespace()) + ":*"
        batch: list[bytes] = []
        for key in client.scan_iter(match=pattern, count=CLEAR_BATCH):
            batch.append(key)
            if len(batch) == CLEAR_BATCH:
                client.unlink(*batch)
                batch = []
        if batch:
            client.unlink(*batch)
        return True


def _glob_escape(text: str) -> str:
    """`text` matched literally by Redis's glob patterns (SCAN MATCH)."""
    return re.sub(r"([\\*?\[\]^-])", r"\\\1", text)


class MachineFileCache(FileBasedCache):
    """Django's file cache, the `shared` and `rendered` caches of a site on one machine (no
    REDIS_URL), with its size checked every `CHECK_EVERY` writes of a process rather than on
    each one, and in a thread of its own, the oldest entries culled rather than random ones,
    and a write that costs a file and a rename, not more.

    FileBasedCache lists its whole directory on every `set` to learn whether it is full. On a
    league night that directory holds a file per phone's session, per game's version and per
    pass series, thousands of them, and those listings were a quarter of the CPU of recording
    a deal (issue 16). Checked every 500th write, the cache can pass MAX_ENTRIES by at most 500
    entries a thread before it culls, against a MAX_ENTRIES of 100,000 (`rendered`).

    Even every 500th write, a check held up the request that made it: listing 100,000 entries
    took about 0.2 s, and a cull of a third of them (a `stat` each, then 33,000 deletions)
    about 1 s, every few minutes at 1,200 tables. So the write only starts the check, in a
    thread (`IN_BACKGROUND`), one at a time for each directory in a process; a write that
    comes while one is under way skips its own.

    Each of its writes also made sure of the directory, drew a random temporary name
    (`tempfile.mkstemp`), compared the two files' identities before renaming (`file_move_safe`)
    and compressed at zlib's default level: a recorded deal writes five entries, and a
    profile at 518 tables found those writes a sixth of recording's time. Here a writer's
    temporary file is named after its process and thread (no two writers share one), renamed
    over the entry with `os.replace` (atomic: a reader sees the old entry or the new one), the
    directory made again only if it is gone, and the value compressed at level 1, which Django's
    `get` reads like any other.
    """

    CHECK_EVERY = 500
    COMPRESSION = 1
    IN_BACKGROUND = True

    # The room check under way in this process for each directory (Django makes a cache per
    # thread, so the instances of one directory share these).
    _checks: ClassVar[dict[str, threading.Thread]] = {}
    _checks_lock = threading.Lock()

    def __init__(self, dir: str, params: dict[str, object]) -> None:
        super().__init__(dir, params)
        self._writes = 0

    def _cull(self) -> None:
        """Every `CHECK_EVERY`th write of this instance checks the room (`make_room`)."""
        self._writes += 1
        if (self._writes - 1) % self.CHECK_EVERY:  # the first write of a process checks too
            return
        if not self.IN_BACKGROUND:
            self.make_room()
            return
        with self._checks_lock:
            under_way = self._checks.get(self._dir)
            if under_way is not None and under_way.is_alive():
                return
            check = threading.Thread(target=self._check_room, name="cache-room", daemon=True)
            self._checks[self._dir] = check
            check.start()

    def _check_room(self) -> None:
        try:
            self.make_room()
        except OSError:
            # The directory itself unreadable: the next check tries again, and the writes
            # (which say so themselves) go on.
            logger.exception("checking the room of the cache in %s", self._dir)

    @classmethod
    def room_checked(cls, dir: str) -> None:
        """Wait for the room check under way for `dir`, if any (for tests and tools)."""
        with cls._checks_lock:
            check = cls._checks.get(os.path.abspath(dir))
        if check is not None:
            check.join()

    def make_room(self) -> None:
        """When full, the entries written longest ago go, a `CULL_FREQUENCY`th of them (a third
        by default): Django's file cache drops them at random, the newest board as likely as one
        of a version long gone."""
        entries = self._list_cache_files()
        if len(entries) < self._max_entries:
            return
        if self._cull_frequency == 0:
            self.clear()
            return
        written: list[tuple[int, str]] = []
        for entry in entries:
            with contextlib.suppress(FileNotFoundError):  # another process culled it
                written.append((os.stat(entry).st_mtime_ns, entry))
        written.sort()
        for _, entry in written[: len(entries) // self._cull_frequency]:
            self._delete(entry)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None) -> None:
        entry = self._key_to_file(key, version)
        self._cull()
        # Not ending in the cache's suffix: never read, listed or culled as an entry.
        temporary = f"{entry}.{os.getpid()}-{threading.get_ident()}.tmp"
        try:
            file = open(temporary, "wb")  # noqa: SIM115 (closed below, before the rename)
        except FileNotFoundError:  # the directory was deleted: Django's cache allows it
            self._createdir()
            file = open(temporary, "wb")  # noqa: SIM115
        try:
            with file:
                self._write_content(file, timeout, value)
            os.replace(temporary, entry)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.remove(temporary)
            raise

    def _write_content(self, file, timeout, value) -> None:
        file.write(pickle.dumps(self.get_backend_timeout(timeout), self.pickle_protocol))
        value = pickle.dumps(value, self.pickle_protocol)
        file.write(zlib.compress(value, self.COMPRESSION))


_MISSING = object()


class WatchedKeys:
    """The values of a set of keys that one reader asks for again and again: the streams'
    watcher, twice a second, every followed game's version (scoring/live_changes.py).

    From Redis they come in one MGET. From the machine's files, reading every entry cost about
    20 µs a key: at 621 followed games, 13 ms a read, a fortieth of the core at two reads a
    second. But each write to an entry is a new file renamed over it (`MachineFileCache.set`),
    so an entry whose file is still the one read last time (the same inode, size and change
    times) still holds the same value: it is looked at (`stat`), not read again.

    One write between two reads always shows: its file was made while the old one was still
    there, so it has another inode. Two writes could, in theory, leave the identity read last
    time, if the second file were given the first's freed inode with the same size, all three
    written in one tick of the file system's clock (a few ms). So every `FULL_EVERY`th read
    reads each entry again. Between two full reads an entry that has expired keeps its value
    here; the full read drops it, as Django's `get` does.
    """

    FULL_EVERY = 10

    def __init__(self) -> None:
        self._reads = 0
        self._files = ("", "")  # the cache's directory and the database its keys are under
        self._paths: dict[str, str] = {}
        self._seen: dict[str, tuple[tuple[int, int, int, int], object]] = {}

    def read(self, cache: BaseCache, keys: list[str]) -> dict[str, object]:
        """The value of each of `keys` that is in `cache`."""
        if not isinstance(cache, MachineFileCache):
            return cache.get_many(keys)
        self._reads += 1
        full = self._reads % self.FULL_EVERY == 1
        files = (cache._dir, database_namespace(connections["default"].settings_dict))
        if files != self._files:  # another cache or database (tests): other files
            self._files, self._paths, self._seen = files, {}, {}
        found: dict[str, object] = {}
        seen: dict[str, tuple[tuple[int, int, int, int], object]] = {}
        for key in keys:
            path = self._paths.get(key)
            if path is None:
                path = self._paths[key] = cache._key_to_file(key)
            try:
                stat = os.stat(path)
            except FileNotFoundError:
                continue
            identity = (stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns)
            kept = self._seen.get(key)
            if not full and kept is not None and kept[0] == identity:
                value = kept[1]
            else:
                # Written after the stat: read now, and read again next time (another identity).
                value = cache.get(key, _MISSING)
                if value is _MISSING:
                    continue
            seen[key] = (identity, value)
            found[key] = value
        self._seen = seen
        if len(self._paths) > 4 * len(keys) + 1000:  # keys no longer asked for
            self._paths = {key: self._paths[key] for key in keys if key in self._paths}
        return found
