"""How soon, in a game played with own counts, what one phone sends shows on the others.

`python -m tools.bench.own_counts_latency [--deals 30]` serves the site as `make run` does
(uvicorn, SQLite, a fresh temporary DJANGO_VAR_DIR), makes a club of four members, each with an
account and a session of their own (four phones), and a game played with own counts that seats
each of them as themselves. Each phone follows the game as its page does
(static/js/game-page.js): the game's stream says each new version and the phone fetches the
board (its `hx-get`), or takes the stream's delta (a deal's, or a figure's: the deal filling in)
when it shows the version before;
no fetch while its own send is under way, one after it if the stream said something newer; and
a form the game moved past is renewed by the stale-form notice's own link.

Each deal, the four players send their own figure (POST /games/<id>/deals/own/, the fields of
templates/scoring/_own_facts.html) in a random order, a random 0.3 to 1.5 s apart, each once
their own form is for that deal. Measured, on the wire, from a figure's POST being sent:

- a figure but the last of its deal: until each of the other three phones shows it (its seat
  named in the deal filling in, `#deal-filling`'s list of what was sent; or the deal's row);
- the last figure: until every phone, the sender's too, shows the recorded deal (its row,
  `#deal-N`, on the scoreboard).

Printed as the median, the 95th percentile and the longest, with the machine's load.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import time
from collections.abc import Callable
from typing import NamedTuple

from tools.bench.live_view_latency import Browser, figures
from tools.bench.served import benchmark_site
from tools.loadtest import page as pages
from tools.loadtest.servers import Servers, machine_load
from tools.loadtest.wire import Pool, events

NAMES = ("ann", "ben", "cat", "dev")  # each member's username, and so their seat's name
GAP_SECONDS = (0.3, 1.5)  # between one player's send and the next's
STALL_SECONDS = 10.0  # what never shows within this fails the run
MOST_DEALS = 45  # 1 or 2 cards left a deal: nobody reaches the target of 100
ROW = re.compile(r'<tr id="deal-(\d+)"')
STALE_LINK = re.compile(r'class="message stale-form".*?hx-get="([^"]+)"', re.S)


class Screen(NamedTuple):
    """What a phone showed from `at` on: the last deal on its scoreboard, the seats it names as
    sent in the deal filling in."""

    at: float
    last_row: int
    sent: frozenset[str]


class Phone:
    """One member's game page: what it shows, each time that changed, and its own form."""

    def __init__(self, name: str, browser: Browser, game: int) -> None:
        self.name, self.browser, self.game = name, browser, game
        self.board: pages.Board | None = None
        self.form: tuple[int, str] | None = None  # the own form's deal number and token
        self.screens = [Screen(time.monotonic(), 0, frozenset())]
        self.changed = asyncio.Event()
        self.writing, self.newest = False, 0
        self.stale_link = ""  # the stale-form notice's link to the current form

    def show(self, html: str) -> None:
        """Take in an answer or a delta as the page swaps it in."""
        page, screen = pages.Page(html), self.screens[-1]
        self.board = pages.board_of(page) or self.board
        inputs = page.inputs("own-form")
        if inputs.get("number", "").isdigit() and inputs.get("token"):
            self.form = int(inputs["number"]), inputs["token"]
        last_row = max([screen.last_row, *map(int, ROW.findall(html))])
        sent = screen.sent
        if "deal-filling" in page.elements:
            text = page.text("deal-filling")
            sent = frozenset(name for name in NAMES if f"{name}:" in text)
        if "board-stale" in page.elements:
            self.stale_link = link[1] if (link := STALE_LINK.search(html)) else ""
        self.screens.append(Screen(time.monotonic(), last_row, sent))
        self.changed.set()

    async def load(self) -> None:
        self.show((await self.browser.send("GET", f"/games/{self.game}/")).body)

    async def follow(self) -> None:
        """The page's stream: a delta one version on taken, the board fetched on any newer one."""
        assert self.board is not None
        async with self.browser.pool.stream(self.board.changes, self.browser.cookies) as answer:
            assert answer.status == 200, f"{self.name}'s stream answered {answer.status}"
            async for event in events(answer.content):
                version = pages.version_said(event.data)
                if event.type == "alive" or version is None or version <= self.board.version:
                    continue
                self.newest = max(self.newest, version)
                if self.writing:
                    continue  # asked for once the send is back
                if event.type == "delta" and version == self.board.version + 1:
                    self.board = pages.moved_on(self.board, version)
                    self.show(event.data.split("\n", 1)[1])
                    await self.renew()
                else:
                    await self.catch_up()

    async def catch_up(self) -> None:
        """Fetch the board while the stream has said a newer version than it shows."""
        while self.board and self.newest > self.board.version:
            reply = await self.browser.send("GET", self.board.poll)
            fetched = pages.board_of(pages.Page(reply.body)) if reply.status == 200 else None
            if fetched is None or fetched.version < self.board.version:
                continue  # 204, or older than a delta taken meanwhile: dropped, as the page does
            self.show(reply.body)
        await self.renew()

    async def renew(self) -> None:
        """A form the game moved past, renewed by the stale-form notice's link."""
        if link := self.stale_link:
            self.stale_link = ""
            self.show((await self.browser.send("GET", link)).body)

    async def send(self, number: int, figure: int | None) -> float:
        """Send this seat's figure of deal `number` once the own form is for it (None: "I went
        out"); when it was sent."""
        await self.until(lambda _: self.form is not None and self.form[0] == number)
        assert self.form is not None
        fields = {"csrfmiddlewaretoken": self.browser.cookies.get("csrftoken", "")}
        fields |= {"number": number, "token": self.form[1]}
        fields |= {"went_out": "on"} if figure is None else {"figure": figure}
        self.writing, sent = True, time.monotonic()
        try:
            reply = await self.browser.send("POST", f"/games/{self.game}/deals/own/", fields)
        finally:
            self.writing = False
        assert reply.status == 200, f"{self.name}'s figure for deal {number}: {reply.status}"
        self.show(reply.body)
        await self.catch_up()
        return sent

    async def until(self, shown: Callable[[Screen], bool], since: int = 0) -> float:
        """When this phone first showed what `shown` says, of its screens from `since` on."""
        deadline = time.monotonic() + STALL_SECONDS
        while True:
            for screen in self.screens[since:]:
                if shown(screen):
                    return screen.at
            since = len(self.screens)
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), deadline - time.monotonic())


class Delays(NamedTuple):
    figures: list[float]  # a figure but the last, until the other three phones show it
    recorded: list[float]  # the last figure, until every phone shows the recorded deal


async def play(port: int, game: int, sessions: list[str], deals: int) -> Delays:
    """`deals` deals sent figure by figure from the four phones, each delay measured."""
    async with Pool([("127.0.0.1", port)], 16) as pool:
        phones = [
            Phone(name, Browser(pool, {"sessionid": s}), game)
            for name, s in zip(NAMES, sessions, strict=True)
        ]
        await asyncio.gather(*(phone.load() for phone in phones))
        following = [asyncio.create_task(phone.follow()) for phone in phones]
        rng, measured = random.Random(1), []
        try:
            for number in range(1, deals + 1):
                winner = rng.randrange(len(phones))
                for turn, seat in enumerate(rng.sample(range(len(phones)), len(phones))):
                    await asyncio.sleep(rng.uniform(*GAP_SECONDS))
                    figure = None if seat == winner else rng.randint(1, 2)
                    last = turn == len(phones) - 1
                    measured.append(
                        asyncio.create_task(sent_and_shown(phones, seat, number, figure, last))
                    )
                await measured[-1]  # the deal recorded before the next is played
            delays = await asyncio.gather(*measured)
        finally:
            for task in following:
                task.cancel()
    return Delays(
        [delay for delay, last in delays if not last], [delay for delay, last in delays if last]
    )


async def sent_and_shown(
    phones: list[Phone], seat: int, number: int, figure: int | None, last: bool
) -> tuple[float, bool]:
    """How long after `seat` sent its figure of deal `number` the phones showed it: the other
    three (its name as sent, or the deal), or every phone the recorded deal (`last`)."""
    name, watched = NAMES[seat], phones if last else phones[:seat] + phones[seat + 1 :]
    since = [len(phone.screens) for phone in watched]

    def shown(screen: Screen) -> bool:
        if last:
            return screen.last_row >= number
        return screen.last_row >= number or (screen.last_row == number - 1 and name in screen.sent)

    sent = await phones[seat].send(number, figure)
    shown_at = await asyncio.gather(
        *(phone.until(shown, start) for phone, start in zip(watched, since, strict=True))
    )
    return max(shown_at) - sent, last


def own_counts_table() -> tuple[int, list[str]]:
    """A game played with own counts seating four members as themselves, and a session each."""
    from django.contrib.auth import get_user_model

    from scoring import services
    from tools.loadtest.seed import session_for

    users = [get_user_model().objects.create_user(name, password=None) for name in NAMES]
    club = services.create_club(name="Own counts table", owner=users[0])
    invite = services.reset_invite(club=club, by=users[0])
    for user in users[1:]:
        services.join_club(token=invite, user=user)
    game = services.start_game(club=club, seat_names=NAMES, by=users[0], own_counts=True)
    return game.pk, [session_for(user) for user in users]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tools.bench.own_counts_latency", description=__doc__
    )
    parser.add_argument(
        "--deals", type=int, default=30, help=f"deals played (30; at most {MOST_DEALS})"
    )
    options = parser.parse_args(argv)
    if not 1 <= options.deals <= MOST_DEALS:
        parser.error(f"--deals must be from 1 to {MOST_DEALS}: the game would end")
    with benchmark_site() as environment:
        game, sessions = own_counts_table()
        with Servers(environment, 1) as servers:
            print(f"{options.deals} deals at a table of 4 phones, {machine_load()}")
            delays = asyncio.run(play(servers.ports[0], game, sessions, options.deals))
            print(f"a figure → the other 3 phones:      {figures(delays.figures)}")
            print(f"the last figure → the deal on all 4: {figures(delays.recorded)}")
            print(machine_load())


if __name__ == "__main__":
    main()
