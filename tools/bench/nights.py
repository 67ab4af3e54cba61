"""Time a club night as its pages answer: "Draw the seats" for 40 players and 8 rounds, and a
deal reaching the TV board (its poll's answer once a deal is recorded).

Run it with `python -m tools.bench.nights`. It uses a throwaway database
(`tools.bench.throwaway`) and Django's test client, the way a browser would ask, minus the
network. The draw alone, in process, is `python -m tools.bench.seating`.
"""

from __future__ import annotations

import argparse
import re
import statistics
import time
import uuid

from tools.bench.throwaway import pages_as_served, start_django, throwaway_database

# How often the TV page asks whether anything changed (templates/nights/tv.html).
TV_POLL_SECONDS = 0.5


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--draws", type=int, default=5, help="draws timed (default 5)")
    parser.add_argument("--deals", type=int, default=20, help="deals timed on the TV")
    options = parser.parse_args()
    start_django()
    with throwaway_database("nights"), pages_as_served():
        run(options)


def run(options: argparse.Namespace) -> None:
    from django.test import Client

    from scoring import services
    from scoring.models import Game, Player
    from tools.bench.seeding import bench_user

    club = services.create_club(name="Bench club", owner=bench_user("bench"))
    Player.objects.bulk_create(
        Player.named(f"Player {number + 1}", club=club) for number in range(options.players)
    )
    here = [str(pk) for pk in club.players.values_list("pk", flat=True)]
    client = Client()
    client.force_login(club.owner)
    draws = []
    for _draw in range(options.draws):
        form = {"here": here, "rounds": str(options.rounds), "token": str(uuid.uuid4())}
        started = time.perf_counter()
        answer = client.post(f"/clubs/{club.pk}/nights/new/", form)
        draws.append(time.perf_counter() - started)
        assert answer.status_code == 302, answer.status_code
    print(
        f"Draw the seats, {options.players} players, {options.rounds} rounds, as the page"
        f" answers: median {statistics.median(draws):.2f} s, worst {max(draws):.2f} s"
    )
    night_path = answer["Location"]
    client.post(f"{night_path}rounds/1/start/")
    client.post(f"{night_path}tv/")
    page = client.get(night_path).content.decode()
    tv = re.search(r'href="https?://[^/]+(/tv/[^/]+/)"', page)[1]
    game = Game.objects.filter(night_table__round__number=1).first()
    answers = []
    for _deal in range(options.deals):
        state = re.search(r"board/\?state=(\d+)", client.get(tv).content.decode())[1]
        cards = [1, 1, 1, 1]
        cards[len(answers) % 4] = 0
        services.record_deal(
            game=game,
            number=len(answers) + 1,
            cards_left=cards,
            token=uuid.uuid4(),
            by=club.owner,
        )
        started = time.perf_counter()
        board = client.get(f"{tv}board/?state={state}")
        answers.append(time.perf_counter() - started)
        assert board.status_code == 200, board.status_code
    worst = max(answers)
    print(
        f"A deal on the TV: the board's answer median {statistics.median(answers) * 1000:.0f} ms,"
        f" worst {worst * 1000:.0f} ms; with the {TV_POLL_SECONDS:g} s poll, shown within"
        f" {TV_POLL_SECONDS + worst:.2f} s of the deal"
    )


if __name__ == "__main__":
    main()
