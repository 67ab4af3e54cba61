"""Rows every test of a module reads, made once for the module rather than once a test, as
Django's `TestCase.setUpTestData` makes them once for a class.

They are made in a transaction the module holds open until its last test has run, and then
rolled back: no other module ever sees them. Each test runs in a savepoint of it (pytest-django's
`db`), so whatever a test writes is undone before the next test begins, and every test starts
from the same rows. A module using it keeps to tests that run in a transaction (`django_db`, not
`transaction=True`): a test that commits would commit the module's rows with it.

    @pytest.fixture(scope="module")
    def site(django_db_setup, django_db_blocker):
        with made_once(django_db_blocker):
            yield build_the_site()
"""

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import transaction


@contextmanager
def made_once(django_db_blocker) -> Iterator[None]:
    with django_db_blocker.unblock(), transaction.atomic():
        yield
        transaction.set_rollback(True)
