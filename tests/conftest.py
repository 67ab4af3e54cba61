import os

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


@pytest.fixture(autouse=True)
def empty_cache():
    """Each test starts with nothing cached: ids and versions repeat from test to test."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


def pytest_collection_modifyitems(config, items):
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
