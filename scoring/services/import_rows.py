"""The rows an imported file's games are saved as, made before the import takes the database
(`rows_of`): every game, seat, deal, score and history line, as the preview scored them and as
the table's writes would have left them (`services.totals.recompute`'s figures), each value
already as the database takes it (`Field.get_db_prep_save`). Under the lock only their keys
are filled in and each table is written at once (`write`): the games and seats with
`bulk_create`, which gives their keys; the deals, scores and history lines, thousands of rows,
with one `executemany` each, which costs a few microseconds a row where building the
`bulk_create` statement costs a few hundred.
"""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import connection, models
from django.utils import timezone

from rules.penalties import GameReplay
from scoring.imports.checks import GamePreview
from scoring.models import Club, Deal, DealScore, Game, GameChange, Player, Season, Seat
from scoring.models.facts import deal_row, figures, score_rows
from scoring.selectors import roster_key
from scoring.services.totals import seat_figures


class Insert:
    """Rows of `model` written with one INSERT run for each: the `keys` (foreign keys to rows
    written under the lock) first, given then, and every other column prepared beforehand."""

    def __init__(self, model: type[models.Model], keys: Sequence[str]) -> None:
        fields = [field for field in model._meta.concrete_fields if not field.primary_key]
        self.table = model._meta.db_table
        self.keys = [model._meta.get_field(name) for name in keys]
        self.values = [field for field in fields if field.name not in keys]

    @property
    def sql(self) -> str:
        quote = connection.ops.quote_name
        columns = ", ".join(quote(field.column) for field in [*self.keys, *self.values])
        marks = ", ".join(["%s"] * (len(self.keys) + len(self.values)))
        return f"INSERT INTO {quote(self.table)} ({columns}) VALUES ({marks})"

    def prepared(self, row: models.Model) -> tuple[object, ...]:
        """`row`'s values but its keys, as the database takes them."""
        return tuple(
            field.get_db_prep_save(field.pre_save(row, add=True), connection)
            for field in self.values
        )

    def write(self, rows: Iterable[tuple[object, ...]]) -> None:
        with connection.cursor() as cursor:
            cursor.executemany(self.sql, list(rows))


DEALS = Insert(Deal, ["game"])
SCORES = Insert(DealScore, ["deal", "seat"])
HISTORY = Insert(GameChange, ["game"])


@dataclass(frozen=True)
class GameRows:
    preview: GamePreview
    game: Game  # without its season, stake or winner: known under the lock
    seats: list[Seat]  # without their game or player
    deals: list[tuple[object, ...]]  # DEALS' values
    scores: list[list[tuple[object, ...]]]  # each deal's, seat by seat: SCORES' values
    history: list[tuple[object, ...]]  # a line a deal, and its end as it stood: HISTORY's


def rows_of(club: Club, previews: Sequence[GamePreview], by: AbstractBaseUser) -> list[GameRows]:
    return [game_rows(club, preview, by) for preview in previews]


def game_rows(club: Club, preview: GamePreview, by: AbstractBaseUser) -> GameRows:
    replayed = scored(preview)
    at = played_at(preview.played_on)
    finished = replayed.finished_after is not None
    game = Game(
        club=club,
        created_by=by,
        created_at=at,
        rules=preview.rules.name,
        # The file stops at its last deal, as a table that stopped there ("End match"): a
        # correction later scores the game as the preview did, a tie at the finish shared.
        ended=bool(replayed.deals),
        win_shared=len(replayed.winners) > 1,
        status=Game.Status.FINISHED if finished else Game.Status.IN_PROGRESS,
        finished_at=at if finished else None,
        last_deal=preview.last_deal,
    )
    seats = [
        Seat(position=position, **seat_figures(replayed, position, preview.rules))
        for position in range(len(preview.seats))
    ]
    deals, scores, history = [], [], []
    for deal in replayed.deals:
        facts = deal.scored.facts
        row = Deal(number=deal.number, token=uuid.uuid4(), recorded_by=by, recorded_at=at)
        for field, value in deal_row(facts).items():
            setattr(row, field, value)
        deals.append(DEALS.prepared(row))
        scores.append([SCORES.prepared(DealScore(**row)) for row in score_rows(deal.scored)])
        line = GameChange(
            by=by,
            action=GameChange.Action.RECORD,
            deal_number=deal.number,
            after=figures(facts, preview.rules),
        )
        history.append(HISTORY.prepared(line))
    if preview.last_deal is not None:  # ended as it stood, as "End match" ends a game
        ended = GameChange(
            by=by,
            action=GameChange.Action.END,
            deal_number=preview.last_deal,
            after=list(replayed.totals),
        )
        history.append(HISTORY.prepared(ended))
    return GameRows(preview, game, seats, deals, scores, history)


def write(rows: Sequence[GameRows], season: Season, players: dict[str, Player]) -> list[Game]:
    """The rows saved into `season`, each seat taken by its player: a table at a time."""
    for game in rows:
        replayed = scored(game.preview)
        game.game.season, game.game.stake = season, season.stake
        if replayed.winner is not None and replayed.finished_after is not None:
            winner = game.preview.seats[replayed.winner].name
            game.game.winner_id = players[roster_key(winner)].pk
    games = Game.objects.bulk_create(game.game for game in rows)
    for game in rows:
        for seat, previewed in zip(game.seats, game.preview.seats, strict=True):
            seat.game_id, seat.player_id = game.game.pk, players[roster_key(previewed.name)].pk
    Seat.objects.bulk_create(seat for game in rows for seat in game.seats)
    DEALS.write((game.game.pk, *deal) for game in rows for deal in game.deals)
    numbered = Deal.objects.filter(game__in=games).values_list("game_id", "number", "pk")
    deal_ids = {(game_id, number): pk for game_id, number, pk in numbered}
    SCORES.write(
        (deal_ids[game.game.pk, number], seat.pk, *score)
        for game in rows
        for number, scores in enumerate(game.scores, start=1)
        for seat, score in zip(game.seats, scores, strict=True)
    )
    HISTORY.write((game.game.pk, *line) for game in rows for line in game.history)
    return games


def played_at(day: datetime.date | None) -> datetime.datetime:
    """When a game of `day` is said to have been played: midday there, so the day shows the
    same wherever the site's clock is."""
    if day is None:
        return timezone.now()
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time(12)))


def scored(preview: GamePreview) -> GameReplay:
    assert preview.replayed is not None, "a game that can be imported has been scored"
    return preview.replayed
