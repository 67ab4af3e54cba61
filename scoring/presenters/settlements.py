"""Who wins and who owes, as a page shows it: in the club's currency, a game at a time
(`Settling`) or a season's games added up (`SeasonSettlement`)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from decimal import Decimal

from rules.settle import Settlement, format_amount, settle, settle_balances
from scoring import selectors
from scoring.models import Season, shown_stake


def net_lines(settlement: Settlement, currency: str) -> list[tuple[str, str, int]]:
    """Each player's net as a page shows it: (name, amount, sign), +1 wins, -1 owes, 0 square."""
    return [
        (net.name, format_amount(abs(net.amount), currency), (net.amount > 0) - (net.amount < 0))
        for net in settlement.nets
    ]


@dataclass(frozen=True, slots=True)
class Settling:
    """A settlement as a page shows it: amounts in the club's currency."""

    settlement: Settlement
    stake: Decimal
    currency: str

    @property
    def stake_text(self) -> str:
        return format_amount(shown_stake(self.stake), self.currency)

    @property
    def nets(self) -> list[tuple[str, str, int]]:
        return net_lines(self.settlement, self.currency)

    @property
    def payments(self) -> list[str]:
        return [payment.sentence(self.currency) for payment in self.settlement.payments]


@dataclass(frozen=True, slots=True)
class SeasonSettlement:
    """What the season's games played for money come to, each settled at its own stake."""

    games: int
    nets: list[tuple[str, str, int]]  # (name, amount, sign): +1 wins, -1 owes, 0 square
    payments: list[str]


def season_settlement(season: Season) -> SeasonSettlement | None:
    """Each finished game with a stake settled as its table would, the nets added up per
    player, and the fewest payments that settle the lot."""
    rows = selectors.staked_seats(season)
    balances: dict[str, Decimal] = {}
    games = 0
    for _game, seats in itertools.groupby(rows, key=lambda row: row[0]):
        seats = list(seats)
        games += 1
        names = [name for _, _, name, _ in seats]
        settled = settle(names, [total for *_, total in seats], seats[0][1])
        for net in settled.nets:
            balances[net.name] = balances.get(net.name, Decimal("0.00")) + net.amount
    if not games:
        return None
    names = sorted(balances, key=lambda name: (-balances[name], name.casefold()))
    settled = settle_balances(names, [balances[name] for name in names])
    currency = season.club.currency
    return SeasonSettlement(
        games=games,
        nets=net_lines(settled, currency),
        payments=[payment.sentence(currency) for payment in settled.payments],
    )
