"""How long a server thread keeps its database connection: a WSGI server's threads (the pages'
unit) keep theirs between requests; anything else opens one per request, or on PostgreSQL takes
one from the pool."""

import json

from tests.fresh_settings import settings_in_fresh_process
from tools.server_layout import PAGES_UNIT, unit_commands

READ = (
    "import json; from django.conf import settings; d = settings.DATABASES['default'];"
    " print(json.dumps([d['CONN_MAX_AGE'], 'pool' in d.get('OPTIONS', {})]))"
)


def test_a_connection_is_opened_per_request_unless_told(tmp_path):
    read = settings_in_fresh_process(READ, tmp_path)
    assert json.loads(read.stdout) == [0, False]


def test_the_pages_threads_keep_their_connection(tmp_path):
    (gunicorn,) = unit_commands(PAGES_UNIT.read_text(encoding="utf-8"))
    given = gunicorn[gunicorn.index("--env") + 1]
    name, seconds = given.split("=")
    read = settings_in_fresh_process(READ, tmp_path, **{name: seconds})
    assert json.loads(read.stdout) == [int(seconds), False]
    assert int(seconds) >= 30


def test_on_postgresql_kept_connections_take_the_pools_place(tmp_path):
    postgres = {"DATABASE_URL": "postgres://someone@127.0.0.1:1/nothing"}
    pooled = settings_in_fresh_process(READ, tmp_path, **postgres)
    assert json.loads(pooled.stdout) == [0, True]
    kept = settings_in_fresh_process(READ, tmp_path, DJANGO_DB_CONN_MAX_AGE="60", **postgres)
    assert json.loads(kept.stdout) == [60, False]


def test_a_time_that_is_no_number_of_seconds_says_how_to_fix_it(tmp_path):
    read = settings_in_fresh_process(READ, tmp_path, DJANGO_DB_CONN_MAX_AGE="-1")
    assert read.returncode != 0
    assert "DJANGO_DB_CONN_MAX_AGE is '-1'; set it to a whole number of at least 0." in read.stderr
