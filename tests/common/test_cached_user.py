"""The signed-in account read from the cache (common/cached_user.py): no query for it once it is
cached, and never a copy older than the account's last save.

In the cache every worker shares (Redis with REDIS_URL, else files on the machine), so these
hold with and without Redis (tests/test_two_servers.py has two servers
sharing one Redis).
"""

from __future__ import annotations

import pytest
from django.contrib.auth import HASH_SESSION_KEY, get_user_model
from django.core.cache import caches
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from common.cached_user import CachedUserBackend
from tests.factories import PASSWORD, make_user

CLUBS = "/clubs/"
ACCOUNT_BY_ID = 'FROM "auth_user" WHERE "auth_user"."id" = '


@pytest.fixture(autouse=True)
def caching_accounts(settings):
    settings.CACHED_USER_SECONDS = 300


@pytest.fixture
def user(db):
    return make_user()


@pytest.fixture
def phone(user) -> Client:
    phone = Client()
    response = phone.post("/accounts/login/", {"username": user.username, "password": PASSWORD})
    assert response.status_code == 302
    return phone


def signed_in(phone: Client) -> bool:
    response = phone.get(CLUBS)
    assert response.status_code in (200, 302)
    return response.status_code == 200


def account_reads(phone: Client) -> list[str]:
    """The queries of one signed-in request that read the account by its id."""
    with CaptureQueriesContext(connection) as queries:
        assert signed_in(phone)
    return [query["sql"] for query in queries if ACCOUNT_BY_ID in query["sql"]]


def test_a_signed_in_request_reads_the_account_once_then_from_the_cache(phone):
    assert len(account_reads(phone)) == 1
    assert account_reads(phone) == []
    assert account_reads(phone) == []


def test_without_a_shared_cache_every_request_reads_the_account(phone, settings):
    settings.CACHED_USER_SECONDS = 0
    assert len(account_reads(phone)) == 1
    assert len(account_reads(phone)) == 1


@pytest.mark.parametrize("change", ["password", "deactivated", "deleted"])
def test_a_change_to_a_cached_account_ends_its_sessions_on_the_next_request(phone, user, change):
    assert signed_in(phone)  # the account is cached now
    user = get_user_model().objects.get(pk=user.pk)
    if change == "password":
        user.set_password("another long passphrase 8")
        user.save()
    elif change == "deactivated":
        user.is_active = False
        user.save()
    else:
        user.delete()
    assert not signed_in(phone)


def test_a_new_password_keeps_the_session_that_changed_it(phone, user):
    """Django's update_session_auth_hash, as a "Change password" page calls it: the account
    read back is the new one, so the session that changed it stays signed in."""
    assert phone.get(CLUBS).status_code == 200
    user.set_password("another long passphrase 8")
    user.save()
    session = phone.session
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    assert signed_in(phone)


def test_a_copy_written_after_the_account_changed_is_never_used(user):
    """A reader that fetched the account just before a save and cached it just after: its copy
    carries the token of before the save, so the next reader goes to the database."""
    backend = CachedUserBackend()
    before = backend.get_user(user.pk)
    stale_copy = caches["shared"].get(f"account:{user.pk}")
    assert stale_copy[1].password == before.password

    user.set_password("another long passphrase 8")
    user.save()
    caches["shared"].set(f"account:{user.pk}", stale_copy)  # the late reader's write

    assert backend.get_user(user.pk).password == user.password


def test_a_copy_read_before_the_change_committed_is_dropped_at_the_commit(
    user, django_capture_on_commit_callbacks
):
    """Another connection reading the account between the save and the commit still sees the
    old row, and may cache it under the token the save set; the commit sets another."""
    backend = CachedUserBackend()
    old = backend.get_user(user.pk)
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        user.set_password("another long passphrase 8")
        user.save()
        token = caches["shared"].get(f"account:{user.pk}:token")
        caches["shared"].set(f"account:{user.pk}", (token, old))  # what that other reader caches
        assert backend.get_user(user.pk).password == old.password
    assert backend.get_user(user.pk).password == user.password


def test_a_lost_token_is_never_taken_for_the_old_one(user):
    """Redis may evict the token (allkeys-lru): the next reader makes a new one, which no copy
    cached before carries."""
    backend = CachedUserBackend()
    backend.get_user(user.pk)
    copy = caches["shared"].get(f"account:{user.pk}")
    caches["shared"].delete(f"account:{user.pk}:token")
    get_user_model().objects.filter(pk=user.pk).update(first_name="Renamed")
    caches["shared"].set(f"account:{user.pk}", copy)

    assert backend.get_user(user.pk).first_name == "Renamed"


def test_an_account_that_is_gone_is_nobody(user):
    backend = CachedUserBackend()
    gone = user.pk
    user.delete()
    assert backend.get_user(gone) is None
    assert caches["shared"].get(f"account:{gone}") is None
