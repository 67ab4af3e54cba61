"""The signed-in account, read from the shared cache instead of the database on each request.

Django loads `request.user` by its id on every request that looks at it. This backend keeps the
account in the cache every worker shares (the `shared` alias: Redis, or without REDIS_URL files
every worker on the machine reads), so a request with a cached session needs no database read
to know who is asking. With `CACHED_USER_SECONDS` at 0 it is Django's ModelBackend exactly. A
cache of each worker's own would never do: it would go on trusting an account another worker
had just changed.

Every save or deletion of an account makes its cached copy worthless everywhere at once, so a
password change or a deactivation still ends the account's other sessions on the next request
(Django compares the session's hash with the account's password on each request): the copy is
kept with the account's *token*, a random value in the cache that each save replaces, and a copy
whose token is no longer the current one is never used. A reader that fetched the account just
before a save can still write its old copy afterwards, but only under the old token.

The token is replaced when the save happens and again when its transaction commits: a request
in between may cache the account as it was before the commit, under the first new token. Changes
that skip `save()` (QuerySet.update, raw SQL) are not seen: a copy lives `CACHED_USER_SECONDS`.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.cache import caches
from django.db import transaction

# What login() stores in the session for an account signed in without a password check (after
# signing up, in tests and the load test's seed): the backend that reads the account back.
BACKEND = "common.cached_user.CachedUserBackend"


def caching() -> bool:
    return settings.CACHED_USER_SECONDS > 0


def _keys(user_id: object) -> tuple[str, str]:
    return f"account:{user_id}:token", f"account:{user_id}"


class CachedUserBackend(ModelBackend):
    """ModelBackend (passwords, permissions) whose `get_user` reads the shared cache first."""

    def get_user(self, user_id: int) -> AbstractBaseUser | None:
        if not caching():
            return super().get_user(user_id)
        token_key, copy_key = _keys(user_id)
        cache = caches["shared"]
        found = cache.get_many([token_key, copy_key])
        token, copy = found.get(token_key), found.get(copy_key)
        if token is not None and copy is not None and copy[0] == token:
            user = copy[1]
        else:
            # The token first, the account after: a copy is never newer than its token says.
            if token is None:
                cache.add(token_key, secrets.token_hex(8), timeout=None)
                token = cache.get(token_key)
            user = self._from_database(user_id)
            if user is not None:
                cache.set(copy_key, (token, user), timeout=settings.CACHED_USER_SECONDS)
        return user if user is not None and self.user_can_authenticate(user) else None

    @staticmethod
    def _from_database(user_id: int) -> AbstractBaseUser | None:
        try:
            return get_user_model()._default_manager.get(pk=user_id)
        except get_user_model().DoesNotExist:
            return None


def account_changed(user_id: object) -> None:
    """Make every cached copy of the account worthless, now and once the change commits."""
    if not caching():
        return
    token_key, _ = _keys(user_id)
    cache = caches["shared"]
    cache.set(token_key, secrets.token_hex(8), timeout=None)
    transaction.on_commit(lambda: cache.set(token_key, secrets.token_hex(8), timeout=None))


def on_account_saved(sender, instance: AbstractBaseUser, **kwargs) -> None:
    account_changed(instance.pk)


def on_account_deleted(sender, instance: AbstractBaseUser, **kwargs) -> None:
    account_changed(instance.pk)
