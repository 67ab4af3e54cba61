"""Telling the open game pages that something changed, through Channels' channel layer.

A game page holds a stream open (`scoring.views.streams.changes`) that listens to three groups of
the layer: its game's, its member's and its session's; a shared live view's stream
(`streams.shared_changes`) listens to its game's alone. When a change to a game commits,
`game_changed` says the game's new version to the game's group; each stream writes it down to its
phone, which then fetches the board as a poll would, or, when the change is a deal that added a
row, sends what the deal changed on the board itself (rendered once, whichever stream of the
process asks first, for the page it is: a member's or the live view). `game_deleted` says a last
version, and the streams end. When someone loses access to a club (removed, left, or their
account deleted), `member_let_go` tells their streams, which check again and close; when a
game's live view link changes (sharing stopped, or shared again under a new link),
`share_changed` tells the live views' streams, which do the same; a session logged out
(`logged_out`, on Django's `user_logged_out`) ends its streams.

Without REDIS_URL the layer lives in the one server process's memory; with it, in Redis, so a
change made on one server reaches the streams held by every other (settings.CHANNEL_LAYERS).
What the layer says is only ever a version number: a stream renders what it sends from the
database, as a board read would, and ends once its member is let go or its link stops.
"""

from __future__ import annotations

import hashlib
import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)

# What the layer's messages are called; a stream tells them apart by their "type".
GAME_CHANGED = "game.changed"
GAME_DELETED = "game.deleted"
MEMBER_LET_GO = "member.let_go"
SHARE_CHANGED = "share.changed"
SESSION_ENDED = "session.ended"


def game_group(game_id: int) -> str:
    return f"game.{game_id}"


def member_group(user_id: int) -> str:
    return f"member.{user_id}"


def session_group(session_key: str) -> str:
    """A session's group, named by a digest: the layer's names (Redis keys) never hold a
    session's key."""
    return f"session.{hashlib.sha256(session_key.encode()).hexdigest()[:32]}"


def game_changed(game_id: int, version: int) -> None:
    """Once the transaction commits: the game is at `version` now."""
    message = {"type": GAME_CHANGED, "version": version}
    transaction.on_commit(lambda: _tell(game_group(game_id), message))


def member_let_go(user_id: int) -> None:
    """Once the transaction commits: the account may have lost access to some club."""
    transaction.on_commit(lambda: _tell(member_group(user_id), {"type": MEMBER_LET_GO}))


def game_deleted(game_id: int, version: int) -> None:
    """Once the transaction commits: the game is gone. Its streams say `version`, so that their
    phones ask for the board and find it gone, and end."""
    message = {"type": GAME_DELETED, "version": version}
    transaction.on_commit(lambda: _tell(game_group(game_id), message))


def share_changed(game_id: int) -> None:
    """Once the transaction commits: the game's live view link changed, or stopped."""
    transaction.on_commit(lambda: _tell(game_group(game_id), {"type": SHARE_CHANGED}))


def logged_out(sender: object, request: object, **kwargs: object) -> None:
    """On Django's `user_logged_out`, before the session is emptied: its streams end."""
    session_key = getattr(getattr(request, "session", None), "session_key", None)
    if session_key:
        _tell(session_group(session_key), {"type": SESSION_ENDED})


def _tell(group: str, message: dict[str, object]) -> None:
    # The change is committed whatever happens here: a layer that doesn't answer (Redis
    # restarting) leaves the phones to their fallback poll, and must not fail the request.
    try:
        async_to_sync(get_channel_layer().group_send)(group, message)
    except Exception:
        logger.exception("The streams of %s couldn't be told of a change", group)
