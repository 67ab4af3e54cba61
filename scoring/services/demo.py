"""Plausible Big Two games made up at random, and a fast way to store a season of them.

The demo club (`manage.py seed_demo`), the benchmarks and the load tool (`tools/`) use this.
The deals follow the rules (one player out, the others holding 1–13 cards) and the games end
exactly when `rules.penalties` says they do, a tie for the lowest total playing on.

How many cards the others still hold when someone goes out is drawn from a table tuned so
that a game to 100 lasts about 26 deals: mostly one to four cards, ten to twelve now and then,
and the whole hand of 13 in about one losing hand in 70 (someone is caught with 13 in about
one deal in 23). Each player has a skill that weighs how often they go out, so a season's
standings spread out instead of everyone averaging the same.
"""

from __future__ import annotations

import datetime
import itertools
import math
import random
import uuid
from collections.abc import Sequence

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from rules.penalties import GameReplay, outcome, penalty, replay
from rules.ruleset import DEFAULT_RULES, RuleSet
from scoring.models import SEATS, Deal, DealScore, Game, GameChange, Player, Season, Seat
from scoring.names import name_key
from scoring.services import ratings
from scoring.services.totals import seat_figures
from scoring.services.versions import seasons_changed

# Out of 1,000 losing hands, how many hold 1, 2, … 13 cards when another player goes out.
CARDS_LEFT_PER_MILLE = (340, 225, 145, 95, 60, 40, 26, 17, 11, 12, 9, 5, 15)
_CARDS = tuple(range(1, len(CARDS_LEFT_PER_MILLE) + 1))
_CUMULATIVE = tuple(itertools.accumulate(CARDS_LEFT_PER_MILLE))

# The weakest player goes out this often relative to the strongest (0.75 against 1.35).
SKILL_RANGE = (0.75, 1.35)
GAMES_PER_EVENING = 3
EVENING_STARTS = datetime.time(19, 0)
SEED_CHUNK = 100  # games written per round of bulk inserts, to bound memory


def random_deal(
    rng: random.Random, players: int = SEATS, *, skills: Sequence[float] | None = None
) -> list[int]:
    """One deal's cards left, in seat order: exactly one 0, the others 1–13.

    `skills` weighs who goes out (equal chances without it).

    >>> deal = random_deal(random.Random(7))
    >>> deal.count(0), all(1 <= cards <= 13 for cards in deal if cards)
    (1, True)
    """
    cards = rng.choices(_CARDS, cum_weights=_CUMULATIVE, k=players)
    cards[rng.choices(range(players), weights=skills)[0]] = 0
    return cards


def random_game(
    rng: random.Random,
    players: int = SEATS,
    *,
    skills: Sequence[float] | None = None,
    rules: RuleSet = DEFAULT_RULES,
) -> list[list[int]]:
    """Deals, in order, up to and including the one that ends the game.

    Totals are kept as we go with the same `penalty` and `outcome` that `replay` uses, so
    `replay(deals).finished_after == len(deals)` (a test holds that).
    """
    deals: list[list[int]] = []
    totals = [0] * players
    while True:
        deal = random_deal(rng, players, skills=skills)
        deals.append(deal)
        totals = [total + penalty(cards, rules) for total, cards in zip(totals, deal, strict=True)]
        if outcome(totals, rules).finished:
            return deals


def seed_season(
    *,
    season: Season,
    by: AbstractBaseUser,
    games: int,
    rng: random.Random,
    player_names: Sequence[str],
) -> list[Game]:
    """Store `games` finished random games in `season`, fast, in one transaction.

    Four of `player_names` (added to the club's roster where missing) sit at each game, in
    random seats. Rows go in with bulk inserts, the derived fields (seat totals and counts,
    status, winner, end time) filled in from `replay` exactly as `services.recompute` would
    store them, and each deal gets the "recorded" line of history that `record_deal` writes.
    Deals are dated over evenings from the season's start to its end (or yesterday). The
    club's ratings are brought up to date as any write's are (`ratings.ratings_changed`).
    """
    if len(player_names) < SEATS:
        raise ValueError(f"a game needs {SEATS} players, not {len(player_names)}")
    if len({name.casefold() for name in player_names}) != len(player_names):
        raise ValueError("each player needs a different name (ignoring case)")
    made: list[Game] = []
    with transaction.atomic():
        players = _roster(season, player_names)
        low, high = SKILL_RANGE
        # Evenly spread and shuffled, so there is always a clear best and worst player.
        skills = [low + (high - low) * i / (len(players) - 1) for i in range(len(players))]
        rng.shuffle(skills)
        skill = {player.pk: value for player, value in zip(players, skills, strict=True)}
        evenings = _evenings(season, games, rng)
        evening, clock = None, None
        for first in range(0, games, SEED_CHUNK):
            chunk = []
            for evening_starts in evenings[first : first + SEED_CHUNK]:
                if evening_starts != evening:
                    evening = clock = evening_starts
                seated = rng.sample(players, SEATS)
                deals = random_game(rng, skills=[skill[player.pk] for player in seated])
                times = []
                for _ in deals:
                    clock += datetime.timedelta(minutes=rng.uniform(1.5, 3.5))
                    times.append(clock)
                chunk.append((seated, deals, times))
                clock += datetime.timedelta(minutes=rng.uniform(5, 15))  # a break
            made += _store(season, by, chunk)
        seasons_changed(season.pk)
        if made:
            since = min(ratings.position(game) for game in made)
            ratings.ratings_changed(season.club_id, since=since)
    return made


def _roster(season: Season, names: Sequence[str]) -> list[Player]:
    """The club's players of these names (matched as names are, `name_key`), adding those
    missing."""
    roster = {player.name_key: player for player in season.club.players.all()}
    missing = [
        Player.named(name, club=season.club) for name in names if name_key(name) not in roster
    ]
    for player in Player.objects.bulk_create(missing):
        roster[player.name_key] = player
    return [roster[name_key(name)] for name in names]


def _evenings(season: Season, games: int, rng: random.Random) -> list[datetime.datetime]:
    """When each game's evening starts: about three games an evening, spread over the season."""
    first_day = season.starts_on
    last_day = max(first_day, season.ends_on or timezone.localdate() - datetime.timedelta(days=1))
    span = (last_day - first_day).days
    count = max(1, min(span + 1, math.ceil(games / GAMES_PER_EVENING)))
    zone = timezone.get_current_timezone()
    starts = []
    for evening in range(count):
        day = first_day + datetime.timedelta(days=span * evening // max(count - 1, 1))
        start = datetime.datetime.combine(day, EVENING_STARTS, tzinfo=zone)
        starts.append(start + datetime.timedelta(minutes=rng.randint(0, 40)))
    return [starts[index * count // games] for index in range(games)]


def _store(
    season: Season,
    by: AbstractBaseUser,
    chunk: list[tuple[list[Player], list[list[int]], list[datetime.datetime]]],
) -> list[Game]:
    # Rows name their foreign keys by id: bulk-creating 100,000 deal scores from model
    # instances spends more time checking the instances than inserting the rows.
    rules = DEFAULT_RULES  # what Game.ruleset gives every game for now
    replays = [replay(deals, rules, players=SEATS) for _, deals, _ in chunk]
    games = Game.objects.bulk_create(
        Game(
            club=season.club,
            season=season,
            created_by=by,
            created_at=times[0] - datetime.timedelta(minutes=3),
            status=Game.Status.FINISHED,
            winner=seated[replayed.winner],
            finished_at=times[replayed.finished_after - 1],
        )
        for (seated, _, times), replayed in zip(chunk, replays, strict=True)
    )
    seats = Seat.objects.bulk_create(
        _seat(game, position, player, replayed, rules)
        for game, (seated, _, _), replayed in zip(games, chunk, replays, strict=True)
        for position, player in enumerate(seated)
    )
    played = [
        (game.pk, [seat.pk for seat in seats[index * SEATS : (index + 1) * SEATS]], deal, at)
        for index, (game, (_, _, times), replayed) in enumerate(
            zip(games, chunk, replays, strict=True)
        )
        for deal, at in zip(replayed.deals, times, strict=True)
    ]
    deals = Deal.objects.bulk_create(
        Deal(game_id=game, number=deal.number, token=uuid.uuid4(), recorded_by=by, recorded_at=at)
        for game, _, deal, at in played
    )
    DealScore.objects.bulk_create(
        DealScore(deal_id=row.pk, seat_id=seat, cards_left=cards, penalty=points)
        for row, (_, game_seats, deal, _) in zip(deals, played, strict=True)
        for seat, cards, points in zip(game_seats, deal.cards_left, deal.penalties, strict=True)
    )
    GameChange.objects.bulk_create(
        GameChange(
            game_id=game,
            by=by,
            at=at,
            action=GameChange.Action.RECORD,
            deal_number=deal.number,
            after=list(deal.cards_left),
        )
        for game, _, deal, at in played
    )
    return games


def _seat(game: Game, position: int, player: Player, replayed: GameReplay, rules: RuleSet) -> Seat:
    """A seat with the figures `services.recompute` derives from the deals."""
    return Seat(
        game=game, player=player, position=position, **seat_figures(replayed, position, rules)
    )
