"""The site's cache and channel layer as the settings read them: in the one server's memory, or
in the Redis REDIS_URL names, where several servers share the work.

The cache, Django's own, holds rendered fragments, each under a key naming the game or season,
its unique key and version (scoring/caching.py), and the sessions. The channel layer carries a
change to the games' streams (scoring/live.py), on any server where they share Redis.
"""

from __future__ import annotations


def cache_settings(redis_url: str, key_prefix: str) -> dict:
    """Django's CACHES: Redis with `redis_url`, else the process's memory."""
    if redis_url:
        default = {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": key_prefix,
            # A Redis that stops answering fails the request in seconds rather than holding it.
            "OPTIONS": {"socket_connect_timeout": 5, "socket_timeout": 5},
        }
    else:
        default = {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "KEY_PREFIX": key_prefix,
            # Fragments are small and each good only until its game's next change: room for a
            # few thousand tables' boards, the least recently used dropped first.
            "OPTIONS": {"MAX_ENTRIES": 20_000},
        }
    return {"default": default}


def channel_layer_settings(redis_url: str, prefix: str) -> dict:
    """Channels' CHANNEL_LAYERS: Redis with `redis_url`, its channels under `prefix`, else the
    process's memory."""
    if not redis_url:
        return {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    # A stream waits on Redis up to 5 s at a time (channels_redis's BZPOPMIN); the read must
    # outlast that wait, and redis-py's default read timeout is also 5 s.
    host = {"address": redis_url, "socket_timeout": 15, "socket_connect_timeout": 5}
    config = {"hosts": [host], "prefix": prefix}
    return {"default": {"BACKEND": "channels_redis.core.RedisChannelLayer", "CONFIG": config}}
