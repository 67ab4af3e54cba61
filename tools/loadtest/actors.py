"""The clients: scorekeepers recording deals, and viewers following a game and the standings."""

from __future__ import annotations

import contextlib
import random
import threading
import time
from collections.abc import Callable

from tools.loadtest.client import (
    Answer,
    Browser,
    ConnectionFailed,
    deal_form,
    game_started,
    game_version,
    login_form,
    next_deal,
    poll_address,
)
from tools.loadtest.log import Log, Told
from tools.loadtest.seed import PASSWORD, SEAT_NAMES, Keeper


class Stop(Exception):
    """The client's time is up."""


class Scorekeeper:
    """Logs in, then records random deals of its own game; a new game when one ends.

    Every answer is checked: a record must come back 200 with "Deal N recorded."; anything else
    is an error. A request that gets no answer is sent again, the same (same token), as the
    phone's waiting-deals.js does; in a crash run that is expected while the server is down.
    """

    def __init__(
        self,
        name: str,
        keeper: Keeper,
        servers: list[tuple[str, int]],
        log: Log,
        *,
        seed: int,
        think: tuple[float, float],
        crash: bool,
    ) -> None:
        from scoring.demo import random_deal

        self.name = name
        self.keeper = keeper
        self.game = keeper.game
        self.browser = Browser(servers)
        self.log = log
        self.rng = random.Random(seed)
        self.random_deal = random_deal
        self.think = think
        self.crash = crash
        self.number = 0
        self.token = ""
        self.shown = ""  # the version its board shows, sent with each deal as the page does
        self.deadline = 0.0  # stop starting new work after this
        self.give_up = 0.0  # stop retrying after this
        self.retried = False

    def send(self, kind: str, method: str, path: str, form=None, htmx=False) -> Answer:
        """Send until answered (5xx is an error, and sent again); raise Stop when out of time."""
        self.retried = False
        while True:
            answer = self.try_once(method, path, form, htmx)
            if answer is not None:
                self.log.answer(kind, answer)
                if answer.status < 500:
                    return answer
                self.log.error(f"{self.name}: {method} {path} answered {answer.status}")
            if not self.retried:
                self.retried = True
                with self.log.lock:
                    self.log.retried_requests += 1
            if time.monotonic() > self.give_up:
                self.log.error(f"{self.name}: gave up on {method} {path}")
                raise Stop
            time.sleep(0.25)

    def try_once(self, method: str, path: str, form, htmx: bool) -> Answer | None:
        """One try; None when it got no answer (in a crash run, noted as interrupted)."""
        with self.log.lock:
            self.log.in_flight += 1
        try:
            return self.browser.request(method, path, form, htmx)
        except ConnectionFailed as error:
            if self.crash:
                with self.log.lock:
                    self.log.interrupted.append((time.monotonic(), f"{self.name}: {error}"))
            else:
                self.log.error(f"{self.name}: {error}")
            return None
        finally:
            with self.log.lock:
                self.log.in_flight -= 1

    def login(self) -> None:
        page = self.send("login page", "GET", "/accounts/login/")
        form = login_form(page.page, self.keeper.username, PASSWORD) if page.status == 200 else None
        if form is None:
            self.log.error(f"{self.name}: login page answered {page.status}")
            raise Stop
        answer = self.send("log in", "POST", "/accounts/login/", form)
        if answer.status != 302 or "sessionid" not in self.browser.cookies:
            self.log.error(f"{self.name}: logging in answered {answer.status}")
            raise Stop

    def open_game(self) -> None:
        answer = self.send("game page", "GET", f"/games/{self.game}/")
        if answer.status != 200 or not self.read_form(answer):
            self.log.error(f"{self.name}: game {self.game} page answered {answer.status}")
            raise Stop

    def read_form(self, answer: Answer) -> bool:
        """Take the next deal's number and token from the page; False when there's no form."""
        found = next_deal(answer.page)
        if found is None:
            return False
        self.number, self.token = found
        self.shown = game_version(answer.page)  # what its board now shows
        return True

    def record(self) -> bool:
        """Record the next deal; False when that ended the game."""
        cards = self.random_deal(self.rng)
        form = deal_form(self.browser.csrf_token, self.number, self.token, cards, self.shown)
        path = f"/games/{self.game}/deals/"
        answer = self.send("record a deal", "POST", path, form, htmx=True)
        if answer.status != 200 or not told_recorded(answer, self.number):
            why = answer.page.alert or answer.body[:120]
            self.log.error(f"{self.name}: deal {self.number} answered {answer.status}: {why}")
            raise Stop
        told = Told(self.game, self.number, cards, self.token, self.name, self.retried)
        self.log.recorded(told)
        return self.read_form(answer)

    def new_game(self) -> None:
        form = {"csrfmiddlewaretoken": self.browser.csrf_token}
        form |= {f"seat_{position}": name for position, name in enumerate(SEAT_NAMES, start=1)}
        answer = self.send("new game", "POST", f"/clubs/{self.keeper.club}/games/new/", form)
        started = game_started(answer.headers.get("Location", ""))
        if answer.status != 302 or started is None:
            self.log.error(f"{self.name}: new game answered {answer.status}")
            raise Stop
        self.game = started
        with self.log.lock:
            self.log.games_started.append(self.game)
        self.open_game()

    def play(self) -> None:
        with contextlib.suppress(Stop):
            self.open_game()
            while time.monotonic() < self.deadline:
                time.sleep(self.rng.uniform(*self.think))
                if not self.record() and time.monotonic() < self.deadline:
                    self.new_game()
        self.browser.close()


def told_recorded(answer: Answer, number: int) -> bool:
    """Whether the answer to recording a deal says it was: "Deal N recorded." in its notice."""
    return f"Deal {number} recorded." in answer.page.text("live-notice")


class Viewer:
    """Follows a scorekeeper's game the way the game page does: the poll every ~2 s, which
    answers 204 until something changed; now and then the whole page, or the standings."""

    def __init__(
        self,
        name: str,
        session: str,
        follows: Scorekeeper,
        servers: list[tuple[str, int]],
        log: Log,
        *,
        seed: int,
        standings: str,
        poll: bool,
    ) -> None:
        self.name = name
        self.browser = Browser(servers)
        self.browser.cookies["sessionid"] = session
        self.follows = follows
        self.log = log
        self.rng = random.Random(seed)
        self.standings = standings
        self.poll = poll
        self.game = 0
        self.version = ""
        self.poll_path = ""  # as the board shown asks it: its version and the page's pass
        self.deadline = 0.0

    def get(self, kind: str, path: str, ok: tuple[int, ...] = (200,)) -> Answer | None:
        try:
            answer = self.browser.request("GET", path, htmx=kind == "poll")
        except ConnectionFailed as error:
            self.log.error(f"{self.name}: {error}")
            return None
        self.log.answer(kind, answer)
        if answer.status not in ok:
            self.log.error(f"{self.name}: GET {path} answered {answer.status}")
            return None
        return answer

    def page(self) -> None:
        self.game = self.follows.game
        answer = self.get("game page", f"/games/{self.game}/")
        if answer is not None and (version := game_version(answer.page)):
            self.version = version
            self.poll_path = poll_address(answer.page)

    def watch(self) -> None:
        turn = self.rng.randrange(10)
        self.page()
        while time.monotonic() < self.deadline:
            time.sleep(self.rng.uniform(1.5, 2.5))
            turn += 1
            if self.follows.game != self.game or not self.poll or turn % 5 == 0:
                self.page()
            elif turn % 10 == 3:
                self.get("standings", self.standings)
            else:
                path = self.poll_path or f"/games/{self.game}/board/?v={self.version}"
                answer = self.get("poll", path, (200, 204))
                if answer is not None and answer.status == 200:
                    self.version = game_version(answer.page)
                    self.poll_path = poll_address(answer.page)
        self.browser.close()


def run_threads(targets: list[Callable[[], None]], seconds_after_deadline: float) -> None:
    """Run each target in a thread of its own; fail when any is still running after that long."""
    threads = [threading.Thread(target=target, daemon=True) for target in targets]
    for thread in threads:
        thread.start()
    limit = time.monotonic() + seconds_after_deadline
    for thread in threads:
        thread.join(timeout=max(0.1, limit - time.monotonic()))
    stuck = sum(thread.is_alive() for thread in threads)
    if stuck:
        raise RuntimeError(f"{stuck} client threads did not stop in time")
