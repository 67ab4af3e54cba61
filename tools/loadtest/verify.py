"""The database checked against what the phones were told (docs/development.md, "Measuring")."""

from collections import Counter, defaultdict
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from tools.loadtest.log import Log, Told


class Failure(StrEnum):
    """What the check can find wrong, as named in the printed line and the JSON summary."""

    LOST = "lost"  # told recorded, not in the database
    DOUBLED = "doubled"  # told of one deal number twice, with two tokens
    UNEXPECTED = "unexpected (doubled)"  # in the database, no phone told of it
    WRONG_CARDS = "wrong cards"  # stored with other cards (or another token) than sent
    HALF_WRITTEN = "half-written"  # a deal without its four scores
    GAPS = "gaps"  # a game's deal numbers aren't 1, 2, 3, …
    TOTALS_WRONG = "totals wrong"  # stored totals aren't the sum of the penalties
    STATUS_WRONG = "status wrong"  # finished or not, against what the deals say
    HISTORY_WRONG = "history wrong"  # not one line of history per deal recorded
    RECOMPUTE_CHANGES = "recompute changes"  # services.recompute would change something
    ERRORS = "errors"  # a phone got an error, or no answer when it should have had one


Problems = defaultdict[Failure, list[str]]
ToldByDeal = dict[tuple[int, int], list[Told]]  # (game id, number): what phones were told


@dataclass
class Stored:
    """The tool's clubs' games as the database holds them."""

    games: list[Any]  # Game
    deals: dict[tuple[int, int], Any]  # (game id, number): Deal, with scores_count
    seats: dict[int, list[Any]]  # game id: Seats in order
    history_lines: Counter[int]  # game id: lines saying a deal was recorded


def read_stored(club_names: list[str]) -> Stored:
    from django.db.models import Count

    from scoring.models import Deal, Game, GameChange, Seat

    games = list(Game.objects.filter(club__name__in=club_names).order_by("pk"))
    query = Deal.objects.filter(game__in=games).annotate(scores_count=Count("scores"))
    deals = {(deal.game_id, deal.number): deal for deal in query.prefetch_related("scores__seat")}
    seats = defaultdict(list)
    for seat in Seat.objects.filter(game__in=games).order_by("position"):
        seats[seat.game_id].append(seat)
    recorded = GameChange.objects.filter(game__in=games, action=GameChange.Action.RECORD)
    history_lines = Counter(recorded.values_list("game_id", flat=True))
    return Stored(games, deals, seats, history_lines)


def cards_of(deal) -> list[int]:
    return [s.cards_left for s in sorted(deal.scores.all(), key=lambda s: s.seat.position)]


def check_told(told: ToldByDeal, stored: Stored, problems: Problems) -> None:
    """Every deal told recorded is there once, with the cards and token it was sent with."""
    for (game, number), items in told.items():
        # Told twice about one deal number of a game must be one token, told again (a retry).
        if len({item.token for item in items}) > 1:
            problems[Failure.DOUBLED].append(f"game {game} deal {number} told {len(items)} times")
        if (deal := stored.deals.get((game, number))) is None:
            problems[Failure.LOST].append(f"game {game} deal {number} ({items[0].client})")
        elif (cards := cards_of(deal)) != items[0].cards or str(deal.token) != items[0].token:
            problems[Failure.WRONG_CARDS].append(f"game {game} deal {number}: {cards}")
    for (game, number), deal in stored.deals.items():
        if (game, number) not in told:
            problems[Failure.UNEXPECTED].append(f"game {game} deal {number}")
        if deal.scores_count != 4:
            problems[Failure.HALF_WRITTEN].append(f"game {game} deal {number}: {deal.scores_count}")


def check_games(stored: Stored, problems: Problems) -> None:
    """Each game's deals are numbered without gaps; its totals, status and history follow."""
    from rules.penalties import replay

    cards: dict[int, dict[int, list[int]]] = defaultdict(dict)  # game id: number: cards left
    for (game_id, number), deal in stored.deals.items():
        cards[game_id][number] = cards_of(deal)
    for game in stored.games:
        deals = cards[game.pk]
        numbers = sorted(deals)
        if numbers != list(range(1, len(numbers) + 1)):
            problems[Failure.GAPS].append(f"game {game.pk}: deals {numbers}")
        replayed = replay([deals[n] for n in numbers], game.ruleset, players=4)
        totals = [seat.total for seat in stored.seats[game.pk]]
        if list(replayed.totals) != totals:
            problems[Failure.TOTALS_WRONG].append(f"game {game.pk}: {totals} != {replayed.totals}")
        finished = replayed.finished_after is not None
        if finished != game.is_finished or replayed.ends_before_last_deal:
            problems[Failure.STATUS_WRONG].append(f"game {game.pk}: {game.status}")
        if (lines := stored.history_lines[game.pk]) != len(numbers):
            problems[Failure.HISTORY_WRONG].append(
                f"game {game.pk}: {lines} lines for {len(numbers)} deals"
            )


def check_recompute(stored: Stored, problems: Problems) -> None:
    """services.recompute, run on every game and rolled back, must find nothing to change."""
    from django.db import transaction

    from scoring import services
    from scoring.models import Game, Seat

    def state(game, seats) -> list:
        figures = [(s.total, s.deals_played, s.deals_won, s.thirteens, s.won) for s in seats]
        return [game.status, game.winner_id, game.win_shared, game.finished_at, figures]

    with transaction.atomic():
        for game in stored.games:
            before = state(game, stored.seats[game.pk])
            locked = Game.objects.select_for_update().get(pk=game.pk)
            services.recompute(locked)
            if state(locked, Seat.objects.filter(game=game).order_by("position")) != before:
                problems[Failure.RECOMPUTE_CHANGES].append(f"game {game.pk}")
        transaction.set_rollback(True)


def verify(log: Log, club_names: list[str], kills: list[float]) -> dict:
    """Check the tool's clubs against what the phones were told: a count per `Failure`."""
    told: ToldByDeal = defaultdict(list)
    for item in log.told:
        told[(item.game, item.number)].append(item)
    stored = read_stored(club_names)
    problems: Problems = defaultdict(list, {Failure.ERRORS: log.errors})
    check_told(told, stored, problems)
    check_games(stored, problems)
    check_recompute(stored, problems)
    print(
        f"-- checked against the database: {len(stored.games)} games, {len(stored.deals):,}"
        f" deals; {len(told):,} deals told recorded ({len(log.told):,} answers)"
    )
    print("  " + ", ".join(f"{failure}: {len(problems[failure])}" for failure in Failure))
    answer_lost = sum(  # deals committed before a kill whose answer died: the retry told of them
        1
        for key, items in told.items()
        if items[0].retried
        and key in stored.deals
        and any(stored.deals[key].recorded_at.timestamp() < killed for killed in kills)
    )
    if kills:
        print(
            f"  deals committed before a kill whose answer died with the server, told on the"
            f" retry with the same token: {answer_lost}"
        )
    for failure in Failure:
        for line in problems[failure][:8]:
            print(f"  !! {failure}: {line}")
    return {
        "games": len(stored.games),
        "deals": len(stored.deals),
        "told": len(told),
        "answer_lost_then_found": answer_lost,
        **{failure.value: len(problems[failure]) for failure in Failure},
    }


def failures(check: dict) -> int:
    """How many things the check found wrong, of every kind."""
    return sum(check[failure.value] for failure in Failure)
