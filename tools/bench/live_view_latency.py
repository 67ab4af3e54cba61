"""How soon a deal reaches the shared live view (/live/<token>/, no account).

`python -m tools.bench.live_view_latency [--deals 40]` serves the site as `make run` does
(uvicorn, SQLite, a fresh temporary DJANGO_VAR_DIR), shares a game, and has a scorekeeper
record deals a random 0.5 to 2.5 s apart while a live view follows the game two ways, one
after the other:

- "poll every 2 s": the board's poll alone, as the live view did before it had a stream (htmx's
  `every 2s`: the board asked with the version it shows, 204 until there is news);
- "stream": as the page does now (static/js/game-page.js): the live view's stream says each new
  version, and the board is fetched on its word; a deal that adds a row comes as its delta,
  which a board showing the version before takes without fetching.

For each deal, the time from the scorekeeper sending it to the live view showing it; printed as
the median, the 95th percentile and the longest. The requests are the page's own, on the wire.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time

from tools.bench.served import benchmark_site
from tools.loadtest import page as pages
from tools.loadtest.servers import Servers, machine_load
from tools.loadtest.wire import Pool, Reply, events

POLL_SECONDS = 2.0
SEAT_NAMES = ("Ann", "Ben", "Cat", "Dev")


class Browser:
    """One phone's cookies, and its requests on the shared pool."""

    def __init__(self, pool: Pool, cookies: dict[str, str]) -> None:
        self.pool, self.cookies = pool, cookies

    async def send(self, method: str, path: str, form: dict | None = None) -> Reply:
        headers = {"HX-Request": "true", "X-CSRFToken": self.cookies.get("csrftoken", "")}
        return await self.pool.request(method, path, self.cookies, form, headers)


class LiveView:
    """The live view's board as it shows it, and when it first showed each version."""

    def __init__(self, browser: Browser, board: pages.Board) -> None:
        self.browser, self.board = browser, board
        self.shown_at: dict[int, float] = {}
        self.changed = asyncio.Event()

    async def fetch(self) -> None:
        reply = await self.browser.send("GET", self.board.poll)
        if reply.status == 200 and (board := pages.board_of(pages.Page(reply.body))):
            self.board = board
            self.shown_at.setdefault(board.version, time.monotonic())
            self.changed.set()

    async def poll(self) -> None:
        while True:
            await self.fetch()
            await asyncio.sleep(POLL_SECONDS)

    async def stream(self) -> None:
        async with self.browser.pool.stream(self.board.changes, {}) as answer:
            assert answer.status == 200, f"the live view's stream answered {answer.status}"
            async for event in events(answer.content):
                version = pages.version_said(event.data)
                if event.type == "alive" or version is None or version <= self.board.version:
                    continue
                if event.type == "delta" and version == self.board.version + 1:
                    self.board = pages.moved_on(self.board, version)  # taken, no fetch
                    self.shown_at.setdefault(version, time.monotonic())
                    self.changed.set()
                else:
                    await self.fetch()

    async def shows(self, version: int) -> float:
        while version not in self.shown_at and not any(v > version for v in self.shown_at):
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), 10)
        return min(at for v, at in self.shown_at.items() if v >= version)


async def follow(port: int, session: str, game: int, token: str, deals: int, how: str):
    """The delays of `deals` deals reaching a live view that follows by `how`."""
    async with Pool([("127.0.0.1", port)], 4) as pool:
        scorekeeper, rng = Browser(pool, {"sessionid": session}), random.Random(1)
        form = pages.Page((await scorekeeper.send("GET", f"/games/{game}/")).body)
        live = LiveView(Browser(pool, {}), pages.board_of(pages.Page(await page_of(pool, token))))
        follower = asyncio.create_task(live.stream() if how == "stream" else live.poll())
        delays = []
        try:
            for count in range(deals):
                await asyncio.sleep(rng.uniform(0.5, 2.5))
                number, deal_token = pages.next_deal(form)
                cards = [0 if seat == count % 4 else 1 for seat in range(4)]  # nobody near 100
                sent = time.monotonic()
                reply = await scorekeeper.send(
                    "POST",
                    f"/games/{game}/deals/",
                    deal_form(scorekeeper, number, deal_token, cards),
                )
                form = pages.Page(reply.body)
                version = pages.board_of(form).version
                delays.append(await live.shows(version) - sent)
        finally:
            follower.cancel()
        return delays


async def page_of(pool: Pool, token: str) -> str:
    return (await pool.request("GET", f"/live/{token}/", {})).body


def deal_form(browser: Browser, number: int, token: str, cards: list[int]) -> dict:
    form = {"csrfmiddlewaretoken": browser.cookies.get("csrftoken", ""), "number": number}
    return form | {"token": token} | {f"cards_{seat}": n for seat, n in enumerate(cards)}


def shared_game(name: str) -> tuple[str, int, str]:
    """A scorekeeper's session, a game of theirs and its live view's token, in the database."""
    from django.contrib.auth import get_user_model

    from scoring import services
    from tools.loadtest.seed import session_for

    user = get_user_model().objects.create_user(name, password=None)
    club = services.create_club(name="Latency table", owner=user)
    game = services.start_game(club=club, seat_names=SEAT_NAMES, by=user)
    return session_for(user), game.pk, services.share_game(game=game, by=user)


def figures(delays: list[float]) -> str:
    cuts = statistics.quantiles(delays, n=20)
    median, p95 = statistics.median(delays), cuts[18]
    return f"median {median:.2f} s, p95 {p95:.2f} s, longest {max(delays):.2f} s"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tools.bench.live_view_latency", description=__doc__
    )
    parser.add_argument("--deals", type=int, default=40, help="deals each way (40)")
    options = parser.parse_args(argv)
    with benchmark_site() as environment:
        servers = Servers(environment, 1)
        servers.start()
        try:
            print(f"{options.deals} deals each way, {machine_load()}")
            for number, how in enumerate(("poll every 2 s", "stream")):
                session, game, token = shared_game(f"scorekeeper{number}")
                port = servers.ports[0]
                delays = asyncio.run(follow(port, session, game, token, options.deals, how))
                print(f"{how:<16} {figures(delays)}")
        finally:
            servers.stop()


if __name__ == "__main__":
    main()
