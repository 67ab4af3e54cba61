"""How soon a deal recorded at any table reaches a club night's TV board (/tv/<token>/).

`python -m tools.bench.tv_latency [--deals 40]` serves the site as `make run` does (uvicorn,
SQLite, a fresh temporary DJANGO_VAR_DIR), draws a night of three tables, starts its first round
and shows it on a TV. The TV asks as its page does (templates/nights/tv.html: the board every
0.5 s with the state it shows, 204 until something changed) while a scorekeeper records deals
at the tables in turn, a random 0.5 to 2.5 s apart. For each deal, the time from sending it to
the TV holding a board that has it (each deal moves the board's state on by one): the median,
the 95th percentile and the longest. The requests are the page's own, on the wire.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import time
import uuid

from tools.bench.live_view_latency import Browser, deal_form, figures
from tools.bench.served import benchmark_site
from tools.loadtest import page as pages
from tools.loadtest.servers import Servers, machine_load
from tools.loadtest.wire import Pool

POLL_SECONDS = 0.5
STATE = re.compile(r"board/\?state=(\d+)")


class TV:
    """The board as the TV shows it, and when each of its answers came."""

    def __init__(self, browser: Browser, token: str, state: int) -> None:
        self.browser, self.token, self.state = browser, token, state
        self.shown_at: dict[int, float] = {}

    async def follow(self) -> None:
        while True:
            reply = await self.browser.send("GET", f"/tv/{self.token}/board/?state={self.state}")
            if reply.status == 200:
                self.state = int(STATE.search(reply.body)[1])
                self.shown_at.setdefault(self.state, time.monotonic())
            await asyncio.sleep(POLL_SECONDS)

    async def shows(self, state: int) -> float:
        """When the TV first showed a board of `state` or later; a stall fails after 10 s."""
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            shown = [at for seen, at in self.shown_at.items() if seen >= state]
            if shown:
                return min(shown)
            await asyncio.sleep(0.01)
        raise TimeoutError(f"the TV never showed state {state} within 10 s")


async def follow(port: int, session: str, games: list[int], token: str, deals: int) -> list[float]:
    async with Pool([("127.0.0.1", port)], 4) as pool:
        scorekeeper, rng = Browser(pool, {"sessionid": session}), random.Random(1)
        forms = {
            game: pages.Page((await scorekeeper.send("GET", f"/games/{game}/")).body)
            for game in games
        }
        first = (await pool.request("GET", f"/tv/{token}/", {})).body
        tv = TV(Browser(pool, {}), token, int(STATE.search(first)[1]))
        shown = tv.state
        follower = asyncio.create_task(tv.follow())
        delays = []
        try:
            for count in range(deals):
                await asyncio.sleep(rng.uniform(0.5, 2.5))
                game = games[count % len(games)]
                number, deal_token = pages.next_deal(forms[game])
                cards = [0 if seat == (count // len(games)) % 4 else 1 for seat in range(4)]
                sent = time.monotonic()
                reply = await scorekeeper.send(
                    "POST",
                    f"/games/{game}/deals/",
                    deal_form(scorekeeper, number, deal_token, cards),
                )
                forms[game] = pages.Page(reply.body)
                shown += 1  # a deal moves its game's version, and so the board's state, on by one
                delays.append(await tv.shows(shown) - sent)
        finally:
            follower.cancel()
        return delays


def night_on_tv() -> tuple[str, list[int], str]:
    """An organiser's session, the games of a started round of three tables, the TV's token."""
    from django.contrib.auth import get_user_model

    from nights import services as nights
    from nights.models import Table
    from scoring import services
    from scoring.models import Player
    from tools.loadtest.seed import session_for

    user = get_user_model().objects.create_user("organiser", password=None)
    club = services.create_club(name="TV table", owner=user)
    players = [Player.named(f"Player {n}", club=club) for n in range(1, 13)]
    Player.objects.bulk_create(players)
    night = nights.draw_night(
        club=club,
        here=list(club.players.all()),
        new_names=[],
        rounds=2,
        round_minutes=None,
        token=uuid.uuid4(),
        by=user,
    )
    nights.start_round(night=night, number=1, by=user)
    games = list(Table.objects.filter(round__night=night).values_list("game_id", flat=True))
    return session_for(user), games, nights.show_on_tv(night=night, by=user)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.tv_latency", description=__doc__)
    parser.add_argument("--deals", type=int, default=40, help="deals recorded (40)")
    options = parser.parse_args(argv)
    with benchmark_site() as environment:
        servers = Servers(environment, 1)
        servers.start()
        try:
            session, games, token = night_on_tv()
            delays = asyncio.run(follow(servers.ports[0], session, games, token, options.deals))
            print(f"{options.deals} deals at 3 tables, {machine_load()}")
            print(f"deal → TV board: {figures(delays)}")
        finally:
            servers.stop()


if __name__ == "__main__":
    main()
