"""The split benchmark (`python -m tools.bench.split`) prints its figures: it times nothing the
suite relies on."""

import pytest

from rules.cards import parse_cards
from tools.bench import split as bench_split


def test_the_benchmark_prints_its_figures(capsys):
    assert bench_split.main(["--hands", "30", "--seed", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "arrangements: 30 hands, seed 3"
    assert lines[1].startswith("  median ")
    assert " ms, 95th percentile " in lines[1]
    assert lines[1].endswith(" ms")
    assert lines[2].endswith(" hands per second")
    worst = lines[3].removeprefix("  worst hand: ")
    assert len(parse_cards(worst)) == 13
    assert lines[4] == "answers, leading (every play in the hand):"
    assert lines[5].startswith("  median ")
    assert len(lines) == 6


def test_the_benchmark_refuses_no_hands(capsys):
    with pytest.raises(SystemExit):
        bench_split.main(["--hands", "0"])
    assert "--hands must be 1 or more" in capsys.readouterr().err
