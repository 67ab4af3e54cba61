"""What the tests of the games' streams share (scoring/live_changes.py)."""

from scoring.live_changes import Watcher


class CacheOutage:
    """The streams' watcher failing every read while `down` is set, as it does while the shared
    cache doesn't answer (a Redis restarting)."""

    def __init__(self, monkeypatch, watcher: Watcher) -> None:
        self.down = False
        reads = watcher.read

        def read(*keys):
            if self.down:
                raise ConnectionError("the cache is down")
            return reads(*keys)

        monkeypatch.setattr(watcher, "read", read)
