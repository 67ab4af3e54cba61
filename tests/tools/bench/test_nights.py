"""The club night benchmark (`python -m tools.bench.nights`) draws through the page and times
the TV board's answer after real deals. No timing is checked: only that it measured that."""

import argparse

from nights.models import Night
from scoring.models import Deal
from tools.bench import nights as bench


def test_the_bench_draws_by_the_page_and_reads_the_tv_after_each_deal(db, capsys):
    bench.run(argparse.Namespace(players=9, rounds=2, draws=2, deals=3))
    printed = capsys.readouterr().out
    assert "Draw the seats, 9 players, 2 rounds, as the page answers" in printed
    assert "A deal on the TV" in printed and "0.5 s poll" in printed
    assert Night.objects.count() == 2 and Deal.objects.count() == 3
