import asyncio
import os
import secrets

import pytest
from django.test import override_settings
from hypothesis import settings

from tests.browser.phone import BROWSER_MISSING, CHROMIUM
from tests.caches import cache_emptied, refused_flush
from tests.factories import make_club, make_user
from tests.live_support import own_channel_layer
from tests.servers import fail_unless_static_collected

# No test is timed (speed is measured by the benchmark scripts): a property test that runs slowly
# on a busy machine is slow, not wrong, so Hypothesis's per-example deadline is off everywhere.
settings.register_profile("untimed", deadline=None)
settings.load_profile("untimed")


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, tmp_path_factory):
    """The test database is made from the models, not by running every migration (a second
    against a quarter of a minute on a busy machine, in each test process of each pass): the
    migrations are held to the models by tests/test_migrations.py, run from nothing by
    `make setup` (on SQLite, and on PostgreSQL in CI) and by the servers the tests start on a
    fresh directory, and run back and forth by the migrations' own tests
    (tests/scoring/test_shared_win_migration.py). Unlike pytest-django's --no-migrations,
    Django's TEST["MIGRATE"] leaves the migrations readable once the database is made.

    On SQLite, the test database is a WAL-mode file, as the server runs it. Django's in-memory
    one is shared-cache, which locks whole tables: a page a live server's thread reads while
    another request writes would fail at once ("database table is locked") where the site waits
    its turn. (Under xdist each process has a temporary directory of its own.)"""
    from django.conf import settings

    database = settings.DATABASES["default"]
    test_database = database.setdefault("TEST", {})
    test_database["MIGRATE"] = False
    if database["ENGINE"] == "django.db.backends.sqlite3":
        test_database["NAME"] = str(tmp_path_factory.getbasetemp() / "test.sqlite3")


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
def static_files_looked_up_on_asking():
    """WhiteNoise looks a static file up when it is asked for, not by reading the whole static
    tree (a thousand files, 75 ms) each time a middleware chain is built: the suite builds one
    for every test client, hundreds of times. tests/bigtwo_site/test_static_files.py serves them
    as a server does."""
    with override_settings(WHITENOISE_AUTOREFRESH=True):
        yield


@pytest.fixture(autouse=True, scope="session")
def fast_passwords():
    """Hash passwords with MD5 in tests: the real hasher costs a quarter of a second a user, and
    the suite makes hundreds. Nothing here measures logging in: the load test does, in a
    server of its own with the site's real hasher (tools/loadtest)."""
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(autouse=True, scope="session")
def own_channels():
    """With REDIS_URL, this test process's channel layer under a prefix of its own: test
    databases in parallel processes repeat each other's ids, and so the names of their games'
    groups."""
    from django.conf import settings

    layers = settings.CHANNEL_LAYERS
    if "CONFIG" not in layers["default"]:
        yield
        return
    config = {**layers["default"]["CONFIG"], "prefix": f"test-{secrets.token_hex(4)}"}
    with override_settings(CHANNEL_LAYERS={"default": {**layers["default"], "CONFIG": config}}):
        yield


@pytest.fixture(autouse=True, scope="session")
def no_flush_of_the_shared_redis():
    """`cache.clear()` on Redis fails the test instead of emptying the database the other test
    processes share (tests/caches.py says why)."""
    from django.core.cache.backends.redis import RedisCache

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(RedisCache, "clear", refused_flush)
        yield


@pytest.fixture(autouse=True)
def empty_cache():
    """Each test starts with nothing cached: its keys under a prefix of its own, as ids and
    versions repeat from test to test (and from one test process to another on one Redis)."""
    with cache_emptied():
        yield


@pytest.fixture(autouse=True)
def english_to_start():
    """Each test starts in English: a page asked for in Chinese leaves Django's language active
    in the thread that served it (LocaleMiddleware activates it and nothing deactivates it)."""
    from django.utils import translation

    with translation.override("en"):
        yield


@pytest.fixture(autouse=True)
def own_var_dir(tmp_path_factory):
    """Each test keeps what the site writes at run time (score files waiting for "Import") in
    a directory of its own, mode 700 as the site's: never in the worktree's var/."""
    var_dir = tmp_path_factory.mktemp("var")
    var_dir.chmod(0o700)
    with override_settings(VAR_DIR=var_dir):
        yield var_dir


@pytest.fixture(scope="session")
def static_collected():
    """For a test whose pages the site's application serves in the test's process (the WebKit
    suite, the Chromium tests of the games' streams): its scripts are the ones collected."""
    fail_unless_static_collected()


@pytest.fixture
def loop():
    """An event loop the test steps through, for the games' streams (tests/live_support.py)."""
    running = asyncio.new_event_loop()
    with own_channel_layer():
        yield running
        left_open = asyncio.all_tasks(running)  # streams left open
        for task in left_open:
            task.cancel()

        async def cleaned_up() -> None:  # each one's channel left, its place given back
            await asyncio.wait_for(asyncio.gather(*left_open, return_exceptions=True), 10)

        running.run_until_complete(cleaned_up())
    running.close()


# A club, for the apps' tests (scoring, accounts): its owner, the club, a client logged in as
# the owner.


@pytest.fixture
def owner(db):
    return make_user("owner")


@pytest.fixture
def club(owner):
    return make_club(owner)


@pytest.fixture
def owner_client(client, owner):
    client.force_login(owner)
    return client


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """Whether the test itself failed (`item.call_failed`), for the browser suites' fixtures:
    after a failure they print the page rather than fail again on what it logged."""
    report = yield
    if report.when == "call":
        item.call_failed = report.failed
    return report


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
            "Install it (apt-get install chromium-headless-shell, or chromium) or set "
            "CHROMIUM=/path/to/chromium; "
            "REQUIRE_BROWSER=1 turns this into a failure.",
            red=True,
        )
