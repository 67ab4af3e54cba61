"""Settling up at a table that plays for money: who wins what, and who pays whom.

The table agrees a stake per point and each pair of players settles the difference between
their totals, so the player with more points pays the other (difference × stake). That comes to
the same thing as: the player with the fewest points collects from everybody. A player's net is
stake × (sum of all totals − players × own total), and the nets add up to zero.

Totals are penalty points, as in rules.penalties (lower is better). Money is a Decimal with
`places` digits after the point (2 for cents; 0 for a currency without a minor unit).

Worked example, at ten cents a point: Ann 10, Ben 52, Cat 30, Dev 108.

>>> result = settle(["Ann", "Ben", "Cat", "Dev"], [10, 52, 30, 108], Decimal("0.10"))
>>> [(net.name, str(net.amount)) for net in result.nets]
[('Ann', '16.00'), ('Ben', '-0.80'), ('Cat', '8.00'), ('Dev', '-23.20')]
>>> [payment.sentence() for payment in result.payments]
['Ben pays Cat 0.80', 'Dev pays Ann 16.00', 'Dev pays Cat 7.20']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import MAX_EMAX, MAX_PREC, MIN_EMIN, ROUND_HALF_UP, Context, Decimal, localcontext
from functools import cache
from itertools import combinations

from rules.i18n import gettext


@dataclass(frozen=True, slots=True)
class Net:
    """What one player wins (a positive amount) or owes (a negative one) over the whole game."""

    name: str
    amount: Decimal


@dataclass(frozen=True, slots=True)
class Payment:
    """One transfer of money that helps settle the table; `amount` is always positive."""

    payer: str
    payee: str
    amount: Decimal

    def sentence(self, currency: str = "") -> str:
        """The payment in words, in the active language.

        >>> Payment("Ben", "Ann", Decimal("4.20")).sentence("£")
        'Ben pays Ann £4.20'
        """
        return gettext("%(payer)s pays %(payee)s %(amount)s") % {
            "payer": self.payer,
            "payee": self.payee,
            "amount": format_amount(self.amount, currency),
        }


@dataclass(frozen=True, slots=True)
class Settlement:
    """Each player's net in seat order, and the fewest payments that settle them all."""

    nets: tuple[Net, ...]
    payments: tuple[Payment, ...]


def settle(
    names: Sequence[str], totals: Sequence[int], stake: Decimal, *, places: int = 2
) -> Settlement:
    """Nets and payments for these totals at `stake` per point, in amounts with `places` decimals.

    Rounding: when the stake has more decimals than the money (an eighth of a cent, a quarter of
    a yen), each pair's amount is rounded half-up to `places` before anything is added, and a
    net is the sum of its player's rounded pair amounts. So the nets still add up to zero to the
    last cent, and every net is what the pairs at the table would have paid each other; the
    price is that a net can be a cent away from stake × (sum − n × own) rounded on its own.
    With a stake of no more decimals than `places`, nothing is rounded and the nets are exact.

    >>> result = settle(["Ann", "Ben", "Cat"], [0, 1, 3], Decimal("0.125"))
    >>> [str(net.amount) for net in result.nets]
    ['0.51', '0.12', '-0.63']

    Payments are the fewest that settle every net; finding them takes time exponential in the
    number of players (see `_zero_sum_groups`), which is nothing for a table of two to four.
    """
    if isinstance(stake, float):
        # A float can't hold 0.10 exactly, and the error would show up in rounding half-up.
        raise TypeError(f"give the stake as a Decimal, such as Decimal('0.10'), not {stake!r}")
    stake = Decimal(stake)
    if len(names) != len(totals):
        raise ValueError(f"{len(totals)} totals for {len(names)} players")
    if len(names) < 2:
        raise ValueError(f"settling up needs at least 2 players, not {len(names)}")
    if len(set(names)) != len(names):
        repeated = sorted({name for name in names if names.count(name) > 1})
        raise ValueError(f"each player needs a different name: {', '.join(repeated)} repeated")
    if not stake.is_finite():
        raise ValueError(f"the stake must be an amount of money, not {stake}")
    if stake < 0:
        raise ValueError(f"the stake can't be negative: {stake}")
    if places < 0:
        raise ValueError(f"places can't be negative: {places}")

    unit = Decimal(1).scaleb(-places)
    # A context of our own, with room for every product and sum to be exact: whatever the
    # caller's decimal context says, rounding each pair's amount to `unit` is the only rounding.
    with localcontext(Context(prec=MAX_PREC, Emax=MAX_EMAX, Emin=MIN_EMIN)):
        balances = [Decimal(0).quantize(unit)] * len(names)
        for low, high in combinations(range(len(names)), 2):
            difference = abs(totals[high] - totals[low])
            amount = (difference * stake).quantize(unit, rounding=ROUND_HALF_UP)
            winner, loser = (low, high) if totals[low] < totals[high] else (high, low)
            balances[winner] += amount
            balances[loser] -= amount
    return settle_balances(names, balances)


# Beyond this many players owing or owed, the exact search for the fewest payments (3^n) is
# too slow for a page: a season's league can have twenty.
EXACT_UP_TO = 10


def settle_balances(names: Sequence[str], balances: Sequence[Decimal]) -> Settlement:
    """The payments that settle these nets (adding up to zero): a season's games added up.

    The fewest payments while at most EXACT_UP_TO players owe or are owed; past that, the
    largest debtor pays the largest creditor, which takes at most one fewer than them.

    >>> nets = [Decimal("2.50"), Decimal("-3"), Decimal("0.50")]
    >>> result = settle_balances(["Ann", "Ben", "Cat"], nets)
    >>> [payment.sentence() for payment in result.payments]
    ['Ben pays Ann 2.50', 'Ben pays Cat 0.50']
    """
    if len(names) != len(balances):
        raise ValueError(f"{len(balances)} balances for {len(names)} players")
    with localcontext(Context(prec=MAX_PREC, Emax=MAX_EMAX, Emin=MIN_EMIN)):
        return _settle_balances(names, balances)


def _settle_balances(names: Sequence[str], balances: Sequence[Decimal]) -> Settlement:
    if sum(balances) != 0:
        raise ValueError(f"balances must add up to zero, not {sum(balances)}")
    owing_or_owed = tuple(seat for seat, amount in enumerate(balances) if amount)
    groups = (
        _zero_sum_groups(tuple(balances)) if len(owing_or_owed) <= EXACT_UP_TO else (owing_or_owed,)
    )
    transfers = sorted(transfer for group in groups for transfer in _settle_group(group, balances))
    nets = tuple(Net(name, amount) for name, amount in zip(names, balances, strict=True))
    payments = tuple(
        Payment(names[payer], names[payee], amount) for payer, payee, amount in transfers
    )
    return Settlement(nets=nets, payments=payments)


def _zero_sum_groups(balances: tuple[Decimal, ...]) -> tuple[tuple[int, ...], ...]:
    """The seats owing or owed, split into as many groups that each add up to zero as can be.

    A group of k settles among itself in k − 1 payments, and no table of n can settle in fewer
    than n − (the most such groups), since the players joined by any set of payments form groups
    that add up to zero. So this split gives the fewest payments; largest debtor pays largest
    creditor does not always (with five or more players it can miss a pair that cancels out).

    The search tries every group holding the first seat left, smallest first, and keeps the
    first best split, so the answer is always the same. It is exponential in the number of
    players: trivial up to a dozen or so, and the site seats two to four.

    >>> _zero_sum_groups((Decimal(5), Decimal(-5), Decimal(0), Decimal(2), Decimal(-2)))
    ((0, 1), (3, 4))
    """

    @cache
    def best_split(seats: frozenset[int]) -> tuple[tuple[int, ...], ...]:
        if not seats:
            return ()
        first, *rest = sorted(seats)
        best: tuple[tuple[int, ...], ...] = ()
        for size in range(len(rest) + 1):
            for others in combinations(rest, size):
                group = (first, *others)
                if sum(balances[seat] for seat in group) != 0:
                    continue
                split = (group, *best_split(seats.difference(group)))
                if len(split) > len(best):
                    best = split
        # Never empty: what is left of a zero-sum table after zero-sum groups adds up to zero.
        return best

    return best_split(frozenset(seat for seat, amount in enumerate(balances) if amount))


def _settle_group(
    group: tuple[int, ...], balances: Sequence[Decimal]
) -> list[tuple[int, int, Decimal]]:
    """Payments (payer, payee, amount) that settle a group adding up to zero, one fewer than its
    size: each pays off a debtor or a creditor in full, and the last pays off both.

    The largest debtor pays the largest creditor, so nobody both pays and is paid.
    """
    left = {seat: balances[seat] for seat in group}
    payments = []
    while any(left.values()):
        # Ties go to the earlier seat: max() keeps the first of equal keys.
        payer = max(group, key=lambda seat: -left[seat])
        payee = max(group, key=lambda seat: left[seat])
        amount = min(-left[payer], left[payee])
        payments.append((payer, payee, amount))
        left[payer] += amount
        left[payee] -= amount
    return payments


def format_amount(amount: Decimal, currency: str = "") -> str:
    """An amount of money as a table would write it.

    A three-letter code (ISO 4217) goes after the number, in capitals; anything else is a symbol
    and goes before it, after any minus sign. The number keeps the decimals it has (settle gives
    every amount the same number), with no thousands separator.

    >>> format_amount(Decimal("4.20")), format_amount(Decimal("4.20"), "£")
    ('4.20', '£4.20')
    >>> format_amount(Decimal("-4.20"), "hkd"), format_amount(Decimal("-4.20"), "HK$")
    ('-4.20 HKD', '-HK$4.20')
    """
    sign = "-" if amount < 0 else ""
    number = f"{abs(amount):f}"
    if len(currency) == 3 and currency.isascii() and currency.isalpha():
        return f"{sign}{number} {currency.upper()}"
    return f"{sign}{currency}{number}"
