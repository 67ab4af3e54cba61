"""What a game's deals add up to, and the steps every write on a game shares.

`recompute` is the one function that writes a game's derived fields (seat totals, status,
winner, end time, version); the rest read the deals as the rules engine reads them, lock the
game's row and hand what was written back to the caller's copy of the game.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.db.models import Max
from django.utils.translation import gettext as _

from rules.options import TwosRule
from rules.penalties import DealResult, GameReplay, penalty, replay, validate_deal
from rules.ruleset import RuleSet
from scoring.caching import game_changed
from scoring.models import Deal, DealScore, Game, Seat
from scoring.services.errors import InvalidDeal, ScoringError

SEAT_FIGURES = ("total", "deals_played", "deals_won", "thirteens")


def seat_figures(replayed: GameReplay, position: int, rules: RuleSet) -> dict[str, int]:
    """What a seat stores about its game, derived from the deals (see `recompute`)."""
    held = [deal.cards_left[position] for deal in replayed.deals]
    return {
        "total": replayed.totals[position],
        "deals_played": len(held),
        "deals_won": held.count(0),
        "thirteens": held.count(rules.hand_size),
    }


def recompute(game: Game) -> GameReplay:
    """Derive seat totals, status, winner and end time from the deals, and store them.

    The one function that writes those fields. Call it inside the transaction that changed
    the deals, with the locked game row: it also counts the game's `version` up by one, which
    tells the phones following the game that there is something new to show.
    """
    by_deal, recorded_at = sheets_and_times(game)
    replayed = replay_sheets(game, by_deal)
    seats = list(Seat.objects.filter(game=game).order_by("position"))
    for position, seat in enumerate(seats):
        for field, value in seat_figures(replayed, position, game.ruleset).items():
            setattr(seat, field, value)
    Seat.objects.bulk_update(seats, list(SEAT_FIGURES))
    if replayed.finished_after is not None:
        game.status = Game.Status.FINISHED
        game.winner_id = seats[replayed.winner].player_id
        game.finished_at = recorded_at[replayed.finished_after]
    else:
        game.status = Game.Status.IN_PROGRESS
        game.winner_id = None
        game.finished_at = None
    game_changed(game, saving=["status", "winner", "finished_at"])
    return replayed


def lock_game(game: Game) -> Game:
    """The game row, locked until the transaction ends (PostgreSQL; SQLite locks the file)."""
    return Game.objects.select_for_update().get(pk=game.pk)


def refresh_from(game: Game, locked: Game) -> None:
    """Let the caller's game object see what was just written."""
    game.status, game.winner_id, game.finished_at, game.version, game.ended = (
        locked.status,
        locked.winner_id,
        locked.finished_at,
        locked.version,
        locked.ended,
    )


def last_deal_number(game: Game) -> int:
    return Deal.objects.filter(game=game).aggregate(last=Max("number"))["last"] or 0


def tuple_or_none(values: Sequence[int] | None) -> tuple[int, ...] | None:
    return None if values is None else tuple(int(value) for value in values)


def twos_of(sheet: DealResult) -> tuple[int, ...]:
    return sheet.twos_held or (0,) * len(sheet.cards_left)


def penalties_of(game: Game, sheet: DealResult) -> list[int]:
    return [
        penalty(cards, game.ruleset, out_on_twos=sheet.out_on_twos, twos_held=twos)
        for cards, twos in zip(sheet.cards_left, twos_of(sheet), strict=True)
    ]


def checked_sheet(sheet: DealResult, seats: Sequence[Seat], game: Game) -> DealResult:
    sheet = DealResult(
        tuple(int(count) for count in sheet.cards_left), sheet.out_on_twos, sheet.twos_held
    )
    counts = [len(sheet.cards_left)] + ([len(sheet.twos_held)] if sheet.twos_held else [])
    if any(count != len(seats) for count in counts):
        raise ScoringError(
            _("Enter the cards left for all %(count)s players") % {"count": len(seats)}
        )
    problems = validate_deal(
        sheet.cards_left,
        [seat.player.name for seat in seats],
        game.ruleset,
        out_on_twos=sheet.out_on_twos,
        twos_held=sheet.twos_held,
    )
    if problems:
        raise InvalidDeal(problems)
    return sheet


def cards_left_of(deal: Deal) -> list[int]:
    return [score.cards_left for score in sorted(deal.scores.all(), key=lambda s: s.seat.position)]


def deal_sheets(game: Game) -> dict[int, DealResult]:
    return sheets_and_times(game)[0]


def sheets_and_times(game: Game) -> tuple[dict[int, DealResult], dict[int, datetime.datetime]]:
    """Every deal's score sheet by number, as the rules read it, and when each was recorded."""
    rows = (
        DealScore.objects.filter(deal__game=game)
        .order_by("deal__number", "seat__position")
        .values_list(
            "deal__number", "deal__recorded_at", "deal__out_on_twos", "cards_left", "twos_held"
        )
    )
    cards: dict[int, list[int]] = {}
    twos: dict[int, list[int]] = {}
    out_on_twos: dict[int, bool] = {}
    recorded_at: dict[int, datetime.datetime] = {}
    for number, at, out, count, held in rows:
        cards.setdefault(number, []).append(count)
        twos.setdefault(number, []).append(held)
        out_on_twos[number], recorded_at[number] = out, at
    sheets = {
        number: deal_sheet(game.ruleset, counts, out_on_twos[number], twos[number])
        for number, counts in cards.items()
    }
    return sheets, recorded_at


def deal_sheet(
    rules: RuleSet, cards_left: Sequence[int], out_on_twos: bool, twos_held: Sequence[int]
) -> DealResult:
    """A stored deal as the rules read it: the twos held count only under the stronger twos
    rule (the rows keep 0 for them otherwise)."""
    counted = tuple(twos_held) if rules.twos is TwosRule.EACH_TWO else None
    return DealResult(tuple(cards_left), out_on_twos, counted)


def replay_sheets(game: Game, by_deal: dict[int, DealResult]) -> GameReplay:
    deals = [by_deal[number] for number in sorted(by_deal)]
    return replay(deals, game.ruleset, players=game.ruleset.players, ended=game.ended)
