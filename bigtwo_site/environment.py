"""Reading the settings' environment variables: texts, flags, lists, counts and sizes, each
refused at start-up, saying what to write instead, when it can't be read. The settings read the
environment through these alone."""

from __future__ import annotations

import importlib.util
import os

from django.core.exceptions import ImproperlyConfigured


def env_text(name: str, default: str = "") -> str:
    """The variable's text, its spaces trimmed; `default` when it is unset or blank."""
    return os.environ.get(name, "").strip() or default


def env_flag(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_count(name: str, default: int, *, least: int = 1, meaning: str = "") -> int:
    """A whole number of at least `least` from the environment, or `default`; `meaning` says
    what the number counts in the message refusing another."""
    text = os.environ.get(name, str(default)).strip()
    if not text.isdecimal() or int(text) < least:
        what = f"{meaning}, " if meaning else ""
        raise ImproperlyConfigured(
            f"{name} is {text!r}; set it to {what}a whole number of at least {least}."
        )
    return int(text)


def env_megabytes(name: str, default: float) -> int:
    """A size in MB from the environment, or `default`, as a number of bytes."""
    text = os.environ.get(name, str(default)).strip()
    try:
        megabytes = float(text)
    except ValueError:
        megabytes = 0
    if not megabytes > 0:
        raise ImproperlyConfigured(f"{name} is {text!r}; set it to a size in MB, such as 20.")
    return int(megabytes * 1_000_000)


def env_redis_url() -> str:
    """REDIS_URL, with the clients to reach it installed; "" when unset (one server keeping
    everything in its own memory)."""
    url = os.environ.get("REDIS_URL", "").strip()
    if url and not url.startswith(("redis://", "rediss://", "unix://")):
        raise ImproperlyConfigured(
            f"REDIS_URL is {url!r}; set it to the address of a Redis server, such as "
            "redis://127.0.0.1:6379/0 (rediss:// with TLS, unix:///path/to/redis.sock), or "
            "leave it unset for one server keeping everything in its own memory."
        )
    if url and importlib.util.find_spec("channels_redis") is None:
        raise ImproperlyConfigured(
            "REDIS_URL is set but the Redis clients aren't installed: "
            '.venv/bin/pip install -e ".[redis]"'
        )
    return url
