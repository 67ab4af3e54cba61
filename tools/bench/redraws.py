"""What six "Redraw the rounds to come" sent at once by one member do to another club, measured
against the site served as `make run` serves it (uvicorn, SQLite in a fresh DJANGO_VAR_DIR):

- a night of 32 players over 12 rounds, and a plain member of its club who sends its redraw form
  six times at once: with nothing changed, then each with another player ticked off;
- meanwhile another club's scorekeeper asks for their game page and `/ping/` in turn, one after
  the other, until every redraw has its answer.

    .venv/bin/python -m tools.bench.redraws [--rounds 3]

Printed for each round of six: how long the six took to be answered and with which statuses, and
the other club's game page and `/ping/` (median and longest). First the same page and ping with
nothing else running.
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time
import urllib.parse
import uuid

from tools.bench.imports import ANSWER_SECONDS, PASSWORD, Member, signed_in
from tools.bench.served import benchmark_site
from tools.loadtest.servers import Servers, machine_load

PLAYERS, ROUNDS, AT_ONCE = 32, 12, 6


def seed() -> tuple[dict[str, object], dict[str, object], int, list[int]]:
    """A club with a night of PLAYERS over ROUNDS and a plain member; another club with a game
    going. The member's and the scorekeeper's logins, the night and its players."""
    from django.contrib.auth import get_user_model

    from nights import services as nights
    from scoring import services
    from scoring.models import Player

    users = get_user_model().objects
    organiser = users.create_user(username="organiser", password=PASSWORD)
    club = services.create_club(name="Night club", owner=organiser)
    Player.objects.bulk_create(Player.named(f"Player {n}", club=club) for n in range(PLAYERS))
    member = users.create_user(username="member", password=PASSWORD)
    services.join_club(token=club.invite_token, user=member)
    here = list(club.players.order_by("pk"))
    night = nights.draw_night(
        club=club,
        here=here,
        new_names=[],
        rounds=ROUNDS,
        round_minutes=None,
        token=uuid.uuid4(),
        by=organiser,
    )
    scorekeeper = users.create_user(username="table", password=PASSWORD)
    other = services.create_club(name="Table club", owner=scorekeeper)
    game = services.start_game(club=other, seat_names=["Ann", "Ben", "Cy", "Dee"], by=scorekeeper)
    return (
        {"user": "member", "club": club.pk},
        {"user": "table", "club": other.pk, "game": game.pk},
        night.pk,
        [player.pk for player in here],
    )


def redraw(member: Member, night: int, here: list[int]) -> tuple[int, str]:
    fields = {"csrfmiddlewaretoken": member.cookies["csrftoken"], "here": here, "new_players": ""}
    body = urllib.parse.urlencode(fields, doseq=True).encode()
    return member.send("POST", f"/nights/{night}/here/", body, "application/x-www-form-urlencoded")


def timed(member: Member, path: str) -> float:
    started = time.perf_counter()
    status, _ = member.send("GET", path)
    assert status == 200, f"{path} answered {status}"
    return time.perf_counter() - started


def figures(seconds: list[float]) -> str:
    return f"median {statistics.median(seconds):.2f} s, longest {max(seconds):.2f} s"


def other_club_while(busy: threading.Event, table: Member, game: int) -> tuple[list, list]:
    """The scorekeeper's game page and /ping/, one after the other, until `busy` is clear."""
    pages, pings = [], []
    while busy.is_set() or not pages:
        pages.append(timed(table, f"/games/{game}/"))
        pings.append(timed(table, "/ping/"))
    return pages, pings


def six_at_once(members: list[Member], night: int, forms: list[list[int]], table, game) -> str:
    answers: list[str] = []
    busy = threading.Event()
    busy.set()

    def send(member: Member, here: list[int]) -> None:
        try:
            status, _ = redraw(member, night, here)
        except TimeoutError:
            answers.append(f"none in {ANSWER_SECONDS:.0f} s")
        else:
            answers.append(str(status))

    started = time.perf_counter()
    threads = [
        threading.Thread(target=send, args=(member, here))
        for member, here in zip(members, forms, strict=True)
    ]
    for thread in threads:
        thread.start()

    def clear_when_answered() -> None:
        for thread in threads:
            thread.join()
        busy.clear()

    watcher = threading.Thread(target=clear_when_answered)
    watcher.start()
    pages, pings = other_club_while(busy, table, game)
    watcher.join()
    took = time.perf_counter() - started
    return (
        f"six answered within {took:.2f} s ({', '.join(sorted(answers))}); the other club's"
        f" game page {figures(pages)}; /ping/ {figures(pings)}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.redraws", description=__doc__)
    parser.add_argument("--rounds", type=int, default=3, help="rounds of six redraws of each kind")
    options = parser.parse_args(argv)
    with benchmark_site() as environment:
        member_login, table_login, night, here = seed()
        with Servers(environment, 1) as servers:
            port = servers.ports[0]
            members = [signed_in(port, member_login) for _ in range(AT_ONCE)]
            table = signed_in(port, table_login)
            game = int(table_login["game"])
            print(servers.describe())
            print(f"a night of {PLAYERS} players over {ROUNDS} rounds; {machine_load()}")
            quiet = [timed(table, f"/games/{game}/") for _ in range(20)]
            pings = [timed(table, "/ping/") for _ in range(20)]
            print(f"nothing else running: game page {figures(quiet)}; /ping/ {figures(pings)}")
            for number in range(options.rounds):
                redraw(members[0], night, here)  # everyone here again, before the six
                same = [here] * AT_ONCE
                print("nothing changed:", six_at_once(members, night, same, table, game))
                ticked_off = [here[:at] + here[at + 1 :] for at in range(AT_ONCE)]
                print("each another change:", six_at_once(members, night, ticked_off, table, game))
                if number == options.rounds - 1:
                    print(machine_load())


if __name__ == "__main__":
    main()
