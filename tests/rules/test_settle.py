"""Settling up at a money table: each pair settles the difference in points at the stake."""

from decimal import Decimal, localcontext
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import i18n
from rules.settle import Net, Payment, Settlement, format_amount, settle

NAMES = ("Ann", "Ben", "Cat", "Dev", "Eve", "Fay")


def nets(settlement: Settlement) -> dict[str, Decimal]:
    return {net.name: net.amount for net in settlement.nets}


def balances_after(settlement: Settlement) -> dict[str, Decimal]:
    """Each player's net once every payment has been made: all zero when the table is settled."""
    left = nets(settlement)
    for payment in settlement.payments:
        left[payment.payer] += payment.amount
        left[payment.payee] -= payment.amount
    return left


def fewest_payments_by_brute_force(amounts: list[Decimal]) -> int:
    """Try every set of pairs, smallest first: a set can carry the payments that settle the table
    exactly when the players it joins up form groups whose nets add up to zero."""
    seats = range(len(amounts))
    pairs = list(combinations(seats, 2))
    for count in range(len(pairs) + 1):
        for chosen in combinations(pairs, count):
            group = list(seats)
            for a, b in chosen:
                old, new = group[a], group[b]
                group = [new if g == old else g for g in group]
            sums = {g: sum(amounts[seat] for seat in seats if group[seat] == g) for g in group}
            if not any(sums.values()):
                return count
    raise AssertionError("the complete graph always settles a table adding up to zero")


# 2-4 players (the site's tables), totals a sitting could reach, stakes with 0-3 decimals.
tables = st.integers(min_value=2, max_value=4).flatmap(
    lambda players: st.lists(
        st.integers(min_value=0, max_value=300), min_size=players, max_size=players
    )
)
stakes = st.builds(
    lambda units, decimals: Decimal(units).scaleb(-decimals),
    st.integers(min_value=0, max_value=2000),
    st.integers(min_value=0, max_value=3),
)


def test_the_worked_example_at_ten_cents_a_point():
    result = settle(NAMES[:4], [10, 52, 30, 108], Decimal("0.10"))
    assert result.nets == (
        Net("Ann", Decimal("16.00")),
        Net("Ben", Decimal("-0.80")),
        Net("Cat", Decimal("8.00")),
        Net("Dev", Decimal("-23.20")),
    )
    assert result.payments == (
        Payment("Ben", "Cat", Decimal("0.80")),
        Payment("Dev", "Ann", Decimal("16.00")),
        Payment("Dev", "Cat", Decimal("7.20")),
    )


def test_the_player_with_the_fewest_points_collects_from_everybody():
    """Ann, lowest on 10, wins the difference from each of the others: 42 + 20 + 98 points."""
    result = nets(settle(NAMES[:4], [10, 52, 30, 108], Decimal("0.10")))
    assert result["Ann"] == Decimal("16.00") == (42 + 20 + 98) * Decimal("0.10")
    assert result["Ann"] == max(result.values())


def test_two_players_settle_the_difference_between_their_scores():
    result = settle(["Ann", "Ben"], [12, 40], Decimal("0.50"))
    assert nets(result) == {"Ann": Decimal("14.00"), "Ben": Decimal("-14.00")}
    assert result.payments == (Payment("Ben", "Ann", Decimal("14.00")),)


@given(totals=tables, stake=stakes)
def test_fewer_points_never_means_less_money(totals, stake):
    """The lowest total wins the most; rounding to the cent never reorders the table."""
    result = settle(NAMES[: len(totals)], totals, stake)
    amounts = [net.amount for net in result.nets]
    for a, b in combinations(range(len(totals)), 2):
        if totals[a] < totals[b]:
            assert amounts[a] >= amounts[b]
    lowest = totals.index(min(totals))
    assert amounts[lowest] == max(amounts) >= 0


@given(totals=tables, stake=stakes)
def test_nets_add_up_to_zero_to_the_cent(totals, stake):
    result = settle(NAMES[: len(totals)], totals, stake)
    assert sum(net.amount for net in result.nets) == 0
    assert all(net.amount.as_tuple().exponent == -2 for net in result.nets)


@given(totals=tables, stake=stakes.filter(lambda stake: stake.as_tuple().exponent >= -2))
def test_a_stake_in_whole_cents_gives_exact_nets(totals, stake):
    """Net = stake × (sum of all totals − players × own total), with nothing rounded."""
    result = settle(NAMES[: len(totals)], totals, stake)
    for net, total in zip(result.nets, totals, strict=True):
        assert net.amount == stake * (sum(totals) - len(totals) * total)


@given(totals=tables, stake=stakes)
def test_the_payments_settle_every_net_exactly(totals, stake):
    result = settle(NAMES[: len(totals)], totals, stake)
    assert not any(balances_after(result).values())
    assert all(payment.amount > 0 for payment in result.payments)


@given(totals=tables, stake=stakes)
def test_nobody_both_pays_and_is_paid(totals, stake):
    result = settle(NAMES[: len(totals)], totals, stake)
    payers = {payment.payer for payment in result.payments}
    payees = {payment.payee for payment in result.payments}
    assert not payers & payees


@given(totals=tables, stake=stakes)
def test_the_payments_are_as_few_as_can_be(totals, stake):
    result = settle(NAMES[: len(totals)], totals, stake)
    amounts = [net.amount for net in result.nets]
    assert len(result.payments) == fewest_payments_by_brute_force(amounts)


@given(totals=tables, stake=stakes)
def test_payments_are_listed_by_the_payers_seat_then_the_payees(totals, stake):
    names = NAMES[: len(totals)]
    result = settle(names, totals, stake)
    seats = [(names.index(p.payer), names.index(p.payee)) for p in result.payments]
    assert seats == sorted(seats)


def test_two_pairs_that_cancel_out_settle_in_two_payments_not_three():
    result = settle(NAMES[:4], [10, 30, 10, 30], Decimal(1))
    assert result.payments == (
        Payment("Ben", "Ann", Decimal("40.00")),
        Payment("Dev", "Cat", Decimal("40.00")),
    )


def test_five_players_find_the_pair_that_cancels_out():
    """Nets +40, +35, −30, −35, −10: largest debtor pays largest creditor takes four payments,
    but Dev and Ben cancel out, so three will do."""
    result = settle(NAMES[:5], [5, 6, 19, 20, 15], Decimal(1))
    assert [net.amount for net in result.nets] == [40, 35, -30, -35, -10]
    assert result.payments == (
        Payment("Cat", "Ann", Decimal("30.00")),
        Payment("Dev", "Ben", Decimal("35.00")),
        Payment("Eve", "Ann", Decimal("10.00")),
    )


def test_six_players_settle_too():
    result = settle(NAMES, [0, 13, 26, 39, 52, 70], Decimal("0.05"))
    assert not any(balances_after(result).values())
    assert len(result.payments) == fewest_payments_by_brute_force(
        [net.amount for net in result.nets]
    )


def test_a_stake_of_an_eighth_of_a_cent_per_point_still_adds_up_to_zero():
    """Each pair's amount is rounded half-up to the cent (0.125 → 0.13, 0.375 → 0.38) first."""
    result = settle(["Ann", "Ben", "Cat"], [0, 1, 3], Decimal("0.125"))
    assert nets(result) == {"Ann": Decimal("0.51"), "Ben": Decimal("0.12"), "Cat": Decimal("-0.63")}
    assert sum(nets(result).values()) == 0
    assert not any(balances_after(result).values())


def test_a_currency_without_cents_rounds_to_whole_units():
    result = settle(["Ann", "Ben", "Cat"], [0, 1, 3], Decimal("2.5"), places=0)
    assert nets(result) == {"Ann": Decimal(11), "Ben": Decimal(2), "Cat": Decimal(-13)}
    assert str(result.nets[0].amount) == "11"


def test_the_callers_decimal_context_changes_nothing():
    expected = settle(NAMES[:4], [1000, 1, 999, 2], Decimal("123.45"))
    with localcontext(prec=3):
        assert settle(NAMES[:4], [1000, 1, 999, 2], Decimal("123.45")) == expected
    assert sum(net.amount for net in expected.nets) == 0


@pytest.mark.parametrize(
    ("totals", "stake"), [([10, 52, 30, 108], Decimal(0)), ([44, 44, 44, 44], Decimal("0.10"))]
)
def test_a_zero_stake_or_level_scores_mean_nobody_pays(totals, stake):
    result = settle(NAMES[:4], totals, stake)
    assert result.payments == ()
    assert [str(net.amount) for net in result.nets] == ["0.00"] * 4


def test_a_whole_number_stake_is_taken_as_a_decimal():
    assert nets(settle(["Ann", "Ben"], [0, 3], 2)) == {"Ann": 6, "Ben": -6}


@pytest.mark.parametrize(
    ("names", "totals", "stake", "message"),
    [
        (["Ann", "Ben"], [1, 2], Decimal("-0.10"), "the stake can't be negative: -0.10"),
        (["Ann", "Ben"], [1, 2, 3], Decimal(1), "3 totals for 2 players"),
        (["Ann"], [1], Decimal(1), "at least 2 players, not 1"),
        ([], [], Decimal(1), "at least 2 players, not 0"),
        (["Ann", "Ben", "Ann"], [1, 2, 3], Decimal(1), "different name: Ann repeated"),
        (["Ann", "Ben"], [1, 2], Decimal("NaN"), "must be an amount of money, not NaN"),
        (["Ann", "Ben"], [1, 2], Decimal("Infinity"), "not Infinity"),
    ],
)
def test_bad_input_is_refused_in_plain_words(names, totals, stake, message):
    with pytest.raises(ValueError, match=message):
        settle(names, totals, stake)


def test_negative_places_are_refused():
    with pytest.raises(ValueError, match="places can't be negative: -1"):
        settle(["Ann", "Ben"], [1, 2], Decimal(1), places=-1)


def test_a_float_stake_is_refused_because_it_cannot_hold_ten_cents():
    with pytest.raises(TypeError, match=r"Decimal\('0.10'\), not 0.1"):
        settle(["Ann", "Ben"], [1, 2], 0.1)


@pytest.mark.parametrize(
    ("amount", "currency", "written"),
    [
        (Decimal("4.20"), "", "4.20"),
        (Decimal("4.20"), "£", "£4.20"),
        (Decimal("4.20"), "HK$", "HK$4.20"),
        (Decimal("4.20"), "HKD", "4.20 HKD"),
        (Decimal("4.20"), "hkd", "4.20 HKD"),
        (Decimal("-4.20"), "£", "-£4.20"),
        (Decimal("-4.20"), "EUR", "-4.20 EUR"),
        (Decimal("1234.50"), "", "1234.50"),
        (Decimal("-0.00"), "", "0.00"),
        (Decimal("500"), "¥", "¥500"),
        (Decimal("1E+3"), "", "1000"),
    ],
)
def test_amounts_are_written_with_a_symbol_before_or_a_code_after(amount, currency, written):
    assert format_amount(amount, currency) == written


def test_a_payment_reads_as_a_sentence():
    payment = Payment("Ben", "Ann", Decimal("4.20"))
    assert payment.sentence() == "Ben pays Ann 4.20"
    assert payment.sentence("HKD") == "Ben pays Ann 4.20 HKD"


def test_the_sentence_goes_through_the_catalog(monkeypatch):
    """A language may put the words in another order: the payee first, say."""
    monkeypatch.setattr(i18n, "_catalog", lambda language: _PayeeFirst())
    assert Payment("Ben", "Ann", Decimal("4.20")).sentence("£") == "Ann ← Ben £4.20"


class _PayeeFirst:
    def gettext(self, message: str) -> str:
        assert message == "%(payer)s pays %(payee)s %(amount)s"
        return "%(payee)s ← %(payer)s %(amount)s"


def test_a_seasons_nets_are_settled_in_the_fewest_payments():
    from rules.settle import settle_balances

    result = settle_balances(
        ["Ann", "Ben", "Cat", "Dev"],
        [Decimal("3.00"), Decimal("-3.00"), Decimal("1.25"), Decimal("-1.25")],
    )
    assert [payment.sentence("£") for payment in result.payments] == [
        "Ben pays Ann £3.00",
        "Dev pays Cat £1.25",
    ]


def test_a_big_league_is_settled_quickly_if_not_in_the_fewest_payments():
    from rules.settle import EXACT_UP_TO, settle_balances

    names = [f"P{seat}" for seat in range(EXACT_UP_TO + 4)]
    balances = [Decimal(seat + 1) for seat in range(len(names) - 1)]
    balances.append(-sum(balances))
    result = settle_balances(names, balances)
    assert len(result.payments) == len(names) - 1
    assert all(payment.payer == names[-1] for payment in result.payments)


def test_balances_that_do_not_add_up_are_refused():
    from rules.settle import settle_balances

    with pytest.raises(ValueError, match="add up to zero"):
        settle_balances(["Ann", "Ben"], [Decimal(1), Decimal(0)])
    with pytest.raises(ValueError, match="2 balances for 3 players"):
        settle_balances(["Ann", "Ben", "Cat"], [Decimal(1), Decimal(-1)])
