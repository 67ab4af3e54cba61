"""The pass a game page's poll carries: asking "anything new?" without the session.

A phone following a game asks every two seconds whether it has changed. Reading the session
and the account to check membership costs more than everything else the answer takes, so the
page gives its poll a pass: the member's and the game's ids, signed with the site's secret and
stamped with the time (django.core.signing). While the pass is young, and the game's version
(scoring/caching.py, no database either) is still the one the page shows, the poll is answered
"nothing new" on the pass alone. Anything else, a change to show or a pass grown old, takes the
long way: session, account, membership, the database. So a member who loses access is refused
by their next read of the board; until then the pass only ever told them "nothing new".
"""

from __future__ import annotations

import secrets

from django.contrib.auth.base_user import AbstractBaseUser
from django.core import signing
from django.core.cache import caches
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control

from scoring import caching

SALT = "scoring.poll-token"
# A pass this old is no longer taken; the board the long way brings a fresh one.
LIFETIME_SECONDS = 600


def poll_token(user: AbstractBaseUser, game_id: int, known_series: str | None = None) -> str:
    """The member's pass for the game's poll; `known_series`, their series if the caller has
    just read it from the cache (under `poll_series_key`), spares reading it again."""
    held = known_series or series(user.pk)
    return signing.TimestampSigner(salt=SALT).sign(f"{user.pk}.{game_id}.{held}")


def poll_series_key(user_id: object) -> str:
    return f"poll-passes:{user_id}"


def series(user_id: object) -> str:
    """The member's current pass series (a new one if the cache has none)."""
    key = poll_series_key(user_id)
    found = caches["shared"].get(key)
    if found is None:
        caches["shared"].add(key, secrets.token_hex(4), timeout=None)
        found = caches["shared"].get(key)
    return found


def passes_withdrawn(user_id: object) -> None:
    """No pass given to the member so far is taken any more (call it in the transaction that
    takes their membership away)."""
    key = poll_series_key(user_id)
    caches["shared"].set(key, secrets.token_hex(4), timeout=None)
    transaction.on_commit(lambda: caches["shared"].set(key, secrets.token_hex(4), timeout=None))


def _read(token: str) -> tuple[str, int, str] | None:
    """(member, game, series) of a pass that is the site's own and young enough; else None."""
    try:
        value = signing.TimestampSigner(salt=SALT).unsign(token, max_age=LIFETIME_SECONDS)
    except signing.BadSignature:
        return None
    user_id, _, rest = value.partition(".")
    game_id, _, held = rest.partition(".")
    return (user_id, int(game_id), held) if game_id.isdigit() else None


def pass_good(token: str, game_id: int) -> bool:
    """The pass is young, for this game, and of its member's current series."""
    return pass_holder(token, game_id) is not None


def pass_holder(token: str, game_id: int) -> tuple[str, str] | None:
    """For a good pass (see `pass_good`): the cache key of its member's series and the series;
    whoever holds it until the series changes may be told the game's version."""
    found = _read(token)
    if found is None or found[1] != game_id:
        return None
    key = poll_series_key(found[0])
    return (key, found[2]) if caches["shared"].get(key) == found[2] else None


def nothing_new(request: HttpRequest, game_id: int) -> bool:
    """The poll carries a good pass for this game, and the page shows the version the game's
    last change left in the cache (scoring/caching.py): "nothing new", on those alone."""
    found = _read(request.GET.get("t", ""))
    if found is None or found[1] != game_id:
        return False
    version_key, series_key = caching.game_version_key(game_id), poll_series_key(found[0])
    known = caches["shared"].get_many([version_key, series_key])
    shown = request.GET.get("v")
    return shown == str(known.get(version_key)) and known.get(series_key) == found[2]


def no_news() -> HttpResponse:
    """204 No Content: htmx leaves the page as it is."""
    response = HttpResponse(status=204)
    patch_cache_control(response, no_store=True)
    return response
