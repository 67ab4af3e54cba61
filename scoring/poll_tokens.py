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

from django.contrib.auth.base_user import AbstractBaseUser
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control

from scoring import caching

SALT = "scoring.poll-token"
# A pass this old is no longer taken; the board the long way brings a fresh one.
LIFETIME_SECONDS = 600


def poll_token(user: AbstractBaseUser, game_id: int) -> str:
    return signing.TimestampSigner(salt=SALT).sign(f"{user.pk}.{game_id}")


def token_game(token: str) -> int | None:
    """The game a pass is for, if it is the site's own and young enough; else None."""
    try:
        value = signing.TimestampSigner(salt=SALT).unsign(token, max_age=LIFETIME_SECONDS)
    except signing.BadSignature:
        return None
    _, _, game_id = value.partition(".")
    return int(game_id) if game_id.isdigit() else None


def nothing_new(request: HttpRequest, game_id: int) -> bool:
    """The poll carries a good pass for this game, and the page shows the version the game's
    last change left in the cache (scoring/caching.py): "nothing new", on those alone."""
    token = request.GET.get("t", "")
    if not token or request.GET.get("v") != str(caching.known_version(game_id)):
        return False
    return token_game(token) == game_id


def no_news() -> HttpResponse:
    """204 No Content: htmx leaves the page as it is."""
    response = HttpResponse(status=204)
    patch_cache_control(response, no_store=True)
    return response
