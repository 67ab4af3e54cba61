"""The test processes of `make test-services` (pytest-xdist) share one Redis database: each keeps
its cache under a key prefix of its own per test, and its streams' channel layer under one of its
own per process (tests/conftest.py). Emptying a test's cache must leave the other processes'
keys alone. Before, two tests emptied it with `cache.clear()`, which on Redis is FLUSHDB: a
stream another process held open lost its groups, heard of no change again, and its test waited
10 s for `data: 1` in vain (CI's stalls in tests/scoring/views/test_stream_deltas.py)."""

import asyncio
import secrets

import pytest
from channels_redis.core import RedisChannelLayer
from django.conf import settings
from django.core.cache import cache

from scoring import live
from tests.caches import cache_emptied

pytestmark = pytest.mark.redis


def test_emptying_the_cache_leaves_another_processes_stream_its_groups(loop):
    config = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    other = RedisChannelLayer(hosts=config["hosts"], prefix=f"test-{secrets.token_hex(4)}")
    channel = loop.run_until_complete(other.new_channel())
    loop.run_until_complete(other.group_add(live.game_group(1), channel))
    cache.set("shown", "a fragment")

    with cache_emptied():
        assert cache.get("shown") is None

    changed = {"type": live.GAME_CHANGED, "version": 1}
    loop.run_until_complete(other.group_send(live.game_group(1), changed))
    heard = loop.run_until_complete(asyncio.wait_for(other.receive(channel), 10))
    assert heard == changed
    loop.run_until_complete(other.group_discard(live.game_group(1), channel))


def test_a_test_cannot_empty_the_database_the_others_share():
    with pytest.raises(AssertionError, match="cache_emptied"):
        cache.clear()
