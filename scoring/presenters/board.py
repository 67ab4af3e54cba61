"""What a game's page shows: its scoreboard (`Board`), each deal's line and cell, the totals,
the tie and the winner, the chart, and the settling up of a game played for a stake."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from django.http import Http404
from django.utils.translation import gettext as _

from rules.options import Finish
from rules.penalties import GameReplay, replay
from rules.settle import settle
from scoring import selectors
from scoring.charts import Chart, running_totals_chart
from scoring.models import Game, Seat
from scoring.presenters.settlements import Settling
from scoring.services import deal_sheet
from scoring.wording import names_and


@dataclass(frozen=True, slots=True)
class Cell:
    cards_left: int
    penalty: int
    total: int
    twos_held: int = 0


@dataclass(frozen=True, slots=True)
class Line:
    number: int
    cells: list[Cell]
    out_on_twos: bool = False


@dataclass(frozen=True, slots=True)
class TotalCell:
    seat: Seat
    lowest: bool


class Board:
    """A game with its seats, and its deals replayed for running totals and the tie.

    The deals are loaded only when something reads them: the game page mostly shows a
    scoreboard fragment already cached for this version of the game, and then never needs them.
    """

    def __init__(self, game: Game, seats: list[Seat]) -> None:
        self.game = game
        self.seats = seats

    @cached_property
    def _deals(self) -> tuple[list[Line], GameReplay]:
        deals = list(selectors.deals_with_scores(self.game))
        rules = self.game.ruleset
        sheets = [
            deal_sheet(
                rules,
                [score.cards_left for score in deal.scores.all()],
                deal.out_on_twos,
                [score.twos_held for score in deal.scores.all()],
            )
            for deal in deals
        ]
        replayed = replay(sheets, rules, players=len(self.seats), ended=self.game.ended)
        lines = [
            Line(
                number=deal.number,
                cells=[
                    Cell(
                        cards_left=score.cards_left,
                        penalty=score.penalty,
                        total=total,
                        twos_held=score.twos_held,
                    )
                    for score, total in zip(deal.scores.all(), again.totals, strict=True)
                ],
                out_on_twos=deal.out_on_twos,
            )
            for deal, again in zip(deals, replayed.deals, strict=True)
        ]
        return lines, replayed

    @property
    def lines(self) -> list[Line]:
        return self._deals[0]

    @property
    def replayed(self) -> GameReplay:
        return self._deals[1]

    @property
    def names(self) -> list[str]:
        return [seat.player.name for seat in self.seats]

    @property
    def next_number(self) -> int:
        # Every seat plays every deal, and recompute keeps the count in the same transaction.
        return self.seats[0].deals_played + 1

    @property
    def last_number(self) -> int | None:
        return self.lines[-1].number if self.lines else None

    @property
    def winner_name(self) -> str | None:
        if not self.game.is_finished:
            return None
        return next(s.player.name for s in self.seats if s.player_id == self.game.winner_id)

    @property
    def winner_text(self) -> str:
        """ "Ann wins with 57" once the game is over."""
        winner = next((s for s in self.seats if s.player_id == self.game.winner_id), None)
        if winner is None:
            return ""
        return _("%(name)s wins with %(total)s") % {
            "name": winner.player.name,
            "total": winner.total,
        }

    @property
    def final_totals(self) -> str:
        return ", ".join(f"{seat.player.name} {seat.total}" for seat in self.seats)

    @property
    def tied_text(self) -> str:
        """ "Ann and Ben are tied for lowest on 57 — play another deal" while that holds."""
        names = self.tied_names
        if not names:
            return ""
        return _("%(names)s are tied for lowest on %(total)s — play another deal") % {
            "names": names_and(names),
            "total": self.lowest_total,
        }

    @property
    def totals(self) -> list[TotalCell]:
        lowest = set(self.replayed.outcome.lowest) if self.lines else set()
        return [TotalCell(seat, seat.position in lowest) for seat in self.seats]

    @property
    def tied_names(self) -> list[str]:
        outcome = self.replayed.outcome
        if self.game.is_finished or not outcome.tied:
            return []
        return [self.seats[position].player.name for position in outcome.lowest]

    @property
    def lowest_total(self) -> int:
        return min(seat.total for seat in self.seats)

    def chart(self) -> Chart | None:
        if not self.lines:
            return None
        rules = self.game.ruleset
        target = rules.target if rules.finish is Finish.TARGET else None
        return running_totals_chart(self.names, self.replayed.running_totals, target)

    @property
    def settlement(self) -> Settling | None:
        """Who pays whom at the end of a game played for a stake."""
        if not self.game.is_finished or not self.game.stake:
            return None
        totals = [seat.total for seat in self.seats]
        return Settling(
            settle(self.names, totals, self.game.stake), self.game.stake, self.game.club.currency
        )


def load_board(game: Game) -> Board:
    """The game as it is now with its seats, in one query; its deals and their scores (two
    more) when first read.

    Load and render it in a `read_snapshot()`, so that all of it is of one state of the game,
    and show the game as `board.game`, read here again beside the seats: the `game` given may
    be a copy read before a change (a view that has just made one holds such a copy), and
    another phone may have changed the game since.
    """
    seats = selectors.board_seats(game)
    if not seats:
        raise Http404  # deleted since `game` was read
    return Board(seats[0].game, seats)
