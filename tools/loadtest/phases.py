"""The phases of a run: logging in, the load (phase A), the crash, and the closed-loop yardstick
(phase B)."""

from __future__ import annotations

import contextlib
import os
import random
import threading
import time
import uuid
from collections.abc import Callable

from rules.penalties import replay
from tools.loadtest.actors import Scorekeeper, Stop, Viewer, run_threads, told_recorded
from tools.loadtest.client import (
    Browser,
    ConnectionFailed,
    deal_form,
    game_version,
    poll_address,
)
from tools.loadtest.log import Log, Told, latency_lines, percentile
from tools.loadtest.seed import Plan
from tools.loadtest.servers import Servers, own_cpu_seconds

# Phase B's targets (issue 16): each page's throughput as a share of /ping/'s.
TARGETS = {"poll, no news": 0.60, "game page": 0.25, "record a deal": 0.10, "standings": 0.25}
# Before issue 16's work, the same run's figures (README, Benchmarks): SQLite; PostgreSQL with
# Redis and two servers. Printed beside each page's, for comparison only.
BEFORE = {
    "poll, no news": "14.2%; 20.1%",
    "game page": "6.6%; 7.4%",
    "record a deal": "1.9%; 1.7%",
    "standings": "10.6%; 8.8%",
}

Action = Callable[[Browser], tuple[bool, str]]


def log_in(scorekeepers: list[Scorekeeper], log: Log) -> list[Scorekeeper]:
    """Log every scorekeeper in at once; the ones that made it."""
    for keeper in scorekeepers:
        keeper.give_up = time.monotonic() + 300
    started = time.perf_counter()
    done: list[Scorekeeper] = []

    def one(keeper: Scorekeeper) -> None:
        with contextlib.suppress(Stop):
            keeper.login()
            done.append(keeper)

    run_threads([lambda k=keeper: one(k) for keeper in scorekeepers], 400)
    seconds = time.perf_counter() - started
    print(f"-- logging in: {len(done)} of {len(scorekeepers)} scorekeepers in {seconds:.1f} s")
    print("\n".join(latency_lines(log, ["login page", "log in"])))
    return done


# Phase A: the load


def phase_a(options, plan: Plan, servers: Servers, everyone, scorekeepers, log: Log) -> dict:
    """Viewer i follows the game of scorekeeper i % n (a member of that club)."""
    from django.urls import NoReverseMatch, reverse

    try:
        reverse("scoring:board", args=[1])
        poll = True
    except NoReverseMatch:
        poll = False
    viewers = [
        Viewer(
            f"viewer{index}",
            session,
            everyone[index % len(everyone)],
            servers.addresses,
            log,
            seed=options.seed * 100_000 + 50_000 + index,
            standings=plan.standings,
            poll=poll,
        )
        for index, session in enumerate(plan.viewer_sessions)
    ]
    print(
        f"-- phase A: {options.seconds:g} s, {len(scorekeepers)} scorekeepers (think 0.5-1.5 s),"
        f" {len(viewers)} viewers (every ~2 s: {'the poll, ' if poll else ''}the game page,"
        f" the standings of a {plan.season_games:,}-game season)"
    )
    requests_before = log.requests
    cpu_server, cpu_own = servers.cpu_seconds(), own_cpu_seconds()
    started = time.monotonic()
    deadline = started + options.seconds
    for client in [*scorekeepers, *viewers]:
        client.deadline = deadline
    for keeper in scorekeepers:
        keeper.give_up = deadline + 30
    run_threads([client.play for client in scorekeepers] + [v.watch for v in viewers], 200)
    wall = time.monotonic() - started
    cpu = (servers.cpu_seconds() - cpu_server, own_cpu_seconds() - cpu_own)
    return report_phase_a(log, log.requests - requests_before, wall, cpu)


def report_phase_a(log: Log, requests: int, wall: float, cpu: tuple[float, float]) -> dict:
    """Print phase A's throughput, latencies, polls and CPU; the figures for the summary."""
    kinds = ["record a deal", "game page", "poll", "standings", "new game"]
    print(f"requests: {requests:,} in {wall:.1f} s = {requests / wall:.1f} requests/s")
    print("\n".join(latency_lines(log, kinds)))
    polls = {status: count for (kind, status), count in log.statuses.items() if kind == "poll"}
    if polls:
        print(f"  polls answered: {', '.join(f'{n:,} x {s}' for s, n in sorted(polls.items()))}")
    print(
        f"CPU: servers {cpu[0]:.1f} s, load generator {cpu[1]:.1f} s"
        f" (in {wall:.1f} s on {os.cpu_count()} cores)"
    )
    return {
        "requests_per_second": requests / wall,
        "latency_ms": {
            kind: {
                f"p{int(share * 100)}": percentile(log.latency[kind], share) * 1000
                for share in (0.50, 0.95, 0.99)
            }
            for kind in kinds
            if log.latency.get(kind)
        },
    }


# The crash


def crash_phase(options, servers: Servers, scorekeepers: list[Scorekeeper], log: Log) -> dict:
    """Scorekeepers keep recording while every server is SIGKILLed and started again."""
    print(
        f"-- crash: {options.seconds:g} s, {len(scorekeepers)} scorekeepers"
        f" (think 0-0.3 s), {options.kills} kill(s) of every server"
    )
    started = time.monotonic()
    deadline = started + options.seconds
    for keeper in scorekeepers:
        keeper.deadline = deadline
        keeper.give_up = deadline + 60
    threads = [threading.Thread(target=keeper.play, daemon=True) for keeper in scorekeepers]
    for thread in threads:
        thread.start()
    windows, kills = [], []
    for kill in range(options.kills):
        kill_at = started + options.seconds * (kill + 1) / (options.kills + 1)
        time.sleep(max(0.0, kill_at - time.monotonic()))
        killed_at, back_at, killed_wall = kill_and_restart(servers, log, started)
        windows.append((killed_at, back_at))
        kills.append(killed_wall)
    limit = deadline + 90
    for thread in threads:
        thread.join(timeout=max(0.1, limit - time.monotonic()))
    if any(thread.is_alive() for thread in threads):
        raise RuntimeError("client threads did not stop in time")
    # A request that died at the kill is expected; one that died any other time is an error.
    outside = [
        what
        for when, what in log.interrupted
        if not any(killed - 0.5 <= when <= back + 5 for killed, back in windows)
    ]
    for what in outside:
        log.error(f"interrupted away from a kill: {what}")
    print(
        f"requests: {log.requests:,}; {log.retried_requests} got no answer around a kill and"
        f" were sent again, the same ({len(log.interrupted)} tries without an answer);"
        f" {len(log.told):,} deals told recorded"
    )
    print("\n".join(latency_lines(log, ["record a deal", "game page", "new game"])))
    return {"kills": kills, "interrupted": len(log.interrupted)}


def kill_and_restart(servers: Servers, log: Log, started: float) -> tuple[float, float, float]:
    """SIGKILL every server, start them again: (killed, answering again) on the monotonic
    clock, and the kill's wall-clock time (deals are stamped with that)."""
    with log.lock:
        in_flight, told_before = log.in_flight, len(log.told)
    killed_at, killed_wall = time.monotonic(), time.time()
    servers.kill()
    print(
        f"  SIGKILL at {killed_at - started:.1f} s: {in_flight} requests in flight,"
        f" {told_before} deals told recorded so far"
    )
    time.sleep(1.0)
    servers.start()
    back_at = time.monotonic()
    print(f"  started again, answering /ping/ {back_at - killed_at:.1f} s after the kill")
    return killed_at, back_at, killed_wall


# Phase B: the closed loop


class Recorder:
    """Phase B's action of recording deals: the next deal of one of its seeded games, a fresh
    token each (what the page's form would carry), the next game when one ends.

    `games` is its thread's list of seeded games, shared with the thread's other recorder:
    each takes the games it plays out of it, so no two play the same one.

    With `htmx`, as a phone with JavaScript sends it: the answer is the next deal's form and
    what the deal changed on the board. Without, as a phone without JavaScript: a redirect to
    the game page, nothing rendered, which makes it the cost of the write itself (the page
    that follows is "game page"'s figure). The game's end is then worked out here, with
    `rules.penalties.replay`, as the answer doesn't say it."""

    def __init__(self, games: list[int], log: Log, index: int, seed: int, htmx: bool) -> None:
        from scoring.demo import random_deal

        self.random_deal = random_deal
        self.log = log
        self.games = games
        self.htmx = htmx
        self.rng = random.Random(seed * 1000 + index + (0 if htmx else 500))
        if not self.next_game():
            raise RuntimeError("out of seeded games: raise --bench-games")

    def next_game(self) -> bool:
        """The next of its games, from deal 1; False if none is left."""
        if not self.games:
            return False
        self.game, self.number = self.games.pop(0), 1
        self.shown = ""  # a seeded game's board isn't open: the first answer brings it whole
        self.dealt: list[list[int]] = []
        return True

    def __call__(self, browser: Browser) -> tuple[bool, str]:
        cards = self.random_deal(self.rng)
        token = str(uuid.uuid4())
        form = deal_form(browser.csrf_token, self.number, token, cards, self.shown)
        path = f"/games/{self.game}/deals/"
        answer = browser.request("POST", path, form, htmx=self.htmx)
        told = (
            answer.status == 200 and told_recorded(answer, self.number)
            if self.htmx
            else answer.status == 302 and answer.headers.get("Location") == f"/games/{self.game}/"
        )
        if not told:
            return False, f"deal {self.number} of game {self.game} answered {answer.status}"
        self.log.recorded(Told(self.game, self.number, cards, token, "bench"))
        self.dealt.append(cards)
        if self.htmx and answer.page.element("deal-form") is not None:
            self.shown = game_version(answer.page)  # as the page sends it with the next deal
            self.number += 1
        elif not self.htmx and replay(self.dealt).finished_after is None:
            self.number += 1
        elif not self.next_game():
            return False, "out of seeded games: raise --bench-games"
        return True, ""


def getter(path: str, status: int = 200) -> Action:
    """Phase B's action of getting a page, expecting `status`."""

    def get(browser: Browser) -> tuple[bool, str]:
        answer = browser.request("GET", path)
        return answer.status == status, f"GET {path} answered {answer.status}"

    return get


def bench_browsers(plan: Plan, servers: Servers) -> list[Browser]:
    """A browser per thread, logged in, with a CSRF cookie from a page with a form on it."""
    browsers = []
    for session in plan.bench_sessions:
        browser = Browser(servers.addresses)
        browser.cookies["sessionid"] = session
        answer = browser.request("GET", plan.bench_game_page)
        if answer.status != 200 or "csrftoken" not in browser.cookies:
            raise RuntimeError(f"the benchmark's game page answered {answer.status}")
        browsers.append(browser)
    return browsers


def bench_pages(
    options, plan: Plan, log: Log, browsers: list[Browser]
) -> list[tuple[str, list[Action]]]:
    """Each page phase B measures, with every thread's action on it."""
    threads = options.bench_threads
    # The game page's poll finding nothing new (204), asked as the page asks it: with the
    # page's pass, it is answered from the pass and the cached version (scoring/poll_tokens.py).
    poll = poll_address(browsers[0].request("GET", plan.bench_game_page).page)
    return [
        ("/ping/", [getter("/ping/")] * threads),
        ("poll, no news", [getter(poll, status=204)] * threads),
        ("game page", [getter(plan.bench_game_page)] * threads),
        ("record a deal", recorders(plan, log, options.seed, htmx=True)),
        ("record, no JS", recorders(plan, log, options.seed, htmx=False)),
        ("standings", [getter(plan.standings)] * threads),
    ]


def recorders(plan: Plan, log: Log, seed: int, *, htmx: bool) -> list[Recorder]:
    """A `Recorder` for each bench thread, playing games from the thread's seeded ones."""
    return [Recorder(games, log, i, seed, htmx) for i, games in enumerate(plan.bench_games)]


def phase_b(options, plan: Plan, servers: Servers, log: Log) -> dict:
    """Closed loop: each page hammered by every thread for a while, throughput compared."""
    threads, seconds = options.bench_threads, options.bench_seconds
    print(f"-- phase B: closed loop, {threads} threads, {seconds:g} s per page")
    # Every thread gets its browser (and its CSRF cookie) before anything is measured.
    browsers = bench_browsers(plan, servers)
    results: dict[str, float] = {}
    cpu_per_request: dict[str, float] = {}
    for name, actions in bench_pages(options, plan, log, browsers):
        # Warm up every worker (templates compile once per process), then measure.
        closed_loop(name, actions, browsers, min(1.0, seconds / 5), log)
        cpu = servers.cpu_seconds()
        done, elapsed = closed_loop(name, actions, browsers, seconds, log)
        results[name] = done / elapsed
        cpu_per_request[name] = (servers.cpu_seconds() - cpu) / max(done, 1)
    base = results["/ping/"]
    for name, rate in results.items():
        line = (
            f"  {name:<16} {rate:8.1f} requests/s  {rate / base:6.1%} of /ping/"
            f"  ({cpu_per_request[name] * 1000:5.1f} ms server CPU each)"
        )
        if name in TARGETS:
            verdict = "PASS" if rate / base >= TARGETS[name] else "FAIL"
            line += f"   target >= {TARGETS[name]:.0%}  {verdict}  (before: {BEFORE[name]})"
        print(line)
    for browser in browsers:
        browser.close()
    return {
        "requests_per_second": results,
        "share_of_ping": {name: rate / base for name, rate in results.items()},
        "targets_met": {name: results[name] / base >= t for name, t in TARGETS.items()},
    }


def closed_loop(
    name: str, actions: list[Action], browsers: list[Browser], seconds: float, log: Log
) -> tuple[int, float]:
    """Each thread does its action over and over for `seconds`: (successes, seconds taken)."""
    threads = len(actions)
    counts = [0] * threads
    finished = [0.0] * threads
    barrier = threading.Barrier(threads + 1)

    def loop(index: int) -> None:
        barrier.wait()
        stop_at = time.monotonic() + seconds
        action, browser = actions[index], browsers[index]
        while time.monotonic() < stop_at:
            try:
                ok, why = action(browser)
            except ConnectionFailed as error:
                ok, why = False, str(error)
            if ok:
                counts[index] += 1
            else:
                log.error(f"phase B {name}: {why}")
                if "out of seeded games" in why:
                    break
        finished[index] = time.monotonic()

    threads_ = [threading.Thread(target=loop, args=(i,), daemon=True) for i in range(threads)]
    for thread in threads_:
        thread.start()
    barrier.wait()
    started = time.monotonic()
    for thread in threads_:
        thread.join(timeout=seconds + 60)
    return sum(counts), max(finished) - started
