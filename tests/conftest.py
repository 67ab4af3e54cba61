import os
import secrets

import pytest
from django.test import override_settings
from hypothesis import settings

from tests.browser.phone import BROWSER_MISSING, CHROMIUM

# No test is timed (speed is measured by the benchmark scripts): a property test that runs slowly
# on a busy machine is slow, not wrong, so Hypothesis's per-example deadline is off everywhere.
settings.register_profile("untimed", deadline=None)
settings.load_profile("untimed")


@pytest.fixture(autouse=True, scope="session")
def plain_static_storage():
    """Serve static files unhashed in tests: the manifest exists only after collectstatic."""
    storages = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    with override_settings(STORAGES=storages):
        yield


@pytest.fixture(autouse=True, scope="session")
def fast_passwords():
    """Hash passwords with MD5 in tests: the real hasher costs a quarter of a second a user, and
    the suite makes hundreds. Nothing here measures logging in: the load test does, in a
    server of its own with the site's real hasher (tools/loadtest)."""
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(autouse=True, scope="session")
def own_cache_keys(tmp_path_factory):
    """With REDIS_URL, this run's keys under a prefix of its own, beside the test database's
    name that every key starts with (common/shared_cache.py): two runs at once on SQLite, whose
    test database has the same name in every run, still never clear each other's entries.
    Without it, the `shared` and `rendered` caches (files) each in a folder of this run's own."""
    from django.conf import settings

    if not settings.REDIS_URL:
        own = {
            alias: {**settings.CACHES[alias], "LOCATION": str(tmp_path_factory.mktemp(alias))}
            for alias in ("shared", "rendered")
        }
        with override_settings(CACHES={**settings.CACHES, **own}):
            yield
        return
    run = f"test-run-{secrets.token_hex(4)}"
    caches = {alias: {**config, "KEY_PREFIX": run} for alias, config in settings.CACHES.items()}
    with override_settings(CACHES=caches):
        yield


@pytest.fixture(autouse=True)
def empty_cache():
    """Each test starts with nothing cached, in any cache: ids and versions repeat from test to
    test. With REDIS_URL this deletes only this run's keys."""
    from django.core.cache import caches

    for cache in caches.all(initialized_only=False):
        cache.clear()
    yield
    for cache in caches.all(initialized_only=False):
        cache.clear()


def pytest_collection_modifyitems(config, items):
    if not os.environ.get("REDIS_URL"):
        skip_redis = pytest.mark.skip(reason="needs a shared cache: set REDIS_URL")
        for item in items:
            if item.get_closest_marker("redis"):
                item.add_marker(skip_redis)
    if not BROWSER_MISSING:
        return
    if os.environ.get("REQUIRE_BROWSER") == "1":
        return  # the browser fixture fails each test instead of skipping it
    skip = pytest.mark.skip(reason=f"Chromium not found at {CHROMIUM}")
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)


def pytest_terminal_summary(terminalreporter):
    if BROWSER_MISSING and os.environ.get("REQUIRE_BROWSER") != "1":
        terminalreporter.write_sep("!", "BROWSER TESTS SKIPPED", red=True, bold=True)
        terminalreporter.write_line(
            f"Chromium was not found at {CHROMIUM}, so no page was tried in a browser. "
            "Install it (apt-get install chromium) or set CHROMIUM=/path/to/chromium; "
            "REQUIRE_BROWSER=1 turns this into a failure.",
            red=True,
        )
